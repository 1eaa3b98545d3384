"""Whole-site tests: the real content and the tiny fixture built into tmp_path, asserted on the HTML."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from pitfalls.commands.build import build_site
from pitfalls.commands.linkcheck import broken_links
from pitfalls.records.validate import ContentError, load_knowledge_base

SEED_IDS = ["cuda-pytorch-mismatch", "cuda-out-of-memory", "loss-nan", "onnx-export", "dataloader-workers-hang",
            "rag-hallucination", "ssh-disconnect", "docker-gpu", "slow-convergence", "git-merge-lost-code",
            "python-dependency-conflict", "ssh-port-blocked"]


def html(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def text_of(markup: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", markup))


def entry_links(page: str) -> list[str]:
    """Ids of the entry cards listed on an index page, in order."""
    return re.findall(r'class="pf-card__title" href="(?:\.\./)*([a-z0-9-]+)/"', page)


def test_every_seed_entry_exists_in_both_languages(site):
    for lang in ("zh", "en"):
        for entry_id in SEED_IDS:
            assert (site / lang / entry_id / "index.html").is_file(), f"/{lang}/{entry_id}/"
    assert 'url=zh/' in (site / "index.html").read_text(encoding="utf-8")


def test_every_seed_symptom_appears_verbatim_on_its_zh_page(site):
    base = load_knowledge_base(ROOT / "content")
    for record in base.records:
        page_text = text_of(html(site, f"zh/{record.id}"))
        for symptom in record.symptoms:
            assert symptom.text.zh in page_text, (record.id, symptom.text.zh)


def test_category_and_tag_pages_list_exactly_their_entries(site):
    base = load_knowledge_base(ROOT / "content")
    for lang in ("zh", "en"):
        for category in base.categories:
            expected = sorted(r.id for r in base.records if r.category == category)
            assert entry_links(html(site, f"{lang}/categories/{category.key}")) == expected
        for tag in base.tags:
            expected = sorted(r.id for r in base.records if tag in r.tags)
            page = site / lang / "tags" / tag.key / "index.html"
            assert page.exists() == bool(expected), tag.key
            if expected:
                assert entry_links(page.read_text(encoding="utf-8")) == expected
    assert sorted(entry_links(html(site, "zh/categories/training"))) == [
        "cuda-out-of-memory", "dataloader-workers-hang", "loss-nan", "slow-convergence"]
    assert entry_links(html(site, "en/tags/ssh")) == ["ssh-disconnect", "ssh-port-blocked"]


def test_all_tags_page_counts_and_home_counts_entries(site):
    tags = html(site, "zh/tags")
    assert re.search(r'href="cuda/">#CUDA</a> <span class="pf-count">2</span>', tags)
    home = text_of(html(site, "zh"))
    assert "踩坑避雷指南" in home and "环境 → 报错 → 排查 → 解决 · 共 12 条实战经验" in home
    assert "训练 4 条" in home and "环境配置 4 条" in home
    assert "12 field-tested lessons" in text_of(html(site, "en"))


def test_each_language_is_in_its_own_language(site):
    zh, en = html(site, "zh/loss-nan"), html(site, "en/loss-nan")
    assert '<html lang="zh"' in zh and '<html lang="en"' in en
    assert "排查步骤" in zh and "Diagnosis steps" in en and "排查步骤" not in en
    assert "降学习率" in zh and "降学习率" not in en
    assert "#Gradients" in en and "#梯度" in zh


def test_entry_page_sections_have_permanent_anchors_and_copyable_code(site):
    page = html(site, "zh/loss-nan")
    for anchor in ("quick-fix", "symptoms", "steps", "symptom-1", "step-1", "step-6"):
        assert f'id="{anchor}"' in page, anchor
    assert re.search(r'<li id="step-2">.*?<pre><code>torch\.nn\.utils\.clip_grad_norm_\(model\.parameters\(\), 1\.0\)</code></pre>', page, re.S)
    assert '<a class="pf-category" href="../categories/training/">训练</a>' in page
    assert 'href="https://github.com/example/pitfall-guide/edit/main/content/entries/loss-nan.yml"' in page


def test_the_table_of_contents_lists_the_pages_sections(site):
    """MkDocs converts no Markdown (the pages are HTML): the table of contents beside a page is the one the page
    was rendered with, each section's heading linked to its anchor, in order."""
    def toc(path: str) -> list[tuple[str, str]]:
        page = html(site, path)
        nav = page[page.index('data-md-component="toc"'):]
        nav = nav[:nav.index("</nav>")]
        return [(anchor, " ".join(text_of(label).split()))
                for anchor, label in re.findall(r'<a href="#([^"]+)" class="md-nav__link">(.*?)</a>', nav, re.S)]
    assert toc("zh/loss-nan") == [("symptoms", "现象表现"), ("steps", "排查步骤"), ("related", "相关条目")]
    assert toc("en/loss-nan") == [("symptoms", "Symptoms"), ("steps", "Diagnosis steps"), ("related", "Related entries")]
    assert toc("en") == [("environment", "Environment setup"), ("training", "Training"), ("deployment", "Deployment"),
                         ("collaboration", "Collaboration & tooling")]
    assert '<h2 id="steps">Diagnosis steps<a class="headerlink" href="#steps" title="Permanent link">&para;</a></h2>' \
        in html(site, "en/loss-nan")


def test_link_preview_meta_tags(site):
    page = html(site, "en/loss-nan")
    assert '<link rel="canonical" href="http://127.0.0.1:8000/en/loss-nan/">' in page
    assert '<meta property="og:url" content="http://127.0.0.1:8000/en/loss-nan/">' in page
    assert '<meta property="og:title" content="Loss NaN / exploding gradients">' in page
    assert re.search(r'<meta property="og:description" content="[^"]*gradient clipping[^"]*">', page)
    assert '<meta property="og:locale" content="en_US">' in page
    assert '<meta name="twitter:card" content="summary">' in page
    assert '<title>Loss NaN / exploding gradients - Pitfall Guide</title>' in page


def test_language_switch_link_leads_to_the_same_entry(site):
    assert 'class="md-header__button md-icon pf-lang-switch" href="/en/docker-gpu/"' in html(site, "zh/docker-gpu")
    assert 'href="/zh/docker-gpu/"' in html(site, "en/docker-gpu")


def test_navigation_stays_small(site):
    """Entries are not in the sidebar: its size must not grow with the number of entries."""
    page = html(site, "zh/loss-nan")
    nav = page[page.index('data-md-type="navigation"'):page.index('data-md-component="content"')]
    assert "cuda-out-of-memory" not in nav and nav.count("md-nav__link") < 20


def test_the_sidebar_names_every_page_it_links(site):
    """Each link of the sidebar carries its page's title, on every page: MkDocs reads a page's title from the page
    it holds, and a hook that dropped it (to save memory) showed "None" for the category pages."""
    for path in ("en/loss-nan", "en", "en/categories/training"):
        page = html(site, path)
        nav = page[page.index('data-md-type="navigation"'):page.index('data-md-component="content"')]
        labels = [" ".join(text_of(label).split()) for label in re.findall(r'class="md-ellipsis">(.*?)</span>', nav, re.S)]
        expected = ["Home", "Categories", "Category: Environment setup", "Category: Training", "Category: Deployment",
                    "Category: Collaboration & tooling", "All tags", "Recently updated", "Translation status"]
        # in this order; the page shown also brings its own label and its sections in between
        rest = iter(labels)
        assert all(label in rest for label in expected), (path, labels)
        assert "None" not in labels, (path, labels)


def test_no_broken_internal_links_or_anchors(site):
    assert broken_links(site) == []


def test_optional_fields_aliases_and_untranslated_fallback(tiny_site):
    page = html(tiny_site, "en/gpu-oom")
    for anchor, text in (("cause", "exceed GPU memory"), ("environment", "Ubuntu 22.04"),
                         ("verification", "python train.py --batch-size 16"), ("references", "PyTorch CUDA semantics"),
                         ("related", "容器内看不到 GPU")):
        assert f'id="{anchor}"' in page and text in text_of(page), anchor
    assert '<time datetime="2026-11-01">2026-11-01</time>' in page
    assert '<a href="https://pytorch.org/docs/stable/notes/cuda.html" rel="nofollow noopener">' in page
    redirect = (tiny_site / "en" / "cuda-oom-old" / "index.html").read_text(encoding="utf-8")
    assert 'content="0; url=../gpu-oom/"' in redirect and '<link rel="canonical" href="../gpu-oom/">' in redirect
    untranslated = html(tiny_site, "en/docker-no-gpu")
    assert "not yet translated into English" in untranslated and "容器内看不到 GPU" in untranslated
    assert "not yet translated" not in page
    assert not (tiny_site / "en" / "tags" / "unused").exists()
    assert broken_links(tiny_site) == []


@pytest.mark.site
def test_a_content_error_stops_the_build_and_leaves_the_site_alone(tmp_path):
    content = tmp_path / "content"
    import shutil
    shutil.copytree(FIXTURES / "tiny", content)
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "index.html").write_text("old site", encoding="utf-8")
    (content / "entries" / "gpu-oom.yml").write_text("id: gpu-oom\ncategory: nope\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        build_site(site_dir, content=content)
    assert "content/entries/gpu-oom.yml:1:1: (file): 'title' is required" in str(err.value)
    assert [p.name for p in site_dir.iterdir()] == ["index.html"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-")]
