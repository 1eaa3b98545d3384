"""Each reading stage of the search engine (engine.js STAGES) guarded by a query of the real content that needs
it: right first with every stage on, not first with that one stage off (engine.js `off`), so switching a stage
off fails a test. The ranking rules and the options are guarded on hand-made indexes: test_search_rules.py.
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
    ("variants", "遠端伺服器斷線", "zh", "ssh-disconnect"),  # Taiwan wording: 远程服务器
    ("variants", "程式碼合併後不見了", "zh", "git-merge-lost-code"),  # 程式碼: 代码
    ("variants", "視訊記憶體爆了", "zh", "cuda-out-of-memory"),  # 視訊記憶體: 显存
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
    script = "console.log(JSON.stringify(require(process.argv[1]).STAGE_NAMES))"
    stages = json.loads(subprocess.run([shutil.which("node"), "-e", script, str(ENGINE_JS)], capture_output=True, text=True,
                                       check=True).stdout)
    assert sorted(stages) == sorted({stage for stage, *_ in GUARDS}) == ["parts", "pinyin", "synonyms", "typos", "variants"]


@pytest.mark.parametrize(("rule", "query", "expected"), [
    ("message", "RuntimeError: CUDA error: no kernel image is available for execution on the device", "cuda-pytorch-mismatch"),
])
def test_rules_on_the_real_content(search_dirs, rule, query, expected):
    assert _first(search_dirs["zh"], query) == expected
    assert _first(search_dirs["zh"], query, (rule,)) != expected
