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
- no `last_verified` date;
- placeholder text left from `python -m pitfalls new`;
- for a new record, existing entries that are probably the same pitfall (pitfalls/similar.py).
  New means: not in git HEAD (a file you have not committed yet), or, with `--new-since REF`,
  added since REF (`git diff --diff-filter=A REF...HEAD`; the pull-request workflow passes
  the base branch). Outside a git checkout no record is new.

Each problem prints as `file:line:column: field: message`; under GitHub Actions
(GITHUB_ACTIONS=true) also as an `::error`/`::warning` annotation on that line.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from ..git import git
from ..pages.translations import coverage_report
from ..records.duplicates import existing_entries, fingerprint, matches
from ..records.load import Problem, YamlDocument, field_name
from ..records.model import LANGUAGES
from ..records.schema import file_label
from ..records.validate import ContentCheck, inspect_content
from ..settings import CONTENT_DIR
from ..text import HAN_CHARACTER
from .new import PLACEHOLDER

ERROR_WORDS = re.compile(
    r"error|exception|traceback|fail|fatal|denied|refused|not found|no such|cannot|can't|could not|unable"
    r"|invalid|timed? ?out|killed|abort|panic|errno|warning|segmentation|unsupported|mismatch|conflict"
    r"|missing|unknown|unrecognized|unexpected|does not exist|not available|\bno\b.*\bfound\b|forbidden|permission"
    r"|out of memory|oom|nan\b|exit (code|status)|\b[45]\d\d\b|^[\w.-]+: \S|错误|失败|异常|拒绝|无法|找不到|不支持",
    re.IGNORECASE,
)
"""Words and shapes an error message contains (or `program: message`): what tells a message from a description."""
_TEXT_FIELDS = ("title", "quick_fix", "cause", "verification")
_LANGUAGE_NAMES = {"zh": "Chinese (zh)", "en": "English (en)"}


def register(commands) -> None:
    parser = commands.add_parser(
        "check", help="校验所有条目（或指定文件）/ validate every record (or FILES); --translations: coverage",
        description="校验条目：模式、跨条目规则和写作建议 / validate records: schema, rules across records, and "
                    "advice (warnings). Prints file:line:column: field: message; exits 1 on errors.")
    parser.add_argument("files", nargs="*", type=Path, metavar="FILES",
                        help="report only these files; all records are still checked together and the exit "
                             "status counts errors anywhere (naming categories.yml or tags.yml reports everything)")
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.add_argument("--new-since", metavar="REF",
                        help="records added since this git ref count as new (similar-entry warnings)")
    parser.add_argument("--translations", action="store_true", help="also print translation coverage / 翻译覆盖率")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    checked = inspect_content(args.content)
    problems = checked.problems + advice(checked, new_records(checked, args.new_since))
    errors = sum(p.severity == "error" for p in problems)
    wanted = _reported_files(args.files, args.content)
    if wanted is not None:
        problems = [p for p in problems if p.file in wanted]
    problems.sort(key=lambda p: (p.file, p.line, p.column, p.severity, p.field))
    annotate = os.environ.get("GITHUB_ACTIONS") == "true"
    for problem in problems:
        print(f"{problem}" if problem.severity == "error" else f"{problem} (warning)")
        if annotate:
            print(annotation(problem))
    if args.translations:
        print(coverage_report(checked.records))
    shown_errors = sum(p.severity == "error" for p in problems)
    print(f"{shown_errors} error(s), {len(problems) - shown_errors} warning(s)", file=sys.stderr)
    if errors > shown_errors:  # a named file can break another (a removed id named in `related`)
        print(f"{errors - shown_errors} more error(s) in other files: run `check` without FILES", file=sys.stderr)
    return 1 if errors else 0


def _reported_files(files: list[Path], content: Path) -> set[str] | None:
    """Labels of the files whose problems are reported, or None for all."""
    if not files or any(f.name in ("categories.yml", "tags.yml") for f in files):
        return None
    return {file_label(f, content.parent) for f in files}


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
        existing = existing_entries(checked.documents, cutter)
        for label in sorted(new & checked.documents.keys()):
            doc = checked.documents[label]
            for match in matches(fingerprint(label, doc.data, cutter), existing):
                warnings.append(_warning(doc, ("title",), f"probably the same pitfall as {match.describe()}; "
                                                          "extend that entry, or say how this one differs"))
    return warnings


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
    return warnings


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


def new_records(checked: ContentCheck, since: str | None) -> set[str]:
    """Labels of the record files that are new: not in git HEAD, or added since `since`."""
    labels = {doc.path.resolve(): label for label, doc in checked.documents.items()}
    if not labels:
        return set()
    folder = next(iter(labels)).parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return set()
    top_dir = Path(top.strip())
    in_head = git(folder, "ls-tree", "-r", "--name-only", "--full-tree", "HEAD")
    known = {(top_dir / name).resolve() for name in (in_head or "").splitlines()}
    new = {path for path in labels if path not in known}
    if since:
        added = git(folder, "diff", "--name-only", "--diff-filter=A", f"{since}...HEAD")
        if added is None:
            raise SystemExit(f"check: cannot compare with git ref {since!r} (is it fetched?)")
        new |= {(top_dir / name).resolve() for name in added.splitlines()} & labels.keys()
    return {labels[path] for path in new}

