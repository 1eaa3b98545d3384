"""The search index as the engine reads it (pitfalls/pages/search_index.py, search_analysis.py, search_scoring.py):
the fields and what a match in each counts, the flags of a posting, BM25F's normalisation, what is indexed beside
the text (signatures, the other language, identifiers), the posting cap and the generated worker. The documented
numbers are written here as numbers (docs/SEARCH.md, "Index")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pitfalls.pages.search_index import build_index, worker_script
from pitfalls.records.validate import load_knowledge_base

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
        ("environment", "environment", 0.2), ("translation", "", 0.4)]
    assert index.manifest["formatVersion"] == 2 and index.manifest["titleCharsShift"] == [12, 20]


def test_a_title_term_carries_the_title_length(tmp_path):
    content = _content(tmp_path, [{"id": "a", "title_zh": "显存不足 (CUDA out of memory)"}])
    index = build_index(load_knowledge_base(content), "zh")
    _, flags = _postings(index, "显存")[0]
    # 4 Chinese characters; cuda + out + of + memori (this content has no filler words to leave out)
    assert flags & 0xFFF == 1 and flags >> 12 & 0xFF == 4 and flags >> 20 & 0xFF == 4 + 3 + 2 + 6
    _, flags = _postings(index, "减小")[0]
    assert flags == 1 << 2  # the quick fix, and no title length


def test_filler_and_the_echo_of_a_title_do_not_lengthen_it(tmp_path):
    content = _content(tmp_path, [{"id": "a", "title_zh": "OOM: out of memory (CUDA out of memory)"}])
    (content / "synonyms.yml").write_text("stopwords: [of]\n", encoding="utf-8")
    _, flags = _postings(build_index(load_knowledge_base(content), "zh"), "oom")[0]
    assert flags >> 20 & 0xFF == 3 + 3 + 6 + 4  # oom, out, memori, cuda: each once, `of` left out


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


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_worker_is_the_modules_the_manifest_and_the_protocol(tmp_path, lang):
    index = build_index(load_knowledge_base(_content(tmp_path, [{"id": "a"}])), lang)
    script = worker_script(index.manifest)
    modules = ["options.js", "analysis.js", "pinyin.js", "typos.js", "ranking.js", "results.js", "engine.js"]
    starts = [script.index(f".{name.removesuffix('.js')} = factory") if name != "engine.js" else script.index("Object.assign(search")
              for name in modules]
    assert starts == sorted(starts)  # each module after those it needs
    assert "importScripts" not in script and f'"version":"{index.manifest["version"]}"' in script
    assert script.index("self.PITFALLS_MANIFEST") < script.index('addEventListener("message"')
