"""Text analysis shared by search, similar entries, duplicate detection and `match`: one idea, one place.

engine.js repeats `normalize`, `keep_word`, `name_parts`, `stem` and `message_key` for the query side,
character for character; tests/test_search.py compares the two.
"""

from __future__ import annotations

import gc
import re
import sys
import threading
import unicodedata
from functools import cache, lru_cache

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Chinese characters: CJK Unified Ideographs, Extension A and the compatibility block."""
HAN_CHARACTER = re.compile(f"[{HAN}]")
UUID = "[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
PIECES = re.compile(f"([{HAN}]+)|({UUID}|[a-z0-9]+)")
"""In normalized text: a run of Chinese characters (group 1) or an ASCII word (group 2); a UUID is
one word (which `keep_word` drops), not five."""
MAX_WORD_CHARS = 12
"""The longest Chinese word kept whole (dictionary, index terms); longer ones are left to their parts."""
_NOT_MESSAGE = re.compile(f"[^a-z0-9{HAN}<>+%#@$&]+")
"""What a message key drops: separators, quotes, brackets and markup, which a copy of a message may have otherwise;
kept: the symbols that are content (invalid load key, '<' is an HTML page, 'v' a git-lfs pointer; c++; 100%)."""
_VOWELS = set("aeiouy")
_IRREGULAR_PASTS = {"hung": "hang", "froze": "freeze", "frozen": "freeze", "broke": "break", "broken": "break",
                    "ran": "run", "wrote": "write", "written": "write", "threw": "throw", "thrown": "throw",
                    "built": "build", "sent": "send"}
"""Past forms of verbs that errors and their readers use, to their verb; the stemmer goes on from there."""
_NOISE = re.compile(f"{UUID}|0x[0-9a-f]+|(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{{7,}}")
"""Words that are noise, not names: UUIDs, 0x addresses, hex hashes (7+ hex digits with a letter and
a digit, as a short git hash). Names with digits (fail2ban, resnet101, libcudnn8) have other letters."""
_NAME_PARTS = re.compile("[a-z]+|[0-9]+")
COMPOUND = re.compile("(?=[0-9._-]*[a-z])[a-z0-9]+(?:[._-][a-z0-9]+)+")
"""In normalized text: words joined by dots, underscores or hyphens, with a letter, an identifier (torch.load,
nvidia-smi, max_model_len), which search also indexes whole (compound_term). Version numbers (2.3.0) are not:
they are shared by entries that have nothing else in common."""
MAX_COMPOUND_CHARS = 40


def normalize(text: str) -> str:
    """NFKC (full-width → ASCII) and lowercase: the first step on both sides."""
    return unicodedata.normalize("NFKC", text).lower()


def keep_word(word: str) -> bool:
    """Whether an ASCII word is worth a term: not a single letter, a long number, a hash, a UUID or an address."""
    if len(word) < 2 or len(word) > 30:
        return False
    if word.isdigit():
        return len(word) <= 4
    return not _NOISE.fullmatch(word)


def name_parts(word: str) -> list[str]:
    """The parts of a kept name with letters and digits (resnet101 → resnet, 101; fail2ban → fail, ban),
    so the name is found by its parts too; [] for a plain word or number."""
    parts = _NAME_PARTS.findall(word)
    return [stem(part) for part in parts if keep_word(part)] if len(parts) > 1 else []


def _short_syllable(word: str) -> bool:
    """Three letters, consonant-vowel-consonant (y a vowel, the last not w or x): what -ed or -ing left of a verb with a final e
    (pip of piping, tim of timed); hop of hopping is undoubled before, fix and saw are left as they are."""
    return len(word) == 3 and word[0] not in _VOWELS and word[1] in _VOWELS and word[2] not in _VOWELS and word[2] not in "wx"


def stem(word: str) -> str:
    """A small suffix stemmer for English words (a few irregular pasts, plurals, -ies and -ied, -ed, -ing, -ation,
    final e, y); analysis.js stem() is the same."""
    word = _IRREGULAR_PASTS.get(word, word)
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ly") and len(word) >= 6 and word[-3] in "cdeghkmnrtw":
        word = word[:-2]
    if word.endswith(("ies", "ied")):
        word = word[:-3] + ("y" if len(word) > 4 else "ie")
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith(("ches", "shes", "xes")):  # not -zes: size, sizes (buzzes loses its e by the final e rule)
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ation", "ing", "ed"):
        rest = word[: -len(suffix)]
        if word.endswith(suffix) and len(rest) >= 3 and _VOWELS & set(rest) and not (suffix == "ed" and rest.endswith("e")):
            word = rest
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in _VOWELS:
                word = word[:-1]
            elif suffix != "ation" and _short_syllable(word):
                word += "e"  # piping, piped: pipe (as the four-letter word keeps its e below), not pip
            break
    if word.endswith("e") and len(word) >= 5:
        word = word[:-1]
    if word.endswith("y") and len(word) >= 4:
        word = word[:-1] + "i"
    return word


@lru_cache(maxsize=1 << 16)
def word_terms(word: str) -> tuple[str, ...]:
    """The index terms of one ASCII word: none for noise, else its stem and the parts of a name with digits
    (cached: an index step meets the same words millions of times)."""
    return (stem(word), *name_parts(word)) if keep_word(word) else ()


_LETTERS = re.compile("[A-Za-z]{4,}")  # a name of two parts of two letters or more
_CAMEL_CASE = re.compile("[a-z][A-Z]|[A-Z][A-Z][a-z]")  # where a part ends: fooBar, OOMKilled
_CAMEL_HUMP = re.compile("[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")


def camel_parts(text: str) -> list[str]:
    """The words of the CamelCase names in `text` (before lowercasing: ModuleNotFoundError → module, not, found,
    error; PyTorch → py, torch; OOMKilled → oom, kill), stemmed, so an entry is found by them as it says them;
    none of a name with a one-letter part (NaN, vLLM), whose parts are not words."""
    parts = []
    for name in _LETTERS.findall(unicodedata.normalize("NFKC", text)):
        if not _CAMEL_CASE.search(name):
            continue
        humps = _CAMEL_HUMP.findall(name)
        if all(len(hump) > 1 for hump in humps):
            parts += [stem(hump.lower()) for hump in humps if keep_word(hump.lower())]
    return parts


def compound_term(compound: str) -> str | None:
    """The index term of an identifier (a COMPOUND match): its words joined by "_", so max-model-len and
    max_model_len are one term; None when it is too long to be a name (a path, a long paste)."""
    return re.sub("[._-]", "_", compound) if len(compound) <= MAX_COMPOUND_CHARS else None


def joined_term(name: str) -> str | None:
    """The word an identifier of two words joined by - or _ also reads as (all_reduce, time-out, 4-bit: allreduc,
    timeout, 4bit), stemmed: the same name written without its joint, as readers type it too; None for a name of
    more words or with dots (max_model_len, torch.load), which nobody writes joined."""
    parts = re.split("[_-]", name)
    if "." in name or len(parts) != 2:
        return None
    word = "".join(parts)
    return stem(word) if keep_word(word) else None


def compound_terms(text: str) -> list[str]:
    """The identifier terms of already normalized text, in order (analysis.js compounds()): each identifier, then
    the word it reads as joined (joined_term), then each of its dotted parts that is an identifier itself
    (is_available of torch.cuda.is_available), each followed by its joined word."""
    terms = []
    for compound in COMPOUND.findall(text):
        names = [compound, *(part for part in compound.split(".") if "." in compound and COMPOUND.fullmatch(part))]
        for name in names:
            if term := compound_term(name):
                terms.append(term)
                if joined := joined_term(name):
                    terms.append(joined)
    return terms


def english_terms(text: str) -> list[str]:
    """The English terms of already normalized text, in order (Chinese runs skipped)."""
    return [term for m in PIECES.finditer(text) if m.group(2) for term in word_terms(m.group(2))]


def message_key(text: str) -> str:
    """An error message reduced to its letters, digits, Chinese and the symbols that are content (`<>+%#@$&`): what
    two copies of one message share (search's exact-message match; duplicate detection also reads every digit as 0)."""
    return _NOT_MESSAGE.sub("", normalize(text))


class Segmenter:
    """jieba with the project dictionary (content/synonyms.yml words, Chinese labels and synonyms):
    the one Chinese word cutter of search, similar entries and duplicate detection."""

    def __init__(self, words: frozenset[str]):
        import jieba

        frequencies, total = jieba_dictionary()
        self._jieba = jieba.Tokenizer()
        # jieba's own dictionary, copied (add_word writes into it) instead of loaded again
        self._jieba.FREQ, self._jieba.total, self._jieba.initialized = dict(frequencies), total, True
        for word in sorted(words):
            self._jieba.add_word(word)

    def words(self, text: str, *, guess_new_words: bool = False) -> list[str]:
        """Accurate mode: each word once, no overlapping sub-words; unknown words guessed (HMM) if asked."""
        return self._jieba.lcut(text, HMM=guess_new_words)

    def standing_words(self, text: str) -> set[str]:
        """The words of the accurate cut and, inside each longer one, the words of its own best cut without it
        (jieba's route): 稳定性 → 稳定性, 稳定, 性. Search mode also yields 定性 there, a dictionary word that only
        overlaps them: the index flags such words (search_analysis.OVERLAP_BIT)."""
        found = set()
        todo = self._jieba.lcut(text, HMM=False)
        while todo:
            word = todo.pop()
            found.add(word)
            if len(word) > 2:
                dag = self._jieba.get_DAG(word)
                dag[0] = [end for end in dag[0] if end != len(word) - 1] or [0]
                route: dict[int, tuple[float, int]] = {}
                self._jieba.calc(word, dag, route)
                start = 0
                while start < len(word):
                    end = route[start][1] + 1
                    todo.append(word[start:end])
                    start = end
        return found

    def search_words(self, text: str) -> list[str]:
        """Search-engine mode: words and their dictionary sub-words; no new words guessed (HMM): a guess such as
        就断 is no word, and as a rare term it would outweigh the real words of a query that happens to contain it."""
        return self._jieba.lcut_for_search(text, HMM=False)


COMPOUND_CHARACTERS = (4, 6)
"""The lengths of the dictionary's words that `dictionary_compounds` considers, in Chinese characters: two parts of
two characters or more make four at least."""


def dictionary_compounds(terms: set[str]) -> list[str]:
    """The words of jieba's dictionary (4 to 6 Chinese characters) that are not among `terms` but split wholly into
    `terms` of two characters or more (驱动程序: 驱动 and 程序), sorted. A query reads such a word as one piece of what
    was typed, as jieba cuts it, though the entries never say it whole: 驱动程序 is one word, not two."""
    def made_of_terms(text: str) -> bool:
        return text in terms or any(text[:cut] in terms and made_of_terms(text[cut:]) for cut in range(2, len(text) - 1))

    return sorted(word for word in _compound_candidates() if word not in terms and made_of_terms(word))


@cache
def _compound_candidates() -> tuple[str, ...]:
    """The words of jieba's dictionary of COMPOUND_CHARACTERS Chinese characters (about 90,000), found once a process:
    an index is made many times in one (`serve`, the tests)."""
    shortest, longest = COMPOUND_CHARACTERS
    frequencies, _ = jieba_dictionary()
    return tuple(word for word, frequency in frequencies.items()
                 if frequency and shortest <= len(word) <= longest and all(HAN_CHARACTER.match(char) for char in word))


@cache
def jieba_dictionary() -> tuple[dict[str, int], int]:
    """jieba's own dictionary (word → frequency, and their total), loaded once a process: loading takes half a second
    and 65 MB, a segmenter's copy 14 ms and 15 MB (the words themselves are shared), and `serve` makes a segmenter
    at every edit of the vocabulary, the tests one for each content they read. `pitfalls build` loads it before it
    forks the languages' builds (commands/language_builds.py), which then share it."""
    import jieba  # only when something is cut

    jieba.setLogLevel(60)
    loaded = jieba.Tokenizer()
    loaded.initialize()
    return loaded.FREQ, loaded.total


_segmenter: tuple[frozenset[str], Segmenter] | None = None
"""The one segmenter a process keeps: its dictionary's words, and it."""
_segmenter_lock = threading.Lock()


def segmenter(words: frozenset[str]) -> Segmenter:
    """The segmenter of this dictionary, kept until another dictionary is asked for, which replaces it.
    One at a time: its copy of jieba's dictionary holds about 15 MB, and under `serve` every edit of the tags,
    categories or synonyms is a new dictionary (bench/bench_serve_memory.py). The old one is let go
    before the new one is loaded, so two are never held at once (unless a caller still holds the old)."""
    global _segmenter
    with _segmenter_lock:
        if _segmenter is None or _segmenter[0] != words:
            _segmenter = None
            _segmenter = (words, Segmenter(words))
        return _segmenter[1]


_COMPARISON_STOPWORDS = frozenset(
    "the an of to in on at is are be was were and or for with by from as it its this that after "
    "before when not no but into than then too via can could does do".split()
) | frozenset("的 了 在 是 和 就 后 时 与 或 及 中 被 把 会 也 都 一个 没有 不 为 对 从 到 以 上 下".split())
_WORDY = re.compile(f"[0-9a-z{HAN}]")


def comparable_words(text: str, cutter: Segmenter) -> frozenset[str]:
    """The words two entries are compared by: lower case, without one-character words and function words."""
    words = (word.strip() for word in cutter.words(text.lower(), guess_new_words=True))
    return frozenset(w for w in words if len(w) > 1 and w not in _COMPARISON_STOPWORDS and _WORDY.search(w))


# --- readings of Chinese terms, for queries typed without a Chinese input method or in traditional script ---


@cache
def pinyin_syllables() -> tuple[str, ...]:
    """Every toneless pinyin syllable of pypinyin's dictionary that has a vowel (ü written v, as typed on a
    keyboard); the interjections m, n, ng, hm, hng are left out, so fewer English words read as pinyin."""
    from pypinyin.contrib.tone_convert import to_normal
    from pypinyin.pinyin_dict import pinyin_dict

    readings = {reading for value in pinyin_dict.values() for reading in value.split(",")}
    syllables = {to_normal(reading, v_to_u=False) for reading in readings}
    return tuple(sorted(s for s in syllables if re.fullmatch("[a-z]*[aeiouv][a-z]*", s)))


def pinyin_reading(term: str) -> list[str] | None:
    """The toneless pinyin syllables of a Chinese term, read as a phrase (pypinyin's phrase dictionary, so
    重新 is chong xin and 长度 chang du), or None when a character has no reading."""
    from pypinyin import Style, lazy_pinyin

    # "" for a character without a reading: pypinyin converts what `errors` returns to the style too, and None
    # made it raise (TypeError) on such a character (兙, U+5159) instead of returning None
    syllables = lazy_pinyin(term, style=Style.NORMAL, errors=lambda chars: [""] * len(chars))
    return syllables if all(s and s.isascii() and s.isalpha() for s in syllables) else None


CHINESE_CONVERSIONS = ("s2t", "s2tw", "s2twp", "s2hk")
"""OpenCC conversions from simplified Chinese: traditional, Taiwan (with s2twp also Taiwan wording, phrase
by phrase: 服务器 → 伺服器, 显卡 → 顯示卡), Hong Kong."""


def chinese_variants(terms: list[str]) -> dict[str, set[str]]:
    """Each traditional or regional form of the simplified `terms` (OpenCC, phrase-level), mapped to the
    terms it stands for; a single traditional character also maps to its simplified character when
    that is one of `terms` (OpenCC's t2s, so a character of every variant table is covered)."""
    variants: dict[str, set[str]] = {}
    for config in CHINESE_CONVERSIONS if terms else ():
        # one call for all terms: no dictionary phrase spans a line break
        converted = _converter(config).convert("\n".join(terms)).split("\n")
        for term, form in zip(terms, converted, strict=True):
            if form != term:
                variants.setdefault(form, set()).add(term)
    singles = {term for term in terms if len(term) == 1}
    for char, simple in _simplified_characters().items():
        if simple in singles:
            variants.setdefault(char, set()).add(simple)
    return variants


@cache
def _converter(config: str):
    """An OpenCC converter, loaded once per process (its dictionaries take a moment)."""
    import opencc

    return opencc.OpenCC(f"{config}.json")


@cache
def _simplified_characters() -> dict[str, str]:
    """Every Chinese character that OpenCC's t2s simplifies, mapped to its simplified form."""
    characters = [chr(code) for code in range(0x3400, 0xA000) if HAN_CHARACTER.match(chr(code))]
    simplified = _converter("t2s").convert("\n".join(characters)).split("\n")
    return {char: simple for char, simple in zip(characters, simplified, strict=True) if simple != char}


def release_dictionaries() -> None:
    """Drop OpenCC's and pypinyin's dictionaries (about 120 MB) once an index is built: a site build would
    otherwise carry them through MkDocs' rendering of every page, where its memory peaks."""
    for cached in (_converter, _simplified_characters, pinyin_syllables):
        cached.cache_clear()
    for name in [name for name in sys.modules if name.split(".")[0] in ("opencc", "pypinyin")]:
        del sys.modules[name]
    gc.collect()
