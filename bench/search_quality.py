"""Search quality under node, without a site build or a browser: the engine (engine.js) over an index of a
content folder, asked a query set; prints top-1, top-3, MRR and empty answers per kind of query.

    .venv/bin/python -m bench.search_quality [--corpus] [--queries FILE] [--also FILE] [--misses]

Default: content/ (the 12 seed entries) and tests/search_queries.yml. `--corpus`: the realistic corpus
(bench/corpus.py: the seed entries and bench/corpus/entries/) and tests/search_queries_corpus.yml.
`make bench-search` measures the same sets in the browser, beside stock Material search; this is the
quick loop for working on the ranking (`--misses` lists every query whose entry is not first).

`--corpus --queries tests/search_queries.yml --also bench/seed_queries_also_at_corpus.yml`: the 12-entry set
asked again at 172 entries, as a wiki grows, each query right also on the corpus entries judged (blind) an
equally good answer to it.

`--every-set`: the misses of every query set (SETS), one line each, then the readable and the held-out sets' in all, as
docs/SEARCH.md reports a change by: a change is kept when the readable sets' misses go down and the held-out ones' do
not go up (SEARCH.md, "How a change is kept", has the whole rule). With `--misses` it lists the misses of the readable
sets only: the held-out sets' are never printed. With `--entries N [--draws K]` it asks the corpus's sets of smaller
wikis, the seed entries and K random draws of the corpus's, N entries in all: top-1 of each draw. With `--flips` and
`--off` or `--options`, each set is asked as options.js has it and with the change: the misses of each, and how many
queries the change put right and put wrong (an engine change only: the index is the same).

`--against-first`: the readable sets' queries, the right entry against the first where it missed and the second where
it was first, on each factor of the words rule: whether the misses are lost on the words or on the order.

`--every-set --as-typed`: each set's queries that end in a word of letters and digits (4 or more, from a letter) or an
identifier of such words joined by `.`, `_` or `-` (`nvidia-smi`, typed whole), asked at every point of typing it from its
third character on (`cuda out of mem`, `cuda out of memo`, … for `cuda out of memory`; `nvi` … `nvidia-sm`), as
Material searches at every key: how often the right entry is first while the last word is half typed.
Derived from the sets by rule, nothing written for it; with `--off completions`, the engine before it read such a word.
`--every-set --as-composed`: each set's pinyin queries as an input method shows them while it composes each word of
two syllables or more, the syllables apart by apostrophes (`xian'c`, `xian'cu`, `xian'cun` for `xiancun`), asked at
every key from the letter after the first apostrophe. Derived alike.

`--convert full-width|s2t|s2tw|s2twp|s2hk`: the set asked with each query as typed in full-width characters or as
OpenCC writes it in traditional Chinese (s2twp: with Taiwan wording). The same question should find the same entry:
prints the table of the converted queries, and how many of those the conversion changed have another first answer.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench.corpus import CORPUS, INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3, assemble, corpus_ids
from pitfalls.commands.cli import run_command
from pitfalls.commands.search import run_queries
from pitfalls.errors import PitfallsError
from pitfalls.pages.search_index import write_site_index
from pitfalls.records.validate import load_knowledge_base
from pitfalls.text import CHINESE_CONVERSIONS, normalize, pinyin_syllables

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class QuerySet:
    """A query set as `--every-set` asks it."""

    name: str
    queries: str
    """The YAML file, from the project root."""
    at: str
    """The entries it is asked of: "seed" (content/, the 12 seed entries), "corpus" (the realistic corpus, 172
    entries), "independent" (the seed entries and bench/corpus_independent/'s, 90), "independent 150" (and
    bench/corpus_independent_2/'s) or "independent 210" (and bench/corpus_independent_3/'s): NEIGHBOURS."""
    also: str | None = None
    """Judgments adding right answers (`with_judgments`)."""
    held_out: bool = False
    """Written blind and never read: its misses are not printed."""


NEIGHBOURS = {"seed": (), "corpus": (CORPUS,), "independent": (INDEPENDENT,), "independent 150": (INDEPENDENT, INDEPENDENT_2),
              "independent 210": (INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3)}
"""Each `at`'s folders of entries besides the seed's (`corpus.assemble`)."""

SETS = (
    QuerySet("seed", "tests/search_queries.yml", "seed"),
    QuerySet("seed at 172 entries", "tests/search_queries.yml", "corpus", also="bench/seed_queries_also_at_corpus.yml"),
    QuerySet("corpus", "tests/search_queries_corpus.yml", "corpus"),
    QuerySet("dev", "bench/queries_dev.yml", "corpus"),
    QuerySet("dev, at 210", "bench/queries_dev_210.yml", "independent 210"),
    QuerySet("dev 2, at 210", "bench/queries_dev2_210.yml", "independent 210"),
    QuerySet("dev 3", "bench/queries_dev3.yml", "corpus"),
    QuerySet("held-out", "bench/queries_heldout.yml", "corpus", held_out=True),
    QuerySet("held-out 2", "bench/queries_heldout2.yml", "corpus", held_out=True),
    QuerySet("held-out 3", "bench/queries_heldout3.yml", "corpus", held_out=True),
    QuerySet("held-out 4", "bench/queries_heldout4.yml", "corpus", held_out=True),
    QuerySet("held-out 5", "bench/queries_heldout5.yml", "corpus", held_out=True),
    QuerySet("seed held-out", "bench/queries_seed_heldout.yml", "corpus", held_out=True),
    QuerySet("seed held-out at 12 entries", "bench/queries_seed_heldout.yml", "seed", held_out=True),
    # the neighbours no rule was tuned on: what they do to the seed entries' queries is not read, as for a held-out set
    QuerySet("seed, independent 90", "tests/search_queries.yml", "independent", held_out=True),
    QuerySet("seed held-out, independent 90", "bench/queries_seed_heldout.yml", "independent", held_out=True),
    QuerySet("independent, blind", "bench/queries_independent.yml", "independent", held_out=True),
    # the wiki grown to 150 with a second round of independent neighbours
    QuerySet("seed, independent 150", "tests/search_queries.yml", "independent 150", held_out=True),
    QuerySet("seed held-out, independent 150", "bench/queries_seed_heldout.yml", "independent 150", held_out=True),
    QuerySet("independent, blind, at 150", "bench/queries_independent.yml", "independent 150", held_out=True),
    QuerySet("independent 2, blind", "bench/queries_independent_2.yml", "independent 150", held_out=True),
    # and to 210 with a third
    QuerySet("seed, independent 210", "tests/search_queries.yml", "independent 210", held_out=True),
    QuerySet("seed held-out, independent 210", "bench/queries_seed_heldout.yml", "independent 210", held_out=True),
    QuerySet("independent, blind, at 210", "bench/queries_independent.yml", "independent 210", held_out=True),
    QuerySet("independent 2, blind, at 210", "bench/queries_independent_2.yml", "independent 210", held_out=True),
    QuerySet("independent 3, blind", "bench/queries_independent_3.yml", "independent 210", held_out=True),
)


def query_language(query: dict) -> str:
    """The site a query is asked on: its `lang`, else zh, as tests/test_search.py and bench_search.py ask it in the
    browser (two queries of the kind `en` in tests/search_queries.yml have no `lang`: English words on the zh site)."""
    return query.get("lang", "zh")


def expected_ids(query: dict) -> set[str]:
    """The entries that count as the right answer: `id`, plus `also` where another is as good an answer."""
    return {query["id"], *query.get("also", [])}


def with_judgments(queries: list[dict], judgments_file: Path) -> list[dict]:
    """`queries`, each with the `also` of its judgment in `judgments_file` (YAML: `judgments`, a list of
    {q, lang, also, why}) added to its own; a judgment that names no query of the set is an error."""
    judged = {(j["q"], j.get("lang", "zh")): j["also"]
              for j in yaml.safe_load(judgments_file.read_text(encoding="utf-8"))["judgments"]}
    asked = {(q["q"], query_language(q)) for q in queries}
    if unknown := [q for q in judged if q not in asked]:
        raise SystemExit(f"{judgments_file}: {len(unknown)} judgment(s) name no query of the set, the first: {unknown[0]}")
    return [{**q, "also": [*q.get("also", []), *judged.get((q["q"], query_language(q)), [])]} for q in queries]


def evaluate(content: Path, queries: list[dict], off: tuple[str, ...] = (), options: dict | None = None
             ) -> list[tuple[dict, list[str]]]:
    """Each query with the ids it returns, best first."""
    with tempfile.TemporaryDirectory(prefix="pitfalls-quality-") as tmp:
        return ask_indexes(write_indexes(content, queries, Path(tmp)), queries, off, options)


def write_indexes(content: Path, queries: list[dict], where: Path) -> dict[str, Path]:
    """The search index of `content` in each language some of `queries` are asked in, written under `where`: language →
    its `search/` folder."""
    base = load_knowledge_base(content)
    folders = {}
    for lang in sorted({query_language(q) for q in queries}, reverse=True):
        write_site_index(base, lang, where / lang)
        folders[lang] = where / lang / "search"
    return folders


def ask_indexes(folders: dict[str, Path], queries: list[dict], off: tuple[str, ...] = (), options: dict | None = None,
                detail: bool = False) -> list[tuple[dict, list]]:
    """Each query with the ids the index of its language (`write_indexes`) returns, best first; with `detail`, the
    engine's results themselves ({id, title, score, exact, explain})."""
    answers: dict[int, list] = {}
    for lang, search_dir in folders.items():
        asked = [(n, q) for n, q in enumerate(queries) if query_language(q) == lang]
        ranked = run_queries(search_dir, [q["q"] for _, q in asked], off, options)
        for (n, _), results in zip(asked, ranked, strict=True):
            answers[n] = results if detail else [r["id"] for r in results]
    return [(q, answers[n]) for n, q in enumerate(queries)]


def load_queries(path: Path, also: Path | None = None) -> list[dict]:
    """The queries of a query set, with the `also` of the judgments in `also` when given (`with_judgments`)."""
    queries = yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]
    return with_judgments(queries, also) if also else queries


def set_queries(query_set: QuerySet) -> list[dict]:
    """The queries of one of SETS, with its judgments."""
    return load_queries(ROOT / query_set.queries, query_set.also and ROOT / query_set.also)


def grouped_by_kind(results: list[tuple[dict, list[str]]]) -> dict[str, list[tuple[dict, list[str]]]]:
    """Each kind of query (in the order the results first have it) → its queries with the ids returned."""
    kinds: dict[str, list[tuple[dict, list[str]]]] = defaultdict(list)
    for query, ids in results:
        kinds[query["kind"]].append((query, ids))
    return kinds


def describe_miss(query: dict, ids: list[str]) -> str:
    """A missed query, the rank of its entry and the entries that came first, in one line."""
    rank = next((i + 1 for i, id_ in enumerate(ids) if id_ in expected_ids(query)), None)
    return f"[{query['kind']}/{query_language(query)}] {query['q'][:70]!r} → {query['id']} at {rank}; first: {ids[:3]}"


def is_miss(query: dict, ids: list[str]) -> bool:
    """The query's entry (or one as good) is not first."""
    return not ids or ids[0] not in expected_ids(query)


def report(results: list[tuple[dict, list[str]]], misses: bool = False) -> dict[str, float]:
    """Print the table; return top-1 per kind (and 'all')."""
    by_kind = grouped_by_kind(results)
    by_kind["all"] = results
    top1 = {}
    print(f"{'kind':14} {'n':>4} {'top-1':>6} {'top-3':>6} {'MRR':>6} {'empty':>6}")
    for kind, rows in by_kind.items():
        ranks = []
        for query, ids in rows:
            found = [i for i, id_ in enumerate(ids) if id_ in expected_ids(query)]
            ranks.append(found[0] + 1 if found else None)
        n = len(rows)
        top1[kind] = sum(r == 1 for r in ranks) / n
        print(f"{kind:14} {n:>4} {top1[kind]:>6.2f} {sum(r is not None and r <= 3 for r in ranks) / n:>6.2f} "
              f"{sum(1 / r for r in ranks if r) / n:>6.2f} {sum(not ids for _, ids in rows):>6}")
    if misses:
        for query, ids in results:
            if is_miss(query, ids):
                print(f"MISS {describe_miss(query, ids)}")
    return top1


TYPED_WORD = re.compile(r"(?<![a-z0-9._-])[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$")
"""The last word of a query that `as_typed` types key by key: letters and digits from a letter, or an identifier of
such words joined by dots, underscores or hyphens (nvidia-smi, cuda_visible_devices, torch.load), typed whole."""


def as_typed(queries: list[dict]) -> list[dict]:
    """Each query whose last word (TYPED_WORD, after normalising and trailing spaces; 4 characters or more) is typed key
    by key: the query up to each of that word's first 3 … all but one characters, as Material searches at each key."""
    typed = []
    for query in queries:
        text = normalize(query["q"]).rstrip()
        if word := TYPED_WORD.search(text):
            typed += [{**query, "q": text[:word.start() + n]} for n in range(3, len(word.group()))]
    return typed


def syllables_shown(word: str, syllables: frozenset[str]) -> list[str] | None:
    """The syllables of `word` as an input method sets them apart, the longest first where the rest still reads
    (xiancun: xian, cun); None when it does not read wholly as pinyin."""
    longest = max(map(len, syllables))

    def shown(rest: str) -> list[str] | None:
        if not rest:
            return []
        for n in range(min(len(rest), longest), 0, -1):
            if rest[:n] in syllables and (after := shown(rest[n:])) is not None:
                return [rest[:n], *after]
        return None

    return shown(word)


def as_composed(queries: list[dict]) -> list[dict]:
    """Each pinyin query (kind pinyin) as an input method shows it while it composes each of its words of two syllables
    or more, the syllables apart by apostrophes: the query up to each key from the letter after the word's first
    apostrophe to its end, the words before it composed, as Material searches at each key."""
    syllables = frozenset(pinyin_syllables())
    composed = []
    for query in queries:
        if query["kind"] != "pinyin":
            continue
        before = []
        for word in normalize(query["q"]).split():
            parts = syllables_shown(word, syllables) if re.fullmatch("[a-z]+", word) else None
            if parts and len(parts) > 1:
                shown = "'".join(parts)
                composed += [{**query, "q": " ".join([*before, shown[:n]])}
                             for n in range(len(parts[0]) + 2, len(shown) + 1) if shown[n - 1] != "'"]
                word = shown
            before.append(word)
    return composed


TYPINGS = {"typed": as_typed, "composed": as_composed}
"""How a set's queries are asked on the way to being typed whole: `--as-typed`, `--as-composed`."""


def ask_sets(sets: tuple[QuerySet, ...], off: tuple[str, ...] = (), options: dict | None = None,
             keep: frozenset[str] | None = None, keywords: bool = True, typing: str | None = None
             ) -> dict[QuerySet, list[tuple[dict, list[str]]]]:
    """Each query set's queries with the ids they return, the sets of one content folder asked of one index. `keep`:
    the corpus entries of a smaller wiki (`corpus.assemble`); a query about an entry left out is not asked. `typing`:
    the queries on the way to being typed whole (TYPINGS)."""
    with set_asker(sets, keep, keywords, typing) as ask:
        return ask(off, options)


@contextmanager
def set_asker(sets: tuple[QuerySet, ...], keep: frozenset[str] | None = None, keywords: bool = True, typing: str | None = None
              ) -> Iterator[Callable[[tuple[str, ...], dict | None], dict[QuerySet, list[tuple[dict, list[str]]]]]]:
    """`ask_sets` as a function of the engine's stages switched off and options, the indexes written once: what a
    search over the options asks many times (bench/tune_options.py)."""
    loaded = {query_set: set_queries(query_set) for query_set in sets}
    if typing:
        loaded = {query_set: TYPINGS[typing](queries) for query_set, queries in loaded.items()}
    with tempfile.TemporaryDirectory(prefix="pitfalls-corpus-") as tmp:
        indexed = []
        for at in sorted({query_set.at for query_set in sets}):
            content = assemble(Path(tmp) / at, keep if at == "corpus" else None, NEIGHBOURS[at], keywords) \
                if NEIGHBOURS[at] or not keywords else ROOT / "content"
            present = {record.stem for record in (content / "entries").glob("*.yml")}
            asked_here = {query_set: [q for q in loaded[query_set] if q["id"] in present]
                          for query_set in sets if query_set.at == at}
            queries = [q for queries in asked_here.values() for q in queries]
            indexed.append((write_indexes(content, queries, Path(tmp) / f"{at} index"), queries, asked_here))

        def ask(off: tuple[str, ...] = (), options: dict | None = None, detail: bool = False) -> dict[QuerySet, list[tuple[dict, list]]]:
            answers = {}
            for folders, queries, asked_here in indexed:
                asked = ask_indexes(folders, queries, off, options, detail)
                for query_set, its_queries in asked_here.items():
                    answers[query_set], asked = asked[:len(its_queries)], asked[len(its_queries):]
            return answers

        yield ask


def every_set(off: tuple[str, ...], options: dict, misses: bool, keywords: bool = True, typing: str | None = None) -> None:
    """Each of SETS's misses and empty answers; without `keywords`, of the entries as written before they had any;
    with `typing`, of the queries on the way to being typed whole (TYPINGS)."""
    answers = ask_sets(SETS, off, options, keywords=keywords, typing=typing)
    print(f"{'set':32} {'n':>4} {'misses':>6} {'top-1':>6} {'empty':>6}")
    totals = {False: [0, 0], True: [0, 0]}  # held out → [asked, missed]: what a change is judged by (module docstring)
    for query_set in SETS:
        asked = answers[query_set]
        missed = sum(is_miss(query, ids) for query, ids in asked)
        empty = sum(not ids for _, ids in asked)
        print(f"{query_set.name:32} {len(asked):>4} {missed:>6} {1 - missed / len(asked) if asked else 0:>6.2f} {empty:>6}")
        totals[query_set.held_out][0] += len(asked)
        totals[query_set.held_out][1] += missed
    for held_out, name in ((False, "readable sets, in all"), (True, "held-out sets, in all")):
        print(f"{name:32} {totals[held_out][0]:>4} {totals[held_out][1]:>6}")
    if misses:
        for query_set in SETS:
            if not query_set.held_out:
                for query, ids in answers[query_set]:
                    if is_miss(query, ids):
                        print(f"MISS {query_set.name} {describe_miss(query, ids)}")
        print("(the held-out sets' misses are not listed)")


def every_set_flips(off: tuple[str, ...], options: dict) -> None:
    """Each of SETS asked twice of the same indexes, as options.js has it and with `off` and `options`: per set, the
    misses before and after, and how many queries the change put right and put wrong. A change of one miss may be one
    query put right, or four right and three wrong. No query is listed."""
    if not off and not options:
        raise PitfallsError("--flips compares the engine with --off or --options against options.js: give one")
    with set_asker(SETS) as ask:
        before, after = ask(), ask(off, options)
    print(f"{'set':32} {'n':>4} {'before':>6} {'after':>6} {'right':>6} {'wrong':>6}")
    for query_set in SETS:
        was = [is_miss(query, ids) for query, ids in before[query_set]]
        now = [is_miss(query, ids) for query, ids in after[query_set]]
        right = sum(a and not b for a, b in zip(was, now, strict=True))
        wrong = sum(b and not a for a, b in zip(was, now, strict=True))
        print(f"{query_set.name:32} {len(was):>4} {sum(was):>6} {sum(now):>6} {right:>6} {wrong:>6}")


FACTORS = (
    ("share of the query", lambda explain: explain["share"]),
    ("title agreement", lambda explain: explain["title"]),
    ("linked from", lambda explain: explain["linkedFrom"]),
    ("shorter", lambda explain: -explain["length"]),
    ("BM25F score", lambda explain: explain["rules"]["score"]),
)
"""What `--against-first` compares: the words rule's factors (`pitfalls search --explain`) and the last rule's score."""


def against_first() -> None:
    """The readable sets' queries whose entry is in the first ten: on each of FACTORS, how often the entry is above and
    below the one ranked first where it missed, and above and below the second where it was first. Where the misses'
    first entries match more of the query than the right ones, the misses are lost on the words, not on the order."""
    readable = tuple(query_set for query_set in SETS if not query_set.held_out)
    with set_asker(readable) as ask:
        answers = ask(detail=True)
    counts = {name: [0, 0, 0, 0] for name, _ in FACTORS}  # misses: above, below; hits: above, below
    for query_set in readable:
        for query, results in answers[query_set]:
            at = next((n for n, result in enumerate(results) if result["id"] in expected_ids(query)), None)
            if at is None or len(results) < 2:
                continue
            other, column = (results[1], 2) if at == 0 else (results[0], 0)
            for name, value in FACTORS:
                mine, theirs = value(results[at]["explain"]), value(other["explain"])
                if mine != theirs:
                    counts[name][column + (mine < theirs)] += 1
    print(f"{'the right entry against':24} {'first, where it missed':>24} {'second, where it was first':>28}")
    print(f"{'':24} {'above':>12} {'below':>11} {'above':>14} {'below':>13}")
    for name, (miss_above, miss_below, hit_above, hit_below) in counts.items():
        print(f"{name:24} {miss_above:>12} {miss_below:>11} {hit_above:>14} {hit_below:>13}")


def smaller_wiki(entries: int, draw: int) -> frozenset[str]:
    """The corpus entries of a smaller wiki of `entries` entries with the 12 seed entries: random draw `draw` (seeded
    with it), the same draw for every command that asks it."""
    corpus = corpus_ids()
    if not 12 < entries <= 12 + len(corpus):
        raise PitfallsError(f"--entries {entries}: give 13 to {12 + len(corpus)} (the 12 seed entries and some of the corpus's)")
    return frozenset(random.Random(draw).sample(corpus, entries - 12))


def every_set_smaller(off: tuple[str, ...], options: dict, entries: int, draws: int) -> None:
    """The corpus sets asked of smaller wikis: the seed entries and a random draw of the corpus's, `entries` in all,
    `draws` times (draw k seeded with k). Per set, the queries asked a draw (those about an entry drawn) and the top-1
    of each draw; no misses are listed."""
    if draws < 1:
        raise PitfallsError(f"--draws {draws}: give 1 or more")
    sets = tuple(query_set for query_set in SETS if query_set.at == "corpus")
    top1: dict[QuerySet, list[str]] = defaultdict(list)
    asked: dict[QuerySet, list[int]] = defaultdict(list)
    for draw in range(draws):
        keep = smaller_wiki(entries, draw)
        for query_set, answers in ask_sets(sets, off, options, keep).items():
            asked[query_set].append(len(answers))
            top1[query_set].append(f"{1 - sum(is_miss(q, ids) for q, ids in answers) / len(answers):.2f}" if answers else "-")
    print(f"{'set':28} {'asked':>9} top-1 of each draw ({entries} entries)")
    for query_set in sets:
        name = query_set.name.replace("at 172 entries", f"at {entries}")
        print(f"{name:28} {min(asked[query_set]):>4}–{max(asked[query_set]):<4} {' '.join(top1[query_set])}")


def main() -> int:
    parser = _parser()
    return run_command("search_quality", parser, parser.parse_args(), run)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="store_true", help="the realistic corpus and its query set")
    parser.add_argument("--queries", type=Path, help="another query set (YAML with a `queries` list)")
    parser.add_argument("--also", type=Path, help="judgments adding right answers to the set's queries (YAML "
                        "`judgments`: q, lang, also), e.g. bench/seed_queries_also_at_corpus.yml with --corpus")
    parser.add_argument("--off", default="", help="engine stages to switch off, comma-separated")
    parser.add_argument("--options", type=json.loads, default={},
                        help='JSON overriding options of static/assets/search/options.js, e.g. \'{"characterWeight": 0.25}\'')
    parser.add_argument("--misses", action="store_true", help="list the queries whose entry is not first")
    parser.add_argument("--half", choices=("even", "odd"),
                        help="only the queries at even (0, 2, …) or odd positions of the set: tune the ranking on one "
                             "half and measure it on the other, which it was not tuned on")
    parser.add_argument("--every-set", action="store_true",
                        help="the misses of every query set, readable and held out (the misses of the held-out sets are never listed)")
    parser.add_argument("--entries", type=int,
                        help="with --every-set: ask the corpus sets of a smaller wiki, the seed entries and a random draw of the "
                             "corpus's, this many entries in all (the issue's held-out sets were asked at 92); top-1 only")
    parser.add_argument("--without-keywords", action="store_true",
                        help="with --every-set: the entries without their keywords, as written before they had any "
                             "(what the ranking does alone)")
    parser.add_argument("--draws", type=int, default=5, help="with --entries: how many random draws (default 5)")
    parser.add_argument("--flips", action="store_true",
                        help="with --every-set and --off or --options: each set asked as options.js has it and with the "
                             "change, the misses of each and how many queries the change put right and put wrong")
    parser.add_argument("--against-first", action="store_true",
                        help="the readable sets: on each factor of the words rule, how often the right entry is above or "
                             "below the first where it missed, and the second where it was first")
    typings = parser.add_mutually_exclusive_group()
    typings.add_argument("--as-typed", dest="typing", action="store_const", const="typed",
                         help="with --every-set: each query ending in a word asked as that word is typed, from its third "
                              "letter to all but its last")
    typings.add_argument("--as-composed", dest="typing", action="store_const", const="composed",
                         help="with --every-set: each pinyin query asked as an input method shows it while it composes each "
                              "word, the syllables apart by apostrophes (xian'c), at every key from the second syllable")
    parser.add_argument("--convert", choices=CONVERSIONS,
                        help="ask the set with each query in full-width characters or converted by OpenCC (s2twp: "
                             "Taiwan wording), and count the first answers that change")
    return parser


def run(args: argparse.Namespace) -> None:
    off = tuple(filter(None, args.off.split(",")))
    if args.against_first:
        if args.every_set or args.flips or args.entries is not None or args.convert or args.misses or off or args.options \
                or args.typing:
            raise PitfallsError("--against-first goes alone: it asks the readable sets as options.js has them")
        return against_first()
    if args.typing and (not args.every_set or args.flips or args.entries is not None):
        raise PitfallsError(f"--as-{args.typing} goes with --every-set, without --flips or --entries")
    if args.without_keywords and (not args.every_set or args.flips or args.entries is not None):
        raise PitfallsError("--without-keywords goes with --every-set, without --flips or --entries")
    if args.flips:
        if not args.every_set or args.misses or args.entries is not None:
            raise PitfallsError("--flips goes with --every-set, without --misses or --entries (it lists no query)")
        return every_set_flips(off, args.options)
    if args.entries is not None:
        if not args.every_set or args.misses:
            raise PitfallsError("--entries goes with --every-set, without --misses (a smaller wiki's figures are top-1 only)")
        return every_set_smaller(off, args.options, args.entries, args.draws)
    if args.convert and args.every_set:
        raise PitfallsError("--convert asks one set (the default, --corpus or --queries), not --every-set")
    if args.every_set:
        return every_set(off, args.options, args.misses, not args.without_keywords, args.typing)
    default = "search_queries_corpus.yml" if args.corpus else "search_queries.yml"
    queries_file = args.queries or ROOT / "tests" / default
    queries = load_queries(queries_file, args.also)
    if args.half:
        queries = queries[args.half == "odd"::2]
    with tempfile.TemporaryDirectory(prefix="pitfalls-corpus-") as tmp:
        content = assemble(Path(tmp) / "content") if args.corpus else ROOT / "content"
        print(f"{queries_file.name}: {len(queries)} queries over {len(list((content / 'entries').glob('*.yml')))} entries")
        if args.convert:
            return ask_converted(content, queries, args.convert, off, args.options, args.misses)
        report(evaluate(content, queries, off, args.options), args.misses)


CONVERSIONS = ("full-width", *CHINESE_CONVERSIONS)
"""--convert's ways of writing a query: full-width characters, or the OpenCC conversions the index reads."""


def full_width(text: str) -> str:
    """`text` as a Chinese input method in full-width mode types it: ASCII letters, digits and symbols as their
    full-width forms (U+FF01 … U+FF5E), a space as the ideographic space."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c for c in text)


def converter(conversion: str) -> Callable[[str], str]:
    """The function that writes a query as `conversion` (one of CONVERSIONS) does."""
    import opencc

    return full_width if conversion == "full-width" else opencc.OpenCC(f"{conversion}.json").convert


def ask_converted(content: Path, queries: list[dict], conversion: str, off: tuple[str, ...], options: dict,
                  misses: bool) -> None:
    """The queries that `conversion` changes, asked as typed and converted: the converted ones' table, and how many
    have another first answer (the conversion, not the question, decided it)."""
    convert = converter(conversion)
    changed = [(query, {**query, "q": convert(query["q"])}) for query in queries]
    changed = [(typed, converted) for typed, converted in changed if converted["q"] != typed["q"]]
    answers = evaluate(content, [query for pair in changed for query in pair], off, options)
    typed_answers, as_converted = answers[0::2], answers[1::2]
    print(f"{len(changed)} of them changed by {conversion}; as converted:")
    report(as_converted, misses)
    moved = sum(ids[:1] != other[:1] for (_, ids), (_, other) in zip(typed_answers, as_converted, strict=True))
    right = [sum(not is_miss(query, ids) for query, ids in asked) for asked in (typed_answers, as_converted)]
    print(f"another first answer for {moved}; first right as typed {right[0]}, converted {right[1]}")


if __name__ == "__main__":
    sys.exit(main())
