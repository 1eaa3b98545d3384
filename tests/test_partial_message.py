"""Search's rule for a piece of an error message (docs/SEARCH.md, stage 7): a query of 16 characters or more
(letters and digits, after normalisation) found inside an entry's message puts that entry first; a shorter one
is only words. Through `pitfalls search --json` on the tiny fixture plus an entry that shares the words, so that
without the rule another entry would win. Runs the site's engine under node; no site build, no browser."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pitfalls.commands.cli import main

TINY = Path(__file__).parent / "fixtures" / "tiny"

DISTRACTOR = """\
id: oom-killer
category: training
title:
  zh: 内存不足，进程被杀
  en: Out of memory, tried to allocate and the process was killed
quick_fix:
  zh: 减少内存占用
  en: Use less memory
symptoms:
  - "Out of memory: Killed process 4242 (python)"
  - zh: 训练时进程消失
    en: The training process disappears; memory ran out after it tried to allocate
steps:
  - zh: 查看 dmesg
    en: Look at dmesg
tags: [cuda]
"""


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    """gpu-oom's message is "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"; oom-killer has the
    same words more often, and another message."""
    content = tmp_path_factory.mktemp("partial") / "content"
    shutil.copytree(TINY, content)
    (content / "entries" / "oom-killer.yml").write_text(DISTRACTOR, encoding="utf-8")
    return content


def search(content: Path, query: str, capsys) -> list[dict]:
    assert main(["search", query, "--json", "--lang", "en", "--content", str(content)]) == 0
    return json.loads(capsys.readouterr().out)


def test_sixteen_characters_of_a_message_put_its_entry_first(content, capsys):
    results = search(content, "out of memory. Tried", capsys)  # outofmemorytried: 16
    assert [(r["id"], r["exact"]) for r in results] == [("gpu-oom", True), ("oom-killer", False)]


def test_fifteen_characters_of_a_message_are_only_words(content, capsys):
    results = search(content, "ut of memory. Tried", capsys)  # utofmemorytried: 15
    assert {r["id"]: r["exact"] for r in results} == {"gpu-oom": False, "oom-killer": False}
