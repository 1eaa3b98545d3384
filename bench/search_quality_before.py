"""Every query set of `search_quality --every-set` asked of the search as it was before issue 16's ranking, beside
today's: top-1 of each set, and by kind for the two public sets (docs/SEARCH.md, "Where it stands"). Counts only: no
query of a held-out set is printed.

    .venv/bin/python -m bench.search_quality_before [--commit c309019]

Before: the commit's engine, vocabulary and index builder, checked out into a temporary git worktree and run in a
process of its own (its `pitfalls` package is not this one); its own seed entries, and the corpora as
`corpus.assemble` writes them today without keywords (no entry had any then). Now, without keywords: this engine on
those same entries, what the ranking and the vocabulary do alone. Now: this engine with the entries' keywords. Two to
three minutes under node.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from bench.corpus import assemble
from bench.search_quality import NEIGHBOURS, ROOT, SETS, QuerySet, ask_sets, grouped_by_kind, is_miss, query_language, set_queries
from pitfalls.commands.cli import run_command
from pitfalls.errors import PitfallsError

BEFORE = "c309019"
"""The last commit before issue 16's ranking (the issue was filed against it)."""

# Run by the old commit's Python, its worktree first on sys.path: each content folder indexed by its own
# write_site_index and asked by its own run_queries (the API it had), the ids of each query's answers back as JSON.
OLD_RUNNER = """
import json, sys
from pathlib import Path
import pitfalls
assert Path(pitfalls.__file__).is_relative_to(Path.cwd()), f"not the old commit's package: {pitfalls.__file__}"
from pitfalls.commands.search import run_queries
from pitfalls.pages.search_index import write_site_index
from pitfalls.records.validate import load_knowledge_base
plan = json.load(sys.stdin)
answers = {}
for at, job in plan.items():
    base = load_knowledge_base(Path(job["content"]))
    for lang, queries in job["queries"].items():
        write_site_index(base, lang, Path(job["site"]) / lang)
        answers.setdefault(at, {})[lang] = [[r["id"] for r in ranked]
                                            for ranked in run_queries(Path(job["site"]) / lang / "search", queries)]
json.dump(answers, sys.stdout)
"""


def last_line(text: str) -> str:
    """A failed command's last line of output: what went wrong, for a one-line error."""
    return (text.strip().splitlines() or ["(no output)"])[-1]


def old_content(worktree: Path, at: str, work: Path) -> Path:
    """The entries a set at `at` is asked of, as the old commit can read them: its own seed entries, or today's corpora
    without keywords and with the old commit's vocabulary and categories."""
    if at == "seed":
        return worktree / "content"
    content = assemble(work / at, None, NEIGHBOURS[at], keywords=False)
    for name in ("synonyms.yml", "categories.yml"):
        shutil.copy2(worktree / "content" / name, content / name)
    return content


def ask_before(commit: str) -> dict[QuerySet, list[tuple[dict, list[str]]]]:
    """Each set's queries with the ids the engine of `commit` returns."""
    loaded = {query_set: set_queries(query_set) for query_set in SETS}
    with tempfile.TemporaryDirectory(prefix="pitfalls-before-") as tmp:
        work, worktree = Path(tmp), Path(tmp) / "worktree"
        added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), commit],
                               capture_output=True, text=True)
        if added.returncode != 0:
            raise PitfallsError(f"--commit {commit}: git worktree add failed: {last_line(added.stderr)}")
        try:
            plan = {at: {"content": str(old_content(worktree, at, work)), "site": str(work / f"{at} site"), "queries": queries}
                    for at, queries in queries_by_wiki(loaded).items()}
            done = subprocess.run([sys.executable, "-c", OLD_RUNNER], input=json.dumps(plan), capture_output=True,
                                  text=True, encoding="utf-8", cwd=worktree, env={**os.environ, "PYTHONPATH": str(worktree)})
            if done.returncode != 0:
                raise PitfallsError(f"the engine of {commit} failed: {last_line(done.stderr)}")
            returned = json.loads(done.stdout)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], capture_output=True)
    return answers_by_set(loaded, returned)


def queries_by_wiki(loaded: dict[QuerySet, list[dict]]) -> dict[str, dict[str, list[str]]]:
    """wiki (`at`) → site language → the queries asked there, the sets' in their order, each set's queries in theirs."""
    asked: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for query_set, queries in loaded.items():
        for query in queries:
            asked[query_set.at][query_language(query)].append(query["q"])
    return asked


def answers_by_set(loaded: dict[QuerySet, list[dict]], returned: dict[str, dict[str, list[list[str]]]]
                   ) -> dict[QuerySet, list[tuple[dict, list[str]]]]:
    """Each set's queries with the ids the old engine returned, `returned` in the order `queries_by_wiki` asked."""
    remaining = {at: {lang: iter(ids) for lang, ids in by_lang.items()} for at, by_lang in returned.items()}
    return {query_set: [(query, next(remaining[query_set.at][query_language(query)])) for query in queries]
            for query_set, queries in loaded.items()}


def top1(asked: list[tuple[dict, list[str]]]) -> float:
    return 1 - sum(is_miss(query, ids) for query, ids in asked) / len(asked)


def by_kind(asked: list[tuple[dict, list[str]]]) -> dict[str, float]:
    return {kind: top1(pairs) for kind, pairs in grouped_by_kind(asked).items()}


def run(args: argparse.Namespace) -> None:
    columns = {f"before ({args.commit})": ask_before(args.commit),
               "now, without keywords": ask_sets(SETS, keywords=False), "now": ask_sets(SETS)}
    print(f"{'set':32} {'n':>4}" + "".join(f" {name:>22}" for name in columns))
    for query_set in SETS:
        print(f"{query_set.name:32} {len(columns['now'][query_set]):>4}"
              + "".join(f" {top1(answers[query_set]):>22.2f}" for answers in columns.values()))
    for name in ("seed", "corpus"):
        query_set = next(s for s in SETS if s.name == name)
        kinds = [by_kind(answers[query_set]) for answers in columns.values()]
        print(f"\n{query_set.name} ({query_set.queries}) by kind")
        for kind in kinds[-1]:
            print(f"  {kind:16}" + "".join(f" {column[kind]:>22.2f}" for column in kinds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default=BEFORE, help="the commit to ask (default: %(default)s, before issue 16's "
                        "ranking); it must have run_queries and write_site_index as that one has them")
    return run_command("search_quality_before", parser, parser.parse_args(), run)


if __name__ == "__main__":
    sys.exit(main())
