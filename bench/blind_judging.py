"""Are the readable query sets' misses the engine's fault or the judgments'? Pairs for a blind judge, and their score.

    .venv/bin/python -m bench.blind_judging pairs DIR [--set NAME …] [--entries N --draw K]   # DIR/pairs.json for the judge, DIR/key.json apart
    .venv/bin/python -m bench.blind_judging score DIR    # DIR/key.json against DIR/verdicts*.json
    .venv/bin/python -m bench.blind_judging record DIR   # the judgments as bench/blind_judgments_*.yml lists them

Each miss of the readable sets (`search_quality.SETS`; a held-out one only when named, and then its files are for the
judge alone: the score prints counts, never a query) becomes a pair: the query, the entry its
set expects and the one the engine put first. As many hits, drawn at random, are controls: the expected entry and the
engine's best other answer. The judge sees the query and the two entries' text (title, quick fix, symptoms, cause, in
the query's language) as A and B, in random order, never an id or which one the set or the engine chose, and answers
A, B, both (either serves the asker fully) or neither: `verdicts*.json`, a list of {n, verdict, why}. The score counts,
for misses and controls apart, how often the judge chose the expected entry, the other, both or neither: a miss judged
"both" or "other" is one the set's judgment, not the ranking, lost (docs/SEARCH-LOG.md, "Are the misses the ranking's or the judgments'?").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import yaml

from bench.search_quality import NEIGHBOURS, ROOT, SETS, ask_sets, expected_ids, is_miss, query_language, smaller_wiki
from pitfalls.commands.cli import run_command
from pitfalls.errors import PitfallsError

SEED = 20261205
"""The draw of controls and of each pair's order: the same pairs from the same answers."""


def entry_text(record: dict, lang: str) -> dict:
    """What the judge reads of an entry: its title, quick fix, symptoms (a verbatim message as it is) and cause in `lang`."""
    return {"title": record["title"][lang], "quick_fix": record["quick_fix"][lang],
            "symptoms": [symptom if isinstance(symptom, str) else symptom[lang] for symptom in record.get("symptoms", [])],
            "cause": record.get("cause", {}).get(lang)}


def blind_pairs(answers: list[tuple[str, dict, list[str]]], records: dict[str, dict[str, dict]], rng: random.Random
                ) -> tuple[list[dict], list[dict]]:
    """(pairs for the judge, their key) from (set name, query, ids returned) triples: every miss with an answer, and as
    many hits with another answer as controls; shuffled, each pair's two entries in random order. `records`: set name
    → id → the record it was asked of."""
    misses, hits = [], []
    for set_name, query, ids in answers:
        others = [id_ for id_ in ids if id_ not in expected_ids(query)]
        if is_miss(query, ids) and ids:
            misses.append(("miss", set_name, query, ids[0]))
        elif not is_miss(query, ids) and others:
            hits.append(("control", set_name, query, others[0]))
    items = misses + rng.sample(hits, min(len(misses), len(hits)))
    rng.shuffle(items)
    pairs, key = [], []
    for n, (kind, set_name, query, other) in enumerate(items):
        lang = query_language(query)
        a, b = (query["id"], other) if rng.random() < 0.5 else (other, query["id"])
        pairs.append({"n": n, "query": query["q"], "site": lang,
                      "A": entry_text(records[set_name][a], lang), "B": entry_text(records[set_name][b], lang)})
        key.append({"n": n, "kind": kind, "set": set_name, "query": query["q"], "lang": lang, "query_kind": query["kind"],
                    "expected": query["id"], "other": other, "A": a, "B": b})
    return pairs, key


def judged(key: list[dict], verdicts: list[dict]) -> list[tuple[dict, str, dict]]:
    """Each pair of `key` with what the judge chose (expected, other, both or neither) and its verdict."""
    by_n = {verdict["n"]: verdict for verdict in verdicts}
    if missing := [pair["n"] for pair in key if pair["n"] not in by_n]:
        raise SystemExit(f"verdicts: no verdict for {len(missing)} pair(s), the first: n={missing[0]}")
    found = []
    for pair in key:
        verdict = by_n[pair["n"]]["verdict"]
        if verdict not in ("A", "B", "both", "neither"):
            raise SystemExit(f"verdicts: n={pair['n']}: verdict {verdict!r} is not A, B, both or neither")
        chosen = verdict if verdict in ("both", "neither") else "expected" if pair[verdict] == pair["expected"] else "other"
        found.append((pair, chosen, by_n[pair["n"]]))
    return found


def tally(key: list[dict], verdicts: list[dict]) -> Counter:
    """(miss or control, what the judge chose: expected, other, both or neither) → count."""
    return Counter((pair["kind"], chosen) for pair, chosen, _ in judged(key, verdicts))


def judgment_rows(key: list[dict], verdicts: list[dict]) -> str:
    """The judgments as bench/blind_judgments_*.yml records them, misses first: one flow mapping a pair (set, pair,
    kind, lang, q, expected, other, chose, why) under `judgments:`. A held-out set's pairs are refused: its queries
    are not to be read."""
    if held := sorted({pair["set"] for pair in key} & {query_set.name for query_set in SETS if query_set.held_out}):
        raise PitfallsError(f"record: the key holds pairs of a held-out set ({held[0]}): its queries are not recorded")
    rows = []
    for pair, chosen, verdict in sorted(judged(key, verdicts), key=lambda found: (found[0]["kind"] != "miss", found[0]["n"])):
        row = {"set": pair["set"], "pair": pair["kind"], "kind": pair["query_kind"], "lang": pair["lang"], "q": pair["query"],
               "expected": pair["expected"], "other": pair["other"], "chose": chosen, "why": verdict.get("why", "")}
        rows.append("  - " + yaml.safe_dump(row, allow_unicode=True, default_flow_style=True, width=10_000, sort_keys=False).strip())
    return "judgments:\n" + "\n".join(rows) + "\n"


def write_pairs(folder: Path, set_names: list[str], keep: frozenset[str] | None = None) -> None:
    """`keep`: the corpus entries of a smaller wiki the sets at 172 entries are asked of (`smaller_wiki`)."""
    sets = tuple(query_set for query_set in SETS if query_set.name in set_names) if set_names else \
        tuple(query_set for query_set in SETS if not query_set.held_out)
    # each set's entries from the wiki it was asked of: the two corpora share some ids, each with its own text
    read = {at: {path.stem: yaml.safe_load(path.read_text(encoding="utf-8"))
                 for folder in (ROOT / "content", *NEIGHBOURS[at]) for path in (folder / "entries").glob("*.yml")}
            for at in {query_set.at for query_set in sets}}
    records = {query_set.name: read[query_set.at] for query_set in sets}
    answers = [(query_set.name, query, ids) for query_set, asked in ask_sets(sets, keep=keep).items() for query, ids in asked]
    pairs, key = blind_pairs(answers, records, random.Random(SEED))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pairs.json").write_text(json.dumps(pairs, ensure_ascii=False, indent=1), encoding="utf-8")
    (folder / "key.json").write_text(json.dumps(key, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(pairs)} pairs ({sum(pair['kind'] == 'miss' for pair in key)} misses) in {folder / 'pairs.json'}; "
          f"give the judge that file only")


def read_judging(folder: Path) -> tuple[list[dict], list[dict]]:
    """The key and every verdicts*.json of `folder`."""
    key = json.loads((folder / "key.json").read_text(encoding="utf-8"))
    return key, [v for path in sorted(folder.glob("verdicts*.json")) for v in json.loads(path.read_text(encoding="utf-8"))]


def print_score(folder: Path) -> None:
    key, verdicts = read_judging(folder)
    print(f"{'':40} {'expected':>8} {'other':>6} {'both':>5} {'neither':>7}")
    for set_name in dict.fromkeys(pair["set"] for pair in key):
        counts = tally([pair for pair in key if pair["set"] == set_name], verdicts)
        for kind in ("miss", "control"):
            print(f"{set_name + ', ' + kind:40} " + " ".join(f"{counts[kind, chosen]:>{width}}" for chosen, width in
                                                            (("expected", 8), ("other", 6), ("both", 5), ("neither", 7))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("pairs", "score", "record"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--set", action="append", default=[], choices=[query_set.name for query_set in SETS],
                        help="with pairs: a query set to take the misses of (repeatable; default: the readable sets). "
                             "A held-out set's pairs and key hold its misses: give them to the judge, do not read them")
    parser.add_argument("--entries", type=int, help="with pairs: ask the sets at 172 entries of a smaller wiki, this many "
                        "entries in all, as `search_quality --every-set --entries N` does (with --draw)")
    parser.add_argument("--draw", type=int, help="with --entries: which of search_quality's draws (from 0; default 0)")
    return run_command("blind_judging", parser, parser.parse_args(), run)


def run(args: argparse.Namespace) -> None:
    if (args.entries is not None or args.draw is not None) and (args.step != "pairs" or args.entries is None):
        raise PitfallsError("--entries and --draw go with pairs, --draw only with --entries")
    if args.step == "score":
        print_score(args.folder)
    elif args.step == "record":
        print(judgment_rows(*read_judging(args.folder)), end="")
    else:
        write_pairs(args.folder, args.set, args.entries and smaller_wiki(args.entries, args.draw or 0))


if __name__ == "__main__":
    sys.exit(main())
