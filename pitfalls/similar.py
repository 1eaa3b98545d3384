"""`python -m pitfalls similar FILE`: existing entries that are probably the same pitfall.

Like the similar-question list a Q&A site shows before you post. Two signals, from the title
and the symptoms only (what a reader would search for):

- the same error message: a verbatim symptom (plain string) equal to one of another entry's,
  compared with case, whitespace and digits ignored (`Tried to allocate 2.00 GiB` matches
  `Tried to allocate 20.00 MiB`… only if the units match too);
- word overlap: the cosine similarity of the two entries' sets of jieba tokens,
  |A∩B| / √(|A|·|B|), per language (zh with zh, en with en; verbatim messages count in both),
  taking the better language. Cosine rather than Jaccard: a short draft against a long entry
  is not penalized for all it has not written yet. At or above THRESHOLD the entries are named. Tokens of one character and common function words are
  left out, so short titles do not match on "the" or "的".
"""

from __future__ import annotations

import logging
import math
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .load import read_yaml
from .model import LANGUAGES
from .site import ROOT
from .validate import inspect_content

THRESHOLD = 0.4
"""Token similarity from which two entries are named as probably the same pitfall. Measured on
the 12 seed entries: the closest distinct pair (cuda-pytorch-mismatch, docker-gpu) scores 0.35;
a reworded draft of cuda-out-of-memory scores 0.47 against it (tests/test_cli.py)."""

_STOPWORDS = frozenset(
    "the an of to in on at is are be was were and or for with by from as it its this that after "
    "before when not no but into than then too via can could does do".split()
) | frozenset("的 了 在 是 和 就 后 时 与 或 及 中 被 把 会 也 都 一个 没有 不 为 对 从 到 以 上 下".split())
_WORDY = re.compile(r"[0-9a-z\u4e00-\u9fff]")


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


@cache
def _jieba():
    import jieba  # loading the dictionary takes a moment: only when something is compared

    jieba.setLogLevel(logging.WARNING)
    return jieba


def tokens(text: str) -> frozenset[str]:
    """The comparable words of `text`: jieba tokens, lower case, without function words."""
    words = (token.strip() for token in _jieba().lcut(text.lower()))
    return frozenset(w for w in words if len(w) > 1 and w not in _STOPWORDS and _WORDY.search(w))


def normalize_message(message: str) -> str:
    """An error message as compared: lower case, whitespace collapsed, every digit as 0."""
    return re.sub(r"\d", "0", " ".join(message.lower().split()))


def fingerprint(source: str, data: object) -> Fingerprint:
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
    words = {lang: tokens("\n".join(parts)) for lang, parts in texts.items()}
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


def existing_entries(documents: dict) -> list[tuple[Fingerprint, list[str]]]:
    """Fingerprints of the checked record documents (label → YamlDocument), with their messages as written."""
    return [(fingerprint(label, doc.data), [s for s in doc.data["symptoms"] if isinstance(s, str)])
            for label, doc in sorted(documents.items())]


def register(commands) -> None:
    parser = commands.add_parser("similar", help="查找可能重复的条目 / name existing entries that are probably the same pitfall as FILE",
                                 description="列出与 FILE 可能是同一个坑的已有条目 / name existing entries that are "
                                             "probably the same pitfall as FILE (shared error message, or jieba token "
                                             f"overlap of title and symptoms ≥ {THRESHOLD}).")
    parser.add_argument("file", type=Path, metavar="FILE", help="a record, e.g. a draft made with `new`")
    parser.add_argument("--content", type=Path, default=ROOT / "content", help="content folder (default: %(default)s)")
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="token overlap to report (default: %(default)s)")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    doc, problems = read_yaml(args.file, str(args.file))
    if doc is None:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 2
    checked = inspect_content(args.content)
    draft = fingerprint(source_label(args.file, checked.documents), doc.data)
    found = matches(draft, existing_entries(checked.documents), args.threshold)
    for match in found:
        print(match.describe())
    print(f"{len(found)} similar entr{'y' if len(found) == 1 else 'ies'} / 相似条目 {len(found)} 条", file=sys.stderr)
    return 0


def source_label(path: Path, documents: dict) -> str:
    """The label the checked content uses for `path` (so an entry is not its own duplicate), else the path."""
    return next((label for label, doc in documents.items() if doc.path.resolve() == path.resolve()), str(path))
