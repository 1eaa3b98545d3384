"""The offline bundle: `python -m pitfalls dist` writes one reproducible archive which, unpacked
and served by `python -m http.server`, is the whole site with working search and no outside request."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from conftest import ROOT, commit_date, once_per_session
from helpers.page_load import goto, settle
from outside_requests import offline_page
from pitfalls.commands.dist import TOP_FOLDER, write_archive


def _dist(output: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}  # dated by the commit, as `make dist`
    run = subprocess.run([sys.executable, "-m", "pitfalls", "dist", "--output", str(output)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr


@pytest.fixture(scope="module")
def archive(site) -> Path:
    """The real content packed as `pitfalls dist` packs it: the session's site (built, like dist, dated by the
    last commit) through `write_archive`; test_archive_is_reproducible compares the command's own archive with it."""
    return once_per_session("dist", lambda folder: write_archive(site, folder / "bundle.tar.gz", commit_date())) / "bundle.tar.gz"


@pytest.fixture(scope="module")
def bundle_url(archive, tmp_path_factory):
    """The archive unpacked and served by `python -m http.server` in a child process."""
    unpacked = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=unpacked / TOP_FOLDER, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "python -m http.server did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_archive_is_reproducible(archive, tmp_path):
    """`pitfalls dist` gives the same bytes as another build of the same commit, in another folder."""
    again = tmp_path / "again.tar.gz"
    _dist(again)
    assert again.read_bytes() == archive.read_bytes()


def test_archive_is_one_sorted_folder_without_machine_details(archive):
    with tarfile.open(archive) as tar:
        entries = tar.getmembers()
    names = [entry.name for entry in entries]
    assert names[0] == TOP_FOLDER and all(name.startswith(f"{TOP_FOLDER}/") for name in names[1:])
    assert names == sorted(names, key=lambda name: name.split("/"))
    assert {f"{TOP_FOLDER}/index.html", f"{TOP_FOLDER}/zh/index.html", f"{TOP_FOLDER}/en/index.html"} <= set(names)
    assert len({entry.mtime for entry in entries}) == 1
    assert {(entry.uid, entry.gid, entry.uname, entry.gname) for entry in entries} == {(0, 0, "", "")}


def test_unpacked_bundle_serves_the_site_and_its_search(browser, bundle_url):
    with offline_page(browser, bundle_url) as visit:
        visit.page.goto(bundle_url)
        visit.page.wait_for_url(f"{bundle_url}zh/")  # the root page forwards to the Chinese site
        settle(visit.page)
        titles = visit.search("CUDA")
        assert any("CUDA" in title for title in titles), titles

        goto(visit.page, f"{bundle_url}en/")
        titles = visit.search("CUDA")
        assert any("CUDA" in title for title in titles), titles
        assert visit.outside == []
        assert visit.errors == []
