"""Knowledge bases of any size made in memory from the tiny fixture, with dates: for the listing and renderer
tests (tests/test_listings.py, tests/test_render.py), which need more entries than a fixture folder holds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pitfalls.pages.dates import EntryDates
from pitfalls.records.model import KnowledgeBase, Label
from pitfalls.records.validate import load_knowledge_base

TINY = load_knowledge_base(Path(__file__).resolve().parent.parent / "fixtures" / "tiny")
TAGS = tuple(Label(f"tag-{n:02d}", f"标签{n}", f"Tag {n}") for n in range(30))


def scrambled(n: int) -> list[int]:
    """0 … n-1 in an order unrelated to it (7919 is prime, so this is a permutation when n is not a multiple of it)."""
    return sorted(range(n), key=lambda i: (i * 7919) % n)


def knowledge_base(n: int) -> KnowledgeBase:
    """n entries made from the tiny fixture's gpu-oom (ids entry-000 …), all in category training;
    entry i carries tags tag-00 … up to a number that depends on i, so tag counts all differ."""
    template = TINY.record("gpu-oom")
    records = tuple(replace(template, id=f"entry-{i:03d}", related=(), aliases=(),
                            tags=TAGS[:1 + (i * 7) % len(TAGS)]) for i in range(n))
    return KnowledgeBase(records=records, categories=TINY.categories, tags=TAGS, vocabulary=TINY.vocabulary,
                         content_dir=TINY.content_dir)


def dates(base: KnowledgeBase) -> dict[str, EntryDates]:
    """Distinct dates in a scrambled order: added on day p, updated on day u, two unrelated orders."""
    n = len(base.records)
    added, updated = scrambled(n), scrambled(n)[::-1]
    return {r.id: EntryDates(published=f"2025-{1 + added[i] // 28:02d}-{1 + added[i] % 28:02d}T00:00:00Z",
                             updated=f"2026-{1 + updated[i] // 28:02d}-{1 + updated[i] % 28:02d}T00:00:00Z")
            for i, r in enumerate(base.records)}
