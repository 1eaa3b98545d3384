"""Each ranking rule and each weight or threshold of the search engine guarded on a hand-made index: the expected
winner is never the first document and never wins by a tie, and the same query with the rule switched off (or the
threshold moved) ranks another entry first, so a change that drops or moves the rule fails here.
Run under node; no site build, no browser. Rules and options: docs/SEARCH.md, static/assets/search/ranking.js."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from pitfalls.settings import ENGINE_JS

TITLE, TAGS, QUICK_FIX, SYMPTOMS, STEPS, TRANSLATION = 1, 2, 4, 8, 16, 32  # field bits of a posting's flags
ALONE = 1 << 11  # a Chinese character's posting: it stands as a word of its own in the entry (docs/SEARCH.md, "Index")
OVERLAP = 1 << 12  # a Chinese word's posting: it only overlaps the entry's words (定性 in 稳定性)
NODE_HELPERS = Path(__file__).parent / "js" / "helpers.js"
"""tests/js/helpers.js: its `fetcher` reads a hand-made index's files from the folder named by its version, as the
node tests do; the scripts below get its path after the engine's."""
FIELD_MATCH = {"title": 1, "tags": 0.8, "quick_fix": 0.6, "symptoms": 0.8, "steps": 0.2, "translation": 0.4}  # docs/SEARCH.md, "Ranking"


def title_chars(han: int, latin: int) -> int:
    """The flags bits of a title term that carry the entry's title length (docs/SEARCH.md, "Index")."""
    return han << 13 | latin << 21


def index(terms: dict[str, list[int]], docs: int, *, synonyms=(), words=None, pinyin=None, messages=None,
          anchored=None, titles=None, variants=None, compounds=(), linked_from=None, lengths=None, completions=None,
          entries=None, syllables="a ai an ban ben chang e xian cun") -> dict:
    """A hand-made index in the engine's format: one term shard, entries named doc0, doc1, …; `messages`: each
    entry's message keys in its d/ file, `anchored`: term → [entry, key, ...] in the shard; `entries`: term → how many
    entries have it, for a term whose postings the index capped; `syllables`: the pinyin syllables it knows."""
    manifest = {
        "formatVersion": 16, "lang": "en", "docs": docs, "shards": 1, "splitCharacters": "", "maxTermChars": 12, "version": "x",
        "fields": [[name, "", "", match] for name, match in FIELD_MATCH.items()],
        "titleCharsShift": [13, 21], "aloneBit": 11, "overlapBit": 12, "scoreScale": 100,
        "stopwords": ["the"], "synonyms": [list(group) for group in synonyms], "pinyinShards": 1,
        "absentSynonymTerms": sorted({t for group in synonyms for phrase in group for t in phrase} - terms.keys()),
        "syllables": syllables, "wordLengths": sorted(words or {}), "completionShards": 1,
        "linkedFrom": linked_from or [0] * docs, "lengths": lengths or [100] * docs,
        "messages": {"none": "No results", "closest": "Closest terms: {terms}", "browse": "Tags", "browseLocation": "tags/"},
    }
    files = {"manifest.json": manifest, "t/0.json": {"terms": terms, "entries": entries or {}, "variants": variants or {},
                                                     "compounds": list(compounds),
                                                     "messages": anchored or {}},
             "p/0.json": pinyin or {}, "c/0.json": completions or {}}
    files |= {f"w/{n}.json": w for n, w in (words or {}).items()}
    files |= {f"d/{n}.json": {"location": f"doc{n}/", "title": (titles or {}).get(n, f"doc {n}"), "tags": [],
                              "sections": [], "messages": (messages or {}).get(n, []), "keywords": []} for n in range(docs)}
    return files


_ENGINE_SERVER = """
    const {Engine} = require(process.argv[1]);
    const {fetcher} = require(process.argv[2]);
    let done = Promise.resolve();
    require("readline").createInterface({input: process.stdin}).on("line", line => {
      done = done.then(async () => {
        const {files, query, off, options} = JSON.parse(line);
        try {
          const engine = new Engine(fetcher(files), {off, options});
          console.log(JSON.stringify({ranked: (await engine.search(query)).ranked}));
        } catch (error) {
          console.log(JSON.stringify({error: String(error.stack || error)}));
        }
      });
    });
"""
"""One node process per test process answers every query of this module, one JSON line each way: a node started per
query took most of the module's time (about 65 ms of CPU a start, 90 queries)."""


@cache
def engine_process() -> subprocess.Popen:
    return subprocess.Popen([shutil.which("node"), "-e", _ENGINE_SERVER, str(ENGINE_JS), str(NODE_HELPERS)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")


@pytest.fixture(scope="module", autouse=True)
def _engine_process_ends():
    yield
    if engine_process.cache_info().currsize:
        engine_process().stdin.close()
        engine_process().wait(timeout=10)
        engine_process.cache_clear()


def search(files: dict, query: str, off: tuple[str, ...] = (), options: dict | None = None) -> list[dict]:
    """The engine's ranked results of `query` in `files`: [{id, title, score, exact, explain}]."""
    engine = engine_process()
    engine.stdin.write(json.dumps({"files": files, "query": query, "off": list(off), "options": options or {}}) + "\n")
    engine.stdin.flush()
    answer = json.loads(engine.stdout.readline())
    assert "error" not in answer, answer.get("error")
    return answer["ranked"]


def rank(files: dict, query: str, **kwargs) -> list[str]:
    """The entry ids `query` finds in `files`, best first."""
    return [result["id"] for result in search(files, query, **kwargs)]


def first(files: dict, query: str, **kwargs) -> str:
    found = rank(files, query, **kwargs)
    return found[0] if found else None


# Each case: the rule, an index, a query, and the entry that comes first only because of that rule (doc0 always
# scores higher, so with the rule off the remaining rules put doc0 first).
RULE_CASES = {
    # doc1's error message is in the query
    "message": (index({"illeg": [0, 900, STEPS, 1, 100, STEPS], "memori": [0, 900, STEPS, 1, 100, STEPS]}, 2,
                      messages={1: ["illegalmemoryaccess"]}), "illegal memory access", "doc1"),
    # doc1 matches both words of the query, doc0 one
    "words": (index({"alpha": [0, 900, STEPS, 1, 100, STEPS], "beta": [1, 100, STEPS]}, 2), "alpha beta", "doc1"),
    # doc0 matches 顯存 through its simplified form (a reading as good as typed, but not typed), doc1 alpha as typed;
    # both words are in one entry each, in the steps: the words rule ties
    "typo": (index({"显存": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2, variants={"顯存": ["显存"]}), "顯存 alpha", "doc1"),
    # everything else equal, doc1 scores higher
    "score": (index({"alpha": [0, 100, STEPS, 1, 900, STEPS]}, 2), "alpha", "doc1"),
}


def test_every_rule_has_a_case():
    script = "console.log(JSON.stringify(require(process.argv[1]).ranking.RULE_NAMES))"
    rules = json.loads(subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS)], capture_output=True,
                                      text=True, check=True).stdout)
    assert rules == ["message", "words", "typo", "score"]
    assert sorted(RULE_CASES) == sorted(rules)


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_rule_puts_its_entry_first(rule):
    files, query, expected = RULE_CASES[rule]
    assert expected != "doc0"
    assert first(files, query) == expected
    assert first(files, query, off=(rule,)) != expected, f"{rule}: {query!r} does not need the rule"


def _matches(result: dict) -> dict[str, float]:
    """unit → what the entry's match of it counts (field × reading × the share of the unit matched), from --explain."""
    return {unit["unit"]: unit["match"] for unit in result["explain"]["units"]}


@pytest.mark.parametrize(("field", "bit"), [("title", TITLE), ("tags", TAGS), ("quick_fix", QUICK_FIX),
                                            ("symptoms", SYMPTOMS), ("steps", STEPS), ("translation", TRANSLATION)])
def test_a_word_counts_by_the_field_it_is_in(field, bit):
    [result] = search(index({"alpha": [0, 100, bit]}, 1), "alpha")
    assert _matches(result) == {"alpha": FIELD_MATCH[field]}


def test_where_a_word_stands_decides_between_entries():
    # doc1 has the word in its symptoms (0.8), doc0 in its steps (0.2)
    files = index({"alpha": [0, 900, STEPS, 1, 100, SYMPTOMS]}, 2)
    assert rank(files, "alpha") == ["doc1", "doc0"]


def test_an_entry_whose_title_is_the_query_before_one_whose_longer_title_also_has_it():
    # both titles have the word; doc1's is shorter (9 letters against 14): the words rule counts each match
    # × (1 + titleWeight 2 × the title's agreement with the query): 1 × (1 + 2 × 5/9) against 1 × (1 + 2 × 5/14)
    files = index({"alpha": [0, 900, TITLE | title_chars(0, 14), 1, 100, TITLE | title_chars(0, 9)]}, 2)
    results = search(files, "alpha")
    assert [r["id"] for r in results] == ["doc1", "doc0"]
    assert results[1]["explain"]["decidedBy"] == "words"
    assert [r["explain"]["title"] for r in results] == [0.556, 0.357]
    assert rank(files, "alpha", options={"titleWeight": 0}) == ["doc0", "doc1"]


def test_the_entry_its_neighbours_name_as_related_before_one_that_matches_the_query_as_well():
    # the same word in the same field, doc0's BM25 score higher; doc1 is named as related by 3 entries (of 3 the most):
    # the words rule counts its match × (1 + linkWeight 0.1 × log 4 / log 4)
    files = index({"alpha": [0, 900, SYMPTOMS, 1, 100, SYMPTOMS]}, 4, linked_from=[0, 3, 0, 0])
    results = search(files, "alpha")
    assert [r["id"] for r in results] == ["doc1", "doc0"]
    assert results[1]["explain"]["decidedBy"] == "words"
    assert [r["explain"]["linkedFrom"] for r in results] == [3, 0]
    assert rank(files, "alpha", options={"linkWeight": 0}) == ["doc0", "doc1"]
    # on a log scale: 1 link of the most 3 counts log 2 / log 4, half of 3
    files = index({"alpha": [0, 900, SYMPTOMS, 1, 100, SYMPTOMS]}, 4, linked_from=[0, 1, 0, 3])
    assert search(files, "alpha")[0]["explain"]["rules"]["words"] == round(0.8 * (1 + 0.1 * 0.5), 3)


def test_links_do_not_outweigh_where_the_query_stands():
    # doc1 is named by every other entry, but has the word only in its steps (0.2); doc0 in its symptoms (0.8)
    files = index({"alpha": [0, 100, SYMPTOMS, 1, 900, STEPS]}, 4, linked_from=[0, 3, 0, 0])
    assert rank(files, "alpha") == ["doc0", "doc1"]
    assert rank(files, "alpha", options={"linkWeight": 10}) == ["doc1", "doc0"]


def test_a_body_match_says_more_of_a_short_entry_than_of_a_long_one():
    # the word only in each entry's steps (0.2), doc0's BM25 score higher; doc1 is half the average length, doc0 twice
    # it: the words rule counts a body match × 1 / (1 − bodyLength 0.75 + 0.75 × the length share), 0.2 / 0.625 = 0.32
    # for doc1 and 0.2 / 1.75 = 0.114 for doc0
    files = index({"alpha": [0, 900, STEPS, 1, 100, STEPS]}, 2, lengths=[200, 50])
    results = search(files, "alpha")
    assert [r["id"] for r in results] == ["doc1", "doc0"]
    assert results[1]["explain"]["decidedBy"] == "words"
    assert [r["explain"]["length"] for r in results] == [0.5, 2]
    assert [_matches(r) for r in results] == [{"alpha": 0.32}, {"alpha": 0.114}]
    assert rank(files, "alpha", options={"bodyLength": 0}) == ["doc0", "doc1"]


def test_only_a_match_in_the_body_is_measured_against_the_length():
    # the body is what counts bodyMatch (0.4) or less: the other language is measured, 0.4 / 0.625 against 0.4 / 1.75
    other = index({"alpha": [0, 900, TRANSLATION, 1, 100, TRANSLATION]}, 2, lengths=[200, 50])
    assert rank(other, "alpha") == ["doc1", "doc0"]
    assert rank(other, "alpha", options={"bodyMatch": 0.3}) == ["doc0", "doc1"]
    # in the symptoms (0.8, more than bodyMatch 0.4) a match counts the same in any entry: doc1, four times doc0's
    # length, first by its score
    files = index({"alpha": [0, 100, SYMPTOMS, 1, 900, SYMPTOMS]}, 2, lengths=[50, 200])
    results = search(files, "alpha")
    assert [r["id"] for r in results] == ["doc1", "doc0"] and [_matches(r) for r in results] == [{"alpha": 0.8}] * 2
    assert results[1]["explain"]["decidedBy"] == "score"
    assert rank(files, "alpha", options={"bodyMatch": 0.8}) == ["doc0", "doc1"]


def test_an_entry_shorter_than_a_quarter_of_the_average_counts_as_a_quarter():
    # doc0's steps, at 2% of the average length, count 0.2 / (0.25 + 0.75 × 0.25) = 0.457, less than doc1's quick fix
    # (0.6); measured at its length they would count 0.2 / 0.265 = 0.755
    files = index({"alpha": [0, 900, STEPS, 1, 100, QUICK_FIX]}, 2, lengths=[2, 198])
    results = search(files, "alpha")
    assert [r["id"] for r in results] == ["doc1", "doc0"]
    assert results[1]["explain"]["length"] == 0.25 and _matches(results[1]) == {"alpha": 0.457}
    assert rank(files, "alpha", options={"minLengthShare": 0}) == ["doc0", "doc1"]


def test_a_title_counts_for_as_much_of_the_query_as_it_holds():
    # doc0's title is alpha alone (covered whole, half the query in it), beta in its labels; doc1's title has both
    # words in 18 letters (half covered, the whole query in it). Its title's share alone would put doc0 first:
    # 0.9 × (1 + 2 × 1) against 1 × (1 + 2 × 0.5); with the query's share in it, 0.9 × 2 against 1 × 2
    files = index({"alpha": [0, 900, TITLE | title_chars(0, 5), 1, 100, TITLE | title_chars(0, 18)],
                   "beta": [0, 900, TAGS, 1, 100, TITLE | title_chars(0, 18)]}, 2)
    results = search(files, "alpha beta")
    assert [(r["id"], r["explain"]["title"], r["explain"]["rules"]["words"]) for r in results] == [
        ("doc1", 0.5, 2), ("doc0", 0.5, 1.8)]


def test_a_title_holds_a_piece_of_the_query_for_the_share_of_it_that_it_has():
    # 显存不足 is one piece; doc0's title has its part 显存 (4 characters: covered half), doc1's 显存不足 whole in 8;
    # both have 显存不足 in their steps, doc0 scores higher. Counted whole, doc0's title would agree 0.5, as doc1's
    files = index({"显存": [0, 900, TITLE | STEPS | title_chars(4, 0), 1, 100, TITLE | STEPS | title_chars(8, 0)],
                   "不足": [0, 900, STEPS, 1, 100, TITLE | STEPS | title_chars(8, 0)],
                   "显存不足": [0, 900, STEPS, 1, 100, TITLE | STEPS | title_chars(8, 0)]}, 2)
    results = search(files, "显存不足")
    assert [(r["id"], r["explain"]["title"]) for r in results] == [("doc1", 0.5), ("doc0", 0.25)]


def test_a_lone_character_agrees_with_a_title_only_in_a_query_of_characters():
    # 显卡爆: 显卡 a word, 爆 a character no word of the query covers. doc0 has 爆 in its short title inside another
    # word (爆掉 of 2 characters: match 0.5) and 显卡 in its symptoms, scoring higher; doc1 显卡 and 爆, a word of its
    # own, in its tags. By the words value alone doc1 (0.8 of the query against 0.7); with 爆 taken for the title's
    # agreement, doc0 would be first: 0.7 × (1 + 2 × 0.5 × 1/3) against 0.8
    others = {"其他": [n for doc in range(2, 8) for n in (doc, 1, STEPS)]}
    files = index({"显卡": [0, 900, SYMPTOMS, 1, 100, TAGS], "爆": [0, 900, TITLE | title_chars(2, 0), 1, 100, TAGS | ALONE],
                   **others}, 8)
    results = search(files, "显卡爆")
    assert [(r["id"], r["explain"]["title"]) for r in results] == [("doc1", 0), ("doc0", 0)]
    # a query of characters only has nothing else to agree with a title: 爆 alone, doc1's title (inside a word, 0.5)
    # before doc0's tags (0.8, scoring higher), 0.5 × (1 + 2 × 0.5) against 0.8
    files = index({"爆": [0, 900, TAGS | ALONE, 1, 100, TITLE | title_chars(2, 0)], **others}, 8)
    assert [(r["id"], r["explain"]["title"]) for r in search(files, "爆")] == [("doc1", 0.5), ("doc0", 0)]


def test_a_title_is_measured_in_the_scripts_of_the_query():
    # Both titles have alpha; 显存 is in both entries' steps, in neither title. Both are said in English too (10
    # letters; 5 and 2 Chinese characters): in the query's scripts doc1's title is the more covered (5 of 12 against
    # 5 of 15). Measured in the script matched only, both would be half covered and doc0's higher score would win.
    files = index({"alpha": [0, 900, TITLE | title_chars(5, 10), 1, 100, TITLE | title_chars(2, 10)],
                   "显存": [0, 900, STEPS, 1, 100, STEPS]}, 2)
    assert rank(files, "alpha 显存") == ["doc1", "doc0"]
    # an English query: the titles' English only (their Chinese echo does not count), both half covered
    assert rank(files, "alpha") == ["doc0", "doc1"]


def test_an_english_query_is_measured_against_all_of_a_chinese_title_with_english_names():
    # alpha is an English name in Chinese titles (5 letters, fewer than 2 a character: 10 and 4 characters), as GPU
    # in 容器内看不到 GPU: measured whole, 5 of 15 against 5 of 9. As if both were said in English (echoLetters 0.5),
    # both covered whole and doc0's higher score would win.
    files = index({"alpha": [0, 900, TITLE | title_chars(10, 5), 1, 100, TITLE | title_chars(4, 5)]}, 2)
    assert rank(files, "alpha") == ["doc1", "doc0"]
    assert rank(files, "alpha", options={"echoLetters": 0.5}) == ["doc0", "doc1"]


# How each reading counts, found in the title (1), and what it costs in the typo rule: options.js `readings`
READINGS = {
    "variant": (index({"显存": [0, 100, TITLE]}, 1, variants={"顯存": ["显存"]}), "顯存", 1, 1),
    "parts": (index({"opset": [0, 100, TITLE], "14": [0, 100, TITLE]}, 1), "opset14", 0.6, 1),
    "pinyin": (index({"嫦娥": [0, 100, TITLE]}, 1, pinyin={"change": ["嫦娥"]}), "change", 0.6, 1),
    "synonym": (index({"freez": [0, 100, TITLE]}, 1, synonyms=[[["hang"], ["freez"]]]), "hang", 0.5, 1),
    "typo1": (index({"version": [0, 100, TITLE]}, 1, words={7: ["version"]}), "versoin", 0.5, 1),
    "typo2": (index({"serveraliveinterval": [0, 100, TITLE]}, 1, words={19: ["serveraliveinterval"]}),
              "servraliveintervl", 0.3, 2),
    "completion": (index({"nvidia": [0, 100, TITLE]}, 1, completions={"nvi": ["nvidia"]}), "nvid", 0.5, 1),
}


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_a_reading_counts_less_than_a_typed_word(reading):
    files, query, weight, penalty = READINGS[reading]
    [result] = search(files, query)
    assert list(_matches(result).values()) == [weight]
    assert result["explain"]["rules"]["typo"] == penalty
    assert {t["reading"] for unit in result["explain"]["units"] for t in unit["terms"]} == {reading}


def test_a_regional_form_that_is_a_term_too_is_read_both_ways():
    # 核心 is Taiwan's 内核 (kernel) and the mainland's "core": doc0 has 核心 in its steps, doc1 内核 in its title
    files = index({"核心": [0, 900, STEPS], "内核": [1, 100, TITLE | title_chars(2, 0)]}, 2, variants={"核心": ["内核"]})
    assert rank(files, "核心") == ["doc1", "doc0"]
    [doc1] = [r for r in search(files, "核心") if r["id"] == "doc1"]
    assert [(t["term"], t["reading"]) for u in doc1["explain"]["units"] for t in u["terms"]] == [("内核", "variant")]
    assert rank(files, "核心", off=("variants",)) == ["doc0"]


def test_a_word_the_entries_say_only_in_parts_is_one_piece_of_the_query():
    # 驱动程序 is a word of the dictionary the entries say only as 驱动 and 程序 (a compound): typed, it is one piece of
    # the query that 驱动 and 程序 each cover half of, not two words. doc0 has both parts in its title, doc1 程序 and 报错:
    # as two words doc1 matches as many as doc0 (2 of 3) and doc0 wins on its score; as one, doc1 matches half of it
    # and all of 报错, doc0 only the first piece of two
    terms = {"驱动": [0, 900, TITLE | title_chars(4, 0)], "程序": [0, 900, TITLE | title_chars(4, 0), 1, 100, TITLE | title_chars(4, 0)],
             "报错": [1, 100, TITLE | title_chars(4, 0)]}
    [doc0] = [r for r in search(index(terms, 2, compounds=["驱动程序"]), "驱动程序报错") if r["id"] == "doc0"]
    assert doc0["explain"]["queryUnits"] == ["驱动程序", "报错"]
    assert rank(index(terms, 2, compounds=["驱动程序"]), "驱动程序报错") == ["doc1", "doc0"]
    assert rank(index(terms, 2), "驱动程序报错") == ["doc0", "doc1"]
    # its traditional form (a variant of the word) makes one piece as well
    files = index(terms, 2, compounds=["驱动程序"], variants={"驅動程式": ["驱动程序"], "驅動": ["驱动"], "程式": ["程序"], "報錯": ["报错"]})
    assert rank(files, "驅動程式報錯") == ["doc1", "doc0"]


def test_a_synonym_in_the_title_beats_the_typed_word_in_the_body():
    # doc1 has a synonym of the word in its title (0.5 × 1), doc0 the word itself in its steps (0.2)
    files = index({"hang": [0, 900, STEPS], "freez": [1, 100, TITLE | title_chars(0, 5)]}, 2, synonyms=[[["hang"], ["freez"]]])
    assert rank(files, "hang") == ["doc1", "doc0"]
    # a synonym at 0.05, in a title that is the query (× 3 by the title): 0.15 against 0.2
    weights = {"typed": {"weight": 1, "penalty": 0}, "synonym": {"weight": 0.05, "penalty": 1}}
    assert rank(files, "hang", options={"readings": {**_readings(), **weights}}) == ["doc0", "doc1"]


def _readings() -> dict:
    return {"typed": {"weight": 1, "penalty": 0}, "variant": {"weight": 1, "penalty": 1}, "parts": {"weight": 0.6, "penalty": 1},
            "pinyin": {"weight": 0.6, "penalty": 1}, "synonym": {"weight": 0.5, "penalty": 1},
            "typo1": {"weight": 0.5, "penalty": 1}, "typo2": {"weight": 0.3, "penalty": 2},
            "completion": {"weight": 0.5, "penalty": 1}, "reorder": {"weight": 1, "penalty": 1}}


def test_a_rare_word_weighs_more():
    # doc1 matches alpha (one entry of four), doc0 beta (three of four)
    files = index({"alpha": [1, 100, STEPS], "beta": [0, 900, STEPS, 2, 100, STEPS, 3, 100, STEPS]}, 4)
    assert rank(files, "alpha beta")[0] == "doc1"
    # with every word at least as common as in all the entries, both weigh the same and doc0 wins on its score
    assert rank(files, "alpha beta", options={"rarityFloor": 1})[0] == "doc0"


def test_rarity_has_a_floor_of_five_percent():
    # 40 entries: alpha is in one (2.5%), beta in two (5%): below the floor both count as in two entries
    terms = {"alpha": [1, 100, STEPS], "beta": [0, 900, STEPS, 2, 100, STEPS], "gamma": [n for d in range(3, 40) for n in (d, 1, STEPS)]}
    files = index(terms, 40)
    assert rank(files, "alpha beta")[0] == "doc0"  # equal weights: doc0 wins on its score
    assert rank(files, "alpha beta", options={"rarityFloor": 0.02})[0] == "doc1"
    # --explain gives the entries a unit is in, before the floor: alpha in one, weighed as in two
    found = search(files, "alpha beta")
    assert [(r["id"], u["unit"], u["weight"], u["entries"]) for r in found for u in r["explain"]["units"]] == [
        ("doc0", "beta", 3.045, 2), ("doc1", "alpha", 3.045, 1), ("doc2", "beta", 3.045, 2)]


def test_a_lone_character_counts_half_and_nothing_when_common():
    # 显存 in both entries; 爆 (a character no word of the query covers) in doc1 and one more of eight
    terms = {"显存": [0, 900, STEPS, 1, 100, STEPS], "显": [0, 1, STEPS, 1, 1, STEPS], "存": [0, 1, STEPS, 1, 1, STEPS],
             "爆": [1, 100, STEPS, 2, 1, STEPS], "了": [1, 1, STEPS, 2, 1, STEPS, 3, 1, STEPS]}
    files = index(terms, 8)
    doc1 = next(r for r in search(files, "显存爆") if r["id"] == "doc1")
    weights = {u["unit"]: u["weight"] for u in doc1["explain"]["units"]}
    assert weights["爆"] == pytest.approx(0.5 * math.log(1 + 8 / 2), abs=1e-3)
    assert rank(files, "显存爆") == ["doc1", "doc0", "doc2"]
    assert rank(files, "显存爆", options={"characterWeight": 0})[:2] == ["doc0", "doc1"]
    # 了 is in three entries of eight, more than a quarter: it does not count
    assert "了" not in search(files, "显存了")[0]["explain"]["queryUnits"]
    assert rank(files, "显存了")[:2] == ["doc0", "doc1"]
    assert rank(files, "显存了", options={"maxCharacterShare": 0.5})[:2] == ["doc1", "doc0"]


def test_a_query_of_common_characters_only_is_weighed_by_them():
    # 卡 is in four entries of eight, more than a quarter: alone in the query it still decides, doc1 (title) before
    # doc0 (steps, scoring higher), instead of every entry at 0; beside a word that is weighed it counts nothing
    postings = [0, 900, STEPS | ALONE, 1, 100, TITLE | ALONE, 2, 1, STEPS | ALONE, 3, 1, STEPS | ALONE]
    found = search(index({"卡": postings}, 8), "卡")
    assert [r["id"] for r in found[:2]] == ["doc1", "doc0"]
    weights = {u["unit"]: u["weight"] for u in found[0]["explain"]["units"]}
    assert weights["卡"] == pytest.approx(0.5 * math.log(1 + 8 / 4), abs=1e-3)  # as a lone character
    assert found[1]["explain"]["decidedBy"] == "words"
    beside = search(index({"卡": postings, "显存": [0, 900, STEPS, 1, 100, STEPS]}, 8), "显存卡")
    assert [r["id"] for r in beside[:2]] == ["doc0", "doc1"]
    # --explain names it, with its entries; alone it was weighed, so nothing is named
    assert beside[0]["explain"]["commonCharacters"] == [{"term": "卡", "entries": 4}]
    assert found[0]["explain"]["commonCharacters"] == []


def test_a_word_of_a_synonym_phrase_in_more_than_a_quarter_of_the_entries_stands_for_nothing():
    # gamma's group has the phrase "alpha beta": beta is in doc0's title and two more of eight entries, alpha in doc1's
    # steps only; gamma itself is in doc7's steps
    terms = {"alpha": [1, 100, STEPS], "beta": [0, 900, TITLE | title_chars(0, 4), 2, 1, STEPS, 3, 1, STEPS],
             "gamma": [7, 100, STEPS]}
    files = index(terms, 8, synonyms=[[["gamma"], ["alpha", "beta"]]])
    # beta, in three of eight, stands for nothing (--explain says so); alpha, in one, for its half of the phrase (0.5 × 0.5 × 0.2)
    found = search(files, "gamma")
    assert [r["id"] for r in found] == ["doc7", "doc1"] and found[0]["explain"]["common"] == [{"term": "beta", "entries": 3}]
    # counted, beta in doc0's title (0.5 × 0.5 × 1) outranks gamma typed in doc7's steps (0.2)
    assert rank(files, "gamma", options={"maxPhraseWordShare": 0.5})[:2] == ["doc0", "doc7"]
    # exactly a quarter still counts: beta in two of eight
    del terms["beta"][-3:]
    assert rank(index(terms, 8, synonyms=[[["gamma"], ["alpha", "beta"]]]), "gamma")[0] == "doc0"
    # a phrase of one word is the group's meaning whole, however common (gamma's group: delta, in four of eight)
    files = index({"delta": [0, 900, TITLE | title_chars(0, 5), 2, 1, STEPS, 3, 1, STEPS, 4, 1, STEPS],
                   "gamma": [7, 100, STEPS]}, 8, synonyms=[[["gamma"], ["delta"]]])
    assert rank(files, "gamma")[0] == "doc0"


def test_a_capped_term_counts_as_in_as_many_entries_as_the_index_says():
    # the index lists at most 400 entries a term (MAX_POSTINGS) and says how many have it: alpha is listed in doc0 only
    # but is in 30 of 40 entries; beta, in doc1, in one
    terms = {"alpha": [0, 900, STEPS], "beta": [1, 100, STEPS], "gamma": [n for d in range(2, 40) for n in (d, 1, STEPS)]}
    assert rank(index(terms, 40, entries={"alpha": 30}), "alpha beta")[0] == "doc1"
    # as listed, alpha would be as rare as beta, and doc0 win on its score
    assert rank(index(terms, 40), "alpha beta")[0] == "doc0"


def test_a_unit_counts_as_in_the_entries_that_have_it_whole_or_else_the_most_of_its_terms_each_for_its_share():
    def weight(files, query, unit):
        return next(u["weight"] for u in search(files, query)[0]["explain"]["units"] if u["unit"] == unit)
    # alpha in 30 of 40 entries, its synonym delta (a phrase of one word: the unit whole) in 12: 30 counts
    terms = {"alpha": [0, 900, STEPS], "delta": [1, 100, STEPS]}
    files = index(terms, 40, synonyms=[[["alpha"], ["delta"]]], entries={"alpha": 30, "delta": 12})
    assert weight(files, "alpha", "alpha") == pytest.approx(math.log(1 + 40 / 30), abs=1e-3)
    # 显存不足 whole in one entry (two, the floor), though 显存, half of it, is in 30: the unit counts as in two
    rare = {"显存": [0, 900, STEPS], "不足": [0, 900, STEPS], "显存不足": [1, 100, STEPS]}
    assert weight(index(rare, 40, entries={"显存": 30}), "显存不足", "显存不足") == pytest.approx(math.log(1 + 40 / 2), abs=1e-3)
    # listed in doc1 only, but in 12 entries by the index's count
    files = index(rare, 40, entries={"显存": 30, "显存不足": 12})
    assert weight(files, "显存不足", "显存不足") == pytest.approx(math.log(1 + 40 / 12), abs=1e-3)
    # 执行程序, which no entry has whole (执行 and 程序 cross 行程): 执行 in 30 entries is half of it, the unit counts as in 15
    files = index({"执行": [0, 900, STEPS], "行程": [1, 100, STEPS], "程序": [1, 100, STEPS]}, 40, entries={"执行": 30})
    assert weight(files, "执行程序", "执行程序") == pytest.approx(math.log(1 + 40 / 15), abs=1e-3)

    # the entries of each term counted together: 显存不足 in six entries (which say 显存 too), its synonym 爆显存 in four
    # others, 显存 alone in 30 more: whole in ten of 100
    def listed(first: int, count: int) -> list[int]:
        return [value for d in range(first, first + count) for value in (d, 100, STEPS)]

    files = index({"显存不足": listed(0, 6), "爆显存": listed(6, 4), "显存": listed(0, 6) + listed(10, 30)}, 100,
                  synonyms=[[["显存不足"], ["爆显存"]]])
    assert weight(files, "显存不足", "显存不足") == pytest.approx(math.log(1 + 100 / 10), abs=1e-3)
    # and in part: 执行 in ten entries, 程序 in ten others, 行程 in one more, each half of 执行程序: ten and a half in all
    files = index({"执行": listed(0, 10), "行程": [20, 100, STEPS], "程序": listed(10, 10)}, 40)
    assert weight(files, "执行程序", "执行程序") == pytest.approx(math.log(1 + 40 / 10.5), abs=1e-3)


def test_a_word_of_the_query_is_as_rare_as_its_whole():
    # 显存不足 崩溃: doc1 has 显存不足 in its steps; doc0 崩溃 (in six of 40 entries) in its steps. 显存, half of 显存不足,
    # is in 30 entries: counted by its parts, 显存不足 would be as rare as 15 entries (1.299) and doc0's 崩溃 (2.037) win
    files = index({"崩溃": [0, 900, STEPS], "显存不足": [1, 100, STEPS], "显存": [2, 100, STEPS]}, 40,
                  entries={"崩溃": 6, "显存": 30})
    found = search(files, "显存不足 崩溃")
    assert [r["id"] for r in found] == ["doc1", "doc0", "doc2"]
    assert [(u["unit"], u["weight"]) for u in found[0]["explain"]["units"]] == [("显存不足", pytest.approx(math.log(1 + 40 / 2), abs=1e-3))]
    assert [(u["unit"], u["weight"]) for u in found[1]["explain"]["units"]] == [("崩溃", pytest.approx(math.log(1 + 40 / 6), abs=1e-3))]


def test_a_capped_character_or_phrase_word_in_more_than_a_quarter_of_the_entries_counts_nothing():
    # 了 listed in doc0 only, but in 11 of 40 entries: more than a quarter
    terms = {"显存": [0, 100, STEPS, 1, 900, STEPS], "了": [0, 100, STEPS], "gamma": [2, 1, STEPS]}
    found = search(index(terms, 40, entries={"了": 11}), "显存了")
    assert "了" not in found[0]["explain"]["queryUnits"] and found[0]["id"] == "doc1"
    assert first(index(terms, 40), "显存了") == "doc0"
    # beta of the phrase "alpha beta" listed in doc0's title only, but in 11 of 40 entries
    terms = {"alpha": [1, 100, STEPS], "beta": [0, 900, TITLE | title_chars(0, 4)], "gamma": [7, 100, STEPS]}
    synonyms = [[["gamma"], ["alpha", "beta"]]]
    assert rank(index(terms, 40, synonyms=synonyms, entries={"beta": 11}), "gamma") == ["doc7", "doc1"]
    assert first(index(terms, 40, synonyms=synonyms), "gamma") == "doc0"


def test_a_lone_character_inside_longer_words_of_the_entry_counts_half_its_match():
    # 爆 of 显存爆: doc0 has it in its symptoms only inside a longer word (梯度爆炸: 0.8 × 0.5), doc1 as a word of
    # its own in its quick fix (显存爆了: 0.6); 显存 in both, doc0 scores higher
    terms = {"显存": [0, 900, STEPS, 1, 100, STEPS], "爆": [0, 900, SYMPTOMS, 1, 100, QUICK_FIX | ALONE],
             "其他": [2, 1, STEPS, 3, 1, STEPS, 4, 1, STEPS, 5, 1, STEPS, 6, 1, STEPS, 7, 1, STEPS]}
    files = index(terms, 8)
    assert rank(files, "显存爆")[:2] == ["doc1", "doc0"]
    assert _matches(search(files, "显存爆")[1])["爆"] == pytest.approx(0.4)
    assert rank(files, "显存爆", options={"insideWordMatch": 1})[:2] == ["doc0", "doc1"]


def test_a_word_that_only_overlaps_the_entrys_words_counts_half_its_match():
    # 定性: doc0 has it in its tags only where it overlaps the entry's words (稳定性: 0.8 × 0.5), doc1 as a word of its
    # own in its quick fix (定性分析: 0.6)
    terms = {"定性": [0, 900, TAGS | OVERLAP, 1, 100, QUICK_FIX]}
    files = index(terms, 2)
    assert rank(files, "定性") == ["doc1", "doc0"]
    assert _matches(search(files, "定性")[1])["定性"] == pytest.approx(0.4)
    assert rank(files, "定性", options={"insideWordMatch": 1}) == ["doc0", "doc1"]


def test_a_word_matched_in_part_counts_its_share():
    # 显存不足 whole in doc1's steps; its part 显存 in doc0's title; both in steps, doc1 wins as it has all of it
    terms = {"显存不足": [1, 100, STEPS], "显存": [0, 900, STEPS, 1, 100, STEPS], "不足": [1, 100, STEPS]}
    files = index(terms, 2)
    results = search(files, "显存不足")
    assert [r["id"] for r in results] == ["doc1", "doc0"]
    assert [_matches(r)["显存不足"] for r in results] == [0.2, 0.1]  # all of it in the steps; half of it


def test_words_that_cross_are_one_unit_of_the_query():
    # 执行程序: 执行 and 程序 (doc1, quick fix), and 行程 (doc0, title), which reads across them. 执行 and 程序 are in ten
    # entries each, 行程 in one (in a title of 16 characters): as a unit of its own, rare 行程 would outweigh both
    # (doc0 0.58, doc1 0.25). As one unit, doc1 matches all of it at 0.6, doc0 half of it at 1 (its title 1/8 covered
    # and holding half the query: 0.5 × 1.125 in the words rule)
    def common(first: int) -> list[int]:
        return [value for n in range(first, first + 10) for value in (n, 100, STEPS)]

    files = index({"执行": [1, 100, QUICK_FIX, *common(2)], "程序": [1, 100, QUICK_FIX, *common(10)],
                   "行程": [0, 900, TITLE | title_chars(16, 0)]}, 20)
    results = search(files, "执行程序")
    assert results[0]["explain"]["queryUnits"] == ["执行程序"]
    assert [(r["id"], _matches(r)["执行程序"]) for r in results[:2]] == [("doc1", 0.6), ("doc0", 0.5)]


def test_an_identifier_is_found_whole():
    # torch.load is an identifier of doc1; doc0 has both words apart
    files = index({"torch": [0, 900, STEPS, 1, 100, STEPS], "load": [0, 900, STEPS, 1, 100, STEPS],
                   "torch_load": [1, 100, STEPS]}, 2)
    assert rank(files, "torch.load") == ["doc1", "doc0"]
    assert rank(files, "torch load") == ["doc0", "doc1"]


def test_two_edits_count_less_than_one():
    # 11 letters: corrected by up to two edits. doc0's term is two edits from the first word, doc1's one from the second
    files = index({"abcdefghixx": [0, 900, STEPS], "lmnopqrstuw": [1, 100, STEPS]}, 2,
                  words={11: ["abcdefghixx", "lmnopqrstuw"]})
    assert rank(files, "abcdefghijk lmnopqrstuv") == ["doc1", "doc0"]
    same = {**_readings(), "typo2": _readings()["typo1"]}
    assert rank(files, "abcdefghijk lmnopqrstuv", options={"readings": same}) == ["doc0", "doc1"]


def test_words_are_corrected_from_five_letters_and_by_two_edits_from_nine():
    files = index({"cuda": [0, 100, STEPS], "timeout": [1, 100, STEPS], "serveraliveinterval": [0, 100, STEPS]}, 2,
                  words={4: ["cuda"], 7: ["timeout"], 19: ["serveraliveinterval"]})
    assert rank(files, "cdua") == []  # four letters: not corrected
    assert rank(files, "cdua", options={"typoMinChars": [0, 4, 9]}) == ["doc0"]
    assert rank(files, "timout") == ["doc1"]  # six letters, one edit
    assert rank(files, "tmout") == []  # two edits, but fewer than nine letters
    assert rank(files, "tmout", options={"typoMinChars": [0, 5, 5]}) == ["doc1"]
    assert rank(files, "serveralivintervl") == ["doc0"]  # seventeen letters, two edits


def test_a_correction_agrees_with_the_rest_of_the_query():
    # `abcdefghij` (10 letters) is one edit from abcdefghik (doc0 alone) and two from abcdefghxx, which doc1 has
    # together with alpha, the other word of the query: the agreeing one is taken although it is farther
    files = index({"alpha": [1, 100, STEPS], "abcdefghik": [0, 900, STEPS], "abcdefghxx": [1, 100, STEPS]}, 2,
                  words={5: ["alpha"], 10: ["abcdefghik", "abcdefghxx"]})
    assert rank(files, "alpha abcdefghij") == ["doc1"]
    assert rank(files, "abcdefghij") == ["doc0"]  # alone, the nearest
    # the nearest alone: doc0 matches through it, below doc1 which matches alpha typed
    assert rank(files, "alpha abcdefghij", options={"maxCandidates": 1}) == ["doc1", "doc0"]


def test_twelve_candidates_are_weighed_for_agreement():
    decoys = [f"abcdefgh{c}j" for c in "klmnopqrstuv"]  # one edit from abcdefghij each, in doc0
    terms = {"alpha": [1, 100, STEPS], "abcdefghxx": [1, 100, STEPS]} | {d: [0, 900, STEPS] for d in decoys}
    for count, found in ((11, ["doc1"]), (12, ["doc1", "doc0"])):  # the agreeing term is the 12th candidate, or the 13th
        kept = decoys[:count]
        files = index({t: p for t, p in terms.items() if t not in decoys or t in kept}, 2,
                      words={5: ["alpha"], 10: sorted(kept + ["abcdefghxx"])})
        assert rank(files, "alpha abcdefghij", options={"maxCorrections": 12}) == found, count


def test_at_most_three_corrections_per_word():
    terms = {w: [n, 100 * (n + 1), STEPS] for n, w in enumerate(["abcdx", "abcdy", "abcdz", "abcdw"])}
    files = index(terms, 4, words={5: sorted(terms)})
    assert len(rank(files, "abcdv")) == 3
    assert len(rank(files, "abcdv", options={"maxCorrections": 4})) == 4


def test_only_the_first_eight_unknown_words_are_corrected():
    words = [f"word{c}x" for c in "abcdefghi"]  # nine misspelt words; each is one edit from its term
    terms = {f"word{c}y": [n, 100, STEPS] for n, c in enumerate("abcdefghi")}
    files = index(terms, 9, words={6: sorted(terms)})
    assert sorted(rank(files, " ".join(words))) == [f"doc{n}" for n in range(8)]
    assert len(rank(files, " ".join(words), options={"maxCorrectedWords": 9})) == 9


def test_the_last_word_is_read_as_the_terms_it_begins_while_it_is_typed():
    # Material searches at every key: `driver nvid` is `driver nvidia` half typed. doc1 has both words, doc0 driver alone
    # at a higher score; read as typed, nvid matches nothing and doc0 wins
    files = index({"driver": [0, 900, STEPS, 1, 100, STEPS], "nvidia": [1, 100, STEPS]}, 2, completions={"nvi": ["nvidia"]})
    assert rank(files, "driver nvid") == ["doc1", "doc0"]
    assert rank(files, "driver nvid", off=("completions",)) == ["doc0", "doc1"]
    assert rank(files, "nvid driver") == ["doc0", "doc1"]  # not the last word: typed whole
    assert rank(files, "driver nvi") == ["doc1", "doc0"]  # from three letters
    assert rank(files, "driver nv") == ["doc0", "doc1"]
    # a word that is a term may be the start of a longer one too (nvidia on the way to nvidia-smi): it stands for itself
    # as typed and for the longer terms at a completion's 0.5 (since 2026-12-07): nvidiasmi in a title before nvidia in
    # the steps, as Meilisearch's attribute rule orders its prefix matches; in the same field, nvidia first
    whole = index({"nvidia": [0, 100, STEPS], "nvidiasmi": [1, 900, TITLE]}, 2, completions={"nvi": ["nvidia", "nvidiasmi"]})
    assert rank(whole, "nvidia") == ["doc1", "doc0"]
    same = index({"nvidia": [0, 100, STEPS], "nvidiasmi": [1, 900, STEPS]}, 2, completions={"nvi": ["nvidia", "nvidiasmi"]})
    assert rank(same, "nvidia") == ["doc0", "doc1"]
    # clos is a term (close's stem), but typed it is read by its own stem, clo: unknown; it completes to longer terms only
    stems = index({"clos": [0, 900, TITLE], "closur": [1, 100, STEPS]}, 2, completions={"clo": ["clos", "closur"]})
    assert rank(stems, "clos") == ["doc1"]


def test_a_completion_agrees_with_the_rest_of_the_query():
    # abcdx is in three entries, abcdy in one, with alpha: of one completion, the agreeing one; alone, the most entries'
    files = index({"alpha": [3, 100, STEPS], "abcdx": [0, 900, STEPS, 1, 900, STEPS, 2, 900, STEPS], "abcdy": [3, 100, STEPS]},
                  4, completions={"abc": ["abcdx", "abcdy"]})
    assert rank(files, "alpha abcd", options={"maxCorrections": 1}) == ["doc3"]
    assert rank(files, "abcd", options={"maxCorrections": 1}) == ["doc0", "doc1", "doc2"]
    # of twelve candidates, those in the most entries: the agreeing term thirteenth is not weighed
    decoys = {f"abcd{c}": [0, 900, STEPS] for c in "efghijklmnop"}
    crowded = index({"alpha": [3, 100, STEPS], "abcdy": [3, 100, STEPS], **decoys}, 4,
                    completions={"abc": [*decoys, "abcdy"]})
    assert rank(crowded, "alpha abcd", options={"maxCorrections": 1}) == ["doc3", "doc0"]
    assert rank(crowded, "alpha abcd", options={"maxCorrections": 1, "maxCandidates": 13}) == ["doc3"]


def test_two_chinese_words_next_to_each_other_are_read_in_the_other_order_as_the_word_they_make():
    # 显存爆: 爆显存. doc1 says 爆显存 only; doc0 has 显存 in its title and 爆 in its steps
    files = index({"显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "爆显存": [1, 100, TITLE]}, 8)
    found = search(files, "显存爆")
    assert [r["id"] for r in found] == ["doc1", "doc0"]
    assert _matches(found[0]) == {"显存": 1, "爆": 1}  # the word stands for both, as typed: weight 1
    assert found[0]["explain"]["rules"]["typo"] == 2  # and costs 1 for each
    assert rank(files, "显存爆", off=("reorders",)) == ["doc0"]
    readings = {**_readings(), "reorder": {"weight": 0.25, "penalty": 3}}
    assert rank(files, "显存爆", options={"readings": readings}) == ["doc0", "doc1"]
    # words apart are not read together; converted ones are (顯存 is 显存)
    assert rank(files, "显存 爆") == ["doc0"]
    traditional = index({"显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "爆显存": [1, 100, TITLE]}, 8, variants={"顯存": ["显存"]})
    assert rank(traditional, "顯存爆") == ["doc1", "doc0"]
    # a word of the vocabulary that no entry says brings in its group
    vocabulary = index({"显存": [0, 900, TITLE], "爆": [0, 900, STEPS], "显存不足": [1, 100, TITLE]}, 8,
                       synonyms=[[["爆显存"], ["显存不足"]]])
    assert rank(vocabulary, "显存爆") == ["doc0", "doc1"]
    assert rank(vocabulary, "显存爆", off=("reorders",)) == ["doc0"]


def test_a_word_being_typed_is_read_as_the_chinese_terms_whose_pinyin_it_begins():
    # banben xianc: 版本, then xian + c… half typed. doc1 has 版本 and 显存 (xiancun), doc0 版本 alone at a higher score
    files = index({"版本": [0, 900, STEPS, 1, 100, STEPS], "显存": [1, 100, STEPS]}, 2,
                  pinyin={"banben": ["版本"], "xiancun": ["显存"]})
    assert rank(files, "banben xianc") == ["doc1", "doc0"]
    assert rank(files, "banben xianc", off=("completions",)) == ["doc0", "doc1"]
    # of the readings the word begins, the shortest first: with one candidate, xiancun (7 letters), not xianchang
    two = index({"现场": [0, 900, TITLE], "显存": [1, 100, STEPS]}, 2, pinyin={"xianchang": ["现场"], "xiancun": ["显存"]})
    assert rank(two, "xianc", options={"maxCandidates": 1}) == ["doc1"]
    assert rank(two, "xianc") == ["doc0", "doc1"]


def test_pinyin_being_typed_after_an_apostrophe_is_read_as_the_terms_it_begins():
    # an input method composing 显存 shows xian'c in the search box (the apostrophe is pinyin's syllable mark): read as
    # xianc is. doc1 has 版本 and 显存, doc0 版本 alone at a higher score
    files = index({"版本": [0, 900, STEPS, 1, 100, STEPS], "显存": [1, 100, STEPS]}, 2,
                  pinyin={"banben": ["版本"], "xiancun": ["显存"]})
    assert rank(files, "banben xian'c") == ["doc1", "doc0"]
    assert rank(files, "banben xian'c", off=("completions",)) == ["doc0", "doc1"]
    assert rank(files, "banben xian'c  ") == ["doc1", "doc0"]  # spaces after it: still the last
    assert rank(files, "xian'c banben") == ["doc0", "doc1"]  # another word after it: not being typed
    assert rank(files, "banben xian c") == ["doc0", "doc1"]  # a typed space is a word break
    # letters before an apostrophe that are no syllables make no pinyin (as can't is none)
    assert rank(files, "banben x'ianc") == ["doc0", "doc1"]
    assert rank(index({"显存": [1, 100, STEPS]}, 2, pinyin={"xixiancun": ["显存"]}, syllables="xi xian cun"), "xi'x'ianc") == []
    short = index({"显存": [1, 100, STEPS]}, 2, pinyin={"xiancun": ["显存"]}, syllables="x xi xian cun")
    assert rank(short, "xi'a") == ["doc1"]  # three letters in all are enough, two are not
    assert rank(short, "x'i") == []
    # finished (xian'cun is xiancun, 显存): not completed to the longer 显存不足 (doc0)
    whole = index({"显存不足": [0, 900, STEPS], "显存": [1, 100, STEPS]}, 2, pinyin={"xiancun": ["显存"], "xiancunbuzu": ["显存不足"]})
    assert rank(whole, "xian'cun") == ["doc1"]
    assert rank(whole, "xian'cu") == ["doc0", "doc1"]
    # the syllables of what is being typed are not misspelt words: zhuang is not corrected to zhuan (doc0)
    longer = index({"现状测试": [1, 100, STEPS], "zhuan": [0, 900, STEPS]}, 2, pinyin={"xianzhuangceshi": ["现状测试"]},
                   words={5: ["zhuan"]}, syllables="xian zhuang ce shi")
    assert rank(longer, "xian'zhuang'c") == ["doc1"]


def test_an_identifier_being_typed_is_read_as_the_identifiers_it_begins_and_so_is_its_last_word():
    # doc1 says nvidia-smi; doc0 has nvidia and sm (of sm_89) at a higher score, doc2 sm alone: nvidia-sm is nvidia-smi
    # half typed, its sm read as smi begun more than as the word sm
    files = index({"nvidia": [0, 900, STEPS, 1, 100, STEPS], "sm": [0, 900, STEPS, 2, 100, STEPS], "nvidia_smi": [1, 100, STEPS]},
                  3, completions={"nvi": ["nvidia_smi"]})
    assert rank(files, "nvidia-sm") == ["doc1", "doc0", "doc2"]
    assert rank(files, "nvidia-sm", off=("completions",)) == ["doc0", "doc1", "doc2"]
    assert rank(files, "nvidia-sm  ") == ["doc1", "doc0", "doc2"]  # spaces after it: still the last
    assert rank(files, "nvidia-sm sm") == ["doc0", "doc1", "doc2"]  # another word after it: not being typed
    # an identifier the index has earlier in the query is no matter: the last is still being typed
    known = index({**files["t/0.json"]["terms"], "cuda_oom": [0, 900, STEPS, 1, 100, STEPS]}, 3, completions={"nvi": ["nvidia_smi"]})
    assert rank(known, "cuda_oom nvidia-sm") == ["doc1", "doc0", "doc2"]
    # typed whole, read as typed: not completed to the longer nvidia_smi_q (doc0)
    whole = index({"nvidia_smi_q": [0, 900, STEPS], "nvidia_smi": [1, 100, STEPS]}, 2,
                  completions={"nvi": ["nvidia_smi_q", "nvidia_smi"]})
    assert rank(whole, "nvidia_smi") == ["doc1"]
    assert rank(whole, "nvidia_sm") == ["doc0", "doc1"]
    # an identifier the index has joined is whole too: time-out is timeout (doc1), not time_out_error half typed (doc0)
    joined = index({"time_out_error": [0, 900, STEPS], "timeout": [1, 100, STEPS]}, 2,
                   completions={"tim": ["time_out_error", "timeout"]})
    assert rank(joined, "time-out") == ["doc1"]
    # a word being typed completes to words only: nvid is nvidia (doc1), not nvidia_smi (doc0)
    words = index({"nvidia_smi": [0, 900, STEPS], "nvidia": [1, 100, STEPS]}, 2, completions={"nvi": ["nvidia_smi", "nvidia"]})
    assert rank(words, "nvid") == ["doc1"]


def test_a_word_being_typed_that_begins_terms_is_not_corrected():
    # checkp is one edit from check (doc0) and begins checkpoint (doc1): half typed, not misspelt
    files = index({"check": [0, 900, STEPS], "checkpoint": [1, 100, STEPS]}, 2, words={5: ["check"]},
                  completions={"che": ["check", "checkpoint"]})
    assert rank(files, "checkp") == ["doc1"]
    assert rank(files, "checkp", off=("completions",)) == ["doc0"]


def test_a_last_word_the_index_has_stands_for_the_longer_terms_it_begins_too():
    # cli on the way to clip: doc0 has cli, doc1 gradient and clip; without the completion each matches one word of
    # two, as rare, and the score puts doc0 first
    files = index({"cli": [0, 900, TITLE], "gradient": [1, 100, TITLE], "clip": [1, 100, TITLE]}, 2,
                  completions={"cli": ["cli", "clip"]})
    found = search(files, "gradient cli")
    assert [r["id"] for r in found] == ["doc1", "doc0"]
    assert [_matches(r) for r in found] == [{"gradient": 1, "cli": 0.5}, {"cli": 1}]
    assert rank(files, "gradient cli", off=("completions",)) == ["doc0", "doc1"]
    assert rank(files, "cli gradient") == ["doc0", "doc1"]  # another word after it
    assert rank(files, "cli") == ["doc0", "doc1"]  # as typed before the terms it begins


def test_a_last_word_read_as_pinyin_is_not_pinyin_begun_whatever_else_is_unread():
    # xiancun is 显存 (doc1), whole; read as begun it would be 显存不足 too (doc0, at a higher score)
    files = index({"显存": [1, 100, STEPS], "显存不足": [0, 900, STEPS]}, 2,
                  pinyin={"xiancun": ["显存"], "xiancunbuzu": ["显存不足"]}, syllables="xian cun bu zu")
    assert rank(files, "xiancun") == ["doc1"]
    assert rank(files, "qqqq xiancun") == ["doc1"]  # qqqq: no term, no pinyin
    assert rank(files, "qqqq xiancunb") == ["doc0"]  # begun: 显存不足
    # nor English begun: change is 嫦娥 (doc1), not the start of changelog (doc0, in its title)
    english = index({"嫦娥": [1, 100, STEPS], "changelog": [0, 900, TITLE]}, 2, pinyin={"change": ["嫦娥"]},
                    completions={"cha": ["changelog"]})
    assert rank(english, "change") == ["doc1"]
    assert rank(english, "changel") == ["doc0"]


def test_a_name_being_typed_that_begins_terms_is_not_read_by_its_parts():
    # fail2b is fail2ban half typed (doc1), not fail (doc0, in its title) with a 2 and a b
    files = index({"fail": [0, 900, TITLE], "fail2ban": [1, 100, STEPS]}, 2, completions={"fai": ["fail", "fail2ban"]})
    assert rank(files, "fail2b") == ["doc1"]
    assert rank(files, "fail2b", off=("completions",)) == ["doc0"]
    assert rank(files, "fail2x") == ["doc0"]  # begins no term: its parts
    assert rank(files, "fail2b zzz") == ["doc0"]  # a word after it: typed whole, its parts


def test_the_message_rule_needs_eight_characters_whole_or_sixteen_in_part():
    terms = {t: [0, 900, STEPS, 1, 100, STEPS] for t in ("pod", "oom", "kill")}
    files = index(terms, 2, messages={1: ["oomkilled", "containerkilledbyoomkiller"]})
    assert first(files, "pod OOMKilled") == "doc1"  # a 9-character message, whole in the query
    assert first(files, "pod OOMKilled", options={"minMessageChars": 10}) == "doc0"
    assert first(files, "killed by oom kill") == "doc0"  # 15 characters of a message: too short for a part ...
    assert first(files, "killed by oom kill", options={"minPartialChars": 15}) == "doc1"
    assert first(files, "killed by oom kille") == "doc1"  # ... 16 are enough
    assert first(files, "killed by oom kille", options={"minPartialChars": 17}) == "doc0"


def test_the_query_that_is_more_of_a_message_comes_first():
    # both messages hold the query (18 characters); doc0 has its words in the title, but the query is 18 of its 75
    # characters (1) and 18 of doc1's 37 (1.25: a quarter step); with one step the words rule puts doc0 first
    terms = {t: [0, 900, TITLE, 1, 100, STEPS] for t in ("connection", "timed", "out")}
    files = index(terms, 2, messages={0: ["upstreamtimedout110connectiontimedoutwhilereadingresponseheaderfromupstream"],
                                      1: ["connecttohostport22connectiontimedout"]})
    assert [(r["id"], r["explain"]["rules"]["message"]) for r in search(files, "connection timed out")] == [
        ("doc1", 1.25), ("doc0", 1)]
    assert rank(files, "connection timed out", options={"partialMessageSteps": 1}) == ["doc0", "doc1"]


def test_a_misspelt_query_holds_a_message_within_the_edits_its_corrected_words_may_be_off_by():
    # doc0 has the words in its title and no message; doc1's message holds `connection timed out`, which `conection`
    # (9 letters: two edits) misses by one: corrected to connection, the key is doc1's message's as if typed right
    terms = {t: [0, 900, TITLE, 1, 100, STEPS] for t in ("connection", "time", "out")}
    files = index(terms, 2, words={10: ["connection"]}, messages={1: ["sshconnecttohostport22connectiontimedout"]})
    assert [(r["id"], r["explain"]["rules"]["message"]) for r in search(files, "conection timed out")] == [
        ("doc1", 1.25), ("doc0", 0)]
    assert rank(files, "connection timed outs") == ["doc0", "doc1"]  # nothing corrected: no edits
    assert rank(files, "conection timed out", off=("typos",)) == ["doc0", "doc1"]
    assert rank(files, "conection timed outt") == ["doc1", "doc0"]  # two edits, two allowed ...
    assert rank(files, "conection timed outt", options={"typoMinChars": [0, 5, 10]}) == ["doc0", "doc1"]  # ... one
    # a message's runs are apart where its text varies (a signature): the key is found inside one
    signature = index(terms, 2, words={10: ["connection"]}, messages={1: ["sshconnecttohostport22connectiontimed out"]})
    assert rank(signature, "conection timed out") == ["doc0", "doc1"]
    in_one_run = index(terms, 2, words={10: ["connection"]}, messages={1: ["sshconnecttohostport22connectiontimedout after"]})
    assert rank(in_one_run, "conection timed out") == ["doc1", "doc0"]


def test_a_messages_symbols_count_in_the_message_rule():
    # invalid load key, '<' is a web page saved as weights, 'v' a git-lfs pointer: the symbol is the message
    terms = {t: [0, 900, STEPS, 1, 100, STEPS] for t in ("invalid", "load", "key")}
    files = index(terms, 2, messages={0: ["invalidloadkeyv"], 1: ["invalidloadkey<"]})
    assert rank(files, "invalid load key, '<'.") == ["doc1", "doc0"]
    assert rank(files, "invalid load key, 'v'.") == ["doc0", "doc1"]


def test_a_message_listed_under_a_word_of_the_query_puts_its_entry_first_however_far_the_other_rules_put_it():
    # doc1's message is listed under key, its rarest word (since index format 6): found without its d/ file, past maxResults
    terms = {t: [0, 900, TITLE, 1, 100, STEPS] for t in ("invalid", "load", "key")}
    files = index(terms, 2, messages={1: ["invalidloadkeyv"]}, anchored={"key": [1, "invalidloadkeyv"]})
    assert rank(files, "invalid load key, 'v'.", options={"maxResults": 1}) == ["doc1"]
    assert rank(files, "invalid load key, '<'.", options={"maxResults": 1}) == ["doc0"]
    assert rank(files, "invalid load key, 'v'.", options={"maxResults": 1, "minMessageChars": 16}) == ["doc0"]


def test_a_signature_counts_as_a_message_when_the_query_holds_its_runs_in_order():
    # doc1's message is the runs of a signature, `Connection to <host> port <num>: Broken pipe` (index format 7): the
    # query holds them with other text between, in their order; their characters are counted without the spaces
    terms = {t: [0, 900, STEPS, 1, 100, STEPS] for t in ("connect", "port", "broken", "pipe")}
    files = index(terms, 2, messages={1: ["connectionto port brokenpipe"]})
    line = "packet_write_wait: Connection to 10.0.0.5 port 22: Broken pipe"
    assert first(files, line) == "doc1"
    assert first(files, "Broken pipe: port 22, Connection to 10.0.0.5") == "doc0"  # the runs in another order
    assert first(files, line, options={"minMessageChars": 26}) == "doc1"  # 12 + 4 + 10 characters
    assert first(files, line, options={"minMessageChars": 27}) == "doc0"
    # listed under a word of the query, the same: found past maxResults
    files = index(terms, 2, messages={1: ["connectionto port brokenpipe"]},
                  anchored={"pipe": [1, "connectionto port brokenpipe"]})
    assert rank(files, line, options={"maxResults": 1}) == ["doc1"]
    assert rank(files, "Broken pipe: port 22, Connection to 10.0.0.5", options={"maxResults": 1}) == ["doc0"]
    assert rank(files, line, options={"maxResults": 1, "minMessageChars": 27}) == ["doc0"]


def test_a_message_in_the_middle_of_a_long_paste_is_found_by_its_words_there():
    # alpha at both ends of a 230-character paste (the rules read its first and last 100), doc1's message in the
    # middle, listed under key: doc0 better by the words rule, doc1 first by the message rule
    files = index({"alpha": [0, 900, TITLE, 1, 100, STEPS], "key": [1, 100, STEPS]}, 2,
                  messages={1: ["invalidloadkeyv"]}, anchored={"key": [1, "invalidloadkeyv"]})
    paste = f"alpha {'x' * 100} invalid load key, 'v'. {'x' * 100} alpha"
    assert rank(files, paste, options={"maxResults": 1}) == ["doc1"]
    assert rank(files, paste, options={"maxResults": 1}, off=("message",)) == ["doc0"]


def test_at_most_ten_results():
    files = index({"alpha": [n for d in range(12) for n in (d, 100, STEPS)]}, 12)
    assert len(rank(files, "alpha")) == 10
    assert len(rank(files, "alpha", options={"maxResults": 11})) == 11


def test_a_long_paste_is_analysed_by_its_first_and_last_100_characters():
    # a log line names its error first, a traceback last: of a paste over 200 characters, its middle is left out
    files = index({"alpha": [0, 100, STEPS], "gamma": [1, 100, STEPS], "omega": [2, 100, STEPS]}, 3)
    whole = "alpha " + "x" * 90 + " gamma " + "x" * 91 + " omega"  # 200 characters, whole: gamma is not cut in two
    assert len(whole) == 200 and whole.index("gamma") == 97
    assert rank(files, whole) == ["doc0", "doc1", "doc2"]
    longer = "alpha " + "x" * 120 + " gamma " + "x" * 120 + " omega"  # gamma between the first and last 100
    assert rank(files, longer) == ["doc0", "doc2"]
    assert rank(files, longer, options={"maxQueryChars": 300}) == ["doc0", "doc1", "doc2"]


def items(files: dict, query: str, options: dict | None = None) -> list[list[dict]]:
    """Material's result items for `query`: [[entry, ...its sections], ...]."""
    script = """
        const {Engine} = require(process.argv[1]);
        const {fetcher} = require(process.argv[2]);
        const {files, query, options} = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        new Engine(fetcher(files), {options}).search(query)
          .then(found => console.log(JSON.stringify(found.items)));
    """
    done = subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS), str(NODE_HELPERS)], capture_output=True, text=True,
                          input=json.dumps({"files": files, "query": query, "options": options or {}}), encoding="utf-8",
                          check=True)
    return json.loads(done.stdout)


def test_with_no_result_the_terms_within_three_edits_are_offered():
    files = index({"kubernet": [0, 100, STEPS]}, 1, words={8: ["kubernet"]})
    [[item]] = items(files, "kubxyzet")  # three edits from kubernet: no correction (two at most), but offered
    assert item["title"] == "No results" and "kubernet" in item["text"]
    [[item]] = items(files, "kubxyzet", options={"closestEdits": 2})
    assert "kubernet" not in item["text"]


def test_a_manifest_of_another_format_is_refused_with_one_error_and_a_reload_item():
    files = index({"alpha": [0, 100, STEPS]}, 1)
    files["manifest.json"]["formatVersion"] = 1
    script = """
        const {Engine} = require(process.argv[1]);
        const {fetcher} = require(process.argv[2]);
        const files = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        const errors = [];
        console.error = (...args) => errors.push(args.join(" "));
        const engine = new Engine(fetcher(files));
        (async () => {
          const answers = [await engine.search("alpha"), await engine.search("alpha")];
          process.stdout.write(JSON.stringify({answers, errors}));
        })();
    """
    done = subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS), str(NODE_HELPERS)], input=json.dumps(files), capture_output=True,
                          text=True, encoding="utf-8", check=True)
    found = json.loads(done.stdout)
    assert found["errors"] == ["search: the index is format 1, this engine reads 16: reload the page"]  # once
    for answer in found["answers"]:
        assert answer["ranked"] == [] and [[item["title"] for item in group] for group in answer["items"]] == [
            ["The search index is out of date: reload the page"]]
