"""deploy/nginx.conf, exactly as shipped, serving a built site on a loopback port: redirects,
the site's 404 pages, gzip and cache lifetimes over HTTP, and pages in the browser."""

from __future__ import annotations

import gzip
import http.client
import re
import shutil
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from conftest import LONGEST_ALIAS
from helpers.local_nginx import NginxError, serve_with_nginx
from helpers.page_load import goto
from helpers.search_ui import open_search, search
from outside_requests import offline_page
from pitfalls.records.model import LANGUAGES
from pitfalls.records.validate import load_knowledge_base

IMMUTABLE = "public, max-age=31536000, immutable"


@pytest.fixture(scope="module")
def nginx_port(tiny_site):
    """Port of an nginx child process serving `tiny_site` through deploy/nginx.conf."""
    try:
        with serve_with_nginx(tiny_site) as port:
            yield port
    except NginxError as err:
        pytest.fail(str(err))


def get(port: int, path: str, *, gzip_ok: bool = False) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One GET without following redirects: status, headers, body (decompressed if gzipped)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    if response.headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return response.status, response.headers, body


def _largest(site: Path, pattern: str) -> str:
    """The site path of the largest file matching `pattern` (a glob under the site folder).

    Largest, so that it is above gzip_min_length (search data comes in shards of any size)."""
    matches = [path for path in site.glob(pattern) if path.is_file()]
    assert matches, f"no {pattern} in the built site"
    return "/" + max(matches, key=lambda path: path.stat().st_size).relative_to(site).as_posix()


def test_root_redirects_to_chinese(nginx_port):
    status, headers, _ = get(nginx_port, "/")
    assert (status, headers["Location"]) == (301, "/zh/")


def test_aliases_redirect_permanently(nginx_port, tiny_content):
    aliased = [(alias, record.id) for record in load_knowledge_base(tiny_content).records for alias in record.aliases]
    assert len(aliased) == 2, "the tiny site has gpu-oom's two aliases"
    for alias, record_id in aliased:
        for lang in LANGUAGES:
            for old in (f"/{lang}/{alias}/", f"/{lang}/{alias}", f"/{lang}/{alias}/index.html"):
                status, headers, _ = get(nginx_port, old)
                assert (status, headers["Location"]) == (301, f"/{lang}/{record_id}/"), old
            assert get(nginx_port, f"/{lang}/{record_id}/")[0] == 200


def test_an_alias_of_the_longest_allowed_id_redirects(nginx_port):
    """Map keys up to /<lang>/<80 characters>/index.html fit nginx's map hash (map_hash_bucket_size)."""
    status, headers, _ = get(nginx_port, f"/en/{LONGEST_ALIAS}/index.html")
    assert (status, headers["Location"]) == (301, "/en/gpu-oom/")


@pytest.mark.parametrize("path, page", [
    ("/zh/no-such-entry/", "zh/404.html"),
    ("/en/no/such/entry", "en/404.html"),
    ("/no-such-language/", "zh/404.html"),
    ("/nginx-redirects.map", "zh/404.html"),  # the build's map is for nginx, not for readers
])
def test_missing_page_gets_the_sites_404_in_its_language(nginx_port, tiny_site, path, page):
    status, _, body = get(nginx_port, path)
    assert status == 404
    assert body == (tiny_site / page).read_bytes()


@pytest.mark.parametrize("pattern", [
    "zh/index.html", "en/tags/index.html", "zh/assets/pitfalls.css", "en/assets/stylesheets/main.*.min.css",
    "zh/assets/javascripts/bundle.*.min.js", "en/search/**/*.json", "zh/sitemap-pages.xml",
])
def test_text_is_gzipped_when_the_client_accepts_it(nginx_port, tiny_site, pattern):
    path = _largest(tiny_site, pattern)
    url = path.removesuffix("index.html")
    status, headers, body = get(nginx_port, url, gzip_ok=True)
    assert (status, headers["Content-Encoding"]) == (200, "gzip")
    assert "Accept-Encoding" in headers["Vary"]
    assert body == (tiny_site / path.lstrip("/")).read_bytes()
    status, headers, _ = get(nginx_port, url)
    assert (status, headers["Content-Encoding"]) == (200, None)


@pytest.mark.parametrize("pattern, cache_control", [
    ("zh/assets/javascripts/bundle.*.min.js", IMMUTABLE),
    ("en/assets/stylesheets/main.*.min.css", IMMUTABLE),
    ("zh/assets/javascripts/workers/search.*.min.js", IMMUTABLE),
    ("zh/assets/pitfalls.css", "no-cache"),  # ours, not fingerprinted: revalidated
    ("zh/index.html", "no-cache"),
    ("en/tags/index.html", "no-cache"),
    ("zh/search/*/t/*.json", IMMUTABLE),  # in the folder named by the index's version: a new build, a new folder
    ("en/search/*/d/*.json", IMMUTABLE),
    ("zh/search/worker.js", "no-cache"),  # holds the manifest, which names the folder
    ("zh/search/search_index.json", "no-cache"),
])
def test_cache_lifetimes(nginx_port, tiny_site, pattern, cache_control):
    path = _largest(tiny_site, pattern).removesuffix("index.html")
    status, headers, _ = get(nginx_port, path)
    assert (status, headers["Cache-Control"]) == (200, cache_control)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_work_in_the_browser_through_nginx(browser, nginx_port, tiny_content, lang):
    record = next(r for r in load_knowledge_base(tiny_content).records if r.aliases)
    base_url = f"http://127.0.0.1:{nginx_port}/"
    with offline_page(browser, base_url) as visit:
        goto(visit.page, f"{base_url}{lang}/{record.aliases[0]}/")
        assert visit.page.url == f"{base_url}{lang}/{record.id}/"
        assert visit.page.locator("h1").first.is_visible()
        assert visit.errors == []

        missing = f"{base_url}{lang}/no/such/page/"
        response = goto(visit.page, missing)
        assert response.status == 404
        # the 404 page is styled and scripted from a nested path: its assets resolved
        assert visit.page.locator("header.md-header").is_visible()
        assert visit.page.evaluate("() => typeof document$ !== 'undefined'")
        assert visit.outside == []
        # Chromium logs the page's own 404 status; nothing else may fail
        assert visit.errors == [f"Failed to load resource: the server responded with a status of 404 (Not Found) @ {missing}"]


NOT_FOUND = {"zh": ("页面不存在 - 踩坑避雷指南", "页面不存在", "搜索“{words}”"),
             "en": ("Page not found - Pitfall Guide", "Page not found", "Search for “{words}”")}
"""The 404 page's <title>, heading and search link, in each language (templates/ui.yml)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_404_page_searches_for_the_words_of_the_missing_address(browser, nginx_port, lang):
    """A link shared in chat outlives its entry's name: the 404 page, in the site's language, offers a search for
    the address's words, which finds the entry; the words are shown as text, whatever the address holds."""
    title, heading, label = NOT_FOUND[lang]
    base_url = f"http://127.0.0.1:{nginx_port}/"
    with offline_page(browser, base_url) as visit:
        page = visit.page
        goto(page, f"{base_url}{lang}/gpu-oom-again/")
        assert page.title() == title
        assert page.locator("h1").first.text_content() == heading
        link = page.locator("#pf-not-found-search a")
        assert link.is_visible() and link.text_content() == label.format(words="gpu oom again")
        assert link.get_attribute("href") == f"/{lang}/?q=gpu%20oom%20again"
        link.click()
        page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=10_000)
        assert "/gpu-oom/" in page.locator(".md-search-result__item > a").first.get_attribute("href")

        hostile = "<img src=x onerror=alert(1)>"
        goto(page, f"{base_url}{lang}/{quote(hostile)}/")
        assert link.text_content() == label.format(words=hostile)
        assert page.locator("article img").count() == 0
        assert parse_qs(urlsplit(link.get_attribute("href")).query) == {"q": [hostile]}

        goto(page, f"{base_url}{lang}/404.html")  # the page itself: no words to search for
        assert page.locator("h1").first.text_content() == heading
        assert not page.locator("#pf-not-found-search").is_visible()
        assert visit.outside == []


def test_a_site_folder_with_a_space_in_its_name_is_served(tiny_site, tmp_path):
    """The runner points deploy/nginx.conf's root and redirect map at the site's folder, whatever its name (the
    search benchmark names one after its wiki, `independent 210`)."""
    spaced = tmp_path / "a site"
    shutil.copytree(tiny_site, spaced)  # a copy, not a link: the runner resolves links
    with serve_with_nginx(spaced) as port:
        assert get(port, "/zh/")[0] == 200


def _index_folder(site: Path, lang: str) -> str:
    """The site path of a language's index folder, named by the index's version (search/<version>/)."""
    [folder] = [path for path in (site / lang / "search").iterdir() if path.is_dir()]
    return "/" + folder.relative_to(site).as_posix() + "/"


def test_batch_json_answers_the_files_it_names_each_on_its_line_after_its_path(nginx_port, tiny_site):
    """search/<version>/batch.json?a=…&b=… is read as SSI (waves.js): line k is the path the k-th name (a to p) gives,
    a space and that file, the lines of names not asked for empty; gzipped and kept for good like the files themselves."""
    folder = _index_folder(tiny_site, "zh")
    status, headers, body = get(nginx_port, f"{folder}batch.json?a=d/1.json&b=t/0.json&c=d/0.json", gzip_ok=True)
    assert (status, headers["Content-Encoding"], headers["Cache-Control"]) == (200, "gzip", IMMUTABLE)
    lines = body.decode("utf-8").split("\n")
    files = tiny_site / folder.strip("/")
    assert lines[:3] == [f"{name} " + (files / name).read_text(encoding="utf-8") for name in ("d/1.json", "t/0.json", "d/0.json")]
    assert lines[3:] == [""] * 13
    all_sixteen = "&".join(f"{name}=d/0.json" for name in "abcdefghijklmnop")
    assert get(nginx_port, f"{folder}batch.json?{all_sixteen}")[2].decode("utf-8").split("\n") == [lines[2]] * 16


def test_batch_json_sends_the_files_as_they_are_even_with_ssi_commands_in_them(tiny_site, tmp_path):
    """Only batch.json is read as SSI: an entry whose text holds an SSI command (a record can say anything) is sent as
    written, not run."""
    site = tmp_path / "site"
    shutil.copytree(tiny_site, site)
    folder = _index_folder(site, "zh")
    written = '{"title":"<!--# echo var=\\"args\\" --><!--# include virtual=\\"/zh/index.html\\" -->"}'
    (site / folder.strip("/") / "d" / "999.json").write_text(written, encoding="utf-8")
    with serve_with_nginx(site) as port:
        status, _, body = get(port, f"{folder}batch.json?a=d/999.json&b=d/0.json")
    assert status == 200
    assert body.decode("utf-8").split("\n")[0] == "d/999.json " + written


@pytest.mark.parametrize("query", [
    "",  # no file named
    "a=../../index.html",  # outside the index folder
    "a=d/0.json&b=/zh/index.html",
    "a=x/0.json",  # not a folder of the index
    "a=d/0.json&q=d/1.json",  # a name past p
    "&".join(f"{name}=d/0.json" for name in "abcdefghijklmnopa"),  # more than 16
    "a=d/0.json%0A",
])
def test_batch_json_reads_only_index_files_named_as_the_worker_names_them(nginx_port, tiny_site, query):
    status, _, body = get(nginx_port, f"{_index_folder(tiny_site, 'en')}batch.json?{query}")
    assert status == 400, body[:200]


def test_a_search_asks_for_each_wave_of_files_in_one_request(browser, nginx_port, large_site, http_server):
    """Through nginx a query's index files come a wave in one batch.json request: none of its results' d/ files is
    asked for alone. A static host (Python's server) sends batch.json as written: the worker asks for its first wave
    so, then for each file alone; the results are the same."""
    def requests_and_results(base_url: str) -> tuple[list[str], list[str]]:
        page = browser.new_page()
        asked = []
        page.on("request", lambda request: asked.append(request.url.removeprefix(base_url)))
        open_search(page, f"{base_url}en/")
        shown = search(page, "en", "cuda out of memory training")[1]
        page.close()
        return [url for url in asked if re.search(r"/search/[0-9a-f]{12}/", url)], shown  # the index's files

    with serve_with_nginx(large_site[1]) as port:
        batched, shown = requests_and_results(f"http://127.0.0.1:{port}/")
    alone, shown_alone = requests_and_results(http_server(large_site[1]))
    assert len(shown) == 10 and shown == shown_alone
    assert [url for url in batched if "/d/" in url and "batch.json" not in url] == []
    assert sum("/batch.json?" in url for url in batched) >= 2  # the term shards, then the results' d/ files
    # the first wave's batches (its files, and those asked for at low priority) are asked before the answer says the
    # server sends batch.json as written; every later file is asked for alone
    batches = [k for k, url in enumerate(alone) if "/batch.json?" in url]
    assert batches == list(range(len(batches))) and 1 <= len(batches) <= 2
    assert sum("/d/" in url for url in alone) == 10
