"""The machine-readable faces of a language site: `entries.json` (docs/EXPORT.md, schema
pitfalls/export.schema.json) and the Atom feed `feed.xml` of new and updated entries.

Both are rendered from data, and nothing in them depends on when or where the build ran:
dates come from git history (the commit that last changed a record file), which is the
same for every build of one commit, so two builds of one commit give equal files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..git import git
from ..records.model import KnowledgeBase, Record
from .render import environment, plain_text, ui_strings

FORMAT = "pitfalls-entries"
"""The `format` of entries.json."""
FORMAT_VERSION = 1
"""Bumped on any change that could break a reader of entries.json (docs/EXPORT.md)."""
EPOCH = "1970-01-01T00:00:00Z"
"""The date of an entry when neither git nor the record has one (content outside a git checkout)."""


def entry_url(root: str, lang: str, record_id: str) -> str:
    """The address of an entry's page in one language."""
    return f"{root}{lang}/{record_id}/"


@dataclass(frozen=True)
class EntryDates:
    """When an entry appeared and last changed, as RFC 3339 UTC timestamps."""

    published: str
    """The commit that added the record file; else `updated`."""
    updated: str
    """The later of the last commit that changed the record file and its `last_verified` day."""


def entry_dates(base: KnowledgeBase) -> dict[str, EntryDates]:
    """Dates of every record, from one `git log` over the entries folder.

    A file git does not know (not committed yet, or no git checkout) takes the date of the
    checked-out commit, else EPOCH: a fallback that is the same for every build of one commit."""
    entries = (base.content_dir / "entries").resolve()
    history: dict[Path, list[str]] = {}  # file → commit dates, newest first
    top = git(entries, "rev-parse", "--show-toplevel") or ""
    log = git(entries, "log", "--format=@%cI", "--name-only", "--no-renames", "--", ".") or ""
    head = git(entries, "log", "-1", "--format=%cI") or ""
    date = None
    for line in log.splitlines() if top else ():
        if line.startswith("@"):
            date = _utc(line[1:])
        elif line:
            history.setdefault((Path(top.strip()) / line).resolve(), []).append(date)
    fallback = _utc(head.strip()) if head.strip() else EPOCH
    dates = {}
    for record in base.records:
        commits = history.get(entries / f"{record.id}.yml", [])
        updated = commits[0] if commits else fallback
        if record.last_verified:
            updated = max(updated, f"{record.last_verified}T00:00:00Z")
        dates[record.id] = EntryDates(published=commits[-1] if commits else updated, updated=updated)
    return dates


def _utc(stamp: str) -> str:
    return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


def site_files(base: KnowledgeBase, lang: str, lang_url: str) -> dict[str, str]:
    """The machine-readable files of one language site: path in the site → text."""
    dates = entry_dates(base)
    document = entries_document(base, lang, lang_url, dates)
    return {
        "entries.json": json.dumps(document, ensure_ascii=False, indent=1) + "\n",
        "feed.xml": atom_feed(base, lang, lang_url, dates),
    }
