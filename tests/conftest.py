"""Shared fixtures: a built site of the real content, a static HTTP server, a headless browser.

Tests are marked by what they need (pyproject.toml declares the markers): `site` when they build a
whole site with MkDocs, `browser` when they drive Chromium. A test that uses a site or browser
fixture is marked here; one that builds a site itself carries the mark. `make test-unit` runs the rest.

Tests run in parallel (pytest-xdist, `-n auto --dist loadgroup` in pyproject.toml; docs/TESTING.md). A
site that several tests read is built once per session, whichever worker asks first (`once_per_session`,
`shared_site`); modules whose module-scoped fixtures cannot be shared that way run on one worker each
(ONE_WORKER_MODULES).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import http.server
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.chromium import LAUNCH_ARGS
from pitfalls.commands.build import build_date, build_site

ROOT = Path(__file__).resolve().parent.parent
SITE_FIXTURES = {"site", "site_url", "tiny_site", "tiny_content", "hostile_site", "archive", "large_site",
                 "large_site_url"}
"""Fixtures that build a whole site (in this file and in test modules)."""
FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
"""Debian's Chromium builds, in the order the browser tests take them: the old headless shell, which Playwright
itself runs headless tests with (a page opened costs it about 0.33 s of CPU against 0.94 s for the full browser,
and the suite takes two thirds of the time: docs/TESTING.md, "Which Chromium"), else the full browser (the same
Blink and V8), e.g. where a distribution packages no headless shell. `make test` installs both; the benchmarks
time the full browser."""


ONE_WORKER_MODULES = ("test_search.py", "test_search_stages.py", "test_serve.py")
"""Modules whose module-scoped fixtures are expensive and live in memory or in a process (the query set run in a
browser, the engine's index under node, a `pitfalls serve`): each runs whole on one xdist worker, so the fixture is
made once."""


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if SITE_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.site)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # the tests that take seconds are handed out first and the quick ones last, so that the workers run out of
        # work at about the same time (each worker collects the same order: the scheduler requires it)
        items.sort(key=lambda item: not _slow(item))


def _slow(item) -> bool:
    """Takes seconds: builds a site, drives the browser, or is a property test (hypothesis) over many examples."""
    return (item.get_closest_marker("site") is not None or item.get_closest_marker("browser") is not None
            or getattr(getattr(item, "obj", None), "is_hypothesis_test", False))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` with each module of ONE_WORKER_MODULES as one group, given to one worker whole.

    Not through `xdist_group` marks: pytest-xdist 3.8 groups by appending the group to the test's node id,
    which pytest 9.2 no longer lets it change (pytest-xdist issue 1386), so the marks were silently ignored and
    both workers set up the same module fixtures. The scheduler sees node ids only, hence the module's file name."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ModuleGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.rsplit("/", 1)[-1] in ONE_WORKER_MODULES else super()._split_scope(nodeid)

    return ModuleGroups(config, log)


_session_folder: Path | None = None


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory):
    """The folder every xdist worker of this session sees (the parent of the workers' own), for `once_per_session`."""
    global _session_folder
    base = tmp_path_factory.getbasetemp()
    _session_folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    _session_folder.mkdir(exist_ok=True)
    yield


def once_per_session(key: str, make: Callable[[Path], None]) -> Path:
    """A folder that `make(folder)` fills once per test session, however many xdist workers ask for `key`:
    the first makes it under a file lock, the others wait for it and reuse it. Tests only read it."""
    folder = _session_folder / key
    with open(_session_folder / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when `make` fails
        if not (folder / ".done").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            folder.mkdir()
            make(folder)
            (folder / ".done").touch()
    return folder


def shared_site(content: Path, **options) -> Path:
    """`content` built with `build_site(**options)` once per session (see once_per_session), keyed by its
    inputs: the content's files and bytes, where it lies (entry dates come from its git history) and the options."""
    digest = hashlib.sha256(repr((str(content.resolve()), sorted(options.items()))).encode())
    for path in sorted(content.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(content).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return once_per_session(f"site-{digest.hexdigest()[:16]}", lambda folder: build_site(folder / "site", content=content, **options)) / "site"


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
def site() -> Path:
    """The real content built into a temporary site/ (both languages), once per session; dated by the
    last commit as `pitfalls build` and `dist` date it (tests/test_dist.py packs it)."""
    return shared_site(ROOT / "content", build_date=commit_date())


def commit_date() -> int:
    """What `pitfalls build` and `dist` date a site by when SOURCE_DATE_EPOCH is not set: the last commit's time."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("SOURCE_DATE_EPOCH", raising=False)
        date, from_commit = build_date()
    assert from_commit, "the tests run in a git checkout"
    return date


@pytest.fixture(scope="session")
def site_url(site, http_server) -> str:
    """Base URL of the built real site, served over HTTP."""
    return http_server(site)


LONGEST_ALIAS = "-".join(["abcdefghi"] * 8)
"""An alias of 80 characters, the schema's longest id: nginx's map must hold it (tests/test_nginx.py)."""

EN_ONLY = """\
id: en-only
category: training
title:
  en: Written in English only
quick_fix:
  en: Do the **English** thing
symptoms:
  - en: The English symptom
steps:
  - en: The English step
tags: [cuda]
"""
"""A record written in English only (tests/test_translations.py; the tiny fixture's docker-no-gpu is Chinese only)."""


@pytest.fixture(scope="session")
def tiny_content() -> Path:
    """The tiny fixture plus EN_ONLY, and LONGEST_ALIAS beside gpu-oom's old alias; built into `tiny_site`."""
    return _tiny() / "content"


@pytest.fixture(scope="session")
def tiny_site() -> Path:
    """`tiny_content` built (both languages), once per session: the site the site, nginx and translation tests read."""
    return _tiny() / "site"


def _tiny() -> Path:
    def make(work: Path) -> None:
        content = work / "content"
        shutil.copytree(FIXTURES / "tiny", content)
        (content / "entries" / "en-only.yml").write_text(EN_ONLY, encoding="utf-8")
        record = content / "entries" / "gpu-oom.yml"
        record.write_text(record.read_text(encoding="utf-8").replace(
            "aliases: [cuda-oom-old]", f"aliases: [cuda-oom-old, {LONGEST_ALIAS}]"), encoding="utf-8")
        build_site(work / "site", content=content)

    return once_per_session("tiny", make)


LARGE_ENTRIES = 450
"""Generated records of `large_site`: past the home page's FULL_HOME_LIMIT, and enough for each of the four
categories, the largest tags and the "recently updated" listing to need more than one page."""


@pytest.fixture(scope="session")
def large_site() -> tuple[Path, Path]:
    """(content, site) of LARGE_ENTRIES generated records (bench/generate.py), built once per session
    (once_per_session: whichever xdist worker asks first)."""
    from bench.generate import generate

    def make(work: Path) -> None:
        generate(LARGE_ENTRIES, work / "content", seed=3)
        build_site(work / "site", content=work / "content")

    work = once_per_session(f"large-{LARGE_ENTRIES}", make)
    return work / "content", work / "site"


@pytest.fixture(scope="session")
def large_site_url(large_site, http_server) -> str:
    """Base URL of the large generated site, served over HTTP."""
    return http_server(large_site[1])


def chromium() -> str | None:
    """The first of CHROMIUMS that is installed."""
    return next((path for path in CHROMIUMS if shutil.which(path)), None)


def pytest_report_header() -> str:
    return f"browser tests: {chromium() or 'no Chromium: ' + ' or '.join(CHROMIUMS) + ' is missing'}"


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium (`chromium()`) driven by Playwright; fails with a hint when none is installed."""
    executable = chromium()
    if executable is None:
        pytest.fail(f"{' and '.join(CHROMIUMS)} are missing: run `make test`, which installs Debian's chromium-headless-shell")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        yield browser
        browser.close()

