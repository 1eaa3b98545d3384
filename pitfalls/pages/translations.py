"""Translation status: which records are fully written in each site language.

A record may be zh-only or en-only for a while: its page in the other language shows the
written text under a "not yet translated" notice (templates/entry.html.j2). This module counts
them, for the coverage page (/zh/translations/, /en/translations/) and `check --translations`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..records.model import LANGUAGES, Record


@dataclass(frozen=True)
class Coverage:
    """How far the records are written in one language."""

    lang: str
    """The language counted."""
    total: int
    """Number of records."""
    missing: tuple[Record, ...]
    """Records with at least one text not written in `lang`, sorted by id."""

    @property
    def translated(self) -> int:
        """Number of records fully written in `lang`."""
        return self.total - len(self.missing)

    @property
    def percent(self) -> int:
        """Share of fully written records, rounded down (100 only when none is missing)."""
        return 100 * self.translated // self.total if self.total else 100


def coverage(records: list[Record] | tuple[Record, ...]) -> list[Coverage]:
    """Coverage in every site language, in LANGUAGES order."""
    ordered = sorted(records, key=lambda r: r.id)
    return [Coverage(lang, len(ordered), tuple(r for r in ordered if not r.translated(lang))) for lang in LANGUAGES]


def coverage_report(records: list[Record] | tuple[Record, ...]) -> str:
    """Coverage as text for the terminal: one line per language, then the records still missing it."""
    lines = ["翻译覆盖率 / translation coverage:"]
    for item in coverage(records):
        lines.append(f"  {item.lang}: {item.translated}/{item.total} records complete ({item.percent}%)")
        lines += [f"    missing {item.lang}: {record.source}" for record in item.missing]
    return "\n".join(lines)
