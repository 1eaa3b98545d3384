"""Probable duplicates: existing entries that are probably the same pitfall as a draft.

Like the similar-question list a Q&A site shows before you post; `pitfalls similar`, `check` and
`new` ask it. Three signals, from the title and the symptoms only (what a reader would search for):

- the same error message: a verbatim symptom (plain string) of the draft that contains one of
  another entry's, compared by message key (case, spaces and punctuation ignored) with every run of
  digits read as 0 (`Tried to allocate 2.00 GiB` matches `Tried to allocate 20.00 GiB`, not
  `… 20.00 MiB`); the draft may paste the whole line where the entry keeps its telling part;
- a signature of another entry that matches a verbatim symptom of the draft: the draft's error
  message, read as a log line, is one that `pitfalls match` maps to that entry;
- word overlap: the cosine similarity of the two entries' sets of words (the content's segmenter),
  |A∩B| / √(|A|·|B|), per language (zh with zh, en with en; verbatim messages count in both),
  taking the better language. Cosine rather than Jaccard: a short draft against a long entry
  is not penalized for all it has not written yet. At or above THRESHOLD the entries are named.
  Words of one character and common function words are left out, so short titles do not match
  on "the" or "的".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..text import Segmenter, comparable_words, message_key
from .model import LANGUAGES, Signature
from .signatures import MIN_LITERAL_CHARS
from .validate import ContentCheck

THRESHOLD = 0.4
"""Token similarity from which two entries are named as probably the same pitfall. Measured on
the 12 seed entries: the closest distinct pair (cuda-pytorch-mismatch, docker-gpu) scores 0.35;
a reworded draft of cuda-out-of-memory scores 0.47 against it (tests/test_cli.py)."""


@dataclass(frozen=True)
class Fingerprint:
    """What one entry is compared by."""

    source: str
    """The record's file, as messages name it."""
    title: str
    """The title in the first language it has, to name the entry."""
    words: dict[str, frozenset[str]]
    """Language → tokens of the title and symptoms in that language."""
    messages: tuple[str, ...]
    """Verbatim error messages (the plain-string symptoms), as written."""


@dataclass(frozen=True)
class Entry:
    """An existing entry, as a draft is compared with it."""

    fingerprint: Fingerprint
    """Its title, words and error messages."""
    signatures: tuple[Signature, ...]
    """Its signatures, when it built."""


@dataclass(frozen=True)
class Match:
    """An existing entry that is probably the same pitfall."""

    source: str
    """Its file."""
    title: str
    """Its title."""
    score: float
    """Best per-language cosine similarity of the tokens, 0–1."""
    shared_messages: tuple[str, ...]
    """Its error messages that an error message of the draft contains (as the existing entry writes them)."""
    signatures: tuple[str, ...]
    """Its signatures (as written) that an error message of the draft matches."""

    def describe(self) -> str:
        """One line naming the entry and why it matched."""
        why = f"similarity {self.score:.2f}"
        if self.shared_messages:
            why += f"; same error message {self.shared_messages[0]!r}"
        elif self.signatures:
            why += f"; its signature {self.signatures[0]!r} matches the error message"
        return f"{self.source}: {self.title} ({why})"


def normalize_message(message: str) -> str:
    """An error message as compared: its message key with every run of digits as 0 (sizes, pids, lines)."""
    return re.sub(r"\d+", "0", message_key(message))


def fingerprint(source: str, data: object, cutter: Segmenter) -> Fingerprint:
    """The fingerprint of a record's plain data; tolerant of drafts that do not validate yet."""
    data = data if isinstance(data, dict) else {}
    texts: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}

    def add(value: object) -> None:
        for lang in LANGUAGES:
            text = value.get(lang) if isinstance(value, dict) else value
            if isinstance(text, str):
                texts[lang].append(text)

    add(data.get("title"))
    symptoms = data.get("symptoms") if isinstance(data.get("symptoms"), list) else []
    for symptom in symptoms:
        add(symptom)
    title = data.get("title")
    name = next((title[lang] for lang in LANGUAGES if isinstance(title, dict) and isinstance(title.get(lang), str)),
                str(data.get("id", source)))
    words = {lang: comparable_words("\n".join(parts), cutter) for lang, parts in texts.items()}
    return Fingerprint(source, name, words, tuple(s for s in symptoms if isinstance(s, str)))


def similarity(a: Fingerprint, b: Fingerprint) -> float:
    """The better per-language cosine similarity of the two entries' token sets (Otsuka–Ochiai), 0–1."""
    best = 0.0
    for lang in LANGUAGES:
        if a.words[lang] and b.words[lang]:
            shared = len(a.words[lang] & b.words[lang])
            best = max(best, shared / math.sqrt(len(a.words[lang]) * len(b.words[lang])))
    return best


def matches(draft: Fingerprint, existing: list[Entry], threshold: float = THRESHOLD) -> list[Match]:
    """Entries of `existing` that are probably `draft`'s pitfall, best first: those its error messages point to, then by score."""
    draft_keys = [normalize_message(m) for m in draft.messages]
    found = []
    for entry in existing:
        other = entry.fingerprint
        if other.source == draft.source:
            continue
        score = similarity(draft, other)
        shared = tuple(m for m in other.messages if _contained(normalize_message(m), draft_keys))
        signatures = tuple(s.text for s in entry.signatures if any(_signature_matches(s, m) for m in draft.messages))
        if score >= threshold or shared or signatures:
            found.append(Match(other.source, other.title, score, shared, signatures))
    return sorted(found, key=lambda m: (not (m.shared_messages or m.signatures), -m.score, m.source))


def _contained(key: str, draft_keys: list[str]) -> bool:
    """Whether the message key is in one of the draft's, and long enough to tell (as a `match` pattern must be)."""
    return len(key) >= MIN_LITERAL_CHARS and any(key in draft_key for draft_key in draft_keys)


def _signature_matches(signature: Signature, message: str) -> bool:
    """Whether `match` would map the log line `message` to the signature's entry (the anchor, a plain
    substring test, spares compiling the patterns of thousands of entries for a one-line draft)."""
    return (signature.anchor is None or signature.anchor in message) and re.search(signature.pattern, message) is not None


def existing_entries(checked: ContentCheck, cutter: Segmenter) -> list[Entry]:
    """The checked record documents as drafts are compared with them, with the signatures of those that built."""
    signatures = {record.source: record.signatures for record in checked.records}
    return [Entry(fingerprint(label, doc.data, cutter), signatures.get(label, ()))
            for label, doc in sorted(checked.documents.items())]


def source_label(path: Path, documents: dict) -> str:
    """The label the checked content uses for `path` (so an entry is not its own duplicate), else the path."""
    return next((label for label, doc in documents.items() if doc.path.resolve() == path.resolve()), str(path))
