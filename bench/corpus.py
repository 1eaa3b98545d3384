"""The realistic benchmark corpus: the seed entries plus bench/corpus/entries/, real and distinct
pitfalls written for this project as near neighbours of the seed entries and of each other.

    .venv/bin/python -m bench.corpus OUT_DIR

Writes a complete content folder to OUT_DIR: content/'s registries and vocabulary, content/'s entries and
the corpus entries, with the corpus tags (bench/corpus/tags.yml) added to the tag registry. The result
passes `pitfalls check --content OUT_DIR`. Unlike bench/generate.py, whose recombined text measures
speed, this corpus measures search quality (tests/search_queries_corpus.yml).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
CORPUS = Path(__file__).resolve().parent / "corpus"


def assemble(out: Path) -> Path:
    """Write the corpus as a content folder at `out` (created, or emptied first) and return it."""
    if out.exists():
        shutil.rmtree(out)
    (out / "entries").mkdir(parents=True)
    for registry in CONTENT.glob("*.yml"):
        shutil.copy2(registry, out / registry.name)
    tags = (CONTENT / "tags.yml").read_text(encoding="utf-8").rstrip("\n") + "\n"
    extra = [line for line in (CORPUS / "tags.yml").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    (out / "tags.yml").write_text(tags + "\n".join(extra) + "\n", encoding="utf-8")
    for entries in (CONTENT / "entries", CORPUS / "entries"):
        for record in sorted(entries.glob("*.yml")):
            shutil.copy2(record, out / "entries" / record.name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the content folder to write")
    assemble(parser.parse_args().out)


if __name__ == "__main__":
    main()
