"""Signatures: placeholders, and the checks that keep a pattern from hanging `match` or matching everything."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pitfalls.records.signatures import anchor, compile_signature, exact_pattern
from pitfalls.records.validate import check_content

TINY = Path(__file__).parent / "fixtures" / "tiny"


NESTED = "a repetition inside a repetition, like (a+)+; repeat one level only"
ALTERNATIVES = ("a repetition of alternatives that can match the same text, like (ab|\\wb)* or (a|a)*; "
                "make the alternatives start differently")
NULLABLE = "a repetition of something that can match nothing, like (a?)*"
ADJACENT = "two repetitions in a row that can match the same characters, like \\d+\\d*; merge them"
BACKREFERENCE = "a back-reference (\\1): matching it can take exponential time"


@pytest.mark.parametrize("pattern, why", [
    (r"(a+)+bbbbb", NESTED),
    (r"Error: (?:[a-z]+ )+failed", NESTED),           # the same, as people write it
    (r"(?:a{1,2})+bbbbb", NESTED),                    # a bounded repetition that can take 1 or 2 inside an unbounded one
    (r"(?:x+){2}yyyyy", NESTED),                      # an unbounded one inside one repeated twice
    (r"(?:(x+)z){3}yyyyy", NESTED),                   # … also inside a group
    (r"(x)?(?(1)(?:a+)+|b) end", NESTED),             # … or inside a conditional's first branch
    (r"(x)?(?(1)b|(?:a+)+) end", NESTED),             # … or its second
    (r"(a|a)*bbbbb", ALTERNATIVES),
    (r"(?:ab|\wb)*cdefg", ALTERNATIVES),              # alternatives that start alike
    (r"(?:ab|cd|ae)+ done", ALTERNATIVES),            # the first and the third
    (r"(?:(?:a?|bc|d?)e)+ done", ALTERNATIVES),       # two that can match nothing, not next to each other
    (r"(?:a?)*bbbbb", NULLABLE),                      # repeating what can match nothing
    (r"\d+\.?\d+ errors", ADJACENT),                  # adjacent repetitions over the same characters
    (r"[a-c]+a+ units", ADJACENT),                    # a range's first character …
    (r"[a-c]+b+ units", ADJACENT),                    # … one inside it …
    (r"[a-c]+c+ units", ADJACENT),                    # … and its last
    (r"[a-cx]+a+ units", ADJACENT),                   # a range before a literal in a class
    (r"[xa-c]+x+ units", ADJACENT),                   # a literal before a range
    (r"[x\d]+x+ units", ADJACENT),                    # a literal before a category
    (r"[^x]+y+ units", ADJACENT),                     # a negated character
    (r"[^xy]+z+ units", ADJACENT),                    # a negated class
    (r"x+(xy)+ zzzzz", ADJACENT),                     # what a group starts with
    (r"x+(?:xa|yb)+ zzzzz", ADJACENT),                # … what any of its alternatives starts with
    (r"x+(?:x?y)+ zzzzz", ADJACENT),                  # … what follows an optional start, and the start
    (r"[a-z]+\b[a-z]+ words", ADJACENT),              # an assertion between them matches no character
    (r"(?:c?|ab)+ zzzzz", NULLABLE),                  # one alternative can match nothing
    (r"(x)?(?:(?(1)ab))+ zzzzz", NULLABLE),           # a conditional without a second branch
    (r"(\w+)\s\1 repeated", BACKREFERENCE),
])
def test_catastrophic_backtracking_is_refused_with_the_reason(pattern, why):
    with pytest.raises(ValueError) as refused:
        compile_signature("regex", pattern)
    assert str(refused.value) == f"could backtrack catastrophically on a long line: {why}"


@pytest.mark.parametrize("pattern", [
    r"(\d{1,3}\.){3}\d{1,3} refused",
    r"(?:foo|bar)+ bazzz",
    r"DataLoader worker \(pid(?:\(s\))? [\d, ]+\) exited",
    r"(?i)cuda out of memory",
    r"(?:ab?)+ done",                 # an optional character inside a repetition
    r"\d+x{1,3}\d+ items",            # a required character between two repetitions of digits
    r"\d+[a-z]+ units",                # two repetitions in a row over different characters
    r"[^x]+x+ done",                  # … a negated character and that character
    r"[a-c]+[d-f]+ units",            # … two ranges
    r"[xy]+a+ units",                 # … a class of literals and another character
    r"(?:(?:ab|c?)d)+ end",           # alternatives of which one can match nothing, in a repetition
    r"(?>abc\d+) done",               # an atomic group
    r"(x)?(?(1)bcd|efg)hij klm",      # a conditional
    r"(x)?(?:(?(1)ab|cd))+ zzzzz",    # … with two branches that match something, repeated
    r"[^xy]+x+ done",                 # a negated class and a character it leaves out
    r".+\n+ done",                    # `.` matches no newline
])
def test_linear_patterns_are_accepted(pattern):
    assert compile_signature("regex", pattern).kind == "regex"


@pytest.mark.parametrize("pattern, literals", [
    (r"abc(defg)", 7),                 # inside a group
    (r"xy(?>abcde)", 7),               # inside an atomic group
    (r"(?:ab){2,4}cd", 6),             # a repeated part counts as often as it must be there
    (r"(?:ab){3}", 6),
    (r"(?:ab)?cdefg", 5),              # an optional part not at all
    (r"(?:abc|de)fgh", 5),             # alternatives: the shorter one
])
def test_specificity_counts_the_literal_characters_every_match_contains(pattern, literals):
    assert compile_signature("regex", pattern).specificity == literals


@pytest.mark.parametrize("pattern, expected", [
    (r"abc", "abc"),                              # 3 characters: long enough …
    (r"ab\d", None),                              # … 2 are not
    (r"abc\d", "abc"),
    (r"zz\d+abcdef", "abcdef"),                   # the longest run, not the first or the greatest
    (r"abcdef\d+zz\s+abcd", "abcdef"),
    (r"(CUDA error)", "CUDA error"),              # a group around everything is looked into …
    (r"((CUDA error))", "CUDA error"),            # … however deep
    (r"(ab)cdefgh", "cdefgh"),                    # a group that is not everything is not
    (r"(?i:CUDA error)", None),                   # case-insensitive: no case-sensitive text to look for
    (r"^CUDA error\b: out", "CUDA error: out"),  # ^ and \b match no text: the run goes on
])
def test_the_anchor_is_the_longest_literal_run_every_match_contains(pattern, expected):
    assert anchor(pattern) == expected


def test_a_signature_has_the_anchor_of_its_pattern():
    assert compile_signature("regex", r"\d+ CUDA error: no kernel image").anchor == " CUDA error: no kernel image"
    # blank runs match any blanks, so the anchor stops at one
    assert compile_signature("exact", "DataLoader worker (pid <pid>) exited unexpectedly").anchor == "unexpectedly"
    assert compile_signature("regex", "(?i)cuda error: out of memory").anchor is None


def test_leading_global_flags_are_scoped_so_that_patterns_can_be_combined():
    assert compile_signature("regex", "(?i)cuda out of memory").pattern == "(?i:cuda out of memory)"
    assert compile_signature("regex", "(?is)a.b cdefg").pattern == "(?is:a.b cdefg)"
    assert compile_signature("regex", "cuda (?i:out of) memory").pattern == "cuda (?i:out of) memory"  # already scoped


@pytest.mark.parametrize("kind, text, runs", [
    ("exact", "plain error message", ["plain error message"]),
    ("exact", 'File "<stdin>" not found', ['File "<stdin>" not found']),  # <stdin> is no placeholder
    # the text around the placeholders; an empty run where one begins or ends the signature
    ("exact", "CUDA out of memory. Tried to allocate <size>", ["CUDA out of memory. Tried to allocate ", ""]),
    ("exact", "<pid> killed <num> times", ["", " killed ", " times"]),
    # a regex's groups read through; repetitions, alternatives, classes and lookarounds vary
    ("regex", r"torch(?:\.cuda)?\.OutOfMemoryError: CUDA", ["torch", ".OutOfMemoryError: CUDA"]),
    ("regex", r"libcu(?:dart|blas)\.so[\d.]*: cannot open", ["libcu", ".so", ": cannot open"]),
    ("regex", r"(?i)Loss is (nan)", ["Loss is nan"]),
    ("regex", r"\d+ errors? found", ["", " error", " found"]),
    ("regex", r"(?<!x)Killed process", ["", "Killed process"]),
    # ^, $ and \b match no text, so nothing varies there
    ("regex", r"^Segmentation fault\b", ["Segmentation fault"]),
])
def test_a_signatures_literal_runs_are_the_text_every_line_it_matches_holds_in_order(kind, text, runs):
    assert compile_signature(kind, text).runs == tuple(runs)


def test_without_placeholders_exact_text_is_matched_literally():
    pattern = exact_pattern("kill <pid>  now", placeholders=False)
    assert re.fullmatch(pattern, "kill <pid>\tnow")
    assert not re.search(pattern, "kill 4821 now")


@pytest.mark.parametrize("kind, text, message", [
    ("regex", "(unclosed", "not a valid regular expression: missing ), unterminated subpattern at position 0"),
    ("regex", r"\d*", "matches the empty string, so it would match every line"),
    ("regex", r"ab\w+", "requires only 2 literal character(s); at least 5 are needed so that it does not match unrelated lines"),
    ("regex", r"\w+", "requires only 0 literal character(s); at least 5 are needed so that it does not match unrelated lines"),
    ("exact", "at <num>: <any>", "requires only 3 literal character(s); at least 5 are needed so that it does not match unrelated lines"),
    ("regex", r"(?P<x>Error) here", "has a named group (?P<…>); use (?:…): all signatures are searched as one pattern"),
])
def test_useless_or_broken_patterns_say_why(kind, text, message):
    with pytest.raises(ValueError) as refused:
        compile_signature(kind, text)
    assert str(refused.value) == message


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
