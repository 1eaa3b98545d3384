"""Shared fixtures: a built site of the real content, a static HTTP server, a headless browser.

Tests are marked by what they need (pyproject.toml declares the markers): `site` when they build a
whole site with MkDocs, `browser` when they drive Chromium. A test that uses a site or browser
fixture is marked here; one that builds a site itself carries the mark. `make test-unit` runs the rest.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from pitfalls.commands.build import build_site

ROOT = Path(__file__).resolve().parent.parent
SITE_FIXTURES = {"site", "site_url", "tiny_site", "one_language_site", "hostile_site", "archive", "large_site",
                 "large_site_url"}
"""Fixtures that build a whole site (in this file and in test modules)."""
FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if SITE_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.site)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def http_server():
    """start(directory) → base URL of a static server for that folder (stopped after the session)."""
    servers = []

    def start(directory: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The real content built into a temporary site/ (both languages)."""
    site_dir = tmp_path_factory.mktemp("built") / "site"
    build_site(site_dir, content=ROOT / "content")
    return site_dir


@pytest.fixture(scope="session")
def site_url(site, http_server) -> str:
    """Base URL of the built real site, served over HTTP."""
    return http_server(site)


LARGE_ENTRIES = 450
"""Generated records of `large_site`: past the home page's FULL_HOME_LIMIT, and enough for each of the four
categories, the largest tags and the "recently updated" listing to need more than one page."""


@pytest.fixture(scope="session")
def large_site(tmp_path_factory) -> tuple[Path, Path]:
    """(content, site) of LARGE_ENTRIES generated records (bench/generate.py), built once per session."""
    from bench.generate import generate

    work = tmp_path_factory.mktemp("large")
    generate(LARGE_ENTRIES, work / "content", seed=3)
    build_site(work / "site", content=work / "content")
    return work / "content", work / "site"


@pytest.fixture(scope="session")
def large_site_url(large_site, http_server) -> str:
    """Base URL of the large generated site, served over HTTP."""
    return http_server(large_site[1])


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright; fails with a hint when chromium is not installed."""
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def build_fixture_site(tmp_path: Path, content: Path) -> Path:
    """Build `content` into tmp_path/site and return that folder."""
    site_dir = tmp_path / "site"
    build_site(site_dir, content=content)
    return site_dir
