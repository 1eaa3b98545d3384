"""The site search index of one language (`pitfalls search` runs its queries: commands/search.py).

The browser side is static/assets/search/engine.js (run by worker.js behind Material's search
UI). This module cuts the entries into terms, scores every (term, entry) pair once with BM25F,
and writes the index as small files the engine fetches on demand (docs/SEARCH.md):

    search/search_index.json   stub for Material's page script (config only, no documents)
    search/manifest.json       what engine.js must agree on: shard count, score scale, sections,
                               longest Chinese term, synonyms, stop words, pinyin syllables
    search/t/<k>.json          term → postings, for the terms whose shard key hashes to k, and the
                               traditional / Taiwan / Hong Kong forms of the Chinese terms there
    search/p/<k>.json          pinyin → Chinese terms, by first syllable (loaded only for pinyin queries)
    search/w/<n>.json          the English terms of n letters (loaded only to correct a typo)
    search/d/<n>.json          what a result shows of entry n, and its error messages

Chinese is cut by the content's segmenter (jieba, search-engine mode, project dictionary); every
Chinese character is indexed too, so any Chinese word of an entry can be found. English (on both
sites) is lowercased, split on anything but letters and digits, and stemmed (pitfalls/text.py,
which engine.js repeats character for character).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import sys
from array import array
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..records.model import KnowledgeBase, Record
from ..records.signatures import is_literal
from ..text import (
    HAN_CHARACTER,
    MAX_WORD_CHARS,
    PIECES,
    Segmenter,
    chinese_variants,
    keep_word,
    message_key,
    normalize,
    pinyin_reading,
    pinyin_syllables,
    release_dictionaries,
    stem,
    word_terms,
)
from .render import plain_text, ui_strings

FIELD_WEIGHTS = {"title": 5.0, "symptoms": 4.0, "tags": 4.0, "quick_fix": 3.0, "body": 1.0}
"""BM25F weights: a match in the title, the error messages or the tags outweighs one in the body."""
K1, B = 1.2, 0.5
"""BM25 saturation and length normalisation."""
SCORE_SCALE = 100
"""Scores are stored as integers: score × SCORE_SCALE, rounded."""
SECTIONS = ("", "quick-fix", "symptoms", "steps", "cause", "verification", "environment")
"""Result parts of an entry, by their anchor on the page: bit i of a posting's mask says the term
occurs in SECTIONS[i] ("" = title and tags, no anchor). The manifest hands the list to engine.js."""
_BIT = {anchor or "title": bit for bit, anchor in enumerate(SECTIONS)}
SHARD_TARGET_BYTES = 12_000
"""Postings per shard file, roughly: the shard count is the smallest power of two that gets there."""
MIN_TYPO_TERM_CHARS = 3
"""English terms shorter than this are not offered as corrections of a typo (too many are one edit apart)."""
MAX_POSTINGS = 400
"""A term found in more entries keeps only its best-scoring ones: such a common word ranks little
on its own, and uncapped it would make its shard (and the download before a result) large."""


def shard_key(term: str) -> str:
    """What decides a term's shard: the first character of a Chinese term (so the query side
    fetches one shard per character to find every word starting there), else the whole term."""
    return term[0] if HAN_CHARACTER.match(term) else term


def shard_of(term: str, shards: int) -> int:
    """FNV-1a over the code points of the shard key, modulo the shard count."""
    h = 0x811C9DC5
    for char in shard_key(term):
        h = ((h ^ ord(char)) * 0x01000193) & 0xFFFFFFFF
    return h % shards


class Analyzer:
    """Cuts text into index terms: the content's segmenter (jieba, search-engine mode) for Chinese,
    `word_terms` (noise dropped, stemmed, names with digits also by their parts) for the rest."""

    def __init__(self, segmenter: Segmenter, stopwords: frozenset[str]):
        self.segmenter = segmenter
        self.stopwords = stopwords

    def terms(self, text: str) -> tuple[list[str], list[str]]:
        """(words, parts) of `text`: the words count for the entry's length; the parts (each Chinese
        character, the parts of a name with digits) are indexed too but do not lengthen it."""
        words, parts = [], []
        for match in PIECES.finditer(normalize(text)):
            run, word = match.groups()
            if run:
                words += [w for w in self.segmenter.search_words(run) if 1 < len(w) <= MAX_WORD_CHARS]
                parts += list(run)
            elif terms := word_terms(word):
                words.append(terms[0])
                parts += terms[1:]
        return words, parts

    def phrase(self, text: str) -> list[str]:
        """The terms a synonym phrase stands for, as the query side sees them: whole words
        (accurate mode, no sub-words), without the filler the query side drops."""
        terms = []
        for match in PIECES.finditer(normalize(text)):
            run, word = match.groups()
            if run:
                terms += [w for w in self.segmenter.words(run) if w not in self.stopwords]
            elif keep_word(word) and word not in self.stopwords:
                terms.append(stem(word))
        return terms


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
    body += [(_BIT["steps"], step.text.get(lang) + ("\n" + step.code if step.code else "")) for step in record.steps]
    if record.cause:
        body.append((_BIT["cause"], record.cause.get(lang)))
    if record.verification:
        check = record.verification
        body.append((_BIT["verification"], check.text.get(lang) + ("\n" + check.code if check.code else "")))
    body += [(_BIT["environment"], f"{ui['env_' + key]} {value}") for key, value in sorted(record.environment.items())]
    labels = [record.category.get(lang), *(tag.get(lang) for tag in record.tags)]
    return EntryText(record, {
        "title": [(_BIT["title"], record.title.get(lang))],
        "symptoms": [(_BIT["symptoms"], symptom.text.get(lang)) for symptom in record.symptoms],
        "tags": [(_BIT["title"], label) for label in labels],
        "quick_fix": [(_BIT["quick-fix"], record.quick_fix.get(lang))],
        "body": body,
    })


@dataclass(frozen=True)
class SearchIndex:
    """The files of one language's index, as JSON-ready data."""

    manifest: dict
    """manifest.json."""
    shards: list[dict]
    """t/<k>.json for k in range(len(shards)): {"terms": term → postings, "variants": traditional or
    regional form → the simplified terms it stands for}, by the shard key of the term or form."""
    pinyin: list[dict]
    """p/<k>.json: toneless pinyin of a Chinese term, syllables joined → the terms read so, by the
    shard of the first syllable (the query side knows where a syllable starts, not where a term ends)."""
    words: dict[int, list[str]]
    """w/<n>.json: the English terms of n letters (at least MIN_TYPO_TERM_CHARS), sorted: a typo of
    a word is looked for among the terms of about its length."""
    docs: list[dict]
    """d/<n>.json for n in range(len(docs))."""

    def files(self) -> dict[str, object]:
        """Every file but Material's stub: path inside search/ → its data."""
        return {"manifest.json": self.manifest,
                **{f"t/{n}.json": shard for n, shard in enumerate(self.shards)},
                **{f"p/{n}.json": shard for n, shard in enumerate(self.pinyin)},
                **{f"w/{length}.json": words for length, words in self.words.items()},
                **{f"d/{n}.json": doc for n, doc in enumerate(self.docs)}}


@dataclass(frozen=True)
class EntryAnalysis:
    """One entry cut into terms: what scoring needs of it, and what a result shows."""

    record: Record
    """The entry analysed."""
    terms: tuple[str, ...]
    """Its distinct terms, in the order met (interned: one string per term across entries)."""
    weights: array
    """Per term: its count, weighted by field (FIELD_WEIGHTS)."""
    masks: array
    """Per term: bits of the SECTIONS it occurs in."""
    length: float
    """The entry's weighted number of words."""
    doc: dict
    """d/<n>.json."""


def _analyze(record: Record, base: KnowledgeBase, lang: str, analyzer: Analyzer) -> EntryAnalysis:
    text = entry_text(record, base, lang)
    weighted: dict[str, float] = defaultdict(float)
    mask: dict[str, int] = defaultdict(int)
    length = 0.0
    for field, pieces in text.fields.items():
        weight = FIELD_WEIGHTS[field]
        for bit, piece in pieces:
            words, parts = analyzer.terms(plain_text(piece))
            length += weight * len(words)
            for term in map(sys.intern, (*words, *parts)):  # one string per term across entries
                weighted[term] += weight
                mask[term] |= 1 << bit
    # kept as a tuple and two arrays, not two dicts: a few thousand entries' dicts were a third of a build's peak memory
    return EntryAnalysis(record, tuple(weighted), array("d", weighted.values()), array("B", mask.values()), length,
                         _doc_data(record, text, lang))


def build_index(base: KnowledgeBase, lang: str, analyses: dict[str, EntryAnalysis] | None = None) -> SearchIndex:
    """Cut, count and score every entry of `base` in `lang`. `analyses` (record id → its analysis, filled
    here) lets `serve` cut only the records that changed since the last index of the same vocabulary."""
    vocabulary = base.vocabulary
    stopwords = frozenset(normalize(w) for w in vocabulary.stopwords)
    stopwords |= frozenset(chinese_variants(sorted(w for w in stopwords if HAN_CHARACTER.match(w))))  # 怎麼辦 as 怎么办
    analyzer = Analyzer(base.segmenter(), stopwords)
    entries = []
    for record in base.records:
        known = analyses.get(record.id) if analyses is not None else None
        if known is None or known.record != record:
            known = _analyze(record, base, lang, analyzer)
            if analyses is not None:
                analyses[record.id] = known
        entries.append(known)
    docs = [entry.doc for entry in entries]

    n = len(base.records)
    average = sum(entry.length for entry in entries) / n if n else 1.0
    df = Counter(term for entry in entries for term in entry.terms)
    idf = {term: SCORE_SCALE * (K1 + 1) * math.log(1 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    # flat [entry, score, mask, entry, score, mask, …] lists: a tuple per hit would take twice the memory
    # as 32-bit arrays: a Python int per value took half the build's peak memory at 5,000 entries
    postings: dict[str, array] = defaultdict(lambda: array("i"))
    for number, entry in enumerate(entries):
        norm = K1 * (1 - B + B * entry.length / average)
        for term, tf, bits in zip(entry.terms, entry.weights, entry.masks, strict=True):  # postings in entry order
            postings[term].extend((number, max(round(idf[term] * tf / (tf + norm)), 1), bits))
    del entries, df, idf  # the analyses are no longer needed: free them before the files are made
    for term, flat in postings.items():
        if len(flat) > 3 * MAX_POSTINGS:
            hits = sorted(sorted(zip(flat[::3], flat[1::3], flat[2::3], strict=True), key=lambda hit: (-hit[1], hit[0]))[:MAX_POSTINGS])
            postings[term] = array("i", [value for hit in hits for value in hit])

    synonyms = [[analyzer.phrase(phrase) for phrase in group] for group in vocabulary.synonyms]
    chinese = sorted({t for t in postings if HAN_CHARACTER.match(t)}
                     | {t for group in synonyms for phrase in group for t in phrase if HAN_CHARACTER.match(t)})
    variants = {form: sorted(terms) for form, terms in chinese_variants(chinese).items() if form not in postings}
    size = sum(len(t) * 3 + 6 * len(p) for t, p in postings.items()) + sum(len(f) * 6 for f in variants)
    shard_count = _shard_count(size)
    shards: list[dict] = [{"terms": {}, "variants": {}} for _ in range(shard_count)]
    for term in sorted(postings):
        shards[shard_of(term, shard_count)]["terms"][term] = postings[term]
    for form in sorted(variants):
        shards[shard_of(form, shard_count)]["variants"][form] = variants[form]

    readings: dict[str, list[str]] = defaultdict(list)  # pinyin key → the Chinese terms read so
    first_syllable = {}
    for term in chinese:
        if len(term) > 1 and (syllables := pinyin_reading(term)):
            readings["".join(syllables)].append(term)
            first_syllable["".join(syllables)] = syllables[0]
    pinyin_count = _shard_count(sum(len(key) + 10 * len(terms) for key, terms in readings.items()))
    pinyin: list[dict] = [{} for _ in range(pinyin_count)]
    for key in sorted(readings):
        pinyin[shard_of(first_syllable[key], pinyin_count)][key] = readings[key]

    words: dict[int, list[str]] = defaultdict(list)  # the English terms by length, for typo correction
    for term in sorted(set(postings) | {t for group in synonyms for phrase in group for t in phrase}):
        if term.isascii() and term.isalpha() and len(term) >= MIN_TYPO_TERM_CHARS:
            words[len(term)].append(term)

    ui = ui_strings()[lang]
    headings = {"quick-fix": ui["quick_fix"], "symptoms": ui["symptoms"], "steps": ui["steps"], "cause": ui["cause"],
                "verification": ui["verification"], "environment": ui["environment"]}
    manifest = {
        "lang": lang,
        "docs": n,
        "shards": shard_count,
        "maxTermChars": MAX_WORD_CHARS,
        "sections": [[anchor, headings.get(anchor, "")] for anchor in SECTIONS],
        "scoreScale": SCORE_SCALE,
        "stopwords": sorted(stopwords),
        "synonyms": synonyms,
        "pinyinShards": pinyin_count,
        "syllables": " ".join(pinyin_syllables()),
        "wordLengths": sorted(words),
        "noResults": {"title": ui["search_none"], "closest": ui["search_closest"], "browse": ui["search_browse"],
                      "location": "tags/"},
    }
    index = SearchIndex(manifest, shards, pinyin, dict(words), docs)
    digest = hashlib.sha256()
    for path, data in sorted(index.files().items()):  # file by file: one JSON text of the whole index took 40 MB
        digest.update(path.encode() + json.dumps(data, ensure_ascii=False, sort_keys=True, default=list).encode())
    manifest["version"] = digest.hexdigest()[:12]  # appended to file URLs, so a rebuilt site is never mixed with a cached one
    return index


def _shard_count(size: int) -> int:
    """The smallest power of two that splits `size` bytes into files of about SHARD_TARGET_BYTES."""
    count = 1
    while size / count > SHARD_TARGET_BYTES:
        count *= 2
    return count


def _doc_data(record: Record, text: EntryText, lang: str) -> dict:
    """What a result shows of an entry (plain text; engine.js escapes and highlights it)."""
    sections: dict[int, list[str]] = defaultdict(list)
    sections[_BIT["quick-fix"]].append(plain_text(record.quick_fix.get(lang)))
    for field in ("symptoms", "body"):
        for bit, piece in text.fields[field]:
            sections[bit].append(plain_text(piece))
    return {
        "location": f"{record.id}/",
        "title": plain_text(record.title.get(lang)),
        "tags": [tag.get(lang) for tag in record.tags],
        "sections": [[bit, lines] for bit, lines in sorted(sections.items())],
        "messages": [key for key in dict.fromkeys(
            [message_key(s.text.get(lang)) for s in record.symptoms]
            + [message_key(s.text) for s in record.signatures if is_literal(s)]) if key],
    }


def material_stub(lang: str) -> dict:
    """search_index.json for Material's page script: its config (used to highlight ?h= terms
    on the page) and no documents; our worker fetches the index itself."""
    return {"config": {"lang": [lang], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}, "docs": []}


def write_index(index: SearchIndex, search_dir: Path, previous: SearchIndex | None = None) -> None:
    """Write the index files into `search_dir` (a language site's search/), replacing what is there.
    `previous`: the index those files hold (`serve`); only the files that differ are written."""
    if previous is None and search_dir.exists():
        shutil.rmtree(search_dir)

    def dump(path: Path, data: object, before: object = None) -> None:
        if data != before:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=list), encoding="utf-8")

    dump(search_dir / "search_index.json", material_stub(index.manifest["lang"]))
    previous_files = previous.files() if previous else {}
    files = index.files()
    for path, data in files.items():
        dump(search_dir / path, data, previous_files.get(path))
    for path in previous_files.keys() - files.keys():
        (search_dir / path).unlink(missing_ok=True)


def write_site_index(base: KnowledgeBase, lang: str, site_dir: Path) -> None:
    """The index of `lang` into that language's site folder, made once: OpenCC's and pypinyin's tables are
    freed after it, before MkDocs renders the pages (`serve` keeps them, as it indexes again on every save)."""
    index = build_index(base, lang)
    release_dictionaries()
    write_index(index, site_dir / "search")
