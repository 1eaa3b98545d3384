"""Mutation testing (`make mutation`): mutmut over the modules that decide what a reader sees, one module
at a time, against the quick layer; then the score per module.

    .venv/bin/python -m bench.mutation [--keep] [--report] [MODULE.py ...]

MODULE: paths from `[tool.mutmut] only_mutate` in pyproject.toml, the one list of mutated modules
(default: all of them; `make mutation MUTATE=pitfalls/commands/match.py` runs one). Each module is a
separate `mutmut run "<module>.*"`, timed. mutmut's working folder is mutants/ (not committed); it is
removed first, so tests added or changed since the last run are mapped to the code they cover again
(`--keep` reuses it: quicker, but a changed test may not be rerun for a function it newly covers).
`--report` only prints the table of the last run. docs/TESTING.md, "Mutation testing", says how to
read it and what to do with a survivor.

A mutant is killed when some test fails on it; one that made the tests run past mutmut's CPU-time limit
(an endless loop) counts as killed too, and is shown apart. Score = killed / mutants: a mutant no test
runs ("no tests") or one left unchecked counts against it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
MUTMUT = Path(sys.executable).parent / "mutmut"
TARGET = 0.9
"""The share of mutants the tests must kill in each module (issue 17)."""

# mutmut's exit codes of a mutant's test run (mutmut/stats.py, status_by_exit_code), grouped
KILLED = {1, 3}
TIMEOUT = {36, -24, 24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def configured_modules() -> list[str]:
    """The mutated modules: `[tool.mutmut] only_mutate` of pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return list(config["only_mutate"])


def mutant_glob(module: str) -> str:
    """`pitfalls/commands/match.py` → `pitfalls.commands.match.*`: the names of its mutants."""
    return module.removesuffix(".py").replace("/", ".") + ".*"


def run(module: str) -> float:
    """Run mutmut on one module's mutants (all of them, even those with a result); the seconds it took."""
    start = time.monotonic()
    done = subprocess.run([str(MUTMUT), "run", mutant_glob(module)], cwd=ROOT, stdout=subprocess.DEVNULL)
    if done.returncode:
        sys.exit(f"mutmut run {mutant_glob(module)} failed (exit {done.returncode}); run it by hand to see why")
    return time.monotonic() - start


def tally(module: str) -> Counter:
    """Mutants of one module by outcome, from mutmut's results in mutants/."""
    meta = MUTANTS / (module + ".meta")
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].values() if meta.exists() else []
    outcome = Counter()
    for code in codes:
        outcome["total"] += 1
        outcome[next((name for name, group in (("killed", KILLED), ("timeout", TIMEOUT), ("survived", SURVIVED),
                                               ("no tests", NO_TESTS)) if code in group),
                     "not checked" if code is None else "other")] += 1
    return outcome


def table(modules: list[str], seconds: dict[str, float]) -> tuple[str, bool]:
    """The score table, and whether every module reaches TARGET."""
    rows = [("module", "killed", "score", "survived", "no tests", "timeout", "unchecked", "time")]
    every = Counter()
    reached = True
    for module in modules:
        outcome = tally(module)
        every += outcome
        killed = outcome["killed"] + outcome["timeout"]
        score = killed / outcome["total"] if outcome["total"] else 0.0
        reached &= score >= TARGET
        took = f"{seconds[module] / 60:.1f} min" if module in seconds else ""
        rows.append((module, f"{killed}/{outcome['total']}", f"{score:.1%}", str(outcome["survived"]),
                     str(outcome["no tests"]), str(outcome["timeout"]),
                     str(outcome["not checked"] + outcome["other"]), took))
    killed = every["killed"] + every["timeout"]
    total_time = f"{sum(seconds.values()) / 60:.1f} min" if seconds else ""
    rows.append(("all", f"{killed}/{every['total']}", f"{killed / every['total']:.1%}" if every["total"] else "",
                 str(every["survived"]), str(every["no tests"]), str(every["timeout"]),
                 str(every["not checked"] + every["other"]), total_time))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(row, widths, strict=True)))
             for row in rows]
    return "\n".join(lines), reached


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE.py", help="default: every module of [tool.mutmut] only_mutate")
    parser.add_argument("--keep", action="store_true", help="reuse mutants/ from the last run instead of starting afresh")
    parser.add_argument("--report", action="store_true", help="only print the scores of the last run")
    args = parser.parse_args(argv)
    configured = configured_modules()
    modules = args.modules or configured
    unknown = [m for m in modules if m not in configured]
    if unknown:
        parser.error(f"not in [tool.mutmut] only_mutate of pyproject.toml: {', '.join(unknown)}; add it there first")
    seconds: dict[str, float] = {}
    if not args.report:
        if not args.keep:
            shutil.rmtree(MUTANTS, ignore_errors=True)
        for module in modules:
            print(f"mutmut: {module} …", end=" ", flush=True)
            seconds[module] = run(module)
            outcome = tally(module)
            print(f"{outcome['killed'] + outcome['timeout']}/{outcome['total']} killed in {seconds[module] / 60:.1f} min", flush=True)
    report, reached = table(modules, seconds)
    print(report)
    print(f"target: {TARGET:.0%} killed in each module; survivors: .venv/bin/mutmut results, "
          ".venv/bin/mutmut show <name> (docs/TESTING.md)")
    return 0 if reached or args.report else 1


if __name__ == "__main__":
    sys.exit(main())
