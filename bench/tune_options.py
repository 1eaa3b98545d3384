"""Do the engine's weights sit where the readable query sets want them? A coordinate search over the ranking's
weights of static/assets/search/options.js, choosing by the misses of one half of the readable sets (the queries at
even positions, or odd) and reporting the other half, which never chooses: a gain that the other half does not share is
the search fitting the queries it was shown, not a better engine. No held-out set is asked (docs/SEARCH-LOG.md, "The weights searched together").

    .venv/bin/python -m bench.tune_options [--by even|odd] [--passes 4]

Each weight in TUNED is tried at each of STEPS times its value, one weight at a time (a share of a whole at most 1); a
step is taken when the chosen half (`--by`, even by default) loses misses; passes repeat until none is taken. Prints
each step taken with both halves' misses and every readable set's, then the options reached as `--options` JSON for
bench/search_quality.py.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable

from bench.search_quality import SETS, is_miss, set_asker
from pitfalls.commands.cli import run_command
from pitfalls.commands.search import node_executable
from pitfalls.errors import PitfallsError
from pitfalls.settings import ENGINE_JS

OPTIONS_JS = ENGINE_JS.with_name("options.js")

TUNED = ("titleWeight", "linkWeight", "bodyLength", "bodyMatch", "minLengthShare", "rarityFloor", "characterWeight",
         "maxCharacterShare", "insideWordMatch", "readings.synonym", "readings.parts", "readings.pinyin", "readings.typo1",
         "readings.typo2")
"""The ranking's weights: the words rule's factors and what each reading counts for (`readings.NAME`: its weight; the
typed and variant readings count 1, the measure of the others). Limits such as maxResults are not ranking weights."""
UNBOUNDED = {"titleWeight", "linkWeight"}
"""Of TUNED, the factors that may exceed 1; the rest are shares of a whole."""
STEPS = (0.5, 0.75, 1.33, 2)
"""The multiples of a weight's current value tried."""

Values = dict[str, float]


def coordinate_search(start: Values, misses: Callable[[Values], int], passes: int,
                      taken: Callable[[str, Values], None] = lambda name, values: None) -> Values:
    """From `start`, each weight at each of STEPS times its value (at most 1 unless in UNBOUNDED), one at a time, kept
    when `misses` goes down; up to `passes` passes, fewer when a pass takes no step. `taken(name, values)` is told of
    each step taken."""
    best, fewest = dict(start), misses(start)
    for _ in range(passes):
        stepped = False
        for name in start:
            for step in STEPS:
                value = round(best[name] * step, 4)
                if name not in UNBOUNDED and value > 1:
                    continue
                tried = {**best, name: value}
                if (count := misses(tried)) < fewest:
                    best, fewest, stepped = tried, count, True
                    taken(name, best)
        if not stepped:
            break
    return best


def default_options() -> dict:
    """options.js's defaultSearchOptions, as node reads them."""
    script = f"process.stdout.write(JSON.stringify(require({json.dumps(str(OPTIONS_JS))}).defaultSearchOptions))"
    return json.loads(subprocess.run([node_executable(), "-e", script], capture_output=True, text=True, check=True).stdout)


def tuned_values(options: dict) -> Values:
    """TUNED's values in `options`."""
    return {name: options["readings"][name.split(".")[1]]["weight"] if name.startswith("readings.") else options[name]
            for name in TUNED}


def as_options(values: Values, defaults: dict) -> dict:
    """`values` as options overriding options.js (the engine merges only the top level: `readings` goes whole)."""
    readings = {reading: dict(weights) for reading, weights in defaults["readings"].items()}
    for name, value in values.items():
        if name.startswith("readings."):
            readings[name.split(".")[1]]["weight"] = value
    return {**{name: value for name, value in values.items() if not name.startswith("readings.")}, "readings": readings}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--by", choices=("even", "odd"), default="even",
                        help="the half of the readable sets that chooses (default even); the other only reports")
    parser.add_argument("--passes", type=int, default=4, help="at most this many passes over TUNED (default 4)")
    return run_command("tune_options", parser, parser.parse_args(), run)


def run(args: argparse.Namespace) -> None:
    if args.passes < 1:
        raise PitfallsError(f"--passes {args.passes}: give 1 or more")
    defaults = default_options()
    readable = tuple(query_set for query_set in SETS if not query_set.held_out)
    counted: dict[tuple, tuple[int, int, dict[str, int]]] = {}
    with set_asker(readable) as ask:
        def count(values: Values) -> tuple[int, int, dict[str, int]]:
            """Misses of the even half, of the odd half, and of each readable set (each set of values asked once)."""
            if (key := tuple(values.items())) not in counted:
                missed = {query_set.name: [is_miss(q, ids) for q, ids in answers]
                          for query_set, answers in ask((), as_options(values, defaults)).items()}
                counted[key] = (sum(sum(m[0::2]) for m in missed.values()), sum(sum(m[1::2]) for m in missed.values()),
                                {name: sum(m) for name, m in missed.items()})
            return counted[key]

        def show(what: str, values: Values) -> None:
            even, odd, sets = count(values)
            print(f"{what:40} even {even:>3}  odd {odd:>3}  " + "  ".join(f"{name} {n}" for name, n in sets.items()), flush=True)

        start = tuned_values(defaults)
        show("options.js", start)
        reached = coordinate_search(start, lambda values: count(values)[args.by == "odd"], args.passes,
                                    lambda name, values: show(f"{name} = {values[name]:g}", values))
        show("reached", reached)
    print(json.dumps(as_options({name: value for name, value in reached.items() if value != start[name]}, defaults)))


if __name__ == "__main__":
    sys.exit(main())
