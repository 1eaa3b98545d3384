"""Loader and validator on small fixtures: exact messages, with file, field and line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from pitfalls.records import schema, validate
from pitfalls.records.load import Problem, read_yaml
from pitfalls.records.model import Label, Reference, Step, Text
from pitfalls.records.registries import entry_yaml, with_entry
from pitfalls.records.validate import ContentError, check_content, inspect_content, load_knowledge_base

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture
def content(tmp_path) -> Path:
    """A writable copy of the tiny fixture content."""
    target = tmp_path / "content"
    shutil.copytree(TINY, target)
    return target


def errors(content: Path) -> list[str]:
    _, problems = check_content(content)
    return [str(p) for p in problems if p.severity == "error"]


def test_tiny_fixture_loads_into_typed_records():
    base = load_knowledge_base(TINY)
    assert [r.id for r in base.records] == ["docker-no-gpu", "gpu-oom"]
    oom = base.record("gpu-oom")
    assert oom.category.key == "training" and oom.category.en == "Training"
    assert [t.key for t in oom.tags] == ["cuda", "gpu-memory"]
    assert oom.symptoms[0].verbatim and oom.symptoms[0].text.get("en") == oom.symptoms[0].text.get("zh")
    assert not oom.symptoms[1].verbatim and oom.symptoms[1].text.en == "OOM at the first training step"
    assert oom.steps[1].code == "nvidia-smi --query-gpu=memory.used --format=csv"
    assert oom.environment == {"os": "Ubuntu 22.04", "cuda": "12.1", "frameworks": "PyTorch 2.1"}
    assert oom.last_verified == "2026-11-01" and oom.aliases == ("cuda-oom-old",)
    assert oom.source == "tests/fixtures/tiny/entries/gpu-oom.yml"  # project-relative: the edit link's path
    assert oom.translated("en") and not base.record("docker-no-gpu").translated("en")
    assert oom.title == Text(zh="显存不足", en="Out of GPU memory") and oom.quick_fix.zh == "减小 `batch_size`"
    assert oom.cause == Text(zh="模型、激活值和优化器状态的总和超过了显存容量。",
                             en="Model weights, activations and optimizer state together exceed GPU memory.")
    assert oom.verification == Step(Text(zh="再次运行训练，确认不再报错：", en="Run training again and confirm the error is gone:"),
                                    code="python train.py --batch-size 16")
    assert oom.references == (Reference("PyTorch CUDA semantics", "https://pytorch.org/docs/stable/notes/cuda.html"),)
    assert oom.related == ("docker-no-gpu",) and oom.signatures == ()
    docker = base.record("docker-no-gpu")  # the optional fields left out
    assert (docker.cause, docker.verification, docker.references, docker.related, docker.environment) == (None, None, (), (), {})
    assert (docker.last_verified, docker.aliases, docker.title.en, docker.steps[0].text.en) == (None, (), None, None)
    assert [c.key for c in base.categories] == ["training", "deployment"]  # registry order
    assert [t.key for t in base.tags] == ["cuda", "gpu-memory", "docker", "unused"]
    assert base.content_dir == TINY


def test_unknown_tag_and_category_name_the_file_the_field_and_the_value(content):
    path = content / "entries" / "gpu-oom.yml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("category: training", "category: trainning").replace("tags: [cuda, gpu-memory]", "tags: [cuda, gpu-mem]"), encoding="utf-8")
    assert errors(content) == [
        "content/entries/gpu-oom.yml:3:11: category: unknown category 'trainning' (did you mean 'training'?); known: "
        "training, deployment; a new one goes in content/categories.yml with a zh and an en label (CONTRIBUTING.md)",
        "content/entries/gpu-oom.yml:20:14: tags[1]: unknown tag 'gpu-mem' (did you mean 'gpu-memory'?); add it to "
        "content/tags.yml with a zh and an en label (CONTRIBUTING.md), or use a known key",
    ]


# --- a broken registry: its own errors first, none that only follow from them ---


def test_a_typo_in_tags_yml_gives_its_own_errors_first_and_no_cascade(content):
    tags = content / "tags.yml"
    tags.write_text(tags.read_text(encoding="utf-8").replace("cuda:\n  zh: CUDA\n  en: CUDA", "cuda:\n  zh: CUDA\n  eng: CUDA"),
                    encoding="utf-8")
    checked = inspect_content(content)
    assert [str(p) for p in checked.problems if p.severity == "error"] == [
        "content/tags.yml:2:3: cuda: 'en' is required",
        "content/tags.yml:3:3: cuda.eng: unknown field 'eng' (did you mean 'en'?); allowed: zh, en",
    ]
    assert checked.unchecked == {"content/tags.yml": ["content/entries/docker-no-gpu.yml", "content/entries/gpu-oom.yml"]}
    assert checked.base is None and [r.id for r in checked.records] == ["docker-no-gpu", "gpu-oom"]  # with stand-in labels
    assert checked.notes() == {"content/tags.yml": "note: content/tags.yml has errors, so the tags named by 2 record(s) "
                                                   "were not checked; fix it first, then check again"}
    with pytest.raises(ContentError) as err:
        load_knowledge_base(content)
    assert str(err.value).splitlines()[1:] == [
        "content/tags.yml:2:3: cuda: 'en' is required",
        "content/tags.yml:3:3: cuda.eng: unknown field 'eng' (did you mean 'en'?); allowed: zh, en",
        "note: content/tags.yml has errors, so the tags named by 2 record(s) were not checked; fix it first, then check again",
    ]


def test_a_broken_registry_still_lets_every_other_error_through(content):
    """Only what follows from the registry is left out: a key it does not declare at all, and errors
    unrelated to it, are still reported (records build with stand-in labels, so links are checked too)."""
    (content / "categories.yml").write_text("training: [\n", encoding="utf-8")  # not even YAML
    tags = content / "tags.yml"
    tags.write_text(tags.read_text(encoding="utf-8").replace("  en: Docker\n", ""), encoding="utf-8")
    gpu_oom = content / "entries" / "gpu-oom.yml"
    gpu_oom.write_text(gpu_oom.read_text(encoding="utf-8").replace("tags: [cuda, gpu-memory]", "tags: [cuda, gpu-mem]"),
                       encoding="utf-8")
    docker = content / "entries" / "docker-no-gpu.yml"  # uses the broken `docker` tag and category `deployment`
    docker.write_text(docker.read_text(encoding="utf-8") + "related: [gpu-om]\n", encoding="utf-8")
    found = errors(content)
    assert [line.split(": ")[0] for line in found] == [
        "content/categories.yml:2:1", "content/tags.yml:8:3",  # the registries first
        "content/entries/docker-no-gpu.yml:13:11", "content/entries/gpu-oom.yml:20:14",
    ]
    assert "no entry has id 'gpu-om' (did you mean 'gpu-oom'?)" in found[2]
    assert "unknown tag 'gpu-mem' (did you mean 'gpu-memory'?)" in found[3]  # not declared in tags.yml at all
    assert set(inspect_content(content).notes()) == {"content/categories.yml", "content/tags.yml"}


def test_related_naming_a_record_with_its_own_error_is_not_another_error(content):
    docker = content / "entries" / "docker-no-gpu.yml"
    docker.write_text(docker.read_text(encoding="utf-8").replace("category: deployment", "category: deploy"), encoding="utf-8")
    assert "related: [docker-no-gpu]" in (content / "entries" / "gpu-oom.yml").read_text(encoding="utf-8")
    assert [line.split(": ")[1] for line in errors(content)] == ["category"]


def test_schema_errors_of_all_files_are_collected(content):
    (content / "entries" / "docker-no-gpu.yml").write_text(
        "id: docker-no-gpu\ncategory: deployment\ntitle: {zh: 标题}\nquick_fix: {zh: ''}\nsymptoms: []\n"
        "steps:\n  - zh: 一步\n    coed: ls\ntags: [docker]\ntitel: x\n", encoding="utf-8")
    (content / "entries" / "gpu-oom.yml").write_text(
        (TINY / "entries" / "gpu-oom.yml").read_text(encoding="utf-8").replace("id: gpu-oom", "id: GPU_oom"), encoding="utf-8")
    assert errors(content) == [
        "content/entries/docker-no-gpu.yml:4:17: quick_fix.zh: must not be empty",
        "content/entries/docker-no-gpu.yml:5:11: symptoms: must not be empty",
        "content/entries/docker-no-gpu.yml:8:5: steps[0].coed: unknown field 'coed' (did you mean 'code'?); allowed: zh, en, code",
        "content/entries/docker-no-gpu.yml:10:1: titel: unknown field 'titel' (did you mean 'title'?); allowed: id, category, title, quick_fix, symptoms, steps, tags, cause, environment, verification, references, related, last_verified, aliases, signatures, keywords",
        "content/entries/gpu-oom.yml:2:5: id: 'GPU_oom' is not a valid id: lowercase ASCII letters, digits and single hyphens (e.g. 'gpu-oom')",
    ]


def test_id_must_match_file_name_and_urls_are_claimed_once(content):
    extra = content / "entries" / "other.yml"
    extra.write_text((TINY / "entries" / "docker-no-gpu.yml").read_text(encoding="utf-8")
                     .replace("id: docker-no-gpu", "id: other") + "aliases: [cuda-oom-old]\nrelated: [gpu-om]\n", encoding="utf-8")
    (content / "entries" / "docker-no-gpu.yml").write_text(
        (TINY / "entries" / "docker-no-gpu.yml").read_text(encoding="utf-8").replace("id: docker-no-gpu", "id: docker"), encoding="utf-8")
    found = errors(content)
    assert "content/entries/docker-no-gpu.yml:1:5: id: id 'docker' differs from the file name 'docker-no-gpu.yml'; they must match" in found
    assert any(line.startswith("content/entries/other.yml:") and "alias 'cuda-oom-old' is already used by content/entries/gpu-oom.yml" in line for line in found)
    assert any(line.startswith("content/entries/other.yml:") and "no entry has id 'gpu-om' (did you mean 'gpu-oom'?)" in line for line in found)


def test_yaml_problems_are_reported_not_raised(content):
    (content / "entries" / "gpu-oom.yml").write_text("id: gpu-oom\nid: again\n", encoding="utf-8")
    (content / "entries" / "docker-no-gpu.yml").write_text("id: [unclosed\n", encoding="utf-8")
    found = errors(content)
    assert "content/entries/gpu-oom.yml:2:1: id: duplicate key 'id'" in found
    assert any(line.startswith("content/entries/docker-no-gpu.yml:2:1: (file): YAML syntax error") for line in found)


def test_load_raises_content_error_listing_every_problem(content):
    (content / "tags.yml").write_text("cuda: {zh: CUDA}\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_knowledge_base(content)
    assert "content/tags.yml:1:7: cuda: 'en' is required" in str(err.value)


def test_a_key_added_to_an_alphabetical_registry_goes_in_its_place_and_reads_back():
    text = (Path(__file__).resolve().parent.parent / "content" / "tags.yml").read_text(encoding="utf-8")
    label = Label(key="mps", zh="yes", en="Apple GPU: MPS")  # labels YAML would misread unquoted
    added = with_entry(text, label)
    keys = [line[:-1] for line in added.splitlines() if line[:1].isalpha()]
    assert keys == sorted(keys) and keys.count("mps") == 1
    assert yaml.safe_load(added)["mps"] == {"zh": "yes", "en": "Apple GPU: MPS"}
    assert added.replace(entry_yaml(label), "") == text


def test_a_read_cache_checks_again_only_the_files_that_changed(content, monkeypatch):
    cache = validate.ReadCache()
    assert [r.id for r in load_knowledge_base(content, cache).records] == ["docker-no-gpu", "gpu-oom"]
    read = []

    def counted(path, *args):
        read.append(path.name)
        return schema.read_valid(path, *args)

    monkeypatch.setattr(validate, "read_valid", counted)
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8").replace("en: Out of GPU memory", "en: Out of memory"), encoding="utf-8")
    assert load_knowledge_base(content, cache).record("gpu-oom").title.en == "Out of memory"
    assert read == ["gpu-oom.yml"]  # of the records; the registries (records/registries.py) are read every time: two small files
    record.write_text(record.read_text(encoding="utf-8").replace("category: training", "category: nope"), encoding="utf-8")
    with pytest.raises(ContentError, match=r"gpu-oom\.yml:\d+:\d+: category: unknown category 'nope'"):
        load_knowledge_base(content, cache)


# --- the documented limits (docs/CONTENT.md, "Limits"), stated as the numbers the document gives ---


def _rewrite(content: Path, old: str, new: str) -> None:
    path = content / "entries" / "gpu-oom.yml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("old, position", [("en: Out of GPU memory", "6:7: title.en"), ("zh: 显存不足", "5:7: title.zh")])
def test_a_title_is_at_most_200_characters_in_each_language(content, old, position):
    key = old.split(":")[0]
    _rewrite(content, old, f"{key}: " + "标" * 200)
    assert errors(content) == []
    _rewrite(content, "标" * 200, "标" * 201)
    assert errors(content) == [f"content/entries/gpu-oom.yml:{position}: is 201 characters long; the limit is 200"]


@pytest.mark.parametrize("key, old, field", [
    ("en: ", "Lower `batch_size`", "quick_fix.en"),
    ("- ", '"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"', "symptoms[0]"),
    ("en: ", "OOM at the first training step", "symptoms[1].en"),
    ("en: ", "Lower the batch size", "steps[0].en"),
    ("en: ", "Model weights, activations and optimizer state together exceed GPU memory.", "cause.en"),
    ("title: ", "PyTorch CUDA semantics", "references[0].title"),
    ("os: ", "Ubuntu 22.04", "environment.os"),
])
def test_text_and_verbatim_values_are_at_most_2000_characters(content, key, old, field):
    _rewrite(content, key + old, key + "x" * 2000)
    assert errors(content) == []
    _rewrite(content, "x" * 2000, "x" * 2001)
    found = errors(content)
    assert len(found) == 1 and found[0].endswith(f": {field}: is 2001 characters long; the limit is 2000"), found


def test_a_command_is_at_most_5000_characters(content):
    _rewrite(content, "code: python train.py --batch-size 16", "code: " + "x" * 5000)
    assert errors(content) == []
    _rewrite(content, "x" * 5000, "x" * 5001)
    assert errors(content) == ["content/entries/gpu-oom.yml:31:9: verification.code: is 5001 characters long; the limit is 5000"]


RESERVED = ["assets", "categories", "recent", "search", "tags", "translations", "404"]
"""The ids of the site's own pages, as docs/CONTENT.md lists them."""


@pytest.mark.parametrize("reserved", RESERVED)
def test_an_id_reserved_for_a_site_page_is_refused(content, reserved):
    text = (TINY / "entries" / "docker-no-gpu.yml").read_text(encoding="utf-8")
    (content / "entries" / f"{reserved}.yml").write_text(text.replace("id: docker-no-gpu", f"id: '{reserved}'"), encoding="utf-8")
    assert errors(content) == [f"content/entries/{reserved}.yml:1:5: id: id '{reserved}' is reserved for a site page"]


@pytest.mark.parametrize("reserved", RESERVED)
def test_an_alias_reserved_for_a_site_page_is_refused(content, reserved):
    _rewrite(content, "aliases: [cuda-oom-old]", f"aliases: [cuda-oom-old, '{reserved}']")
    assert errors(content) == [f"content/entries/gpu-oom.yml:37:25: aliases[1]: alias '{reserved}' is reserved for a site page"]


def test_an_id_next_to_a_reserved_one_is_fine(content):
    for name in ("tag", "searches", "assets-2", "4040"):
        text = (TINY / "entries" / "docker-no-gpu.yml").read_text(encoding="utf-8")
        (content / "entries" / f"{name}.yml").write_text(text.replace("id: docker-no-gpu", f"id: '{name}'"), encoding="utf-8")
    assert errors(content) == []


# --- rules across records, and what is not a record ---


def test_hidden_files_in_entries_are_not_records(content):
    for name in (".DS_Store", ".gpu-oom.yml.swp", ".#notes"):
        (content / "entries" / name).write_bytes(b"\x00 not yaml")
    base, problems = check_content(content)
    assert problems == [] and [r.id for r in base.records] == ["docker-no-gpu", "gpu-oom"]


def test_file_level_problems_name_no_field(content):
    (content / "entries" / "notes.txt").write_text("x", encoding="utf-8")
    (content / "entries" / "Bad_Name.yml").write_text("x", encoding="utf-8")
    _, problems = check_content(content)
    assert problems == [
        Problem("content/entries/Bad_Name.yml", "", "'Bad_Name' is not a valid file name: lowercase ASCII letters, digits and single "
                "hyphens (e.g. 'bad-name'); the file name is the entry's URL"),
        Problem("content/entries/notes.txt", "", "record files end in .yml"),
    ]


def test_an_unknown_key_far_from_every_known_one_gets_no_suggestion(content):
    _rewrite(content, "category: training", "category: zzzzzz")
    _rewrite(content, "tags: [cuda, gpu-memory]", "tags: [cuda, qqqqqq]")
    assert errors(content) == [
        "content/entries/gpu-oom.yml:3:11: category: unknown category 'zzzzzz'; known: training, deployment; a new one goes in "
        "content/categories.yml with a zh and an en label (CONTRIBUTING.md)",
        "content/entries/gpu-oom.yml:20:14: tags[1]: unknown tag 'qqqqqq'; add it to content/tags.yml with a zh and an en label "
        "(CONTRIBUTING.md), or use a known key",
    ]


def test_a_keyword_the_entry_already_says_is_refused_at_its_place(content):
    """Keywords are for the words readers type that the entry does not say (docs/CONTENT.md): one its text has, in
    either language, in any case, or in its code, adds nothing to search."""
    _rewrite(content, "related: [docker-no-gpu]",
             "related: [docker-no-gpu]\nkeywords:\n  zh: [爆显存, 显存不足]\n  en: [VRAM, out of gpu MEMORY, memory.used]")
    said = "is already in the entry's text; keywords are for the words readers type that the entry does not say"
    assert errors(content) == [f"content/entries/gpu-oom.yml:37:13: keywords.zh[1]: keyword '显存不足' {said}",
                               f"content/entries/gpu-oom.yml:38:14: keywords.en[1]: keyword 'out of gpu MEMORY' {said}",
                               f"content/entries/gpu-oom.yml:38:33: keywords.en[2]: keyword 'memory.used' {said}"]
    _rewrite(content, "  zh: [爆显存, 显存不足]\n  en: [VRAM, out of gpu MEMORY, memory.used]", "  zh: [爆显存]\n  en: [VRAM]")
    assert errors(content) == []
    assert load_knowledge_base(content).record("gpu-oom").keywords == {"zh": ("爆显存",), "en": ("VRAM",)}


def test_an_alias_that_is_the_entrys_own_id_is_refused(content):
    _rewrite(content, "aliases: [cuda-oom-old]", "aliases: [cuda-oom-old, gpu-oom]")
    assert errors(content) == ["content/entries/gpu-oom.yml:37:25: aliases[1]: alias 'gpu-oom' is the entry's own id; an alias is a former id"]


def test_related_must_name_another_existing_entry(content):
    _rewrite(content, "related: [docker-no-gpu]", "related: [docker-no-gpu, gpu-oom, zzzzzz]")
    assert errors(content) == [
        "content/entries/gpu-oom.yml:35:26: related[1]: an entry cannot be related to itself",
        "content/entries/gpu-oom.yml:35:35: related[2]: no entry has id 'zzzzzz'",
    ]


def test_two_aliases_claiming_one_url_are_reported_at_the_later_file(content):
    docker = content / "entries" / "docker-no-gpu.yml"
    docker.write_text(docker.read_text(encoding="utf-8") + "aliases: [cuda-oom-old]\n", encoding="utf-8")
    assert errors(content) == ["content/entries/gpu-oom.yml:37:11: aliases[0]: alias 'cuda-oom-old' is already used by "
                               "content/entries/docker-no-gpu.yml; two entries cannot share a URL"]


def test_an_invalid_signature_is_reported_at_its_field(content):
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8") + "signatures:\n  - exact: CUDA out of memory\n  - regex: '\\w+'\n",
                      encoding="utf-8")
    assert errors(content) == ["content/entries/gpu-oom.yml:40:12: signatures[1].regex: regex signature '\\\\w+' requires only 0 "
                               "literal character(s); at least 5 are needed so that it does not match unrelated lines"]


def test_content_error_keeps_the_problems(content):
    _rewrite(content, "category: training", "category: nope")
    with pytest.raises(ContentError) as err:
        load_knowledge_base(content)
    assert [str(p) for p in err.value.problems] == errors(content)
    # one error is one line; more are a count, then a line each
    assert str(err.value).startswith("content/entries/gpu-oom.yml:3:11: category: unknown category 'nope'")
    assert "\n" not in str(err.value)
    _rewrite(content, "tags: [cuda, gpu-memory]", "tags: [cuda, nope-tag]")
    with pytest.raises(ContentError) as err:
        load_knowledge_base(content)
    assert str(err.value).startswith("the content has 2 error(s):\ncontent/entries/gpu-oom.yml:3:11: category: unknown category")


def test_a_read_cache_reports_a_file_it_cannot_read(tmp_path):
    missing = tmp_path / "content" / "entries" / "gone.yml"
    doc, problems = validate.ReadCache().read_valid(missing, tmp_path / "content", "record")
    assert doc is None and [str(p) for p in problems] == ["entries/gone.yml:1:1: (file): cannot read file: No such file or directory"]


def test_check_content_uses_the_read_cache_it_is_given(content, monkeypatch):
    cache = validate.ReadCache()
    check_content(content, cache)
    read = []
    monkeypatch.setattr(validate, "read_valid", lambda path, *args: read.append(path.name) or schema.read_valid(path, *args))
    base, problems = check_content(content, cache)
    assert problems == [] and len(base.records) == 2 and read == []


# --- a draft checked among the content (`pitfalls new`, `check` of a new file) ---


def test_a_draft_gets_the_errors_of_its_own_file_only(content):
    (content / "entries" / "docker-no-gpu.yml").write_text(
        (TINY / "entries" / "docker-no-gpu.yml").read_text(encoding="utf-8").replace("category: deployment", "category: nope"),
        encoding="utf-8")
    checked = inspect_content(content)
    draft = content / "entries" / "oom-again.yml"
    text = (TINY / "entries" / "gpu-oom.yml").read_text(encoding="utf-8").replace("id: gpu-oom", "id: oom-again")
    assert [str(p) for p in checked.draft_problems(draft, text)] == [
        "content/entries/oom-again.yml:37:11: aliases[0]: alias 'cuda-oom-old' is already used by content/entries/gpu-oom.yml; "
        "two entries cannot share a URL"]  # the draft comes last: the clash is its, not gpu-oom's; docker-no-gpu's error is not
    assert [str(p) for p in checked.draft_problems(draft, text.replace("aliases: [cuda-oom-old]", "aliases: [old-oom]"))] == []
    assert [str(p) for p in checked.draft_problems(draft, text.replace("category: training", "category: deploy"))] == [
        "content/entries/oom-again.yml:3:11: category: unknown category 'deploy' (did you mean 'deployment'?); known: training, "
        "deployment; a new one goes in content/categories.yml with a zh and an en label (CONTRIBUTING.md)"]
    assert [str(p) for p in checked.draft_problems(draft, text.replace("tags: [cuda, gpu-memory]", "tags: cuda"))] == [
        "content/entries/oom-again.yml:20:7: tags: must be a list, not text"]
    assert [str(p) for p in checked.draft_problems(draft, "id: [unclosed\n")] == [
        "content/entries/oom-again.yml:2:1: (file): YAML syntax error: while parsing a flow sequence did not find expected ',' or ']' "
        "(the construct opened on line 1)"]


def test_a_draft_replacing_an_existing_record_is_not_its_own_duplicate(content):
    checked = inspect_content(content)
    path = content / "entries" / "gpu-oom.yml"
    assert checked.draft_problems(path, path.read_text(encoding="utf-8")) == []


# --- schema errors, worded for a contributor ---


@pytest.mark.parametrize("old, new, expected", [
    ("tags: [cuda, gpu-memory]", "tags: [cuda, gpu-memory, gpu-memory]", "20:7: tags: lists 'gpu-memory' more than once"),
    ("category: training", "category: [training]", "3:11: category: must be text, not a list"),
    ("tags: [cuda, gpu-memory]", "tags: [" + ", ".join(f"t{n}" for n in range(21)) + "]", "20:7: tags: has 21 items; the limit is 20"),
    ("url: https://pytorch.org/docs/stable/notes/cuda.html", "url: ftp://pytorch.org/cuda.html",
     "34:10: references[0].url: 'ftp://pytorch.org/cuda.html' is not an http(s) URL"),
    ("title:\n  zh: 显存不足\n  en: Out of GPU memory", "title: {}", "4:8: title: must not be empty"),
    ("title:\n  zh: 显存不足\n  en: Out of GPU memory", "title: {fr: x}", "4:9: title.fr: unknown field 'fr'; allowed: zh, en"),
    ("quick_fix:\n  zh: 减小 `batch_size`\n  en: Lower `batch_size`", "quick_fix: {zh: '   '}", "7:17: quick_fix.zh: must not be empty"),
    ('environment:\n  os: Ubuntu 22.04\n  cuda: "12.1"\n  frameworks: PyTorch 2.1', "environment: {}", "24:14: environment: must not be empty"),
    ("tags: [cuda, gpu-memory]", "tags: []", "20:7: tags: must not be empty"),
    ("tags: [cuda, gpu-memory]", "tags: true", "20:7: tags: must be a list, not true or false"),
    ("tags: [cuda, gpu-memory]", "tags: 3", "20:7: tags: must be a list, not a whole number"),
    ("tags: [cuda, gpu-memory]", "tags: 3.5", "20:7: tags: must be a list, not a number"),
    ("tags: [cuda, gpu-memory]", "tags: {a: b}", "20:7: tags: must be a list, not a mapping"),
    ("tags: [cuda, gpu-memory]", "tags:", "20:6: tags: must be a list, not empty (null)"),
    ("tags: [cuda, gpu-memory]", "tags: [cuda, 7]", "20:14: tags[1]: must be text, not a whole number"),
    ("title:\n  zh: 显存不足", "title:\n  zh: true", "5:7: title.zh: must be text, not true or false"),
    ("id: gpu-oom", "id: gpu-oom\nzzzzzzzz: 1", "3:1: zzzzzzzz: unknown field 'zzzzzzzz'; allowed: id, category, title, quick_fix, symptoms, "
     "steps, tags, cause, environment, verification, references, related, last_verified, aliases, signatures, keywords"),
    ("aliases: [cuda-oom-old]", "aliases: [old oom]",
     "37:11: aliases[0]: 'old oom' is not a valid key: lowercase ASCII letters, digits and single hyphens (e.g. 'old-oom')"),
    ("aliases: [cuda-oom-old]", "aliases: ['%%%']",
     "37:11: aliases[0]: '%%%' is not a valid key: lowercase ASCII letters, digits and single hyphens (e.g. 'cuda-out-of-memory')"),
    ("steps:\n  - zh: 降低 batch_size\n    en: Lower the batch size", "steps:\n  - code: ls", "15:5: steps[0]: needs 'zh' or 'en'"),    ("related: [docker-no-gpu]", "related: [docker-no-gpu]\nkeywords: {fr: [x]}", "36:12: keywords.fr: unknown field 'fr'; allowed: zh, en"),
    ("related: [docker-no-gpu]", "related: [docker-no-gpu]\nkeywords: {zh: []}", "36:16: keywords.zh: must not be empty"),
    ("related: [docker-no-gpu]", "related: [docker-no-gpu]\nkeywords: {en: [" + ", ".join(f"k{n}" for n in range(13)) + "]}",
     "36:16: keywords.en: has 13 items; the limit is 12"),
])
def test_schema_errors_say_what_to_fix_at_the_value(content, old, new, expected):
    _rewrite(content, old, new)
    assert errors(content) == [f"content/entries/gpu-oom.yml:{expected}"]


def test_every_schema_error_of_a_file_is_reported(content):
    _rewrite(content, "steps:\n  - zh: 降低 batch_size\n    en: Lower the batch size", "steps:\n  - code: ls")
    _rewrite(content, "tags: [cuda, gpu-memory]", "tags: []")
    _rewrite(content, "category: training", "category: [training]")
    assert errors(content) == ["content/entries/gpu-oom.yml:3:11: category: must be text, not a list",
                               "content/entries/gpu-oom.yml:15:5: steps[0]: needs 'zh' or 'en'",
                               "content/entries/gpu-oom.yml:19:7: tags: must not be empty"]


def test_local_refs_are_inlined_once_with_the_keywords_next_to_them():
    defs = {"slug": {"type": "string", "pattern": "^[a-z]+$"}, "slugs": {"type": "array", "items": {"$ref": "#/$defs/slug"}}}
    node = {"$defs": defs, "type": "object", "properties": {
        "id": {"$ref": "#/$defs/slug", "maxLength": 80},             # beside the ref: added, and it wins
        "aliases": {"$ref": "#/$defs/slugs"},                        # a definition that refers to another one
        "any": {"anyOf": [{"$ref": "#/$defs/slug"}, {"type": "integer"}]},
        "remote": {"$ref": "https://example.com/schema.json"},      # not local: left alone
    }}
    assert schema._inline_refs(node, defs) == {"$defs": defs, "type": "object", "properties": {
        "id": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 80},
        "aliases": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
        "any": {"anyOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "integer"}]},
        "remote": {"$ref": "https://example.com/schema.json"},
    }}


@pytest.mark.parametrize("name", ["record", "export"])
def test_the_inlined_schema_judges_every_record_as_the_schema_itself_does(name):
    """The validator gets its $refs substituted for speed: it must refuse exactly what jsonschema, resolving them itself, refuses."""
    raw = json.loads((schema.SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(raw)
    inlined = cls(schema._inline_refs(raw, raw["$defs"]))
    resolving = cls(raw)
    seed = TINY.parent.parent.parent / "content" / "entries"
    paths = sorted((TINY.parent / "bad").glob("*.yml")) + sorted((TINY / "entries").glob("*.yml")) + sorted(seed.glob("*.yml"))
    documents = [doc.data for doc, _ in (read_yaml(path, path.name) for path in paths) if doc is not None]  # what reaches the schema
    documents += [{"id": "x", "title": {"zh": 1}}, {"id": "BAD"}, [], "text", {"format_version": "1", "entries": [{}]}]
    assert len(documents) >= 30

    def found(validator, document):
        return sorted((list(e.absolute_path), e.validator, str(e.validator_value)) for e in validator.iter_errors(document))

    for document in documents:
        assert found(inlined, document) == found(resolving, document)
