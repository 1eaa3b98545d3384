"""`pitfalls from-issue FILE|-`: a "propose a pitfall" issue → content/entries/<id>.yml.

GitHub writes the answers of an issue form into the issue's body as `### <label>` headings, each followed by
its answer: "_No response_" when it was left empty, the text inside a code fence for a field with `render:`,
`- [X] …` for checkboxes. The labels are read from the form itself (settings.PROPOSAL_FORM), so the two cannot
drift; a `###` line that is no label of the form is part of an answer.

The body is untrusted. Answers become text values of the record only: the file is written by `new`'s writer
(`record_yaml`, which reads its output back and must get the same data), ids are slugified or refused, tags and
related entries are matched against what exists (unknown ones are listed, never invented), control characters
are removed, and the result goes through every rule of `check` before anything is written.

How answers become fields:

- title, quick fix, cause, each step's and the verification's text: one language, told by its characters
  (Chinese characters → zh, else en), or both: "中文 / English" on one line, or a line `---` between the two
  languages over several lines. A record shows the other language's text under a notice where one is missing.
- id: the form's optional id (slugified), else made from the title: the English title, else the ASCII words of
  the Chinese one when there are two or more, else its pinyin; `-2`, `-3` … when it is taken. `--id` is the
  maintainer's choice and is refused when taken.
- symptoms: one per line; a line that looks like an error message (the same test as `check`'s warning) is kept
  verbatim, anything else is a behaviour; a Python traceback keeps its last line.
- steps: a numbered or bulleted line starts a step, other lines continue it; fenced code blocks and lines
  starting with `$ ` become the step's `code`.
- environment: `key: value` lines of the record's environment keys; references: one per line, `[title](url)`
  or a title and an http(s) URL; related: ids or links of existing entries; signatures: one `exact` pattern a
  line (one that `check` would refuse is left out with its reason); last verified: a date (2026-11-30,
  2026/11/30, 2026年11月30日); keywords: split at commas and line ends, Chinese ones zh, the others en, those the
  proposal's text already says left out.

Exit status: 0 written, 1 the proposal cannot become a valid record (nothing written unless `--draft`), 2 bad
input (unreadable file, not this form's body, an --id that is not a slug or is taken).
"""

from __future__ import annotations

import datetime
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from ..errors import writable_output
from ..records.load import FORBIDDEN_CHARACTERS, Problem
from ..records.registries import Registry
from ..records.schema import SLUG, file_label
from ..records.signatures import compile_signature
from ..records.validate import RESERVED_IDS, ContentCheck, inspect_content, said_text
from ..settings import CONTENT_DIR, PROPOSAL_FORM
from ..text import HAN_CHARACTER, pinyin_reading
from .check import ERROR_WORDS, draft_report
from .new import PLACEHOLDER, record_yaml, shown_path

NO_RESPONSE = "_No response_"
"""What GitHub writes for a field left empty."""
MAX_BODY_CHARS = 256 * 1024
"""Longer bodies are refused (GitHub's limit is 65,536 characters)."""
ID_LENGTH = 60
"""Made-up ids are cut to this many characters, at a hyphen."""
REQUIRED = ("title", "category", "tags", "symptoms", "quick_fix", "steps")
"""Answers a record cannot do without (the record schema's required fields, id aside)."""
ENVIRONMENT_KEYS = ("os", "gpu", "driver", "cuda", "python", "frameworks")
MAX_LISTED = 30
"""References read from an answer at most (the record's limit; one more makes the check say so)."""
RUN = {"zh": "运行：", "en": "Run:"}
"""The text of a step that gives a command and nothing else."""

_HEADING = re.compile(r"^###[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"^[ \t]*(?:\d{1,3}[.)、]|[-*+•])(?:[ \t]+(.*))?$")
_LANGUAGE_SEPARATOR = re.compile(r"[ \t]+/[ \t]+|[ \t]*／[ \t]*")
_KEYWORD_SEPARATOR = re.compile(r"[,，、;；\n]")
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^\s()<>]+)\)")
_DATE = re.compile(r"^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$")
_TRACEBACK = "Traceback (most recent call last)"


class ProposalError(Exception):
    """An input that is not a proposal at all (exit status 2)."""


@dataclass
class Conversion:
    """A proposal turned into a record's data, with what the maintainer must know."""

    data: dict
    """The record, fields as the schema names them."""
    errors: list[str] = field(default_factory=list)
    """Why the answers cannot become a valid record, "label: message" each."""
    notes: list[str] = field(default_factory=list)
    """What was left out or changed on the way, "label: message" each."""
    stand_ins: set[str] = field(default_factory=set)
    """Required fields the answers do not give (an error each): `data` holds a PLACEHOLDER there, so that the
    checks can judge everything else."""


def register(commands) -> None:
    parser = commands.add_parser(
        "from-issue", help="把“提议一个坑”的 issue 变成条目 / turn a 'propose a pitfall' issue into content/entries/<id>.yml",
        description="读取 GitHub 为“提议一个坑”表单写的 issue 正文，写出 content/entries/<id>.yml，并做与 check 相同的校验 / "
                    "read the body GitHub writes for the 'propose a pitfall' issue form, write content/entries/<id>.yml "
                    "and run the checks of `check` on it. Exit 1 (writing nothing unless --draft) when it cannot "
                    "become a valid record, 2 on bad input.")
    parser.add_argument("file", metavar="FILE", help="the issue's body (Markdown), or - for stdin")
    parser.add_argument("--id", help="the entry's id, instead of the one made from the form (refused when taken)")
    parser.add_argument("--draft", action="store_true",
                        help="write the record even when it has errors, for a maintainer to finish")
    parser.add_argument("--issue", type=issue_number, metavar="N", help="the issue's number, for the pull request's text")
    parser.add_argument("--message", type=Path, metavar="FILE",
                        help="also write Markdown for the pull request (when the record was written) or for a "
                             "comment on the issue (when it was not) to FILE")
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.set_defaults(run=_run)


def issue_number(text: str) -> int:
    """An issue's number, for argparse: 1 or more."""
    if not text.isdigit() or int(text) == 0:
        raise ValueError(text)
    return int(text)


def _run(args) -> int:
    name = "stdin" if args.file == "-" else args.file
    if args.message:  # before the record is written: a message that cannot be written would be lost after it
        writable_output(args.message, "--message", folder=False)
    try:
        answers = read_body(_read(args.file))
        checked = inspect_content(args.content)
        conversion = convert(answers, checked, args.id, draft=args.draft, issue=args.issue)
    except ProposalError as err:
        print(f"from-issue: {name}: {err}", file=sys.stderr)
        if args.message:
            _write_message(args.message, refused(args.issue, [str(err)]))
        return 2
    path = checked.content_dir / "entries" / f"{conversion.data['id']}.yml"
    try:
        text = record_yaml(conversion.data, _header(args.issue))
    except ValueError as err:  # too large for a record file: name the answers that make it so
        sizes = sorted(((len(json.dumps(value, ensure_ascii=False)), key) for key, value in conversion.data.items()),
                       reverse=True)
        largest = ", ".join(form_fields()[key]["label"] for _, key in sizes[:2] if key in form_fields())
        message = f"{err}; the longest answers: {largest}"
        print(f"error: {message}\nfrom-issue: nothing written", file=sys.stderr)
        if args.message:
            _write_message(args.message, refused(args.issue, [message]))
        return 1
    # the answers' own errors first; the checks' problems with a stand-in only follow from them
    problems = [p for p in draft_report(checked, path, text) if _field_of(p) not in conversion.stand_ins]
    errors = conversion.errors + [_described(p) for p in problems if p.severity == "error"]
    warnings = [_described(p) for p in problems if p.severity != "error"]
    for line in errors:
        print(f"error: {line}", file=sys.stderr)
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)
    for line in conversion.notes:
        print(f"note: {line}", file=sys.stderr)
    print(f"{len(errors)} error(s), {len(warnings)} warning(s)", file=sys.stderr)
    if errors and not args.draft:
        print("from-issue: nothing written: fix the errors in the issue (or run with --draft to write the record "
              "anyway and fix it by hand)", file=sys.stderr)
        if args.message:
            _write_message(args.message, refused(args.issue, errors + conversion.notes))
        return 1
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as out:  # "x": never overwrite a record, even in a race
            out.write(text)
    except OSError as err:
        print(f"from-issue: cannot write {shown_path(path)}: {err.strerror}", file=sys.stderr)
        return 2
    print(shown_path(path))
    print(f"wrote {shown_path(path)}" + (" (a draft with errors: fix them before it can be merged)" if errors else ""),
          file=sys.stderr)
    if args.message:
        _write_message(args.message, pull_request(args.issue, conversion.data["id"],
                                                  file_label(path, checked.content_dir.parent), errors, warnings,
                                                  conversion.notes))
    return 1 if errors else 0


def _read(file: str) -> str:
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as err:
        raise ProposalError(f"cannot read it: {err.strerror}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ProposalError(f"not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start})") from None


# --- the issue's body ---


@cache
def form_fields() -> dict[str, dict]:
    """The form's answer fields by id: their type, label and `render` setting (settings.PROPOSAL_FORM)."""
    form = yaml.safe_load(PROPOSAL_FORM.read_text(encoding="utf-8"))
    return {item["id"]: {"type": item["type"], "label": item["attributes"]["label"],
                         "render": item["attributes"].get("render")}
            for item in form["body"] if "id" in item}


def _label_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def read_body(body: str) -> dict[str, str]:
    """The form's answers in an issue body, by field id ("" for a field left empty); ProposalError when the
    body is not the form's or says something twice."""
    if len(body) > MAX_BODY_CHARS:
        raise ProposalError(f"{len(body)} characters; an issue body has at most {MAX_BODY_CHARS}")
    fields = form_fields()
    by_label = {_label_key(spec["label"]): key for key, spec in fields.items()}
    answers: dict[str, list[str]] = {}
    current = None
    for line in body.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        heading = _HEADING.match(line)
        key = by_label.get(_label_key(heading.group(1))) if heading else None
        if key is not None:
            if key in answers:
                raise ProposalError(f"the answer '### {fields[key]['label']}' appears twice")
            answers[key], current = [], key
        elif current is not None:
            answers[current].append(line)
    if not answers:
        raise ProposalError("not the body of the 'propose a pitfall' issue form: none of its headings "
                            f"('### {fields['title']['label']}', …) is in it")
    result = {}
    for key, lines in answers.items():
        text = "\n".join(lines).strip()
        if text == NO_RESPONSE:
            text = ""
        if fields[key]["render"] is not None:
            text = _unfenced(text)
        result[key] = text
    return result


def _unfenced(text: str) -> str:
    """An answer GitHub wrapped in a code fence (a field with `render:`), without the fence."""
    lines = text.split("\n")
    opening = _FENCE.match(lines[0]) if lines else None
    if opening and len(lines) >= 2 and lines[-1].strip() == opening.group(1):
        return "\n".join(lines[1:-1]).strip("\n")
    return text


# --- answers → record ---


def convert(answers: dict[str, str], checked: ContentCheck, record_id: str | None = None, *, draft: bool = False,
            issue: int | None = None) -> Conversion:
    """The record the answers make, among `checked` content; `record_id` (the maintainer's --id) replaces the
    one made from the answers. With `draft`, a required answer that is missing is a PLACEHOLDER to fill in."""
    fields = form_fields()
    conversion = Conversion({})
    labels = {key: spec["label"] for key, spec in fields.items()}
    answers = dict(answers)
    for key, text in answers.items():
        cleaned = FORBIDDEN_CHARACTERS.sub("", text)
        if cleaned != text:
            conversion.notes.append(f"{labels[key]}: removed {len(text) - len(cleaned)} control or bidirectional "
                                    "override character(s)")
            answers[key] = cleaned
    note = conversion.notes.append

    def required(key: str, value: object, stand_in: object) -> object:
        if value:
            return value
        if key not in conversion.stand_ins:
            conversion.errors.append(f"{labels[key]}: no answer; the record needs one")
        conversion.stand_ins.add(key)
        return stand_in

    data = conversion.data
    data["id"] = "proposal"  # replaced below, once the title is known
    category = answers.get("category", "").strip()
    found = _category(category, checked.categories, labels["category"], conversion) if category else None
    if category and found is None:
        conversion.stand_ins.add("category")  # an error already says why
    data["category"] = required("category", found, _short(category) if draft and category else PLACEHOLDER)
    title = _languages(answers.get("title", ""))
    data["title"] = required("title", title, {"zh": PLACEHOLDER, "en": PLACEHOLDER})
    data["quick_fix"] = required("quick_fix", _languages(answers.get("quick_fix", "")), {"zh": PLACEHOLDER, "en": PLACEHOLDER})
    data["symptoms"] = required("symptoms", _symptoms(answers.get("symptoms", ""), labels["symptoms"], note), [PLACEHOLDER])
    data["steps"] = required("steps", _steps(answers.get("steps", "")), [{"zh": PLACEHOLDER, "en": PLACEHOLDER}])
    tags = _tags(answers.get("tags", ""), checked.tags, labels["tags"], conversion, draft)
    if answers.get("tags", "").strip() and not tags:
        conversion.stand_ins.add("tags")  # an error already says why
    data["tags"] = required("tags", tags, [])
    if cause := _languages(answers.get("cause", "")):
        data["cause"] = cause
    if environment := _environment(answers.get("environment", ""), labels["environment"], note):
        data["environment"] = environment
    if verification := _step(answers.get("verification", "").split("\n")):
        data["verification"] = verification
    if references := _references(answers.get("references", ""), labels["references"], note):
        data["references"] = references
    if related := _related(answers.get("related", ""), checked, labels["related"], note):
        data["related"] = related
    if signatures := _signatures(answers.get("signatures", ""), labels["signatures"], note):
        data["signatures"] = signatures
    if verified := _date(answers.get("last_verified", ""), labels["last_verified"], note):
        data["last_verified"] = verified
    if keywords := _keywords(answers.get("keywords", ""), data, labels["keywords"], note):
        data["keywords"] = keywords
    data["id"] = _record_id(record_id, answers.get("id", ""), title, checked, labels, conversion, issue)
    return conversion


def _is_zh(text: str) -> bool:
    return HAN_CHARACTER.search(text) is not None


def _languages(text: str) -> dict[str, str]:
    """{zh, en} of one answer (see the module's notes); {} when it is empty."""
    text = text.strip()
    if not text:
        return {}
    lines = text.split("\n")
    if len(lines) == 1:
        parts = [part.strip() for part in _LANGUAGE_SEPARATOR.split(text)]
        if len(parts) == 2 and all(parts) and _is_zh(parts[0]) != _is_zh(parts[1]) \
                and all(part.count("`") % 2 == 0 for part in parts):
            zh, en = parts if _is_zh(parts[0]) else parts[::-1]
            return {"zh": zh, "en": en}
    else:
        breaks = [index for index, line in enumerate(lines) if line.strip() == "---"]
        if len(breaks) == 1:
            first = "\n".join(lines[:breaks[0]]).strip()
            second = "\n".join(lines[breaks[0] + 1:]).strip()
            if first and second and _is_zh(first) != _is_zh(second):
                zh, en = (first, second) if _is_zh(first) else (second, first)
                return {"zh": zh, "en": en}
    return {"zh" if _is_zh(text) else "en": text}


def _category(answer: str, registry: Registry, label: str, conversion: Conversion) -> str | None:
    """The category key of the dropdown's option ("training · 训练 / Training"), a key, or a label."""
    answer = answer.strip()
    if not answer:
        return None
    first = answer.split()[0].strip("·").casefold()
    for key in registry.keys():
        known = registry.lookup(key)
        if first == key or answer.casefold() in (known.zh.casefold(), known.en.casefold()):
            return key
    conversion.errors.append(f"{label}: {_short(answer)!r} is not a category of {registry.file}; known: "
                             f"{', '.join(registry.keys())}")
    return None


def _tags(answer: str, registry: Registry, label: str, conversion: Conversion, draft: bool) -> list[str]:
    """The keys of the tags the answer names (by key or label, in any case); the others are listed in a note
    (as errors when none is known; a draft keeps them, made into keys, for the maintainer to add or replace)."""
    names = {}
    for key in registry.keys():
        known = registry.lookup(key)
        for name in (key, known.zh, known.en):
            names.setdefault(_tag_form(name), key)
    keys, unknown = [], []
    for chunk in re.split(r"[,，、;；\n]+", answer):
        chunk = chunk.strip().lstrip("#").strip()
        if not chunk:
            continue
        found = names.get(_tag_form(chunk))
        words = [names.get(_tag_form(word)) for word in chunk.split()] if found is None else [found]
        if None in words and found is None:
            unknown.append(chunk)
            words = [word for word in words if word]
        keys += [key for key in words if key not in keys]
    if unknown:
        named = ", ".join(repr(_short(u)) for u in unknown[:10]) + (", …" if len(unknown) > 10 else "")
        add = f"a maintainer can add a tag to {registry.file} with both labels (CONTRIBUTING.md)"
        if keys:
            conversion.notes.append(f"{label}: left out {named}: not in {registry.file}; {add}")
        else:
            conversion.errors.append(f"{label}: none of {named} is a tag of {registry.file}; use known ones "
                                     f"({', '.join(registry.keys())}), or {add}")
            if draft:
                keys = [slug for slug in dict.fromkeys(_slugify(u, ID_LENGTH) for u in unknown) if slug][:20]
    return keys


def _tag_form(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().casefold())


def _symptoms(answer: str, label: str, note) -> list:
    symptoms, seen, in_traceback, skipped = [], set(), False, 0
    for line in answer.split("\n"):
        text = line.rstrip()
        if text.strip().startswith(_TRACEBACK):
            in_traceback, skipped = True, skipped + 1
            continue
        if in_traceback and text[:1] in (" ", "\t"):
            skipped += 1
            continue
        in_traceback = False
        text = text.strip()
        if not text:
            continue
        symptom = text if not _is_zh(text) and ERROR_WORDS.search(text) else _languages(text)
        key = repr(symptom)
        if key not in seen:  # a set: a pasted log may have many thousands of lines
            seen.add(key)
            symptoms.append(symptom)
    if skipped:
        note(f"{label}: left out {skipped} line(s) of a traceback; its last line, the error, is kept")
    return symptoms


def _steps(answer: str) -> list[dict]:
    """Steps: a list item starts one, other lines continue it, code fences and `$ ` lines are its command."""
    groups: list[list[str]] = []
    fence = None
    for line in answer.split("\n"):
        item = _LIST_ITEM.match(line) if fence is None else None
        if item:
            groups.append([item.group(1) or ""])
            continue
        if not groups:
            groups.append([])
        groups[-1].append(line)
        opened = _FENCE.match(line)
        if opened and fence is None:
            fence = opened.group(1)
        elif fence is not None and line.strip() == fence:
            fence = None
    return [step for step in (_step(lines) for lines in groups) if step]


def _step(lines: list[str]) -> dict:
    """A step (or the verification) from its lines: text in one or both languages, and its commands as `code`."""
    text, code, fence = [], [], None
    for line in lines:
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)
        elif fence is not None:
            if line.strip() == fence:
                fence = None
            else:
                code.append(line)
        elif line.strip().startswith("$ "):
            code.append(line.strip()[2:])
        else:
            text.append(line)
    step = dict(_languages("\n".join(text)))
    command = "\n".join(code).strip("\n")
    if command.strip():
        step = step or dict(RUN)
        step["code"] = command
    return step


def _environment(answer: str, label: str, note) -> dict[str, str]:
    found, unknown = {}, []
    for line in answer.split("\n"):
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip().casefold(), value.strip()
        if colon and key in ENVIRONMENT_KEYS:
            if value:
                found[key] = value
        else:
            unknown.append(line.strip())
    if unknown:
        note(f"{label}: left out {len(unknown)} line(s) that are not `key: value` with a key of "
             f"{', '.join(ENVIRONMENT_KEYS)}")
    return {key: found[key] for key in ENVIRONMENT_KEYS if key in found}


def _references(answer: str, label: str, note) -> list[dict]:
    references, dropped = [], 0
    for line in answer.split("\n"):
        line = line.strip().lstrip("-*•").strip()
        if not line:
            continue
        link = _MARKDOWN_LINK.search(line)
        if link:
            title, url = link.group(1).strip(), link.group(2)
        elif found := _URL.search(line):
            url = found.group().rstrip(".,;:!?)）。，")
            title = (line[:found.start()] + line[found.end():]).strip(" \t-–—:：|·")
        else:
            dropped += 1
            continue
        reference = {"title": title or url.split("://", 1)[1].rstrip("/"), "url": url}
        if reference not in references:
            references.append(reference)
        if len(references) > MAX_LISTED:
            break
    if dropped:
        note(f"{label}: left out {dropped} line(s) without an http(s) link")
    return references


def _related(answer: str, checked: ContentCheck, label: str, note) -> list[str]:
    ids = {record.id for record in checked.records}
    aliases = {alias: record.id for record in checked.records for alias in record.aliases}
    related, unknown = [], []
    for word in re.split(r"[\s,，、;；]+", answer):
        if not word:
            continue
        candidate = word.split("#")[0].split("?")[0].rstrip("/").rsplit("/", 1)[-1] if "/" in word else word
        candidate = aliases.get(candidate, candidate)
        if candidate in ids:
            if candidate not in related:
                related.append(candidate)
        else:
            unknown.append(_short(word))
    if unknown:
        named = ", ".join(map(repr, unknown[:10])) + (", …" if len(unknown) > 10 else "")
        note(f"{label}: left out {named}: no entry has that id")
    return related


def _signatures(answer: str, label: str, note) -> list[dict]:
    signatures = []
    for line in answer.split("\n"):
        line = line.strip()
        if not line:
            continue
        if len(signatures) == 20:  # the record's limit
            note(f"{label}: left out the lines after the 20th signature")
            break
        try:
            compile_signature("exact", line)
        except ValueError as err:
            note(f"{label}: left out {_short(line)!r}: it {err}")
            continue
        if {"exact": line} not in signatures:
            signatures.append({"exact": line})
    return signatures


def _keywords(answer: str, data: dict, label: str, note) -> dict[str, list[str]]:
    """Words readers type that the entry does not say: split at commas and line ends, zh or en by their characters.
    One the proposal's text already has is left out, as `check` refuses it (docs/CONTENT.md)."""
    said = said_text(data)
    keywords: dict[str, list[str]] = {}
    for word in (word.strip() for word in _KEYWORD_SEPARATOR.split(answer)):
        words = keywords.setdefault("zh" if _is_zh(word) else "en", []) if word else []
        if not word or word in words:
            continue
        if len(word) > 40 or len(words) == 12:  # the record's limits
            note(f"{label}: left out {_short(word)!r}: a keyword is at most 40 characters, 12 a language")
        elif word.casefold() in said:
            note(f"{label}: left out {word!r}: the proposal already says it")
        else:
            words.append(word)
    return {lang: words for lang, words in keywords.items() if words}


def _date(answer: str, label: str, note) -> str | None:
    answer = answer.strip()
    if not answer:
        return None
    found = _DATE.match(answer)
    try:
        date = datetime.date(*map(int, found.groups())) if found else None
    except ValueError:
        date = None
    if date is None or date > datetime.date.today() + datetime.timedelta(days=1):
        note(f"{label}: left out {_short(answer)!r}: not a date such as 2026-11-30 (today or earlier)")
        return None
    return date.isoformat()


def _record_id(given: str | None, answer: str, title: dict[str, str], checked: ContentCheck, labels: dict[str, str],
               conversion: Conversion, issue: int | None) -> str:
    """The maintainer's --id (ProposalError when it is not a slug or is taken), else the form's id or one made
    from the title, slugified, with -2, -3 … when taken."""
    taken = RESERVED_IDS | {record.id for record in checked.records} | {a for r in checked.records for a in r.aliases}
    taken |= {path.stem for path in (checked.content_dir / "entries").glob("*.yml")}
    if given is not None:
        if not SLUG.match(given) or len(given) > 80:
            raise ProposalError(f"--id {given!r} is not a valid id: lowercase ASCII letters, digits and single "
                                "hyphens, at most 80 characters")
        if given in taken:
            raise ProposalError(f"--id {given!r} is already used (by an entry, an alias or a site page)")
        return given
    made = ""
    if answer.strip():
        made = _slugify(answer, ID_LENGTH)
        if not made:
            conversion.notes.append(f"{labels['id']}: {_short(answer)!r} has no letters or digits for a URL; the id "
                                    "is made from the title")
        elif made != answer.strip():
            conversion.notes.append(f"{labels['id']}: {_short(answer)!r} is written {made!r} as a URL")
    made = made or _title_slug(title) or (f"proposal-{issue}" if issue else "proposal")
    record_id, number = made, 1
    while record_id in taken:
        number += 1
        record_id = f"{made}-{number}"
    if record_id != made:
        conversion.notes.append(f"{labels['id']}: {made!r} is taken (an entry, an alias or a site page); the id is "
                                f"{record_id!r}: check that this is not the same pitfall")
    return record_id


def _title_slug(title: dict[str, str]) -> str:
    if title.get("en"):
        return _slugify(title["en"], ID_LENGTH)
    zh = title.get("zh", "")
    ascii_words = re.findall(r"[A-Za-z0-9]+", zh)
    if len(ascii_words) >= 2:
        return _slugify(" ".join(ascii_words), ID_LENGTH)
    parts = []
    for run in re.findall(rf"{HAN_CHARACTER.pattern}+|[A-Za-z0-9]+", zh):
        parts += (pinyin_reading(run) or []) if _is_zh(run) else [run]
    return _slugify(" ".join(p for p in parts if p), ID_LENGTH)


def _slugify(text: str, limit: int) -> str:
    """`text` as a slug: ASCII letters and digits, lowercase, single hyphens, at most `limit` characters (cut at
    a hyphen where one is near); "" when nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > limit:
        cut = slug[:limit + 1].rfind("-")
        slug = slug[:cut if cut > limit // 2 else limit].strip("-")
    return slug


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --- reports ---


def _field_of(problem: Problem) -> str:
    """The record field a problem is about: `symptoms` for `symptoms[0]`."""
    top = re.match(r"[a-z_]+", problem.field or "")
    return top.group() if top else ""


def _described(problem: Problem) -> str:
    """A check problem, with the form's question it comes from."""
    question = form_fields().get(_field_of(problem), {}).get("label")
    return f"{problem}" + (f"  [{question}]" if question else "")


def _header(issue: int | None) -> str:
    where = f"issue #{issue}" if issue else "an issue"
    return (f"# Proposed in {where} with the 'propose a pitfall' form; written by `python -m pitfalls from-issue`.\n"
            "# Field reference: docs/CONTENT.md. A text may be written in only zh or only en for now.")


def fenced(text: str) -> str:
    """`text` in a Markdown code block whose fence no line of it can close: untrusted text stays text."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def pull_request(issue: int | None, record_id: str, shown_path: str, errors: list[str], warnings: list[str],
                 notes: list[str]) -> str:
    """The pull request's text: it closes the issue, says what was made and what a reviewer must still look at.
    Nothing from the issue appears outside a code block."""
    lines = [f"Closes #{issue}" if issue else "", "",
             f"`{shown_path}`, written by `python -m pitfalls from-issue` from the answers of "
             f"{'issue #' + str(issue) if issue else 'the issue'} / 由 issue 表单的回答自动生成。", "",
             "Before merging / 合并前请检查:", "",
             f"- [ ] the id `{record_id}` is the URL wanted (`/zh/{record_id}/`, `/en/{record_id}/`) / 网址 id 合适",
             "- [ ] category and tags; tags that do not exist yet are listed below / 分类和标签",
             "- [ ] error messages are verbatim, steps are in order and their commands run / 报错原样、步骤与命令正确",
             "- [ ] the other language, if you can add it / 可以的话补上另一种语言", ""]
    if errors:
        lines += ["**Errors (a draft: fix them before merging) / 错误：**", "", fenced("\n".join(errors)), ""]
    if warnings or notes:
        lines += ["What the checks and the conversion say / 校验与转换的提示:", "", fenced("\n".join(warnings + notes)), ""]
    return "\n".join(lines).lstrip("\n")


def refused(issue: int | None, problems: list[str]) -> str:
    """A comment for the issue: why no pull request was made, and how to get one."""
    return "\n".join([
        "This proposal cannot become a record yet / 这个提议还不能生成条目:", "", fenced("\n".join(problems)), "",
        "Edit the issue to fix the answers named above: the check runs again and opens the pull request once they "
        "pass. / 按上面的提示编辑 issue，修改后会自动重新检查，通过后生成 PR。", ""])


def _write_message(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")  # an OSError about it is one line (commands/cli.py)

