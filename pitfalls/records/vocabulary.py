"""The search vocabulary of content/synonyms.yml: words kept whole, query filler, synonym groups.

Read and checked like the registries (safe YAML subset, JSON Schema, one message per problem).
The file is optional: content without it searches without synonyms and filler words.
"""

from __future__ import annotations

import os
from pathlib import Path

from .load import Problem
from .model import Vocabulary
from .schema import file_label, read_valid

FILE_NAME = "synonyms.yml"


def read_vocabulary(content_dir: Path) -> tuple[Vocabulary | None, list[Problem]]:
    """The vocabulary of `content_dir` (empty when the file is absent), or None and its problems."""
    path = content_dir / FILE_NAME
    if not os.path.lexists(path):  # a link to nothing is read, and fails: the search would silently lose its vocabulary
        return Vocabulary(), []
    doc, problems = read_valid(path, content_dir.parent, "synonyms")
    if doc is None:
        return None, problems
    data = doc.data
    seen: dict[str, int] = {}
    for group_index, group in enumerate(data.get("synonyms", [])):
        for item_index, phrase in enumerate(group):
            key = " ".join(phrase.lower().split())
            if key in seen and seen[key] != group_index:
                line, column = doc.position(("synonyms", group_index, item_index))
                problems.append(Problem(file_label(path, content_dir.parent), f"synonyms[{group_index}][{item_index}]",
                                        f"{phrase!r} is already in group {seen[key]}; merge the two groups",
                                        line, column))
            seen[key] = group_index
    if problems:
        return None, problems
    return Vocabulary(words=tuple(data.get("words", [])), stopwords=tuple(data.get("stopwords", [])),
                      synonyms=tuple(tuple(group) for group in data.get("synonyms", []))), []
