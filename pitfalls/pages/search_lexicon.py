"""The bilingual lexicon the entries teach (docs/SEARCH.md, "Index"): Chinese and English words that translate each
other, mined from the records' own parallel text. Every title, quick fix, symptom, step, cause and check is written
in both languages; a pair of words that keeps turning up in the same segments (总线 and bus, 防火墙 and firewall) is
taken for a translation. The index adds each pair as a synonym group, so a Chinese query reaches an entry that says
it in English (总线错误: Bus error) and an English query one that says it in Chinese, without anyone writing the pair
down. The vocabulary file stays the reviewed, general part; a word of one of its groups is never mined.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from ..records.model import Record, Text
from ..text import PIECES, english_terms, normalize

MIN_SEGMENTS = 3
"""A pair met together in fewer parallel segments is taken for chance."""
MIN_DICE = 0.7
"""A pair is kept when the segments that have both are at least this share of those that have either (the Dice
coefficient, 2 × both / (those with the Chinese word + those with the English one)): a word that also goes with
others is no one's translation. 0.7, not 0.8: the pairs between are still translations (模块 module, 服务器 server,
确定性 deterministic); below 0.7 they loosen (国内 mirror, 源码 prebuilt): docs/SEARCH-LOG.md, "The lexicon's threshold
lowered to 0.7"."""

Segment = tuple[tuple[str, ...], tuple[str, ...]]
"""A segment written in both languages: its Chinese words, its English terms, each once (tuples, not sets: every
entry keeps its segments, and at 5,000 entries sets were 50 MB of a build's peak)."""


def parallel_segments(record: Record, chinese_words: Callable[[str], list[str]], stopwords: frozenset[str]
                      ) -> tuple[Segment, ...]:
    """Each of `record`'s segments written in both languages, as its Chinese words of two characters or more
    (`chinese_words` cuts a run of Chinese) and its English terms (stemmed, letters only, three or more, not filler)
    less those its Chinese text has too: an English name typed in the Chinese (CUDA, NCCL) translates nothing."""
    texts: list[Text] = [record.title, record.quick_fix, *(s.text for s in record.symptoms if not s.verbatim),
                         *(s.text for s in record.steps)]
    if record.cause:
        texts.append(record.cause)
    if record.verification:
        texts.append(record.verification.text)
    segments = []
    for text in texts:
        if not text.zh or not text.en or text.zh == text.en:
            continue
        zh, en = normalize(text.zh), normalize(text.en)
        chinese = {w for m in PIECES.finditer(zh) if m.group(1) for w in chinese_words(m.group(1)) if len(w) > 1}
        english = {t for t in english_terms(en) if len(t) > 2 and t.isalpha() and t not in stopwords}
        english -= set(english_terms(zh))
        if chinese and english:
            segments.append((tuple(sorted(chinese)), tuple(sorted(english))))
    return tuple(segments)


def mined_pairs(entries: Iterable[tuple[Segment, ...]], reviewed: set[str]) -> list[tuple[str, str]]:
    """(Chinese word, English term) pairs that translate each other in the entries' parallel segments, each word in
    one pair at most (the strongest first), none of the words in `reviewed` (the vocabulary's groups)."""
    segments = [segment for entry in entries for segment in entry]
    where: dict[str, list[int]] = defaultdict(list)
    english = Counter()
    for n, (chinese, words) in enumerate(segments):
        for word in chinese:
            where[word].append(n)
        english.update(words)
    candidates = []
    for word, found in where.items():
        if len(found) < MIN_SEGMENTS or word in reviewed:
            continue
        # one Chinese word at a time: its co-occurring terms only, not every pair of the corpus at once
        together = Counter(term for n in found for term in segments[n][1])
        for term, both in together.items():
            dice = 2 * both / (len(found) + english[term])
            if both >= MIN_SEGMENTS and dice >= MIN_DICE and term not in reviewed:
                candidates.append((-dice, -both, word, term))
    pairs, used = [], set()
    for _, _, word, term in sorted(candidates):
        if word not in used and term not in used:
            used |= {word, term}
            pairs.append((word, term))
    return sorted(pairs)
