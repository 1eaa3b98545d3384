"""bench/mutation_options.py: every number of options.js's code is found with the option it belongs to (not the
numbers of its comments), and moved one step either way."""

from __future__ import annotations

from bench.mutation_options import numbers, steps

TEXT = """  const defaultSearchOptions = Object.freeze({
    readings: Object.freeze({
      typo2: Object.freeze({ weight: 0.3, penalty: 2 }),    // ... by two, 3 in a comment
    }),
    titleWeight: 2,               // × (1 + this × 0.5)
    typoMinChars: Object.freeze([0, 5, 9]),   // the shortest word corrected at that edit distance
  });
"""


def test_each_number_of_the_code_with_its_option():
    found = numbers(TEXT)
    assert [(label, value) for _, _, label, value in found] == [
        ("typo2 weight", "0.3"), ("typo2 penalty", "2"), ("titleWeight", "2"),
        ("typoMinChars[0]", "0"), ("typoMinChars[1]", "5"), ("typoMinChars[2]", "9")]
    assert all(TEXT[start:end] == value for start, end, _, value in found)


def test_a_step_either_way():
    assert steps("2") == ["3", "1"]
    assert steps("0") == ["1"]
    assert steps("0.25") == ["0.375", "0.125"]
    assert steps("0.3") == ["0.45", "0.15"]
