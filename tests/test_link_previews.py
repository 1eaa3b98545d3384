"""Link previews and titles: an entry's og:description and meta description say the problem and the fix in
the page's language, as plain text of at most 200 characters; the home page's <title> names the site once.
(Hostile text in these tags: tests/test_untrusted_text.py.)"""

from __future__ import annotations

import html
import re

import pytest

from conftest import ROOT
from pitfalls.pages.render import plain_text, preview_description, shorten, ui_strings
from pitfalls.records.validate import load_knowledge_base

EN = ui_strings()["en"]["preview"]


def meta(page: str, attribute: str) -> str:
    return html.unescape(re.search(rf'<meta {attribute} content="([^"]*)">', page).group(1))


def title_of(page: str) -> str:
    return html.unescape(re.search(r"<title>(.*?)</title>", page, re.S).group(1)).strip()


def test_short_previews_are_whole():
    assert preview_description(EN, "Out of GPU memory", "RuntimeError: CUDA out of memory", "Lower `batch_size`") == \
        "Out of GPU memory: RuntimeError: CUDA out of memory — Fix: Lower `batch_size`"


def test_a_long_problem_gives_way_before_the_fix():
    problem = "Traceback (most recent call last): " + "frame " * 60
    text = preview_description(EN, "Title", problem, "do this, then that")
    assert len(text) <= 200 and text.startswith("Title: Traceback (most recent call last): frame")
    assert text.endswith("… — Fix: do this, then that")
    assert "fram…" not in text  # cut between words


def test_a_long_fix_is_cut_at_the_end():
    text = preview_description(EN, "Title", "an error", "step " * 80)
    assert len(text) <= 200 and text.startswith("Title: an error — Fix: step step") and text.endswith(" step…")
    chinese = preview_description(ui_strings()["zh"]["preview"], "标题", "报错", "解决办法" * 80)
    assert len(chinese) == 200 and chinese.startswith("标题：报错 —— 解决：解决办法") and chinese.endswith("…")


def test_shorten():
    assert shorten("abc", 3) == "abc"
    assert shorten("one two three", 10) == "one two…"
    assert shorten("显存不足显存不足", 5) == "显存不足…"


@pytest.mark.parametrize("lang, fix_label", [("zh", "—— 解决："), ("en", "— Fix: ")])
def test_every_entry_previews_its_problem_and_fix_in_its_language(site, lang, fix_label):
    base = load_knowledge_base(ROOT / "content")
    for record in base.records:
        page = (site / lang / record.id / "index.html").read_text(encoding="utf-8")
        description = meta(page, 'property="og:description"')
        assert meta(page, 'name="description"') == description
        title = plain_text(record.title.get(lang))
        fix = plain_text(record.quick_fix.get(lang))
        symptom = plain_text(record.symptoms[0].text.get(lang))
        assert description.startswith(title) and fix_label in description, description
        problem, shown_fix = description[len(title) + 1:].split(fix_label)
        problem = problem.strip()
        assert problem == symptom or problem.endswith("…") and symptom.startswith(problem[:-1])
        assert shown_fix == fix or shown_fix.endswith("…") and fix.startswith(shown_fix[:-1])
        assert len(description) <= 200
        assert "`" not in description and "](" not in description  # plain text, not the record's markup


def test_home_page_title_names_the_site_once(site):
    for lang, name in (("zh", "踩坑避雷指南"), ("en", "Pitfall Guide")):
        assert title_of((site / lang / "index.html").read_text(encoding="utf-8")) == name
        assert meta((site / lang / "index.html").read_text(encoding="utf-8"), 'property="og:title"') == name
        tags = (site / lang / "tags" / "index.html").read_text(encoding="utf-8")
        assert title_of(tags) == f"{ui_strings()[lang]['all_tags']} - {name}"
    entry = (site / "en" / "cuda-out-of-memory" / "index.html").read_text(encoding="utf-8")
    assert title_of(entry) == "Out of GPU memory (CUDA out of memory) - Pitfall Guide"


def described_pages(site) -> dict[str, str]:
    """Every themed HTML page of both language sites (alias redirects, which are not themed, left out) → its HTML."""
    pages = {}
    for path in sorted(site.glob("*/**/*.html")):
        text = path.read_text(encoding="utf-8")
        if 'http-equiv="refresh"' not in text:
            pages[path.relative_to(site).as_posix()] = text
    return pages


def test_every_page_type_has_a_meta_description_of_its_own(site):
    """Lighthouse's SEO audit asks every page for a meta description; category, tag, tag index, recent and
    translation pages had none. Each says what the page lists, in its language, in at most 200 characters."""
    pages = described_pages(site)
    assert {"zh/categories/training/index.html", "en/tags/index.html", "zh/recent/index.html",
            "en/translations/index.html", "zh/404.html"} <= pages.keys()
    descriptions = {}
    for path, page in pages.items():
        description = meta(page, 'name="description"')
        assert description.strip() and len(description) <= 200, path  # the documented 200 characters
        assert meta(page, 'property="og:description"') == description, path
        descriptions[path] = description
    assert descriptions["zh/categories/training/index.html"].startswith("分类：训练 · 4 条：")
    assert "Out of GPU memory (CUDA out of memory)" in descriptions["en/categories/training/index.html"]
    assert descriptions["en/tags/ssh/index.html"].startswith("Tag: #SSH · 2 entries: ")
    assert descriptions["zh/tags/index.html"].startswith("按 ") and "#CUDA" in descriptions["zh/tags/index.html"]
    assert descriptions["en/recent/index.html"].startswith("Recently updated · 12 entries: ")
    assert descriptions["zh/translations/index.html"].startswith("条目的翻译进度：中文 ")
    assert descriptions["en/404.html"] == ui_strings()["en"]["site_description"]
    # only the 404 page falls back to the site's description: every other page describes itself
    listed = {path: d for path, d in descriptions.items() if not path.endswith("404.html")}
    assert len(set(listed.values())) == len(listed)
