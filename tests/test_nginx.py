"""deploy/nginx.conf, exactly as shipped, serving a built site on a loopback port: redirects,
the site's 404 pages, gzip and cache lifetimes over HTTP, and pages in the browser."""

from __future__ import annotations

import gzip
import http.client
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, build_fixture_site
from outside_requests import offline_page
from pitfalls.model import LANGUAGES
from pitfalls.validate import load_knowledge_base

CONFIG = ROOT / "deploy" / "nginx.conf"
CONTENT = FIXTURES / "tiny"
SITE_ROOT = "/srv/pitfall-guide/site"
"""Where deploy/nginx.conf expects the site; the test points it at its own build."""
IMMUTABLE = "public, max-age=31536000, immutable"

MAIN_CONFIG = """\
daemon off;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/pitfall-guide.conf;
}}
"""
"""A minimal nginx.conf around the repo's file, all state kept in the test's folder."""


def _nginx() -> str:
    """Debian's nginx, installed the way `make nginx` does when it is missing and we may."""
    found = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if not found and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run("apt-get update -qq && apt-get install -y -qq nginx", shell=True, check=False,
                       stdout=subprocess.DEVNULL)
        found = shutil.which("/usr/sbin/nginx")
    if not found:
        pytest.fail("nginx is missing: run `make test` (as root it installs Debian's nginx) or apt-get install nginx")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _site_config(site_dir: Path, port: int) -> str:
    """The repo's config with its three deployment-specific lines pointed at the test's site."""
    text = CONFIG.read_text(encoding="utf-8")
    deployment_lines = {  # directive → its one line in the shipped file, and what the test puts there
        "listen": (re.compile(r"^(\s*)listen 80;$", re.M), rf"\1listen 127.0.0.1:{port};"),
        "root": (re.compile(rf"^(\s*)root {SITE_ROOT};$", re.M), rf"\1root {site_dir};"),
        "include": (re.compile(rf"^(\s*)include {SITE_ROOT}/nginx-redirects.map;$", re.M),
                    rf"\1include {site_dir}/nginx-redirects.map;"),
    }
    for directive, (line, replacement) in deployment_lines.items():
        text, found = line.subn(replacement, text)
        assert found == 1, f"{CONFIG}: expected one `{line.pattern}` line ({directive}), found {found}"
    return text


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory) -> Path:
    return build_fixture_site(tmp_path_factory.mktemp("nginx-site"), CONTENT)


@pytest.fixture(scope="module")
def nginx_port(tiny_site, tmp_path_factory):
    """Port of an nginx child process serving `tiny_site` through deploy/nginx.conf."""
    nginx = _nginx()
    prefix = tmp_path_factory.mktemp("nginx")
    port = _free_port()
    (prefix / "pitfall-guide.conf").write_text(_site_config(tiny_site, port), encoding="utf-8")
    # as root, nginx's workers would switch to `nobody`, who cannot read pytest's 0700 folders
    user = f"user {pwd.getpwuid(os.getuid()).pw_name} {grp.getgrgid(os.getgid()).gr_name};" if os.geteuid() == 0 else ""
    (prefix / "nginx.conf").write_text(MAIN_CONFIG.format(prefix=prefix, user=user), encoding="utf-8")
    command = [nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_for(port, process, prefix / "error.log")
        yield port
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful shutdown of master and worker
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for(port: int, process: subprocess.Popen, error_log: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = error_log.read_text() if error_log.exists() else ""
            pytest.fail(f"nginx exited with {process.returncode}:\n{process.stdout.read()}\n{log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"nginx did not listen on 127.0.0.1:{port} within 15 s")


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


def test_aliases_redirect_permanently(nginx_port):
    aliased = [(alias, record.id) for record in load_knowledge_base(CONTENT).records for alias in record.aliases]
    assert aliased, f"{CONTENT} needs a record with aliases for this test"
    for alias, record_id in aliased:
        for lang in LANGUAGES:
            for old in (f"/{lang}/{alias}/", f"/{lang}/{alias}", f"/{lang}/{alias}/index.html"):
                status, headers, _ = get(nginx_port, old)
                assert (status, headers["Location"]) == (301, f"/{lang}/{record_id}/"), old
            assert get(nginx_port, f"/{lang}/{record_id}/")[0] == 200


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
    "zh/assets/javascripts/bundle.*.min.js", "en/search/**/*.json", "zh/sitemap.xml",
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
    ("zh/search/**/*.json", "no-cache"),
])
def test_cache_lifetimes(nginx_port, tiny_site, pattern, cache_control):
    path = _largest(tiny_site, pattern).removesuffix("index.html")
    status, headers, _ = get(nginx_port, path)
    assert (status, headers["Cache-Control"]) == (200, cache_control)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_work_in_the_browser_through_nginx(browser, nginx_port, lang):
    record = next(r for r in load_knowledge_base(CONTENT).records if r.aliases)
    base_url = f"http://127.0.0.1:{nginx_port}/"
    with offline_page(browser, base_url) as visit:
        visit.page.goto(f"{base_url}{lang}/{record.aliases[0]}/", wait_until="networkidle")
        assert visit.page.url == f"{base_url}{lang}/{record.id}/"
        assert visit.page.locator("h1").first.is_visible()
        assert visit.errors == []

        missing = f"{base_url}{lang}/no/such/page/"
        response = visit.page.goto(missing, wait_until="networkidle")
        assert response.status == 404
        # the 404 page is styled and scripted from a nested path: its assets resolved
        assert visit.page.locator("header.md-header").is_visible()
        assert visit.page.evaluate("() => typeof document$ !== 'undefined'")
        assert visit.outside == []
        # Chromium logs the page's own 404 status; nothing else may fail
        assert visit.errors == [f"Failed to load resource: the server responded with a status of 404 (Not Found) @ {missing}"]
