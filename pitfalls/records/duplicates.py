"""Probable duplicates: existing entries that are probably the same pitfall as a draft.

Like the similar-question list a Q&A site shows before you post; `pitfalls similar`, `check` and
`new` ask it. Two signals, from the title and the symptoms only (what a reader would search for):

- the same error message: a verbatim symptom (plain string) equal to one of another entry's,
  compared by message key (case, spaces and punctuation ignored) with every run of digits read as
  0 (`Tried to allocate 2.00 GiB` matches `Tried to allocate 20.00 GiB`, not `… 20.00 MiB`);
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
from .model import LANGUAGES

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
    messages: frozenset[str]
    """Verbatim error messages, normalized (lower case, whitespace collapsed, digits as 0)."""


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
    """Error messages both entries list (as the existing entry writes them)."""

    def describe(self) -> str:
        """One line naming the entry and why it matched."""
        why = f"similarity {self.score:.2f}"
        if self.shared_messages:
            why += f"; same error message {self.shared_messages[0]!r}"
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
    messages = frozenset(normalize_message(s) for s in symptoms if isinstance(s, str))
    return Fingerprint(source, name, words, messages)


def similarity(a: Fingerprint, b: Fingerprint) -> float:
    """The better per-language cosine similarity of the two entries' token sets (Otsuka–Ochiai), 0–1."""
    best = 0.0
    for lang in LANGUAGES:
        if a.words[lang] and b.words[lang]:
            shared = len(a.words[lang] & b.words[lang])
            best = max(best, shared / math.sqrt(len(a.words[lang]) * len(b.words[lang])))
    return best


def matches(draft: Fingerprint, existing: list[tuple[Fingerprint, list[str]]], threshold: float = THRESHOLD) -> list[Match]:
    """Entries of `existing` (fingerprint, verbatim messages as written) that are probably `draft`'s pitfall, best first."""
    found = []
    for other, written in existing:
        if other.source == draft.source:
            continue
        score = similarity(draft, other)
        shared = tuple(m for m in written if normalize_message(m) in draft.messages)
        if score >= threshold or shared:
            found.append(Match(other.source, other.title, score, shared))
    return sorted(found, key=lambda m: (not m.shared_messages, -m.score, m.source))


def existing_entries(documents: dict, cutter: Segmenter) -> list[tuple[Fingerprint, list[str]]]:
    """Fingerprints of the checked record documents (label → YamlDocument), with their messages as written."""
    return [(fingerprint(label, doc.data, cutter), [s for s in doc.data["symptoms"] if isinstance(s, str)])
            for label, doc in sorted(documents.items())]


def source_label(path: Path, documents: dict) -> str:
    """The label the checked content uses for `path` (so an entry is not its own duplicate), else the path."""
    return next((label for label, doc in documents.items() if doc.path.resolve() == path.resolve()), str(path))
