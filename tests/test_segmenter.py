"""The jieba segmenter a process keeps: one, for the last dictionary asked for (pitfalls/text.py). A tokenizer
holds about 70 MB and `serve` meets a new dictionary at every edit of the tags, categories or synonyms;
bench/bench_serve_memory.py measures the workers' memory over 10 such edits."""

from __future__ import annotations

import gc
import weakref

import pytest

from pitfalls.text import segmenter


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


def test_a_dictionary_that_fails_to_load_leaves_no_segmenter_behind(monkeypatch):
    """The old tokenizer is let go before the new one loads; if loading fails (jieba cannot write its cache, a
    dictionary word it rejects), the next call loads afresh instead of finding half a replacement."""
    def fail(words):
        raise OSError("jieba: cannot write its dictionary cache")

    with monkeypatch.context() as patched, pytest.raises(OSError):
        patched.setattr("pitfalls.text.Segmenter", fail)
        segmenter(frozenset({"显存标签戊"}))
    assert "显存标签戊" in segmenter(frozenset({"显存标签戊"})).words("显存标签戊坏了")
