"""Two builds of the same content are byte-identical, whatever the hash seed, the folders and the
order in which the files were written (docs/CONTENT.md, "Reproducible builds")."""

from __future__ import annotations

import gzip
import hashlib
import shutil
import time
from pathlib import Path

import pytest

from pitfalls.commands.build import build_site

pytestmark = pytest.mark.site

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
BUILD_DATE = 1_700_000_000
DATED = {"zh/sitemap-pages.xml", "zh/sitemap.xml.gz", "en/sitemap-pages.xml", "en/sitemap.xml.gz"}
"""The only files that carry the build date (`pitfalls build` dates them by the last commit): the pages' sitemap,
its lastmod, and the gzip header of the index's .gz."""


def digests(site_dir: Path) -> dict[str, str]:
    return {p.relative_to(site_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site_dir.rglob("*")) if p.is_file()}


def build(tmp_path: Path, name: str, hash_seed: str, reverse: bool, build_date: int, monkeypatch) -> dict[str, str]:
    """Copy the content (files written in the given order) and build it with the given hash seed."""
    content = tmp_path / name / "content"
    (content / "entries").mkdir(parents=True)
    for path in sorted(HOSTILE.rglob("*.yml"), reverse=reverse):
        shutil.copyfile(path, content / path.relative_to(HOSTILE))
    monkeypatch.setenv("PYTHONHASHSEED", hash_seed)  # the MkDocs subprocesses inherit it
    build_site(tmp_path / name / "site", content=content, build_date=build_date)
    return digests(tmp_path / name / "site")


def undated(path: Path, build_date: int) -> bytes:
    """A dated file's content with its date taken out: a sitemap's build date (YYYY-MM-DD) replaced, a .gz
    uncompressed (its header holds the date)."""
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes())
    return path.read_bytes().replace(time.strftime("%Y-%m-%d", time.gmtime(build_date)).encode(), b"BUILD-DATE")


def test_two_builds_are_byte_identical_apart_from_the_dated_sitemaps(tmp_path, monkeypatch):
    first = build(tmp_path, "one", "1", False, BUILD_DATE, monkeypatch)
    later = BUILD_DATE + 86400 * 3
    # another hash seed, the files written in the other order and three days later: one build for the three
    second = build(tmp_path, "two", "2", True, later, monkeypatch)
    assert len(first) > 20
    assert {path for path in first.keys() | second.keys() if first.get(path) != second.get(path)} == DATED
    for path in DATED:  # which differ by the date alone
        assert undated(tmp_path / "one" / "site" / path, BUILD_DATE) == undated(tmp_path / "two" / "site" / path, later), path
