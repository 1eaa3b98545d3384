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
from ..records.load import MAX_FILE_BYTES, quoted_scalar, read_yaml, yaml_scalar
from ..records.model import Label
from ..records.registries import Registry, entry_yaml, text_with_entries
from ..records.schema import SLUG, slug_problem
from ..records.validate import ContentCheck, inspect_content
from ..settings import CONTENT_DIR, ROOT, SCHEMA_DIR

PLACEHOLDER = "TODO(new)"
"""Marks scaffold text still to be written; `check` warns wherever it is left."""
PLACEHOLDER_URL = "https://example.com/"
"""The scaffold's reference URL: a domain reserved for examples, which `check` flags like PLACEHOLDER."""

FIELD_NOTES = {
    "id": "permanent URL /zh/<id>/ and /en/<id>/; equals the file name",
    "category": "one key of content/categories.yml",
    "title": "short name of the pitfall, as a reader would describe it (one line)",
    "quick_fix": "the fix in one line: what to do first; shown at the top and in link previews",
    "symptoms": "what the reader sees, in the order they meet it",
    "steps": "diagnosis and fix, in order; `code` is a command shown as a copyable block",
    "tags": "keys of content/tags.yml",
    "cause": "why it happens: the root cause",
    "environment": "where it was seen, free text; delete the lines you do not know",
    "verification": "how to confirm the fix worked",
    "references": "further reading: page title and http(s) URL",
    "related": "ids of other entries worth reading next, e.g. [cuda-out-of-memory]",
    "last_verified": "YYYY-MM-DD when someone last confirmed the fix works",
    "aliases": "former ids of this entry (only when renaming one); their URLs redirect here",
    "signatures": "optional: patterns that find this error in a log (`match`) or a pasted line (search), docs/SIGNATURES.md",
    "keywords": "optional: words readers search for that the entry does not say (the Chinese name of an English term, "
                "a colloquial name), docs/CONTENT.md",
}
"""The comment on each field's line in the files `new` and `from-issue` write."""
FIELDS = tuple(json.loads((SCHEMA_DIR / "record.schema.json").read_text(encoding="utf-8"))["properties"])
"""The record's fields in the order the schema lists them, which is the order records are written in."""
FLOW_LISTS = ("tags", "related", "aliases")
"""Lists of keys, written on one line (`tags: [cuda, oom]`) when every item is a key."""
SCHEMA_COMMENT = "# yaml-language-server: $schema=../../pitfalls/record.schema.json"


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
    print(shown_path(path))
    if title_zh or title_en or symptom:  # like a Q&A site before you post: is it already there?
        cutter = checked.segmenter()
        data = {"title": {"zh": title_zh, "en": title_en}, "symptoms": [symptom] if symptom else []}
        for match in matches(fingerprint(source_label(path, checked.documents), data, cutter), existing_entries(checked, cutter)):
            print(f"similar existing entry / 相似条目: {match.describe()}", file=sys.stderr)
    print(f"wrote {shown_path(path)}: replace every {PLACEHOLDER}, then run `python -m pitfalls check {shown_path(path)}`",
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
    mark = PLACEHOLDER
    data = {
        "id": record_id, "category": category,
        "title": {"zh": title_zh or f"{mark}：一句话标题", "en": title_en or f"{mark}: a one-line title"},
        "quick_fix": {"zh": f"{mark}：一句话写出最快的修复", "en": f"{mark}: the fix in one line"},
        "symptoms": [symptom or f"{mark}: paste the exact error message",
                     {"zh": f"{mark}：描述现象", "en": f"{mark}: describe the behaviour"}],
        "steps": [{"zh": f"{mark}：第一步做什么", "en": f"{mark}: what to do first", "code": f"{mark}: the command to run"}],
        "tags": tags,
        "cause": {"zh": f"{mark}：根本原因", "en": f"{mark}: the root cause"},
        "environment": {"os": f"{mark}: e.g. Ubuntu 22.04", "gpu": f"{mark}: e.g. RTX 4090", "driver": f"{mark}: e.g. 535.104",
                        "cuda": f"{mark}: e.g. 12.1", "python": f"{mark}: e.g. 3.11", "frameworks": f"{mark}: e.g. PyTorch 2.1"},
        "verification": {"zh": f"{mark}：怎样确认已经修好", "en": f"{mark}: how to confirm it is fixed",
                         "code": f"{mark}: a command whose output shows it"},
        "references": [{"title": f"{mark}: page title", "url": PLACEHOLDER_URL}],
        "related": [],
        "last_verified": datetime.date.today().isoformat(),
        "aliases": [],
    }
    header = (f"# 新条目 / new entry. Replace every {mark}, delete optional fields you cannot fill, then run:\n"
              f"#   python -m pitfalls check {shown_path(path)}\n"
              f"#   python -m pitfalls similar {shown_path(path)}\n"
              "# Field reference: docs/CONTENT.md. A text may be written in only zh or only en for now.")
    notes = {("symptoms", 0): "a plain string is an error message, copied exactly as it appears (same in both languages)",
             ("symptoms", 1): "a {zh, en} mapping describes a behaviour in words"}
    commented = {"signatures": 'signatures:\n  - exact: "RuntimeError: CUDA out of memory. Tried to allocate <size>"',
                 "keywords": "keywords:\n  zh: [爆显存, 显存溢出]\n  en: [out of VRAM]"}
    return path, record_yaml(data, header, notes, commented)


def record_yaml(data: dict, header: str = "", notes: dict[tuple, str] | None = None,
                commented: dict[str, str] | None = None) -> str:
    """A record's file: the schema comment, `header` (comment lines), then the fields of `data` in the schema's
    order, each with its FIELD_NOTES comment; `notes` are comment lines above list items (`("symptoms", 0)`), and
    `commented` holds YAML written as comments where an absent field would be. Comments are the caller's own
    text, never content. Every text is a `yaml_scalar` (a literal block when it has several lines and reads back
    as itself), and the file must read back as exactly `data`: else every text is written double-quoted.
    ValueError when the file would be larger than a record file may be."""
    for plain in (True, False):
        lines = [SCHEMA_COMMENT, *header.splitlines()]
        for name in [n for n in FIELDS if n in data or n in (commented or {})]:
            if name not in data:
                lines += [f"# {line}" for line in commented[name].splitlines()]
                lines[-len(commented[name].splitlines())] += f"  # {FIELD_NOTES[name]}"
                continue
            lines += _field_lines(name, data[name], notes or {}, plain)
        text = "\n".join(lines) + "\n"
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise ValueError(f"the record would be {size} bytes; a record file holds at most {MAX_FILE_BYTES} "
                             "(docs/CONTENT.md, Limits)")
        doc, _ = read_yaml(Path("draft.yml"), "draft", text.encode("utf-8"))
        if doc is not None and doc.data == data:
            return text
    raise ValueError("the record cannot be written as YAML that reads back the same")  # a bug, not bad input


def _field_lines(name: str, value: object, notes: dict[tuple, str], plain: bool) -> list[str]:
    note = f"  # {FIELD_NOTES[name].replace('<id>', str(value))}" if name == "id" else f"  # {FIELD_NOTES[name]}"
    if name in FLOW_LISTS and all(isinstance(item, str) and SLUG.match(item) for item in value):
        return [f"{name}: [{', '.join(value)}]{note}"]
    if isinstance(value, str):
        return _scalar_lines(f"{name}: ", value, 0, note, plain)
    if isinstance(value, dict):
        return [f"{name}:{note}", *_mapping_lines(value, 2, plain)]
    lines = [f"{name}:{note}"]
    for index, item in enumerate(value):
        lines += [f"  # {line}" for line in notes.get((name, index), "").splitlines()]
        if isinstance(item, dict):
            inner = _mapping_lines(item, 4, plain)
            lines += ["  - " + inner[0][4:], *inner[1:]]
        else:
            lines += _scalar_lines("  - ", item, 2, "", plain)
    return lines


def _mapping_lines(value: dict, indent: int, plain: bool) -> list[str]:
    lines = []
    for key, item in value.items():
        if isinstance(item, list):  # keywords: a list of words a language
            lines.append(f"{' ' * indent}{key}:")
            lines += [line for word in item for line in _scalar_lines(f"{' ' * (indent + 2)}- ", word, indent + 2, "", plain)]
        else:
            lines += _scalar_lines(f"{' ' * indent}{key}: ", item, indent, "", plain)
    return lines


def _scalar_lines(prefix: str, text: str, indent: int, note: str, plain: bool) -> list[str]:
    """`text` after `prefix`: a literal block (`|-`) when it has several lines and can be one, else one scalar."""
    lines = text.split("\n")
    if plain and len(lines) > 1 and not lines[0].startswith(" ") and "\t" not in text and "\r" not in text \
            and all(line == line.rstrip() for line in lines) and lines[-1]:
        return [f"{prefix}|-{note}", *((" " * (indent + 2) + line) if line else "" for line in lines)]
    return [prefix + (yaml_scalar(text) if plain else quoted_scalar(text)) + note]


def write_scaffold(checked: ContentCheck, path: Path, text: str) -> None:
    """Write the scaffold; NewError (writing nothing) when the validator refuses it."""
    _refuse(checked.draft_problems(path, text))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as out:  # "x": never overwrite, even in a race
        out.write(text)


def _refuse(problems: list) -> None:
    if problems:
        raise NewError("\n".join(f"{p.field}: {p.message}" for p in problems))  # as `check` names them


def shown_path(path: Path) -> str:
    """How messages name a file: from the project root when it lies inside, else its absolute path."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
