"""Records written in one language: the other language's page shows the text under a notice,
and the coverage page on both sites lists what is left to translate (conftest's `tiny_site`: docker-no-gpu is
written in Chinese only, en-only in English only)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pitfalls.commands.linkcheck import broken_links


def article(site: Path, page: str) -> str:
    html = (site / page / "index.html").read_text(encoding="utf-8")
    return html[html.index("<article"):html.index("</article>")]


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("page, notice, shown", [
    ("zh/en-only", "本条目尚未翻译成中文，以下显示英文原文。",
     ["Written in English only", "Do the English thing", "The English symptom", "The English step"]),
    ("en/docker-no-gpu", "This entry is not yet translated into English; the Chinese original is shown below.",
     ["容器内看不到 GPU", "安装 NVIDIA Container Toolkit", "运行容器时加参数"]),
])
def test_missing_language_page_shows_the_other_language_under_a_notice(tiny_site, page, notice, shown):
    body = article(tiny_site, page)
    assert 'class="admonition warning pf-untranslated"' in body
    words = text(body)
    assert words.index(notice) < words.index(shown[1])  # the notice comes before the text
    for piece in shown:
        assert piece in words


def test_written_language_page_has_no_notice(tiny_site):
    assert "pf-untranslated" not in article(tiny_site, "en/en-only")
    assert "pf-untranslated" not in article(tiny_site, "zh/docker-no-gpu")


def test_coverage_page_lists_what_is_left_in_each_language(tiny_site):
    zh = text(article(tiny_site, "zh/translations"))
    assert "中文 2/3 条（66%）" in zh and "英文 2/3 条（66%）" in zh
    assert "尚未完整翻译成中文的条目 &para; Written in English only" in zh
    assert "尚未完整翻译成英文的条目 &para; 容器内看不到 GPU" in zh
    en = text(article(tiny_site, "en/translations"))
    assert "Chinese 2/3 entries (66%)" in en and "English 2/3 entries (66%)" in en
    html = (tiny_site / "en" / "translations" / "index.html").read_text(encoding="utf-8")
    assert 'href="../en-only/"' in html and 'href="../docker-no-gpu/"' in html
    home = (tiny_site / "en" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="translations/" class="md-nav__link">\s*<span class="md-ellipsis">\s*Translation status', home)


def test_tiny_site_has_no_broken_links(tiny_site):
    assert broken_links(tiny_site) == []
