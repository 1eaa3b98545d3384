"""Listings without MkDocs: pages of 100 entries, the home page's 100-entry limit, the large home page's
10 recent entries and 20 tags (the numbers README.md states), on knowledge bases made in memory.

The expected entries are never the first by id and never decided by a tie: dates and tag counts are
dealt out in an order unrelated to the ids."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from helpers.bases import TAGS, TINY, dates, knowledge_base
from pitfalls.pages import listings
from pitfalls.pages.listings import SiteIndex, paginate
from pitfalls.pages.render import SiteRenderer
from pitfalls.records.model import KnowledgeBase


@pytest.mark.parametrize("entries, sizes", [(0, [0]), (1, [1]), (100, [100]), (101, [100, 1]), (250, [100, 100, 50])])
def test_a_listing_holds_100_entries_a_page(entries, sizes):
    records = knowledge_base(entries).records
    pages = paginate("categories/training/", records)
    assert [len(page.records) for page in pages] == sizes
    assert [(page.number, page.count) for page in pages] == [(n, len(sizes)) for n in range(1, len(sizes) + 1)]
    assert [r for page in pages for r in page.records] == list(records)  # in the given order, each once


def test_listing_pages_have_stable_addresses():
    pages = paginate("tags/cuda/", knowledge_base(201).records)
    assert [page.url(page.number) for page in pages] == ["tags/cuda/", "tags/cuda/page/2/", "tags/cuda/page/3/"]
    assert [page.src_uri for page in pages] == ["tags/cuda.md", "tags/cuda/page/2.md", "tags/cuda/page/3.md"]
    assert [page.root for page in pages] == ["../../", "../../../../", "../../../../"]
    assert pages[2].url(1) == "tags/cuda/" and pages[0].url(3) == "tags/cuda/page/3/"
    recent = paginate("recent/", knowledge_base(101).records)
    assert [(page.src_uri, page.root) for page in recent] == [("recent.md", "../"), ("recent/page/2.md", "../../../")]


@pytest.mark.parametrize("entries, full", [(1, True), (100, True), (101, False)])
def test_the_home_page_lists_every_entry_up_to_100(entries, full):
    base = knowledge_base(entries)
    assert SiteIndex(base, dates(base)).full_home is full
    home = SiteRenderer(base, "en", dates=dates(base)).home().content
    cards = re.findall(r'class="pf-card__title" href="([a-z0-9-]+)/"', home)
    assert cards == ([r.id for r in base.records] if full else [])
    assert ('<form class="pf-search"' in home) is not full


def test_the_large_home_page_shows_the_10_entries_updated_and_added_last_and_the_20_most_used_tags():
    base = knowledge_base(130)
    entry_dates = dates(base)
    index = SiteIndex(base, entry_dates)
    by_update = sorted(base.records, key=lambda r: entry_dates[r.id].updated, reverse=True)
    by_addition = sorted(base.records, key=lambda r: entry_dates[r.id].published, reverse=True)
    assert index.recently_updated == tuple(by_update[:10])
    assert index.recently_added == tuple(by_addition[:10])
    assert index.recently_updated[0] != base.records[0] and index.recently_added[0] != base.records[0]
    assert index.recently_updated != index.recently_added
    counts = {tag.key: sum(tag in r.tags for r in base.records) for tag in TAGS}
    expected = sorted(counts, key=counts.get, reverse=True)[:20]
    assert len(set(counts.values())) > 20  # no tie decides which tags are shown
    assert [group.label.key for group in index.top_tags] == expected
    assert [len(group.records) for group in index.top_tags] == [counts[key] for key in expected]
    home = SiteRenderer(base, "en", dates=entry_dates).home().content
    assert len(re.findall(r'<a class="pf-tag" href="tags/tag-\d+/">', home)) == 20
    assert len(re.findall(r'<li><time[^>]*>[0-9-]+</time> <a href="entry-\d+/">', home)) == 2 * 10


def test_the_recent_listing_is_every_entry_newest_first_100_a_page():
    base = knowledge_base(150)
    entry_dates = dates(base)
    index = SiteIndex(base, entry_dates)
    newest_first = sorted(base.records, key=lambda r: entry_dates[r.id].updated, reverse=True)
    assert [len(page.records) for page in index.recent] == [100, 50]
    assert [r for page in index.recent for r in page.records] == newest_first
    renderer = SiteRenderer(base, "en", dates=entry_dates)
    first, second = (renderer.recent(page) for page in index.recent)
    assert (first.src_uri, first.title) == ("recent.md", "Recently updated")
    assert (second.src_uri, second.title) == ("recent/page/2.md", "Recently updated · page 2")
    assert re.findall(r'class="pf-card__title" href="\.\./\.\./\.\./([a-z0-9-]+)/"', second.content) == [r.id for r in newest_first[100:]]
    assert "150 entries · page 2 of 2" in second.content
    last = newest_first[-1].id  # the dates shown are the ones given
    assert f'<time class="pf-count" datetime="{entry_dates[last].updated}">{entry_dates[last].updated[:10]}</time>' in second.content


def test_category_and_tag_listings_split_at_100_and_leave_out_unused_tags():
    base = knowledge_base(230)
    index = SiteIndex(base, dates(base))
    training = next(group for group in index.categories if group.label.key == "training")
    assert [len(page.records) for page in training.pages] == [100, 100, 30]
    assert [group.records for group in index.categories if group.label.key != "training"] == [()]
    assert [group.label.key for group in index.tags] == [tag.key for tag in TAGS]  # every tag is used here
    fewer = knowledge_base(3)  # tags tag-00 … tag-14 used, the rest not
    assert [group.label.key for group in SiteIndex(fewer, dates(fewer)).tags] == [tag.key for tag in TAGS[:15]]
    renderer = SiteRenderer(base, "en", dates=dates(base))
    page = renderer.category(training, training.pages[2])
    assert (page.src_uri, page.title) == ("categories/training/page/3.md", "Category: Training · page 3")
    assert len(re.findall(r'class="pf-card__title"', page.content)) == 30
    assert "230 entries · page 3 of 3" in page.content
    tag = next(group for group in index.tags if group.label.key == "tag-00")
    page = renderer.tag(tag, tag.pages[1])
    assert (page.src_uri, page.title) == ("tags/tag-00/page/2.md", "Tag: #Tag 0 · page 2")
    assert len(re.findall(r'class="pf-card__title"', page.content)) == 100


# --- similar entries: the weights, the threshold and the order ---


def similarity_base() -> KnowledgeBase:
    """20 entries: r (tags t0 t1 t2, title alpha); entry-z shares t0, t1 and the common word alpha; entry-a shares t0
    and t1; entry-m shares t0 only; 11 fillers share alpha (13 of 20 entries have it, so it weighs log(20/13) = 0.43)."""
    template = TINY.record("gpu-oom")

    def entry(record_id: str, tags: tuple[int, ...], word: str):
        return replace(template, id=record_id, related=(), aliases=(), tags=tuple(TAGS[t] for t in tags),
                       title=replace(template.title, zh=word, en=word), symptoms=template.symptoms[:1])

    records = [entry("r", (0, 1, 2), "alpha"), entry("entry-z", (0, 1), "alpha"), entry("entry-a", (0, 1), "omega"),
               entry("entry-m", (0,), "kappa")]
    records += [entry(f"filler-{n:02d}", (9,), "alpha") for n in range(11)]
    records += [entry(f"other-{n}", (9,), word) for n, word in enumerate(["sigma", "delta", "theta", "gamma", "zeta"])]
    return KnowledgeBase(records=tuple(sorted(records, key=lambda r: r.id)), categories=TINY.categories, tags=TAGS,
                         vocabulary=TINY.vocabulary, content_dir=TINY.content_dir)


def test_similar_entries_are_ranked_by_score_above_the_threshold():
    base = similarity_base()
    index = SiteIndex(base, dates(base))
    # entry-z: 2·log(20/4) + 2·log(20/3) + log(20/13) = 7.44; entry-a: 7.01, first by id had the scores been rounded;
    # entry-m: 2·log(20/4) = 3.22, under 4; the fillers: 0.43
    assert [r.id for r in index.similar(base.record("r"))] == ["entry-z", "entry-a"]
    assert index.similar(base.record("entry-m")) == ()  # each shares t0 only: 3.22
    assert [r.id for r in index.similar(base.record("entry-a"))] == ["entry-z", "r"]  # the same score: by id


def test_the_features_of_unchanged_entries_are_reused_from_the_previous_index(monkeypatch):
    base = similarity_base()
    previous = SiteIndex(base, dates(base))
    previous.similar(base.record("r"))  # computes every entry's features
    changed = replace(base.record("entry-m"), title=replace(base.record("entry-m").title, en="alpha"))
    edited = replace(base, records=tuple(changed if r.id == "entry-m" else r for r in base.records))
    compared = []
    original = listings.comparable_words
    monkeypatch.setattr(listings, "comparable_words", lambda text, cutter: compared.append(text) or original(text, cutter))
    index = SiteIndex(edited, dates(edited), previous)
    assert [r.id for r in index.similar(edited.record("r"))] == ["entry-z", "entry-a"]
    assert "alpha" in compared and "kappa" in compared and "sigma" not in compared  # only entry-m's texts, in both languages
