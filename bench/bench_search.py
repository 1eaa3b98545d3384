"""`make bench-search`: our site search against stock Material search, measured in headless Chromium.

    .venv/bin/python -m bench.bench_search [--entries 5000] [--skip-large | --large-only]

Prints, side by side for our search and Material's stock search (same site, same jieba,
built with PITFALLS_STOCK_SEARCH=1):
  - top-1, top-3 and MRR per kind of query of tests/search_queries.yml (12 real entries) and of
    tests/search_queries_corpus.yml (the realistic corpus of bench/corpus.py, 172 entries), and of the 12-entry
    set asked again at 172 entries (right also on the corpus entries judged blind as good an answer); at the 210
    entries nobody tuned on, the blind sets of bench/ about them and about the seed entries;
  - median ms from the last keystroke to the result list, at 12 and at N synthetic entries
    (bench/generate.py), per language, with the site served by deploy/nginx.conf (how a team hosts
    it) and by `python -m http.server` in a process of its own (how docs/DEPLOY.md serves the offline bundle);
    and the median once more when the query's files are read (the rest is what fetching them cost), and the worker's
    part of it (Material's message to the worker to its answer: the engine's work; the rest is Material's); through nginx, the
    first search of a new page of a reader who searched before (the browser's cache warm, the worker cold; with the worker's
    part too), at N entries also with 20 ms a round trip (bench/latency.py); at N entries, the English queries typed
    letter by letter, ms from the last key;
  - bytes the browser downloads for search before the first result (fresh browser, N entries, through nginx, whose
    batch.json sends a wave of files in one answer), and the requests, bytes and ms of a long Chinese paste once the
    worker is loaded;
  - ms to answer each hostile query (tests/helpers/search_ui.py) at N entries, through nginx;
  - median ms from opening a search link (`/<lang>/?q=…`, as pasted in chat) in a fresh browser
    context to the first results shown, at N entries, through nginx and http.server;
  - build time of both languages, and the time of our index step alone.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import quote

from bench.latency import delayed
from bench.search_quality import SETS, load_queries, with_judgments
from pitfalls.pages.search_index import BATCH_NAMES
from tests.helpers.chromium import LAUNCH_ARGS
from tests.helpers.local_nginx import serve_with_nginx
from tests.helpers.search_ui import HOSTILE_QUERIES, open_search, search

ROOT = Path(__file__).resolve().parent.parent

QUERIES = load_queries(ROOT / "tests" / "search_queries.yml")
QUERY_SETS = {"12": {"12-entry set": QUERIES},
              "corpus": {"corpus set": load_queries(ROOT / "tests" / "search_queries_corpus.yml"),
                         "12-entry set asked at 172 entries": with_judgments(QUERIES, ROOT / "bench" / "seed_queries_also_at_corpus.yml")},
              # search_quality's blind rows at 210 entries (the public 12-entry set is asked at 172 above)
              "independent 210": {query_set.name: load_queries(ROOT / query_set.queries) for query_set in SETS
                                  if query_set.at == "independent 210" and query_set.queries != "tests/search_queries.yml"}}
"""The query sets each corpus is measured for quality with: at the 12 seed entries their set; at the realistic
corpus its own set, and the 12-entry set again (a wiki that grew: bench/search_quality.py --also); at the 210 entries
nobody tuned on (bench/corpus_independent*), the sets written blind about them and about the seed entries (held out:
per kind only, as here, never a query)."""
ENGINES = {"ours": {}, "stock": {"PITFALLS_STOCK_SEARCH": "1"}}
BYTES_QUERIES = ["显存不足怎么办", "DataLoader卡死", "RuntimeError: CUDA error: no kernel image is available", "ssh 断开",
                 "xiancun buzu", "顯示卡記憶體不足", "dataloder hnags"]  # the last three load pinyin, variant and typo data
LONG_PASTE = ("我在服务器上用四张卡训练大模型，跑了大概两个小时之后突然报错显存不足，然后整个程序就退出了，重新启动以后同样的地方又出现这个问题，"
              "batch size 已经调到很小了还是不行，请问应该怎么排查，是不是数据里面有特别长的样本导致的，还是说梯度累积的设置有问题，"
              "或者是其他进程占用了显存，求大佬指点一下")
"""A question as a user pastes it whole (149 characters, most of them Chinese)."""
DEEP_LINKS = [("zh", q) for q in BYTES_QUERIES[:4]] + [("en", "CUDA out of memory"), ("en", "ssh connection closed")]
"""Search links opened in a fresh browser: (language, query)."""
# Resolves with the page's clock (ms since navigation started) once the result list or the "no results" line shows.
_RESULTS_SHOWN = """() => {
  const list = document.querySelector(".md-search-result__list");
  const meta = document.querySelector(".md-search-result__meta");
  const shown = (list && list.children.length) || (meta && /(没有|No matching)/.test(meta.textContent));
  return shown ? performance.now() : false;
}"""


def build(content: Path, site_dir: Path, env: dict) -> float:
    """Build both languages; seconds taken."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pitfalls", "build", "--content", str(content), "--site-dir", str(site_dir)],
                          cwd=ROOT, env=dict(os.environ, **env), capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"build failed:\n{done.stdout}\n{done.stderr}")
    return time.perf_counter() - start


def index_step_seconds(content: Path) -> float:
    """Our index step alone: both languages one after the other, jieba's dictionary load included."""
    from pitfalls.pages.search_index import build_index, write_index
    from pitfalls.records.validate import load_knowledge_base

    base = load_knowledge_base(content)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for lang in ("zh", "en"):
            write_index(build_index(base, lang), Path(tmp) / lang)
    return time.perf_counter() - start


def serve(site_dir: Path) -> tuple[str, subprocess.Popen]:
    """The offline bundle's server as docs/DEPLOY.md runs it: `python -m http.server`, in a process of
    its own (a server thread inside this process would share its interpreter with the browser driver)."""
    process = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                "--directory", str(site_dir)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(re.search(r"port (\d+)", process.stdout.readline()).group(1))  # "Serving HTTP on 127.0.0.1 port N …"
    return f"http://127.0.0.1:{port}/", process


def distinct(queries: list[dict], lang: str) -> list[str]:
    """The texts of the queries in `lang`, each once (the sets share queries), in their order."""
    return list(dict.fromkeys(q["q"] for q in queries if q.get("lang", "zh") == lang))


# Stamps each message between the page and its search worker (Material's QUERY out, RESULT in) in window.searchMessages,
# the page's clock: the worker, wrapped before Material starts it, as a listener of its own
_STAMP_WORKER_MESSAGES = """(() => {
  const PageWorker = window.Worker;
  window.searchMessages = [];
  window.Worker = function (...args) {
    const worker = new PageWorker(...args);
    worker.addEventListener("message", () => window.searchMessages.push(["in", performance.now()]));
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (...message) => { window.searchMessages.push(["out", performance.now()]); return post(...message); };
    return worker;
  };
  window.Worker.prototype = PageWorker.prototype;
})()"""
# ms from the first message to the worker since the last call to the last message back; clears the stamps
_WORKER_MS = """() => {
  const stamps = window.searchMessages.splice(0);
  const out = stamps.find(([way]) => way === "out"), back = stamps.findLast(([way]) => way === "in");
  return out && back ? back[1] - out[1] : null;
}"""


def run_queries(browser, url: str, queries: list[dict]) -> dict[tuple[str, str], tuple[float, list[str], float, float]]:
    """(lang, query) → (ms from the keystroke to the results, the entry ids shown, ms once more when the files it needs
    are read, the worker's part of that): each language's queries asked in turn on one page, then again on it. The
    second time is the engine, the worker's messages and the page's rendering without the fetches, so the first says
    what the fetching cost; the worker's part, from Material's message to it to its answer, is the engine's work (the
    rest is Material's: its keyup handling and the list drawn)."""
    results = {}
    for lang in ("zh", "en"):
        page = browser.new_page()
        page.add_init_script(_STAMP_WORKER_MESSAGES)
        open_search(page, f"{url}{lang}/")
        asked = distinct(queries, lang)
        for query in asked:
            results[lang, query] = search(page, lang, query)
        for query in asked:
            page.evaluate(_WORKER_MS)
            results[lang, query] += (search(page, lang, query)[0], page.evaluate(_WORKER_MS))
        page.close()
    return results


def quality_table(results: dict[str, dict], queries: list[dict]) -> None:
    kinds = list(dict.fromkeys(q["kind"] for q in queries)) + ["all"]
    print(f"\n{'kind':12}{'n':>4}   " + "   ".join(f"{e + ' top1':>10} {'top3':>5} {'MRR':>5} {'empty':>5}" for e in results))
    for kind in kinds:
        chosen = [q for q in queries if kind in ("all", q["kind"])]
        cells = []
        for engine_results in results.values():
            ranks, empty = [], 0
            for q in chosen:
                ids = engine_results[q.get("lang", "zh"), q["q"]][1]
                empty += not ids
                right = {q["id"], *q.get("also", [])}
                ranks.append(next((n + 1 for n, id_ in enumerate(ids) if id_ in right), 0))
            top1 = sum(r == 1 for r in ranks) / len(ranks)
            top3 = sum(0 < r <= 3 for r in ranks) / len(ranks)
            mrr = sum(1 / r for r in ranks if r) / len(ranks)
            cells.append(f"{top1:10.2f} {top3:5.2f} {mrr:5.2f} {empty / len(ranks):5.2f}")
        print(f"{kind:12}{len(chosen):4}   " + "   ".join(cells))


def speed_line(label: str, results: dict[str, dict]) -> None:
    parts = []
    for engine, engine_results in results.items():
        for lang in ("zh", "en"):
            times = [ms for (lg, _), (ms, *_) in engine_results.items() if lg == lang]
            again = statistics.median(ms for (lg, _), (_, _, ms, _) in engine_results.items() if lg == lang)
            worker = statistics.median(ms for (lg, _), (*_, ms) in engine_results.items() if lg == lang and ms is not None)
            parts.append(f"{engine} {lang} {statistics.median(times):6.1f} ms (max {max(times):6.1f}; files read {again:5.1f}, "
                         f"the worker {worker:4.1f})")
    print(f"{label:18}" + " | ".join(parts))


def search_downloads(browser, url: str, query: str, before: str | None = None) -> tuple[float, dict[str, int]]:
    """In a fresh browser, ms from the keystroke to the results of `query` on the Chinese site, and each search request
    made for it (a file, or a batch.json of several: waves.js), gzipped (gzip -6 of what the server sent, computed, not
    measured on the wire): from page load, or, with `before`, after searching that first (the worker and manifest
    loaded, and the shards of `before`)."""
    context = browser.new_context()
    page = context.new_page()
    fetched = []
    context.on("requestfinished", lambda request: fetched.append(request.url))
    open_search(page, f"{url}zh/")
    if before is not None:
        search(page, "zh", before)
        fetched.clear()
    ms = search(page, "zh", query)[0]
    files = {}
    for u in fetched:
        if "/search" in u or "lunr" in u or "worker" in u:
            path, _, query = u.split(url, 1)[1].partition("?")  # a search link's worker has ?q=
            files[u if path.endswith("/batch.json") else path] = len(gzip.compress(_served(SITE_DIRS[url], path, query), 6))
    context.close()
    return ms, files


def _served(site: Path, path: str, query: str) -> bytes:
    """The body nginx sent for `path`: the file, or for a batch.json the files its query names, each on its line
    after its path and a space (waves.js)."""
    if not path.endswith("/batch.json") or not query:
        return (site / path).read_bytes()
    named = dict(part.split("=", 1) for part in query.split("&"))
    folder = site / path.removesuffix("batch.json")
    return b"\n".join(named[name].encode() + b" " + (folder / named[name]).read_bytes() if name in named else b""
                      for name in BATCH_NAMES)


def download_bytes(browser, url: str) -> dict[str, int]:
    """Search bytes fetched by a fresh browser from page load to the first result, averaged over BYTES_QUERIES
    (and the largest)."""
    totals = defaultdict(list)
    for query in BYTES_QUERIES:
        files = search_downloads(browser, url, query)[1]
        totals["gzip"].append(sum(files.values()))
        totals["files"].append(len(files))
    return {**{k: int(statistics.mean(v)) for k, v in totals.items()}, "max_gzip": max(totals["gzip"])}


def long_paste_line(browser, url: str) -> str:
    """What LONG_PASTE costs once the worker is loaded: files, bytes and ms (each Chinese character it has may start a
    word, so it fetches the most term shards of any query: docs/SEARCH-LOG.md, "Heavy characters keyed by two")."""
    ms, files = search_downloads(browser, url, LONG_PASTE, before="显存")
    return f"{len(files)} requests, {sum(files.values()):,} B gzipped, {ms:.0f} ms"


def open_link_until_results(browser, url: str) -> list[float]:
    """ms from opening each DEEP_LINKS search link in a fresh browser context to its first results."""
    times = []
    for lang, query in DEEP_LINKS:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{url}{lang}/?q={quote(query)}", wait_until="commit")
        times.append(page.wait_for_function(_RESULTS_SHOWN, polling="raf", timeout=60_000).json_value())
        context.close()
    return times


SITE_DIRS: dict[str, Path] = {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=5000, help="synthetic corpus size (default: %(default)s)")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--skip-large", action="store_true", help="only the real entries: 12, the corpus, the 210")
    # the speed and size figures are the synthetic corpus's: about half the run on a quiet evening
    sizes.add_argument("--large-only", action="store_true", help="only the synthetic corpus of --entries")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from bench.corpus import INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3, assemble

    work = Path(tempfile.mkdtemp(prefix="bench-search-"))
    corpora = {}
    if not args.large_only:
        corpora = {"12": ROOT / "content", "corpus": assemble(work / "content-corpus"),
                   "independent 210": assemble(work / "content-independent", corpora=(INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3))}
    if not args.skip_large:
        big = work / f"content-{args.entries}"
        subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(args.entries), str(big)], check=True,
                       stdout=subprocess.DEVNULL)
        corpora[str(args.entries)] = big

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        try:
            measure(browser, corpora, work)
        finally:
            browser.close()
            shutil.rmtree(work, ignore_errors=True)
    return 0


def hostile_line(browser, url: str) -> str:
    """ms from the keystroke to the answer of each hostile query, on a page that has searched before."""
    page = browser.new_page()
    open_search(page, f"{url}zh/")
    search(page, "zh", "显存")
    times = [search(page, "zh", query)[0] for query in HOSTILE_QUERIES]
    page.close()
    return " | ".join(f"{ms:.0f}" for ms in times) + f"  (max {max(times):.0f} ms)"


def typed_line(browser, url: str) -> str:
    """The English queries of the 12-entry set typed letter by letter on the English site, one page: a search at each
    key, the next key once its results show (a typist slower than the engine); ms from the last key to the results."""
    page = browser.new_page()
    open_search(page, f"{url}en/")
    times = []
    for query in distinct(QUERIES, "en"):
        for end in range(1, len(query) + 1):
            ms = search(page, "en", query[:end])[0]
        times.append(ms)
    page.close()
    return f"{statistics.median(times):.1f} ms (max {max(times):.1f}) of {len(times)} queries"


FIRST_SEARCHES = 8
"""Queries a language asked as the first search of a page, by first_search_line."""
ROUND_TRIP_MS = 20
"""The round trip of a server that is not on the reader's machine (bench/latency.py), for first_search_line at N
entries: on loopback, a request that must wait for another costs about nothing more."""
READER_PAUSE_MS = 1000
"""How long after its page is ready a reader starts typing: a search typed at once competes with the page's loading
(about twice the time here)."""
READER_READS_MS = 1500
"""How long a reader reads the results before leaving the page: the worker keeps what it fetched in the browser's store
once no file came for a second (static/assets/search/kept.js), and a page closed sooner keeps nothing."""


def first_search_line(browser, url: str) -> str:
    """A reader who came back: each language's queries asked on one page (the browser's cache, and its store, now hold
    their files), then the first FIRST_SEARCHES of them each as the first search of a new page, READER_PAUSE_MS after it
    is ready, whose worker starts cold (its files read from the browser's store, or asked of the server again or read
    from the browser's cache; its code not yet compiled by the JIT); ms from the keystroke to the results, and the
    worker's part of it (run_queries). Each page is left READER_READS_MS after its last search."""
    parts = []
    for lang in ("zh", "en"):
        context = browser.new_context()
        context.add_init_script(_STAMP_WORKER_MESSAGES)
        page = context.new_page()
        open_search(page, f"{url}{lang}/")
        asked = distinct(QUERIES, lang)
        for query in asked:
            search(page, lang, query)
        page.wait_for_timeout(READER_READS_MS)
        page.close()
        times, worker = [], []
        for query in asked[:FIRST_SEARCHES]:
            page = context.new_page()
            open_search(page, f"{url}{lang}/")
            page.wait_for_timeout(READER_PAUSE_MS)
            page.evaluate(_WORKER_MS)  # the worker's setup messages are not the search's
            times.append(search(page, lang, query)[0])
            worker.append(page.evaluate(_WORKER_MS))
            page.wait_for_timeout(READER_READS_MS)
            page.close()
        context.close()
        worker_ms = statistics.median(ms for ms in worker if ms is not None)
        parts.append(f"{lang} {statistics.median(times):.1f} ms (max {max(times):.1f}; the worker {worker_ms:.1f})")
    return " | ".join(parts) + f", {FIRST_SEARCHES} queries each"


def measure(browser, corpora: dict[str, Path], work: Path) -> None:
    """Build, serve and measure each corpus with both engines."""
    for size, content in corpora.items():
        print(f"\n=== {size} entries ===")
        results, through_nginx, servers, deep_links = {}, {}, [], {}
        for engine, env in ENGINES.items():
            site_dir = work / f"site-{size}-{engine}"
            seconds = build(content, site_dir, env)
            print(f"build ({engine}): {seconds:.1f} s for both languages")
            url, server = serve(site_dir)
            servers.append(server)
            SITE_DIRS[url] = site_dir
            queries = [q for query_set in QUERY_SETS.get(size, {"": QUERIES}).values() for q in query_set]
            results[engine] = run_queries(browser, url, queries)
            with serve_with_nginx(site_dir) as port:
                through_nginx[engine] = run_queries(browser, f"http://127.0.0.1:{port}/", queries)
                print(f"a page's first search ({engine}, nginx, the browser's cache warm): {first_search_line(browser, f'http://127.0.0.1:{port}/')}")
                if size not in QUERY_SETS:
                    with delayed(port, ROUND_TRIP_MS) as slow_port:
                        print(f"a page's first search ({engine}, nginx, {ROUND_TRIP_MS} ms a round trip): "
                              f"{first_search_line(browser, f'http://127.0.0.1:{slow_port}/')}")
                    print(f"hostile queries ({engine}, nginx), ms each: {hostile_line(browser, f'http://127.0.0.1:{port}/')}")
                    deep_links[engine, "nginx"] = open_link_until_results(browser, f"http://127.0.0.1:{port}/")
                    print(f"English typed letter by letter ({engine}, nginx), the last key: {typed_line(browser, f'http://127.0.0.1:{port}/')}")
                    nginx_url = f"http://127.0.0.1:{port}/"
                    SITE_DIRS[nginx_url] = site_dir
                    b = download_bytes(browser, nginx_url)
                    print(f"search bytes before the first result ({engine}, zh, nginx): {b['gzip']:,} gzipped on average "
                          f"(computed: gzip -6 of each answer, not measured on the wire; largest {b['max_gzip']:,}), "
                          f"{b['files']} requests")
                    print(f"a long Chinese paste ({engine}, zh, nginx, after a first search): {long_paste_line(browser, nginx_url)}")
            if size not in QUERY_SETS:
                deep_links[engine, "http.server"] = open_link_until_results(browser, url)
        print(f"our index step alone: {index_step_seconds(content):.1f} s for both languages")
        for name, query_set in QUERY_SETS.get(size, {}).items():
            print(f"\nquality, {name} ({len(query_set)} queries):")
            quality_table(results, query_set)
        print("keystroke→results, median (max; median once the query's files are read, and the worker's part), served by:")
        speed_line("  nginx", through_nginx)
        speed_line("  http.server", results)
        if deep_links:
            print(f"search link opened in a fresh browser → first results, median (max) of {len(DEEP_LINKS)}:")
            for (engine, server), times in deep_links.items():
                print(f"  {engine:6} {server:12} {statistics.median(times):7.0f} ms ({max(times):7.0f})")
        for server in servers:
            server.terminate()


if __name__ == "__main__":
    sys.exit(main())
