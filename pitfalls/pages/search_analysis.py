"""What the search index knows of one entry: its text by field, cut into terms (pages/search_index.py
scores and writes them; docs/SEARCH.md).

Chinese is cut by the content's segmenter (jieba, search-engine mode, project dictionary); every Chinese
character is indexed too, so any Chinese word of an entry can be found. English (on both sites) is
lowercased, split on anything but letters and digits, and stemmed (pitfalls/text.py, which the engine's
analysis.js repeats character for character).
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from ..records.model import LANGUAGES, Record
from ..records.signatures import message_text
from ..text import (
    HAN_CHARACTER,
    MAX_WORD_CHARS,
    PIECES,
    Segmenter,
    camel_parts,
    compound_terms,
    keep_word,
    message_key,
    normalize,
    stem,
    word_terms,
)
from .render import plain_text, ui_strings
from .search_lexicon import Segment, parallel_segments


@dataclass(frozen=True)
class Field:
    """A part of an entry that search tells apart."""

    name: str
    """Its name, also the key of its heading in templates/ui.yml where it has one."""
    anchor: str
    """Its anchor on the entry's page ("" for the title and the labels, shown as the result itself)."""
    weight: float
    """BM25F weight of a match here."""
    normalized: bool
    """Long fields: a match counts less in a longer entry (BM25 length normalisation). Short fields
    (title, labels, quick fix) are one line each: a match there counts the same in any entry."""

    @property
    def match(self) -> float:
        """What a query word found here counts for the words ranking rule: the weight relative to the title's.
        A word in the title says what the entry is about; one in the body, that the entry mentions it."""
        return round(self.weight / FIELDS[0].weight, 3)


FIELDS = (
    Field("title", "", 5.0, False),
    Field("tags", "", 4.0, False),  # the tag and category labels
    Field("quick_fix", "quick-fix", 3.0, False),
    Field("symptoms", "symptoms", 4.0, True),
    Field("steps", "steps", 1.0, True),
    Field("cause", "cause", 1.0, True),
    Field("verification", "verification", 1.0, True),
    Field("environment", "environment", 1.0, True),
    Field("translation", "", 2.0, True),  # the title, quick fix and behaviours in the site's other language
    # the words readers type for the entry that its text does not say (docs/CONTENT.md): a statement of what the entry is
    # about, as its labels are; those in the other language go with the translation
    Field("keywords", "", 4.0, False),
)
"""Bit i of a posting's flags says the term occurs in FIELDS[i]; the manifest hands the table to the engine."""
OTHER_LANGUAGE = {lang: other for lang in LANGUAGES for other in LANGUAGES if other != lang}
BIT = {field.name: bit for bit, field in enumerate(FIELDS)}
ALONE_BIT = 11
"""A Chinese character's posting: the character stands as a word of its own somewhere in the entry (jieba cut it
alone: 爆 in 显存爆了), not only inside longer words (爆 in 梯度爆炸)."""
OVERLAP_BIT = 12
"""A Chinese word's posting: the word is in the entry only where it overlaps the entry's words (定性 in 稳定性, whose
own words are 稳定 and 性: Segmenter.standing_words), never as a word of its own. Set on the few such postings,
where ALONE_BIT is set on the few characters that stand alone: each bit costs bytes where it is set."""
TITLE_CHARS_SHIFT = (13, 21)
"""A posting's flags: bits 0–10 the fields, bits 11 and 12 ALONE_BIT and OVERLAP_BIT; a title term's posting also carries
the entry's title length, in Chinese characters (bits 13–20) and in letters and digits of its distinct English words
(bits 21–28), for the title ranking rule."""
MAX_TITLE_CHARS = 255


class Analyzer:
    """Cuts text into index terms: the content's segmenter (jieba, search-engine mode) for Chinese,
    `word_terms` (noise dropped, stemmed, names with digits also by their parts) for the rest."""

    def __init__(self, segmenter: Segmenter, stopwords: frozenset[str]):
        self.segmenter = segmenter
        self.stopwords = stopwords
        # one build cuts the same runs many times (every entry's labels, repeated phrases: 44% of the cuts of the
        # realistic corpus): jieba was two thirds of the index step
        self.search_words = lru_cache(maxsize=16384)(segmenter.search_words)
        self.standing_words = lru_cache(maxsize=16384)(segmenter.standing_words)
        self.words = lru_cache(maxsize=16384)(segmenter.words)

    def terms(self, text: str) -> tuple[list[str], list[str], set[str], set[str]]:
        """(words, parts, alone, overlapping) of `text`: the words count for the entry's length; the parts (each Chinese
        character, the parts of a name with digits or in CamelCase, identifiers whole and a two-word one joined) are
        indexed too but do not lengthen it; alone: the Chinese characters that stand as words of their own (ALONE_BIT);
        overlapping: the Chinese words that only overlap the text's own words (OVERLAP_BIT)."""
        words, parts, alone, overlapping, stood = [], [], set(), set(), set()
        normalized = normalize(text)
        for match in PIECES.finditer(normalized):
            run, word = match.groups()
            if run:
                cut = self.search_words(run)
                words += [w for w in cut if 1 < len(w) <= MAX_WORD_CHARS]
                alone.update(w for w in cut if len(w) == 1)
                own = self.standing_words(run) if any(len(w) > 2 for w in cut) else cut  # 3+ characters hold overlaps
                for w in cut:
                    if len(w) > 1:
                        (stood if w in own else overlapping).add(w)
                parts += list(run)
            elif terms := word_terms(word):
                words.append(terms[0])
                parts += terms[1:]
        parts += compound_terms(normalized) + camel_parts(text)
        return words, parts, alone, overlapping - stood

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

    def message_words(self, text: str) -> tuple[str, ...]:
        """The terms a query containing the error message `text` looks up as typed: its English words (stemmed, not
        filler) and identifiers. search_index lists the message under the rarest of them."""
        normalized = normalize(text)
        words = [stem(word) for _, word in PIECES.findall(normalized) if word and keep_word(word) and word not in self.stopwords]
        return (*words, *compound_terms(normalized))

    def title_chars(self, title: str) -> tuple[int, int]:
        """How long a title is, as the words rule measures its share covered: its Chinese characters, and the letters of its
        distinct English words (stemmed, filler left out: an echo of the title in the other language, as in
        "显存不足 (CUDA out of memory)", does not count twice)."""
        text = normalize(title)
        han = len(HAN_CHARACTER.findall(text))
        english = {terms[0] for _, word in PIECES.findall(text) if word and (terms := word_terms(word))}
        latin = sum(len(term) for term in english - self.stopwords)
        return min(han, MAX_TITLE_CHARS), min(latin, MAX_TITLE_CHARS)


def entry_messages(record: Record, lang: str) -> dict[str, str]:
    """An entry's error messages, key → the text whose words a query containing it types, each once (what the message
    rule matches a query against): its symptoms in `lang`, and its signatures as the literal runs that every line they
    match contains (`Signature.runs`), keyed by the runs' keys in order with a space between (no key has one)."""
    found: dict[str, str] = {}
    for text in [s.text.get(lang) for s in record.symptoms]:
        if key := message_key(text):
            found.setdefault(key, text)
    for signature in record.signatures:
        if key := " ".join(filter(None, map(message_key, signature.runs))):
            found.setdefault(key, " ".join(_whole_words(signature.runs)))
    return found


_WORD_AT_START, _WORD_AT_END = re.compile(r"^\w+"), re.compile(r"\w+$")


def _whole_words(runs: tuple[str, ...]) -> list[str]:
    """The runs less a word at an edge where the part that varies may continue it (`sm_` of `sm_<num>`, `libcu` of
    `libcu(?:dart|blas)`): a query holding the signature types the whole word, not that piece of it."""
    whole = []
    for n, run in enumerate(runs):
        if n > 0:
            run = _WORD_AT_START.sub("", run)
        if n < len(runs) - 1:
            run = _WORD_AT_END.sub("", run)
        whole.append(run)
    return whole


@dataclass(frozen=True)
class EntryText:
    """The searchable text of one entry in one language: field name → its pieces of text."""

    record: Record
    fields: dict[str, list[str]]


def entry_text(record: Record, lang: str) -> EntryText:
    ui = ui_strings()[lang]
    fields: dict[str, list[str]] = {
        "title": [record.title.get(lang)],
        "tags": [record.category.get(lang), *(tag.get(lang) for tag in record.tags)],
        "quick_fix": [record.quick_fix.get(lang)],
        "symptoms": [symptom.text.get(lang) for symptom in record.symptoms]
        + [text for signature in record.signatures if (text := message_text(signature))],
        "steps": [step.text.get(lang) + ("\n" + step.code if step.code else "") for step in record.steps],
        "cause": [record.cause.get(lang)] if record.cause else [],
        "verification": [],
        "environment": [f"{ui['env_' + key]} {value}" for key, value in sorted(record.environment.items())],
        "keywords": list(record.keywords.get(lang, ())),
        # so that English words find an entry on the Chinese site and Chinese words on the English one
        "translation": [other for text in (record.title, record.quick_fix, *(s.text for s in record.symptoms if not s.verbatim))
                        if (other := getattr(text, OTHER_LANGUAGE[lang])) and other != text.get(lang)]
        + list(record.keywords.get(OTHER_LANGUAGE[lang], ())),
    }
    if check := record.verification:
        fields["verification"].append(check.text.get(lang) + ("\n" + check.code if check.code else ""))
    return EntryText(record, {name: [plain_text(piece) for piece in pieces] for name, pieces in fields.items()})


@dataclass(frozen=True)
class EntryAnalysis:
    """One entry cut into terms: what scoring needs of it, and what a result shows."""

    record: Record
    """The entry analysed."""
    terms: tuple[str, ...]
    """Its distinct terms, in the order met (interned: one string per term across entries)."""
    short_tf: array
    """Per term: its count in the short fields, weighted by field."""
    long_tf: array
    """Per term: its count in the long fields, weighted by field."""
    flags: array
    """Per term: bits of the FIELDS it occurs in."""
    long_length: float
    """The weighted number of words of the long fields (BM25 length normalisation)."""
    title_chars: tuple[int, int]
    """Analyzer.title_chars of the title."""
    messages: tuple[tuple[str, tuple[str, ...]], ...]
    """Its error messages: (key, Analyzer.message_words) of each."""
    doc: dict
    """d/<n>.json."""
    parallel: tuple[Segment, ...]
    """Its segments written in both languages (search_lexicon.parallel_segments), for the mined lexicon."""


def analyze_entry(record: Record, lang: str, analyzer: Analyzer, doc_data) -> EntryAnalysis:
    """Cut `record` in `lang`; `doc_data(text, message keys)` makes what a result shows of it."""
    text = entry_text(record, lang)
    messages = entry_messages(record, lang)
    short: dict[str, float] = defaultdict(float)
    long: dict[str, float] = defaultdict(float)
    flags: dict[str, int] = defaultdict(int)
    long_length = 0.0
    standing: set[str] = set()  # the entry's Chinese words that stand as words of their own somewhere
    overlapping: set[str] = set()
    for bit, field in enumerate(FIELDS):
        counts = long if field.normalized else short
        for piece in text.fields[field.name]:
            words, parts, alone, overlaps = analyzer.terms(piece)
            if field.normalized:
                long_length += field.weight * len(words)
            for term in map(sys.intern, (*words, *parts)):  # one string per term across entries
                counts[term] += field.weight
                flags[term] |= 1 << bit
            for character in alone:
                flags[character] |= 1 << ALONE_BIT
            standing.update(word for word in words if word not in overlaps)
            overlapping |= overlaps
    for term in overlapping - standing:  # overlapping here, a word of its own elsewhere in the entry: a word
        flags[term] |= 1 << OVERLAP_BIT
    # a tuple and three arrays, not dicts: a few thousand entries' dicts were a third of a build's peak memory
    return EntryAnalysis(record, tuple(flags), array("f", (short[t] for t in flags)), array("f", (long[t] for t in flags)),
                         array("H", flags.values()), long_length, analyzer.title_chars(text.fields["title"][0]),
                         tuple((key, analyzer.message_words(message)) for key, message in messages.items()),
                         doc_data(text, list(messages)), parallel_segments(record, analyzer.words, analyzer.stopwords))
