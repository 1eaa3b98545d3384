"""BM25F scores of the index (pitfalls/pages/search_scoring.py), on entries counted by hand: idf by the number of
entries a term is in, saturation k1 = 1.2, the long fields normalised by the entry's length against the average
(b = 0.75), stored × 100 as integers of at least 1, a title term's flags carrying the title length (bits 12 and
20), and a term in more than 400 entries keeping its 400 best. The numbers are docs/SEARCH.md's ("Index"),
written here as numbers; each expected score is worked out in its comment."""

from __future__ import annotations

from array import array
from dataclasses import replace

import pytest

from pitfalls.pages.search_analysis import EntryAnalysis
from pitfalls.pages.search_scoring import length_shares, score_postings


def entry(counts: dict[str, tuple[float, float, int]], long_length: float, title_chars=(0, 0)) -> EntryAnalysis:
    """An entry as analysed: term → (weighted count in the short fields, in the long fields, field bits)."""
    return EntryAnalysis(None, tuple(counts), array("f", (c[0] for c in counts.values())),
                         array("f", (c[1] for c in counts.values())), array("H", (c[2] for c in counts.values())),
                         long_length, title_chars, (), {}, ())


def postings(flat: array) -> list[tuple[int, int, int]]:
    return [tuple(flat[k:k + 3]) for k in range(0, len(flat), 3)]


def test_bm25f_scores_by_rarity_saturation_and_length():
    scores = score_postings([
        entry({"oom": (5, 0, 0b1)}, long_length=10, title_chars=(4, 9)),  # in the title
        entry({"oom": (0, 1, 0b10000), "nccl": (0, 2, 0b10000)}, long_length=30, title_chars=(2, 3)),  # in the steps
        entry({"cuda": (3, 0, 0b100)}, long_length=20),  # in the quick fix
    ]).postings
    # 3 entries, average long length 20. idf = ln(1 + (3 - df + 0.5) / (df + 0.5)): oom (df 2) ln 1.6 = 0.4700,
    # nccl and cuda (df 1) ln(8/3) = 0.9808. Length norm 1 - 0.75 + 0.75 × length / 20: 0.625, 1.375, 1.
    # tf = short + long / norm; score = 100 × idf × tf × 2.2 / (tf + 1.2)
    # entry 0 oom: tf 5 (short fields are not normalised): 100 × 0.4700 × 11 / 6.2 = 83.39
    # entry 1 oom: tf 1 / 1.375 = 0.7273: 39.02; nccl: tf 2 / 1.375 = 1.4545: 118.24
    # entry 2 cuda: tf 3: 100 × 0.9808 × 6.6 / 4.2 = 154.13
    # a title term's flags carry the title length: 4 Chinese characters << 13 | 9 letters << 21
    assert postings(scores["oom"]) == [(0, 83, 0b1 | 4 << 13 | 9 << 21), (1, 39, 0b10000)]
    assert postings(scores["nccl"]) == [(1, 118, 0b10000)]
    assert postings(scores["cuda"]) == [(2, 154, 0b100)]
    assert set(scores) == {"oom", "nccl", "cuda"}


def test_without_long_words_the_length_norm_is_one():
    # a long field of parts only (a Chinese character alone) has a count but no length: norm 1, not a division by 0
    # idf ln(1 + 0.5 / 1.5) = 0.2877; tf 1: 100 × 0.2877 × 2.2 / 2.2 = 28.77
    assert postings(score_postings([entry({"的": (0, 1, 0b10000)}, long_length=0)]).postings["的"]) == [(0, 29, 0b10000)]
    assert score_postings([]) == ({}, {})


def test_a_score_is_at_least_one():
    # in all 100 entries: idf ln(1 + 0.5 / 100.5) = 0.004963; tf 1: 0.50 rounds to 0, stored as 1
    # entry 50 says it 4 times as often: tf 4: 100 × 0.004963 × 8.8 / 5.2 = 0.84, 1 too
    entries = [entry({"the": (4 if n == 50 else 1, 0, 0b10)}, long_length=0) for n in range(100)]
    assert postings(score_postings(entries).postings["the"]) == [(n, 1, 0b10) for n in range(100)]


def test_a_term_in_more_than_400_entries_keeps_its_400_best_in_entry_order():
    # 401 of 1,000 entries have the term once in the steps; entry 0 is the longest (its score is the lowest),
    # entries 1 to 400 are as long as one another: entry 0 goes, the rest stay, in entry order
    entries = [entry({"common": (0, 1, 0b10000)}, long_length=50 if n == 0 else 10)
               for n in range(401)] + [entry({"other": (0, 1, 0b10000)}, long_length=10) for _ in range(599)]
    scores = score_postings(entries)
    kept = postings(scores.postings["common"])
    assert [number for number, _, _ in kept] == list(range(1, 401))
    # idf ln(1 + 599.5 / 401.5) = 0.9146; norm 1 - 0.75 + 0.75 × 10 / 10.16 = 0.9882, tf 1.0119:
    # 100 × 0.9146 × 2.2262 / 2.2119 = 92.05
    assert {score for _, score, _ in kept} == {92}
    # the count the list no longer tells, for the engine; none for a term that is not capped
    assert scores.capped == {"common": 401, "other": 599}
    # 400 entries: all kept
    assert len(postings(score_postings(entries[:400] + entries[401:]).postings["common"])) == 400
    assert "common" not in score_postings(entries[:400] + entries[401:]).capped


def test_among_equal_scores_the_earlier_entries_stay():
    entries = [entry({"common": (0, 1, 0b10000)}, long_length=10) for _ in range(402)]
    entries += [entry({"other": (0, 1, 0b10000)}, long_length=10) for _ in range(600)]
    assert [number for number, _, _ in postings(score_postings(entries).postings["common"])] == list(range(400))


def test_an_entry_whose_counts_do_not_match_its_terms_is_refused():
    # one count and one set of flags per term: an analysis that lost one (a bug, a stale cache under `serve`)
    # fails the build rather than scoring the wrong terms
    broken = replace(entry({"oom": (5, 0, 0b1), "cuda": (3, 0, 0b100)}, long_length=0), flags=array("H", [0b1]))
    with pytest.raises(ValueError, match="zip"):
        score_postings([broken])


def test_each_entrys_length_share_is_its_long_length_over_the_average():
    """What the words rule normalises a body match by (the manifest's `lengths`, × 100): 10, 30 and 20 of an average
    20; a site whose long fields are all empty measures every entry as average."""
    assert length_shares([entry({}, 10), entry({}, 30), entry({}, 20)]) == [0.5, 1.5, 1.0]
    assert length_shares([entry({}, 0), entry({}, 0)]) == [1.0, 1.0]
    assert length_shares([]) == []
