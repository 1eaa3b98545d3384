"""The machine-readable export of the built site: entries.json against its schema, feed.xml as Atom."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

import jsonschema
import pytest

from helpers.page_load import goto
from pitfalls.pages.export import site_files
from pitfalls.records.model import LANGUAGES
from pitfalls.records.validate import load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")


@pytest.fixture(scope="module")
def base():
    return load_knowledge_base(ROOT / "content")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_entries_json_validates_against_its_schema_and_lists_every_entry(site, base, lang):
    document = json.loads((site / lang / "entries.json").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "pitfalls" / "export.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(document)
    assert document["lang"] == lang and document["site_url"] == f"http://127.0.0.1:8000/{lang}/"
    assert [e["id"] for e in document["entries"]] == [r.id for r in base.records]
    oom = next(e for e in document["entries"] if e["id"] == "cuda-out-of-memory")
    assert oom["url"] == f"http://127.0.0.1:8000/{lang}/cuda-out-of-memory/"
    assert oom["signatures"][0] == {"kind": "exact", "text": "CUDA out of memory. Tried to allocate <size>",
                                    "pattern": base.record("cuda-out-of-memory").signatures[0].pattern}
    assert [t["key"] for t in oom["tags"]] == ["oom", "gpu-memory", "training", "llm"]
    for entry in document["entries"]:  # every URL is a page of the built site
        assert (site / lang / entry["id"] / "index.html").is_file()


def test_entries_json_is_the_same_for_every_build_of_the_same_content(base):
    first = site_files(base, "en", "http://127.0.0.1:8000/en/")
    again = site_files(base, "en", "http://127.0.0.1:8000/en/")
    assert first == again
    assert "generated" not in json.loads(first["entries.json"])["generated_from"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_feed_is_atom_with_the_required_elements(site, base, lang):
    feed = ET.parse(site / lang / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{name}") is not None, name
    self_link = feed.find(f"{ATOM}link[@rel='self']")
    assert self_link.get("href") == f"http://127.0.0.1:8000/{lang}/feed.xml"
    entries = feed.findall(f"{ATOM}entry")
    assert sorted(e.findtext(f"{ATOM}id") for e in entries) == sorted(f"http://127.0.0.1:8000/{lang}/{r.id}/" for r in base.records)
    updated = []
    for entry in entries:
        for name in ("id", "title", "updated", "published", "summary"):
            assert (entry.findtext(f"{ATOM}{name}") or "").strip(), name
        for name in ("updated", "published"):
            assert RFC3339.match(entry.findtext(f"{ATOM}{name}")), entry.findtext(f"{ATOM}{name}")
        link = entry.find(f"{ATOM}link[@rel='alternate']")
        assert link.get("href") == entry.findtext(f"{ATOM}id")
        updated.append(datetime.fromisoformat(entry.findtext(f"{ATOM}updated").replace("Z", "+00:00")))
    assert updated == sorted(updated, reverse=True)  # newest first
    assert feed.findtext(f"{ATOM}updated") == entries[0].findtext(f"{ATOM}updated")


def test_feed_dates_fall_back_to_last_verified_outside_git(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", content)
    tiny = load_knowledge_base(content)
    feed = ET.fromstring(site_files(tiny, "en", "https://kb.example/en/")["feed.xml"])
    dates = {e.findtext(f"{ATOM}id"): e.findtext(f"{ATOM}updated") for e in feed.findall(f"{ATOM}entry")}
    assert dates == {"https://kb.example/en/gpu-oom/": "2026-11-01T00:00:00Z",  # its last_verified
                     "https://kb.example/en/docker-no-gpu/": "1970-01-01T00:00:00Z"}  # no date anywhere
    document = json.loads(site_files(tiny, "en", "https://kb.example/en/")["entries.json"])
    assert document["generated_from"]["commit"] is None


def test_feed_text_is_escaped(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", content)
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8").replace("en: Out of GPU memory", "en: Out of <GPU> & memory"),
                      encoding="utf-8")
    feed = ET.fromstring(site_files(load_knowledge_base(content), "en", "https://kb.example/en/")["feed.xml"])
    assert "Out of <GPU> & memory" in [e.findtext(f"{ATOM}title") for e in feed.findall(f"{ATOM}entry")]


def test_pages_link_the_feed_and_it_costs_no_failed_request(browser, site_url):
    """Material fetches sitemap.xml next to every <link rel=alternate>, and parses it on the main thread: for the
    feed that is the site's own, a sitemap index of one line, whose sitemap-pages.xml lists the pages."""
    page = browser.new_page()
    failed, errors, sitemaps = [], [], []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("requestfinished", lambda r: sitemaps.append(r) if "sitemap" in r.url else None)
    goto(page, f"{site_url}en/cuda-out-of-memory/")  # the sitemap's request included
    href = page.eval_on_selector("link[rel=alternate][type='application/atom+xml']", "e => e.href")
    assert href == f"{site_url}en/feed.xml"
    assert page.request.get(href).status == 200
    assert failed == [] and errors == []
    assert [r.url for r in sitemaps] == [f"{site_url}en/sitemap.xml"]
    index = ET.fromstring(sitemaps[0].response().body())
    assert [e.tag for e in index] == [f"{SITEMAP}sitemap"]  # no <url> for Material to read
    assert index.findtext(f"{SITEMAP}sitemap/{SITEMAP}loc") == "http://127.0.0.1:8000/en/sitemap-pages.xml"
    pages = ET.fromstring(page.request.get(f"{site_url}en/sitemap-pages.xml").body())
    locations = [e.findtext(f"{SITEMAP}loc") for e in pages.findall(f"{SITEMAP}url")]
    assert "http://127.0.0.1:8000/en/cuda-out-of-memory/" in locations and len(locations) > 20
    page.close()
