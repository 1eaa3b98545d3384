"""Error signatures: the patterns that identify a pitfall's error in a log line.

A signature is either exact text with placeholders for the parts that vary (`<pid>`, `<path>`,
…, see PLACEHOLDERS and docs/SIGNATURES.md) or a Python regular expression. Both become one
regular expression searched in each log line. `compile_signature` refuses patterns that would
match everything or could backtrack catastrophically: a log is untrusted, arbitrarily long
input, and one bad pattern would make `python -m pitfalls match` hang on it.

The backtracking check is static, on the parse tree Python's own `re` builds (so it judges
exactly what the matcher runs). It rejects the three shapes behind super-linear backtracking
(the classification of regexploit and the star-height rule of safe-regex):
nested repetition `(a+)+`, repetition of alternatives that can match alike `(ab|\\wb)*`, and
adjacent repetitions that can match the same characters `\\d+\\d*`. It is conservative: a
safe pattern of one of these shapes is refused too, with a hint on how to rewrite it.
"""

from __future__ import annotations

import re
import string
from re import _constants as sre  # the parse tree `re.compile` itself uses
from re import _parser as sre_parse

from .model import Signature

PLACEHOLDERS = {
    "pid": r"\d+",
    "num": r"[-+]?\d+(?:\.\d+)?",
    "hex": r"(?:0[xX])?[0-9a-fA-F]+",
    "size": r"\d+(?:\.\d+)? ?[KMGTP]?i?B",
    "path": r"[^\s\"']+",
    "name": r"[\w.\-]+",
    "host": r"[\w.\-:\[\]]+",
    "any": r".*?",
}
"""Placeholder → the regular expression it stands for in `exact` signatures (docs/SIGNATURES.md)."""

MIN_LITERAL_CHARS = 5
"""A signature must require at least this many literal characters, or it matches unrelated lines."""

_PLACEHOLDER = re.compile(r"<(" + "|".join(PLACEHOLDERS) + r")>")
_BLANKS = re.compile(r"[ \t]+")
# a sample of every kind of character a class can hold: enough to tell whether two classes overlap
_ALPHABET = frozenset(string.printable + "é中\u00a0")
_CATEGORIES = {
    sre.CATEGORY_DIGIT: str.isdigit, sre.CATEGORY_NOT_DIGIT: lambda c: not c.isdigit(),
    sre.CATEGORY_SPACE: str.isspace, sre.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
    sre.CATEGORY_WORD: lambda c: c.isalnum() or c == "_", sre.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
}
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def message_text(signature: Signature) -> str | None:
    """The words of an `exact` signature, its placeholders left out, as search indexes them beside the
    symptoms (an entry's signatures are error messages a reader pastes); None for a `regex`."""
    return " ".join(signature.runs) if signature.kind == "exact" else None


def _runs(items: list) -> list[str]:
    """The literal characters of a sequence of nodes, in runs split wherever another node stands (empty runs only at
    the ends); ^, $ and \\b match no text, so they split nothing."""
    runs = [""]
    for op, av in items:
        if op == sre.LITERAL:
            runs[-1] += chr(av)
        elif op != sre.AT and (runs[-1] or len(runs) == 1):
            runs.append("")
    return runs


def _sequence(items: list) -> list:
    """The nodes of a sequence with its groups opened: (?:a)(b) reads as ab."""
    return [node for op, av in items
            for node in (_sequence(list(av[3])) if op == sre.SUBPATTERN else [(op, av)])]


def exact_pattern(text: str, placeholders: bool = True) -> str:
    """The regular expression for exact text: literal, any run of blanks matching any run of blanks,
    and (when `placeholders`) each placeholder replaced by its expression. Blank runs are
    possessive (`++`): they never give blanks back to a neighbouring `<any>`, which keeps
    `a <any> b` linear."""
    parts = _PLACEHOLDER.split(text) if placeholders else [text]
    pattern = []
    for index, part in enumerate(parts):
        if index % 2:  # split() puts the captured placeholder names at odd positions
            pattern.append(PLACEHOLDERS[part])
        else:
            pattern.append(r"[ \t]++".join(re.escape(chunk) for chunk in _BLANKS.split(part)))
    return "".join(pattern)


def compile_signature(kind: str, text: str) -> Signature:
    """The signature for one `{exact: …}` or `{regex: …}` item; ValueError says what is wrong with it."""
    pattern = exact_pattern(text) if kind == "exact" else _scoped_flags(text)
    try:
        tree = sre_parse.parse(pattern)
        compiled = re.compile(pattern)
    except re.error as err:
        raise ValueError(f"not a valid regular expression: {err}") from None
    if tree.state.groupdict:
        raise ValueError("has a named group (?P<…>); use (?:…): all signatures are searched as one pattern")
    risk = backtracking_risk(tree)
    if risk:
        raise ValueError(f"could backtrack catastrophically on a long line: {risk}")
    if compiled.search(""):
        raise ValueError("matches the empty string, so it would match every line")
    literals = _required_literals(tree)
    if literals < MIN_LITERAL_CHARS:
        raise ValueError(f"requires only {literals} literal character(s); at least {MIN_LITERAL_CHARS} "
                         "are needed so that it does not match unrelated lines")
    # split() puts the placeholders' names at odd positions; a regex's groups are read through
    runs = _PLACEHOLDER.split(text)[::2] if kind == "exact" else _runs(_sequence(list(tree)))
    return Signature(kind=kind, text=text, pattern=pattern, specificity=literals, anchor=_tree_anchor(tree), runs=tuple(runs))


def anchor(pattern: str) -> str | None:
    """The longest run of literal characters that every match of `pattern` contains, matched
    case-sensitively: a plain substring search for it finds every line the pattern can match.
    None when the run is shorter than 3 characters (the pattern must then be searched itself)."""
    return _tree_anchor(sre_parse.parse(pattern))


def _tree_anchor(tree: sre_parse.SubPattern) -> str | None:
    items = list(tree)
    while len(items) == 1 and items[0][0] == sre.SUBPATTERN and not items[0][1][1] & re.IGNORECASE:
        items = list(items[0][1][3])
    best = max(_runs(items), key=len)
    return best if len(best) >= 3 else None


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


def _scoped_flags(pattern: str) -> str:
    """`(?i)rest` → `(?i:rest)`: same meaning, and it can stand inside the one combined pattern."""
    flags = _GLOBAL_FLAGS.match(pattern)
    return f"(?{flags.group(1)}:{pattern[flags.end():]})" if flags else pattern


def backtracking_risk(tree: sre_parse.SubPattern) -> str | None:
    """Why the parsed pattern could take super-linear time on some line, or None when it cannot."""
    try:
        _walk(list(tree), repeated=False, unbounded=False)
    except _Risk as risk:
        return str(risk)
    return None


class _Risk(Exception):
    """A shape of pattern that can backtrack catastrophically."""


def _walk(items: list, repeated: bool, unbounded: bool) -> None:
    """Check one sequence; `repeated`/`unbounded` say whether an enclosing repeat can match more than once / without bound."""
    loose_first: frozenset | None = None  # what an unbounded repeat just before can still take
    for op, av in items:
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, high, body = av
            is_unbounded = high == sre.MAXREPEAT
            first, nullable = _first(list(body))
            if high > 1 and (unbounded or (repeated and is_unbounded)):
                raise _Risk("a repetition inside a repetition, like (a+)+; repeat one level only")
            if is_unbounded and nullable:
                raise _Risk("a repetition of something that can match nothing, like (a?)*")
            if is_unbounded:
                if loose_first is not None and loose_first & first:
                    raise _Risk("two repetitions in a row that can match the same characters, like \\d+\\d*; merge them")
            _walk(list(body), repeated or high > 1, unbounded or is_unbounded)
            if is_unbounded:
                loose_first = first
            elif low > 0:
                loose_first = None
            continue
        if op == sre.BRANCH and unbounded:
            _check_alternatives(av[1])
        for sub in _children(op, av):
            _walk(sub, repeated, unbounded)
        if not _first([(op, av)])[1]:
            loose_first = None


def _check_alternatives(alternatives: list) -> None:
    """Inside an unbounded repeat, alternatives that can match the same text make every
    repetition a fork: (ab|\\wb)* tries 2**n ways on a line it does not match. Two
    alternatives that can start with the same character, or both match nothing, count."""
    seen: frozenset = frozenset()
    nullable_seen = False
    for alternative in alternatives:
        first, nullable = _first(list(alternative))
        if seen & first or (nullable and nullable_seen):
            raise _Risk("a repetition of alternatives that can match the same text, like (ab|\\wb)* or (a|a)*; "
                        "make the alternatives start differently")
        seen |= first
        nullable_seen |= nullable


def _children(op, av) -> list[list]:
    """The sub-sequences of one node."""
    if op == sre.SUBPATTERN:
        return [list(av[3])]
    if op == sre.BRANCH:
        return [list(alternative) for alternative in av[1]]
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [list(av[1])]
    if op == sre.ATOMIC_GROUP:
        return [list(av)]
    if op == sre.POSSESSIVE_REPEAT:
        return [list(av[2])]
    if op == sre.GROUPREF_EXISTS:
        return [list(branch) for branch in av[1:] if branch is not None]
    return []


def _first(items: list) -> tuple[frozenset, bool]:
    """The characters a sequence can start with (from a sample alphabet), and whether it can match nothing."""
    first: frozenset = frozenset()
    for op, av in items:
        chars, nullable = _first_of(op, av)
        first |= chars
        if not nullable:
            return first, False
    return first, True


def _first_of(op, av) -> tuple[frozenset, bool]:
    if op == sre.LITERAL:
        return frozenset({chr(av)}), False
    if op == sre.NOT_LITERAL:
        return _ALPHABET - {chr(av)}, False
    if op == sre.ANY:
        return _ALPHABET - {"\n"}, False
    if op == sre.IN:
        literals = {chr(v) for kind, v in av if kind == sre.LITERAL}
        return frozenset(c for c in _ALPHABET | literals if _in_class(av, c)), False
    if op in _REPEATS:
        chars, nullable = _first(list(av[2]))
        return chars, nullable or av[0] == 0
    if op == sre.GROUPREF:
        raise _Risk("a back-reference (\\1): matching it can take exponential time")
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return frozenset(), True
    chars, nullable = frozenset(), False
    alternatives = _children(op, av)
    for index, sub in enumerate(alternatives):
        sub_chars, sub_nullable = _first(sub)
        chars |= sub_chars
        nullable = sub_nullable if index == 0 else nullable or sub_nullable
    if op == sre.GROUPREF_EXISTS and len(alternatives) == 1:
        nullable = True  # no "else" branch: the group may match nothing
    return chars, nullable


def _in_class(items: list, char: str) -> bool:
    """Whether a character class `[…]` accepts `char`."""
    negate = False
    found = False
    for kind, value in items:
        if kind == sre.NEGATE:
            negate = True
        elif kind == sre.LITERAL:
            found |= char == chr(value)
        elif kind == sre.RANGE:
            found |= value[0] <= ord(char) <= value[1]
        elif kind == sre.CATEGORY:
            test = _CATEGORIES.get(value)
            found |= test(char) if test else False
    return found != negate


def _required_literals(tree) -> int:
    """How many literal characters every match must contain."""
    total = 0
    for op, av in tree:
        if op == sre.LITERAL:
            total += 1
        elif op in _REPEATS:
            total += av[0] * _required_literals(av[2]) if av[0] else 0
        elif op == sre.SUBPATTERN:
            total += _required_literals(av[3])
        elif op == sre.ATOMIC_GROUP:
            total += _required_literals(av)
        elif op == sre.BRANCH:
            total += min(_required_literals(alternative) for alternative in av[1])
    return total
