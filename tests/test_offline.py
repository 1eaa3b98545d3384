"""Zero outside requests: every page type, in both languages, loads and works with every host
but the site's own unreachable, and logs no error."""

from __future__ import annotations

import pytest

from outside_requests import offline_page
from pitfalls.model import LANGUAGES
from pitfalls.validate import load_knowledge_base

from conftest import ROOT

BASE = load_knowledge_base(ROOT / "content")
PAGES = {
    "home": "",
    "entry": f"{BASE.records[0].id}/",
    "category": f"categories/{BASE.categories[0].key}/",
    "tag": f"tags/{BASE.records[0].tags[0].key}/",
    "all-tags": "tags/",
    "404": "404.html",  # what the server answers for a missing page (the nginx test serves it as one)
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_type", PAGES)
def test_page_makes_no_outside_request(browser, site_url, lang, page_type):
    with offline_page(browser, site_url) as visit:
        response = visit.page.goto(f"{site_url}{lang}/{PAGES[page_type]}", wait_until="networkidle")
        assert response.ok
        assert visit.page.locator("h1").first.is_visible()
        assert visit.outside == []
        assert visit.errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_with_results_makes_no_outside_request(browser, site_url, lang):
    with offline_page(browser, site_url) as visit:
        visit.page.goto(f"{site_url}{lang}/", wait_until="networkidle")
        titles = visit.search("CUDA")
        visit.page.wait_for_load_state("networkidle")
        assert any("CUDA" in title for title in titles), titles
        assert visit.outside == []
        assert visit.errors == []
