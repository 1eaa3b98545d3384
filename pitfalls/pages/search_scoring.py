"""BM25F scores of every (term, entry) pair, computed once at build time (docs/SEARCH.md, "Ranking").

The score is the engine's last ranking rule: it orders entries that the rules before it (words, typo,
attribute, title) leave equal. Each field has a weight (search_analysis.FIELDS); the long fields (symptoms
and body) are normalised by the entry's length, so a long entry that repeats a word does not outscore a
short one that says it once, and the count saturates (K1): the tenth mention adds little.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from typing import NamedTuple

from .search_analysis import BIT, TITLE_CHARS_SHIFT, EntryAnalysis

K1 = 1.2
"""BM25 saturation: how fast repeated mentions stop adding."""
B = 0.75
"""BM25 length normalisation of the long fields."""
SCORE_SCALE = 100
"""Scores are stored as integers: score × SCORE_SCALE, rounded (at least 1)."""
_TITLE = 1 << BIT["title"]
MAX_POSTINGS = 400
"""A term found in more entries keeps only its best-scoring ones: such a common word ranks little
on its own, and uncapped it would make its shard (and the download before a result) large."""


def length_shares(entries: list[EntryAnalysis]) -> list[float]:
    """Each entry's length in the long fields (weighed as BM25F weighs them) over the average entry's: 1 for an
    entry of average length, and for every entry of a site whose long fields are all empty."""
    average = sum(entry.long_length for entry in entries) / len(entries) if entries else 0.0
    return [entry.long_length / average if average else 1.0 for entry in entries]


class Scored(NamedTuple):
    """Every term's postings, scored, and the counts the capped ones no longer tell."""

    postings: dict[str, array]
    """term → flat postings [entry number, score, flags, …] in entry order, capped at MAX_POSTINGS.
    Flat 32-bit arrays: a tuple or a Python int per value took half a build's peak memory at 5,000 entries."""
    capped: dict[str, int]
    """term → how many entries have it, for the terms whose postings are capped: the engine's "in more than a quarter
    of the entries" and a word's rarity need the count, which the capped list no longer tells."""


def score_postings(entries: list[EntryAnalysis]) -> Scored:
    """Score every (term, entry) pair with BM25F and cap each term's postings."""
    n = len(entries)
    df = Counter(term for entry in entries for term in entry.terms)
    idf = {term: math.log(1 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    capped = {term: count for term, count in df.items() if count > MAX_POSTINGS}
    del df
    postings: dict[str, array] = defaultdict(lambda: array("i"))
    shares = length_shares(entries)
    for number, entry in enumerate(entries):
        norm = 1 - B + B * shares[number]
        han, latin = entry.title_chars
        title_chars = han << TITLE_CHARS_SHIFT[0] | latin << TITLE_CHARS_SHIFT[1]
        for term, short, long, flags in zip(entry.terms, entry.short_tf, entry.long_tf, entry.flags, strict=True):
            tf = short + long / norm
            score = SCORE_SCALE * idf[term] * tf * (K1 + 1) / (tf + K1)
            postings[term].extend((number, max(round(score), 1), flags | (title_chars if flags & _TITLE else 0)))
    for term, flat in postings.items():
        if len(flat) > 3 * MAX_POSTINGS:
            hits = sorted(zip(flat[::3], flat[1::3], flat[2::3], strict=True), key=lambda hit: (-hit[1], hit[0]))
            postings[term] = array("i", [value for hit in sorted(hits[:MAX_POSTINGS]) for value in hit])
    return Scored(postings, capped)
