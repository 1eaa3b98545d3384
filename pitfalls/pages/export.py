"""The machine-readable faces of a language site: `entries.json` (docs/EXPORT.md, schema
pitfalls/export.schema.json) and the Atom feed `feed.xml` of new and updated entries.

Both are rendered from data, and nothing in them depends on when or where the build ran:
dates come from git history (the commit that last changed a record file), which is the
same for every build of one commit, so two builds of one commit give equal files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..git import git
from ..records.model import KnowledgeBase, Record
from .dates import EPOCH, EntryDates, entry_dates
from .render import environment, plain_text, ui_strings

FORMAT = "pitfalls-entries"
"""The `format` of entries.json."""
FORMAT_VERSION = 1
"""Bumped on any change that could break a reader of entries.json (docs/EXPORT.md)."""


def entry_url(root: str, lang: str, record_id: str) -> str:
    """The address of an entry's page in one language."""
    return f"{root}{lang}/{record_id}/"


def content_digest(content_dir: Path) -> str:
    """SHA-256 over every content file's path and bytes: equal content, equal digest."""
    digest = hashlib.sha256()
    for path in sorted(p for p in content_dir.rglob("*.yml") if p.is_file()):
        digest.update(path.relative_to(content_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def entries_document(base: KnowledgeBase, lang: str, lang_url: str, dates: dict[str, EntryDates]) -> dict:
    """entries.json of one language site, as plain data (docs/EXPORT.md)."""
    commit = (git(base.content_dir, "rev-parse", "HEAD") or "").strip() or None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "lang": lang,
        "site_url": lang_url,
        "generated_from": {"commit": commit, "content_sha256": content_digest(base.content_dir)},
        "entries": [_entry(record, lang, lang_url, dates[record.id]) for record in base.records],
    }


def _entry(record: Record, lang: str, lang_url: str, dates: EntryDates) -> dict:
    return {
        "id": record.id,
        "url": f"{lang_url}{record.id}/",
        "title": plain_text(record.title.get(lang)),
        "quick_fix": record.quick_fix.get(lang),
        "summary": plain_text(record.quick_fix.get(lang)),
        "symptoms": [{"text": s.text.get(lang), "verbatim": s.verbatim} for s in record.symptoms],
        "steps": [{"text": s.text.get(lang), "code": s.code} for s in record.steps],
        "category": {"key": record.category.key, "label": record.category.get(lang)},
        "tags": [{"key": t.key, "label": t.get(lang)} for t in record.tags],
        "signatures": [{"kind": s.kind, "text": s.text, "pattern": s.pattern} for s in record.signatures],
        "last_verified": record.last_verified,
        "updated": dates.updated,
        "aliases": list(record.aliases),
        "translated": record.translated(lang),
    }


def atom_feed(base: KnowledgeBase, lang: str, lang_url: str, dates: dict[str, EntryDates]) -> str:
    """The Atom feed of one language site: every entry, most recently updated first."""
    records = sorted(base.records, key=lambda r: (dates[r.id].updated, r.id), reverse=True)
    return environment().get_template("feed.xml.j2").render(
        lang=lang, ui=ui_strings()[lang], site_url=lang_url, feed_url=f"{lang_url}feed.xml",
        records=records, dates=dates, updated=max((d.updated for d in dates.values()), default=EPOCH),
    )


def site_files(base: KnowledgeBase, lang: str, lang_url: str, dates: dict[str, EntryDates] | None = None) -> dict[str, str]:
    """The machine-readable files of one language site: path in the site → text (`dates`: entry_dates(base))."""
    dates = entry_dates(base) if dates is None else dates
    document = entries_document(base, lang, lang_url, dates)
    return {
        "entries.json": json.dumps(document, ensure_ascii=False, indent=1) + "\n",
        "feed.xml": atom_feed(base, lang, lang_url, dates),
    }
