"""`pitfalls new`: scaffold content/entries/<id>.yml with every field.

The scaffold is a valid record: what the contributor has not told us yet is placeholder text
marked PLACEHOLDER (and the reference URL PLACEHOLDER_URL), which `check` reports as a warning
until it is replaced. It asks for the id, category, tags, titles and error message when they are
not given as flags and stdin is a terminal. A category or tag that is not in its registry yet is
offered to be added there, with both labels, on a terminal; otherwise `new` prints the YAML to add.
The scaffold is checked by the validator, with every rule of the build, before it is written.
"""

from __future__ import annotations

import datetime
import difflib
import json
import sys
from dataclasses import replace
from pathlib import Path

from ..errors import PitfallsError
from ..records.duplicates import existing_entries, fingerprint, matches, source_label
from ..records.model import Label
from ..records.registries import Registry, entry_yaml, text_with_entries
from ..records.schema import SLUG, slug_problem
from ..records.validate import ContentCheck, inspect_content
from ..settings import CONTENT_DIR, ROOT

PLACEHOLDER = "TODO(new)"
"""Marks scaffold text still to be written; `check` warns wherever it is left."""
PLACEHOLDER_URL = "https://example.com/"
"""The scaffold's reference URL: a domain reserved for examples, which `check` flags like PLACEHOLDER."""

SCAFFOLD = """\
# yaml-language-server: $schema=../../pitfalls/record.schema.json
# 新条目 / new entry. Replace every {mark}, delete optional fields you cannot fill, then run:
#   python -m pitfalls check {path}
#   python -m pitfalls similar {path}
# Field reference: docs/CONTENT.md. A text may be written in only zh or only en for now.
id: {id}  # permanent URL /zh/{id}/ and /en/{id}/; equals the file name
category: {category}  # one key of content/categories.yml
title:  # short name of the pitfall, as a reader would describe it (one line)
  zh: {title_zh}
  en: {title_en}
quick_fix:  # the fix in one line: what to do first; shown at the top and in link previews
  zh: "{mark}：一句话写出最快的修复"
  en: "{mark}: the fix in one line"
symptoms:  # what the reader sees, in the order they meet it
  # a plain string is an error message, copied exactly as it appears (same in both languages)
  - {symptom}
  # a {{zh, en}} mapping describes a behaviour in words
  - zh: "{mark}：描述现象"
    en: "{mark}: describe the behaviour"
steps:  # diagnosis and fix, in order; `code` is a command shown as a copyable block
  - zh: "{mark}：第一步做什么"
    en: "{mark}: what to do first"
    code: "{mark}: the command to run"
tags: [{tags}]  # keys of content/tags.yml
cause:  # why it happens: the root cause
  zh: "{mark}：根本原因"
  en: "{mark}: the root cause"
environment:  # where it was seen, free text; delete the lines you do not know
  os: "{mark}: e.g. Ubuntu 22.04"
  gpu: "{mark}: e.g. RTX 4090"
  driver: "{mark}: e.g. 535.104"
  cuda: "{mark}: e.g. 12.1"
  python: "{mark}: e.g. 3.11"
  frameworks: "{mark}: e.g. PyTorch 2.1"
verification:  # how to confirm the fix worked
  zh: "{mark}：怎样确认已经修好"
  en: "{mark}: how to confirm it is fixed"
  code: "{mark}: a command whose output shows it"
references:  # further reading: page title and http(s) URL
  - title: "{mark}: page title"
    url: {placeholder_url}
related: []  # ids of other entries worth reading next, e.g. [cuda-out-of-memory]
# signatures:  # optional: patterns that find this error in a log (`python -m pitfalls match`), docs/SIGNATURES.md
#   - exact: "RuntimeError: CUDA out of memory. Tried to allocate <size>"
last_verified: {today}  # YYYY-MM-DD when someone last confirmed the fix works
aliases: []  # former ids of this entry (only when renaming one); their URLs redirect here
"""


class NewError(PitfallsError):
    """An input `new` refuses; the message says which and why, `details` is text to copy as it is."""


def register(commands) -> None:
    parser = commands.add_parser(
        "new", help="新建条目模板 / scaffold content/entries/<id>.yml",
        description="新建 content/entries/<id>.yml，含所有字段与占位文字 / scaffold content/entries/<id>.yml with "
                    f"every field and {PLACEHOLDER} placeholders. Missing values are asked for on a terminal.")
    parser.add_argument("--id", help="permanent slug, e.g. cuda-out-of-memory")
    parser.add_argument("--category", help="a key of content/categories.yml")
    parser.add_argument("--tags", help="comma-separated keys of content/tags.yml")
    parser.add_argument("--title-zh", help="中文标题")
    parser.add_argument("--title-en", help="English title")
    parser.add_argument("--symptom", help="the error message, pasted exactly (compared with existing entries)")
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    ask = sys.stdin.isatty()
    checked = inspect_content(args.content)
    try:
        record_id = _value(args.id, "id", "id (e.g. cuda-out-of-memory)", ask)
        category = _value(args.category, "category", f"category ({', '.join(checked.categories.keys())})", ask)
        tags = [t.strip() for t in _value(args.tags, "tags", "tags, comma-separated", ask).split(",") if t.strip()]
        title_zh = _optional(args.title_zh, "中文标题 (Enter to skip)", ask)
        title_en = _optional(args.title_en, "English title (Enter to skip)", ask)
        symptom = _optional(args.symptom, "error message, pasted exactly / 报错信息 (Enter to skip)", ask)
        path, text = scaffold(checked, record_id, category, tags, title_zh or None, title_en or None, symptom or None)
        missing = {"categories": [key for key in [category] if _unknown(checked.categories, key)],
                   "tags": [key for key in tags if _unknown(checked.tags, key)]}
        if any(missing.values()):
            _add_keys(checked, path, text, missing, ask)
            checked = inspect_content(args.content)
        write_scaffold(checked, path, text)
    except (EOFError, KeyboardInterrupt):
        print(file=sys.stderr)  # past the unanswered prompt
        raise PitfallsError("cancelled; nothing was written") from None
    print(_shown(path))
    if title_zh or title_en or symptom:  # like a Q&A site before you post: is it already there?
        cutter = checked.segmenter()
        data = {"title": {"zh": title_zh, "en": title_en}, "symptoms": [symptom] if symptom else []}
        for match in matches(fingerprint(source_label(path, checked.documents), data, cutter), existing_entries(checked, cutter)):
            print(f"similar existing entry / 相似条目: {match.describe()}", file=sys.stderr)
    print(f"wrote {_shown(path)}: replace every {PLACEHOLDER}, then run `python -m pitfalls check {_shown(path)}`",
          file=sys.stderr)
    return 0


def _value(given: str | None, flag: str, prompt: str, ask: bool) -> str:
    if given is not None:
        return given.strip()
    if not ask:
        raise NewError(f"--{flag} is required (stdin is not a terminal, so it cannot be asked for)")
    return input(f"{prompt}: ").strip()


def _optional(given: str | None, prompt: str, ask: bool) -> str:
    return given.strip() if given is not None else input(f"{prompt}: ").strip() if ask else ""


def _unknown(registry: Registry, key: str) -> bool:
    """A well-formed key the registry does not have (a malformed one is left to the validator's message)."""
    return SLUG.match(key) is not None and registry.lookup(key) is None


def _add_keys(checked: ContentCheck, path: Path, text: str, missing: dict[str, list[str]], ask: bool) -> None:
    """Add the categories and tags the draft names that their registries do not have yet: once the draft is
    valid otherwise, and only on a terminal, with both labels asked for; else raise NewError with the YAML to add."""
    registries = {"categories": checked.categories, "tags": checked.tags}
    with_keys = replace(checked, categories=checked.categories.with_keys(missing["categories"]),
                        tags=checked.tags.with_keys(missing["tags"]))
    _refuse(with_keys.draft_problems(path, text))
    labels = {name: [_ask_label(registries[name], key, ask) for key in keys] for name, keys in missing.items() if keys}
    texts = {}
    for name, added in labels.items():
        try:
            texts[name] = text_with_entries(checked.content_dir, name, added)
        except ValueError as err:
            raise NewError(f"{registries[name].file} would not be valid: {err}") from None
    for name, registry_text in texts.items():  # both files are valid before either is written
        (checked.content_dir / f"{name}.yml").write_text(registry_text, encoding="utf-8")
        for label in labels[name]:
            print(f"added {registries[name].item} {label.key!r} to {registries[name].file}", file=sys.stderr)


def _ask_label(registry: Registry, key: str, ask: bool) -> Label:
    """On a terminal, the labels of a new key, if the contributor wants it; otherwise NewError with the YAML to add."""
    close = difflib.get_close_matches(key, registry.keys(), n=1)
    unknown = f"{registry.item} {key!r} is not in {registry.file}" + (f" (did you mean {close[0]!r}?)" if close else "")
    suggested = key.replace("-", " ").capitalize()  # numerical-stability → Numerical stability
    if ask and input(f"{unknown}. Add it? / 添加？ [y/N]: ").strip().lower() in ("y", "yes", "是"):
        zh = input("  中文名 / Chinese label: ").strip()
        return Label(key=key, zh=zh, en=input(f"  English label [{suggested}]: ").strip() or suggested)
    raise NewError(f"{unknown}; known: {', '.join(registry.keys())}. To add it, put these lines in {registry.file}, "
                   "write its Chinese label, then run `new` again:",
                   details=entry_yaml(Label(key=key, zh="", en=suggested)))


def scaffold(checked: ContentCheck, record_id: str, category: str, tags: list[str], title_zh: str | None,
             title_en: str | None, symptom: str | None) -> tuple[Path, str]:
    """The file content/entries/<record_id>.yml and its text; NewError when the id is malformed or taken."""
    if not SLUG.match(record_id):  # before it goes into YAML and a file name
        raise NewError(slug_problem(record_id, "id"))
    path = checked.content_dir / "entries" / f"{record_id}.yml"
    if path.exists():
        raise NewError(f"id {record_id!r} is already used by {path}")
    text = SCAFFOLD.format(
        mark=PLACEHOLDER, path=_shown(path), id=record_id, category=category, tags=", ".join(tags),
        title_zh=_quoted(title_zh or f"{PLACEHOLDER}：一句话标题"),
        title_en=_quoted(title_en or f"{PLACEHOLDER}: a one-line title"),
        symptom=_quoted(symptom or f"{PLACEHOLDER}: paste the exact error message"), placeholder_url=PLACEHOLDER_URL,
        today=datetime.date.today().isoformat(),
    )
    return path, text


def write_scaffold(checked: ContentCheck, path: Path, text: str) -> None:
    """Write the scaffold; NewError (writing nothing) when the validator refuses it."""
    _refuse(checked.draft_problems(path, text))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as out:  # "x": never overwrite, even in a race
        out.write(text)


def _refuse(problems: list) -> None:
    if problems:
        raise NewError("\n".join(f"{p.field}: {p.message}" for p in problems))  # as `check` names them


def _quoted(text: str) -> str:
    """`text` as a YAML scalar: a JSON string is a valid YAML double-quoted string."""
    return json.dumps(text, ensure_ascii=False)


def _shown(path: Path) -> str:
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
