"""Zero outside requests: every page type, in both languages, loads and works with every host
but the site's own unreachable, and logs no error."""

from __future__ import annotations

import pytest

from outside_requests import offline_page
from pitfalls.model import LANGUAGES
from pitfalls.validate import load_knowledge_base

from conftest import ROOT

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
        response = visit.page.goto(f"{site_url}{lang}/{page_paths[page_type]}", wait_until="networkidle")
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
