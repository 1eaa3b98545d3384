"""Search links (`/<lang>/?q=…`, as pasted in chat) opened in a fresh browser, through deploy/nginx.conf:
ms until the first results show, and the chain of requests that leads there.

    .venv/bin/python -m bench.bench_deep_links LABEL=SITE_DIR [LABEL=SITE_DIR …] [--rounds 5] [--waterfall]

Each site is served by its own nginx; the rounds alternate between the sites, so a change of machine load
touches all of them alike (compare builds of the same content, e.g. before and after a change). Prints the
median and the maximum per site; `--waterfall` also prints, for the first link, when each request started
and ended (ms since navigation), which shows what waits for what. `make bench-search` runs the same links.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from pathlib import Path
from urllib.parse import quote

from bench.bench_search import DEEP_LINKS, open_link_until_results
from tests.helpers.chromium import LAUNCH_ARGS
from tests.helpers.local_nginx import serve_with_nginx


def waterfall(browser, url: str, lang: str, query: str) -> list[str]:
    """Each request of a fresh page load of a search link: start and end in ms since navigation, and its path."""
    context = browser.new_context()
    page = context.new_page()
    rows = []
    page.on("requestfinished", lambda request: rows.append(request))
    page.goto(f"{url}{lang}/?q={quote(query)}", wait_until="commit")
    shown = page.wait_for_function("""() => {
      const list = document.querySelector(".md-search-result__list");
      return list && list.children.length ? performance.now() : false;
    }""", polling="raf", timeout=60_000).json_value()
    lines = []
    for request in rows:
        timing = request.timing
        start = timing["startTime"] - rows[0].timing["startTime"]
        end = start + max(timing["responseEnd"], 0)
        lines.append(f"  {start:7.0f} → {end:7.0f} ms  {request.url.split(url, 1)[-1][:90]}")
    lines.append(f"  results shown at {shown:.0f} ms")
    context.close()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", help="LABEL=SITE_DIR: a built site (both languages)")
    parser.add_argument("--rounds", type=int, default=5, help="times each link is opened per site (default: %(default)s)")
    parser.add_argument("--waterfall", action="store_true", help="print the requests of the first link per site")
    args = parser.parse_args()
    sites = dict(site.split("=", 1) for site in args.sites)
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        urls = {label: f"http://127.0.0.1:{stack.enter_context(serve_with_nginx(Path(path)))}/"
                for label, path in sites.items()}
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        times: dict[str, list[float]] = {label: [] for label in sites}
        for _ in range(args.rounds):
            for label, url in urls.items():
                times[label] += open_link_until_results(browser, url)
        print(f"search link opened in a fresh browser → first results, {len(DEEP_LINKS)} links × {args.rounds} rounds, nginx:")
        for label, found in times.items():
            print(f"  {label:12} median {statistics.median(found):6.0f} ms   max {max(found):6.0f} ms")
        if args.waterfall:
            for label, url in urls.items():
                print(f"{label}: {DEEP_LINKS[0]}")
                print("\n".join(waterfall(browser, url, *DEEP_LINKS[0])))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
