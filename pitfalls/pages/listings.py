"""What spans records, collected before any page is rendered: categories, tags, related and similar entries."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from ..records.model import LANGUAGES, KnowledgeBase, Label, Record
from ..text import comparable_words

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

    def similar(self, record: Record, count: int = SIMILAR_COUNT) -> tuple[Record, ...]:
        """Up to `count` other entries with the most in common, best first, leaving out the hand-picked ones.

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
        scores = sorted((-round(score, 9), other_id) for other_id, score in totals.items()
                        if score >= MIN_SIMILARITY and other_id != record.id and other_id not in record.related)
        return tuple(self._by_id[i] for _, i in scores[:count])

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
        for record in self.base.records:
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
