"""Zero outside requests: every page type, in both languages, loads and works with every host
but the site's own unreachable, and logs no error."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conftest import ROOT
from helpers.page_load import goto, settle
from outside_requests import offline_page
from pitfalls.records.model import LANGUAGES
from pitfalls.records.validate import load_knowledge_base

PAGE_TYPES = ("home", "entry", "category", "tag", "all-tags", "404")


@pytest.fixture(scope="module")
def page_paths() -> dict[str, str]:
    """One path (below /<lang>/) of each page type of the real site."""
    base = load_knowledge_base(ROOT / "content")
    return {
        "home": "",
        "entry": f"{base.records[0].id}/",
        "category": f"categories/{base.records[0].category.key}/",
        "tag": f"tags/{base.records[0].tags[0].key}/",
        "all-tags": "tags/",
        "404": "404.html",  # what a server answers for a missing page (the nginx test serves it as one)
    }


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_page_makes_no_outside_request(browser, site_url, page_paths, lang, page_type):
    with offline_page(browser, site_url) as visit:
        response = goto(visit.page, f"{site_url}{lang}/{page_paths[page_type]}")
        assert response.ok
        assert visit.page.locator("h1").first.is_visible()
        assert visit.outside == []
        assert visit.errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_with_results_makes_no_outside_request(browser, site_url, lang):
    with offline_page(browser, site_url) as visit:
        goto(visit.page, f"{site_url}{lang}/")
        titles = visit.search("CUDA")
        settle(visit.page)  # what the search fetched has all come
        assert any("CUDA" in title for title in titles), titles
        assert visit.outside == []
        assert visit.errors == []


class _ResourceLinks(HTMLParser):
    """URLs a page loads by itself: src of embedded elements, href of loaded <link>s."""

    LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "prefetch", "preconnect",
                    "dns-prefetch", "apple-touch-icon"}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and self.LOADED_LINKS & set((attrs.get("rel") or "").split()):
            self.urls.append(attrs.get("href") or "")
        elif tag in ("script", "img", "iframe", "source", "video", "audio", "embed", "input") and attrs.get("src"):
            self.urls.append(attrs["src"])


OUTSIDE = re.compile(r"^(https?:)?//", re.I)
CSS_OUTSIDE = re.compile(r"""(@import\s+["']|url\(\s*["']?)(https?:)?//""", re.I)


def test_no_page_or_stylesheet_of_the_site_loads_from_another_host(site):
    """Every built page, not only one of each type: nothing it loads names another host."""
    outside = []
    for page in site.rglob("*.html"):
        links = _ResourceLinks()
        links.feed(page.read_text(encoding="utf-8"))
        outside += [f"{page.relative_to(site)}: {url}" for url in links.urls if OUTSIDE.match(url)]
    for stylesheet in site.rglob("*.css"):
        outside += [f"{stylesheet.relative_to(site)}: {m.group(0)}"
                    for m in CSS_OUTSIDE.finditer(stylesheet.read_text(encoding="utf-8"))]
    assert outside == []
