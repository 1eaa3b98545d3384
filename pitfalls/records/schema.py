"""Reading a file against its JSON Schema (pitfalls/*.schema.json): one readable problem per error,
at the line and column of the value. The registries, the vocabulary and the records all go through here."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from pathlib import Path

import jsonschema

from ..settings import ROOT, SCHEMA_DIR
from .load import Problem, YamlDocument, field_name, read_yaml


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


def file_label(path: Path, root: Path) -> str:
    """How messages and edit links name a file: from the project root when it lies inside. The folder is resolved,
    not the file: a link is named as itself, not as what it points to (or fails to)."""
    path = path.parent.resolve() / path.name
    for base in (ROOT, root.resolve()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return path.as_posix()


def read_valid(path: Path, root: Path, schema: str, raw: bytes | None = None) -> tuple[YamlDocument | None, list[Problem]]:
    """Read one file (or `raw`, the bytes it holds) and check it against its schema."""
    doc, problems = read_yaml(path, file_label(path, root), raw)
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


SLUG = re.compile(json.loads((SCHEMA_DIR / "record.schema.json").read_text(encoding="utf-8"))["$defs"]["slug"]["pattern"])
"""The shape of an id, an alias and a file name: the record schema's one slug rule."""


def slug_problem(value: str, what: str) -> str:
    """Why `value` is not a safe URL slug, with a suggestion when one can be made from it."""
    suggestion = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    example = suggestion if SLUG.match(suggestion) else "cuda-out-of-memory"
    return f"{value!r} is not a valid {what}: lowercase ASCII letters, digits and single hyphens (e.g. {example!r})"


def _message(error: jsonschema.ValidationError) -> str:
    schema, value = error.schema, error.instance
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    if error.validator in ("minLength", "pattern") and value == "" or error.validator == "pattern" and isinstance(value, str) and not value.strip():
        return "must not be empty"
    if error.validator == "pattern" and schema["pattern"] == SLUG.pattern:
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


