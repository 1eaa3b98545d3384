"""Open pages with every host but the site's own unreachable, and record what they tried.

Shared by the offline, nginx and dist tests: each opens pages through `offline_page` and
asserts that `outside` (requests to other hosts, all aborted) and `errors` stay empty. A page is opened with
helpers.page_load.goto, which returns once every request the page made by itself has ended.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from helpers.page_load import watch

IN_DOCUMENT_SCHEMES = ("data", "blob", "about")
"""URL schemes that never reach a network."""


@dataclass
class Visit:
    """A browser page whose requests to other hosts are aborted and counted."""

    page: object
    """The Playwright page."""
    outside: list[str] = field(default_factory=list)
    """URLs requested from any host but the site's (each one was aborted)."""
    errors: list[str] = field(default_factory=list)
    """Console errors ("message @ url") and uncaught exceptions, in order."""

    def search(self, query: str) -> list[str]:
        """Type `query` into the header search box and return the titles of the results."""
        box = self.page.locator("input.md-search__input")
        box.click()
        # Material searches on keyup; fill() sends none, so press a key that leaves the text as it is
        box.fill(query)
        box.press("End")
        results = self.page.locator(".md-search-result__item")
        results.first.wait_for(state="visible", timeout=10_000)
        return self.page.locator(".md-search-result__item h1").all_inner_texts()


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


@contextmanager
def offline_page(browser, base_url: str, **context_options) -> Iterator[Visit]:
    """A fresh browser context (Playwright's `context_options`, e.g. viewport) whose only reachable host
    is the one serving `base_url`."""
    site = _origin(base_url)
    context = browser.new_context(**context_options)
    watch(context)  # its open requests, for helpers.page_load.settle
    visit = Visit(context.new_page())

    def route(route) -> None:
        url = route.request.url
        if url.split(":", 1)[0] in IN_DOCUMENT_SCHEMES or _origin(url) == site:
            route.continue_()
        else:
            visit.outside.append(url)
            route.abort()

    # routed on the context, so requests of the page's workers (search) are caught too
    context.route("**/*", route)
    def console(message) -> None:
        if message.type == "error":
            where = message.location.get("url")
            visit.errors.append(f"{message.text} @ {where}" if where else message.text)

    visit.page.on("console", console)
    visit.page.on("pageerror", lambda error: visit.errors.append(str(error)))
    try:
        yield visit
    finally:
        context.close()
