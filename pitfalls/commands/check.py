"""`python -m pitfalls check [FILES…]`: every rule of the build, plus advice for contributors.

Errors are what the build refuses (schema, unknown tag or category, a URL claimed twice,
`related` naming no entry, …: pitfalls/validate.py). Warnings do not fail; they flag what
makes an entry less useful:

- a text written in only one language (one warning per record and missing language);
- steps without any command: no step has a `code` block or inline `code` in its text (a single
  prose step is often right, so this is per record, not per step);
- a plain-string symptom that does not look like an error message. A plain string is shown
  as a verbatim error message on both language sites, so it should be one: it is flagged
  when it contains Chinese characters (tool messages are English; a description in Chinese
  belongs in {zh, en}) or names no error (none of ERROR_WORDS);
- no `last_verified` date: in full for the records someone is working on (named as FILES, or
  changed: differing from git HEAD, or changed since `--new-since REF`), one summary line for the
  others unless `--verbose`;
- placeholder text left from `python -m pitfalls new`, and reference URLs on a domain reserved
  for examples (RFC 2606), such as the scaffold's `https://example.com/`;
- for a new record, existing entries that are probably the same pitfall (records/duplicates.py).
  New means: not in git HEAD (a file you have not committed yet), or, with `--new-since REF`,
  added since REF (`git diff --diff-filter=A REF...HEAD`; the pull-request workflow passes
  the base branch). Outside a git checkout no record is new.

Each problem prints as `file:line:column: field: message`, the registries' first; under GitHub
Actions (GITHUB_ACTIONS=true) also as an `::error`/`::warning` annotation on that line. Checks
that a registry's errors kept from running are left out, with one note line per registry.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import PitfallsError, existing_file
from ..git import git
from ..pages.translations import coverage_report
from ..records.duplicates import existing_entries, fingerprint, matches
from ..records.load import Problem, YamlDocument, field_name, read_yaml
from ..records.model import LANGUAGES
from ..records.schema import file_label
from ..records.validate import ContentCheck, inspect_content
from ..settings import CONTENT_DIR
from ..text import HAN_CHARACTER
from .new import PLACEHOLDER, PLACEHOLDER_URL

ERROR_WORDS = re.compile(
    r"error|exception|traceback|fail|fatal|denied|refused|not found|no such|cannot|can't|could not|unable"
    r"|invalid|timed? ?out|killed|abort|panic|errno|warning|segmentation|unsupported|mismatch|conflict"
    r"|missing|unknown|unrecognized|unexpected|does not exist|not available|\bno\b.*\bfound\b|forbidden|permission"
    r"|out of memory|oom|nan\b|exit (code|status)|\b[45]\d\d\b|^[\w.-]+: \S|错误|失败|异常|拒绝|无法|找不到|不支持",
    re.IGNORECASE,
)
"""Words and shapes an error message contains (or `program: message`): what tells a message from a description."""
EXAMPLE_DOMAINS = ("example.com", "example.net", "example.org", "example", "invalid", "test")
"""Domains reserved for examples and tests (RFC 2606): a link to one is never a real page."""
_TEXT_FIELDS = ("title", "quick_fix", "cause", "verification")
_LANGUAGE_NAMES = {"zh": "Chinese (zh)", "en": "English (en)"}


def register(commands) -> None:
    parser = commands.add_parser(
        "check", help="校验所有条目（或指定文件）/ validate every record (or FILES); --translations: coverage",
        description="校验条目：模式、跨条目规则和写作建议 / validate records: schema, rules across records, and "
                    "advice (warnings). Prints file:line:column: field: message; exits 1 on errors.")
    parser.add_argument("files", nargs="*", type=Path, metavar="FILES",
                        help="report only these files and the registries they depend on (categories.yml, tags.yml); "
                             "all records are still checked together and the exit status counts errors anywhere")
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.add_argument("--new-since", metavar="REF",
                        help="records added since this git ref count as new (similar-entry warnings), and those "
                             "changed since it as being worked on (every warning in full)")
    parser.add_argument("--translations", action="store_true", help="also print translation coverage / 翻译覆盖率")
    parser.add_argument("--verbose", action="store_true",
                        help="list every warning; without it, records nobody changed get one summary line for a "
                             "missing last_verified")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    for file in args.files:  # a name that reports nothing would read as "no errors"
        existing_file(file, "FILES", "name record or registry files")
        if not file.resolve().is_relative_to(args.content.resolve()):
            raise PitfallsError(f"FILES {file}: is not in the content folder {args.content}; check reads the records "
                                "of --content: give it the folder this file is in")
    checked = inspect_content(args.content)
    named = {file_label(f, args.content.parent) for f in args.files}
    added, changed = record_changes(checked, args.new_since)
    problems = checked.problems + advice(checked, added)
    errors = [p for p in problems if p.severity == "error"]
    wanted = _reported_files(named, checked)
    if wanted is not None:
        problems = [p for p in problems if p.file in wanted]
    # a missing date is worth a line per record only where someone is working
    unverified = set() if args.verbose else {p for p in problems if _is_unverified(p) and p.file not in named | changed}
    problems = sorted((p for p in problems if p not in unverified), key=checked.report_order)
    notes = [note for registry, note in checked.notes().items() if wanted is None or registry in wanted]
    registries = checked.registry_files
    annotate = os.environ.get("GITHUB_ACTIONS") == "true"
    for problem in [p for p in problems if p.file in registries]:
        _print_problem(problem, annotate)
    for note in notes:  # what the registries' errors kept from being checked, right after them
        print(note)
    for problem in [p for p in problems if p.file not in registries]:
        _print_problem(problem, annotate)
    if args.translations:
        print(coverage_report(checked.records))
    shown_errors = sum(p.severity == "error" for p in problems)
    print(f"{shown_errors} error(s), {len(problems) - shown_errors} warning(s)", file=sys.stderr)
    if unverified:
        print(f"{len(unverified)} unchanged record(s) have no last_verified date (--verbose lists them)", file=sys.stderr)
    hidden = sorted({p.file for p in errors} - {p.file for p in problems})
    if hidden:  # a named file can break another (a removed id named in `related`)
        shown = ", ".join(hidden[:3]) + (", …" if len(hidden) > 3 else "")
        print(f"{len(errors) - shown_errors} more error(s) in {len(hidden)} other file(s) ({shown}): "
              "run `check` without FILES", file=sys.stderr)
    return 1 if errors else 0


def _reported_files(named: set[str], checked: ContentCheck) -> set[str] | None:
    """Labels of the files whose problems are reported: the named ones and the registries a named
    record depends on; None (all) when none are named."""
    if not named:
        return None
    records_named = named - set(checked.registry_files)
    return named | ({checked.categories.file, checked.tags.file} if records_named else set())


def _is_unverified(problem: Problem) -> bool:
    return problem.field == "last_verified" and problem.severity == "warning"


def _print_problem(problem: Problem, annotate: bool) -> None:
    print(f"{problem}" if problem.severity == "error" else f"{problem} (warning)")
    if annotate:
        print(annotation(problem))


def annotation(problem: Problem) -> str:
    """The GitHub Actions workflow command that shows `problem` on its line of the pull request."""
    def prop(value: str) -> str:
        return _escape(value).replace(":", "%3A").replace(",", "%2C")

    return (f"::{problem.severity} file={prop(problem.file)},line={problem.line},col={problem.column},"
            f"title={prop(problem.field or 'file')}::{_escape(problem.message)}")


def _escape(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


# --- warnings ---


def advice(checked: ContentCheck, new: set[str]) -> list[Problem]:
    """Warnings for every schema-valid record; similar-entry warnings for the `new` ones (file labels)."""
    warnings = []
    for doc in checked.documents.values():
        warnings += record_advice(doc)
    if new:
        cutter = checked.segmenter()
        existing = existing_entries(checked, cutter)
        for label in sorted(new & checked.documents.keys()):
            warnings += _duplicate_warnings(checked.documents[label], existing, cutter)
    return warnings


def _duplicate_warnings(doc: YamlDocument, existing: list, cutter) -> list[Problem]:
    return [_warning(doc, ("title",), f"probably the same pitfall as {match.describe()}; extend that entry, or say how "
                                      "this one differs") for match in matches(fingerprint(doc.label, doc.data, cutter), existing)]


def draft_report(checked: ContentCheck, path: Path, text: str) -> list[Problem]:
    """What `check` would report on a new record file at `path` holding `text`, without writing it: its errors
    (`ContentCheck.draft_problems`: every rule of the build), or, when it has none, its warnings, probable
    duplicates of existing entries included."""
    errors = checked.draft_problems(path, text)
    if errors:
        return errors
    doc, _ = read_yaml(path, file_label(path, checked.content_dir.parent), text.encode("utf-8"))
    cutter = checked.segmenter()
    others = [entry for entry in existing_entries(checked, cutter) if entry.fingerprint.source != doc.label]
    return record_advice(doc) + _duplicate_warnings(doc, others, cutter)


def _warning(doc: YamlDocument, path: tuple, message: str) -> Problem:
    return Problem(doc.label, field_name(path), message, *doc.position(path), severity="warning")


def record_advice(doc: YamlDocument) -> list[Problem]:
    """The warnings of one schema-valid record document."""
    data, warnings = doc.data, []
    texts = [((name,), data[name]) for name in _TEXT_FIELDS if name in data]
    texts += [(("symptoms", i), s) for i, s in enumerate(data["symptoms"]) if isinstance(s, dict)]
    texts += [(("steps", i), s) for i, s in enumerate(data["steps"])]
    texts.sort(key=lambda item: doc.position(item[0]))
    for lang in LANGUAGES:
        missing = [path for path, text in texts if lang not in text]
        if missing:
            fields = ", ".join(field_name(path) for path in missing)
            warnings.append(_warning(doc, missing[0], f"not translated into {_LANGUAGE_NAMES[lang]}: {fields}; "
                                                      f"the {lang} page shows the other language under a notice"))
    if not any("code" in step or any("`" in step.get(lang, "") for lang in LANGUAGES) for step in data["steps"]):
        warnings.append(_warning(doc, ("steps",), "no step gives a command: add `code` (or inline `code`) to the "
                                                  "step where the reader runs something"))
    for index, symptom in enumerate(data["symptoms"]):
        if isinstance(symptom, str) and (HAN_CHARACTER.search(symptom) or not ERROR_WORDS.search(symptom)):
            warnings.append(_warning(doc, ("symptoms", index), "a plain-string symptom is shown as a verbatim error "
                                     "message, but this does not look like one; paste the exact message, or describe "
                                     "the behaviour as {zh: …, en: …}"))
    if "last_verified" not in data:
        warnings.append(_warning(doc, ("last_verified",), "not set: add the date (YYYY-MM-DD) someone last confirmed the fix"))
    for path, value in _strings(data, ()):
        if PLACEHOLDER in value:
            warnings.append(_warning(doc, path, f"placeholder {PLACEHOLDER!r} left from `new`: write the real text"))
    for index, reference in enumerate(data.get("references", [])):
        if _is_example_url(reference["url"]):
            left = " left from `new`" if reference["url"] == PLACEHOLDER_URL else ""
            warnings.append(_warning(doc, ("references", index, "url"), f"placeholder URL {reference['url']!r}{left}: "
                                     "link the page you mean, or delete the reference"))
    return warnings


def _is_example_url(url: str) -> bool:
    host = (urlsplit(url).hostname or "").rstrip(".")
    return any(host == domain or host.endswith("." + domain) for domain in EXAMPLE_DOMAINS)


def _strings(value: object, path: tuple):
    """(path, text) of every string in plain data."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, path + (index,))


def record_changes(checked: ContentCheck, since: str | None) -> tuple[set[str], set[str]]:
    """Labels of the record files that are new (not in git HEAD, or added since `since`) and of those
    that are new or changed (differ from HEAD, or changed since `since`). Outside git, none."""
    labels = {doc.path.resolve(): label for label, doc in checked.documents.items()}
    if not labels:
        return set(), set()
    folder = next(iter(labels)).parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return set(), set()
    top_dir = Path(top.strip())

    def paths(names: str | None) -> set[Path]:  # git names files from the top of the checkout
        return {(top_dir / name).resolve() for name in (names or "").splitlines()}

    added = labels.keys() - paths(git(folder, "ls-tree", "-r", "--name-only", "--full-tree", "HEAD"))
    changed = added | paths(git(folder, "diff", "--name-only", "HEAD"))
    if since:
        since_added = git(folder, "diff", "--name-only", "--diff-filter=A", f"{since}...HEAD")
        since_changed = git(folder, "diff", "--name-only", f"{since}...HEAD")
        if since_added is None or since_changed is None:
            raise PitfallsError(f"--new-since {since}: git cannot compare with this ref; fetch it, or name another")
        added |= paths(since_added)
        changed |= paths(since_changed)
    return {labels[p] for p in added & labels.keys()}, {labels[p] for p in changed & labels.keys()}
