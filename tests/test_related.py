"""Related entries: hand-picked ones first, then the entries that name this one, then computed similar ones, labelled,
in a stable order."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pitfalls.pages.listings import SiteIndex
from pitfalls.pages.render import SiteRenderer
from pitfalls.records.validate import load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"


def test_similar_entries_share_tags_and_terms_and_are_stable():
    base = load_knowledge_base(ROOT / "content")
    index = SiteIndex(base)
    # the two SSH entries share the tag ssh and the words "connection", "server", "连接"
    assert index.similar(base.record("ssh-disconnect"))[0].id == "ssh-port-blocked"
    assert index.similar(base.record("ssh-port-blocked"))[0].id == "ssh-disconnect"
    # both show "RuntimeError: CUDA error: no kernel image is available"
    assert index.similar(base.record("docker-gpu"))[0].id == "cuda-pytorch-mismatch"
    again = SiteIndex(load_knowledge_base(ROOT / "content"))
    for record in base.records:
        similar = index.similar(record)
        assert record not in similar and len(similar) <= 5
        assert [r.id for r in similar] == [r.id for r in again.similar(record)]


def test_hand_picked_entries_are_shown_beside_the_computed_ones(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    third = content / "entries" / "oom-again.yml"
    third.write_text((content / "entries" / "gpu-oom.yml").read_text(encoding="utf-8")
                     .replace("id: gpu-oom", "id: oom-again").replace("aliases: [cuda-oom-old]\n", "")
                     .replace("related: [docker-no-gpu]\n", ""), encoding="utf-8")
    base = load_knowledge_base(content)
    index = SiteIndex(base)
    gpu_oom = base.record("gpu-oom")
    assert [r.id for r in index.related(gpu_oom)] == ["docker-no-gpu"]
    assert [r.id for r in index.similar(gpu_oom)] == ["oom-again"]  # the hand-picked one is not repeated
    page = SiteRenderer(base, "en").entry(gpu_oom).content
    section = page[page.index('<h2 id="related">'):]
    labels = re.findall(r'<p class="pf-related-label">([^<]+)</p>', section)
    assert labels == ["Picked by the author", "Similar entries (shared tags and terms)"]
    assert section.index("../docker-no-gpu/") < section.index("../oom-again/")
    # an entry that names gpu-oom is listed as linking to it, not again as similar
    third.write_text(third.read_text(encoding="utf-8") + "related: [gpu-oom]\n", encoding="utf-8")
    base = load_knowledge_base(content)
    index = SiteIndex(base)
    assert [r.id for r in index.linking(base.record("gpu-oom"))] == ["oom-again"]
    assert index.similar(base.record("gpu-oom")) == ()


def test_an_entry_lists_the_entries_that_name_it(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    entries = content / "entries"
    # two more specific entries name the general gpu-oom; the first of them is also named by gpu-oom
    for new, related in (("kv-cache-oom", "[gpu-oom]"), ("adam-state-oom", "[gpu-oom, docker-no-gpu]")):
        (entries / f"{new}.yml").write_text(
            (entries / "docker-no-gpu.yml").read_text(encoding="utf-8").replace("id: docker-no-gpu", f"id: {new}")
            + f"related: {related}\n", encoding="utf-8")
    gpu_oom = entries / "gpu-oom.yml"
    gpu_oom.write_text(gpu_oom.read_text(encoding="utf-8").replace("related: [docker-no-gpu]", "related: [kv-cache-oom]"),
                       encoding="utf-8")
    base = load_knowledge_base(content)
    index = SiteIndex(base)
    assert [r.id for r in base.records] == ["adam-state-oom", "docker-no-gpu", "gpu-oom", "kv-cache-oom"]
    # in the records' order; kv-cache-oom, which gpu-oom names itself, is listed once, as picked
    assert [r.id for r in index.linking(base.record("gpu-oom"))] == ["adam-state-oom"]
    assert [r.id for r in index.related(base.record("gpu-oom"))] == ["kv-cache-oom"]
    assert [r.id for r in index.linking(base.record("docker-no-gpu"))] == ["adam-state-oom"]
    assert index.linking(base.record("adam-state-oom")) == ()
    page = SiteRenderer(base, "zh").entry(base.record("gpu-oom")).content
    section = page[page.index('<h2 id="related">'):]
    assert re.findall(r'<p class="pf-related-label">([^<]+)</p>', section)[:2] == ["作者推荐", "链接到本条目的条目"]
    assert section.index("../kv-cache-oom/") < section.index("../adam-state-oom/")
    assert section.count("../adam-state-oom/") == 1


def test_an_entry_with_nothing_in_common_has_no_related_section(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    gpu_oom = content / "entries" / "gpu-oom.yml"  # names docker-no-gpu, which would then list it
    gpu_oom.write_text(gpu_oom.read_text(encoding="utf-8").replace("related: [docker-no-gpu]\n", ""), encoding="utf-8")
    base = load_knowledge_base(content)
    docker = base.record("docker-no-gpu")
    assert SiteIndex(base).similar(docker) == ()
    assert '<h2 id="related">' not in SiteRenderer(base, "zh").entry(docker).content
