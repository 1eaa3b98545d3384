"""`pitfalls similar FILE`: existing entries that are probably the same pitfall (records/duplicates.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import existing_file
from ..records.duplicates import THRESHOLD, existing_entries, fingerprint, matches, source_label
from ..records.load import read_yaml
from ..records.schema import schema_problems
from ..records.validate import ContentError, inspect_content
from ..settings import CONTENT_DIR


def register(commands) -> None:
    parser = commands.add_parser("similar", help="查找可能重复的条目 / name existing entries that are probably the same pitfall as FILE",
                                 description="列出与 FILE 可能是同一个坑的已有条目 / name existing entries that are "
                                             "probably the same pitfall as FILE (its error message contains theirs or "
                                             "matches their signatures, or jieba token overlap of title and symptoms "
                                             f"≥ {THRESHOLD}).")
    parser.add_argument("file", type=Path, metavar="FILE", help="a record, e.g. a draft made with `new`")
    parser.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="token overlap to report (default: %(default)s)")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    existing_file(args.file, "FILE", "name a record file, such as a draft made with `new`")  # before the content: cheaper
    doc, problems = read_yaml(args.file, str(args.file))
    if doc is None:
        raise ContentError(problems)
    if not isinstance(doc.data, dict):  # a draft may lack fields, but a list or a line of text is no record at all
        raise ContentError([problem for problem in schema_problems(doc, "record") if not problem.field])
    checked = inspect_content(args.content)
    cutter = checked.segmenter()
    draft = fingerprint(source_label(args.file, checked.documents), doc.data, cutter)
    found = matches(draft, existing_entries(checked, cutter), args.threshold)
    for match in found:
        print(match.describe())
    print(f"{len(found)} similar entr{'y' if len(found) == 1 else 'ies'} / 相似条目 {len(found)} 条", file=sys.stderr)
    return 0

