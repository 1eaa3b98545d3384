"""The site search: the public query set in headless Chromium through Material's search box,
the CLI against the same index, Python and JS text analysis alike, escaping, the vocabulary file."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import yaml

from bench.corpus import assemble
from bench.search_quality import with_judgments
from conftest import FIXTURES, ROOT, shared_site
from helpers.search_ui import HOSTILE_QUERIES, open_search, search, search_each
from pitfalls.commands.search import _print_standing, explanation, run_queries, unread
from pitfalls.pages.search_index import build_index, shard_homes, shard_of
from pitfalls.records.validate import check_content, load_knowledge_base
from pitfalls.settings import ENGINE_JS
from pitfalls.text import compound_terms, english_terms, keep_word, message_key, name_parts, normalize, stem

QUERIES = yaml.safe_load((Path(__file__).with_name("search_queries.yml")).read_text(encoding="utf-8"))["queries"]
CORPUS_QUERIES = yaml.safe_load((Path(__file__).with_name("search_queries_corpus.yml")).read_text(encoding="utf-8"))["queries"]
WORDS = """memory memories hang hangs hanging hanged freeze freezes freezing frozen install installed installation
installing installs exit exited exits process processes processing loss losses gradient gradients checkpoint
checkpointing checkpoints running stopped added embed embedding speed needed used using fixes fixed boxes status
analysis windows devices device quantization quantize quantized dependencies dependency converges convergence
mismatch mismatches disconnected disconnects connection timed timeout applies applied apply died dies tried hung
frozen ran built was is this gpus cuda12 nan a an be 0x7f3a2b1c 12345 535 cudnn8 abcdefghijklmnopqrstuvwxyzabcdefg
fail2ban resnet101 3a3a0a1 deadbeef sizes buzzes ches shes sses axes azes aches wishes matches slowly tsking rotation""".split()
TEXTS = ["RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total capacity)",
         "ＯＯＭ　ｆｕｌｌ－ｗｉｄｔｈ text, 全角字符 and ①②",
         "torch.onnx.export 报 shape mismatch 或 unsupported op aten::scaled_dot_product_attention",
         "ssh: connect to host 203.0.113.7 port 22: Connection timed out 🚀 /usr/lib/x86_64-linux-gnu"]


NAMES = [  # (text, its index terms): names with digits whole and by their parts; noise dropped
    ("fail2ban", ["fail2ban", "fail", "ban"]),
    ("wav2vec2", ["wav2vec2", "wav", "vec"]),
    ("word2vec", ["word2vec", "word", "vec"]),
    ("resnet101", ["resnet101", "resnet", "101"]),
    ("cu121", ["cu121", "cu", "121"]),
    ("bf16", ["bf16", "bf", "16"]),
    ("ubuntu22.04", ["ubuntu22", "ubuntu", "22", "04"]),
    ("libcudnn8", ["libcudnn8", "libcudnn"]),
    ("mobilenetv2", ["mobilenetv2", "mobilenetv"]),
    ("llama-3.1-8b", ["llama", "8b"]),
    ("x86_64", ["x86", "86", "64"]),
    ("Qwen2-7B-Instruct", ["qwen2", "qwen", "7b", "instruct"]),
    ("0x7f3a2b1c", []),  # an address
    ("3a3a0a1", []),  # a short git hash
    ("e3b0c44298fc1c149afbf4c8996fb924", []),  # a long hash
    ("550e8400-e29b-41d4-a716-446655440000", []),  # a UUID, not five words
    ("pid 1234567", ["pid"]),  # a long number
    ("deadbeef", ["deadbeef"]),  # hex letters alone are a word
]


def test_names_with_digits_are_terms_on_both_sides():
    texts = [text for text, _ in NAMES]
    js = _node("""
        const e = require(process.argv[1]).analysis;
        const texts = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        console.log(JSON.stringify(texts.map(t => e.englishTerms(e.normalize(t)))));
    """, texts)
    assert [english_terms(normalize(text)) for text in texts] == [terms for _, terms in NAMES]
    assert js == [terms for _, terms in NAMES]


def _node(script: str, payload: object) -> object:
    node = shutil.which("node")
    assert node, "node is needed: `make test` installs Debian's nodejs"
    done = subprocess.run([node, "-e", script, str(ENGINE_JS)], input=json.dumps(payload), capture_output=True,
                          text=True, encoding="utf-8", check=True)
    return json.loads(done.stdout)


def test_python_and_js_analyse_text_alike():
    js = _node("""
        const e = require(process.argv[1]).analysis;
        const {words, texts} = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        console.log(JSON.stringify({
          stem: words.map(e.stem), keep: words.map(e.keepWord), shard: words.map(w => e.shardOf(w, 64)),
          parts: words.map(e.nameParts),
          terms: texts.map(t => e.englishTerms(e.normalize(t))), keys: texts.map(e.messageKey),
          hanShard: texts.map(t => e.shardOf(e.normalize(t).replace(/[^\\u4e00-\\u9fff]/g, "") || "x", 64)),
        }));
    """, {"words": WORDS, "texts": TEXTS})
    assert js["stem"] == [stem(w) for w in WORDS]
    assert js["keep"] == [keep_word(w) for w in WORDS]
    assert js["parts"] == [name_parts(w) for w in WORDS]
    assert js["shard"] == [shard_of(w, 64) for w in WORDS]
    assert js["terms"] == [english_terms(normalize(t)) for t in TEXTS]
    assert js["keys"] == [message_key(t) for t in TEXTS]
    han = ["".join(c for c in normalize(t) if "\u4e00" <= c <= "\u9fff") or "x" for t in TEXTS]
    assert js["hanShard"] == [shard_of(h, 64) for h in han]
    # the stemmer does what it is for
    assert stem("memories") == stem("memory") and stem("hanging") == stem("hangs") == stem("hang")
    assert stem("installation") == stem("installed") == stem("install")
    assert stem("died") == stem("dies") == stem("die") and stem("tried") == stem("tries") == stem("try")
    assert stem("hung") == stem("hang") and stem("frozen") == stem("freezes") and stem("ran") == stem("running")
    assert stem("pipe") == stem("piping") != stem("pip") and stem("note") != stem("not") and stem("timed") == stem("time")
    assert stem("wrongly") == stem("wrong") and stem("slowly") == stem("slow") and stem("apply") != stem("app")
    assert stem("sizes") == stem("size") and stem("prizes") == stem("prize") and stem("boxes") == stem("box") != stem("boxe")
    assert compound_terms("torch.cuda.is_available()") == ["torch_cuda_is_available", "is_available", "isavailabl"]
    # a name of two words joined by - or _ also reads as the one word it is written as too; not one of three, nor dotted
    assert compound_terms("all_reduce time-out 4-bit max_model_len torch.load") == [
        "all_reduce", "allreduc", "time_out", "timeout", "4_bit", "4bit", "max_model_len", "torch_load"]
    assert compound_terms("abc-1234567") == ["abc_1234567"]  # joined, a hash: noise, no word


def test_python_and_js_keep_a_synonym_groups_english_terms_alike():
    """Where the index puts a group's English terms is where the engine looks for them: the same homes from the
    manifest's synonyms, the vocabulary's groups and the pairs the entries teach."""
    synonyms = build_index(load_knowledge_base(ROOT / "content"), "en").manifest["synonyms"]
    js = _node("""
        const e = require(process.argv[1]).analysis;
        console.log(JSON.stringify([...e.shardHomes(JSON.parse(require("fs").readFileSync(0, "utf-8")))]));
    """, synonyms)
    homes = shard_homes(synonyms)
    assert dict(js) == homes and len(homes) > 100
    assert homes["oom"] == "显存不足" and homes["vram"] == "显存" and "显存" not in homes  # a Chinese term keeps its key


def _browser_rankings(browser, site_url: str, queries: list[dict]) -> dict[tuple[str, str], list[str]]:
    """(lang, query) → entry ids in the order Material's result list shows them, for every query of the set,
    typed into the header search box of the built site."""
    rankings = {}
    page = browser.new_page()
    for lang in ("zh", "en"):
        open_search(page, f"{site_url}{lang}/")
        asked = [q["q"] for q in queries if q.get("lang", "zh") == lang]
        rankings.update(((lang, query), ids) for query, ids in zip(asked, search_each(page, lang, asked), strict=True))
    page.close()
    return rankings


@pytest.fixture(scope="module")
def browser_rankings(site_url, browser) -> dict[tuple[str, str], list[str]]:
    return _browser_rankings(browser, site_url, QUERIES)


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory) -> Path:
    """The realistic corpus (bench/corpus.py: 172 entries, many of them near neighbours) built into a site."""
    work = tmp_path_factory.mktemp("corpus")
    return shared_site(assemble(work / "content"))


@pytest.fixture(scope="module")
def corpus_rankings(corpus_site, http_server, browser) -> dict[tuple[str, str], list[str]]:
    return _browser_rankings(browser, http_server(corpus_site), CORPUS_QUERIES)


# Per kind: what the engine achieves, less about one query (ties, small changes of content). Below the goals of
# docs/SEARCH.md ("Measured"): these guard what is reached, they do not claim the goal.
TOP1_AT_LEAST = {
    "zh-phrase": 0.96, "zh-word": 0.86, "mixed": 0.94, "error": 0.85, "en": 0.93, "colloquial": 0.87,
    "pinyin": 0.94, "traditional": 0.94, "regional": 0.93, "typo": 0.93, "digits": 0.93,
}
CORPUS_TOP1_AT_LEAST = {  # with the entries' keywords: zh-word, mixed, colloquial, en, digits, question up, cross-language down;
    # regional up with the compounds and the Taiwan forms that are terms too (21 of 24); cross-language (24 of 25) and
    # traditional (22 of 24) up when a common word of a synonym phrase stood for nothing; traditional (23 of 24) up with
    # words typed in the other order read as the word they make; en 26 of 26 with English conjunctions as filler;
    # full-width 24 of 25 since a stretch typed with its symbols counts (docker run --gpus all 报错: a specific entry's
    # symptom states it), its floor what it reaches; zh-phrase and traditional 24 of 24 with the colloquial and regional
    # keywords (digits 24 of 25, its floor what it reaches)
    "zh-phrase": 0.95, "zh-word": 0.92, "mixed": 0.92, "error": 0.96, "colloquial": 0.88, "en": 0.96, "pinyin": 0.96,
    "traditional": 0.95, "regional": 0.83, "typo": 0.95, "digits": 0.96, "question": 0.92, "cross-language": 0.92,
    "full-width": 0.96, "log-line": 0.92,
}


def _top1_per_kind(queries: list[dict], rankings: dict, least: dict[str, float]) -> None:
    assert set(least) == {q["kind"] for q in queries}
    empty = [q["q"] for q in queries if not rankings[q.get("lang", "zh"), q["q"]]]
    assert empty == [], f"no result for {empty}"
    for kind, at_least in least.items():
        chosen = [q for q in queries if q["kind"] == kind]
        firsts = []
        for query in chosen:
            ids = rankings[query.get("lang", "zh"), query["q"]]
            firsts.append(bool(ids) and ids[0] in {query["id"], *query.get("also", [])})
        misses = [q["q"] for q, first in zip(chosen, firsts, strict=True) if not first]
        assert sum(firsts) / len(firsts) >= at_least, f"{kind}: top-1 {sum(firsts)}/{len(firsts)}; missed: {misses}"


def test_query_set_finds_the_right_entry_first(browser_rankings):
    _top1_per_kind(QUERIES, browser_rankings, TOP1_AT_LEAST)
    assert len([q for q in QUERIES if q["kind"] in ("pinyin", "traditional", "regional", "typo", "digits")]) >= 75


@pytest.mark.site
def test_corpus_query_set_finds_the_right_entry_first(corpus_rankings):
    assert len(CORPUS_QUERIES) >= 300
    _top1_per_kind(CORPUS_QUERIES, corpus_rankings, CORPUS_TOP1_AT_LEAST)


@pytest.mark.site
def test_the_12_entry_set_asked_at_172_entries_stays_where_it_is(corpus_site):
    """The public set of the 12 seed entries asked of the realistic corpus, as a wiki that grew (right also on the
    corpus entries judged blind as good an answer: bench/seed_queries_also_at_corpus.yml). Under node, the engine the
    browser runs (the tests above compare the two). It finds 191 of 210 first (0.91); the floor is that less about
    four queries: it guards what is reached, below the goal of 0.95 (docs/SEARCH.md)."""
    queries = with_judgments(QUERIES, ROOT / "bench" / "seed_queries_also_at_corpus.yml")
    firsts = []
    for lang in ("zh", "en"):
        asked = [q for q in queries if q.get("lang", "zh") == lang]
        for query, ranked in zip(asked, run_queries(corpus_site / lang / "search", [q["q"] for q in asked]), strict=True):
            firsts.append(bool(ranked) and ranked[0]["id"] in {query["id"], *query["also"]})
    assert len(firsts) == 210
    assert sum(firsts) >= 187, f"top-1 {sum(firsts)} of 210"


def test_cli_engine_ranks_like_the_browser(site, browser_rankings):
    for lang in ("zh", "en"):
        queries = [q["q"] for q in QUERIES if q.get("lang", "zh") == lang]
        for query, ranked in zip(queries, run_queries(site / lang / "search", queries), strict=True):
            # Material renders the first 10 results at once and the rest on scrolling
            assert [r["id"] for r in ranked][:10] == browser_rankings[lang, query], query


@pytest.mark.site
def test_cli_engine_ranks_the_corpus_like_the_browser(corpus_site, corpus_rankings):
    for lang in ("zh", "en"):
        queries = [q["q"] for q in CORPUS_QUERIES if q.get("lang", "zh") == lang]
        # a search box holds one line: the browser drops the line breaks of a pasted log, so the CLI is asked the same
        typed = [query.replace("\r", "").replace("\n", "") for query in queries]
        for query, ranked in zip(queries, run_queries(corpus_site / lang / "search", typed), strict=True):
            assert [r["id"] for r in ranked][:10] == corpus_rankings[lang, query], query


def test_deep_link_opens_with_results(site_url, browser):
    page = browser.new_page()
    page.goto(f"{site_url}zh/?q={quote('显存溢出')}")
    first = page.locator(".md-search-result__item").first
    first.wait_for()
    assert "/zh/cuda-out-of-memory/" in first.locator("a").first.get_attribute("href")
    assert first.locator("mark").count() > 0  # matched words are highlighted
    page.close()


def test_the_12_entries_index_travels_in_the_worker(site_url, browser):
    """A small index is carried by its worker (docs/SEARCH.md, "A small index in its worker"): a page's searches ask the
    server for the worker and Material's stub, and for no file of the index's folder (search/<version>/…)."""
    page = browser.new_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    open_search(page, f"{site_url}zh/")
    shown = [search(page, "zh", query)[1] for query in ("显存不足", "nvidia-smi 正常 docker 里看不到 GPU")]
    page.close()
    assert shown[0][0] == "cuda-out-of-memory" and shown[1][0] == "docker-gpu"
    assert f"{site_url}zh/search/worker.js" in asked
    assert [url for url in asked if re.search(r"/search/[0-9a-f]{12}/", url)] == []


# the URLs of the index files kept in the browser's store (static/assets/search/kept.js), read from the page
KEPT_URLS = """() => new Promise(resolve => {
  const request = indexedDB.open("pitfalls-search", 1);
  request.onupgradeneeded = () => request.result.createObjectStore("files");
  request.onsuccess = () => {
    const keys = request.result.transaction("files").objectStore("files").getAllKeys();
    keys.onsuccess = () => { request.result.close(); resolve(keys.result); };
  };
})"""


@pytest.mark.site
def test_the_next_page_reads_the_index_files_the_last_one_fetched_from_the_browser(corpus_site, http_server, browser):
    """At 172 entries the worker fetches its index files, and keeps them in the browser's IndexedDB once no file came for
    a second (docs/SEARCH.md, "Index files kept in the browser"): the next page's same search asks the server for none
    of them, and shows the same results. http.server sends batch.json as written (waves.js): the worker asks for it
    once, then for each file alone, and keeps its address as the mark of a server that does not read it."""
    url = http_server(corpus_site)
    context = browser.new_context()
    asked = []
    context.on("request", lambda request: asked.append(request.url) if re.search(r"/search/[0-9a-f]{12}/", request.url) else None)
    shown = []
    for _ in range(2):
        page = context.new_page()
        open_search(page, f"{url}zh/")
        shown.append(search(page, "zh", "docker 容器里 nvidia-smi 找不到显卡")[1])
        if not shown[1:]:
            assert asked, "the first page fetches the index files it needs"
            # the reader reads the results: the worker writes what it fetched, a second after the last file
            deadline = time.monotonic() + 10
            assert any("/batch.json?" in url for url in asked)
            while not {url.split("?")[0] for url in asked} <= set(page.evaluate(KEPT_URLS)):
                assert time.monotonic() < deadline, "the worker keeps the files it fetched"
                page.wait_for_timeout(100)
            asked.clear()
        page.close()
    context.close()
    assert shown[0] and shown[1] == shown[0]
    assert asked == []


def test_a_word_is_found_while_it_is_typed(site_url, browser):
    # typed key by key as a reader types (Material searches at each keyup): nvid is nvidia-smi half typed, which only the
    # docker entry's title names; before the engine read the last word as the terms it begins, nvid found nothing
    page = browser.new_page()
    open_search(page, f"{site_url}zh/")
    first_is = """id => (document.querySelector(".md-search-result__item > a") || {}).href?.includes(`/zh/${id}/`)"""
    page.locator("input.md-search__input").press_sequentially("nvid", delay=50)
    page.wait_for_function(first_is, arg="docker-gpu")
    # pinyin with its last syllable half typed, which found nothing before too: xianc… is xiancun, 显存. Its last key
    # only: xian, a key before, finds 显存 already, and a list left from it would pass for this one's
    page.locator("input.md-search__input").fill("xian")
    page.locator("input.md-search__input").press_sequentially("c")
    page.wait_for_function(first_is, arg="cuda-out-of-memory")
    page.locator("input.md-search__input").fill("nvi")
    page.locator("input.md-search__input").press_sequentially("d")
    page.wait_for_function(first_is, arg="docker-gpu")
    # as an input method shows it while it composes 显存 (Chromium's own composition, through CDP, then the key's keyup,
    # on which Material searches): the syllables set apart by an apostrophe, which found nothing before
    page.locator("input.md-search__input").fill("")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.imeSetComposition", {"text": "xian'c", "selectionStart": 6, "selectionEnd": 6})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "c", "code": "KeyC"})
    assert page.locator("input.md-search__input").input_value() == "xian'c"
    page.wait_for_function(first_is, arg="cuda-out-of-memory")
    cdp.send("Input.insertText", {"text": "显存"})  # the word chosen: the composition ends (no keyup: no search)
    # an identifier half typed, by its last key: nvidia-sm is nvidia-smi (the docker entry's title), not nvidia and the
    # word sm (sm_89 of the CUDA version entry, which it put first before)
    page.locator("input.md-search__input").fill("nvidia-s")
    page.locator("input.md-search__input").press_sequentially("m")
    page.wait_for_function(first_is, arg="docker-gpu")
    page.close()


def _result_list(page) -> str:
    page.locator(".md-search-result__item").first.wait_for()
    return page.locator(".md-search-result__list").inner_text()


def test_no_results_says_so_and_offers_terms_and_tags(site_url, browser):
    page = browser.new_page()
    for lang, query, says in (("zh", "gitt", "没有找到结果"), ("en", "gitt", "No results")):
        page.goto(f"{site_url}{lang}/?q={quote(query)}")
        text = _result_list(page)
        assert says in text and "git" in text.replace(query, "")  # the nearest index term is offered
        link = page.locator(".md-search-result__item > a").first.get_attribute("href")
        assert link.split("?")[0].endswith(f"/{lang}/tags/")
    page.close()


def test_hostile_queries_answer_and_leave_the_worker_usable(site, site_url, browser):
    page = browser.new_page()
    open_search(page, f"{site_url}zh/")
    for query in HOSTILE_QUERIES:
        search(page, "zh", query)  # returns once the list shows results or the "no results" item
        assert page.locator(".md-search-result__item").count() >= 1, query[:40]
    assert search(page, "zh", "显存不足")[1][0] == "cuda-out-of-memory"
    page.close()
    assert len(run_queries(site / "zh" / "search", HOSTILE_QUERIES)) == len(HOSTILE_QUERIES)  # node answers them too


def test_search_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pitfalls", "search", "dataloader hangs on windows", "--lang", "en",
                           "--json"], cwd=ROOT, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    best = json.loads(done.stdout)[0]
    assert best["id"] == "dataloader-workers-hang" and best["url"] == "http://127.0.0.1:8000/en/dataloader-workers-hang/"
    done = subprocess.run([sys.executable, "-m", "pitfalls", "search", "x", "--site-dir", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2 and "build the site first" in done.stderr


def test_search_command_names_where_an_entry_ranks(tmp_path):
    """--entry: the entry's place among all the entries the query matches, and why; one line for an unknown id."""
    def ask(*words):
        return subprocess.run([sys.executable, "-m", "pitfalls", "search", *words], cwd=ROOT, capture_output=True, text=True,
                              encoding="utf-8")
    done = ask("fail2ban", "--entry", "loss-nan", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [r["id"] for r in answer["results"]] == ["ssh-port-blocked"]
    assert answer["entry"] == {"matched": 1, "rank": None, "result": None}
    done = ask("fail2ban", "--entry", "ssh-port-blocked")
    lines = done.stdout.splitlines()
    assert lines[2] == "[ssh-port-blocked] is result 1 of the 1 entry the query matches"
    assert lines[3].startswith("    message 0  words ") and lines[4].startswith("    · fail2ban (weight ")  # why, without --explain
    for words, message in ((("x", "--entry", "no-such-entry"), "search: --entry no-such-entry: no entry in "),
                           (("x", "--entry", "cuda-oom-old", "--content", str(FIXTURES / "tiny")),
                            "search: --entry cuda-oom-old: a former id of gpu-oom: ask for gpu-oom"),
                           (("x", "--entry", "no-such-entry", "--site-dir", str(tmp_path)), "search: --site-dir ")):
        done = ask(*words)
        assert done.returncode == 2 and done.stderr.startswith(message) and len(done.stderr.splitlines()) == 1, done.stderr


def test_search_command_names_where_an_entry_ranks_in_a_built_site(site):
    done = subprocess.run([sys.executable, "-m", "pitfalls", "search", "fail2ban", "--entry", "ssh-port-blocked", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == "[ssh-port-blocked] is result 1 of the 1 entry the query matches"
    assert (site / "zh" / "tags" / "index.html").is_file()  # a page, not an entry
    done = subprocess.run([sys.executable, "-m", "pitfalls", "search", "fail2ban", "--entry", "tags", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8")
    assert (done.returncode, done.stderr) == (2, f"search: --entry tags: the site in {site} has no entry with this id\n")


def test_entry_standing_below_the_results_listed(capsys):
    explain = {"rules": {"message": 0, "words": 0.356, "typo": 0, "score": 5}, "share": 0.324, "title": 0, "phrases": 0, "linkedFrom": 11,
               "length": 0.49, "decidedBy": "words", "message": None, "queryUnits": ["梯度检查点"], "common": [], "commonCharacters": [],
               "units": [{"unit": "梯度检查点", "weight": 1.821, "match": 0.324, "entries": 4,
                          "terms": [{"term": "梯度检查点", "reading": "typed", "fields": ["steps"]}]}]}
    result = {"id": "cuda-out-of-memory", "title": "显存不足 (CUDA out of memory)", "score": 5, "exact": False,
              "url": "http://127.0.0.1:8000/zh/cuda-out-of-memory/", "explain": explain}
    _print_standing("cuda-out-of-memory", {"matched": 69, "rank": 18, "result": result}, 10, explained=False)
    assert capsys.readouterr().out.splitlines() == [
        "[cuda-out-of-memory] ranks 18 of the 69 entries the query matches, below the 10 listed:",
        "18. 显存不足 (CUDA out of memory)  [cuda-out-of-memory]  (5.00)",
        "    http://127.0.0.1:8000/zh/cuda-out-of-memory/",
        "    message 0  words 0.356 (share 0.324, title 0, linked from 11, length 0.49)  typo 0  score 5  (below the one before by: words)",
        "    · 梯度检查点 (weight 1.821, match 0.324, in 4 entries): 梯度检查点 (typed; steps)",
    ]
    _print_standing("cuda-out-of-memory", {"matched": 69, "rank": 4, "result": result}, 10, explained=True)
    assert capsys.readouterr().out.splitlines() == ["[cuda-out-of-memory] is result 4 of the 69 entries the query matches"]


def test_explain_prints_the_rules_the_message_found_and_each_matched_piece():
    explain = {"rules": {"message": 2, "words": 0.5, "typo": 1, "score": 9.5}, "share": 0.4, "title": 0.25, "phrases": 0, "linkedFrom": 3, "length": 0.62, "decidedBy": "words",
               "message": "torch outofmemoryerror", "queryUnits": ["torch", "oom", "显存"],
               "units": [{"unit": "torch", "weight": 2.262, "match": 1, "entries": 1,
                          "terms": [{"term": "torch", "reading": "typed", "fields": ["title", "steps"]}]},
                         {"unit": "oom", "weight": 0.8, "match": 0.5, "entries": 5.5, "terms": [{"term": "oom", "reading": "typed", "fields": ["tags"]},
                                                   {"term": "显存不足", "reading": "synonym", "fields": ["title"]}]}]}
    assert explanation(explain).split("\n") == [
        "    message 2  words 0.5 (share 0.4, title 0.25, linked from 3, length 0.62)  typo 1  score 9.5  (below the one before by: words)",
        "    · error message: torch … outofmemoryerror",  # a signature's runs
        "    · torch (weight 2.262, match 1, in 1 entry): torch (typed; title steps)",
        "    · oom (weight 0.8, match 0.5, in 5.5 entries): oom (typed; tags), 显存不足 (synonym; title)",
        "    · not matched: 显存",
    ]
    assert unread(explain | {"common": [], "commonCharacters": []}) == []
    assert unread(explain | {"common": [{"term": "train", "entries": 65}, {"term": "from", "entries": 73}], "commonCharacters": []}) == [
        "not read, a synonym phrase's word in more than a quarter of the entries: train (65 entries), from (73 entries)"]
    assert unread(explain | {"common": [{"term": "train", "entries": 65}], "commonCharacters": [{"term": "卡", "entries": 66}]}) == [
        "not read, a synonym phrase's word in more than a quarter of the entries: train (65 entries)",
        "not read, a lone character in more than a quarter of the entries: 卡 (66 entries)"]
    assert explanation(explain | {"message": None, "decidedBy": None}).split("\n")[:2] == [
        "    message 2  words 0.5 (share 0.4, title 0.25, linked from 3, length 0.62)  typo 1  score 9.5",
        "    · torch (weight 2.262, match 1, in 1 entry): torch (typed; title steps)"]
    # the share of the query in phrases the index has apart that the entry says as typed, when there is some
    assert explanation(explain | {"phrases": 0.57}).split("\n")[0] == (
        "    message 2  words 0.5 (share 0.4, title 0.25, linked from 3, length 0.62, phrases 0.57)  typo 1  score 9.5"
        "  (below the one before by: words)")


@pytest.mark.site
def test_record_html_shows_as_text_in_results(http_server, browser):
    """A search link's results (the worker's early search, on the zh site) show a title's markup as text, the words
    matched inside it marked: the hostile fixture, whose title is markup of every kind (tests/test_untrusted_text.py)."""
    site_url = http_server(shared_site(FIXTURES / "hostile"))
    page = browser.new_page()
    page.goto(f"{site_url}zh/?q={quote('pfxevil img')}")
    title = page.locator(".md-search-result__item h1").first
    title.wait_for()
    assert "<img src=x onerror=pfxevil(2)>" in title.text_content()
    assert title.locator("mark").count() > 0
    assert page.locator(".md-search-result img, pfx-evil, .md-search-result script").count() == 0
    page.close()


def test_bad_vocabulary_is_reported_with_file_and_field(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "synonyms.yml").write_text("synonyms:\n  - [显存, OOM]\n  - [oom]\nwords: [卡 死]\n", encoding="utf-8")
    _, problems = check_content(content)
    found = {(p.file, p.field) for p in problems if p.severity == "error"}
    assert ("content/synonyms.yml", "synonyms[1]") in found  # a group of one
    assert ("content/synonyms.yml", "words[0]") in found  # a word with a space
    (content / "synonyms.yml").write_text("synonyms:\n  - [显存, OOM]\n  - [oom, 爆显存]\n", encoding="utf-8")
    _, problems = check_content(content)
    assert [p.field for p in problems if p.file == "content/synonyms.yml"] == ["synonyms[1][0]"]
