"""The jieba segmenter a process keeps: one, for the last dictionary asked for (pitfalls/text.py), a copy of
jieba's own dictionary (loaded once) with the project's words. A copy holds about 15 MB and `serve` meets a new
dictionary at every edit of the tags, categories or synonyms; bench/bench_serve_memory.py measures the workers'
memory over 10 such edits."""

from __future__ import annotations

import gc
import weakref

import pytest

from pitfalls.text import dictionary_compounds, segmenter


def test_the_same_dictionary_gets_the_same_segmenter():
    words = frozenset({"显存标签甲"})
    assert segmenter(words) is segmenter(frozenset(words))
    assert segmenter(words).words("显存标签甲坏了") == ["显存标签甲", "坏", "了"]


def test_a_new_dictionary_replaces_the_segmenter_and_the_old_one_is_let_go():
    first = segmenter(frozenset({"显存标签乙"}))
    gone = weakref.ref(first)
    del first
    second = segmenter(frozenset({"显存标签丙"}))
    gc.collect()
    assert gone() is None, "the previous vocabulary's tokenizer is still held"
    assert "显存标签丙" in second.words("显存标签丙坏了")


def test_a_segmenter_cuts_as_jieba_loaded_with_the_same_words():
    """The segmenter copies jieba's dictionary instead of loading it again: it must cut as jieba's own tokenizer,
    loaded the documented way, does (a jieba whose dictionary is not its `FREQ` and `total` would cut otherwise)."""
    import jieba

    words = frozenset({"显存标签壬", "断点续训"})
    own = jieba.Tokenizer()
    own.initialize()
    for word in sorted(words):
        own.add_word(word)
    text = "训练时显存标签壬不足怎么办，断点续训失败 RuntimeError: CUDA out of memory，稳定性差"
    ours = segmenter(words)
    assert ours.words(text) == own.lcut(text, HMM=False)
    assert ours.words(text, guess_new_words=True) == own.lcut(text, HMM=True)
    assert ours.search_words(text) == own.lcut_for_search(text, HMM=False)
    assert "显存标签壬" in ours.words(text)


def test_jiebas_dictionary_is_loaded_once_for_every_vocabulary(monkeypatch):
    """Loading it takes half a second; a new vocabulary (every edit under `serve`) copies it instead."""
    import jieba

    segmenter(frozenset({"显存标签丑"})).words("显存标签丑坏了")  # loaded by now, if it was not before
    loads = []
    load = jieba.Tokenizer.initialize
    monkeypatch.setattr(jieba.Tokenizer, "initialize", lambda self, *args: loads.append(1) or load(self, *args))
    assert "显存标签寅" in segmenter(frozenset({"显存标签寅"})).words("显存标签寅坏了")
    assert loads == []


def test_a_vocabularys_words_do_not_reach_the_next_one():
    """Each segmenter adds its words to a copy of jieba's dictionary, not to the one loaded for all of them."""
    assert "显存标签癸" in segmenter(frozenset({"显存标签癸"})).words("显存标签癸坏了")
    assert "显存标签癸" not in segmenter(frozenset({"显存标签子"})).words("显存标签癸坏了")


def test_a_dictionary_that_fails_to_load_leaves_no_segmenter_behind(monkeypatch):
    """The old tokenizer is let go before the new one loads; if loading fails (jieba cannot write its cache, a
    dictionary word it rejects), the next call loads afresh instead of finding half a replacement."""
    def fail(words):
        raise OSError("jieba: cannot write its dictionary cache")

    with monkeypatch.context() as patched, pytest.raises(OSError):
        patched.setattr("pitfalls.text.Segmenter", fail)
        segmenter(frozenset({"显存标签戊"}))
    assert "显存标签戊" in segmenter(frozenset({"显存标签戊"})).words("显存标签戊坏了")


def test_a_dictionary_word_the_terms_make_up_in_parts_of_two_characters_is_a_compound():
    # 驱动程序 is 驱动 + 程序, 下载速度 下载 + 速度: words of jieba's dictionary that the terms make up
    assert dictionary_compounds({"驱动", "程序", "下载", "速度"}) == ["下载速度", "驱动程序"]
    # a part of one character does not count (every character is a term of the index), nor a word that is a term
    assert dictionary_compounds({"驱动", "程", "序"}) == []
    assert dictionary_compounds({"驱动", "程序", "驱动程序"}) == []
    # 4 to 6 characters: 中华人民共和国 (7) is left out, its parts that are words kept
    assert dictionary_compounds({"中华", "人民", "共和国"}) == ["中华人民", "人民共和国"]
