"""The site search index of one language (`pitfalls search` runs its queries: commands/search.py).

The browser side is static/assets/search/ (engine.js and its modules, run by worker.js behind Material's
search UI). search_analysis cuts the entries into terms, search_scoring scores every (term, entry) pair
once with BM25F; this module puts them into small files the engine fetches on demand (docs/SEARCH.md):

    search/search_index.json   stub for Material's page script (config only, no documents)
    search/manifest.json       what the engine must agree on: format version, shard counts and the characters
                               whose words are keyed by two, score scale, fields, longest Chinese term,
                               synonyms (and their terms no entry has), stop words, pinyin syllables
    search/worker.js           the engine's modules, the manifest and Material's worker protocol in one file; a
                               small index's files too (`carried_files`), which the worker then never fetches
    search/<version>/          the files the engine fetches, in a folder named by a hash of them all (write_index):
      t/<k>.json               term → postings, for the terms whose shard key hashes to k (and how many
                               entries have those whose postings are capped), the
                               traditional / Taiwan / Hong Kong forms of the Chinese terms there, and
                               the error messages whose rarest word is one of those terms
      p/<k>.json               pinyin → Chinese terms, by first syllable (loaded only for pinyin queries)
      w/<n>.json               the English terms of n letters (loaded only to correct a typo)
      c/<k>.json               the English terms by their first three letters (loaded only to complete the word
                               being typed)
      d/<n>.json               what a result shows of entry n, and its error messages
"""

from __future__ import annotations

import hashlib
import json
import shutil
from array import array
from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import rjsmin

from ..records.model import KnowledgeBase
from ..settings import SEARCH_JS
from ..text import (
    HAN_CHARACTER,
    MAX_WORD_CHARS,
    chinese_variants,
    dictionary_compounds,
    normalize,
    pinyin_reading,
    pinyin_syllables,
    release_dictionaries,
)
from .render import ui_strings
from .search_analysis import ALONE_BIT, FIELDS, OVERLAP_BIT, TITLE_CHARS_SHIFT, Analyzer, EntryAnalysis, EntryText, analyze_entry
from .search_lexicon import mined_pairs
from .search_scoring import SCORE_SCALE, length_shares, score_postings

FORMAT_VERSION = 16
"""The layout of the index files. The engine refuses a manifest of another version ("search index out of date,
reload") rather than reading it wrongly; raise it with every change the engine must follow."""
SHARD_TARGET_BYTES = 12_000
"""Postings per shard file, roughly: the shard count is the smallest power of two that gets there."""
SPLIT_CHARACTER_BYTES = 2 * SHARD_TARGET_BYTES
"""A Chinese character whose words' postings would fill more than this (two shards' worth) has them keyed by their
first two characters (`shard_key`). Measured at 5,000 records (docs/SEARCH-LOG.md, "Heavy characters keyed by two")."""
MIN_TYPO_TERM_CHARS = 3
"""English terms shorter than this are not offered as corrections of a typo (too many are one edit apart)."""
CARRIED_FILES_MAX_BYTES = 262_144
"""An index whose files (the manifest aside) take at most this many bytes as written travels whole in its worker
(`carried_files`): 12 entries take about 126,000 (44 KB gzipped, the worker then 64 KB gzipped, within the 124 KB the
bench holds a first search at 5,000 entries to). Fetched one by one, even from the browser's cache, a small index's
files cost a page's first search more than its ranking did (docs/SEARCH.md, "A small index in its worker")."""
COMPLETION_KEY_CHARS = 3
"""A word being typed is completed from this many letters (options.js minCompletionChars): the c/ files list the terms
by their first this many, so the word's first letters name the one file that holds its completions."""


def shard_key(term: str, split: frozenset[str] = frozenset()) -> str:
    """What decides a term's shard: the first character of a Chinese term (the query side fetches the shard of each
    character it typed, so it finds every word starting there), its first two when that character is one of `split`,
    else the whole term. The split characters are those whose words would fill more than SPLIT_CHARACTER_BYTES
    (`split_characters`): every word starting with a common one (不一致, 不匹配, 不收敛 …) in one shard, any query with 不
    fetched all of them; for those the query side also fetches the shard of the character and the one after it."""
    if not HAN_CHARACTER.match(term):
        return term
    return term[:2] if term[0] in split else term[0]


def shard_of(term: str, shards: int, split: frozenset[str] = frozenset()) -> int:
    """FNV-1a over the code points of the shard key, modulo the shard count."""
    h = 0x811C9DC5
    for char in shard_key(term, split):
        h = ((h ^ ord(char)) * 0x01000193) & 0xFFFFFFFF
    return h % shards


def shard_homes(synonyms: list[list[list[str]]]) -> dict[str, str]:
    """term → the word whose shard holds it: each English term of a synonym group is kept in the shard of the group's
    first word (or where that word is kept, when an earlier group placed it), with its first group when in several. A
    query that reads a group fetches the shards of all its members; kept together, they are one file (oom, vram, gpu
    with 显存不足), not one each: about a quarter of the t/ files a query fetches (docs/SEARCH-LOG.md, "A group's English
    words in one shard"). A Chinese term keeps its own key: the query side finds those by the characters it typed.
    analysis.js shardHomes computes the same from the manifest's synonyms."""
    homes: dict[str, str] = {}
    for group in synonyms:
        words = [term for phrase in group for term in phrase]
        if not words:
            continue
        home = homes.get(words[0], words[0])
        for term in words:
            if not HAN_CHARACTER.match(term):
                homes.setdefault(term, home)
    return homes


@dataclass(frozen=True)
class SearchIndex:
    """The files of one language's index, as JSON-ready data."""

    manifest: dict
    """manifest.json."""
    shards: list[dict]
    """t/<k>.json for k in range(len(shards)): {"terms": term → postings, "entries": term → how many entries have it,
    for the terms whose postings are capped at MAX_POSTINGS, "variants": traditional or
    regional form → the simplified terms it stands for, "compounds": the dictionary's words that the entries say
    only in parts (`dictionary_compounds`), "messages": term → [entry, message key, ...] of the error messages whose
    rarest word the term is}, by the shard key of the term, form or word."""
    pinyin: list[dict]
    """p/<k>.json: toneless pinyin of a Chinese term, syllables joined → the terms read so, by the
    shard of the first syllable (the query side knows where a syllable starts, not where a term ends)."""
    words: dict[int, list[str]]
    """w/<n>.json: the English terms of n letters (at least MIN_TYPO_TERM_CHARS), sorted: a typo of
    a word is looked for among the terms of about its length."""
    completions: list[dict]
    """c/<k>.json: first COMPLETION_KEY_CHARS letters → the English terms longer than that which start with them, the
    terms in the most entries first, by the shard of those letters: the word being typed is completed from them."""
    docs: list[dict]
    """d/<n>.json for n in range(len(docs))."""

    def files(self) -> dict[str, object]:
        """Every file but Material's stub: path inside search/ → its data."""
        return {"manifest.json": self.manifest,
                **{f"t/{n}.json": shard for n, shard in enumerate(self.shards)},
                **{f"p/{n}.json": shard for n, shard in enumerate(self.pinyin)},
                **{f"w/{length}.json": words for length, words in self.words.items()},
                **{f"c/{n}.json": shard for n, shard in enumerate(self.completions)},
                **{f"d/{n}.json": doc for n, doc in enumerate(self.docs)}}


def query_stopwords(base: KnowledgeBase) -> frozenset[str]:
    """The filler the query side drops, normalised, with the traditional forms of the Chinese ones (怎麼辦 as 怎么办)."""
    stopwords = frozenset(normalize(w) for w in base.vocabulary.stopwords)
    return stopwords | frozenset(chinese_variants(sorted(w for w in stopwords if HAN_CHARACTER.match(w))))


def build_index(base: KnowledgeBase, lang: str, analyses: dict[str, EntryAnalysis] | None = None) -> SearchIndex:
    """Cut, count and score every entry of `base` in `lang`. `analyses` (record id → its analysis, filled
    here) lets `serve` cut only the records that changed since the last index of the same vocabulary."""
    stopwords = query_stopwords(base)
    analyzer = Analyzer(base.segmenter(), stopwords)
    entries = []
    for record in base.records:
        known = analyses.get(record.id) if analyses is not None else None
        if known is None or known.record != record:
            known = analyze_entry(record, lang, analyzer, partial(_doc_data, lang=lang))
            if analyses is not None:
                analyses[record.id] = known
        entries.append(known)
    docs = [entry.doc for entry in entries]
    # each entry's length, a percentage of the average entry's: the words rule counts a match only in the body of a
    # short entry more, of a long one less (docs/SEARCH.md, Ranking 2)
    lengths = [round(100 * share) for share in length_shares(entries)]
    postings, capped = score_postings(entries)
    messages = _message_anchors(entries, postings)
    synonyms = [[analyzer.phrase(phrase) for phrase in group] for group in base.vocabulary.synonyms]
    reviewed = {t for group in synonyms for phrase in group for t in phrase}
    # the pairs the entries' parallel text teaches, each a group of its own (search_lexicon.py)
    synonyms += [[[chinese], [english]] for chinese, english in mined_pairs((entry.parallel for entry in entries), reviewed)]
    del entries  # the analyses are no longer needed: free them before the files are made
    synonym_terms = {t for group in synonyms for phrase in group for t in phrase}
    chinese = sorted({t for t in postings if HAN_CHARACTER.match(t)} | {t for t in synonym_terms if HAN_CHARACTER.match(t)})
    pinyin = _pinyin_shards(chinese)
    words = _typo_words(set(postings) | synonym_terms)
    completions = _completion_shards(postings, capped)
    shards, split = _term_shards(postings, capped, chinese, dictionary_compounds(set(chinese)), messages,
                                 shard_homes(synonyms))
    absent = sorted(synonym_terms - postings.keys())
    # how many entries name each one in `related`: the words rule's links (docs/SEARCH.md, Ranking 2)
    linked = [len(base.linked_from.get(record.id, ())) for record in base.records]
    manifest = _manifest(lang, len(docs), len(shards), split, stopwords, synonyms, absent, len(pinyin), words, linked, lengths,
                         len(completions))
    index = SearchIndex(manifest, shards, pinyin, words, completions, docs)
    manifest["version"] = _version(index)
    return index


def _term_shards(postings: dict[str, array], capped: dict[str, int], chinese: list[str], compounds: list[str],
                 messages: dict[str, list], homes: dict[str, str]) -> tuple[list[dict], frozenset[str]]:
    """t/<k>.json: the postings (and how many entries have a term whose postings are capped), the dictionary's words
    the entries say only in parts (`compounds`), the traditional and regional forms of the Chinese terms and of those
    words, and the error messages by their anchor term, by shard key; and the characters whose words are keyed by two
    (`split_characters`). A form that is a term itself is listed too (核心, Taiwan's 内核): the query reads it both ways.
    A synonym group's English terms are kept where `homes` says (shard_homes)."""
    variants = {form: sorted(terms) for form, terms in chinese_variants(sorted([*chinese, *compounds])).items()}
    sizes = {term: len(term) * 3 + 6 * len(listed) for term, listed in postings.items()}
    for word in [*variants, *compounds]:  # a form that is a term too adds to the term's bytes (a compound never is one)
        sizes[word] = sizes.get(word, 0) + len(word) * 6
    count = _shard_count(sum(sizes.values()) + sum(len(key) * 3 + 6 for listed in messages.values() for key in listed[1::2]))
    split = split_characters(sizes)
    shards: list[dict] = [{"terms": {}, "entries": {}, "variants": {}, "compounds": [], "messages": {}} for _ in range(count)]

    def shard(term: str) -> dict:
        return shards[shard_of(homes.get(term, term), count, split)]

    for term in sorted(postings):
        shard(term)["terms"][term] = postings[term]
    for term in sorted(capped):
        shard(term)["entries"][term] = capped[term]
    for word in compounds:
        shard(word)["compounds"].append(word)
    for form in sorted(variants):
        shard(form)["variants"][form] = variants[form]
    for term in sorted(messages):
        shard(term)["messages"][term] = messages[term]
    return shards, split


def split_characters(sizes: dict[str, int]) -> frozenset[str]:
    """The Chinese characters that start more than SPLIT_CHARACTER_BYTES of terms and forms (`sizes`: each one's bytes in
    a shard, roughly): their words are keyed by their first two characters (`shard_key`)."""
    by_character: dict[str, int] = defaultdict(int)
    for term, size in sizes.items():
        if HAN_CHARACTER.match(term):
            by_character[term[0]] += size
    return frozenset(char for char, size in by_character.items() if size > SPLIT_CHARACTER_BYTES)


def _message_anchors(entries: list[EntryAnalysis], postings: dict[str, array]) -> dict[str, list]:
    """term → [entry, message key, ...]: each error message of each entry, listed under the rarest of its words that a
    query containing the message looks up (Analyzer.message_words: English, not filler). The message rule then finds
    every entry whose message a query contains, not only those the other rules put among the first maxResults,
    whose d/ files carry their messages (docs/SEARCH.md). A message without such a word (all Chinese) is left to those."""
    anchored: dict[str, list] = defaultdict(list)
    for doc, entry in enumerate(entries):
        for key, words in entry.messages:
            if known := [w for w in words if w in postings]:
                anchored[min(known, key=lambda w: (len(postings[w]), w))] += [doc, key]
    return anchored


def _pinyin_shards(chinese: list[str]) -> list[dict]:
    """p/<k>.json: pinyin key → the Chinese terms (of two or more characters) read so, by first syllable."""
    readings: dict[str, list[str]] = defaultdict(list)
    first_syllable = {}
    for term in chinese:
        if len(term) > 1 and (syllables := pinyin_reading(term)):
            readings["".join(syllables)].append(term)
            first_syllable["".join(syllables)] = syllables[0]
    count = _shard_count(sum(len(key) + 10 * len(terms) for key, terms in readings.items()))
    shards: list[dict] = [{} for _ in range(count)]
    for key in sorted(readings):
        shards[shard_of(first_syllable[key], count)][key] = readings[key]
    return shards


def _typo_words(terms: set[str]) -> dict[int, list[str]]:
    """w/<n>.json: the English terms by length, sorted, for typo correction."""
    words: dict[int, list[str]] = defaultdict(list)
    for term in sorted(terms):
        if term.isascii() and term.isalpha() and len(term) >= MIN_TYPO_TERM_CHARS:
            words[len(term)].append(term)
    return dict(words)


def _completion_shards(postings: dict[str, array], capped: dict[str, int]) -> list[dict]:
    """c/<k>.json: the English terms of letters and digits that start with a letter and are longer than
    COMPLETION_KEY_CHARS, words and identifiers (their words joined by `_`: nvidia_smi, the identifier being typed
    completes to them), under their first COMPLETION_KEY_CHARS characters, those in the most entries first (then
    alphabetical; a capped term's count is `capped`'s, not its list's), by the shard of those characters."""
    listed: dict[str, list[str]] = defaultdict(list)
    for term in sorted(postings, key=lambda t: (-capped.get(t, len(postings[t]) // 3), t)):
        if len(term) > COMPLETION_KEY_CHARS and term.isascii() and term[0].isalpha() and term.replace("_", "").isalnum():
            listed[term[:COMPLETION_KEY_CHARS]].append(term)
    count = _shard_count(sum(len(key) + sum(len(t) + 3 for t in terms) for key, terms in listed.items()))
    shards: list[dict] = [{} for _ in range(count)]
    for key in sorted(listed):
        shards[shard_of(key, count)][key] = listed[key]
    return shards


def _manifest(lang: str, docs: int, shards: int, split: frozenset[str], stopwords: frozenset[str], synonyms: list, absent_synonym_terms: list[str],
              pinyin_shards: int, words: dict[int, list[str]], linked: list[int], lengths: list[int], completion_shards: int) -> dict:
    """What the engine must agree on with this index (its version is added last, a hash of every file)."""
    ui = ui_strings()[lang]
    return {
        "formatVersion": FORMAT_VERSION,
        "lang": lang,
        "docs": docs,
        "shards": shards,
        "splitCharacters": "".join(sorted(split)),
        "maxTermChars": MAX_WORD_CHARS,
        "fields": [[f.name, f.anchor, ui.get(f.name, ""), f.match] for f in FIELDS],
        "titleCharsShift": list(TITLE_CHARS_SHIFT),
        "aloneBit": ALONE_BIT,
        "overlapBit": OVERLAP_BIT,
        "scoreScale": SCORE_SCALE,
        "stopwords": sorted(stopwords),
        "synonyms": synonyms,
        # a phrase of these still brings in its group, but no entry has them: the engine fetches no shard for them
        "absentSynonymTerms": absent_synonym_terms,
        "pinyinShards": pinyin_shards,
        "syllables": " ".join(pinyin_syllables()),
        "wordLengths": sorted(words),
        "completionShards": completion_shards,
        "linkedFrom": linked,
        "lengths": lengths,
        "messages": {"none": ui["search_none"], "closest": ui["search_closest"], "browse": ui["search_browse"],
                     "browseLocation": "tags/"},
    }


def _version(index: SearchIndex) -> str:
    """A hash of every file, appended to file URLs, so a rebuilt site is never mixed with a cached one.
    File by file: one JSON text of the whole index took 40 MB."""
    digest = hashlib.sha256()
    for path, data in sorted(index.files().items()):
        digest.update(path.encode() + json.dumps(data, ensure_ascii=False, sort_keys=True, default=list).encode())
    return digest.hexdigest()[:12]


def _shard_count(size: int) -> int:
    """The smallest power of two that splits `size` bytes into files of about SHARD_TARGET_BYTES."""
    count = 1
    while size / count > SHARD_TARGET_BYTES:
        count *= 2
    return count


def _doc_data(text: EntryText, messages: list[str], lang: str) -> dict:
    """What a result shows of an entry (plain text; the engine escapes and highlights it), its error messages and its
    keywords (with the title, tags, quick fix and symptoms, where the engine looks for a phrase of the query whose words
    the index has only apart; since index format 14)."""
    record = text.record
    sections = [[bit, text.fields[field.name]] for bit, field in enumerate(FIELDS)
                if field.anchor and text.fields[field.name]]
    return {
        "location": f"{record.id}/",
        "title": text.fields["title"][0],
        "tags": [tag.get(lang) for tag in record.tags],
        "sections": sections,
        "messages": messages,
        "keywords": text.fields["keywords"],
    }


def material_stub(lang: str) -> dict:
    """search_index.json for Material's page script: its config (used to highlight ?h= terms
    on the page) and no documents; our worker fetches the index itself."""
    return {"config": {"lang": [lang], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}, "docs": []}


ENGINE_MODULES = ("options.js", "analysis.js", "query.js", "pinyin.js", "typos.js", "readings.js", "ranking.js", "matching.js",
                  "results.js", "engine.js")
"""The engine's modules (static/assets/search/), each after those it needs."""
WORKER_MODULES = ("kept.js", "waves.js", "protocol.js")
"""The worker's own modules, after the engine's and the files it carries: the index files kept in the browser's
IndexedDB, the files of a wave asked for in one request, and Material's worker protocol."""
BATCH_NAMES = "abcdefghijklmnop"
"""The names of the files one batch.json request asks for (waves.js NAMES): `?a=t/5.json&b=d/17.json`. Sixteen: a
query's waves are its t/ shards (3.4 a query at 5,000 records) and its results' d/ files (at most 10)."""


def compact_json(data: object) -> str:
    """An index file's text as written: UTF-8 characters as they are, no spaces (a set as a list)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=list)


def carried_files(index: SearchIndex) -> dict[str, object]:
    """What search/worker.js carries, by the path the engine asks for (`manifest.json`, `<version>/t/0.json`): the
    manifest, and every other file when they take at most CARRIED_FILES_MAX_BYTES together. Measured file by file,
    stopping at the limit: at 5,000 records the files take 35 MB."""
    carried = {"manifest.json": index.manifest}
    size = 0
    for path, data in index.files().items():
        if path != "manifest.json":
            size += len(compact_json(data).encode())
            if size > CARRIED_FILES_MAX_BYTES:
                return {"manifest.json": index.manifest}
            carried[f"{index.manifest['version']}/{path}"] = data
    return carried


def worker_script(files: dict[str, object]) -> str:
    """search/worker.js: the engine's modules, the index's files it carries (`carried_files`: the manifest at least)
    and the worker's own modules in one file, so the browser starts searching after one request instead of one per
    module and one for the manifest. The modules stay separate files for node (`pitfalls search`, the tests), which
    loads them with require. In the file, their comments and spaces are left out (rjsmin): 39.0 → 27.7 KB gzipped at
    5,000 records, fetched before any first result."""
    def minified(names: tuple[str, ...]) -> str:
        return "\n".join(rjsmin.jsmin((SEARCH_JS / name).read_text(encoding="utf-8")) for name in names)

    modules, worker = minified(ENGINE_MODULES), minified(WORKER_MODULES)
    return (f"/* Generated by pitfalls/pages/search_index.py from static/assets/search/: {', '.join(ENGINE_MODULES)}, "
            f"this index's files it carries, {', '.join(WORKER_MODULES)}, their comments left out. */\n{modules}\n"
            f"self.PITFALLS_FILES = JSON.parse({_js_string(compact_json(files))});\n{worker}\n")


def _js_string(text: str) -> str:
    """`text` as a single-quoted JavaScript string literal. The files a worker carries are read by JSON.parse of one
    such string rather than written as an object literal: V8 parses JSON faster than JavaScript (the 12 seed entries'
    worker, 107-110 KB of files, 21-28 % less time to evaluate them under node). Single quotes, as JSON has few: 38 bytes
    more than the literal. `</` escaped as before: no record's text puts `</script>` in the worker."""
    # no line break is left in a compact JSON text; its U+2028 and U+2029 may stand in a string since ES2019
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("</", "<\\/") + "'"


def batch_template() -> str:
    """<version>/batch.json: the files `?a=…&b=…` names, each on its line after its path and a space (`d/17.json {…}`:
    an answer cached for another query, by a proxy that leaves the query out, does not pass for this one), where the
    server reads it as nginx's SSI (deploy/nginx.conf); a static host sends it as written, and the worker then asks
    for each file alone (waves.js). The files are compact JSON, with no line break in them (compact_json)."""
    return "\n".join(f'<!--# if expr="$arg_{name}" --><!--# echo var="arg_{name}" --> '
                     f'<!--# include virtual="$arg_{name}" --><!--# endif -->' for name in BATCH_NAMES)


def write_index(index: SearchIndex, search_dir: Path, previous: SearchIndex | None = None) -> None:
    """Write the index files into `search_dir` (a language site's search/), replacing what is there: Material's stub,
    the manifest and the worker at its top, the files the engine fetches in a folder named by the index's version
    (search/<version>/t/0.json). An address then holds the same bytes for as long as it exists, so browsers may keep
    the files for good (deploy/nginx.conf), and a page of an earlier build, its worker still open, finds its files gone
    instead of reading another build's. `previous`: the index those files hold (`serve`); its folder is renamed and
    only the files that differ are written."""
    if previous is None and search_dir.exists():
        shutil.rmtree(search_dir)
    version = index.manifest["version"]
    if previous is not None and previous.manifest["version"] != version:
        (search_dir / previous.manifest["version"]).rename(search_dir / version)

    def dump(path: Path, data: object, before: object = None) -> None:
        if data != before:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(compact_json(data), encoding="utf-8")

    def where(path: str) -> Path:
        return search_dir / (path if path == "manifest.json" else f"{version}/{path}")

    dump(search_dir / "search_index.json", material_stub(index.manifest["lang"]))
    previous_files = previous.files() if previous else {}
    files = index.files()
    for path, data in files.items():
        dump(where(path), data, previous_files.get(path))
    for path in previous_files.keys() - files.keys():
        where(path).unlink(missing_ok=True)
    (search_dir / version / "batch.json").write_text(batch_template(), encoding="utf-8")
    if previous is None or previous.manifest != index.manifest:
        (search_dir / "worker.js").write_text(worker_script(carried_files(index)), encoding="utf-8")


def write_site_index(base: KnowledgeBase, lang: str, site_dir: Path) -> None:
    """The index of `lang` into that language's site folder, made once: OpenCC's and pypinyin's tables are
    freed after it, before MkDocs renders the pages (`serve` keeps them, as it indexes again on every save)."""
    index = build_index(base, lang)
    release_dictionaries()
    write_index(index, site_dir / "search")
