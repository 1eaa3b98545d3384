"""In headless Chromium: the language switcher, and pages that render cleanly on a phone and a desktop."""

from __future__ import annotations

import pytest

from helpers.page_load import goto

PAGES = ["zh/", "zh/cuda-out-of-memory/", "en/docker-gpu/", "zh/categories/training/", "en/tags/", "zh/tags/cuda/"]


def open_page(browser, url: str, width: int):
    page = browser.new_page(viewport={"width": width, "height": 800})
    problems = []
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    goto(page, url)
    return page, problems


def test_language_switcher_leads_to_the_same_entry(browser, site_url):
    page, problems = open_page(browser, f"{site_url}zh/cuda-out-of-memory/", 1280)
    page.click(".pf-lang-switch")
    page.wait_for_url(f"{site_url}en/cuda-out-of-memory/")
    assert page.locator("h1").inner_text() == "Out of GPU memory (CUDA out of memory)"
    page.click(".pf-lang-switch")
    page.wait_for_url(f"{site_url}zh/cuda-out-of-memory/")
    assert problems == []
    page.close()


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("path", PAGES)
def test_pages_render_without_errors_or_sideways_scrolling(browser, site_url, path, width):
    page, problems = open_page(browser, site_url + path, width)
    assert page.locator("h1").count() == 1
    # long error messages scroll inside their block; the page itself must not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert problems == []
    page.close()
