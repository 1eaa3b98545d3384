"""The blind judgments that let the 12-entry query set be asked again at the realistic corpus's 172 entries
(bench/seed_queries_also_at_corpus.yml, read by `python -m bench.search_quality --also`): each names a query of
the set and entries that exist only in the corpus, so a mistyped query or id cannot silently count as a miss.
The held-out sets of bench/ likewise name existing entries only, and `bench.search_quality` never prints their
misses (`--every-set`); its bad arguments end in one line."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

import pytest
import yaml

from bench import blind_judging, search_quality
from bench.corpus import INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3, assemble, corpus_ids
from bench.search_quality import query_language, with_judgments
from conftest import ROOT
from pitfalls.errors import PitfallsError
from pitfalls.records.validate import check_content, load_knowledge_base

JUDGMENTS = ROOT / "bench" / "seed_queries_also_at_corpus.yml"
SEED_QUERIES = yaml.safe_load((ROOT / "tests" / "search_queries.yml").read_text(encoding="utf-8"))["queries"]


def test_each_judgment_names_a_query_of_the_set_and_corpus_entries_only():
    judgments = yaml.safe_load(JUDGMENTS.read_text(encoding="utf-8"))["judgments"]
    asked = {(q["q"], query_language(q)) for q in SEED_QUERIES}
    corpus = {p.stem for p in (ROOT / "bench" / "corpus" / "entries").glob("*.yml")}
    seed = {p.stem for p in (ROOT / "content" / "entries").glob("*.yml")}
    assert judgments, "no judgments"
    for judgment in judgments:
        assert (judgment["q"], judgment.get("lang", "zh")) in asked, judgment["q"]
        assert judgment["also"] and set(judgment["also"]) <= corpus - seed, judgment
        assert judgment["why"].strip(), judgment["q"]


def test_judgments_add_to_the_right_answers_of_their_query_only(tmp_path):
    queries = [{"q": "ssh 断开", "id": "ssh-disconnect", "kind": "zh-word"},
               {"q": "ssh 断开", "id": "ssh-disconnect", "kind": "en", "lang": "en"},
               {"q": "显存", "id": "cuda-out-of-memory", "kind": "zh-word", "also": ["loss-nan"]}]
    judgments = tmp_path / "judgments.yml"
    judgments.write_text("judgments:\n"
                         "  - {q: 显存, also: [gpu-memory-held-after-kill], why: w}\n"
                         "  - {q: ssh 断开, lang: en, also: [tmux-x], why: w}\n", encoding="utf-8")
    merged = with_judgments(queries, judgments)
    assert [q.get("also", []) for q in merged] == [[], ["tmux-x"], ["loss-nan", "gpu-memory-held-after-kill"]]


def test_a_judgment_for_no_query_of_the_set_is_an_error(tmp_path):
    judgments = tmp_path / "judgments.yml"
    judgments.write_text("judgments:\n  - {q: 显存, lang: en, also: [x], why: w}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="judgments.yml: 1 judgment"):
        with_judgments([{"q": "显存", "id": "cuda-out-of-memory", "kind": "zh-word"}], judgments)


CORPUS_WIKI = ("content", "bench/corpus")
INDEPENDENT_150 = ("content", "bench/corpus_independent", "bench/corpus_independent_2")
INDEPENDENT_210 = (*INDEPENDENT_150, "bench/corpus_independent_3")


@pytest.mark.parametrize(("name", "wiki", "about", "least"), [
    ("queries_dev.yml", CORPUS_WIKI, CORPUS_WIKI, 150), ("queries_dev3.yml", CORPUS_WIKI, CORPUS_WIKI, 150),
    ("queries_heldout.yml", CORPUS_WIKI, CORPUS_WIKI, 150),
    ("queries_heldout2.yml", CORPUS_WIKI, CORPUS_WIKI, 150), ("queries_heldout3.yml", CORPUS_WIKI, CORPUS_WIKI, 150),
    ("queries_heldout4.yml", CORPUS_WIKI, CORPUS_WIKI, 150), ("queries_heldout5.yml", CORPUS_WIKI, CORPUS_WIKI, 150),
    ("queries_seed_heldout.yml", CORPUS_WIKI, ("content",), 150),
    ("queries_independent.yml", INDEPENDENT_150[:2], ("bench/corpus_independent",), 156),  # two an entry
    ("queries_independent_2.yml", INDEPENDENT_150, ("bench/corpus_independent_2",), 120),
    ("queries_independent_3.yml", INDEPENDENT_210, ("bench/corpus_independent_3",), 120)])
def test_each_bench_query_names_entries_of_the_wiki_it_is_asked_of(name, wiki, about, least):
    """Each query is about an entry of the folders it was written for; its `also` names entries of the wiki it was
    judged in."""
    queries = yaml.safe_load((ROOT / "bench" / name).read_text(encoding="utf-8"))["queries"]
    entries = {p.stem for folder in wiki for p in (ROOT / folder / "entries").glob("*.yml")}
    written_for = {p.stem for folder in about for p in (ROOT / folder / "entries").glob("*.yml")}
    assert len(queries) >= least
    for query in queries:
        assert query["q"].strip() and query["kind"], query
        assert query["id"] in written_for and set(query.get("also", [])) <= entries, query
        assert query.get("lang", "zh") in ("zh", "en"), query


def answer_every_query(monkeypatch, answer):
    """search_quality's sets asked without an index or node: each query's answer is `answer(query)`."""
    monkeypatch.setattr(search_quality, "write_indexes", lambda content, queries, where: {})
    monkeypatch.setattr(search_quality, "ask_indexes", lambda folders, queries, off, options, detail: [(q, answer(q)) for q in queries])


def test_every_set_lists_the_misses_of_the_readable_sets_only(monkeypatch, capsys):
    """`python -m bench.search_quality --every-set --misses` counts every set's misses and prints the readable sets'
    queries only: a held-out set whose misses were read is no longer held out."""
    answer_every_query(monkeypatch, lambda query: ["none"])
    search_quality.every_set((), {}, misses=True)
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["set", "n", "misses", "top-1", "empty"]
    rows = {line[:32].strip(): line[32:].split() for line in out[1:27]}  # n, misses, top-1, empty: every answer wrong
    assert list(rows) == ["seed", "seed at 172 entries", "corpus", "dev", "dev, at 210", "dev 2, at 210", "dev 3", "held-out", "held-out 2", "held-out 3",
                          "held-out 4", "held-out 5", "seed held-out", "seed held-out at 12 entries",
                          "seed, independent 90", "seed held-out, independent 90", "independent, blind",
                          "seed, independent 150", "seed held-out, independent 150", "independent, blind, at 150",
                          "independent 2, blind", "seed, independent 210", "seed held-out, independent 210",
                          "independent, blind, at 210", "independent 2, blind, at 210", "independent 3, blind"]
    assert all(n == misses and top1 == "0.00" and empty == "0" for n, misses, top1, empty in rows.values())
    # the totals a change is judged by: every query of the seven readable sets, and of the nineteen held out
    assert [line[:32].strip() for line in out[27:29]] == ["readable sets, in all", "held-out sets, in all"]
    assert out[27][32:].split() == ["2140", "2140"] and out[28][32:].split() == ["3213", "3213"]
    listed = [line for line in out if line.startswith("MISS ")]
    assert len(listed) == sum(int(rows[name][0]) for name in ("seed", "seed at 172 entries", "corpus", "dev", "dev, at 210",
                                                              "dev 2, at 210", "dev 3")) > 0
    assert not [line for line in listed if line.startswith(("MISS held-out", "MISS seed held-out", "MISS seed, independent",
                                                            "MISS independent"))]


def test_flips_count_the_queries_a_change_put_right_and_wrong(monkeypatch, capsys):
    """`--every-set --flips --options …`: each set asked before and after the change, of the same indexes; a query
    right before and wrong after counts as put wrong, and the other way round as put right."""
    def answer(folders, queries, off, options, detail):
        # before: right when the query's length is even; after (an option given): right when it divides by 3
        right = (lambda q: len(q["q"]) % 3 == 0) if options else (lambda q: len(q["q"]) % 2 == 0)
        return [(q, [q["id"]] if right(q) else ["none"]) for q in queries]

    monkeypatch.setattr(search_quality, "write_indexes", lambda content, queries, where: {})
    monkeypatch.setattr(search_quality, "ask_indexes", answer)
    search_quality.every_set_flips((), {"characterWeight": 0.25})
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["set", "n", "before", "after", "right", "wrong"]
    rows = {line[:32].strip(): [int(n) for n in line[32:].split()] for line in out[1:]}
    assert len(rows) == 26
    lengths = [len(q["q"]) for q in SEED_QUERIES]
    assert rows["seed"] == [210, sum(n % 2 != 0 for n in lengths), sum(n % 3 != 0 for n in lengths),
                            sum(n % 2 != 0 and n % 3 == 0 for n in lengths), sum(n % 2 == 0 and n % 3 != 0 for n in lengths)]
    assert rows["seed"][3] > 0 and rows["seed"][4] > 0


def test_as_typed_asks_each_query_at_every_point_of_typing_its_last_word_from_the_third_letter():
    queries = [{"q": "CUDA out of Memory ", "id": "a"}, {"q": "显存不足", "id": "b"}, {"q": "ssh oom", "id": "c"},
               {"q": "ｎｖｉｄｉａ", "id": "d"}, {"q": "驱动535 cuda", "id": "e"}, {"q": "pip 报错 ssl?", "id": "f"},
               {"q": "opset14", "id": "g"}, {"q": "x 4090a", "id": "h"}, {"q": "容器里 nvidia-smi", "id": "i"},
               {"q": "so 1.x.so", "id": "j"}, {"q": "bad a_b.", "id": "k"}]
    assert [(q["q"], q["id"]) for q in search_quality.as_typed(queries)] == [
        ("cuda out of mem", "a"), ("cuda out of memo", "a"), ("cuda out of memor", "a"),  # normalised, the space gone
        ("nvi", "d"), ("nvid", "d"), ("nvidi", "d"),  # full-width typed as ASCII
        ("驱动535 cud", "e"), ("ops", "g"), ("opse", "g"), ("opset", "g"), ("opset1", "g"),
        # an identifier typed whole, at every key: its joint too
        ("容器里 nvi", "i"), ("容器里 nvid", "i"), ("容器里 nvidi", "i"), ("容器里 nvidia", "i"), ("容器里 nvidia-", "i"),
        ("容器里 nvidia-s", "i"), ("容器里 nvidia-sm", "i")]
    # 显存不足: no letters last; oom: 3 letters; ssl?: something after it; 4090a: from a digit; so of 1.x.so: a word of an
    # identifier that starts with a digit; a_b.: a full stop after it


def test_every_set_as_typed_counts_the_empty_answers(monkeypatch, capsys):
    asked = []
    answer_every_query(monkeypatch, lambda query: asked.append(query["q"]) or ([] if len(query["q"]) % 2 else ["none"]))
    search_quality.every_set((), {}, misses=False, typing="typed")
    rows = {line[:32].strip(): line[32:].split() for line in capsys.readouterr().out.splitlines()[1:26]}
    seed_typed = search_quality.as_typed(SEED_QUERIES)
    assert rows["seed"] == [str(len(seed_typed)), str(len(seed_typed)), "0.00", str(sum(len(q["q"]) % 2 for q in seed_typed))]
    assert {q["q"] for q in seed_typed} <= set(asked) and not {q["q"] for q in SEED_QUERIES} & set(asked)


def test_as_composed_asks_each_pinyin_query_as_an_input_method_shows_each_word_while_it_composes_it():
    queries = [{"q": "Xiancun buzu", "id": "a", "kind": "pinyin"}, {"q": "xiancun buzu", "id": "b", "kind": "words"},
               {"q": "duoka 30 fenzhong", "id": "c", "kind": "pinyin"}, {"q": "xian ssh", "id": "d", "kind": "pinyin"}]
    assert [(q["q"], q["id"]) for q in search_quality.as_composed(queries)] == [
        ("xian'c", "a"), ("xian'cu", "a"), ("xian'cun", "a"), ("xian'cun bu'z", "a"), ("xian'cun bu'zu", "a"),
        ("duo'k", "c"), ("duo'ka", "c"), ("duo'ka 30 fen'z", "c"), ("duo'ka 30 fen'zh", "c"), ("duo'ka 30 fen'zho", "c"),
        ("duo'ka 30 fen'zhon", "c"), ("duo'ka 30 fen'zhong", "c")]
    # the longest syllables first (xian'cun, not xi'an'cun); a kind other than pinyin, a word of one syllable (xian) and
    # one that is not pinyin (ssh): none
    assert search_quality.syllables_shown("xian", frozenset({"xi", "an", "xian"})) == ["xian"]
    assert search_quality.syllables_shown("xiana", frozenset({"xi", "an", "xian", "a", "na"})) == ["xian", "a"]
    assert search_quality.syllables_shown("xianx", frozenset({"xi", "an", "xian"})) is None


def test_flips_need_a_change_and_every_set():
    for args, said in ((["--flips"], "--flips goes with --every-set, without --misses or --entries (it lists no query)"),
                       (["--as-typed"], "--as-typed goes with --every-set, without --flips or --entries"),
                       (["--as-composed"], "--as-composed goes with --every-set, without --flips or --entries"),
                       (["--without-keywords"], "--without-keywords goes with --every-set, without --flips or --entries"),
                       (["--every-set", "--flips"], "--flips compares the engine with --off or --options against options.js: give one")):
        done = subprocess.run([sys.executable, "-m", "bench.search_quality", *args], cwd=ROOT,
                              capture_output=True, text=True, encoding="utf-8")
        assert (done.returncode, done.stderr) == (2, f"search_quality: {said}\n")

def test_bad_arguments_end_in_one_line_and_exit_2(tmp_path):
    """A missing --queries file, and an engine stage that does not exist (the engine refuses it under node)."""
    missing = tmp_path / "missing.yml"
    done = subprocess.run([sys.executable, "-m", "bench.search_quality", "--queries", str(missing)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    assert (done.returncode, done.stderr) == (2, f"search_quality: --queries {missing}: No such file or directory; check the path\n")
    done = subprocess.run([sys.executable, "-m", "bench.search_quality", "--off", "nosuch"], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[:2] == ["search_quality: the search engine failed (what node said follows)",
                                            "Error: unknown search stage or rule nosuch"]


def _record(name: str) -> dict:
    return {"title": {"zh": f"{name} 标题", "en": f"{name} title"}, "quick_fix": {"zh": "修", "en": "fix"},
            "symptoms": ["VerbatimError: x", {"zh": "症状", "en": "symptom"}]}


def test_blind_pairs_show_the_judge_no_id_and_no_side():
    """Every miss is paired with its expected entry, as many hits as controls with their best other answer; the
    judge's file names no entry and does not say which side the set or the engine chose; the key says it."""
    records = {id_: _record(name) for id_, name in (("right", "alpha"), ("wrong", "beta"), ("also-right", "gamma"), ("second", "delta"))}
    answers = [("corpus", {"q": f"asked {n}", "id": "right", "kind": "en", "lang": "en"}, ["wrong", "right"]) for n in range(20)]
    answers += [("seed", {"q": f"问 {n}", "id": "right", "also": ["also-right"], "kind": "zh-word"},
                 ["also-right", "right", "second"]) for n in range(30)]
    answers += [("seed", {"q": "no answer", "id": "right", "kind": "zh-word"}, []),
                ("seed", {"q": "nothing else", "id": "right", "kind": "zh-word"}, ["right"])]
    pairs, key = blind_judging.blind_pairs(answers, {"corpus": records, "seed": records}, random.Random(1))
    assert [pair["n"] for pair in pairs] == [pair["n"] for pair in key] == list(range(40))
    assert sorted(pair["kind"] for pair in key) == ["control"] * 20 + ["miss"] * 20
    for pair, truth in zip(pairs, key, strict=True):
        assert {truth["A"], truth["B"]} == {"right", "wrong" if truth["kind"] == "miss" else "second"}
        assert pair["A"]["title"] == records[truth["A"]]["title"][truth["lang"]]
        assert pair["A"]["symptoms"] == ["VerbatimError: x", "症状" if truth["lang"] == "zh" else "symptom"]
        shown = json.dumps(pair, ensure_ascii=False)
        assert not [word for word in ("right", "wrong", "second", "expected", "miss", "control") if word in shown]
    assert {truth["A"] == truth["expected"] for truth in key} == {True, False}  # the expected entry is not always A


def test_blind_judging_tallies_what_the_judge_chose_and_refuses_a_missing_or_unknown_verdict():
    key = [{"n": 0, "kind": "miss", "expected": "x", "A": "x", "B": "y"},
           {"n": 1, "kind": "miss", "expected": "x", "A": "x", "B": "y"},
           {"n": 2, "kind": "miss", "expected": "x", "A": "y", "B": "x"},
           {"n": 3, "kind": "control", "expected": "x", "A": "y", "B": "x"},
           {"n": 4, "kind": "control", "expected": "x", "A": "y", "B": "x"}]
    verdicts = [{"n": 0, "verdict": "B"}, {"n": 1, "verdict": "both"}, {"n": 2, "verdict": "B"},
                {"n": 3, "verdict": "neither"}, {"n": 4, "verdict": "A"}]
    assert blind_judging.tally(key, verdicts) == {("miss", "other"): 1, ("miss", "both"): 1, ("miss", "expected"): 1,
                                                  ("control", "neither"): 1, ("control", "other"): 1}
    with pytest.raises(SystemExit, match="no verdict for 1 pair.*n=4"):
        blind_judging.tally(key, verdicts[:4])
    with pytest.raises(SystemExit, match="n=4: verdict 'a' is not A, B, both or neither"):
        blind_judging.tally(key, [*verdicts[:4], {"n": 4, "verdict": "a"}])


def test_blind_judging_records_the_judgments_misses_first_and_refuses_a_held_out_set():
    """`blind_judging record DIR`: the rows of bench/blind_judgments_*.yml from the key and the verdicts."""
    pair = {"set": "corpus", "query": "q", "lang": "zh", "query_kind": "typo", "expected": "x"}
    key = [{**pair, "n": 0, "kind": "control", "other": "z", "A": "z", "B": "x"},
           {**pair, "n": 1, "kind": "miss", "other": "y", "A": "x", "B": "y", "query": "显存 q: x"}]
    verdicts = [{"n": 0, "verdict": "B", "why": "B is it."}, {"n": 1, "verdict": "both", "why": "Either."}]
    assert blind_judging.judgment_rows(key, verdicts) == (
        "judgments:\n"
        "  - {set: corpus, pair: miss, kind: typo, lang: zh, q: '显存 q: x', expected: x, other: y, chose: both, why: Either.}\n"
        "  - {set: corpus, pair: control, kind: typo, lang: zh, q: q, expected: x, other: z, chose: expected, why: B is it.}\n")
    with pytest.raises(PitfallsError, match=r"^record: the key holds pairs of a held-out set \(held-out\)"):
        blind_judging.judgment_rows([{**key[0], "set": "held-out"}], verdicts[:1])


@pytest.mark.parametrize(("recorded", "misses"), [("blind_judgments_2026-12-05.yml", 79), ("blind_judgments_2026-12-07.yml", 13)])
def test_the_recorded_blind_judgments_name_entries_readable_sets_and_verdicts_only(recorded, misses):
    """bench/blind_judgments_*.yml, the measurements docs/SEARCH-LOG.md reports: no held-out set's query in them."""
    rows = yaml.safe_load((ROOT / "bench" / recorded).read_text(encoding="utf-8"))["judgments"]
    entries = {p.stem for folder in ("content/entries", "bench/corpus/entries") for p in (ROOT / folder).glob("*.yml")}
    readable = {query_set.name for query_set in search_quality.SETS if not query_set.held_out}
    assert sum(row["pair"] == "miss" for row in rows) == sum(row["pair"] == "control" for row in rows) == misses
    for row in rows:
        assert row["set"] in readable and {row["expected"], row["other"]} <= entries, row
        assert row["expected"] != row["other"] and row["chose"] in ("expected", "other", "both", "neither"), row


def test_the_entries_without_their_keywords_are_as_written_before_they_had_any(tmp_path):
    """`assemble(..., keywords=False)`, what `--every-set --without-keywords` asks: every record loses its keywords and
    nothing else, and the folder is still valid content."""
    with_them, without = assemble(tmp_path / "with"), assemble(tmp_path / "without", keywords=False)
    for record in (with_them / "entries").glob("*.yml"):
        data = yaml.safe_load(record.read_text(encoding="utf-8"))
        assert data.pop("keywords", None) and data == yaml.safe_load((without / "entries" / record.name).read_text(encoding="utf-8"))
    assert not [p for p in check_content(without)[1] if p.severity == "error"]


def test_a_smaller_corpus_keeps_the_seed_entries_and_drops_related_ids_of_entries_left_out(tmp_path):
    """corpus.assemble(out, keep): the wiki at another size, still a valid content folder."""
    linking = "adam-optimizer-state-oom-first-step"  # related: [cuda-out-of-memory] (a seed entry, always kept)
    dropped_target = "oom-during-evaluation-no-grad"
    keep = frozenset({linking, *[id_ for id_ in corpus_ids() if dropped_target in
                                 yaml.safe_load((ROOT / "bench/corpus/entries" / f"{id_}.yml").read_text(encoding="utf-8")).get("related", [])][:2]})
    assert len(keep) == 3
    content = assemble(tmp_path / "content", keep)
    written = {path.stem for path in (content / "entries").glob("*.yml")}
    assert written == {path.stem for path in (ROOT / "content/entries").glob("*.yml")} | keep
    base = load_knowledge_base(content)  # raises on a related id naming no entry
    related = {record.id: record.related for record in base.records}
    assert related[linking] == ("cuda-out-of-memory",)
    assert not [id_ for id_ in keep if dropped_target in related[id_]]


def test_every_set_at_a_smaller_size_asks_only_the_queries_about_entries_drawn(monkeypatch, tmp_path, capsys):
    drawn = []

    def fake_assemble(out, keep, corpora, keywords):
        drawn.append(keep)
        (out / "entries").mkdir(parents=True, exist_ok=True)
        for id_ in {*keep, *(path.stem for path in (ROOT / "content/entries").glob("*.yml"))}:
            (out / "entries" / f"{id_}.yml").write_text("", encoding="utf-8")
        return out

    monkeypatch.setattr(search_quality, "assemble", fake_assemble)
    answer_every_query(monkeypatch, lambda query: [query["id"]])
    search_quality.every_set_smaller((), {}, entries=42, draws=2)
    out = capsys.readouterr().out.splitlines()
    assert len(drawn) == 2 and drawn[0] != drawn[1] and {len(keep) for keep in drawn} == {30}
    rows = {line[:28].strip(): line[28:].split() for line in out[1:]}
    assert rows["seed at 42"] == ["210–210", "1.00", "1.00"]  # every query is about a seed entry
    corpus = yaml.safe_load((ROOT / "tests/search_queries_corpus.yml").read_text(encoding="utf-8"))["queries"]
    seed = {path.stem for path in (ROOT / "content/entries").glob("*.yml")}
    counts = sorted(sum(q["id"] in seed | keep for q in corpus) for keep in drawn)
    assert rows["corpus"][0] == f"{counts[0]}–{counts[1]}" and counts[1] < 374
    assert "seed held-out" in rows and "seed" not in rows  # the sets asked of the 12 entries alone are not asked again


def test_blind_pairs_of_a_smaller_wiki_are_asked_of_the_draw_the_quality_bench_asks(monkeypatch, tmp_path):
    """`blind_judging pairs DIR --entries N --draw K`: the misses of draw K of `search_quality --every-set --entries N`,
    the same entries (a draw is seeded with its number), so a judged figure is of the draw the bench printed."""
    asked = []

    def fake_ask_sets(sets, keep=None):
        asked.append(({query_set.name for query_set in sets}, keep))
        return {}

    monkeypatch.setattr(blind_judging, "ask_sets", fake_ask_sets)
    monkeypatch.setattr(sys, "argv", ["blind_judging", "pairs", str(tmp_path / "d4"), "--set", "held-out", "--entries", "92", "--draw", "4"])
    assert blind_judging.main() == 0
    monkeypatch.setattr(sys, "argv", ["blind_judging", "pairs", str(tmp_path / "all"), "--set", "corpus"])
    assert blind_judging.main() == 0
    drawn = search_quality.smaller_wiki(92, 4)
    assert asked == [({"held-out"}, drawn), ({"corpus"}, None)]
    assert len(drawn) == 80 and drawn == frozenset(random.Random(4).sample(corpus_ids(), 80)) != search_quality.smaller_wiki(92, 5)
    assert json.loads((tmp_path / "d4" / "pairs.json").read_text(encoding="utf-8")) == []
    for args in (["pairs", str(tmp_path), "--draw", "4"], ["score", str(tmp_path / "d4"), "--entries", "92"]):
        done = subprocess.run([sys.executable, "-m", "bench.blind_judging", *args], cwd=ROOT, capture_output=True, text=True)
        assert (done.returncode, done.stderr) == (2, "blind_judging: --entries and --draw go with pairs, --draw only with --entries\n")


def test_the_independent_neighbours_make_a_valid_wiki_with_the_seed_entries(tmp_path):
    """bench/corpus_independent/: 78 neighbours of the seed entries written apart from the corpus, asked by the
    "independent" sets of `--every-set`; each names seed entries or its own in `related`, none takes a seed id."""
    content = assemble(tmp_path / "content", corpora=(INDEPENDENT,))
    base = load_knowledge_base(content)  # raises on any error
    seed = {path.stem for path in (ROOT / "content/entries").glob("*.yml")}
    assert len(base.records) == 90 and seed <= {record.id for record in base.records}


def test_both_rounds_of_independent_neighbours_make_a_valid_wiki_of_150(tmp_path):
    """bench/corpus_independent_2/: 60 more, written apart from both corpora, asked with the first 78 by the
    "independent 150" sets; no id of one round is taken by the other or by a seed entry."""
    content = assemble(tmp_path / "content", corpora=(INDEPENDENT, INDEPENDENT_2))
    base = load_knowledge_base(content)  # raises on any error
    assert len(base.records) == 150


def test_three_rounds_of_independent_neighbours_make_a_valid_wiki_of_210(tmp_path):
    """bench/corpus_independent_3/: 60 more, written apart from the corpora by sessions that saw the titles of both
    rounds before, asked with them by the "independent 210" sets."""
    content = assemble(tmp_path / "content", corpora=(INDEPENDENT, INDEPENDENT_2, INDEPENDENT_3))
    base = load_knowledge_base(content)  # raises on any error
    assert len(base.records) == 210


def test_two_corpora_with_an_entry_of_the_same_id_are_refused(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder / "entries").mkdir(parents=True)
        shutil.copy2(ROOT / "content/entries/loss-nan.yml", tmp_path / folder / "entries" / "same-id.yml")
    with pytest.raises(SystemExit, match="have an entry of the same id"):
        assemble(tmp_path / "content", corpora=(tmp_path / "a", tmp_path / "b"))


def test_full_width_is_what_an_input_method_in_full_width_mode_types():
    assert search_quality.full_width("cuda 12.1 OOM！显存") == "ｃｕｄａ\u3000１２．１\u3000ＯＯＭ！显存"


def test_a_converted_set_counts_the_first_answers_the_conversion_changed(monkeypatch, capsys):
    """`--convert`: only the queries the conversion changes are asked, as typed and converted; a first answer that
    moves is counted, and right ones are counted apart for each."""
    def answers(content, queries, off, options):
        # 显存不足 finds its entry only as typed, its traditional form another; 训练, 数据 and their forms find loss-nan
        first = {"显存不足": "cuda-out-of-memory", "顯存不足": "docker-gpu"}
        return [(q, [first.get(q["q"], "loss-nan")]) for q in queries]
    monkeypatch.setattr(search_quality, "evaluate", answers)
    queries = [{"q": "显存不足", "id": "cuda-out-of-memory", "kind": "zh-word"},
               {"q": "loss", "id": "loss-nan", "kind": "en"},  # no Chinese: s2t leaves it as it is, not asked
               {"q": "训练", "id": "loss-nan", "kind": "zh-word"}, {"q": "数据", "id": "loss-nan", "kind": "zh-word"}]
    search_quality.ask_converted(ROOT / "content", queries, "s2t", (), {}, misses=False)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "3 of them changed by s2t; as converted:"
    assert out.splitlines()[-1] == "another first answer for 1; first right as typed 3, converted 2"


def test_convert_with_every_set_is_refused_in_one_line():
    done = subprocess.run([sys.executable, "-m", "bench.search_quality", "--every-set", "--convert", "s2t"], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    assert (done.returncode, done.stderr) == (2, "search_quality: --convert asks one set (the default, --corpus or "
                                                 "--queries), not --every-set\n")


def test_against_first_counts_each_factor_of_the_right_entry_against_the_first_or_second(monkeypatch, capsys):
    """`--against-first`: where the right entry missed, it is set against the first; where it was first, against the
    second; on each factor, above or below. Here a query of even length misses (the first matches more of the query, the
    right entry has the better title), one of odd length is right (the second is linked from more entries)."""
    def result(id_, share, title, linked):
        return {"id": id_, "explain": {"share": share, "title": title, "linkedFrom": linked, "length": 1, "rules": {"score": 5}}}

    def answer(folders, queries, off, options, detail):
        assert detail
        return [(q, [result("other", 0.9, 0.1, 0), result(q["id"], 0.5, 0.3, 0)] if len(q["q"]) % 2 == 0
                 else [result(q["id"], 0.5, 0.3, 0), result("other", 0.5, 0.3, 2)]) for q in queries]

    monkeypatch.setattr(search_quality, "write_indexes", lambda content, queries, where: {})
    monkeypatch.setattr(search_quality, "ask_indexes", answer)
    search_quality.against_first()
    out = capsys.readouterr().out.splitlines()
    rows = {line[:24].strip(): [int(n) for n in line[24:].split()] for line in out[2:]}
    readable = [q for name in ("tests/search_queries.yml", "tests/search_queries.yml", "tests/search_queries_corpus.yml",
                               "bench/queries_dev.yml", "bench/queries_dev_210.yml", "bench/queries_dev2_210.yml",
                               "bench/queries_dev3.yml")
                for q in search_quality.load_queries(ROOT / name)]
    even = sum(len(q["q"]) % 2 == 0 for q in readable)
    assert 0 < even < len(readable) == 2140  # the seven readable sets, every query asked
    assert rows == {"share of the query": [0, even, 0, 0], "title agreement": [even, 0, 0, 0],
                    "linked from": [0, 0, 0, len(readable) - even], "shorter": [0, 0, 0, 0], "BM25F score": [0, 0, 0, 0]}
