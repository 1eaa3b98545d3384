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

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
CORPUS = Path(__file__).resolve().parent / "corpus"
INDEPENDENT = Path(__file__).resolve().parent / "corpus_independent"
"""78 more neighbours of the seed entries, written by other sessions that saw only the seed entries and the record
format (not this corpus, the engine or the query sets): what the ranking was never tuned on."""
INDEPENDENT_2 = Path(__file__).resolve().parent / "corpus_independent_2"
"""60 more, written the same way (2026-12-05) by seven other sessions that also saw INDEPENDENT's titles, to write
other pitfalls: with INDEPENDENT, a wiki of 150 entries nobody tuned on."""
INDEPENDENT_3 = Path(__file__).resolve().parent / "corpus_independent_3"
"""60 more, written the same way (2026-12-05) by six other sessions that saw the titles of both rounds before: with
them, a wiki of 210 entries nobody tuned on."""


def assemble(out: Path, keep: frozenset[str] | None = None, corpora: tuple[Path, ...] = (CORPUS,), keywords: bool = True
             ) -> Path:
    """Write the corpus as a content folder at `out` (created, or emptied first) and return it. `keep`: the corpus
    entries to write (all when None), as a smaller wiki would have them; the seed entries are always written, and a
    `related` id of an entry left out is dropped. `corpora`: the folders of entries (and tags) beside the seed's.
    Without `keywords`, the entries as they were written before they had any (docs/SEARCH-LOG.md, "Keywords")."""
    if out.exists():
        shutil.rmtree(out)
    (out / "entries").mkdir(parents=True)
    for registry in CONTENT.glob("*.yml"):
        shutil.copy2(registry, out / registry.name)
    tags = (CONTENT / "tags.yml").read_text(encoding="utf-8").rstrip("\n") + "\n"
    extra = [line for corpus in corpora if (corpus / "tags.yml").exists()
             for line in (corpus / "tags.yml").read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    (out / "tags.yml").write_text(tags + "".join(f"{line}\n" for line in extra), encoding="utf-8")
    records = sorted((record for corpus in corpora for record in (corpus / "entries").glob("*.yml")), key=lambda r: r.name)
    if len({record.name for record in records}) < len(records):
        raise SystemExit(f"corpus: two of {', '.join(map(str, corpora))} have an entry of the same id")
    written = sorted((CONTENT / "entries").glob("*.yml")) + [r for r in records if keep is None or r.stem in keep]
    left_out = {record.stem for record in records} - {record.stem for record in written}
    for record in written:
        lines = record.read_text(encoding="utf-8").splitlines(keepends=True)
        if not keywords and "keywords:\n" in lines:
            # every record writes its keywords as a block, `keywords:` then its indented languages
            start = lines.index("keywords:\n")
            end = next((n for n in range(start + 1, len(lines)) if not lines[n].startswith(" ")), len(lines))
            del lines[start:end]
        for n, line in enumerate(lines):
            # every record names its related entries on one line, `related: [a, b]`
            if line.startswith("related:") and left_out:
                related = [id_ for id_ in yaml.safe_load(line)["related"] if id_ not in left_out]
                lines[n] = f"related: [{', '.join(related)}]\n" if related else ""
        (out / "entries" / record.name).write_text("".join(lines), encoding="utf-8")
    return out


def corpus_ids() -> list[str]:
    """The ids of the corpus entries (not the seed's), in file order."""
    return sorted(record.stem for record in (CORPUS / "entries").glob("*.yml"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the content folder to write")
    assemble(parser.parse_args().out)


if __name__ == "__main__":
    main()
