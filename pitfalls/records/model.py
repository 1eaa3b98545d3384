"""The typed record model: what a pitfall is, once its file has passed validation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..text import HAN, MAX_WORD_CHARS, Segmenter, segmenter

LANGUAGES = ("zh", "en")
"""The site languages, exactly these two; the first is the default and the seed's original language.

A decision, not an accident: `Text` and `Label` have a field per language rather than a mapping,
because every record is written for this pair (the schema's text type has zh and en keys), the
Chinese side has analysis of its own (jieba) that another language would not share, and a third
language could only be shown once every record is translated into it. Adding one is a change to
Text, Label, the schemas and templates/ui.yml, made on purpose, not a line of data."""


@dataclass(frozen=True)
class Text:
    """A piece of prose in one or both languages (the markdown subset of docs/CONTENT.md)."""

    zh: str | None = None
    """Chinese text."""
    en: str | None = None
    """English text."""

    def has(self, lang: str) -> bool:
        """Whether this text is written in `lang` (not just shown through a fallback)."""
        return getattr(self, lang) is not None

    def get(self, lang: str) -> str:
        """The text in `lang`, or in the other language when it is not translated yet."""
        return getattr(self, lang) or next(getattr(self, other) for other in LANGUAGES if getattr(self, other))

    @classmethod
    def from_data(cls, data: dict | str) -> Text:
        if isinstance(data, str):  # a verbatim string reads the same in every language
            return cls(zh=data, en=data)
        return cls(zh=data.get("zh"), en=data.get("en"))


@dataclass(frozen=True)
class Symptom:
    """What the reader sees when they hit the pitfall."""

    text: Text
    """The message or the description of the behaviour."""
    verbatim: bool
    """True for an error message copied as it appears (the same in every language)."""


@dataclass(frozen=True)
class Step:
    """One step of diagnosis or fix."""

    text: Text
    """What to do, in words."""
    code: str | None = None
    """A command or snippet shown verbatim as a copyable block after the text."""


@dataclass(frozen=True)
class Reference:
    """A link for further reading."""

    title: str
    """Link text, usually the page's own title."""
    url: str
    """An http(s) URL."""


@dataclass(frozen=True)
class Signature:
    """A pattern that identifies the pitfall's error in one log line (docs/SIGNATURES.md)."""

    kind: str
    """"exact" (text with placeholders such as `<pid>`) or "regex" (a Python regular expression)."""
    text: str
    """The signature as written in the record."""
    pattern: str
    """The regular expression searched in each log line: the exact text with its placeholders expanded, or the regex."""
    specificity: int
    """How many literal characters every match contains; more specific signatures rank first."""
    anchor: str | None
    """The longest literal text every match contains (case-sensitive): a plain substring search for it
    finds every line the pattern can match. None when there is no such run of 3 characters."""
    runs: tuple[str, ...]
    """The literal text every match contains, in runs in order with a part that varies between each two (an `exact`
    signature's placeholders; a regex's repetitions, alternatives, classes and lookarounds), empty at an end where a
    varying part begins or ends the match: `CUDA out of memory. Tried to allocate <size>` → ("CUDA out of memory.
    Tried to allocate ", ""). Search finds a signature in a query by them, without a regular expression (docs/SEARCH.md,
    "Ranking")."""


@dataclass(frozen=True)
class Label:
    """A category or tag: a stable key with a label in each language."""

    key: str
    """Stable identifier, used in records and in URLs."""
    zh: str
    """Chinese label."""
    en: str
    """English label."""

    def get(self, lang: str) -> str:
        """The label in `lang`."""
        return getattr(self, lang)


@dataclass(frozen=True)
class Record:
    """One pitfall: environment → error → diagnosis → fix."""

    id: str
    """Permanent slug; the entry lives at /<lang>/<id>/."""
    source: str
    """Project-relative path of the YAML file, e.g. content/entries/<id>.yml (the edit link's target)."""
    category: Label
    """The one category the entry is filed under."""
    title: Text
    """Short name of the pitfall."""
    quick_fix: Text
    """The fix in one line; shown first, and in the link preview after the title and the first symptom."""
    symptoms: tuple[Symptom, ...]
    """Error messages and behaviours, in the order a reader meets them."""
    steps: tuple[Step, ...]
    """Diagnosis and fix, in order."""
    tags: tuple[Label, ...]
    """Tags, in the record's order."""
    cause: Text | None = None
    """The root cause, when known."""
    environment: dict[str, str] = field(default_factory=dict)
    """Where it was seen: os, gpu, driver, cuda, python, frameworks → free text."""
    verification: Step | None = None
    """How to confirm the fix worked."""
    references: tuple[Reference, ...] = ()
    """Further reading."""
    related: tuple[str, ...] = ()
    """Ids of entries the author links to."""
    last_verified: str | None = None
    """ISO date someone last confirmed the fix."""
    aliases: tuple[str, ...] = ()
    """Former ids; each redirects to this entry."""
    signatures: tuple[Signature, ...] = ()
    """Patterns that identify the error in a log, for `python -m pitfalls match`."""
    keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Language → words readers type for the pitfall that its text does not say; search reads them as labels."""

    def texts(self) -> list[Text]:
        """Every piece of prose in the record, for translation status."""
        texts = [self.title, self.quick_fix, *(s.text for s in self.symptoms), *(s.text for s in self.steps)]
        texts += [t for t in (self.cause, self.verification and self.verification.text) if t]
        return texts

    def translated(self, lang: str) -> bool:
        """Whether every piece of prose is written in `lang`."""
        return all(text.has(lang) for text in self.texts())


@dataclass(frozen=True)
class Vocabulary:
    """The reviewed search vocabulary of content/synonyms.yml."""

    words: tuple[str, ...] = ()
    """Domain words the Chinese segmenter keeps whole."""
    stopwords: tuple[str, ...] = ()
    """Question words and filler dropped from queries."""
    synonyms: tuple[tuple[str, ...], ...] = ()
    """Groups of words or phrases that mean the same to a reader."""


def content_segmenter(vocabulary: Vocabulary, labels: tuple[Label, ...]) -> Segmenter:
    """The segmenter whose dictionary holds the reviewed words, the Chinese labels and the Chinese synonyms."""
    words = {*vocabulary.words, *(label.zh for label in labels)}
    for group in vocabulary.synonyms:
        words.update(group)
    return segmenter(frozenset(w for w in words if re.fullmatch(f"[{HAN}]{{2,{MAX_WORD_CHARS}}}", w)))


@dataclass(frozen=True)
class KnowledgeBase:
    """Every record and registry, validated and cross-checked."""

    records: tuple[Record, ...]
    """All records, sorted by id."""
    categories: tuple[Label, ...]
    """Categories in registry order."""
    tags: tuple[Label, ...]
    """Tags in registry order."""
    vocabulary: Vocabulary
    """The search vocabulary (empty when the content has no synonyms.yml)."""
    content_dir: Path
    """The folder it was read from (entry dates come from its git history)."""

    def segmenter(self) -> Segmenter:
        """The one Chinese word cutter for this content (search, similar entries, duplicates)."""
        return content_segmenter(self.vocabulary, (*self.categories, *self.tags))

    def record(self, record_id: str) -> Record:
        """The record with this id."""
        return next(r for r in self.records if r.id == record_id)

    @cached_property
    def linked_from(self) -> dict[str, tuple[Record, ...]]:
        """Record id → the records that name it in `related`, in the records' order; absent when none does."""
        linking: dict[str, list[Record]] = {}
        for record in self.records:
            for named in record.related:
                linking.setdefault(named, []).append(record)
        return {record_id: tuple(records) for record_id, records in linking.items()}
