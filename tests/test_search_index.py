"""The search index as the engine reads it (pitfalls/pages/search_index.py, search_analysis.py, search_scoring.py):
the fields and what a match in each counts, the flags of a posting, BM25F's normalisation, what is indexed beside
the text (signatures, the other language, identifiers), the posting cap and the generated worker. The documented
numbers are written here as numbers (docs/SEARCH.md, "Index")."""

from __future__ import annotations

import json
import locale
import re
import shutil
import subprocess
import sys
from array import array
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest
import rjsmin

from pitfalls import text
from pitfalls.commands.search import run_queries
from pitfalls.pages.search_index import (
    ENGINE_MODULES,
    _completion_shards,
    _manifest,
    _pinyin_shards,
    _shard_count,
    _term_shards,
    _typo_words,
    _version,
    batch_template,
    build_index,
    carried_files,
    material_stub,
    query_stopwords,
    shard_homes,
    shard_key,
    shard_of,
    split_characters,
    worker_script,
    write_index,
    write_site_index,
)
from pitfalls.records.validate import load_knowledge_base
from pitfalls.settings import SEARCH_JS
from pitfalls.text import _converter, pinyin_reading, pinyin_syllables

TINY = Path(__file__).parent / "fixtures" / "tiny"
RECORD = """\
id: {id}
category: training
title: {{zh: "{title_zh}", en: "{title_en}"}}
quick_fix: {{zh: 减小批量, en: Lower the batch}}
symptoms:
  - {{zh: "{symptom}", en: "{symptom}"}}
steps:
  - {{zh: "{step}", en: "{step}"}}
tags: [cuda]
{extra}"""


def _content(tmp_path: Path, records: list[dict]) -> Path:
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    shutil.rmtree(content / "entries")
    (content / "entries").mkdir()
    for record in records:
        fields = {"title_zh": "标题", "title_en": "Title", "symptom": "现象", "step": "步骤", "extra": "", **record}
        (content / "entries" / f"{record['id']}.yml").write_text(RECORD.format(**fields), encoding="utf-8")
    return content


def _postings(index, term: str) -> dict[int, tuple[int, int]]:
    """entry number → (score, flags) of `term`."""
    for shard in index.shards:
        if term in shard["terms"]:
            flat = list(shard["terms"][term])
            return {flat[k]: (flat[k + 1], flat[k + 2]) for k in range(0, len(flat), 3)}
    return {}


def test_the_fields_and_what_a_match_in_each_counts(tmp_path):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}])), "zh")
    assert [(name, anchor, match) for name, anchor, _, match in index.manifest["fields"]] == [
        ("title", "", 1), ("tags", "", 0.8), ("quick_fix", "quick-fix", 0.6), ("symptoms", "symptoms", 0.8),
        ("steps", "steps", 0.2), ("cause", "cause", 0.2), ("verification", "verification", 0.2),
        ("environment", "environment", 0.2), ("translation", "", 0.4), ("keywords", "", 0.8)]
    assert index.manifest["formatVersion"] == 16 and index.manifest["titleCharsShift"] == [13, 21]
    assert index.manifest["aloneBit"] == 11 and index.manifest["overlapBit"] == 12


def test_a_title_term_carries_the_title_length(tmp_path):
    content = _content(tmp_path, [{"id": "a", "title_zh": "显存不足 (CUDA out of memory)"}])
    index = build_index(load_knowledge_base(content), "zh")
    _, flags = _postings(index, "显存")[0]
    # 4 Chinese characters; cuda + out + of + memori (this content has no filler words to leave out)
    assert flags & 0x1FFF == 1 and flags >> 13 & 0xFF == 4 and flags >> 21 & 0xFF == 4 + 3 + 2 + 6
    _, flags = _postings(index, "减小")[0]
    assert flags == 1 << 2  # the quick fix, and no title length


def test_a_character_cut_alone_is_flagged_one_only_inside_words_is_not(tmp_path):
    # jieba cuts 显存爆了 into 显存 / 爆 / 了, and keeps 梯度爆炸 whole: 爆 stands alone in b, only inside a word in a
    content = _content(tmp_path, [{"id": "a", "title_zh": "梯度爆炸"}, {"id": "b", "title_zh": "显存爆了"}])
    postings = _postings(build_index(load_knowledge_base(content), "zh"), "爆")
    assert {n: flags & 0x1FFF for n, (_, flags) in postings.items()} == {0: 1, 1: 1 | 1 << 11}


def test_a_word_that_only_overlaps_the_entrys_words_is_flagged_one_that_stands_is_not(tmp_path):
    # search mode cuts 数值稳定性 into 数值, 稳定, 定性, 稳定性; its own words are 数值 / 稳定性, and 稳定性's are 稳定 / 性:
    # 定性 only overlaps them in a. In b, 定性分析 is 定性 / 分析. In c, 定性 overlaps in the title, stands in a step
    content = _content(tmp_path, [{"id": "a", "title_zh": "数值稳定性"}, {"id": "b", "title_zh": "定性分析"},
                                  {"id": "c", "title_zh": "数值稳定性", "step": "定性分析"}])
    index = build_index(load_knowledge_base(content), "zh")
    # the flag is added to the fields the word was found in (title: bit 0, steps: bit 4), not put in their place
    fields_and_overlap = {n: flags & 0x1FFF for n, (_, flags) in _postings(index, "定性").items()}
    assert fields_and_overlap == {0: 1 | 1 << 12, 1: 1, 2: 1 | 1 << 4}
    assert {n: flags >> 12 & 1 for n, (_, flags) in _postings(index, "稳定").items()} == {0: 0, 2: 0}


def test_filler_and_the_echo_of_a_title_do_not_lengthen_it(tmp_path):
    content = _content(tmp_path, [{"id": "a", "title_zh": "OOM: out of memory (CUDA out of memory)"}])
    (content / "synonyms.yml").write_text("stopwords: [of]\n", encoding="utf-8")
    _, flags = _postings(build_index(load_knowledge_base(content), "zh"), "oom")[0]
    assert flags >> 21 & 0xFF == 3 + 3 + 6 + 4  # oom, out, memori, cuda: each once, `of` left out


def test_long_fields_are_normalised_by_length_short_ones_are_not(tmp_path):
    long_step = "很长的步骤 " + " ".join(f"词{n}" for n in range(60))
    content = _content(tmp_path, [{"id": "a", "step": "报错信息"}, {"id": "b", "step": f"报错信息 {long_step}"},
                                  {"id": "c", "title_zh": "显卡", "step": long_step}, {"id": "d", "title_zh": "显卡"}])
    index = build_index(load_knowledge_base(content), "zh")
    steps = _postings(index, "报错")
    assert steps[0][0] > steps[1][0]  # the same step word counts less in the longer entry
    titles = _postings(index, "显卡")
    assert titles[2][0] == titles[3][0]  # the same title word counts the same, however long the entry


def test_signatures_the_other_language_and_identifiers_are_indexed(tmp_path):
    extra = 'signatures:\n  - exact: "NCCL watchdog <num> timeoutzz"\n  - regex: "regexonlyzz"\n'
    content = _content(tmp_path, [{"id": "a", "title_en": "Gradient explosion", "step": "调用 torch.load 读取", "extra": extra}])
    index = build_index(load_knowledge_base(content), "zh")
    assert _postings(index, "timeoutzz")[0][1] & 1 << 3  # an exact signature: as a symptom
    assert not _postings(index, "regexonlyzz")  # a regex is no text
    assert _postings(index, "explosion")[0][1] & 1 << 8  # the English title, on the Chinese site: translation
    assert _postings(index, "torch_load")  # an identifier, whole
    assert not _postings(index, "num")  # placeholders are left out


@pytest.mark.parametrize("keywords", [True, False])
def test_a_word_only_the_keywords_say_finds_the_entry_as_its_labels_would(tmp_path, keywords):
    """c, the last entry, says 超时 in no text of its own, only in its keywords; a has it in its steps. As a statement
    of what the entry is about, a keyword counts as a label does (0.8) and puts c first; without its keywords, a comes
    first. Those in the other language count as the entry's translation."""
    extra = "keywords:\n  zh: [超时]\n  en: [idle timeout]\n" if keywords else ""
    content = _content(tmp_path, [{"id": "a", "step": "超时 之后重试"}, {"id": "b"},
                                  {"id": "c", "title_zh": "连接自动断开", "extra": extra}])
    index = build_index(load_knowledge_base(content), "zh")
    assert _postings(index, "超时").get(2, (0, 0))[1] & 0x1FFF == (1 << 9 if keywords else 0)
    assert _postings(index, "timeout").get(2, (0, 0))[1] & 0x1FFF == (1 << 8 if keywords else 0)
    write_site_index(load_knowledge_base(content), "zh", tmp_path / "site")
    [ranked] = run_queries(tmp_path / "site" / "search", ["超时"])
    assert [result["id"] for result in ranked][:1] == (["c"] if keywords else ["a"])


def test_a_phrase_the_index_has_apart_counts_where_a_keyword_says_it_as_typed(tmp_path):
    """端口占用 is no term: jieba cuts 端口 and 占用 apart. a and c both have the two words in their keywords, a as two
    keywords, c as the one 端口占用; a comes first by its BM25 score (the shorter keywords), c by the words rule once
    the keyword in c's d/ file says the query as typed (× 1 + 0.25 × all of the query). Index and engine together."""
    content = _content(tmp_path, [{"id": "a", "extra": "keywords:\n  zh: [端口, 占用]\n"}, {"id": "b"},
                                  {"id": "c", "extra": "keywords:\n  zh: [端口占用]\n"}])
    index = build_index(load_knowledge_base(content), "zh")
    assert _postings(index, "端口占用") == {} and _postings(index, "占用")  # its words are terms
    write_site_index(load_knowledge_base(content), "zh", tmp_path / "site")
    [ranked] = run_queries(tmp_path / "site" / "search", ["端口占用"])
    assert [result["id"] for result in ranked] == ["c", "a"]
    assert [result["explain"]["phrases"] for result in ranked] == [1, 0]
    assert ranked[1]["explain"]["decidedBy"] == "words"
    [ranked] = run_queries(tmp_path / "site" / "search", ["端口占用"], options={"phraseWeight": 0})
    assert [result["id"] for result in ranked] == ["a", "c"]


def test_a_term_keeps_its_400_best_entries(tmp_path):
    records = [{"id": f"e{n}", "step": "共同词" + " 填充" * (n % 7)} for n in range(401)]
    index = build_index(load_knowledge_base(_content(tmp_path, records)), "zh")
    kept = _postings(index, "共同")
    assert len(kept) == 400 and 0 in kept  # the shortest entries score highest and stay


def test_a_word_with_a_character_without_pinyin_is_indexed_without_a_reading(tmp_path):
    # 兙 (U+5159) has no reading in pypinyin's dictionary; a dictionary word with it used to stop the build
    content = _content(tmp_path, [{"id": "a", "title_zh": "兙兡报错"}])
    (content / "synonyms.yml").write_text("words: [兙兡]\n", encoding="utf-8")
    index = build_index(load_knowledge_base(content), "zh")
    assert _postings(index, "兙兡")
    readings = {key: terms for shard in index.pinyin for key, terms in shard.items()}
    assert readings["baocuo"] == ["报错"] and not [key for key, terms in readings.items() if "兙兡" in terms]
    # a term with such a character has no reading at all, not the reading of its other characters
    assert pinyin_reading("兙兡报错") is None and pinyin_reading("报错") == ["bao", "cuo"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_worker_is_the_modules_the_manifest_and_the_protocol(tmp_path, lang):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}])), lang)
    script = worker_script({"manifest.json": index.manifest})
    modules = ["options.js", "analysis.js", "query.js", "pinyin.js", "typos.js", "readings.js", "ranking.js", "matching.js", "results.js", "engine.js"]
    starts = [script.index(f".{name.removesuffix('.js')}=factory") if name != "engine.js" else script.index("Object.assign(search")
              for name in modules]
    assert starts == sorted(starts)  # each module after those it needs
    assert "importScripts" not in script and f'"version":"{index.manifest["version"]}"' in script
    # the files the worker carries, then its own modules, which read them
    assert script.index("self.PITFALLS_FILES") < script.index(".kept=factory") < script.index('addEventListener("message"')
    assert script.startswith("/* Generated by pitfalls/pages/search_index.py from static/assets/search/: options.js, ")
    # without the modules' comments and spaces (their files keep them): the engine's header comment is gone, its code stays
    assert "/* The site search engine" not in script and 'const FORMAT_VERSION=' in script
    assert len(script) < 0.75 * sum(len((SEARCH_JS / name).read_text(encoding="utf-8")) for name in (*modules, "kept.js", "protocol.js"))


def _run_worker(path: Path) -> dict:
    """Load the worker script at `path` in node with a Web Worker's globals (enough to load it) and send Material's
    SETUP (0): what it posted and the files it carries."""
    node = shutil.which("node")
    assert node, "node is needed: `make test` installs Debian's nodejs"
    script = """
        const vm = require("vm"), fs = require("fs");
        const posted = [], listeners = [];
        const worker = {location: {href: "http://localhost/zh/search/worker.js"}, URL, console,
                        addEventListener: (type, listener) => listeners.push(listener), postMessage: m => posted.push(m)};
        worker.self = worker;
        vm.runInNewContext(fs.readFileSync(process.argv[1], "utf-8"), worker);
        listeners.forEach(listener => listener({data: {type: 0}}));
        setTimeout(() => console.log(JSON.stringify({posted, files: worker.PITFALLS_FILES})), 0);
    """
    done = subprocess.run([node, "-e", script, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_worker_runs_as_one_script_and_answers_material(tmp_path):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}])), "zh")
    (tmp_path / "worker.js").write_text(worker_script(carried_files(index)), encoding="utf-8")
    ran = _run_worker(tmp_path / "worker.js")
    assert ran["posted"] == [{"type": 1}] and ran["files"]["manifest.json"]["lang"] == "zh"


def test_the_files_in_the_worker_are_compact_utf_8_and_cannot_end_its_script():
    script = worker_script({"manifest.json": {"lang": "zh", "title": "显存 </script><script>alert(1)</script>"}})
    # one JSON text in a single-quoted string, parsed as the worker starts (V8 reads JSON faster than an object literal)
    assert """self.PITFALLS_FILES = JSON.parse('{"manifest.json":{"lang":"zh","title":"显存 <\\/script><script>alert(1)<\\/script>"}}');\n""" in script


def test_the_files_in_the_worker_are_read_as_written(tmp_path):
    # what a JSON text and a JavaScript string escape differently: quotes, backslashes; and the line and paragraph
    # separators, which a JavaScript string holds as they are since ES2019
    title = "it\'s \"C:\\cuda\\bin\" \\' \n\u2028\u2029 </script> 显存"
    files = {"manifest.json": {"lang": "zh", "version": "0123456789ab"}, "0123456789ab/d/0.json": {"title": title, "n": [1, 2.5]}}
    (tmp_path / "worker.js").write_text(worker_script(files), encoding="utf-8")
    assert _run_worker(tmp_path / "worker.js")["files"] == files


def test_a_small_index_travels_whole_in_its_worker(tmp_path):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}, {"id": "b", "title_zh": "显存不足"}])), "zh")
    write_index(index, tmp_path / "search")
    folder = tmp_path / "search" / index.manifest["version"]
    files = [path for path in folder.rglob("*.json") if path.name != "batch.json"]  # batch.json: the server's, not the index's
    written = sum(path.stat().st_size for path in files)
    # keyed as the engine asks for them: the manifest by its name, the other files inside the version's folder, each
    # the data written there
    carried = carried_files(index)
    assert carried.pop("manifest.json") == index.manifest
    assert {path: json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=list) for path, data in carried.items()} \
        == {str(path.relative_to(tmp_path / "search")): path.read_text(encoding="utf-8") for path in files}

    def padded(total: int):
        """The index with one more d/ file, a string that brings the files to `total` bytes as written: Chinese
        characters (3 bytes each in UTF-8), so a limit counted in characters would carry it at every size here."""
        rest = total - written - 2  # the string's quotes
        return replace(index, docs=[*index.docs, "显" * (rest // 3) + "x" * (rest % 3)])

    assert len(carried_files(padded(262_144))) == len(index.files()) + 1  # every file, the new one too
    assert carried_files(padded(262_145)) == {"manifest.json": index.manifest}  # a byte more: only the manifest


def test_a_shard_is_fnv1a_over_the_code_points_of_the_shard_key():
    # FNV-1a, 32 bits: offset basis 0x811c9dc5, prime 0x01000193; modulo 2**32 leaves the hash itself
    assert shard_of("a", 2**32) == 0xE40C292C  # FNV-1a's published value for "a"
    assert shard_of("cuda", 2**32) == 0x8B82F8F6 and shard_of("cuda", 8) == 0x8B82F8F6 % 8 == 6
    # a Chinese term is keyed by its first character (one code point, not its UTF-8 bytes)
    assert shard_key("显存不足") == "显" and shard_key("cuda_oom") == "cuda_oom"
    assert shard_of("显存不足", 2**32) == shard_of("显", 2**32) == 0x3BA0AC21
    assert shard_of("显存不足", 5) == 0x3BA0AC21 % 5 == 4
    # by its first two where that character is split; a term of one character, or starting with another, as before
    split = frozenset("不显")
    assert shard_key("显存不足", split) == "显存" and shard_key("显", split) == "显" and shard_key("存储", split) == "存"
    assert shard_of("显存不足", 2**32, split) == shard_of("显存", 2**32, split) == 0x5765937B
    assert shard_of("显", 2**32, split) == 0x3BA0AC21
    assert shard_of("显𠀀", 2**32, split) == 34928627  # as analysis.js computes it (tests/js/analysis.test.js)


def test_a_synonym_groups_english_terms_are_kept_in_its_first_words_shard():
    groups = [[["显存不足"], ["oom"], ["out", "of", "memori"]], [["显存"], ["vram"], ["gpu", "memori"]],
              [["hang"], ["卡住"], ["freez"]], [["卡死"], ["hang"], ["stuck"]], [["freez"], ["假死"], ["frozen"]],
              [[]], [[], ["nan"]]]
    assert shard_homes(groups) == {
        "oom": "显存不足", "out": "显存不足", "of": "显存不足", "memori": "显存不足",  # with its first group: memori
        "vram": "显存", "gpu": "显存",
        "hang": "hang", "freez": "hang",  # an English first word keeps its own key, and its group's go with it
        "stuck": "卡死",  # hang stays with its first group
        "frozen": "hang",  # a first word an earlier group placed takes its group there
        "nan": "nan",  # an empty phrase is no first word; after an empty group, the next ones are read
    }
    # the index puts them there: oom and vram (and a message listed under oom) in the shard of 显存不足 and 显存 (显),
    # cuda, in no group, in its own; 40 terms of 1,998 postings (12,000 bytes each) make 64 shards, the power of two
    postings = {term: array("i", [0, 1, 100]) for term in ["显存不足", "oom", "cuda", "显存", "vram"]}
    postings |= {f"w{k}": array("i", range(1998)) for k in range(40)}
    shards, _ = _term_shards(postings, {}, ["显存不足", "显存"], [], {"oom": [0, "oomkill"]}, shard_homes(groups))
    where = {term: n for n, shard in enumerate(shards) for term in shard["terms"]}
    assert len(shards) == 64 and len({shard_of(term, 64) for term in ["显", "oom", "vram", "cuda"]}) == 4
    assert where["oom"] == where["vram"] == where["显存不足"] == shard_of("显", 64) and where["cuda"] == shard_of("cuda", 64)
    assert shards[where["oom"]]["messages"] == {"oom": [0, "oomkill"]}


def test_a_character_is_split_when_its_words_would_fill_more_than_24_kb():
    # a term's bytes as the shard count measures them: 3 a character and 6 a value of its postings
    assert split_characters({"显存": 12_000, "显卡": 12_000, "不足": 24_001, "cuda": 90_000}) == {"不"}
    assert split_characters({"显存": 12_000, "显卡": 12_001}) == {"显"}
    assert split_characters({"顯示卡": 30_000}) == {"顯"}  # a traditional form's first character too
    # split characters are keyed by two in the shards, and the manifest lists them for the engine
    postings = {"不足": array("i", range(4000)), "不同": array("i", range(600)), "显存": array("i", range(600))}
    shards, split = _term_shards(postings, {"不足": 4000}, [], [], {}, {})
    assert split == {"不"} and len(shards) == 4
    for k, shard in enumerate(shards):
        assert all(shard_of(term, 4, split) == k for term in shard["terms"])
    assert shard_of("不足", 4, split) != shard_of("不同", 4, split) and shard_of("不足", 4) == shard_of("不同", 4)
    # a capped term's count beside its postings (shard 1), not where its first character alone would put it (0)
    assert shards[1]["entries"] == {"不足": 4000} and shard_of("不足", 4) == 0
    # a traditional form starting with a split character too (不會 of 不会: 不 is written the same)
    # and a compound (不会不足, keyed 不会: shard 2, where its first character alone would give 0)
    shards, split = _term_shards({"不会": array("i", range(4001))}, {}, ["不会"], ["不会不足"], {}, {})
    assert split == {"不"} and shard_of("不會", 4, split) == 1 != shard_of("不會", 4)
    assert shards[1]["variants"] == {"不會": ["不会"], "不會不足": ["不会不足"]}
    assert shards[2]["compounds"] == ["不会不足"] and shard_of("不会不足", 4) == 0
    # the manifest lists them as one string, sorted
    manifest = _manifest("zh", 1, 4, frozenset("显不"), frozenset(), [], [], 1, {}, [0], [100], 1)
    assert manifest["splitCharacters"] == "不显"


def test_the_shard_count_is_the_smallest_power_of_two_of_about_12_kb_a_shard():
    assert [_shard_count(size) for size in (0, 12_000, 12_001, 24_000, 24_001, 100_000)] == [1, 1, 2, 2, 4, 16]
    # a term's postings are counted as 6 bytes a value and 3 a character of the term (a Chinese one in UTF-8)
    assert len(_term_shards({"cuda": array("i", range(1998))}, {}, [], [], {}, {})[0]) == 1  # 4 × 3 + 1998 × 6 = 12,000 bytes
    assert len(_term_shards({"cuda": array("i", range(1999))}, {}, [], [], {}, {})[0]) == 2  # 12,006 bytes
    assert len(_term_shards({"显存不足": array("i", range(1998))}, {}, [], [], {}, {})[0]) == 1
    # and a traditional or regional form as 6 bytes a character: 显存's forms 顯存 and 視訊記憶體 (2 + 5 characters)
    assert len(_term_shards({"显存": array("i", range(1992))}, {}, ["显存"], [], {}, {})[0]) == 1  # 6 + 11,952 + 42 = 12,000 bytes
    assert len(_term_shards({"显存": array("i", range(1993))}, {}, ["显存"], [], {}, {})[0]) == 2  # 12,006 bytes
    # and a message as 3 bytes a character of its key and 6 its entry's number: 12 + 11,964 + 6 × 3 + 6 = 12,000
    assert len(_term_shards({"cuda": array("i", range(1994))}, {}, [], [], {"cuda": [0, "cudaoo"]}, {})[0]) == 1
    assert len(_term_shards({"cuda": array("i", range(1994))}, {}, [], [], {"cuda": [0, "cudaoom"]}, {})[0]) == 2  # 12,003 bytes


def test_terms_and_their_forms_go_to_the_shard_of_their_key_in_sorted_order():
    postings = {term: array("i", [0, 100, 1] * 250) for term in ("显存", "显", "卡住", "cuda", "nccl", "顯")}
    messages = {"nccl": [1, "nccltimeout"], "cuda": [0, "cudaoom", 2, "cudaerror"]}
    capped = {"显": 900, "cuda": 401}  # how many entries have a term whose postings are capped
    shards, split = _term_shards(postings, capped, ["显存", "显", "卡住"], [], messages, {})
    assert split == frozenset()  # no character's words fill 24 KB
    assert len(shards) == 4  # 6 terms × 750 values × 6 bytes = 27 KB
    for k, shard in enumerate(shards):
        assert list(shard["terms"]) == sorted(shard["terms"]) and list(shard["variants"]) == sorted(shard["variants"])
        assert list(shard["messages"]) == sorted(shard["messages"])
        assert all(shard_of(term, 4) == k for term in [*shard["terms"], *shard["entries"], *shard["variants"], *shard["messages"]])
    terms = {term: flat for shard in shards for term, flat in shard["terms"].items()}
    variants = {form: simplified for shard in shards for form, simplified in shard["variants"].items()}
    assert terms == postings
    assert {term: count for shard in shards for term, count in shard["entries"].items()} == capped
    assert {term: listed for shard in shards for term, listed in shard["messages"].items()} == messages
    # 顯 is a term itself and still a form of 显 (a query reads it both ways); 卡住 is written the same in every form
    assert variants == {"顯": ["显"], "顯存": ["显存"], "視訊記憶體": ["显存"]}


def test_a_compound_and_its_forms_go_to_the_shard_of_their_key():
    postings = {term: array("i", [0, 100, 1] * 250) for term in ("驱动", "程序", "cuda", "nccl", "显存", "卡住")}
    shards, _ = _term_shards(postings, {}, ["驱动", "程序", "显存", "卡住"], ["驱动程序"], {}, {})
    assert len(shards) == 4  # 6 terms × 750 values × 6 bytes = 27 KB
    [(k, shard)] = [(k, shard) for k, shard in enumerate(shards) if shard["compounds"]]
    assert shard["compounds"] == ["驱动程序"] and k == shard_of("驱动程序", 4)
    variants = {form: words for shard in shards for form, words in shard["variants"].items()}
    # its traditional and Taiwan forms stand for it, as a term's do (程式 is Taiwan's 程序)
    assert variants["驅動程式"] == ["驱动程序"] and variants["驅動程序"] == ["驱动程序"] and variants["程式"] == ["程序"]


def test_pinyin_readings_of_two_or_more_characters_go_to_the_shard_of_their_first_syllable():
    # read as a phrase (重新 chongxin, 长度 changdu), ü typed v; a single character has no entry
    assert _pinyin_shards(["显存", "显", "重新", "学习率", "长度"]) == [
        {"changdu": ["长度"], "chongxin": ["重新"], "xiancun": ["显存"], "xuexilv": ["学习率"]}]
    chars = "显存不足梯度爆炸训练服务器连接超时卡死数据加载进程模型内核"
    terms = sorted({a + b for a in chars for b in chars if a != b})  # 812 terms, 757 readings: about 12.3 KB
    shards = _pinyin_shards(terms)
    assert len(shards) == 2
    readings = {key: found for shard in shards for key, found in shard.items()}
    assert readings["xiancun"] == ["显存"] and readings["shuju"] == ["数据"]
    assert sorted(term for found in readings.values() for term in found) == terms  # each term once
    for k, shard in enumerate(shards):
        assert list(shard) == sorted(shard)
        # the query side knows where a syllable starts, not where a term ends: the first syllable decides
        assert all(shard_of(pinyin_reading(found[0])[0], 2) == k for found in shard.values())
    assert shard_of("shuju", 2) == 0 and shard_of("shu", 2) == 1 and "shuju" in shards[1]
    # a reading counts as its letters and 10 bytes a term: the first 779 terms make 11,986 bytes, 780 make 12,002
    assert (len(_pinyin_shards(terms[:779])), len(_pinyin_shards(terms[:780]))) == (1, 2)


def test_typo_words_are_the_english_terms_of_three_letters_or_more_by_length():
    assert _typo_words({"gpu", "cuda", "ab", "显存", "fail2ban", "café", "cuda_oom", "12", "bcd", "abc", "memori"}) == {
        3: ["abc", "bcd", "gpu"], 4: ["cuda"], 6: ["memori"]}


def test_completions_are_the_english_terms_and_identifiers_of_four_characters_or_more_by_their_first_three():
    def postings(entries: int) -> array:
        return array("i", [0, 100, 1] * entries)

    shards = _completion_shards({"nvidia": postings(2), "nvcc": postings(3), "nvidiasmi": postings(1), "nvi": postings(9),
                                 "nvidia_smi": postings(5), "cuda12": postings(4), "cudnn": postings(5), "1abc": postings(1),
                                 "café": postings(1), "显存不足": postings(4), "nvcx": postings(3), "a_b_c": postings(1),
                                 "4_bit": postings(2), "torch_load": postings(1)}, {})
    # nvcc and nvcx in 3 entries, alphabetical between them; cudnn in 5 before cuda12 in 4; nvi, 3 letters, completes
    # nothing; an identifier (its words joined by _) is listed as a word is, under its first three characters, for the
    # identifier being typed (nvidia_smi in 5 entries first); a number first is no word being typed; café is not ASCII
    assert shards == [{"a_b": ["a_b_c"], "cud": ["cudnn", "cuda12"], "nvc": ["nvcc", "nvcx"],
                       "nvi": ["nvidia_smi", "nvidia", "nvidiasmi"], "tor": ["torch_load"]}]
    # the shard count follows the bytes as the other files' do: 12,000 in a shard
    keys = ["".join(letters) for letters in product("abcdefghij", repeat=3)]
    many = {f"{key}xxxx": postings(1) for key in keys}  # 1,000 keys of one term, each 3 + (7 + 3) bytes: 13,000
    assert len(_completion_shards(many, {})) == 2
    assert len(_completion_shards(dict(list(many.items())[:900]), {})) == 1  # 11,700


def test_a_capped_term_is_completed_in_the_order_of_how_many_entries_have_it_not_of_its_capped_list():
    capped = array("i", [0, 100, 1] * 400)  # the index lists at most 400 entries a term
    shards = _completion_shards({"drivera": capped, "driverb": capped, "driverc": capped, "drivers": array("i", [0, 100, 1] * 399)},
                                {"drivera": 401, "driverb": 2500, "driverc": 900})
    assert shards == [{"dri": ["driverb", "driverc", "drivera", "drivers"]}]


def _vocabulary_content(tmp_path: Path) -> Path:
    content = _content(tmp_path, [{"id": "a"}, {"id": "b", "title_zh": "显存不足", "title_en": "Out of memory"}])
    (content / "synonyms.yml").write_text("stopwords: [怎么办, THE]\nsynonyms:\n  - [显存不足, out of memory, OOM]\n"
                                          "  - [卡住, hangs]\n", encoding="utf-8")
    return content


def test_each_entry_counts_the_entries_that_name_it_as_related(tmp_path):
    content = _content(tmp_path, [{"id": "a"}, {"id": "b", "extra": "related: [a]\n"},
                                  {"id": "c", "extra": "related: [a, b]\n"}, {"id": "d", "extra": "related: [a]\n"}])
    base = load_knowledge_base(content)
    assert [r.id for r in base.records] == ["a", "b", "c", "d"]
    assert build_index(base, "zh").manifest["linkedFrom"] == [3, 1, 0, 0]
    assert {named: [r.id for r in linking] for named, linking in base.linked_from.items()} == {"a": ["b", "c", "d"], "b": ["c"]}


def test_each_entry_has_its_length_as_a_percentage_of_the_average(tmp_path):
    """The words rule counts a body match of a short entry more (docs/SEARCH.md, Ranking 2): each entry's length in
    the long fields, as BM25F weighs them, over the average's. Three entries 3 step words apart: the middle one is the
    average, the other two as far below and above it."""
    steps = ["alpha", "alpha bravo charlie delta", "alpha bravo charlie delta echo foxtrot golf"]
    content = _content(tmp_path, [{"id": f"e{n}", "step": step} for n, step in enumerate(steps)])
    lengths = build_index(load_knowledge_base(content), "en").manifest["lengths"]
    assert lengths[1] == 100 and lengths[0] < 100 < lengths[2] and abs(lengths[0] + lengths[2] - 200) <= 1
    # the BM25F score normalises by the same length: the shortest entry's step word scores highest
    scores = _postings(build_index(load_knowledge_base(content), "en"), "alpha")
    assert scores[0][0] > scores[1][0] > scores[2][0]


def test_the_manifest_is_what_the_engine_must_agree_on(tmp_path):
    index = build_index(load_knowledge_base(_vocabulary_content(tmp_path)), "en")
    manifest = dict(index.manifest)
    version, syllables = manifest.pop("version"), manifest.pop("syllables").split()
    assert manifest == {
        "formatVersion": 16, "lang": "en", "docs": 2, "shards": 1, "splitCharacters": "", "maxTermChars": 12,
        # name, anchor, the section's heading on this site, what a match there counts (weight / the title's 5)
        "fields": [["title", "", "", 1], ["tags", "", "Tags", 0.8], ["quick_fix", "quick-fix", "Quick fix", 0.6],
                   ["symptoms", "symptoms", "Symptoms", 0.8], ["steps", "steps", "Diagnosis steps", 0.2],
                   ["cause", "cause", "Cause", 0.2], ["verification", "verification", "Verify the fix", 0.2],
                   ["environment", "environment", "Environment", 0.2], ["translation", "", "", 0.4], ["keywords", "", "", 0.8]],
        "titleCharsShift": [13, 21], "aloneBit": 11, "overlapBit": 12, "scoreScale": 100,
        "stopwords": ["the", "怎么办", "怎麼辦"],  # normalised, with the traditional forms of the Chinese ones
        # each phrase cut as the query side does: whole words, stemmed
        "synonyms": [[["显存不足"], ["out", "of", "memori"], ["oom"]], [["卡住"], ["hang"]]],
        # of those, the terms no entry has (b's title is "Out of memory", 显存不足 in its other language)
        "absentSynonymTerms": ["hang", "oom", "卡住"],
        "pinyinShards": 1, "wordLengths": [3, 4, 5, 6], "completionShards": 1, "linkedFrom": [0, 0],
        "lengths": [85, 115],  # b's other language, its long field here, has the longer title (显存不足)
        "messages": {"none": "No results", "closest": "Closest terms: {terms}", "browse": "Browse every entry by tag →",
                     "browseLocation": "tags/"},
    }
    assert len(version) == 12 and int(version, 16) >= 0
    assert len(syllables) == 420 and syllables[:3] == ["a", "ai", "an"] and syllables[-1] == "zuo"
    assert {"lv", "lve", "zhuang"} <= set(syllables) and not {"m", "n", "ng", "hm"} & set(syllables)
    zh = build_index(load_knowledge_base(_vocabulary_content(tmp_path / "zh")), "zh").manifest
    assert zh["lang"] == "zh" and zh["messages"] == {"none": "没有找到结果", "closest": "相近的词：{terms}",
                                                     "browse": "按标签浏览全部条目 →", "browseLocation": "tags/"}
    assert [heading for _, _, heading, _ in zh["fields"]][:4] == ["", "标签", "快速修复", "现象表现"]


def test_the_files_of_an_index(tmp_path):
    index = build_index(load_knowledge_base(_vocabulary_content(tmp_path)), "en")
    assert sorted(index.files()) == ["c/0.json", "d/0.json", "d/1.json", "manifest.json", "p/0.json", "t/0.json",
                                     "w/3.json", "w/4.json", "w/5.json", "w/6.json"]
    files = index.files()
    assert files["manifest.json"] is index.manifest and files["t/0.json"] is index.shards[0]
    assert files["p/0.json"] is index.pinyin[0] and files["d/1.json"] is index.docs[1]
    # the typo words and the pinyin include the synonyms' terms (hang, 卡住), which no entry has
    assert files["w/4.json"] == ["cuda", "hang", "titl"] and files["w/3.json"] == ["oom", "out", "the"]
    assert index.pinyin[0]["kazhu"] == ["卡住"] and index.pinyin[0]["xiancunbuzu"] == ["显存不足"]
    assert "卡住" not in index.shards[0]["terms"]
    # the completions are the entries' terms only: hang, a synonym's term no entry has, is not one
    assert files["c/0.json"] is index.completions[0] and "han" not in files["c/0.json"]
    # the traditional forms of the terms, and of the synonyms' Chinese terms
    assert index.shards[0]["variants"]["顯存不足"] == ["显存不足"] and index.shards[0]["variants"]["標題"] == ["标题"]
    # what a result shows: its location, title, tags, the lines of each section that has an anchor, its messages; and
    # its keywords (none here)
    assert index.docs[1] == {"location": "b/", "title": "Out of memory", "tags": ["CUDA"],
                             "sections": [[2, ["Lower the batch"]], [3, ["现象"]], [4, ["步骤"]]], "messages": ["现象"],
                             "keywords": []}


def test_a_result_shows_its_sections_and_its_error_messages_once(tmp_path):
    extra = ('cause: {zh: 原因, en: The cause}\nenvironment: {os: Ubuntu 22.04}\n'
             'keywords: {zh: [端口占用, 显存预分配], en: [port in use]}\n'
             'verification: {zh: 再试, en: Try again, code: nvidia-smi}\n'
             'signatures:\n  - exact: "CUDA error: out of memory"\n  - exact: "NCCL timeout <num>"\n  - regex: "watchdog \\\\d+"\n'
             '  - exact: "invalid load key, \'<\'."\n')
    content = _content(tmp_path, [{"id": "a", "symptom": "CUDA Error: out of memory!", "extra": extra}])
    (content / "entries" / "a.yml").write_text((content / "entries" / "a.yml").read_text(encoding="utf-8").replace(
        'symptoms:\n', 'symptoms:\n  - {zh: "：：", en: "::"}\n'), encoding="utf-8")
    doc = build_index(load_knowledge_base(content), "zh").docs[0]
    assert doc == {
        "location": "a/", "title": "标题", "tags": ["CUDA"],
        "sections": [[2, ["减小批量"]], [3, ["：：", "CUDA Error: out of memory!", "CUDA error: out of memory",
                                               "NCCL timeout", "invalid load key, '<'."]],
                     [4, ["步骤"]], [5, ["原因"]], [6, ["再试 nvidia-smi"]], [7, ["操作系统 Ubuntu 22.04"]]],
        # letters, digits, Chinese and the symbols that are content (< of an HTML page); once; a signature with a
        # placeholder or a regex as the text every line it matches holds, in runs (nothing of the placeholder)
        "messages": ["cudaerroroutofmemory", "nccltimeout", "watchdog", "invalidloadkey<"],
        # the site language's keywords as written: where the engine finds a Chinese word the index splits (端口占用)
        "keywords": ["端口占用", "显存预分配"],
    }


def test_each_error_message_is_listed_under_its_rarest_word_in_that_words_shard(tmp_path):
    # so that the message rule finds every entry whose message a query contains (format 6), not only the first ten
    content = _content(tmp_path, [
        {"id": "a", "symptom": "CUDA error: out of memory"},
        {"id": "b", "symptom": "NCCL error: unhandled system error"},
        {"id": "c", "symptom": "CUDA error: device-side assert triggered",
         "extra": 'signatures:\n  - exact: "RuntimeError: CUDA error: device-side assert triggered"\n'},
        {"id": "d", "symptom": "显存不足"},  # no English word: left to the d/ files of the first ten
        {"id": "e", "symptom": "zz memory"},
        {"id": "f", "symptom": "max_model_len too large"},  # an identifier is a word a query fetches too
        {"id": "g", "symptom": "max model len too large"},
    ])
    (content / "synonyms.yml").write_text("stopwords: [zz, of]\n", encoding="utf-8")
    index = build_index(load_knowledge_base(content), "zh")
    listed = {term: items for shard in index.shards for term, items in shard["messages"].items()}
    assert listed == {
        # the word in fewest entries (memory is in two, out in one), not filler, which no query fetches (of, zz)
        "out": [0, "cudaerroroutofmemory"],
        "nccl": [1, "ncclerrorunhandledsystemerror"],  # of words in as few entries, the first in order
        "assert": [2, "cudaerrordevicesideasserttriggered", 2, "runtimeerrorcudaerrordevicesideasserttriggered"],
        "memori": [4, "zzmemory"],
        "max_model_len": [5, "maxmodellentoolarge"],
        "larg": [6, "maxmodellentoolarge"],
    }
    assert all(shard_of(term, len(index.shards)) == k for k, shard in enumerate(index.shards) for term in shard["messages"])


@pytest.mark.parametrize("signatures_read", [True, False])
def test_a_pasted_line_of_a_form_no_symptom_lists_finds_the_entry_whose_signature_matches_it(tmp_path, signatures_read):
    """c, the last entry, lists the error only as a signature with placeholders; a and b have the line's words in
    their titles and symptoms. Its signature found in the line puts c first; read as text only (as before index format
    7), a's title wins."""
    content = _content(tmp_path, [
        {"id": "a", "title_en": "Broken pipe: the connection to the port drops", "symptom": "Broken pipe on port 22"},
        {"id": "b", "title_en": "Port forwarding connection refused", "symptom": "Connection to port refused"},
        {"id": "c", "title_en": "Idle sessions are cut", "symptom": "会话空闲后断开",
         "extra": 'signatures:\n  - exact: "Connection to <host> port <num>: Broken pipe"\n'},
    ])
    base = load_knowledge_base(content)
    if not signatures_read:
        base = replace(base, records=tuple(replace(r, signatures=tuple(replace(s, runs=()) for s in r.signatures))
                                           for r in base.records))
    write_site_index(base, "en", tmp_path / "site")
    [ranked] = run_queries(tmp_path / "site" / "search", ["packet_write_wait: Connection to 10.0.0.5 port 22: Broken pipe"])
    assert [result["id"] for result in ranked][:1] == (["c"] if signatures_read else ["a"])


@pytest.mark.parametrize("joined", [True, False])
def test_a_name_of_two_words_is_found_by_the_word_it_is_written_as_joined(tmp_path, monkeypatch, joined):
    """b's steps say all_reduce, c's allreduce; a, the first entry, has the words all and reduce apart. Typed as one
    word, allreduce finds b too: its identifier is indexed as the word it reads as joined (text.joined_term)."""
    if not joined:
        monkeypatch.setattr(text, "joined_term", lambda name: None)
    content = _content(tmp_path, [{"id": "a", "step": "reduce all of them"}, {"id": "b", "step": "first all_reduce never returns"},
                                  {"id": "c", "step": "first allreduce never returns"}])
    write_site_index(load_knowledge_base(content), "en", tmp_path / "site")
    [ranked] = run_queries(tmp_path / "site" / "search", ["allreduce"])
    assert {result["id"] for result in ranked} == ({"b", "c"} if joined else {"c"})


def test_query_filler_is_normalised_with_its_traditional_forms(tmp_path):
    content = _vocabulary_content(tmp_path)
    assert query_stopwords(load_knowledge_base(content)) == {"the", "怎么办", "怎麼辦"}


def test_an_entry_is_cut_again_only_when_its_record_changed(tmp_path):
    content = _content(tmp_path, [{"id": "a"}, {"id": "b", "title_zh": "显存不足"}])
    base = load_knowledge_base(content)
    analyses: dict = {}
    first = build_index(base, "zh", analyses)
    assert sorted(analyses) == ["a", "b"] and analyses["b"].record == base.record("b")
    # an analysis kept for an unchanged record is used as it is (its doc, here marked, shows it)
    analyses["a"] = replace(analyses["a"], doc={**analyses["a"].doc, "title": "kept"})
    kept_b = analyses["b"]
    (content / "entries" / "b.yml").write_text((content / "entries" / "b.yml").read_text(encoding="utf-8").replace(
        "显存不足", "显卡掉了"), encoding="utf-8")
    second = build_index(load_knowledge_base(content), "zh", analyses)
    assert [doc["title"] for doc in second.docs] == ["kept", "显卡掉了"]
    assert analyses["b"] is not kept_b and analyses["b"].doc["title"] == "显卡掉了"
    assert second.manifest["version"] != first.manifest["version"]
    assert [doc["title"] for doc in build_index(load_knowledge_base(content), "zh").docs] == ["标题", "显卡掉了"]


def test_the_version_is_a_hash_of_every_file(tmp_path):
    content = _content(tmp_path, [{"id": "a"}, {"id": "b", "title_zh": "显存不足"}])
    base = load_knowledge_base(content)
    version = build_index(base, "zh").manifest["version"]
    assert build_index(base, "zh").manifest["version"] == version  # the same files, the same version
    assert build_index(base, "en").manifest["version"] != version
    (content / "entries" / "b.yml").write_text((content / "entries" / "b.yml").read_text(encoding="utf-8").replace(
        "步骤", "步骤二"), encoding="utf-8")
    assert build_index(load_knowledge_base(content), "zh").manifest["version"] != version


def test_the_version_depends_on_what_the_files_hold_not_on_the_order_they_were_made_in(tmp_path):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}, {"id": "b"}])), "zh")
    # the same keys and values, made in another order (without the version, which is not hashed)
    manifest = {key: value for key, value in reversed(index.manifest.items()) if key != "version"}
    words = dict(reversed(index.words.items()))
    assert list(manifest) != list(index.manifest) and list(words) != list(index.words)
    assert _version(replace(index, manifest=manifest, words=words)) == index.manifest["version"]
    # the same data under another path is another index
    assert _version(replace(index, docs=index.docs[::-1])) != index.manifest["version"]
    moved = {len(terms[0]) + 1: terms for terms in index.words.values()}
    assert _version(replace(index, words=moved)) != index.manifest["version"]


def test_material_gets_a_stub_with_its_config_and_no_documents():
    assert material_stub("en") == {"config": {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": [], "fields": {}},
                                   "docs": []}


def test_index_files_are_written_compact_and_only_when_they_change(tmp_path):
    search = tmp_path / "search"
    (search / "0123456789ab" / "t").mkdir(parents=True)  # an earlier build's folder
    (search / "stale.json").write_text("{}", encoding="utf-8")
    content = _content(tmp_path, [{"id": "a"}, {"id": "b", "title_zh": "显存不足"}])
    index = build_index(load_knowledge_base(content), "zh")
    write_index(index, search)
    folder = search / index.manifest["version"]
    assert re.fullmatch("[0-9a-f]{12}", folder.name)
    written = sorted(str(path.relative_to(search)) for path in search.rglob("*") if path.is_file())
    # the folder replaced: no stale file; the files the engine fetches in the folder named by the version
    assert written == sorted(["search_index.json", "manifest.json", "worker.js", f"{folder.name}/batch.json",
                              *(f"{folder.name}/{path}" for path in index.files() if path != "manifest.json")])
    assert (folder / "batch.json").read_text(encoding="utf-8") == batch_template()
    assert json.loads((search / "search_index.json").read_text(encoding="utf-8")) == material_stub("zh")
    doc = (folder / "d" / "1.json").read_text(encoding="utf-8")
    assert doc.startswith('{"location":"b/","title":"显存不足",')  # compact, UTF-8 as it is
    terms = json.loads((folder / "t" / "0.json").read_text(encoding="utf-8"))["terms"]
    assert terms["显存"] == list(index.shards[0]["terms"]["显存"])
    assert (search / "worker.js").read_text(encoding="utf-8") == worker_script(carried_files(index))
    # `serve`: the next index of the same folder renames it to its version, writes only what differs and removes what
    # is gone
    (folder / "d" / "0.json").write_text("unchanged", encoding="utf-8")
    (search / "worker.js").write_text("unchanged", encoding="utf-8")
    (content / "entries" / "b.yml").unlink()
    smaller = build_index(load_knowledge_base(content), "zh")
    write_index(smaller, search, index)
    assert smaller.manifest["version"] != folder.name and not folder.exists()
    folder = search / smaller.manifest["version"]
    assert not (folder / "d" / "1.json").exists()
    assert (folder / "d" / "0.json").read_text(encoding="utf-8") == "unchanged"
    assert (folder / "batch.json").read_text(encoding="utf-8") == batch_template()
    assert json.loads((search / "manifest.json").read_text(encoding="utf-8")) == smaller.manifest
    assert (search / "worker.js").read_text(encoding="utf-8") == worker_script(carried_files(smaller))
    (search / "worker.js").write_text("unchanged", encoding="utf-8")
    write_index(smaller, search, smaller)
    assert (search / "worker.js").read_text(encoding="utf-8") == "unchanged"  # the same manifest
    # a file already gone is no error
    shutil.rmtree(folder / "d")
    write_index(smaller, search, replace(index, manifest=smaller.manifest))
    assert not (folder / "d").exists()  # d/0.json is the same in both: not written again


def test_batch_json_names_sixteen_files_each_on_its_line_after_its_path_as_the_worker_reads_them():
    """batch.json (waves.js, deploy/nginx.conf): line k is the path the k-th of a to p names, a space and that file,
    when the query names it; the worker's names are the same sixteen."""
    lines = batch_template().split("\n")
    assert lines == [f'<!--# if expr="$arg_{name}" --><!--# echo var="arg_{name}" --> <!--# include virtual="$arg_{name}" -->'
                     '<!--# endif -->' for name in "abcdefghijklmnop"]
    assert 'const NAMES = "abcdefghijklmnop";' in (SEARCH_JS / "waves.js").read_text(encoding="utf-8")


@pytest.fixture
def ascii_locale():
    """A machine whose locale is not UTF-8 (LC_CTYPE C: ASCII), for the length of a test."""
    if sys.flags.utf8_mode:
        pytest.skip("Python's UTF-8 mode reads and writes UTF-8 whatever the locale")
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    yield
    locale.setlocale(locale.LC_CTYPE, before)


def test_the_index_files_are_utf_8_whatever_the_locale(tmp_path, ascii_locale):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a", "title_zh": "显存不足"}])), "zh")
    assert locale.getpreferredencoding(False) != "UTF-8"
    write_index(index, tmp_path / "search")
    changed = replace(index, manifest={**index.manifest, "docs": 2})
    write_index(changed, tmp_path / "search", index)
    folder = tmp_path / "search" / index.manifest["version"]
    assert json.loads((folder / "d" / "0.json").read_bytes().decode("utf-8"))["title"] == "显存不足"
    worker = (tmp_path / "search" / "worker.js").read_bytes().decode("utf-8")
    assert worker == worker_script(carried_files(changed))
    # the engine's modules, read as UTF-8 (their strings and comments have Chinese) and without their comments
    assert all(rjsmin.jsmin((SEARCH_JS / name).read_bytes().decode("utf-8")) in worker for name in (*ENGINE_MODULES, "kept.js", "waves.js", "protocol.js"))


def test_a_site_index_goes_into_the_language_site(tmp_path):
    content = _content(tmp_path, [{"id": "a"}])
    write_site_index(load_knowledge_base(content), "en", tmp_path / "site" / "en")
    manifest = json.loads((tmp_path / "site" / "en" / "search" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lang"] == "en" and manifest["docs"] == 1
    assert (tmp_path / "site" / "en" / "search" / "worker.js").exists()
    # OpenCC's and pypinyin's tables are let go once the index is made, before MkDocs renders the pages
    assert _converter.cache_info().currsize == 0 and pinyin_syllables.cache_info().currsize == 0
    assert not [name for name in sys.modules if name.split(".")[0] in ("opencc", "pypinyin")]
