"""Stage 1: read YAML files into plain data, remembering where each value stands.

Only a safe subset of YAML is accepted: one document per file, no tags that construct
objects, no anchors or aliases (they buy nothing in a record and open the door to alias
bombs), no duplicate keys, no tabs for indentation. Every refusal is a `Problem` that names
the file, the line and what is wrong; nothing here raises past `read_yaml`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

# Documented limits (docs/CONTENT.md): big enough for any honest record, small enough that a
# hostile file cannot slow the build down.
MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 20
"""Deepest nesting of mappings and lists; a record needs 4. PyYAML's scanner slows down with the
square of the nesting depth and its composer recurses, so depth is refused while parsing."""
FORBIDDEN_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters, and the bidirectional overrides that can make a command read differently
from what it does ("Trojan Source"). Ordinary right-to-left text needs neither."""

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str": str,
    "tag:yaml.org,2002:int": None,
    "tag:yaml.org,2002:float": None,
    "tag:yaml.org,2002:bool": None,
    "tag:yaml.org,2002:null": None,
    "tag:yaml.org,2002:timestamp": str,  # dates stay text; the schema checks their shape
}
_SCALARS = yaml.constructor.SafeConstructor()
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml when PyYAML has it (the wheels do): about six times faster than the pure-Python parser."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the content, located as precisely as we can."""

    file: str
    """Path of the file, relative to the project root where possible."""
    field: str
    """Path of the field inside the record as `field_name` writes it (`steps[2].zh`), or "" for the whole file."""
    message: str
    """What is wrong, in words a contributor can act on."""
    line: int = 1
    """1-based line of the value in the file."""
    column: int = 1
    """1-based column of the value in the file."""
    severity: str = "error"
    """"error" fails the build; "warning" is reported only."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        return f"{where}: {self.field or '(file)'}: {self.message}"


@dataclass
class YamlDocument:
    """The plain data of one YAML file, with the position of every value in it."""

    path: Path
    """Where the file is."""
    label: str
    """How messages name the file."""
    data: object = None
    """dicts, lists, str, int, float, bool and None only."""
    positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    """Path tuple such as ("steps", 2, "zh") → (line, column), 1-based."""
    key_positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    """Path tuple of a mapping entry → (line, column) of its key, for messages about the key itself."""

    def position(self, path: tuple) -> tuple[int, int]:
        """Line and column of the value at `path`, or of its nearest located parent."""
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (1, 1))


class YamlError(Exception):
    """A file that cannot be turned into plain data."""

    def __init__(self, message: str, line: int = 1, column: int = 1, path: tuple = ()):
        super().__init__(message)
        self.message, self.line, self.column, self.field = message, line, column, field_name(path)


def field_name(path: tuple) -> str:
    """How messages name the value at `path`: `steps[2].zh`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def read_yaml(path: Path, label: str, raw: bytes | None = None) -> tuple[YamlDocument | None, list[Problem]]:
    """Read one YAML file (or `raw`, the bytes it would hold). Returns the document, or None and the
    problems that stopped it."""
    doc = YamlDocument(path=path, label=label)
    try:
        raw = path.read_bytes() if raw is None else raw
        if len(raw) > MAX_FILE_BYTES:
            raise YamlError(f"file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise YamlError("UTF-16 text; save the file as UTF-8")
        if b"\x00" in raw:
            raise YamlError("binary file (contains NUL bytes); records are UTF-8 text")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1
            raise YamlError(f"not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start}); save the file as UTF-8",
                                line) from None
        doc.data = _parse(text, doc.positions, doc.key_positions)
    except YamlError as err:
        return None, [Problem(label, err.field, err.message, err.line, err.column)]
    except IsADirectoryError:
        return None, [Problem(label, "", "is a folder, not a file; name a record file")]
    except OSError as err:
        return None, [Problem(label, "", f"cannot read file: {err.strerror}")]
    return doc, []


def _parse(text: str, positions: dict, key_positions: dict) -> object:
    if not text.strip():
        raise YamlError("empty file")
    for number, line in enumerate(text.splitlines(), 1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent:
            raise YamlError("tab used for indentation; use spaces", number, indent.index("\t") + 1)
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_LOADER):
            if getattr(event, "anchor", None) is not None:
                raise YamlError("YAML anchors and aliases (&, *) are not allowed in content", *_one_based(event.start_mark))
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlError(f"nested more than {MAX_DEPTH} levels deep", *_one_based(event.start_mark))
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        nodes = list(yaml.compose_all(text, Loader=_LOADER))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        what = " ".join(str(part) for part in (err.context, err.problem) if part)
        if err.context_mark and mark and err.context_mark.line != mark.line:
            what += f" (the construct opened on line {err.context_mark.line + 1})"
        raise YamlError(f"YAML syntax error: {what}", *(_one_based(mark) if mark else (1, 1))) from None
    except yaml.YAMLError as err:
        raise YamlError(f"YAML error: {err}") from None
    if not nodes:
        raise YamlError("empty file (nothing but comments)")
    if len(nodes) != 1:
        line = nodes[1].start_mark.line + 1 if len(nodes) > 1 else 1
        raise YamlError(f"{len(nodes)} YAML documents in one file; a record file holds exactly one", line)
    return _plain(nodes[0], (), positions, key_positions)


def _one_based(mark) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


def _tag_error(node: yaml.Node, path: tuple) -> YamlError:
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    return YamlError(f"YAML tag {tag} is not allowed: content is plain text, lists and mappings",
                     *_one_based(node.start_mark), path)


def _plain(node: yaml.Node, path: tuple, positions: dict, key_positions: dict) -> object:
    """Turn a composed node into plain data, refusing anything but safe, plain YAML."""
    positions[path] = _one_based(node.start_mark)
    if isinstance(node, yaml.MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            raise _tag_error(node, path)
        result: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError("YAML merge keys (<<) are not allowed in content", *_one_based(key_node.start_mark))
            key = _plain(key_node, path + ("<key>",), positions, key_positions)
            if not isinstance(key, str):
                raise YamlError(f"key {key!r} is not text", *_one_based(key_node.start_mark), path)
            if key in result:
                raise YamlError(f"duplicate key {key!r}", *_one_based(key_node.start_mark), path + (key,))
            key_positions[path + (key,)] = _one_based(key_node.start_mark)
            result[key] = _plain(value_node, path + (key,), positions, key_positions)
        positions.pop(path + ("<key>",), None)
        return result
    if isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise _tag_error(node, path)
        return [_plain(item, path + (index,), positions, key_positions) for index, item in enumerate(node.value)]
    if node.tag not in _PLAIN_TAGS:
        raise _tag_error(node, path)
    if _PLAIN_TAGS[node.tag] is str:
        if found := FORBIDDEN_CHARACTERS.search(node.value):
            raise YamlError(f"text contains the invisible character U+{ord(found.group()):04X}; remove it", *positions[path], path)
        return node.value
    return _SCALARS.construct_object(node)


# --- writing: the one way the project writes a text into YAML (`new`, `from-issue`, the registries) ---


def yaml_scalar(text: str) -> str:
    """`text` as a one-line YAML scalar that `read_yaml` reads back as exactly `text`: plain when it reads back
    so (`zh: 显存不足`, `last_verified: 2026-11-30`), else double-quoted (`quoted_scalar`). Nothing in `text`
    can become YAML structure: a plain scalar is used only when it reads back as this one value."""
    if "\n" not in text and text == text.strip():
        doc, _ = read_yaml(Path("scalar.yml"), "scalar", f"x: {text}\n".encode("utf-8", "surrogatepass"))
        if doc is not None and doc.data == {"x": text}:
            return text
    return quoted_scalar(text)


def quoted_scalar(text: str) -> str:
    """`text` as a YAML double-quoted scalar: a JSON string, with the characters that YAML (but not JSON) reads
    as line breaks escaped too."""
    return (json.dumps(text, ensure_ascii=False)
            .replace("\x85", "\\x85").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
