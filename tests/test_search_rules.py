"""Each ranking rule and each weight or threshold of the search engine guarded on a hand-made index: the expected
winner is never the first document and never wins by a tie, and the same query with the rule switched off (or the
threshold moved) ranks another entry first, so a change that drops or moves the rule fails here.
Run under node; no site build, no browser. Rules and options: docs/SEARCH.md, static/assets/search/ranking.js."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from pitfalls.settings import ENGINE_JS

TITLE, TAGS, QUICK_FIX, SYMPTOMS, STEPS = 1, 2, 4, 8, 16  # field bits of a posting's flags


def title_chars(han: int, latin: int) -> int:
    """The flags bits of a title term that carry the entry's title length (docs/SEARCH.md, "Index")."""
    return han << 8 | latin << 16


def index(terms: dict[str, list[int]], docs: int, *, synonyms=(), words=None, pinyin=None, messages=None,
          titles=None, variants=None) -> dict:
    """A hand-made index in the engine's format: one term shard, entries named doc0, doc1, …"""
    manifest = {
        "formatVersion": 2, "lang": "en", "docs": docs, "shards": 1, "maxTermChars": 12, "version": "x",
        "fields": [["title", "", "", 2], ["tags", "", "Tags", 1], ["quick_fix", "quick-fix", "Quick fix", 1],
                   ["symptoms", "symptoms", "Symptoms", 2], ["steps", "steps", "Steps", 0]],
        "titleCharsShift": [8, 16], "scoreScale": 100, "maxPostings": 400,
        "stopwords": ["the"], "synonyms": [list(group) for group in synonyms], "pinyinShards": 1,
        "syllables": "a ai an ban ben chang e xian cun", "wordLengths": sorted(words or {}),
        "messages": {"none": "No results", "closest": "Closest terms: {terms}", "browse": "Tags", "browseLocation": "tags/"},
    }
    files = {"manifest.json": manifest, "t/0.json": {"terms": terms, "variants": variants or {}}, "p/0.json": pinyin or {}}
    files |= {f"w/{n}.json": w for n, w in (words or {}).items()}
    files |= {f"d/{n}.json": {"location": f"doc{n}/", "title": (titles or {}).get(n, f"doc {n}"), "tags": [],
                              "sections": [], "messages": (messages or {}).get(n, [])} for n in range(docs)}
    return files


def rank(files: dict, query: str, off: tuple[str, ...] = (), options: dict | None = None) -> list[str]:
    """The entry ids `query` finds in `files`, best first."""
    script = """
        const {Engine} = require(process.argv[1]);
        const {files, query, off, options} = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        const engine = new Engine(async path => files[path.split("?")[0]], {off, options});
        engine.search(query).then(found => console.log(JSON.stringify(found.ranked.map(r => r.id))));
    """
    done = subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS)], capture_output=True, text=True,
                          input=json.dumps({"files": files, "query": query, "off": list(off), "options": options or {}}),
                          encoding="utf-8", check=True)
    return json.loads(done.stdout)


def first(files: dict, query: str, **kwargs) -> str:
    found = rank(files, query, **kwargs)
    return found[0] if found else None


# Each case: the rule, an index, a query, and the entry that comes first only because of that rule.
RULE_CASES = {
    # doc1's error message is in the query; doc0 scores higher
    "message": (index({"illeg": [0, 900, STEPS, 1, 100, STEPS], "memori": [0, 900, STEPS, 1, 100, STEPS]}, 2,
                      messages={1: ["illegalmemoryaccess"]}), "illegal memory access", "doc1"),
    # doc1 matches two words of the query, doc0 one, rarer than the two together (in one entry of eight; they
    # are in seven) and with a higher score
    "words": (index({"alpha": [0, 900, STEPS], "beta": [n for d in range(1, 8) for n in (d, 500 if d == 1 else 100, STEPS)],
                     "gamma": [n for d in range(1, 8) for n in (d, 100, STEPS)]}, 8), "alpha beta gamma", "doc1"),
    # doc1 matches the rare word (one entry), doc0 a word three entries have
    "rarity": (index({"alpha": [1, 100, STEPS], "beta": [0, 900, STEPS, 2, 100, STEPS, 3, 100, STEPS]}, 4),
               "alpha beta", "doc1"),
    # both match 显存; doc1 also has 爆, a character no word of the query covers, in one entry of four
    "characters": (index({"显存": [0, 900, STEPS, 1, 100, STEPS], "显": [0, 1, STEPS, 1, 1, STEPS],
                          "存": [0, 1, STEPS, 1, 1, STEPS], "爆": [1, 100, STEPS], "了": [2, 1, STEPS]}, 4),
                   "显存爆", "doc1"),
    # doc1 has the word typed, doc0 a synonym of it, with a higher score
    "typo": (index({"hang": [1, 100, STEPS], "freez": [0, 900, STEPS]}, 2, synonyms=[[["hang"], ["freez"]]]),
             "hang", "doc1"),
    # doc1 has the word in its symptoms, doc0 in its steps, with a higher score
    "attribute": (index({"alpha": [0, 900, STEPS, 1, 100, SYMPTOMS]}, 2), "alpha", "doc1"),
    # both titles have the word; doc1's title is shorter (9 letters against 14), doc0 scores higher
    "title": (index({"alpha": [0, 900, TITLE | title_chars(0, 14), 1, 100, TITLE | title_chars(0, 9)]}, 2),
              "alpha", "doc1"),
    # everything else equal, doc1 scores higher
    "score": (index({"alpha": [0, 100, STEPS, 1, 900, STEPS]}, 2), "alpha", "doc1"),
}


def test_every_rule_has_a_case():
    script = "console.log(JSON.stringify(require(process.argv[1]).ranking.RULE_NAMES))"
    rules = json.loads(subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS)], capture_output=True,
                                      text=True, check=True).stdout)
    assert rules == ["message", "words", "rarity", "characters", "typo", "attribute", "title", "score"]
    assert sorted(RULE_CASES) == sorted(rules)


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_rule_puts_its_entry_first(rule):
    files, query, expected = RULE_CASES[rule]
    assert expected != "doc0"
    assert first(files, query) == expected
    assert first(files, query, off=(rule,)) != expected, f"{rule}: {query!r} does not need the rule"


def test_rules_apply_in_order():
    # doc0 matches both words in its steps, doc1 one word in its title: more words beat a better place
    files = index({"alpha": [0, 100, STEPS, 1, 900, TITLE | title_chars(0, 5)], "beta": [0, 100, STEPS]}, 2)
    assert rank(files, "alpha beta") == ["doc0", "doc1"]
    assert rank(files, "alpha beta", off=("words", "rarity", "characters", "typo")) == ["doc1", "doc0"]
    # a typed word in the body beats a synonym in the title: typo comes before attribute
    files = index({"hang": [0, 100, STEPS], "freez": [1, 900, TITLE | title_chars(0, 4)]}, 2,
                  synonyms=[[["hang"], ["freez"]]])
    assert rank(files, "hang") == ["doc0", "doc1"]
    assert rank(files, "hang", off=("typo",)) == ["doc1", "doc0"]


def test_a_common_character_does_not_count():
    # 了 is in three entries of four (more than 0.25 of them): it does not lift doc1 over doc0
    files = index({"显存": [0, 900, STEPS, 1, 100, STEPS], "显": [0, 1, STEPS, 1, 1, STEPS], "存": [0, 1, STEPS, 1, 1, STEPS],
                   "爆": [1, 100, STEPS, 2, 1, STEPS], "了": [1, 1, STEPS, 2, 1, STEPS, 3, 1, STEPS]}, 4)
    assert first(files, "显存了") == "doc0"
    assert first(files, "显存了", options={"maxCharacterShare": 0.75}) == "doc1"
    # 爆 is in two entries of four: more than 0.25, so it counts only when the threshold is raised to half
    assert first(files, "显存爆") == "doc0"
    assert first(files, "显存爆", options={"maxCharacterShare": 0.5}) == "doc1"


PENALTIES = {"typed": 0, "variant": 1, "parts": 1, "pinyin": 1, "synonym": 1, "typo1": 1, "typo2": 2}
# Each reading costs more than a typed word in the typo rule: doc0 matches the query's first word through the
# reading (and scores higher), doc1 matches `alpha`, typed. Free of cost, the reading lets doc0 win on its score.
PENALTY_CASES = {
    "variant": (index({"显存": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2, variants={"顯存": ["显存"]}), "顯存 alpha"),
    "parts": (index({"opset": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2), "opset14 alpha"),
    "pinyin": (index({"嫦娥": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2, pinyin={"change": ["嫦娥"]}), "change alpha"),
    "synonym": (index({"freez": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2, synonyms=[[["hang"], ["freez"]]]),
                "hang alpha"),
    "typo1": (index({"version": [0, 900, STEPS], "alpha": [1, 100, STEPS]}, 2, words={5: ["alpha"], 7: ["version"]}),
              "versoin alpha"),
}


def test_every_reading_has_a_penalty_case():
    assert sorted(PENALTY_CASES) == sorted(set(PENALTIES) - {"typed", "typo2"})


@pytest.mark.parametrize("reading", sorted(PENALTY_CASES))
def test_a_reading_costs_more_than_a_typed_word(reading):
    files, query = PENALTY_CASES[reading]
    assert rank(files, query) == ["doc1", "doc0"]
    assert rank(files, query, options={"penalties": {**PENALTIES, reading: 0}}) == ["doc0", "doc1"]


def test_two_edits_cost_more_than_one():
    # 11 letters: corrected by up to two edits. doc0's term is two edits from the first word, doc1's one from the second
    files = index({"abcdefghixx": [0, 900, STEPS], "lmnopqrstuw": [1, 100, STEPS]}, 2,
                  words={11: ["abcdefghixx", "lmnopqrstuw"]})
    assert rank(files, "abcdefghijk lmnopqrstuv") == ["doc1", "doc0"]
    assert rank(files, "abcdefghijk lmnopqrstuv", options={"penalties": {**PENALTIES, "typo2": 1}}) == ["doc0", "doc1"]


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


def test_the_message_rule_needs_eight_characters_whole_or_sixteen_in_part():
    terms = {t: [0, 900, STEPS, 1, 100, STEPS] for t in ("pod", "oom", "kill")}
    files = index(terms, 2, messages={1: ["oomkilled", "containerkilledbyoomkiller"]})
    assert first(files, "pod OOMKilled") == "doc1"  # a 9-character message, whole in the query
    assert first(files, "pod OOMKilled", options={"minMessageChars": 10}) == "doc0"
    assert first(files, "killed by oom kill") == "doc0"  # 15 characters of a message: too short for a part ...
    assert first(files, "killed by oom kill", options={"minPartialChars": 15}) == "doc1"
    assert first(files, "killed by oom kille") == "doc1"  # ... 16 are enough
    assert first(files, "killed by oom kille", options={"minPartialChars": 17}) == "doc0"


def test_at_most_ten_results():
    files = index({"alpha": [n for d in range(12) for n in (d, 100, STEPS)]}, 12)
    assert len(rank(files, "alpha")) == 10
    assert len(rank(files, "alpha", options={"maxResults": 11})) == 11


def test_a_long_paste_is_analysed_by_its_first_200_characters():
    files = index({"alpha": [0, 100, STEPS], "omega": [1, 100, STEPS]}, 2)
    paste = "alpha " + "x" * 190 + " omega"  # omega starts at character 198 and ends after 200
    assert rank(files, paste) == ["doc0"]
    assert rank(files, paste, options={"maxQueryChars": 210}) == ["doc0", "doc1"]
