"""bench/search_quality_before.py: each set's answers from the old engine go back to their own queries, the corpora
reach it without keywords and with its own vocabulary, and a commit git cannot check out is a one-line error."""

from __future__ import annotations

import subprocess
import sys

import yaml

from bench.search_quality import QuerySet
from bench.search_quality_before import answers_by_set, old_content, queries_by_wiki
from conftest import ROOT


def test_the_old_engines_answers_go_back_to_their_own_queries():
    first = QuerySet("first", "a.yml", "corpus")
    second = QuerySet("second", "b.yml", "corpus")
    seed = QuerySet("seed", "c.yml", "seed")
    loaded = {first: [{"q": "q1"}, {"q": "q2", "lang": "en"}, {"q": "q3"}],
              second: [{"q": "q4", "lang": "en"}, {"q": "q5"}],
              seed: [{"q": "q6"}]}
    asked = queries_by_wiki(loaded)
    assert asked == {"corpus": {"zh": ["q1", "q3", "q5"], "en": ["q2", "q4"]}, "seed": {"zh": ["q6"]}}
    # the old engine answers each language's list in order: here each query's ids name it
    returned = {at: {lang: [[f"id-{q}"] for q in queries] for lang, queries in by_lang.items()} for at, by_lang in asked.items()}
    answers = answers_by_set(loaded, returned)
    assert {s.name: [(query["q"], ids) for query, ids in pairs] for s, pairs in answers.items()} == {
        "first": [("q1", ["id-q1"]), ("q2", ["id-q2"]), ("q3", ["id-q3"])],
        "second": [("q4", ["id-q4"]), ("q5", ["id-q5"])],
        "seed": [("q6", ["id-q6"])]}


def test_the_old_engine_reads_the_corpus_without_keywords_and_with_its_own_vocabulary(tmp_path):
    worktree = tmp_path / "worktree"
    (worktree / "content").mkdir(parents=True)
    (worktree / "content" / "synonyms.yml").write_text("synonyms: []  # the old vocabulary\n", encoding="utf-8")
    (worktree / "content" / "categories.yml").write_text("# the old categories\n", encoding="utf-8")
    assert old_content(worktree, "seed", tmp_path) == worktree / "content"  # its own seed entries
    content = old_content(worktree, "corpus", tmp_path)
    assert (content / "synonyms.yml").read_text(encoding="utf-8") == "synonyms: []  # the old vocabulary\n"
    assert (content / "categories.yml").read_text(encoding="utf-8") == "# the old categories\n"
    records = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in (content / "entries").glob("*.yml")]
    assert len(records) == 172 and not [r["id"] for r in records if "keywords" in r]


def test_a_commit_git_cannot_check_out_is_a_one_line_error():
    done = subprocess.run([sys.executable, "-m", "bench.search_quality_before", "--commit", "0000000"], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("search_quality_before: --commit 0000000: git worktree add failed: ")
    assert len(done.stderr.splitlines()) == 1
    worktrees = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert "pitfalls-before-" not in worktrees  # none left behind
