"""Each stage of the search engine guarded by a query that needs it: right first with every stage
on, not first with that one stage off (engine.js `off`), so switching a stage off fails a test.
Run under node over the index of the real content; no site build, no browser."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import ROOT
from pitfalls.commands.search import run_queries
from pitfalls.pages.search_index import write_site_index
from pitfalls.records.validate import load_knowledge_base
from pitfalls.settings import ENGINE_JS

GUARDS = [  # (stage, query, site language, the entry that must come first)
    ("synonyms", "大模型瞎编", "zh", "rag-hallucination"),
    ("synonyms", "model makes things up", "en", "rag-hallucination"),
    ("coverage", "显存 docker", "zh", "docker-gpu"),  # the entry with both words, not the one strongest in one
    ("coverage", "镜像 conda", "zh", "cuda-pytorch-mismatch"),
    ("exact", "RuntimeError: CUDA error: no kernel image is available for execution on the device", "zh",
     "cuda-pytorch-mismatch"),
    ("variants", "遠端伺服器斷線", "zh", "ssh-disconnect"),  # Taiwan wording: 远程服务器
    ("variants", "容器內抓不到顯示卡", "zh", "docker-gpu"),  # 顯示卡: 显卡
    ("variants", "顯存溢出怎麼辦", "zh", "cuda-out-of-memory"),  # traditional filler is filler too
    ("pinyin", "xiancun buzu", "zh", "cuda-out-of-memory"),
    ("pinyin", "tiducaijian", "zh", "loss-nan"),  # no spaces between syllables
    ("pinyin", "xuexilv saomiao", "zh", "slow-convergence"),  # ü typed as v
    ("typos", "dependancy conflict", "en", "python-dependency-conflict"),
    ("typos", "segmantation fault", "zh", "cuda-pytorch-mismatch"),  # English typo on the Chinese site
    ("typos", "ServerAliveIntervall", "zh", "ssh-disconnect"),  # two edits in a long word
    ("parts", "opset14", "zh", "onnx-export"),  # a name the index has only as `opset 14`
]


@pytest.fixture(scope="module")
def search_dirs(tmp_path_factory):
    """lang → the search/ folder of an index of the real content."""
    base = load_knowledge_base(ROOT / "content")
    out = tmp_path_factory.mktemp("index")
    for lang in ("zh", "en"):
        write_site_index(base, lang, out / lang)
    return {lang: out / lang / "search" for lang in ("zh", "en")}


def _first(search_dir, query: str, off: tuple[str, ...] = ()) -> str | None:
    ranked = run_queries(search_dir, [query], off)[0]
    return ranked[0]["id"] if ranked else None


@pytest.mark.parametrize(("stage", "query", "lang", "expected"), GUARDS, ids=[f"{g[0]}:{g[1][:24]}" for g in GUARDS])
def test_stage_puts_the_right_entry_first(search_dirs, stage, query, lang, expected):
    assert _first(search_dirs[lang], query) == expected
    assert _first(search_dirs[lang], query, (stage,)) != expected, f"{query!r} does not need the {stage} stage"


def test_every_stage_is_guarded():
    stages = json.loads(subprocess.run([shutil.which("node"), "-e", "console.log(JSON.stringify(require(process.argv[1]).STAGES))",
                                        str(ENGINE_JS)], capture_output=True, text=True, check=True).stdout)
    assert sorted(stages) == sorted({stage for stage, *_ in GUARDS})


def _engine(index: dict, queries: list[str]) -> list[list[str]]:
    """Ranked entry ids of each query against an index given as {path: content}."""
    script = """
        const {Engine} = require(process.argv[1]);
        const {index, queries} = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        const engine = new Engine(async path => index[path.split("?")[0]]);
        (async () => {
          const out = [];
          for (const q of queries) out.push((await engine.search(q)).ranked.map(r => r.id));
          console.log(JSON.stringify(out));
        })();
    """
    done = subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS)], input=json.dumps({"index": index, "queries": queries}),
                          capture_output=True, text=True, encoding="utf-8", check=True)
    return json.loads(done.stdout)


def _tiny_index(terms: dict[str, list[int]], pinyin: dict[str, list[str]], words: dict[int, list[str]], docs: int) -> dict:
    """A hand-made index: one term shard, one pinyin shard, entries named doc0, doc1, …"""
    manifest = {"lang": "en", "docs": docs, "shards": 1, "maxTermChars": 12, "scoreScale": 100, "version": "x",
                "sections": [["", ""]], "stopwords": [], "synonyms": [], "pinyinShards": 1,
                "syllables": "a ai an chang e ban ben", "wordLengths": sorted(words),
                "noResults": {"title": "No results", "closest": "Closest terms: {terms}", "browse": "Tags", "location": "tags/"}}
    index = {"manifest.json": manifest, "t/0.json": {"terms": terms, "variants": {}}, "p/0.json": pinyin}
    index |= {f"w/{n}.json": w for n, w in words.items()}
    index |= {f"d/{n}.json": {"location": f"doc{n}/", "title": f"doc {n}", "tags": [], "sections": [], "messages": []}
              for n in range(docs)}
    return index


def test_an_english_word_ranks_above_its_pinyin_reading():
    # `change` (stem chang) is an English word of doc0 and reads chang e, the pinyin of 嫦娥 in doc1
    index = _tiny_index({"chang": [0, 100, 1], "嫦娥": [1, 100, 1]}, {"change": ["嫦娥"]}, {}, 2)
    assert _engine(index, ["change"]) == [["doc0", "doc1"]]


def test_an_exact_word_outranks_a_corrected_one():
    index = _tiny_index({"vision": [0, 100, 1], "version": [1, 100, 1]}, {}, {6: ["vision"], 7: ["version"]}, 2)
    assert _engine(index, ["versoin", "vision", "vision versoin", "version"]) == [["doc1"], ["doc0"], ["doc0", "doc1"], ["doc1"]]
