"""What the search index knows of an entry (pitfalls/pages/search_analysis.py): the text of each field, the terms
the analyzer cuts it into (the words that count for the entry's length, and the parts beside them), the phrase
terms of a synonym, a title's length as the title rule measures it, and an entry's terms counted by field.
The documented rules and numbers are written here as they are in docs/SEARCH.md ("Index"): Chinese words of 2 to
12 characters, every Chinese character, English stems, the parts of a name with digits and of a CamelCase name,
identifiers whole, a two-word identifier also joined; title lengths capped at 255; BM25F weights title 5, labels 4,
quick fix 3, symptoms 4, body 1, translation 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pitfalls.pages.search_analysis import Analyzer, analyze_entry, entry_messages, entry_text
from pitfalls.records.validate import load_knowledge_base
from pitfalls.text import Segmenter, chinese_variants

TINY = Path(__file__).parent / "fixtures" / "tiny"
WORD_12 = "一二三四五六七八九十甲乙"
"""A dictionary word of 12 characters, the longest kept whole (MAX_WORD_CHARS)."""
WORD_13 = WORD_12 + "丙"


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    """The analyzer with a dictionary of a few words (as content/synonyms.yml `words` add them) and some filler."""
    return Analyzer(Segmenter(frozenset({WORD_12, WORD_13, "显卡驱动", "多进程"})), frozenset({"怎么办", "the", "of"}))


@pytest.fixture(scope="module")
def tiny():
    return load_knowledge_base(TINY)


def test_chinese_words_of_two_to_twelve_characters_count_and_every_character_is_a_part(analyzer):
    # search-engine mode: 显卡驱动 and its sub-words; 的 is a word of one character: a part only, and alone
    assert analyzer.terms("显卡驱动的问题") == (["显卡", "驱动", "显卡驱动", "问题"], ["显", "卡", "驱", "动", "的", "问", "题"],
                                              {"的"}, set())
    words, parts, _, _ = analyzer.terms(WORD_12)
    assert WORD_12 in words and parts == list(WORD_12)
    words, parts, _, _ = analyzer.terms(WORD_13)
    assert WORD_13 not in words and WORD_13 not in parts and "乙丙" in words and parts == list(WORD_13)


def test_english_words_are_stemmed_and_names_with_digits_and_identifiers_add_parts(analyzer):
    assert analyzer.terms("Tokens of fail2ban, torch.load") == (["token", "of", "fail2ban", "torch", "load"],
                                                               ["fail", "ban", "torch_load"], set(), set())
    # text of both scripts: every word and part, in the order of the text
    assert analyzer.terms("fail2ban 显卡 torch.load 驱动") == (["fail2ban", "显卡", "torch", "load", "驱动"],
                                                          ["fail", "ban", "显", "卡", "驱", "动", "torch_load"], set(), set())
    # an identifier of two words joined by - or _ also adds the word it reads as joined (all_reduce: allreduce)
    assert analyzer.terms("first all_reduce") == (["first", "all", "reduc"], ["all_reduce", "allreduc"], set(), set())
    # full-width forms read as ASCII; noise (one letter, a number of 5 digits, an address) is no term
    assert analyzer.terms("ＣＵＤＡ x 12345 0x7f3a2b1c") == (["cuda"], [], set(), set())


def test_camelcase_names_add_their_words_as_parts(analyzer):
    # an entry says ModuleNotFoundError, PyTorch, OOMKilled; a reader asks for module not found, torch, oom
    assert analyzer.terms("ModuleNotFoundError in PyTorch")[1] == ["modul", "not", "found", "error", "py", "torch"]
    assert analyzer.terms("OOMKilled, a DataLoader, ＰｙＴｏｒｃｈ")[1] == ["oom", "kill", "data", "loader", "py", "torch"]
    # not: one case throughout, a one-letter part (NaN, vLLM, iPhone), a capital alone at the start (Adam)
    assert analyzer.terms("CUDA cuda NaN vLLM iPhone Adam")[1] == []
    # the whole name stays one word that counts for the entry's length
    assert analyzer.terms("PyTorch")[0] == ["pytorch"]
    # a name after plain words and after a name that is not CamelCase still gives its words
    assert analyzer.terms("install then NaN PyTorch")[1] == ["py", "torch"]


def test_the_cuts_guess_no_new_words(analyzer):
    # jieba's HMM would guess 就断 a word: no dictionary word, and as a rare term it would outweigh the real ones
    cutter = analyzer.segmenter
    assert cutter.search_words("训练跑一半就断了") == ["训练", "跑", "一半", "就", "断", "了"]
    assert cutter.standing_words("训练跑一半就断了") == {"训练", "跑", "一半", "就", "断", "了"}
    assert "就断" not in cutter.words("训练跑一半就断了") and "就断" in cutter.words("训练跑一半就断了", guess_new_words=True)


def test_a_longer_word_stands_with_the_words_of_its_own_best_cut(analyzer):
    # 多进程 (a dictionary word here) is also 多 / 进程 by its best cut without itself; a two-character word is not cut
    assert analyzer.segmenter.standing_words("用多进程加载") == {"用", "多进程", "多", "进程", "加载"}


def test_a_single_character_is_reached_from_each_of_its_traditional_forms():
    # OpenCC's conversions write 发 as 發 only; 髮 (hair) simplifies to 发 too, and a reader may type either
    assert chinese_variants(["发"]) == {"發": {"发"}, "髮": {"发"}}
    assert chinese_variants(["发现"]) == {"發現": {"发现"}}  # a longer term: the forms of its phrase only


def test_a_word_of_the_search_cut_that_only_overlaps_the_texts_own_words_is_told_apart(analyzer):
    # 稳定性 is 稳定 / 性 by its own cut; search mode also yields 定性, which overlaps them. 定性 stands in 定性分析
    assert analyzer.terms("稳定性")[0] == ["稳定", "定性", "稳定性"]
    assert analyzer.terms("稳定性")[3] == {"定性"}
    assert analyzer.terms("稳定性 定性分析")[3] == set()  # a word of its own elsewhere in the text


def test_a_phrase_is_its_whole_words_without_filler(analyzer):
    # accurate mode (显卡驱动, not also 显卡 and 驱动), filler (怎么办, the) and noise (x) left out, stems kept
    assert analyzer.phrase("显卡驱动怎么办 the Tokens x") == ["显卡驱动", "token"]
    assert analyzer.phrase("fail2ban OF torch.load") == ["fail2ban", "torch", "load"]
    assert analyzer.phrase("Tokens 显卡驱动 x 卡") == ["token", "显卡驱动", "卡"]


def test_a_title_length_counts_chinese_characters_and_distinct_english_stems(analyzer):
    # 显存不足: 4 characters; cuda + out + memori, `of` being filler, each once however often the title says it
    assert analyzer.title_chars("显存不足 (CUDA out of memory): out of memory") == (4, 4 + 3 + 6)
    assert analyzer.title_chars("fail2ban") == (0, 8)  # the name, not its parts
    assert analyzer.title_chars("显" * 300 + " " + " ".join(chr(ord("a") + n) * 30 for n in range(9))) == (255, 255)
    assert analyzer.title_chars("显" * 255 + " " + "a" * 30) == (255, 30)


def test_the_text_of_each_field(tiny):
    gpu_oom = tiny.record("gpu-oom")
    assert entry_text(gpu_oom, "zh").fields == {
        "title": ["显存不足"],
        "tags": ["训练", "CUDA", "显存"],  # the category, then the tags
        "quick_fix": ["减小 batch_size"],  # plain text: no code marks
        "symptoms": ["RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "训练第一步就 OOM"],
        "steps": ["降低 batch_size", "查看显存占用： nvidia-smi --query-gpu=memory.used --format=csv"],  # with the code
        "cause": ["模型、激活值和优化器状态的总和超过了显存容量。"],
        "verification": ["再次运行训练，确认不再报错： python train.py --batch-size 16"],
        "environment": ["CUDA 12.1", "框架 PyTorch 2.1", "操作系统 Ubuntu 22.04"],  # by key, under the site's headings
        # the other language: title, quick fix and the behaviours, not the verbatim error message (the same in both)
        "translation": ["Out of GPU memory", "Lower batch_size", "OOM at the first training step"],
        "keywords": [],  # it has none
    }
    assert entry_text(gpu_oom, "en").fields["translation"] == ["显存不足", "减小 batch_size", "训练第一步就 OOM"]
    assert entry_text(gpu_oom, "en").fields["environment"] == ["CUDA 12.1", "Frameworks PyTorch 2.1", "OS Ubuntu 22.04"]
    # an entry written in Chinese only has nothing to translate, and no cause or verification
    docker = entry_text(tiny.record("docker-no-gpu"), "en")
    assert docker.record is tiny.record("docker-no-gpu")
    assert docker.fields["tags"] == ["Deployment", "Docker", "CUDA"]
    assert (docker.fields["translation"], docker.fields["cause"], docker.fields["verification"]) == ([], [], [])


def _tiny_with(tmp_path: Path, record_id: str, record: str):
    """The record `record` (YAML) of id `record_id`, loaded among the tiny fixture's."""
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    (content / "entries" / f"{record_id}.yml").write_text(record, encoding="utf-8")
    return load_knowledge_base(content).record(record_id)


def test_keywords_are_their_own_field_and_the_other_languages_go_with_the_translation(tmp_path):
    record = _tiny_with(tmp_path, "stuck",
        "id: stuck\ncategory: training\ntitle: {zh: 训练卡住, en: Training hangs}\nquick_fix: {zh: 重启, en: Restart}\n"
        "symptoms:\n  - {zh: 不动了, en: Nothing moves}\nsteps:\n  - {zh: 查看日志, en: Read the log}\ntags: [cuda]\n"
        "keywords:\n  zh: [假死, 没反应]\n  en: [frozen]\n")
    zh, en = entry_text(record, "zh").fields, entry_text(record, "en").fields
    assert (zh["keywords"], zh["translation"][-1:]) == (["假死", "没反应"], ["frozen"])
    assert (en["keywords"], en["translation"][-2:]) == (["frozen"], ["假死", "没反应"])


def test_exact_signatures_are_symptoms_and_a_title_the_same_in_both_languages_is_no_translation(tmp_path):
    record = _tiny_with(tmp_path, "nccl",
        "id: nccl\ncategory: training\ntitle: {zh: NCCL timeout, en: NCCL timeout}\nquick_fix: {zh: 加大超时, en: Raise the timeout}\n"
        "symptoms:\n  - {zh: 卡住, en: Hangs}\nsteps:\n  - {zh: 查看日志, en: Read the log}\ntags: [cuda]\n"
        "verification: {zh: 再跑一次, en: Run it again}\n"
        'signatures:\n  - exact: "NCCL watchdog <num> timeout"\n  - regex: "watchdog \\\\d+"\n')
    fields = entry_text(record, "zh").fields
    assert fields["symptoms"] == ["卡住", "NCCL watchdog timeout"]  # the placeholder left out; a regex is no text
    assert fields["translation"] == ["Raise the timeout", "Hangs"]
    assert (fields["steps"], fields["verification"]) == (["查看日志"], ["再跑一次"])  # no code: the text alone


def test_an_entry_counts_each_term_by_field_weight(tmp_path, analyzer):
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    shutil.rmtree(content / "entries")
    (content / "entries").mkdir()
    (content / "entries" / "a.yml").write_text(
        "id: a\ncategory: training\ntitle: {zh: 显卡驱动}\nquick_fix: {zh: 重装 driver 显卡}\n"
        "symptoms:\n  - {zh: 显卡 driver 报错}\n  - {zh: 报错}\nsteps:\n  - {zh: 重装驱动 的}\ntags: [cuda]\n", encoding="utf-8")
    record = load_knowledge_base(content).record("a")
    entry = analyze_entry(record, "zh", analyzer, lambda text, messages: {"title": text.fields["title"][0]})
    counts = {term: (short, long, flags) for term, short, long, flags
              in zip(entry.terms, entry.short_tf, entry.long_tf, entry.flags, strict=True)}
    assert entry.terms[:8] == ("显卡", "驱动", "显卡驱动", "显", "卡", "驱", "动", "训练")  # in the order met
    # title 5, tags 4, quick fix 3 (short); symptoms 4, steps 1 (long); flags: bit 0 title, 1 tags, 2 quick fix,
    # 3 symptoms, 4 steps; bit 11: a character that stands alone (的 in 重装驱动 的)
    assert counts["显卡"] == (5 + 3, 4, 0b1101)
    assert counts["驱动"] == (5, 1, 0b10001)
    assert counts["驱"] == (5, 1, 0b10001)  # a part counts as a word does
    assert counts["cuda"] == (4, 0, 0b10)
    assert counts["driver"] == (3, 4, 0b1100)
    assert counts["重装"] == (3, 1, 0b10100)
    assert counts["的"] == (0, 1, 1 << 11 | 0b10000)
    assert counts["报错"] == (0, 4 + 4, 0b1000)
    # the long fields' words, weighted: symptoms 显卡 driver 报错, 报错 (4 × 4), steps 重装 驱动 (2 × 1); the parts
    # (characters) and the short fields do not lengthen the entry
    assert entry.long_length == 4 * 4 + 2 * 1
    assert entry.title_chars == (4, 0)
    assert entry.record is record and entry.doc == {"title": "显卡驱动"}
    # its error messages (the symptoms, each once), each with the words a query containing it looks up
    assert entry.messages == (("显卡driver报错", ("driver",)), ("报错", ()))


def test_a_signature_is_an_error_message_of_its_runs_and_of_the_words_no_varying_part_continues(tmp_path):
    record = _tiny_with(tmp_path, "sm",
        "id: sm\ncategory: training\ntitle: {zh: 标题, en: Title}\nquick_fix: {zh: 修复, en: Fix}\n"
        "symptoms:\n  - {zh: 卡住, en: Hangs}\nsteps:\n  - {zh: 查看, en: Look}\ntags: [cuda]\n"
        'signatures:\n  - exact: "GPU with CUDA capability sm_<num> is not compatible"\n'
        '  - regex: "libcu(?:dart|blas)\\\\.so[\\\\d.]*: cannot open shared object"\n'
        '  - regex: "CUBLAS_STATUS_(?:ALLOC|EXECUTION)_FAILED when calling cublasCreate"\n'
        '  - exact: "Hangs"\n')
    # key: the runs' message keys, a space between; text: the runs less sm_, libcu, CUBLAS_STATUS_ and _FAILED, which
    # the part beside them continues (a query holding the message has sm_86, libcudart, CUBLAS_STATUS_ALLOC_FAILED),
    # so that the message is listed under a whole word
    assert entry_messages(record, "en") == {
        "hangs": "Hangs",  # the symptom and the literal signature: one message
        "gpuwithcudacapabilitysm isnotcompatible": "GPU with CUDA capability   is not compatible",
        "libcu so cannotopensharedobject": " . : cannot open shared object",
        "cublasstatus failedwhencallingcublascreate": "  when calling cublasCreate",
    }


def test_a_messages_words_are_those_a_query_looks_up_as_typed(analyzer):
    # English words stemmed, filler left out, identifiers whole; not the parts of a name, nor any Chinese
    assert analyzer.message_words("Errors of the max_model_len: fail2ban 显存") == (
        "error", "max", "model", "len", "fail2ban", "max_model_len")
