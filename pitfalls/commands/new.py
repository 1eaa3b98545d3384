"""`pitfalls new`: scaffold content/entries/<id>.yml with every field.

The scaffold is a valid record: what the contributor has not told us yet is placeholder text
marked PLACEHOLDER, which `check` reports as a warning until it is replaced. It asks for the
id, category and tags when they are not given as flags and stdin is a terminal. The scaffold is
checked by the validator, with every rule of the build, before it is written.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

from ..records.duplicates import existing_entries, fingerprint, matches, source_label
from ..records.schema import SLUG, slug_problem
from ..records.validate import ContentCheck, inspect_content
from ..settings import CONTENT_DIR, ROOT

PLACEHOLDER = "TODO(new)"
"""Marks scaffold text still to be written; `check` warns wherever it is left."""

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
  - "{mark}: paste the exact error message"
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
    url: https://example.com/
related: []  # ids of other entries worth reading next, e.g. [cuda-out-of-memory]
# signatures:  # optional: patterns that find this error in a log (`python -m pitfalls match`), docs/SIGNATURES.md
#   - exact: "RuntimeError: CUDA out of memory. Tried to allocate <size>"
last_verified: {today}  # YYYY-MM-DD when someone last confirmed the fix works
aliases: []  # former ids of this entry (only when renaming one); their URLs redirect here
"""


class NewError(Exception):
    """An input `new` refuses; the message says which and why."""


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
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    ask = sys.stdin.isatty()
    checked = inspect_content(args.content)
    try:
        categories = list(checked.categories)
        record_id = _value(args.id, "id", "id (e.g. cuda-out-of-memory)", ask)
        category = _value(args.category, "category", f"category ({', '.join(categories)})", ask)
        tags = [t.strip() for t in _value(args.tags, "tags", "tags, comma-separated", ask).split(",") if t.strip()]
        title_zh = args.title_zh if args.title_zh is not None or not ask else input("中文标题 (Enter to skip): ").strip()
        title_en = args.title_en if args.title_en is not None or not ask else input("English title (Enter to skip): ").strip()
        path = scaffold(checked, record_id, category, tags, title_zh or None, title_en or None)
    except NewError as err:
        for line in str(err).splitlines():
            print(f"new: {line}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\nnew: cancelled", file=sys.stderr)
        return 2
    print(_shown(path))
    if title_zh or title_en:  # like a Q&A site before you post: is it already there?
        cutter = checked.segmenter()
        draft = fingerprint(source_label(path, checked.documents), {"title": {"zh": title_zh, "en": title_en}}, cutter)
        for match in matches(draft, existing_entries(checked.documents, cutter)):
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


def scaffold(checked: ContentCheck, record_id: str, category: str, tags: list[str], title_zh: str | None,
             title_en: str | None) -> Path:
    """Write content/entries/<record_id>.yml; raise NewError (writing nothing) when the validator refuses it."""
    if not SLUG.match(record_id):  # before it goes into YAML and a file name
        raise NewError(slug_problem(record_id, "id"))
    path = checked.content_dir / "entries" / f"{record_id}.yml"
    if path.exists():
        raise NewError(f"id {record_id!r} is already used by {path}")
    text = SCAFFOLD.format(
        mark=PLACEHOLDER, path=_shown(path), id=record_id, category=category, tags=", ".join(tags),
        title_zh=_quoted(title_zh or f"{PLACEHOLDER}：一句话标题"),
        title_en=_quoted(title_en or f"{PLACEHOLDER}: a one-line title"),
        today=datetime.date.today().isoformat(),
    )
    problems = checked.draft_problems(path, text)
    if problems:
        raise NewError("\n".join(f"{p.field}: {p.message}" for p in problems))  # as `check` names them
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as out:  # "x": never overwrite, even in a race
        out.write(text)
    return path


def _quoted(text: str) -> str:
    """`text` as a YAML scalar: a JSON string is a valid YAML double-quoted string."""
    return json.dumps(text, ensure_ascii=False)


def _shown(path: Path) -> str:
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
