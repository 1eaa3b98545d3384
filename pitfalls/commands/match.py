"""`python -m pitfalls match [FILE|-]`: the entries whose error a log or traceback shows.

The log is read in chunks of about CHUNK_CHARS, so memory stays bounded whatever its size.
Each pattern (signature or verbatim symptom) has an anchor, the longest literal text every
match contains; a plain substring search (C speed, ~1 GB/s) for each distinct anchor finds
the few candidate lines, and only those are searched with the patterns themselves. A
pattern without an anchor (case-insensitive, or no literal run of 3 characters) is searched
over the chunk directly, which is slower: docs/SIGNATURES.md says how to write fast ones.
Patterns match within one line.

Exit code: 0 when something matched, 1 when nothing did, 2 on a usage or content error.
"""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..pages.export import entry_url
from ..pages.render import plain_text
from ..records.model import LANGUAGES, KnowledgeBase, Record
from ..records.signatures import MIN_LITERAL_CHARS, anchor, exact_pattern
from ..records.validate import load_knowledge_base
from ..settings import CONTENT_DIR, site_root, site_url_option

CHUNK_CHARS = 1 << 20
"""How much of the log is searched at once."""
MAX_LINE_CHARS = 1 << 16
"""Longer lines are read in pieces of this size (a signature split across two pieces is missed)."""
SHOWN_LINE_CHARS = 300
"""Matching lines are cut to this length in the output."""
DIRECT_SEARCH_AFTER = 100
"""An anchor found on more lines than this in one chunk is too common to pick lines by: its patterns are searched directly."""
STDIN = Path("-")
"""FILE meaning standard input."""
JSON_FORMAT_VERSION = 1
"""Version of the `--json` output (docs/SIGNATURES.md); bumped on incompatible changes."""


@dataclass(frozen=True)
class Probe:
    """One pattern looked for in the log, and the entry it points to."""

    record: Record
    """The entry whose error the pattern identifies."""
    kind: str
    """"exact" or "regex" for a signature, "symptom" for a verbatim symptom."""
    text: str
    """The pattern as written in the record."""
    regex: re.Pattern
    """The compiled pattern, searched in one line."""
    specificity: int
    """Literal characters every match contains."""
    anchor: str | None
    """Literal text every match contains, searched for first; None: search `regex` itself."""


@dataclass
class Hit:
    """Where one probe matched."""

    probe: Probe
    """What matched."""
    line_number: int
    """1-based number of the first matching line."""
    line: str
    """The first matching line, cut to SHOWN_LINE_CHARS."""
    count: int = 1
    """How many lines it matched."""


@dataclass
class EntryMatch:
    """An entry and everything of it that the log matched."""

    record: Record
    """The entry."""
    hits: list[Hit] = field(default_factory=list)
    """One per matching probe, in the order the log first showed them."""

    @property
    def rank_key(self) -> tuple:
        """Best first: more distinct patterns, then more specific ones, then the earliest line, then id."""
        specificity = sum(hit.probe.specificity for hit in self.hits)
        return (-len(self.hits), -specificity, min(hit.line_number for hit in self.hits), self.record.id)


def probes(base: KnowledgeBase) -> list[Probe]:
    """Every signature, and every verbatim symptom long enough to be telling, of every record."""
    found = []
    for record in base.records:
        for signature in record.signatures:
            found.append(Probe(record, signature.kind, signature.text, re.compile(signature.pattern),
                               signature.specificity, signature.anchor))
        for symptom in record.symptoms:
            text = symptom.text.get(LANGUAGES[0])
            literal = len("".join(text.split()))
            if symptom.verbatim and literal >= MIN_LITERAL_CHARS:
                pattern = exact_pattern(text, placeholders=False)
                found.append(Probe(record, "symptom", text, re.compile(pattern), literal, anchor(pattern)))
    return found


def scan(stream: TextIO, found: list[Probe]) -> tuple[list[EntryMatch], int]:
    """Search the log in `stream`; return the matched entries, best first, and the number of lines read."""
    by_anchor: dict[str, list[int]] = {}
    for index, probe in enumerate(found):
        if probe.anchor:
            by_anchor.setdefault(probe.anchor, []).append(index)
    unanchored = [index for index, probe in enumerate(found) if not probe.anchor]
    hits: dict[int, Hit] = {}
    lines_before = 0  # newlines in earlier chunks
    last = ""
    while chunk := stream.read(CHUNK_CHARS):
        if not chunk.endswith("\n"):
            chunk += stream.readline(MAX_LINE_CHARS)  # finish the line, so that no line is split
        candidates = _candidate_lines(chunk, found, by_anchor, unanchored)
        counted_to, line_number = 0, lines_before + 1
        for start in sorted(candidates):
            line_number += chunk.count("\n", counted_to, start)
            counted_to = start
            line = chunk[start:_line_end(chunk, start)].rstrip("\n")
            for index in sorted(candidates[start]):
                if found[index].regex.search(line):
                    if index in hits:
                        hits[index].count += 1
                    else:
                        hits[index] = Hit(found[index], line_number, line[:SHOWN_LINE_CHARS])
        lines_before += chunk.count("\n")
        last = chunk
    by_record: dict[str, EntryMatch] = {}
    for hit in sorted(hits.values(), key=lambda h: (h.line_number, h.probe.record.id)):
        by_record.setdefault(hit.probe.record.id, EntryMatch(hit.probe.record)).hits.append(hit)
    lines = lines_before + (bool(last) and not last.endswith("\n"))  # a last line without a newline
    return sorted(by_record.values(), key=lambda m: m.rank_key), lines


def _candidate_lines(chunk: str, found: list[Probe], by_anchor: dict[str, list[int]], unanchored: list[int]) -> dict[int, set[int]]:
    """Line start → the probes to try on that line, for the lines of `chunk` that may match."""
    candidates: dict[int, set[int]] = {}
    direct = list(unanchored)
    for text, indices in by_anchor.items():
        position, seen = chunk.find(text), 0
        while position >= 0:
            seen += 1
            if seen > DIRECT_SEARCH_AFTER:  # a common anchor ("loss"): the pattern itself finds fewer lines
                direct += indices
                break
            candidates.setdefault(chunk.rfind("\n", 0, position) + 1, set()).update(indices)
            position = chunk.find(text, _line_end(chunk, position))
    for index in direct:
        position = 0
        while match := found[index].regex.search(chunk, position):
            candidates.setdefault(chunk.rfind("\n", 0, match.start()) + 1, set()).add(index)
            position = _line_end(chunk, match.start())
    return candidates


def _line_end(chunk: str, position: int) -> int:
    """Where the line holding `position` ends, past its newline."""
    end = chunk.find("\n", position)
    return len(chunk) if end < 0 else end + 1


def report(matches: list[EntryMatch], lines: int, lang: str, root: str) -> dict:
    """The result as plain data: what `--json` prints (docs/SIGNATURES.md)."""
    return {
        "format_version": JSON_FORMAT_VERSION,
        "lang": lang,
        "lines_read": lines,
        "matches": [
            {
                "id": m.record.id,
                "title": plain_text(m.record.title.get(lang)),
                "url": entry_url(root, lang, m.record.id),
                "quick_fix": plain_text(m.record.quick_fix.get(lang)),
                "hits": [
                    {"kind": h.probe.kind, "pattern": h.probe.text, "line_number": h.line_number,
                     "line": h.line, "count": h.count}
                    for h in m.hits
                ],
            }
            for m in matches
        ],
    }


def format_text(result: dict) -> str:
    """The result for a terminal."""
    zh = result["lang"] == "zh"
    out = []
    for rank, entry in enumerate(result["matches"], 1):
        out.append(f"{rank}. {entry['title']}  [{entry['id']}]")
        out.append(f"   {entry['url']}")
        out.append(f"   {'快速修复' if zh else 'Quick fix'}: {entry['quick_fix']}")
        shown_line = None
        for hit in entry["hits"]:
            if hit["line_number"] != shown_line:  # several patterns often match one line: show it once
                shown_line = hit["line_number"]
                out.append(f"   {'第 ' if zh else 'line '}{shown_line}{' 行' if zh else ''}: {hit['line'].strip()}")
            more = f" ({hit['count']} {'行' if zh else 'lines'})" if hit["count"] > 1 else ""
            out.append(f"      ← {hit['kind']}: {hit['pattern']}{more}")
    if not out:
        out.append(f"没有匹配的条目（读取 {result['lines_read']} 行）" if zh
                   else f"no entry matches ({result['lines_read']} lines read)")
    return "\n".join(out)


def register(commands) -> None:
    match = commands.add_parser("match", help="从日志或报错找条目 / the entries whose error a log or traceback shows")
    match.add_argument("file", nargs="?", type=Path, default=STDIN, metavar="FILE",
                       help="log or traceback to read; - (the default) reads stdin")
    match.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                       help="language of titles and URLs (default: %(default)s, the site's default)")
    match.add_argument("--json", action="store_true", help="print the result as JSON")
    match.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    match.add_argument("--site-url", type=site_url_option, default=site_root(), help="public root URL of the printed links (default: %(default)s)")
    match.set_defaults(run=_match)


def _match(args) -> int:
    if args.file == STDIN:
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    else:  # before the content, the cheaper check; an OSError about FILE is one line (commands/cli.py)
        stream = open(args.file, encoding="utf-8", errors="replace")
    with stream:
        base = load_knowledge_base(args.content)
        matches, lines = scan(stream, probes(base))
    result = report(matches, lines, args.lang, args.site_url)
    try:
        print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else format_text(result))
    except BrokenPipeError:  # `match log | head`: the reader has what it wanted
        sys.stdout = None
    return 0 if matches else 1
