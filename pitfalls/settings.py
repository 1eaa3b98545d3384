"""Where the project's files are, and the settings a build reads: a leaf every layer may import.

The site URL has one source: the `--site-url` option of `pitfalls build` and `dist` (`serve` serves
at its own address), checked by `site_url_option` (default: PITFALLS_SITE_URL, else DEFAULT_SITE_URL).
The build driver hands it to MkDocs as PITFALLS_SITE_URL, which mkdocs.yml reads into `site_url`;
from there the hook passes `config.site_url` to whatever needs it. Commands that print URLs (`search`,
`match`) take the same option. Nothing else reads the environment for it.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
"""The project: content/, templates/, static/ and mkdocs.yml live here."""
CONTENT_DIR = ROOT / "content"
TEMPLATES_DIR = ROOT / "templates"
MKDOCS_YML = ROOT / "mkdocs.yml"
SEARCH_JS = ROOT / "static" / "assets" / "search"
"""The search engine's modules (engine.js and what it loads) and Material's worker protocol (protocol.js)."""
ENGINE_JS = SEARCH_JS / "engine.js"
"""The search engine the browser runs; `pitfalls search` runs the same file under node."""
SCHEMA_DIR = PACKAGE_DIR
"""The JSON Schemas (record, registry, synonyms, export); content files name them for editors."""
PROPOSAL_FORM = ROOT / ".github" / "ISSUE_TEMPLATE" / "propose-pitfall.yml"
"""The "propose a pitfall" issue form: `from-issue` reads its labels to find the answers in an issue's body."""

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


def site_root(url: str | None = None) -> str:
    """The public root URL: `url`, else PITFALLS_SITE_URL, else DEFAULT_SITE_URL; always ending in "/"."""
    root = url or os.environ.get("PITFALLS_SITE_URL") or DEFAULT_SITE_URL
    return root if root.endswith("/") else root + "/"


def site_url_option(text: str) -> str:
    """The type of every command's --site-url (argparse; it checks the default, PITFALLS_SITE_URL, too): an http or
    https address with a host and no query, as site_root writes it. MkDocs would refuse some others only after the
    content was read, and take the rest (ftp://) into every page's links."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"{text!r} is not the address readers open the site at, such as https://wiki.example.com/ "
                                         "(http or https, a host, no ?query or #fragment; from --site-url, else PITFALLS_SITE_URL)")
    return site_root(text)


@dataclass(frozen=True)
class HookSettings:
    """What the MkDocs hook reads from the environment: every setting it has, documented here.

    The language (PITFALLS_LANG) and the site URL (PITFALLS_SITE_URL) reach the hook through
    mkdocs.yml, as `theme.language` and `site_url`."""

    handover: Path | None
    """PITFALLS_HANDOVER: the knowledge base the build driver validated once for every language
    (a pickle it writes); without it, as under plain `mkdocs build`, the hook reads `content`."""
    content: Path
    """PITFALLS_CONTENT: the content folder to read when nothing is handed over; default content/."""
    stock_search: bool
    """PITFALLS_STOCK_SEARCH=1: Material's own search instead of ours (only bench/bench_search.py
    sets it, to compare the two on the same site)."""
    keep_pages: bool = False
    """PITFALLS_KEEP_PAGES=1: keep every rendered page for the whole build (`serve` sets it: it updates the site
    page by page, comparing each with the page it replaces); else a page's Markdown is released once MkDocs has
    read it."""

    @classmethod
    def from_environment(cls) -> HookSettings:
        handover = os.environ.get("PITFALLS_HANDOVER")
        return cls(handover=Path(handover) if handover else None,
                   content=Path(os.environ.get("PITFALLS_CONTENT") or CONTENT_DIR),
                   stock_search=os.environ.get("PITFALLS_STOCK_SEARCH") == "1",
                   keep_pages=os.environ.get("PITFALLS_KEEP_PAGES") == "1")
