"""Opening a page of the built site in Playwright and waiting until it has done what it does by itself: loaded
(its document, styles, scripts and images: the "load" event), set up Material's search (the worker has fetched
its index: the search box's status line no longer says it is initializing), and no request of the page or of its
worker is still open (the sitemap Material fetches, the favicon, a search's shards).

Playwright's wait_until="networkidle" waited for that too, plus 500 ms with no request at all, on every page
a test opened (docs/TESTING.md, "Running in parallel"). Shared by the browser tests and outside_requests.py.
"""

from __future__ import annotations

import time
from weakref import WeakKeyDictionary

SEARCH_READY = """() => { const meta = document.querySelector(".md-search-result__meta");
  return meta !== null && meta.textContent.trim() !== "" && !/初始化|Initializing/.test(meta.textContent); }"""
"""Material has set up the search: the status line went from "Initializing search" (正在初始化搜索引擎) to
"Type to start searching" or, on a page opened with ?q=, the count of results."""

TIMEOUT = 30
"""Seconds a page may take to settle: generous, for a busy test machine."""

_open: WeakKeyDictionary = WeakKeyDictionary()


def watch(context) -> set:
    """The requests of `context` (its pages and their workers) started and not yet ended, kept up to date from now
    on; the same set on every call for one context."""
    if context not in _open:
        pending: set = set()
        context.on("request", lambda request: pending.add(request))  # Playwright takes no built-in method here
        context.on("requestfinished", lambda request: pending.discard(request))
        context.on("requestfailed", lambda request: pending.discard(request))
        _open[context] = pending
    return _open[context]


def settle(page, *, search: bool = True) -> None:
    """Wait until `page` is loaded, its search set up (unless `search` is false: a page without JavaScript) and no
    request of its context is open. The context must have been watched (`watch`) before the page was opened."""
    assert page.context in _open, "watch(page.context) before opening the page, or its requests are not seen"
    page.wait_for_load_state("load")
    if search:
        page.wait_for_function(SEARCH_READY, timeout=TIMEOUT * 1000)
    pending = _open[page.context]
    deadline = time.monotonic() + TIMEOUT
    while pending:
        assert time.monotonic() < deadline, f"requests still open after {TIMEOUT} s: {[r.url for r in pending]}"
        page.wait_for_timeout(10)  # Playwright delivers the requests' events while it waits


def goto(page, url: str, *, search: bool = True):
    """page.goto(url), returned once the page has settled (`settle`); its response."""
    watch(page.context)
    response = page.goto(url, wait_until="load")
    settle(page, search=search)
    return response
