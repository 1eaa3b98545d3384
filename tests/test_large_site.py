"""A generated wiki past the home page's and the listings' thresholds, built whole: every entry is
reached by links from the home page, and no listing page grows with the number of entries."""

from __future__ import annotations

import html
import posixpath
import re
from collections import deque
from pathlib import Path

import pytest

from conftest import LARGE_ENTRIES as ENTRIES
from pitfalls.records.validate import load_knowledge_base

# the numbers README.md states, written here rather than imported: a change to the code's constants must fail these tests
PAGE_SIZE = 100
"""Entries a category, tag or "recent" listing page holds."""
FULL_HOME_LIMIT = 100
"""Up to this many entries the home page lists them all."""
HOME_RECENT = 10
"""Entries in the large home page's "recently updated" and "recently added" lists."""

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def large(large_site) -> tuple[Path, Path]:
    """(content, site) of LARGE_ENTRIES generated records (conftest.py, shared with the accessibility test)."""
    return large_site


def page_links(site: Path, page: str) -> list[str]:
    """The pages of the same language site that `page` (e.g. `zh/tags/`) links to, as site paths."""
    html = (site / page / "index.html").read_text(encoding="utf-8")
    lang = page.split("/", 1)[0]
    links = []
    for href in re.findall(r'href="([^"#?:]*)"', html):
        if not href.endswith("/"):
            continue  # assets, feed.xml, entries.json
        target = posixpath.normpath(posixpath.join(page, href)) + "/"
        if target.startswith(f"{lang}/") and (site / target / "index.html").is_file():
            links.append(target)
    return links


def entry_cards(site: Path, page: str) -> list[str]:
    html = (site / page / "index.html").read_text(encoding="utf-8")
    return re.findall(r'class="pf-card__title" href="(?:\.\./)*([a-z0-9-]+)/"', html)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_entry_is_reached_by_links_from_the_home_page(large, lang):
    content, site = large
    seen, queue = {f"{lang}/"}, deque([f"{lang}/"])
    while queue:
        for link in page_links(site, queue.popleft()):
            if link not in seen:
                seen.add(link)
                queue.append(link)
    ids = {r.id for r in load_knowledge_base(content).records}
    assert len(ids) == ENTRIES > FULL_HOME_LIMIT
    assert {f"{lang}/{i}/" for i in ids} <= seen


def test_the_large_home_page_summarizes_instead_of_listing_every_entry(large):
    _, site = large
    home = (site / "zh" / "index.html").read_text(encoding="utf-8")
    assert not entry_cards(site, "zh")
    listed = re.findall(r'<li><time[^>]*>[0-9-]+</time> <a href="([a-z0-9-]+)/">', home)
    assert len(listed) == 2 * HOME_RECENT  # recently updated, recently added
    for part in ('id="recently-updated"', 'id="recently-added"', 'id="tags"', 'href="recent/"',
                 '<form class="pf-search" action="./" method="get" role="search" aria-label="搜索条目">', 'name="q"'):
        assert part in home
    assert re.search(r'href="categories/training/">训练</a> <span class="pf-count">\d+ 条</span>', home)


def test_listings_are_split_into_linkable_pages_of_at_most_page_size(large):
    content, site = large
    base = load_knowledge_base(content)
    for lang in ("zh", "en"):
        for category in base.categories:
            expected = sorted(r.id for r in base.records if r.category == category)
            assert len(expected) > PAGE_SIZE, "the fixture should need a second page"
            pages = [f"{lang}/categories/{category.key}/"]
            pages += [f"{lang}/categories/{category.key}/page/{n}/" for n in range(2, -(-len(expected) // PAGE_SIZE) + 1)]
            listed = [entry_cards(site, page) for page in pages]
            assert all(len(cards) <= PAGE_SIZE for cards in listed)
            assert [i for cards in listed for i in cards] == expected
            assert not (site / lang / "categories" / category.key / "page" / str(len(pages) + 1)).exists()
            assert set(pages) <= set(page_links(site, pages[0])) | {pages[0]}  # the pager links every page
        recent = sorted(base.records, key=lambda r: (r.last_verified or "", r.id), reverse=True)
        first = entry_cards(site, f"{lang}/recent/")
        assert len(first) == PAGE_SIZE and first == [r.id for r in recent[:PAGE_SIZE]]
    page2 = (site / "en" / "categories" / "training" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert "<title>Category: Training · page 2 - Pitfall Guide</title>" in page2
    assert re.search(r"\d+ entries · page 2 of \d+", page2)


def test_pages_after_the_first_have_a_meta_description_of_their_own(large):
    """Lighthouse's SEO audit asks every page for one: page 2 of a listing says which page it is and what it lists."""
    _, site = large
    seen = set()
    for page in ("en/categories/training/page/2/", "zh/categories/deployment/page/2/", "en/recent/page/2/", "zh/recent/page/3/"):
        text = (site / page / "index.html").read_text(encoding="utf-8")
        description = html.unescape(re.search(r'<meta name="description" content="([^"]*)">', text).group(1))
        assert len(description) <= 200 and description not in seen, page  # the documented 200 characters
        seen.add(description)
    assert description.startswith("最近更新 · 第 3 页 · 450 条：")
    page2 = (site / "en/categories/training/page/2/index.html").read_text(encoding="utf-8")
    assert re.search(r'<meta name="description" content="Category: Training · page 2 · \d+ entries: [^"]+">', page2)
