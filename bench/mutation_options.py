"""The defaults of options.js, each moved one step, against the engine's node tests (`make mutation-options`).

    .venv/bin/python -m bench.mutation_options [NAME ...]

StrykerJS leaves options.js alone (stryker.config.mjs: it is data, and StrykerJS does not change number literals), so
this does for its numbers what StrykerJS does for the code: each number (`name: 0.25`, and each of a list's) is moved
one step either way, a whole number by 1, any other halved and by half again (0.25 → 0.125 and 0.375), and the node tests
(tests/js/run.js) run on a copy of the engine with that one change. A change no test fails on is a default no test
states (docs/TESTING.md, "Mutation testing"). The working tree is not touched: the copy is in a temporary folder.
NAME: only the options of those names (`phraseWeight`, `weight` for every reading's).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pitfalls.commands.cli import run_command
from pitfalls.errors import PitfallsError

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120  # seconds for the node tests with one change (about 1 s without)
OPTIONS = Path("static/assets/search/options.js")
# changes that cannot show, with the reason: not counted as unnoticed
EQUIVALENT = {
    "typoMinChars[0]": "the edit limit of a word at least this long is 0 (not corrected): every word is at least 0 and 1 long",
}
# a number after `name: ` or inside `[...]`, outside comments (`//` to the line's end)
NUMBER = re.compile(r"(?:(?P<name>\w+): |(?<=[\[ ]))(?P<value>-?\d+(?:\.\d+)?)(?=[,\] \n)])")


def numbers(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, label, value) of each number of options.js's code: label names its option (`readings.typo1.weight`
    is `typo1 weight`; a list's numbers `typoMinChars[0]` …)."""
    found = []
    offset = 0
    for line in text.splitlines(keepends=True):
        code = line.split("//", 1)[0]
        owner = re.match(r"\s*(\w+):", code)
        listed = 0
        for match in NUMBER.finditer(code):
            if match["name"]:
                label = match["name"] if not owner or owner[1] == match["name"] else f"{owner[1]} {match['name']}"
            else:
                label = f"{owner[1] if owner else '?'}[{listed}]"
                listed += 1
            found.append((offset + match.start("value"), offset + match.end("value"), label, match["value"]))
        offset += len(line)
    return found


def steps(value: str) -> list[str]:
    """The value moved one step either way: a whole number by 1, any other by half of it."""
    if "." not in value:
        number = int(value)
        return [str(number + 1), str(number - 1)] if number else ["1"]
    number = float(value)
    return [repr(round(number * 1.5, 6)), repr(round(number * 0.5, 6))]


def run(args: argparse.Namespace) -> int:
    node = shutil.which("node")
    if not node:
        raise PitfallsError("node is needed (`make test` installs Debian's nodejs)")
    original = (ROOT / OPTIONS).read_text(encoding="utf-8")
    # a label's names: `typo1 weight` is typo1's and every reading's weight, `typoMinChars[1]` typoMinChars's
    chosen = [n for n in numbers(original) if not args.names or set(n[2].split("[")[0].split(" ")) & set(args.names)]
    unnoticed = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work)
        shutil.copytree(ROOT / "static" / "assets" / "search", copy / "static" / "assets" / "search")
        shutil.copytree(ROOT / "tests" / "js", copy / "tests" / "js")
        (copy / "node_modules").symlink_to(ROOT / "node_modules")  # fake-indexeddb, for kept.test.js
        for start, end, label, value in chosen:
            if label in EQUIVALENT:
                print(f"{label:28} {value:>6}   equivalent: {EQUIVALENT[label]}", flush=True)
                continue
            outcomes = []
            for moved in steps(value):
                (copy / OPTIONS).write_text(original[:start] + moved + original[end:], encoding="utf-8")
                try:  # run.js is one process: a timeout kills all of it
                    noticed = subprocess.run([node, "tests/js/run.js"], cwd=copy, capture_output=True, timeout=TIMEOUT).returncode != 0
                except subprocess.TimeoutExpired:
                    noticed = True  # an endless loop: noticed, as StrykerJS and mutmut count it
                unnoticed += not noticed
                outcomes.append(f"{moved} {'noticed' if noticed else 'NOT NOTICED'}")
            print(f"{label:28} {value:>6}   " + ",  ".join(outcomes), flush=True)
    print(f"{unnoticed} change(s) no test noticed, of {sum(len(steps(n[3])) for n in chosen if n[2] not in EQUIVALENT)}; "
          f"{time.monotonic() - started:.0f} s")
    return 1 if unnoticed else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mutation_options", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these options (default: every number of options.js)")
    return run_command("mutation_options", parser, parser.parse_args(), run)


if __name__ == "__main__":
    sys.exit(main())
