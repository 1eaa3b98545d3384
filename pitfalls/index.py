"""Stage 4: the indexes that span records: categories, tags and related entries."""

from __future__ import annotations

from dataclasses import dataclass

from .model import KnowledgeBase, Label, Record


@dataclass(frozen=True)
class Group:
    """A category or tag with the entries filed under it."""

    label: Label
    """The category or tag."""
    records: tuple[Record, ...]
    """Its entries, sorted by id."""


class SiteIndex:
    """Everything collected across all records before any page is rendered."""

    def __init__(self, base: KnowledgeBase):
        self.base = base
        self.categories = tuple(
            Group(c, tuple(r for r in base.records if r.category.key == c.key)) for c in base.categories
        )
        # tags that no entry uses get no page: an empty index page is a dead end
        self.tags = tuple(
            group for group in (Group(t, tuple(r for r in base.records if t in r.tags)) for t in base.tags)
            if group.records
        )
        self._by_id = {r.id: r for r in base.records}

    def related(self, record: Record) -> tuple[Record, ...]:
        """The entries the record names in `related`, in its order."""
        return tuple(self._by_id[i] for i in record.related)
