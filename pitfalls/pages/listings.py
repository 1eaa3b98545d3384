"""What spans records, collected before any page is rendered: categories, tags, related and similar entries."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from ..records.model import LANGUAGES, KnowledgeBase, Label, Record
from ..text import comparable_words
from .dates import EntryDates, entry_dates

SIMILAR_COUNT = 5
"""How many computed "similar entries" a page shows at most."""
TAG_WEIGHT = 2.0
"""A shared tag counts this many times a shared term: an author chose it."""
CATEGORY_WEIGHT = 0.5
"""A shared category counts half a shared term: it is broad."""
COMMON_FRACTION, COMMON_FLOOR = 0.05, 50
"""Features in more entries than this share (and this floor) do not count towards similarity."""
MIN_SIMILARITY = 4.0
"""Score from which an entry is shown as similar: about two rare shared terms, or one rare shared tag."""
PAGE_SIZE = 100
"""Entries per page of a category, a tag or the "recently updated" listing: 100 cards are about
60 KB of HTML, more than a reader scans before turning to search; the rest follow on page/2/, page/3/…"""
FULL_HOME_LIMIT = 100
"""Up to this many entries the home page lists every entry's card by category (one page of cards, as
above); a larger wiki's home page shows what leads into it instead: categories with counts, recently
added and updated entries, the most used tags and a search box, so its size does not grow with N."""
HOME_RECENT = 10
"""Entries in each of the large home page's "recently added" and "recently updated" lists."""
HOME_TAGS = 20
"""Tags on the large home page: the most used, with counts (all of them are on tags/)."""


@dataclass(frozen=True)
class ListingPage:
    """One page of a listing: a category's or a tag's entries, or every entry by last change."""

    path: str
    """The listing's address in the language site, ending in "/": `categories/training/`, `recent/`.
    Page 1 is there, page n at `path` + `page/n/`: stable, linkable addresses."""
    number: int
    """This page's number, from 1."""
    count: int
    """How many pages the listing has."""
    records: tuple[Record, ...]
    """The entries on this page, at most PAGE_SIZE."""

    def url(self, number: int) -> str:
        """The address of page `number` of this listing, relative to the language root."""
        return self.path if number == 1 else f"{self.path}page/{number}/"

    @property
    def src_uri(self) -> str:
        """The page's source path in the language site: `categories/training.md`, `recent/page/2.md`."""
        return self.url(self.number).rstrip("/") + ".md"

    @property
    def root(self) -> str:
        """The relative path from this page to the language root."""
        return "../" * self.url(self.number).count("/")


def paginate(path: str, records: tuple[Record, ...]) -> tuple[ListingPage, ...]:
    """The pages of a listing at `path`: PAGE_SIZE entries each, in the given order; one page when empty."""
    count = max(1, math.ceil(len(records) / PAGE_SIZE))
    return tuple(ListingPage(path, n + 1, count, records[n * PAGE_SIZE:(n + 1) * PAGE_SIZE]) for n in range(count))


@dataclass(frozen=True)
class Group:
    """A category or tag with the entries filed under it."""

    label: Label
    """The category or tag."""
    records: tuple[Record, ...]
    """Its entries, sorted by id."""
    path: str
    """Its listing's address in the language site: `categories/<key>/` or `tags/<key>/`."""

    @property
    def pages(self) -> tuple[ListingPage, ...]:
        """Its listing, page by page."""
        return paginate(self.path, self.records)


class SiteIndex:
    """Everything collected across all records before any page is rendered."""

    def __init__(self, base: KnowledgeBase, dates: dict[str, EntryDates] | None = None, previous: SiteIndex | None = None):
        """`dates`: entry_dates(base), read from git when not given. `previous`: the index of an earlier
        version of the same content with the same vocabulary (`serve`), whose terms of unchanged records are reused."""
        self.base = base
        self._previous = previous
        self._similar: dict[str, tuple[Record, ...]] = {}
        self.dates = entry_dates(base) if dates is None else dates
        self.categories = tuple(
            Group(c, tuple(r for r in base.records if r.category.key == c.key), f"categories/{c.key}/")
            for c in base.categories
        )
        # tags that no entry uses get no page: an empty index page is a dead end
        self.tags = tuple(
            group for group in (Group(t, tuple(r for r in base.records if t in r.tags), f"tags/{t.key}/") for t in base.tags)
            if group.records
        )
        self.recent = paginate("recent/", tuple(sorted(base.records, key=lambda r: (self.dates[r.id].updated, r.id), reverse=True)))
        """Every entry, most recently changed first, page by page."""
        self.full_home = len(base.records) <= FULL_HOME_LIMIT
        """Whether the home page lists every entry (else it summarizes: FULL_HOME_LIMIT)."""
        self._by_id = {r.id: r for r in base.records}

    @property
    def recently_updated(self) -> tuple[Record, ...]:
        """The HOME_RECENT entries changed last."""
        return self.recent[0].records[:HOME_RECENT]

    @property
    def recently_added(self) -> tuple[Record, ...]:
        """The HOME_RECENT entries added last."""
        newest = sorted(self.base.records, key=lambda r: (self.dates[r.id].published, r.id), reverse=True)
        return tuple(newest[:HOME_RECENT])

    @property
    def top_tags(self) -> tuple[Group, ...]:
        """The HOME_TAGS tags with the most entries, most first."""
        return tuple(sorted(self.tags, key=lambda g: (-len(g.records), g.label.key))[:HOME_TAGS])

    def related(self, record: Record) -> tuple[Record, ...]:
        """The entries the record names in `related`, in its order."""
        return tuple(self._by_id[i] for i in record.related)

    def linking(self, record: Record) -> tuple[Record, ...]:
        """The entries that name the record in `related`, in the records' order, less those it names itself: a general
        entry lists the specific cases that point to it."""
        return tuple(r for r in self.base.linked_from.get(record.id, ()) if r.id not in record.related)

    def similar(self, record: Record) -> tuple[Record, ...]:
        """Up to SIMILAR_COUNT other entries with the most in common (`_rank_similar`), computed once per record."""
        if record.id not in self._similar:
            self._similar[record.id] = self._rank_similar(record)
        return self._similar[record.id]

    def _rank_similar(self, record: Record) -> tuple[Record, ...]:
        """Up to SIMILAR_COUNT other entries with the most in common, best first, leaving out the hand-picked ones (named
        by the record or naming it).

        What counts: shared tags, category and terms (words of the titles and symptoms in both
        languages, cut by the content's segmenter as `pitfalls similar` compares them), each weighted by how rare
        it is (idf: log(N / entries that have it)), so a tag every entry has weighs nothing.
        Ties go by id: the same content always gives the same list."""
        # summed over the entries that share each feature, not by comparing every pair of entries;
        # in sorted order, so the float sums do not depend on the hash seed
        totals: dict[str, float] = {}
        for feature in sorted(self._features[record.id] & self._postings.keys()):
            weight = self._weights[feature]
            for other_id in self._postings[feature]:
                totals[other_id] = totals.get(other_id, 0.0) + weight
        linked = {record.id, *record.related, *(r.id for r in self.base.linked_from.get(record.id, ()))}
        scores = sorted((-round(score, 9), other_id) for other_id, score in totals.items()
                        if score >= MIN_SIMILARITY and other_id not in linked)
        return tuple(self._by_id[i] for _, i in scores[:SIMILAR_COUNT])

    @cached_property
    def _postings(self) -> dict[tuple[str, str], list[str]]:
        """Feature → ids of the entries that have it, for the features rare enough to tell entries apart.

        A feature in more than max(COMMON_FLOOR, COMMON_FRACTION × N) entries is left out, as search
        engines drop words found in most documents: it says little about two entries, and summing it
        over every entry that has it makes the work grow with N² (23 s a language at 5,000 entries)."""
        postings: dict[tuple[str, str], list[str]] = {}
        for record_id, features in self._features.items():
            for feature in features:
                postings.setdefault(feature, []).append(record_id)
        limit = max(COMMON_FLOOR, COMMON_FRACTION * len(self.base.records))
        return {feature: ids for feature, ids in postings.items() if len(ids) <= limit}

    @cached_property
    def _features(self) -> dict[str, frozenset[tuple[str, str]]]:
        """Record id → its tags, category and terms."""
        cutter = self.base.segmenter()
        features = {}
        earlier = self._previous._by_id if self._previous else {}
        for record in self.base.records:
            if earlier.get(record.id) == record:
                features[record.id] = self._previous._features[record.id]
                continue
            texts = [record.title, *(s.text for s in record.symptoms)]
            terms = {("term", t) for text in texts for lang in LANGUAGES if text.has(lang) for t in comparable_words(getattr(text, lang), cutter)}
            features[record.id] = frozenset(terms | {("tag", t.key) for t in record.tags} | {("category", record.category.key)})
        return features

    @cached_property
    def _weights(self) -> dict[tuple[str, str], float]:
        """Feature → its weight: idf times the weight of its kind."""
        counts: dict[tuple[str, str], int] = {}
        for features in self._features.values():
            for feature in features:
                counts[feature] = counts.get(feature, 0) + 1
        kind_weight = {"tag": TAG_WEIGHT, "category": CATEGORY_WEIGHT, "term": 1.0}
        total = len(self.base.records)
        return {f: kind_weight[f[0]] * math.log(total / n) for f, n in counts.items()}
