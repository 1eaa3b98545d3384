"""Every class of bad input is refused with one clear message (file, field, line), a non-zero
exit, no traceback and no partial site. One fixture file per class in tests/fixtures/bad/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pitfalls.commands.build import build_site
from pitfalls.records.validate import ContentError, check_content

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"
BAD = Path(__file__).parent / "fixtures" / "bad"
RECORD_FIELDS = ", ".join(json.loads((ROOT / "pitfalls" / "record.schema.json").read_text(encoding="utf-8"))["properties"])
SLUG_RULE = "lowercase ASCII letters, digits and single hyphens"

EXPECTED = {
    "syntax-error.yml": "3:1: (file): YAML syntax error: while parsing a flow sequence did not find expected ',' or ']' (the construct opened on line 2)",
    "tab-indent.yml": "3:1: (file): tab used for indentation; use spaces",
    "duplicate-key.yml": "3:1: category: duplicate key 'category'",
    "wrong-type.yml": "12:7: tags: must be a list, not text",
    "missing-field.yml": "1:1: (file): 'category' is required",
    "empty-field.yml": "4:7: title.zh: must not be empty",
    "unknown-field.yml": f"13:1: sypmtoms: unknown field 'sypmtoms' (did you mean 'symptoms'?); allowed: {RECORD_FIELDS}",
    "alias-takes-id.yml": "13:11: aliases[0]: alias 'gpu-oom' is already used by content/entries/gpu-oom.yml; two entries cannot share a URL",
    "id-mismatch.yml": "1:5: id: id 'docker-gpu' differs from the file name 'id-mismatch.yml'; they must match",
    "unsafe-id.yml": f"1:5: id: '../Unsafe ID' is not a valid id: {SLUG_RULE} (e.g. 'unsafe-id')",
    "Upper Case.yml": f"1:1: (file): 'Upper Case' is not a valid file name: {SLUG_RULE} (e.g. 'upper-case'); the file name is the entry's URL",
    "dotted.name.yml": f"1:1: (file): 'dotted.name' is not a valid file name: {SLUG_RULE} (e.g. 'dotted-name'); the file name is the entry's URL",
    "显存.yml": f"1:1: (file): '显存' is not a valid file name: {SLUG_RULE} (e.g. 'cuda-out-of-memory'); the file name is the entry's URL",
    "record.yaml": "1:1: (file): record files end in .yml",
    "not-utf8.yml": "4:1: (file): not UTF-8 text (byte 0xc8 at offset 47); save the file as UTF-8",
    "python-tag.yml": "1:5: id: YAML tag !!python/object/apply:os.system is not allowed: content is plain text, lists and mappings",
    "billion-laughs.yml": "1:4: (file): YAML anchors and aliases (&, *) are not allowed in content",
    "deep-nesting.yml": "2:27: (file): nested more than 20 levels deep",
    "oversized-field.yml": "14:7: cause.en: is 2001 characters long; the limit is 2000",
    "two-documents.yml": "14:1: (file): 2 YAML documents in one file; a record file holds exactly one",
    "empty.yml": "1:1: (file): empty file",
    "only-comments.yml": "1:1: (file): empty file (nothing but comments)",
    "binary.yml": "1:1: (file): binary file (contains NUL bytes); records are UTF-8 text",
    "control-character.yml": "13:13: cause.en: text contains the invisible character U+202E; remove it",
}


def content_with(tmp_path: Path, *fixtures: Path) -> Path:
    """The tiny fixture content with `fixtures` added to its entries."""
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    for fixture in fixtures:
        shutil.copyfile(fixture, content / "entries" / fixture.name)
    return content


def test_every_fixture_has_an_expected_message():
    assert sorted(p.name for p in BAD.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file_gets_exactly_one_located_message(tmp_path, name):
    content = content_with(tmp_path, BAD / name)
    base, problems = check_content(content)
    assert base is None
    assert [str(p) for p in problems] == [f"content/entries/{name}:{EXPECTED[name]}"]
    assert (problems[0].field == "") == (": (file): " in EXPECTED[name])  # a problem of the whole file names no field


def test_billion_laughs_is_refused_before_anything_is_built_from_it(tmp_path, monkeypatch):
    """Expanded, the file would be 9**9 items: it is refused while its events are read, before PyYAML
    composes a node tree (where aliases would be expanded)."""
    content = content_with(tmp_path, BAD / "billion-laughs.yml")
    composed = []
    original = yaml.compose_all
    monkeypatch.setattr(yaml, "compose_all", lambda text, **kwargs: composed.append(text) or original(text, **kwargs))
    _, problems = check_content(content)
    assert [str(p) for p in problems if "billion" in p.file] == [f"content/entries/billion-laughs.yml:{EXPECTED['billion-laughs.yml']}"]
    assert composed and not [text for text in composed if "&a [lol" in text]  # other files were composed; never this one


def test_oversized_file(tmp_path):
    content = content_with(tmp_path)
    (content / "entries" / "huge.yml").write_text("id: huge\n#" + "x" * 256 * 1024 + "\n", encoding="utf-8")  # 256 KiB: docs/CONTENT.md
    _, problems = check_content(content)
    assert [str(p) for p in problems] == ["content/entries/huge.yml:1:1: (file): file is 262155 bytes; the limit is 262144"]


def test_symlinks_and_folders_in_entries_are_refused(tmp_path):
    content = content_with(tmp_path)
    (content / "entries" / "linked.yml").symlink_to("/etc/passwd")
    (content / "entries" / "training").mkdir()
    _, problems = check_content(content)
    assert [str(p) for p in problems] == [
        "content/entries/linked.yml:1:1: (file): symbolic links are not allowed; put the record file itself here",
        "content/entries/training:1:1: (file): folders inside entries/ are not read; put record files directly in entries/",
    ]
    assert [p.field for p in problems] == ["", ""]


@pytest.mark.parametrize("kind", ["file", "dangling link"])
def test_an_entries_that_is_no_folder_is_refused(tmp_path, kind):
    content = content_with(tmp_path)
    shutil.rmtree(content / "entries")
    if kind == "file":
        (content / "entries").write_text("gpu-oom.yml\n", encoding="utf-8")
    else:
        (content / "entries").symlink_to(tmp_path / "moved-away")
    _, problems = check_content(content)
    assert [str(p) for p in problems] == ["content/entries:1:1: (file): entries must be a folder that holds the record files"]
    assert problems[0].field == ""  # about the file, as every problem without a field is


def test_a_vocabulary_that_is_a_link_to_nothing_is_an_error_not_no_vocabulary(tmp_path):
    content = content_with(tmp_path)
    (content / "synonyms.yml").unlink(missing_ok=True)
    (content / "synonyms.yml").symlink_to(tmp_path / "moved-away.yml")
    _, problems = check_content(content)
    assert [str(p) for p in problems] == ["content/synonyms.yml:1:1: (file): cannot read file: No such file or directory"]


def test_a_content_folder_without_entries_is_a_wiki_of_none_yet(tmp_path):
    content = content_with(tmp_path)
    shutil.rmtree(content / "entries")
    base, problems = check_content(content)
    assert problems == [] and base.records == ()


def test_bom_and_crlf_are_fine(tmp_path):
    content = content_with(tmp_path)
    path = content / "entries" / "gpu-oom.yml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    base, problems = check_content(content)
    assert problems == [] and base.record("gpu-oom").steps[1].code == "nvidia-smi --query-gpu=memory.used --format=csv"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pitfalls", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_check_command_reports_every_bad_file_without_traceback(tmp_path):
    content = content_with(tmp_path, *sorted(BAD.iterdir()))
    result = run_cli("check", "--content", str(content))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    for name, message in EXPECTED.items():
        assert f"content/entries/{name}:{message}\n" in result.stdout + result.stderr


@pytest.mark.site
def test_failed_build_leaves_the_existing_site_untouched(tmp_path):
    content = content_with(tmp_path, BAD / "python-tag.yml")
    site_dir = tmp_path / "site"
    (site_dir / "zh").mkdir(parents=True)
    (site_dir / "index.html").write_text("the site as it was", encoding="utf-8")
    (site_dir / "zh" / "index.html").write_text("the site as it was", encoding="utf-8")
    before = {p: p.stat().st_mtime_ns for p in site_dir.rglob("*")}

    with pytest.raises(ContentError, match="python-tag.yml:1:5: id: YAML tag"):
        build_site(site_dir, content=content)
    result = run_cli("build", "--content", str(content), "--site-dir", str(site_dir))

    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert result.stderr == ("build: content/entries/python-tag.yml:1:5: id: YAML tag !!python/object/apply:os.system is "
                             "not allowed: content is plain text, lists and mappings\n")
    assert {p: p.stat().st_mtime_ns for p in site_dir.rglob("*")} == before
    assert (site_dir / "zh" / "index.html").read_text(encoding="utf-8") == "the site as it was"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site"]  # no staging folder left behind
