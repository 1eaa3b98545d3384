"""The 12 seed entries are transcribed completely: the Chinese text is the seed's, to the character."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT
from pitfalls.records.validate import load_knowledge_base

SEED = ROOT.parent / "shared" / "seed" / "000_23f2739b6c016a4c.txt"
SEED_IDS = ["cuda-pytorch-mismatch", "cuda-out-of-memory", "loss-nan", "onnx-export", "dataloader-workers-hang",
            "rag-hallucination", "ssh-disconnect", "docker-gpu", "slow-convergence", "git-merge-lost-code",
            "python-dependency-conflict", "ssh-port-blocked"]


def parse_seed(text: str) -> list[dict]:
    """The seed card's entries: category, title, quick fix, symptoms, steps, tags."""
    entries = []
    lines = [line.rstrip("\n") for line in text.splitlines()]
    for i, line in enumerate(lines):
        if re.fullmatch(r"\[.+\]", line.strip()):
            entries.append({"category": line.strip()[1:-1], "title": lines[i + 2].strip(),
                            "symptoms": [], "steps": [], "tags": []})
        elif not entries:
            continue
        elif line.strip() == "// 快速修复":
            entries[-1]["quick_fix"] = lines[i + 1].strip()
        elif line.startswith("  • ×"):
            entries[-1]["symptoms"].append(line[len("  • ×"):])
        elif re.match(r"  • \d\d", line):
            entries[-1]["steps"].append(line[len("  • 01"):])
        elif line.startswith("#"):
            entries[-1]["tags"] = line[1:].split("#")
    return entries


@pytest.fixture(scope="module")
def seed() -> list[dict]:
    if not SEED.exists():
        pytest.skip(f"seed card not found at {SEED} (../shared beside the clone)")
    return parse_seed(SEED.read_text(encoding="utf-8"))


def without_backticks(text: str) -> str:
    return text.replace("`", "")


def test_every_field_of_every_seed_entry_is_transcribed(seed):
    base = load_knowledge_base(ROOT / "content")
    assert len(seed) == 12 == len(base.records)
    for entry_id, entry in zip(SEED_IDS, seed, strict=True):
        record = base.record(entry_id)
        assert record.category.zh == entry["category"]
        assert record.title.zh == entry["title"]
        assert without_backticks(record.quick_fix.zh) == entry["quick_fix"]
        assert [s.text.zh for s in record.symptoms] == entry["symptoms"]
        assert [without_backticks(s.text.zh) + (s.code or "") for s in record.steps] == entry["steps"]
        assert [t.zh for t in record.tags] == entry["tags"]


def test_every_seed_entry_is_translated():
    base = load_knowledge_base(ROOT / "content")
    for record in base.records:
        assert record.translated("en"), record.id
        for step in record.steps:
            # commands stay verbatim: whatever is inline code in Chinese is inline code in English
            assert sorted(re.findall(r"`([^`]+)`", step.text.zh)) == sorted(re.findall(r"`([^`]+)`", step.text.en)), (record.id, step)
