"""Stage 2: check every file against its JSON Schema and the rules that span records,
then build the typed model. All problems of all files are collected before anything fails."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..errors import PitfallsError, existing_folder
from ..text import Segmenter
from .load import Problem, YamlDocument, field_name, read_yaml
from .model import KnowledgeBase, Record, Reference, Step, Symptom, Text, Vocabulary, content_segmenter
from .registries import REGISTRY_NAMES, Registry, read_registry
from .schema import SLUG, file_label, read_valid, schema_problems, slug_problem
from .signatures import compile_signature
from .vocabulary import FILE_NAME as VOCABULARY_FILE
from .vocabulary import read_vocabulary

CONTENT_FOLDER_TODO = "give the folder that holds entries/, categories.yml and tags.yml (default: content/)"
"""What to do about a --content that is not a folder."""
RESERVED_IDS = frozenset({"assets", "categories", "recent", "search", "tags", "translations", "404"})
"""Ids that would collide with the site's own pages."""


class ContentError(PitfallsError):
    """The content has errors; `problems` says which, where, and `notes` what was not checked because of them.
    One error is one line, `file:line:column: field: message`; more are a count, then a line each."""

    def __init__(self, problems: list[Problem], notes: tuple[str, ...] = ()):
        self.problems = problems
        lines = [*map(str, problems), *notes]
        super().__init__(lines[0] if len(lines) == 1 else f"the content has {len(problems)} error(s):\n" + "\n".join(lines))


class ReadCache:
    """Schema-checked record files, reused while a file's bytes stay the same: `serve` keeps one
    across rebuilds, so a save re-reads every file but parses and checks only the changed ones."""

    def __init__(self):
        self._files: dict[Path, tuple[bytes, tuple[YamlDocument | None, list[Problem]]]] = {}

    def read_valid(self, path: Path, root: Path, schema: str) -> tuple[YamlDocument | None, list[Problem]]:
        """schema.read_valid, from the cache when the file is unchanged."""
        try:
            raw = path.read_bytes()
        except OSError:
            return read_valid(path, root, schema)  # which reports why
        known = self._files.get(path)
        if known is None or known[0] != raw:
            known = self._files[path] = (raw, read_valid(path, root, schema, raw))
        return known[1]


def load_knowledge_base(content_dir: Path, cache: ReadCache | None = None) -> KnowledgeBase:
    """Read, validate and cross-check everything under `content_dir`; raise ContentError on any error."""
    result = inspect_content(content_dir, cache)
    errors = [p for p in result.problems if p.severity == "error"]
    if errors:
        raise ContentError(errors, tuple(result.notes().values()))
    return result.base


def check_content(content_dir: Path, cache: ReadCache | None = None) -> tuple[KnowledgeBase | None, list[Problem]]:
    """Everything `load_knowledge_base` checks, returned instead of raised."""
    result = inspect_content(content_dir, cache)
    return result.base, result.problems


@dataclass
class ContentCheck:
    """What checking the content found, with the parts `python -m pitfalls check` reports on."""

    base: KnowledgeBase | None
    """The knowledge base, or None when any error was found."""
    problems: list[Problem]
    """Every problem, in report order (`report_order`): the registries' first."""
    records: list[Record]
    """Every record that built, even when other files have errors."""
    documents: dict[str, YamlDocument]
    """The schema-valid record documents by file label, for positions and raw values."""
    vocabulary: Vocabulary | None
    """The search vocabulary, or None when content/synonyms.yml has errors."""
    content_dir: Path
    """The content folder that was checked."""
    categories: Registry
    """content/categories.yml, as far as it could be read."""
    tags: Registry
    """content/tags.yml, as far as it could be read."""
    unchecked: dict[str, list[str]]
    """A registry file with errors → the records whose keys of it could not be checked (their
    errors would only follow from the registry's)."""

    def segmenter(self) -> Segmenter:
        """The content's segmenter, as far as the content could be read."""
        return content_segmenter(self.vocabulary or Vocabulary(), (*self.categories.labels.values(), *self.tags.labels.values()))

    @cached_property
    def registry_files(self) -> tuple[str, ...]:
        """The files every record depends on or is searched with, as messages name them:
        content/categories.yml, content/tags.yml and content/synonyms.yml."""
        return self.categories.file, self.tags.file, file_label(self.content_dir / VOCABULARY_FILE, self.content_dir.parent)

    def report_order(self, problem: Problem) -> tuple:
        """Sort key of problems: the registries' first (the records' errors may follow from them), then by file and position."""
        return (problem.file not in self.registry_files, problem.file, problem.line, problem.column,
                problem.severity, problem.field)

    def notes(self) -> dict[str, str]:
        """Registry file with errors → one line saying what was not checked because of them."""
        return {registry.file: f"note: {registry.file} has errors, so the {registry.name} named by "
                               f"{len(self.unchecked[registry.file])} record(s) were not checked; fix it first, then check again"
                for registry in (self.categories, self.tags) if registry.file in self.unchecked}

    def draft_problems(self, path: Path, text: str) -> list[Problem]:
        """The errors a record file at `path` holding `text` would have among this content
        (nothing is written): every rule of the build that concerns that one file."""
        doc, problems = read_yaml(path, file_label(path, self.content_dir.parent), text.encode("utf-8"))
        if doc is None:
            return problems
        problems = schema_problems(doc, "record")
        if problems:
            return problems
        record, problems = _build_record(doc, self.categories, self.tags)
        if record is None:
            return problems
        others = [r for r in self.records if r.source != doc.label]
        documents = {**self.documents, doc.label: doc}
        return [p for p in _check_links([*others, record], documents, newcomer=record) if p.file == doc.label]


def inspect_content(content_dir: Path, cache: ReadCache | None = None) -> ContentCheck:
    """Read, validate and cross-check the content, keeping the documents and records for reporting.
    A content folder that is not there is a PitfallsError, not a content error: nothing could be checked."""
    existing_folder(content_dir, "--content", CONTENT_FOLDER_TODO)
    root = content_dir.parent
    read_record = cache.read_valid if cache else read_valid
    problems: list[Problem] = []
    documents: dict[str, YamlDocument] = {}
    registries: dict[str, Registry] = {}
    for name in REGISTRY_NAMES:
        registries[name], found = read_registry(content_dir, name)
        problems += found
    categories, tags = registries["categories"], registries["tags"]
    unchecked: dict[str, list[str]] = {}

    records: list[Record] = []
    entries = content_dir / "entries"
    if os.path.lexists(entries) and not entries.is_dir():  # a file, or a link to none: else read as a wiki of no entries
        problems.append(Problem(file_label(entries, root), "", "entries must be a folder that holds the record files"))
    for path in sorted(entries.glob("*")):
        if path.name.startswith("."):
            continue
        label = file_label(path, root)
        if path.is_symlink():
            problems.append(Problem(label, "", "symbolic links are not allowed; put the record file itself here"))
        elif path.is_dir():
            problems.append(Problem(label, "", "folders inside entries/ are not read; put record files directly in entries/"))
        elif path.suffix != ".yml":
            problems.append(Problem(label, "", "record files end in .yml"))
        elif not SLUG.match(path.stem):
            problems.append(Problem(label, "", slug_problem(path.stem, "file name") + "; the file name is the entry's URL"))
        else:
            doc, found = read_record(path, root, "record")
            problems += found
            if doc is not None:
                documents[doc.label] = doc
                for registry, keys in ((categories, [doc.data["category"]]), (tags, doc.data["tags"])):
                    if any(registry.leans_on(key) for key in keys):
                        unchecked.setdefault(registry.file, []).append(doc.label)
                record, found = _build_record(doc, categories, tags)
                problems += found
                if record is not None:
                    records.append(record)

    problems += _check_links(records, documents)
    vocabulary, found = read_vocabulary(content_dir)
    problems += found
    checked = ContentCheck(None, problems, records, documents, vocabulary, content_dir, categories, tags, unchecked)
    problems.sort(key=checked.report_order)
    if not any(p.severity == "error" for p in problems):
        checked.base = KnowledgeBase(
            records=tuple(sorted(records, key=lambda r: r.id)),
            categories=tuple(categories.labels.values()),
            tags=tuple(tags.labels.values()),
            vocabulary=vocabulary,
            content_dir=content_dir,
        )
    return checked


def _build_record(doc: YamlDocument, categories: Registry, tags: Registry) -> tuple[Record | None, list[Problem]]:
    """The typed record for a schema-valid document, or the registry/file-name problems that stop it.
    A key that only a registry's own errors keep from being checked gets a stand-in label."""
    data, problems = doc.data, []

    def problem(path: tuple, message: str) -> None:
        problems.append(Problem(doc.label, field_name(path), message, *doc.position(path)))

    if data["id"] != doc.path.stem:
        problem(("id",), f"id {data['id']!r} differs from the file name {doc.path.name!r}; they must match")
    if data["id"] in RESERVED_IDS:
        problem(("id",), f"id {data['id']!r} is reserved for a site page")
    category = categories.lookup(data["category"])
    if category is None:
        problem(("category",), f"unknown category {data['category']!r}{_did_you_mean(data['category'], categories)}; "
                               f"known: {', '.join(categories.keys())}; a new one goes in {categories.file} with a zh "
                               "and an en label (CONTRIBUTING.md)")
    for index, tag in enumerate(data["tags"]):
        if tags.lookup(tag) is None:
            problem(("tags", index), f"unknown tag {tag!r}{_did_you_mean(tag, tags)}; add it to {tags.file} with a zh "
                                     "and an en label (CONTRIBUTING.md), or use a known key")
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
        category=category,
        title=Text.from_data(data["title"]),
        quick_fix=Text.from_data(data["quick_fix"]),
        symptoms=tuple(Symptom(Text.from_data(s), verbatim=isinstance(s, str)) for s in data["symptoms"]),
        steps=tuple(step(s) for s in data["steps"]),
        tags=tuple(tags.lookup(t) for t in data["tags"]),
        cause=Text.from_data(data["cause"]) if "cause" in data else None,
        environment=dict(data.get("environment", {})),
        verification=step(data["verification"]) if "verification" in data else None,
        references=tuple(Reference(r["title"], r["url"]) for r in data.get("references", [])),
        related=tuple(data.get("related", [])),
        last_verified=data.get("last_verified"),
        aliases=tuple(data.get("aliases", [])),
        signatures=tuple(signatures),
        keywords={lang: tuple(words) for lang, words in data.get("keywords", {}).items()},
    )
    # a keyword is for the words the entry does not say: one it says adds nothing to search, and says less of the
    # entry than its title (docs/CONTENT.md)
    said = said_text(data) if record.keywords else ""
    for lang, words in record.keywords.items():
        for index, word in enumerate(words):
            if word.casefold() in said:
                problem(("keywords", lang, index), f"keyword {word!r} is already in the entry's text; keywords are "
                                                   "for the words readers type that the entry does not say")
    return (None, problems) if problems else (record, [])


def said_text(data: dict) -> str:
    """Every string of a record's mapping under the fields that hold its text (both languages, its code and its
    environment), case-folded: what a keyword must not repeat (`check` refuses one; `from-issue` leaves it out)."""
    def strings(value: object) -> list[str]:
        if isinstance(value, dict):
            return [text for item in value.values() for text in strings(item)]
        if isinstance(value, list):
            return [text for item in value for text in strings(item)]
        return [value] if isinstance(value, str) else []

    fields = ("title", "quick_fix", "symptoms", "steps", "cause", "verification", "environment")
    return "\n".join(strings([data.get(key) for key in fields])).casefold()


def _did_you_mean(key: str, registry: Registry) -> str:
    close = difflib.get_close_matches(key, registry.keys(), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_links(records: list[Record], documents: dict[str, YamlDocument], newcomer: Record | None = None) -> list[Problem]:
    """Rules across records: every URL is claimed once, every `related` id exists.
    A `newcomer` (a draft) claims its URLs after every other record, so a clash is reported at it."""
    problems = []

    def problem(record: Record, path: tuple, message: str) -> None:
        problems.append(Problem(record.source, field_name(path), message, *documents[record.source].position(path)))

    # ids claim their URLs first, so a clash is reported at the alias that takes an id's URL
    owners: dict[str, Record] = {}
    by_source = sorted((r for r in records if r is not newcomer), key=lambda r: r.source)
    claims = [(r, r.id, ("id",)) for r in by_source]
    claims += [(r, alias, ("aliases", i)) for r in by_source for i, alias in enumerate(r.aliases)]
    if newcomer is not None:
        claims += [(newcomer, newcomer.id, ("id",))]
        claims += [(newcomer, alias, ("aliases", i)) for i, alias in enumerate(newcomer.aliases)]
    for record, slug, path in claims:
        what = "id" if path == ("id",) else "alias"
        if what == "alias" and slug == record.id:
            problem(record, path, f"alias {slug!r} is the entry's own id; an alias is a former id")
        elif slug in owners and owners[slug] is not record:
            problem(record, path, f"{what} {slug!r} is already used by {owners[slug].source}; two entries cannot share a URL")
        elif slug in RESERVED_IDS and what == "alias":
            problem(record, path, f"alias {slug!r} is reserved for a site page")
        owners.setdefault(slug, record)
    # a record that did not build has its own error; naming it in `related` is not another one
    ids = {r.id for r in records} | {doc.data["id"] for doc in documents.values()}
    for record in records:
        for index, related in enumerate(record.related):
            if related == record.id:
                problem(record, ("related", index), "an entry cannot be related to itself")
            elif related not in ids:
                close = difflib.get_close_matches(related, sorted(ids), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problem(record, ("related", index), f"no entry has id {related!r}{hint}")
    return problems
