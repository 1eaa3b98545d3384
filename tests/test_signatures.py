"""Signatures: placeholders, and the checks that keep a pattern from hanging `match` or matching everything."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pitfalls.records.signatures import compile_signature, exact_pattern
from pitfalls.records.validate import check_content

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.mark.parametrize("pattern", [
    r"(a+)+bbbbb",                     # nested repetition
    r"Error: (?:[a-z]+ )+failed",      # the same, as people write it
    r"(a|a)*bbbbb",                    # alternatives that match alike
    r"(?:ab|\wb)*cdefg",               # alternatives that start alike
    r"(?:a?)*bbbbb",                   # repeating what can match nothing
    r"\d+\.?\d+ errors",               # adjacent repetitions over the same characters
    r"(\w+)\s\1 repeated",             # back-reference
])
def test_catastrophic_backtracking_is_refused(pattern):
    with pytest.raises(ValueError, match="backtrack catastrophically"):
        compile_signature("regex", pattern)


@pytest.mark.parametrize("pattern", [
    r"(\d{1,3}\.){3}\d{1,3} refused",
    r"(?:foo|bar)+ bazzz",
    r"DataLoader worker \(pid(?:\(s\))? [\d, ]+\) exited",
    r"(?i)cuda out of memory",
])
def test_linear_patterns_are_accepted(pattern):
    assert compile_signature("regex", pattern).kind == "regex"


@pytest.mark.parametrize("kind, text, message", [
    ("regex", "(unclosed", "not a valid regular expression: missing ), unterminated subpattern at position 0"),
    ("regex", r"\d*", "matches the empty string, so it would match every line"),
    ("regex", r"ab\w+", "requires only 2 literal character(s); at least 5 are needed"),
    ("regex", r"(?P<x>Error) here", "has a named group"),
])
def test_useless_or_broken_patterns_say_why(kind, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        compile_signature(kind, text)


def test_placeholders_stand_for_the_varying_parts():
    signature = compile_signature("exact", "worker (pid <pid>) at <hex> used <size> of <path> on <host>: <any>!")
    line = "worker (pid 4821) at 0x7f3a2c used 20.00 MiB of /data/a.bin on gpu-3.lab:  oh no!"
    assert re.search(signature.pattern, line)
    assert not re.search(signature.pattern, line.replace("4821", "x"))
    assert signature.specificity == len("worker(pid)atusedofon:!") + 1  # and the B that ends every <size>


def test_blank_runs_match_any_blanks_and_unknown_angle_brackets_are_literal():
    pattern = exact_pattern('File "<stdin>", line <num>, in <module>')
    assert re.search(pattern, 'File "<stdin>",  line 1,\tin <module>')
    assert not re.search(pattern, 'File "x.py", line 1, in <module>')


def test_check_names_the_file_field_and_reason(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8") + "signatures:\n  - exact: CUDA out of memory\n  - regex: '(x+)+y'\n",
                      encoding="utf-8")
    _, problems = check_content(content)
    assert [str(p) for p in problems if p.severity == "error"] == [
        "content/entries/gpu-oom.yml:40:12: signatures[1].regex: regex signature '(x+)+y' could backtrack "
        "catastrophically on a long line: a repetition inside a repetition, like (a+)+; repeat one level only",
    ]
