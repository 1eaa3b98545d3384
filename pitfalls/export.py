"""The machine-readable faces of a language site: `entries.json` (docs/EXPORT.md) and the
Atom feed `feed.xml` of new and updated entries. Both are rendered from data only, and
nothing in them depends on when the build ran, so that two builds of one commit are equal."""

from __future__ import annotations

import os

from .site import DEFAULT_SITE_URL


def site_root() -> str:
    """The public root URL of the site (PITFALLS_SITE_URL, else the default), ending in "/"."""
    root = os.environ.get("PITFALLS_SITE_URL") or DEFAULT_SITE_URL
    return root if root.endswith("/") else root + "/"


def entry_url(root: str, lang: str, record_id: str) -> str:
    """The address of an entry's page in one language."""
    return f"{root}{lang}/{record_id}/"
