"""Records written in one language: the other language's page shows the text under a notice,
and the coverage page on both sites lists what is left to translate."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import once_per_session
from pitfalls.commands.build import build_site
from pitfalls.commands.linkcheck import broken_links

TINY = Path(__file__).parent / "fixtures" / "tiny"

EN_ONLY = """\
id: en-only
category: training
title:
  en: Written in English only
quick_fix:
  en: Do the **English** thing
symptoms:
  - en: The English symptom
steps:
  - en: The English step
tags: [cuda]
"""


@pytest.fixture(scope="module")
def one_language_site() -> Path:
    """The tiny fixture (docker-no-gpu is zh only) plus an en-only record, built once per session."""
    def make(tmp: Path) -> None:
        content = tmp / "content"
        shutil.copytree(TINY, content)
        (content / "entries" / "en-only.yml").write_text(EN_ONLY, encoding="utf-8")
        build_site(tmp / "site", content=content)

    return once_per_session("one-language", make) / "site"


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
def test_missing_language_page_shows_the_other_language_under_a_notice(one_language_site, page, notice, shown):
    body = article(one_language_site, page)
    assert 'class="admonition warning pf-untranslated"' in body
    words = text(body)
    assert words.index(notice) < words.index(shown[1])  # the notice comes before the text
    for piece in shown:
        assert piece in words


def test_written_language_page_has_no_notice(one_language_site):
    assert "pf-untranslated" not in article(one_language_site, "en/en-only")
    assert "pf-untranslated" not in article(one_language_site, "zh/docker-no-gpu")


def test_coverage_page_lists_what_is_left_in_each_language(one_language_site):
    zh = text(article(one_language_site, "zh/translations"))
    assert "中文 2/3 条（66%）" in zh and "英文 2/3 条（66%）" in zh
    assert "尚未完整翻译成中文的条目 &para; Written in English only" in zh
    assert "尚未完整翻译成英文的条目 &para; 容器内看不到 GPU" in zh
    en = text(article(one_language_site, "en/translations"))
    assert "Chinese 2/3 entries (66%)" in en and "English 2/3 entries (66%)" in en
    html = (one_language_site / "en" / "translations" / "index.html").read_text(encoding="utf-8")
    assert 'href="../en-only/"' in html and 'href="../docker-no-gpu/"' in html
    home = (one_language_site / "en" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="translations/" class="md-nav__link">\s*<span class="md-ellipsis">\s*Translation status', home)


def test_one_language_site_has_no_broken_links(one_language_site):
    assert broken_links(one_language_site) == []
