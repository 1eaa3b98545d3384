"""Text analysis shared by search, similar entries, duplicate detection and `match`: one idea, one place.

engine.js repeats `normalize`, `keep_word`, `stem` and `message_key` for the query side, character
for character; tests/test_search.py compares the two.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Chinese characters: CJK Unified Ideographs, Extension A and the compatibility block."""
HAN_CHARACTER = re.compile(f"[{HAN}]")
PIECES = re.compile(f"([{HAN}]+)|([a-z0-9]+)")
"""In normalized text: a run of Chinese characters (group 1) or an ASCII word (group 2)."""
MAX_WORD_CHARS = 12
"""The longest Chinese word kept whole (dictionary, index terms); longer ones are left to their parts."""
_NOT_WORD = re.compile(f"[^a-z0-9{HAN}]+")
_VOWELS = set("aeiouy")


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
    return [stem(m.group(2)) for m in PIECES.finditer(text) if m.group(2) and keep_word(m.group(2))]


def message_key(text: str) -> str:
    """An error message reduced to its letters, digits and Chinese: what two copies of one message share
    (search's exact-message match; duplicate detection also reads every digit as 0)."""
    return _NOT_WORD.sub("", normalize(text))


class Segmenter:
    """jieba with the project dictionary (content/synonyms.yml words, Chinese labels and synonyms):
    the one Chinese word cutter of search, similar entries and duplicate detection."""

    def __init__(self, words: frozenset[str]):
        import jieba  # loading its dictionary takes a second: only when something is cut

        jieba.setLogLevel(60)
        self._jieba = jieba.Tokenizer()
        self._jieba.initialize()
        for word in sorted(words):
            self._jieba.add_word(word)

    def words(self, text: str, *, guess_new_words: bool = False) -> list[str]:
        """Accurate mode: each word once, no overlapping sub-words; unknown words guessed (HMM) if asked."""
        return self._jieba.lcut(text, HMM=guess_new_words)

    def search_words(self, text: str) -> list[str]:
        """Search-engine mode: words and their dictionary sub-words, new words guessed (HMM)."""
        return self._jieba.lcut_for_search(text, HMM=True)


@cache
def segmenter(words: frozenset[str]) -> Segmenter:
    """One segmenter per dictionary, for the life of the process."""
    return Segmenter(words)


_COMPARISON_STOPWORDS = frozenset(
    "the an of to in on at is are be was were and or for with by from as it its this that after "
    "before when not no but into than then too via can could does do".split()
) | frozenset("的 了 在 是 和 就 后 时 与 或 及 中 被 把 会 也 都 一个 没有 不 为 对 从 到 以 上 下".split())
_WORDY = re.compile(f"[0-9a-z{HAN}]")


def comparable_words(text: str, cutter: Segmenter) -> frozenset[str]:
    """The words two entries are compared by: lower case, without one-character words and function words."""
    words = (word.strip() for word in cutter.words(text.lower(), guess_new_words=True))
    return frozenset(w for w in words if len(w) > 1 and w not in _COMPARISON_STOPWORDS and _WORDY.search(w))
