"""Stage 5: the site search index of one language, and `python -m pitfalls search`.

The browser side is static/assets/search/engine.js (run by worker.js behind Material's search
UI). This module cuts the entries into terms, scores every (term, entry) pair once with BM25F,
and writes the index as small files the engine fetches on demand (docs/SEARCH.md):

    search/search_index.json   stub for Material's page script (config only, no documents)
    search/manifest.json       shard count, synonyms, stop words, section headings
    search/t/<k>.json          term → postings, for the terms whose shard key hashes to k
    search/d/<n>.json          what a result shows of entry n, and its error messages

Chinese is cut by jieba in search-engine mode with the project dictionary; every Chinese
character is indexed too, so any Chinese word of an entry can be found. English (on both sites)
is lowercased, split on anything but letters and digits, and stemmed by `stem`, which engine.js
repeats character for character.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .export import entry_url, site_root
from .model import LANGUAGES, KnowledgeBase, Record
from .render import plain_text, ui_strings
from .site import ROOT
from .vocabulary import Vocabulary, check_vocabulary

ENGINE_JS = ROOT / "static" / "assets" / "search" / "engine.js"
NODE_RUNNER = Path(__file__).with_name("search_node.js")

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PIECES = re.compile(f"([{HAN}]+)|([a-z0-9]+)")
_NOT_WORD = re.compile(f"[^a-z0-9{HAN}]+")
_VOWELS = set("aeiouy")

FIELD_WEIGHTS = {"title": 5.0, "symptoms": 4.0, "tags": 4.0, "quick_fix": 3.0, "body": 1.0}
"""BM25F weights: a match in the title, the error messages or the tags outweighs one in the body."""
K1, B = 1.2, 0.5
"""BM25 saturation and length normalisation."""
SCORE_SCALE = 100
"""Scores are stored as integers: score × SCORE_SCALE, rounded."""
SECTIONS = ("", "quick-fix", "symptoms", "steps", "cause", "verification", "environment")
"""Result parts of an entry: bit i of a posting's mask says the term occurs in SECTIONS[i] ("" = title, tags)."""
SHARD_TARGET_BYTES = 12_000
"""Postings per shard file, roughly: the shard count is the smallest power of two that gets there."""
MAX_POSTINGS = 400
"""A term found in more entries keeps only its best-scoring ones: such a common word ranks little
on its own, and uncapped it would make its shard (and the download before a result) large."""
MAX_TERM_CHARS = 12
"""Longer Chinese words are left to their parts (the query side tries substrings up to this length)."""


# --- text analysis, mirrored by engine.js ---


def normalize(text: str) -> str:
    """NFKC (full-width → ASCII) and lowercase: the first step on both sides."""
    return unicodedata.normalize("NFKC", text).lower()


def keep_word(word: str) -> bool:
    """Whether an ASCII word is worth a term: not a single letter, a long number, a hash or an address."""
    if len(word) < 2 or len(word) > 30:
        return False
    if word.isdigit():
        return len(word) <= 4
    return not (len(word) >= 8 and any(c.isdigit() for c in word))


def stem(word: str) -> str:
    """A small suffix stemmer for English words (plurals, -ed, -ing, -ation, final e, y)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith(("ches", "shes", "xes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ation", "ing", "ed"):
        rest = word[: -len(suffix)]
        if word.endswith(suffix) and len(rest) >= 3 and _VOWELS & set(rest) and not (suffix == "ed" and rest.endswith("e")):
            word = rest
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in _VOWELS:
                word = word[:-1]
            break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    if word.endswith("y") and len(word) >= 4:
        word = word[:-1] + "i"
    return word


def english_terms(text: str) -> list[str]:
    """The English terms of already normalized text, in order (Chinese runs skipped)."""
    return [stem(m.group(2)) for m in _PIECES.finditer(text) if m.group(2) and keep_word(m.group(2))]


def message_key(text: str) -> str:
    """An error message reduced to its letters, digits and Chinese, for the exact-message match."""
    return _NOT_WORD.sub("", normalize(text))


def shard_key(term: str) -> str:
    """What decides a term's shard: the first character of a Chinese term (so the query side
    fetches one shard per character to find every word starting there), else the whole term."""
    return term[0] if re.match(f"[{HAN}]", term) else term


def shard_of(term: str, shards: int) -> int:
    """FNV-1a over the code points of the shard key, modulo the shard count."""
    h = 0x811C9DC5
    for char in shard_key(term):
        h = ((h ^ ord(char)) * 0x01000193) & 0xFFFFFFFF
    return h % shards


class Analyzer:
    """Cuts text into index terms: jieba (search-engine mode, project dictionary) for Chinese,
    `english_terms` for the rest."""

    def __init__(self, words: set[str], stopwords: set[str]):
        import jieba  # only the index build needs it

        jieba.setLogLevel(60)
        self.stopwords = stopwords
        self.jieba = jieba.Tokenizer()
        self.jieba.initialize()
        for word in sorted(words):
            self.jieba.add_word(word)

    def terms(self, text: str) -> tuple[list[str], list[str]]:
        """(word terms, single Chinese characters) of `text`; words count for the entry's length."""
        words, chars = [], []
        for match in _PIECES.finditer(normalize(text)):
            run, word = match.groups()
            if run:
                words += [w for w in self.jieba.cut_for_search(run, HMM=True) if 1 < len(w) <= MAX_TERM_CHARS]
                chars += list(run)
            elif keep_word(word):
                words.append(stem(word))
        return words, chars

    def phrase(self, text: str) -> list[str]:
        """The terms a synonym phrase stands for, as the query side sees them: whole words
        (accurate mode, no sub-words), without the filler the query side drops."""
        terms = []
        for match in _PIECES.finditer(normalize(text)):
            run, word = match.groups()
            if run:
                terms += [w for w in self.jieba.cut(run, HMM=False) if w not in self.stopwords]
            elif keep_word(word) and word not in self.stopwords:
                terms.append(stem(word))
        return terms


@cache
def analyzer_for(words: frozenset[str], stopwords: frozenset[str]) -> Analyzer:
    """One analyzer per dictionary (loading jieba's takes a second)."""
    return Analyzer(set(words), set(stopwords))


def project_words(base: KnowledgeBase, vocabulary: Vocabulary) -> frozenset[str]:
    """The jieba user dictionary: reviewed words, labels, Chinese synonyms."""
    words = set(vocabulary.words)
    for label in (*base.categories, *base.tags):
        words.add(label.zh)
    for group in vocabulary.synonyms:
        words.update(group)
    return frozenset(w for w in words if re.fullmatch(f"[{HAN}]{{2,{MAX_TERM_CHARS}}}", w))


# --- the index ---


@dataclass(frozen=True)
class EntryText:
    """The searchable text of one entry in one language, by field and by result section."""

    record: Record
    """The entry."""
    fields: dict[str, list[tuple[int, str]]]
    """Field name → (section bit, text) pieces."""


def entry_text(record: Record, base: KnowledgeBase, lang: str) -> EntryText:
    ui = ui_strings()[lang]
    body: list[tuple[int, str]] = []
    body += [(3, step.text.get(lang) + ("\n" + step.code if step.code else "")) for step in record.steps]
    if record.cause:
        body.append((4, record.cause.get(lang)))
    if record.verification:
        body.append((5, record.verification.text.get(lang) + ("\n" + record.verification.code if record.verification.code else "")))
    body += [(6, f"{ui['env_' + key]} {value}") for key, value in sorted(record.environment.items())]
    labels = [record.category.get(lang), *(tag.get(lang) for tag in record.tags)]
    return EntryText(record, {
        "title": [(0, record.title.get(lang))],
        "symptoms": [(2, symptom.text.get(lang)) for symptom in record.symptoms],
        "tags": [(0, label) for label in labels],
        "quick_fix": [(1, record.quick_fix.get(lang))],
        "body": body,
    })


@dataclass(frozen=True)
class SearchIndex:
    """The files of one language's index, as JSON-ready data."""

    manifest: dict
    """manifest.json."""
    shards: list[dict]
    """t/<k>.json for k in range(len(shards))."""
    docs: list[dict]
    """d/<n>.json for n in range(len(docs))."""


def build_index(base: KnowledgeBase, vocabulary: Vocabulary, lang: str) -> SearchIndex:
    """Cut, count and score every entry of `base` in `lang`."""
    analyzer = analyzer_for(project_words(base, vocabulary), frozenset(normalize(w) for w in vocabulary.stopwords))
    counts: list[dict[str, float]] = []
    masks: list[dict[str, int]] = []
    lengths: list[float] = []
    docs = []
    for record in base.records:
        text = entry_text(record, base, lang)
        weighted: dict[str, float] = defaultdict(float)
        mask: dict[str, int] = defaultdict(int)
        length = 0.0
        for field, pieces in text.fields.items():
            weight = FIELD_WEIGHTS[field]
            for bit, piece in pieces:
                words, chars = analyzer.terms(plain_text(piece))
                length += weight * len(words)
                for term in (*words, *chars):
                    weighted[term] += weight
                    mask[term] |= 1 << bit
        counts.append(weighted)
        masks.append(mask)
        lengths.append(length)
        docs.append(_doc_data(record, text, lang))

    n = len(base.records)
    average = sum(lengths) / n if n else 1.0
    df = Counter(term for weighted in counts for term in weighted)
    scored: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for number, weighted in enumerate(counts):
        norm = K1 * (1 - B + B * lengths[number] / average)
        for term, tf in sorted(weighted.items()):
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            score = round(SCORE_SCALE * idf * tf * (K1 + 1) / (tf + norm))
            scored[term].append((number, max(score, 1), masks[number][term]))
    postings: dict[str, list[int]] = {}
    for term, hits in scored.items():
        if len(hits) > MAX_POSTINGS:
            hits = sorted(sorted(hits, key=lambda hit: (-hit[1], hit[0]))[:MAX_POSTINGS])
        postings[term] = [value for hit in hits for value in hit]

    size = sum(len(t) * 3 + 6 * len(p) for t, p in postings.items())
    shard_count = 1
    while size / shard_count > SHARD_TARGET_BYTES:
        shard_count *= 2
    shards: list[dict] = [{} for _ in range(shard_count)]
    for term in sorted(postings):
        shards[shard_of(term, shard_count)][term] = postings[term]

    ui = ui_strings()[lang]
    headings = {"quick-fix": ui["quick_fix"], "symptoms": ui["symptoms"], "steps": ui["steps"], "cause": ui["cause"],
                "verification": ui["verification"], "environment": ui["environment"]}
    manifest = {
        "lang": lang,
        "docs": n,
        "shards": shard_count,
        "maxTermChars": MAX_TERM_CHARS,
        "sections": [[anchor, headings.get(anchor, "")] for anchor in SECTIONS],
        "stopwords": sorted({normalize(w) for w in vocabulary.stopwords}),
        "synonyms": [[analyzer.phrase(phrase) for phrase in group] for group in vocabulary.synonyms],
    }
    digest = hashlib.sha256(json.dumps([manifest, shards, docs], ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    manifest["version"] = digest[:12]  # appended to file URLs, so a rebuilt site is never mixed with a cached one
    return SearchIndex(manifest, shards, docs)


def _doc_data(record: Record, text: EntryText, lang: str) -> dict:
    """What a result shows of an entry (plain text; engine.js escapes and highlights it)."""
    sections: dict[int, list[str]] = defaultdict(list)
    sections[1].append(plain_text(record.quick_fix.get(lang)))
    for field in ("symptoms", "body"):
        for bit, piece in text.fields[field]:
            sections[bit].append(plain_text(piece))
    return {
        "location": f"{record.id}/",
        "title": plain_text(record.title.get(lang)),
        "tags": [tag.get(lang) for tag in record.tags],
        "sections": [[bit, lines] for bit, lines in sorted(sections.items())],
        "messages": [message_key(s.text.get(lang)) for s in record.symptoms if message_key(s.text.get(lang))],
    }


def material_stub(lang: str) -> dict:
    """search_index.json for Material's page script: its config (used to highlight ?h= terms
    on the page) and no documents; our worker fetches the index itself."""
    return {"config": {"lang": [lang], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}, "docs": []}


def write_index(index: SearchIndex, search_dir: Path) -> None:
    """Write the index files into `search_dir` (a language site's search/), replacing what is there."""
    if search_dir.exists():
        shutil.rmtree(search_dir)
    (search_dir / "t").mkdir(parents=True)
    (search_dir / "d").mkdir()

    def dump(path: Path, data: object) -> None:
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")

    dump(search_dir / "search_index.json", material_stub(index.manifest["lang"]))
    dump(search_dir / "manifest.json", index.manifest)
    for number, shard in enumerate(index.shards):
        dump(search_dir / "t" / f"{number}.json", shard)
    for number, doc in enumerate(index.docs):
        dump(search_dir / "d" / f"{number}.json", doc)


def write_site_index(base: KnowledgeBase, content_dir: Path, lang: str, site_dir: Path) -> None:
    """The hook's step: the index of `lang` into that language's built site."""
    vocabulary, problems = check_vocabulary(content_dir)
    if vocabulary is None:  # check_content reports these before any build starts
        raise ValueError("\n".join(str(p) for p in problems))
    write_index(build_index(base, vocabulary, lang), site_dir / "search")


# --- the command line: the browser's engine.js, run by node over the same files ---


def run_queries(search_dir: Path, queries: list[str]) -> list[list[dict]]:
    """The ranked entries ({id, title, score, exact}) for each query against the index in
    `search_dir`, computed by engine.js under node."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("`python -m pitfalls search` runs the site's search engine with node; install nodejs")
    done = subprocess.run([node, str(NODE_RUNNER), str(ENGINE_JS), str(search_dir)], input=json.dumps(queries),
                          capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise RuntimeError(f"the search engine failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout)


def register(commands) -> None:
    search = commands.add_parser("search", help="像站点一样搜索条目 / search the entries with the site's engine")
    search.add_argument("query", help="what you would type into the site's search box")
    search.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0], help="site language (default: %(default)s)")
    search.add_argument("--json", action="store_true", help="print the results as JSON")
    search.add_argument("--content", type=Path, default=ROOT / "content", help="content folder (default: %(default)s)")
    search.add_argument("--site-dir", type=Path, help="search this built site instead of indexing --content afresh")
    search.set_defaults(run=_search)


def _search(args) -> int:
    from .validate import ContentError, load_knowledge_base

    try:
        if args.site_dir:
            search_dir = args.site_dir / args.lang / "search"
            if not (search_dir / "manifest.json").exists():
                print(f"{search_dir} has no search index: build the site first", file=sys.stderr)
                return 1
            results = run_queries(search_dir, [args.query])[0]
        else:
            base = load_knowledge_base(args.content)
            with tempfile.TemporaryDirectory(prefix="pitfalls-search-") as tmp:
                write_site_index(base, args.content, args.lang, Path(tmp))
                results = run_queries(Path(tmp) / "search", [args.query])[0]
    except (ContentError, RuntimeError) as err:
        print(err, file=sys.stderr)
        return 1
    root = site_root()
    results = [{**result, "url": entry_url(root, args.lang, result["id"])} for result in results]
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    else:
        for rank, result in enumerate(results, 1):
            print(f"{rank:2}. {result['title']}  [{result['id']}]  ({result['score']:.2f})\n    {result['url']}")
        if not results:
            print("no results", file=sys.stderr)
    return 0
