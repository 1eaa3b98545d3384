"""When each entry appeared and last changed, from git history: the same for every build of one
commit, so the feed, entries.json and the "recently updated" listing are reproducible."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..git import git
from ..records.model import KnowledgeBase

EPOCH = "1970-01-01T00:00:00Z"
"""The date of an entry when neither git nor the record has one (content outside a git checkout)."""


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
