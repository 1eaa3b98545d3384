"""Stage 2: check every file against its JSON Schema and the rules that span records,
then build the typed model. All problems of all files are collected before anything fails."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jsonschema

from .load import Problem, YamlDocument, field_name, read_yaml
from .model import KnowledgeBase, Label, Record, Reference, Step, Symptom, Text
from .signatures import compile_signature

SCHEMA_DIR = Path(__file__).parent
PROJECT_ROOT = SCHEMA_DIR.parent
RESERVED_IDS = frozenset({"assets", "categories", "search", "tags", "translations", "404"})
"""Ids that would collide with the site's own pages."""


class ContentError(Exception):
    """The content has errors; `problems` says which, where."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__(f"the content has {len(problems)} error(s):\n" + "\n".join(str(p) for p in problems))


@cache
def schema_validator(name: str) -> jsonschema.protocols.Validator:
    """A validator for `pitfalls/<name>.schema.json`."""
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # the file keeps its $defs for editors; resolving every $ref at each use took two thirds of
    # validation time, so the validator gets them substituted once
    return cls(_inline_refs(schema, schema.get("$defs", {})))


def _inline_refs(node: object, defs: dict) -> object:
    """`node` with every local {"$ref": "#/$defs/x"} replaced by that definition (ours are not recursive)."""
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/"):
        merged = {**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline_refs(merged, defs)
    return {key: (value if key == "$defs" else _inline_refs(value, defs)) for key, value in node.items()}


def load_knowledge_base(content_dir: Path) -> KnowledgeBase:
    """Read, validate and cross-check everything under `content_dir`; raise ContentError on any error."""
    base, problems = check_content(content_dir)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise ContentError(errors)
    return base


def check_content(content_dir: Path) -> tuple[KnowledgeBase | None, list[Problem]]:
    """Everything `load_knowledge_base` checks, returned instead of raised."""
    result = inspect_content(content_dir)
    return result.base, result.problems


@dataclass
class ContentCheck:
    """What checking the content found, with the parts `python -m pitfalls check` reports on."""

    base: KnowledgeBase | None
    """The knowledge base, or None when any error was found."""
    problems: list[Problem]
    """Every problem, sorted by file and position."""
    records: list[Record]
    """Every record that built, even when other files have errors."""
    documents: dict[str, YamlDocument]
    """The schema-valid record documents by file label, for positions and raw values."""


def inspect_content(content_dir: Path) -> ContentCheck:
    """Read, validate and cross-check the content, keeping the documents and records for reporting."""
    root = content_dir.parent
    problems: list[Problem] = []
    documents: dict[str, YamlDocument] = {}
    registries = {}
    for name in ("categories", "tags"):
        doc, found = read_valid(content_dir / f"{name}.yml", root, "registry")
        problems += found
        registries[name] = _labels(doc.data) if doc else {}

    records: list[Record] = []
    for path in sorted((content_dir / "entries").glob("*")):
        if path.name.startswith("."):
            continue
        label = f"{file_label(path.parent, root)}/{path.name}"  # not resolved: a symlink is named as itself
        if path.is_symlink():
            problems.append(Problem(label, "", "symbolic links are not allowed; put the record file itself here"))
        elif path.is_dir():
            problems.append(Problem(label, "", "folders inside entries/ are not read; put record files directly in entries/"))
        elif path.suffix != ".yml":
            problems.append(Problem(label, "", "record files end in .yml"))
        elif not _SLUG.match(path.stem):
            problems.append(Problem(label, "", slug_problem(path.stem, "file name") + "; the file name is the entry's URL"))
        else:
            doc, found = read_valid(path, root, "record")
            problems += found
            if doc is not None:
                documents[doc.label] = doc
                record, found = _build_record(doc, registries["categories"], registries["tags"])
                problems += found
                if record is not None:
                    records.append(record)

    problems += _check_links(records, documents)
    from .vocabulary import check_vocabulary  # imported here: vocabulary.py reads files with this module
    problems += check_vocabulary(content_dir)[1]
    problems.sort(key=lambda p: (p.file, p.line, p.column, p.field))
    base = None
    if not any(p.severity == "error" for p in problems):
        base = KnowledgeBase(
            records=tuple(sorted(records, key=lambda r: r.id)),
            categories=tuple(registries["categories"].values()),
            tags=tuple(registries["tags"].values()),
        )
    return ContentCheck(base, problems, records, documents)


def file_label(path: Path, root: Path) -> str:
    """How messages and edit links name a file: from the project root when it lies inside."""
    path = path.resolve()
    for base in (PROJECT_ROOT, root.resolve()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return path.as_posix()


def read_valid(path: Path, root: Path, schema: str) -> tuple[YamlDocument | None, list[Problem]]:
    """Read one file and check it against its schema."""
    doc, problems = read_yaml(path, file_label(path, root))
    if doc is None:
        return None, problems
    problems = schema_problems(doc, schema)
    return (None if problems else doc), problems


def schema_problems(doc: YamlDocument, schema: str) -> list[Problem]:
    """The schema errors of one document, one readable line each."""
    validator = schema_validator(schema)
    problems = []
    for error in validator.iter_errors(doc.data):
        path = tuple(error.absolute_path)
        if error.validator == "anyOf" and all(e.validator == "required" for e in error.context):
            names = " or ".join(repr(e.validator_value[0]) for e in error.context)
            problems.append(Problem(doc.label, field_name(path), f"needs {names}", *doc.position(path)))
            continue
        # oneOf/anyOf report "not valid under any"; the closest branch says what to fix
        if error.context:  # a branch for another type of value has nothing to say about this one
            error = jsonschema.exceptions.best_match([e for e in error.context if e.validator != "type"] or error.context)
            path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            problems += _unknown_fields(doc, path, error)
            continue
        line, column = doc.position(path)
        problems.append(Problem(doc.label, field_name(path), _message(error), line, column))
    return sorted(set(problems), key=lambda p: (p.line, p.column, p.field, p.message))


def _unknown_fields(doc: YamlDocument, path: tuple, error: jsonschema.ValidationError) -> list[Problem]:
    """One problem per unknown field, at the line of its key, with the closest known name."""
    known = list(error.schema.get("properties", {}))
    problems = []
    for name in sorted(set(error.instance) - set(known)):
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        line, column = doc.key_positions.get(path + (name,)) or doc.position(path)
        problems.append(Problem(doc.label, field_name(path + (name,)),
                                f"unknown field {name!r}{hint}; allowed: {', '.join(known)}", line, column))
    return problems


_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def slug_problem(value: str, what: str) -> str:
    """Why `value` is not a safe URL slug, with a suggestion when one can be made from it."""
    suggestion = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    example = suggestion if _SLUG.match(suggestion) else "cuda-out-of-memory"
    return f"{value!r} is not a valid {what}: lowercase ASCII letters, digits and single hyphens (e.g. {example!r})"


def _message(error: jsonschema.ValidationError) -> str:
    schema, value = error.schema, error.instance
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    if error.validator in ("minLength", "pattern") and value == "" or error.validator == "pattern" and isinstance(value, str) and not value.strip():
        return "must not be empty"
    if error.validator == "pattern" and schema["pattern"] == _SLUG.pattern:
        return slug_problem(value, "id" if list(error.absolute_path) == ["id"] else "key")
    if error.validator == "pattern" and schema["pattern"].startswith("^https?:"):
        return f"{value!r} is not an http(s) URL"
    if error.validator == "maxItems":
        return f"has {len(value)} items; the limit is {schema['maxItems']}"
    if error.validator == "uniqueItems":
        repeated = next(item for i, item in enumerate(value) if item in value[:i])
        return f"lists {repeated!r} more than once"
    if error.validator == "maxLength":
        return f"is {len(value)} characters long; the limit is {schema['maxLength']}"
    if error.validator == "type":
        return f"must be {_a(schema['type'])}, not {_a(_json_type(value))}"
    if error.validator in ("minProperties", "minItems") and not value:
        return "must not be empty"
    return error.message


def _a(kind: str | list) -> str:
    if isinstance(kind, list):
        return " or ".join(_a(k) for k in kind)
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
             "number": "a number", "boolean": "true or false", "null": "empty (null)"}
    return names.get(kind, kind)


def _json_type(value: object) -> str:
    for name, kind in (("boolean", bool), ("object", dict), ("array", list), ("string", str),
                       ("integer", int), ("number", float)):
        if isinstance(value, kind):
            return name
    return "null"


def _labels(data: dict) -> dict[str, Label]:
    return {key: Label(key=key, zh=value["zh"], en=value["en"]) for key, value in data.items()}


def _build_record(doc: YamlDocument, categories: dict[str, Label], tags: dict[str, Label]) -> tuple[Record | None, list[Problem]]:
    """The typed record for a schema-valid document, or the registry/file-name problems that stop it."""
    data, problems = doc.data, []

    def problem(path: tuple, message: str) -> None:
        problems.append(Problem(doc.label, field_name(path), message, *doc.position(path)))

    if data["id"] != doc.path.stem:
        problem(("id",), f"id {data['id']!r} differs from the file name {doc.path.name!r}; they must match")
    if data["id"] in RESERVED_IDS:
        problem(("id",), f"id {data['id']!r} is reserved for a site page")
    if data["category"] not in categories:
        problem(("category",), f"unknown category {data['category']!r}; known: {', '.join(categories)} (content/categories.yml)")
    for index, tag in enumerate(data["tags"]):
        if tag not in tags:
            close = difflib.get_close_matches(tag, list(tags), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problem(("tags", index), f"unknown tag {tag!r}{hint}; add it to content/tags.yml or use a known key")
    signatures = []
    for index, item in enumerate(data.get("signatures", [])):
        (kind, text), = item.items()
        try:
            signatures.append(compile_signature(kind, text))
        except ValueError as err:
            problem(("signatures", index, kind), f"{kind} signature {text!r} {err}")
    if problems:
        return None, problems

    def step(item: dict) -> Step:
        return Step(text=Text.from_data(item), code=item.get("code"))

    record = Record(
        id=data["id"],
        source=doc.label,
        category=categories[data["category"]],
        title=Text.from_data(data["title"]),
        quick_fix=Text.from_data(data["quick_fix"]),
        symptoms=tuple(Symptom(Text.from_data(s), verbatim=isinstance(s, str)) for s in data["symptoms"]),
        steps=tuple(step(s) for s in data["steps"]),
        tags=tuple(tags[t] for t in data["tags"]),
        cause=Text.from_data(data["cause"]) if "cause" in data else None,
        environment=dict(data.get("environment", {})),
        verification=step(data["verification"]) if "verification" in data else None,
        references=tuple(Reference(r["title"], r["url"]) for r in data.get("references", [])),
        related=tuple(data.get("related", [])),
        last_verified=data.get("last_verified"),
        aliases=tuple(data.get("aliases", [])),
        signatures=tuple(signatures),
    )
    return record, []


def _check_links(records: list[Record], documents: dict[str, YamlDocument]) -> list[Problem]:
    """Rules across records: every URL is claimed once, every `related` id exists."""
    problems = []

    def problem(record: Record, path: tuple, message: str) -> None:
        problems.append(Problem(record.source, field_name(path), message, *documents[record.source].position(path)))

    # ids claim their URLs first, so a clash is reported at the alias that takes an id's URL
    owners: dict[str, Record] = {}
    by_source = sorted(records, key=lambda r: r.source)
    claims = [(r, r.id, ("id",)) for r in by_source]
    claims += [(r, alias, ("aliases", i)) for r in by_source for i, alias in enumerate(r.aliases)]
    for record, slug, path in claims:
        what = "id" if path == ("id",) else "alias"
        if what == "alias" and slug == record.id:
            problem(record, path, f"alias {slug!r} is the entry's own id; an alias is a former id")
        elif slug in owners and owners[slug] is not record:
            problem(record, path, f"{what} {slug!r} is already used by {owners[slug].source}; two entries cannot share a URL")
        elif slug in RESERVED_IDS and what == "alias":
            problem(record, path, f"alias {slug!r} is reserved for a site page")
        owners.setdefault(slug, record)
    ids = {r.id for r in records}
    for record in records:
        for index, related in enumerate(record.related):
            if related == record.id:
                problem(record, ("related", index), "an entry cannot be related to itself")
            elif related not in ids:
                close = difflib.get_close_matches(related, sorted(ids), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problem(record, ("related", index), f"no entry has id {related!r}{hint}")
    return problems
