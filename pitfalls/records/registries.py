"""The category and tag registries (content/categories.yml, content/tags.yml): a stable key → a label per language.

Every record names keys of both, so one typo in a registry would make every record's keys
"unknown". A registry with errors is therefore read as far as it goes: a record naming a key the
file declares (or any key, when the file cannot be read at all) is not blamed for the file's
errors; the registry's own errors say what to fix. `pitfalls new` adds keys here (`text_with_entries`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from .load import Problem, read_yaml, yaml_scalar
from .model import Label
from .schema import file_label, schema_problems

REGISTRY_NAMES = {"categories": "category", "tags": "tag"}
"""The registries, as content/<name>.yml → what one of their keys is called."""
_TOP_LEVEL_KEY = re.compile(r"^([^\s#:][^:]*):[ \t]*(?:#.*)?$")
"""A line that opens a registry entry: `key:` at the start of the line."""


@dataclass(frozen=True)
class Registry:
    """One registry file, as far as it could be read."""

    name: str
    """"categories" or "tags"."""
    file: str
    """The file, as messages name it."""
    labels: dict[str, Label]
    """Every key with its labels, in file order; empty when the file has errors."""
    declared: frozenset[str] | None
    """The keys the file declares, even when some of them have errors; None when it is not
    readable as a mapping at all (then any key may be one of its own)."""
    broken: bool
    """Whether the file has errors."""

    @property
    def item(self) -> str:
        """What one key is called: "category" or "tag"."""
        return REGISTRY_NAMES[self.name]

    def lookup(self, key: str) -> Label | None:
        """The label of `key`: a stand-in (the key itself) when the file has errors but may declare
        the key, so that the record can still be checked for everything else; None when unknown."""
        if key in self.labels:
            return self.labels[key]
        return _stand_in(key) if self.leans_on(key) else None

    def keys(self) -> list[str]:
        """The keys the file declares, as far as it could be read (for "known:" lists and "did you mean")."""
        return list(self.labels) or sorted(self.declared or ())

    def with_keys(self, keys: list[str]) -> Registry:
        """This registry as it will be once `keys` are added (with stand-in labels)."""
        return replace(self, labels={**self.labels, **{key: _stand_in(key) for key in keys}})

    def leans_on(self, key: str) -> bool:
        """Whether `key` can only be checked once this file's errors are fixed."""
        return self.broken and key not in self.labels and (self.declared is None or key in self.declared)


def _stand_in(key: str) -> Label:
    return Label(key=key, zh=key, en=key)


def read_registry(content_dir: Path, name: str) -> tuple[Registry, list[Problem]]:
    """content/<name>.yml and its problems."""
    path = content_dir / f"{name}.yml"
    label = file_label(path, content_dir.parent)
    doc, problems = read_yaml(path, label)
    if doc is not None:
        problems = schema_problems(doc, "registry")
    if doc is not None and not problems:
        labels = {key: Label(key=key, zh=value["zh"], en=value["en"]) for key, value in doc.data.items()}
        return Registry(name, label, labels, frozenset(labels), broken=False), []
    declared = frozenset(doc.data) if doc is not None and isinstance(doc.data, dict) else None
    return Registry(name, label, {}, declared, broken=True), problems


def entry_yaml(label: Label) -> str:
    """The lines that add `label` to a registry file."""
    return f"{label.key}:\n  zh: {yaml_scalar(label.zh)}\n  en: {yaml_scalar(label.en)}\n"


def with_entry(text: str, label: Label) -> str:
    """Registry file `text` with `label` added: in its alphabetical place when the keys are in alphabetical
    order (tags.yml), else at the end (the order of categories.yml is the site's navigation order)."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    starts = [(index, found.group(1).strip()) for index, line in enumerate(lines) if (found := _TOP_LEVEL_KEY.match(line))]
    keys = [name for _, name in starts]
    position = len(lines)
    if keys == sorted(keys):
        position = next((index for index, name in starts if name > label.key), position)
    return "".join(lines[:position]) + entry_yaml(label) + "".join(lines[position:])


def text_with_entries(content_dir: Path, name: str, labels: list[Label]) -> str:
    """The text content/<name>.yml would have with `labels` added; ValueError when it would not be valid."""
    path = content_dir / f"{name}.yml"
    text = path.read_text(encoding="utf-8")
    for label in labels:
        text = with_entry(text, label)
    doc, problems = read_yaml(path, file_label(path, content_dir.parent), text.encode("utf-8"))
    if doc is not None:
        problems = schema_problems(doc, "registry")
    if problems:
        raise ValueError("; ".join(f"{p.field or p.file}: {p.message}" for p in problems))
    return text
