"""The bilingual lexicon mined from the entries' parallel text (pitfalls/pages/search_lexicon.py): which pairs are
taken for translations, and a Chinese query reaching an entry through one (docs/SEARCH.md, "Index")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers.bases import TINY
from pitfalls.commands.search import run_queries
from pitfalls.pages import search_index
from pitfalls.pages.search_index import build_index, write_site_index
from pitfalls.pages.search_lexicon import mined_pairs, parallel_segments
from pitfalls.records.model import KnowledgeBase, Step, Symptom, Text


def segments(*pairs: tuple[str, str]) -> list[tuple[tuple[frozenset[str], frozenset[str]], ...]]:
    """One entry per (Chinese words, English terms), space-separated."""
    return [((frozenset(zh.split()), frozenset(en.split())),) for zh, en in pairs]


def test_a_pair_met_in_3_segments_is_a_translation_in_2_it_is_chance():
    assert mined_pairs(segments(*[("防火墙", "firewal")] * 3), set()) == [("防火墙", "firewal")]
    assert mined_pairs(segments(*[("防火墙", "firewal")] * 2), set()) == []


def test_a_pair_is_kept_when_both_are_at_least_07_of_either():
    # 7 segments with both; the English term in 6 more: Dice 2·7 / (7 + 13) = 0.7, kept
    together = [("总线", "bus")] * 7
    assert mined_pairs(segments(*together, *[("其他", "bus")] * 6), set()) == [("总线", "bus")]
    # in 7 more: 2·7 / (7 + 14) = 0.67, a word that goes with others too
    assert mined_pairs(segments(*together, *[("其他", "bus")] * 7), set()) == []


def test_the_3_segments_are_those_with_both_words():
    # 总线 in 3 segments, bus in 2 of them: Dice 2·2 / (3 + 2) = 0.8, but together only twice
    assert mined_pairs(segments(("总线", "bus"), ("总线", "bus"), ("总线", "slot")), set()) == []


def test_each_word_is_in_one_pair_the_strongest():
    # 收敛 goes with converg in 3 of 3 segments (Dice 1), with loss in 3 of the 4 that have it (0.86): converg
    assert mined_pairs(segments(*[("收敛", "converg loss")] * 3, ("其他", "loss")), set()) == [("收敛", "converg")]
    # two Chinese words as strong for one term: it goes to one of them only
    assert len(mined_pairs(segments(*[("收敛 损失", "converg")] * 3), set())) == 1


def test_of_two_as_strong_the_pair_met_together_more_often():
    # 收敛 in 8 segments; e1 in 6 of them and 1 other (2·6 / (8 + 7) = 0.8), e2 in all 8 and 4 others (2·8 / 12 + 8)
    found = mined_pairs(segments(*[("收敛", "eone etwo")] * 6, *[("收敛", "etwo")] * 2, ("其他", "eone"),
                                 *[("别的", "etwo")] * 4), set())
    assert found == [("收敛", "etwo")]


def test_a_word_taken_stays_taken():
    # 收敛–converg first (4 together), then 损失–loss; 其他 goes with converg too (2·4 / (5 + 4) = 0.89), too late
    found = mined_pairs(segments(*[("收敛 其他", "converg")] * 4, ("其他", "onlyonce"), *[("损失", "loss")] * 3), set())
    assert found == [("损失", "loss"), ("收敛", "converg")]


def test_a_rare_word_met_first_does_not_stop_the_others():
    assert mined_pairs(segments(("其他", "rare"), *[("防火墙", "firewall")] * 3), set()) == [("防火墙", "firewall")]


def test_the_words_of_the_reviewed_vocabulary_are_never_mined():
    assert mined_pairs(segments(*[("显存", "vram")] * 3), {"显存"}) == []
    assert mined_pairs(segments(*[("显存", "vram")] * 3), {"vram"}) == []


def test_parallel_segments_keep_the_words_each_language_adds():
    record = replace(
        TINY.record("gpu-oom"),
        title=Text("训练时 CUDA 显存不足", "CUDA runs out of memory while training"),
        quick_fix=Text("the same text", "the same text"),  # no translation: skipped
        symptoms=(Symptom(Text("RuntimeError: CUDA error", "RuntimeError: CUDA error"), verbatim=True),
                  Symptom(Text("训练卡住", None), verbatim=False),  # one language only: skipped
                  Symptom(Text("进程挂起", "The process hangs"), verbatim=False)),
        steps=(Step(Text("检查防火墙 3 次", "Check the firewall 3 times")),
               Step(Text("安装 CUDA", "CUDA")),),  # nothing English left once the Chinese has CUDA: skipped
        cause=None, verification=None)
    found = parallel_segments(record, TINY.segmenter().words, frozenset({"the"}))
    chinese = {word for zh, _ in found for word in zh}
    english = {term for _, en in found for term in en}
    # the English the Chinese already types (cuda) translates nothing; digits, filler, short terms are not words
    assert english == {"run", "out", "memori", "whil", "train", "check", "firewall", "time", "process", "hang"}
    assert {"显存", "防火墙", "进程"} <= chinese and "安装" not in chinese and not any(len(word) == 1 for word in chinese)
    assert len(found) == 3


def _base_teaching_bus(target_title: str) -> KnowledgeBase:
    """Three entries whose steps say 总线 / bus in both languages, and a last one whose title says Bus error only."""
    template = replace(TINY.record("gpu-oom"), symptoms=(), cause=None, verification=None, signatures=(), related=(),
                       aliases=(), quick_fix=Text("重启", "Reboot"))
    teaching = [replace(template, id=f"teach-{n}", title=Text(f"第{n}种掉卡", f"Lost GPU, case {n}"),
                        steps=(Step(Text(f"检查 PCIe 总线{n}号槽", f"Check PCIe bus slot {n}")),)) for n in range(3)]
    target = replace(template, id="sigbus", title=Text(target_title, target_title), steps=(Step(Text("加大 shm", "Raise shm")),))
    return KnowledgeBase(records=(*teaching, target), categories=TINY.categories, tags=TINY.tags,
                         vocabulary=TINY.vocabulary, content_dir=TINY.content_dir)


def test_the_index_adds_each_mined_pair_as_a_synonym_group():
    groups = build_index(_base_teaching_bus("Bus error (core dumped)"), "zh").manifest["synonyms"]
    assert [["总线"], ["bus"]] in groups


@pytest.mark.parametrize("mined", [True, False])
def test_a_chinese_query_finds_the_entry_that_says_it_in_english(tmp_path, monkeypatch, mined):
    """总线 is in three entries' steps; the fourth (not the first entry) says Bus error in its title and never 总线:
    through the mined pair its title answers the query, which a step that has the word does not outweigh."""
    if not mined:
        monkeypatch.setattr(search_index, "mined_pairs", lambda entries, reviewed: [])
    write_site_index(_base_teaching_bus("Bus error (core dumped)"), "zh", tmp_path)
    [ranked] = run_queries(tmp_path / "search", ["总线"])
    ids = [result["id"] for result in ranked]
    if mined:
        assert ids[0] == "sigbus" and set(ids) == {"sigbus", "teach-0", "teach-1", "teach-2"}
    else:
        assert "sigbus" not in ids
