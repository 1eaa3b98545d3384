"""The languages' MkDocs builds, forked from one process that loads MkDocs while the content is read
(pitfalls/commands/language_builds.py): what MkDocs says reaches the reader, per language, and nothing is left
running or half-written whichever way a build ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pitfalls.commands import build as build_command
from pitfalls.commands.build import BuildFailed, build_site
from pitfalls.commands.cli import main
from pitfalls.records.validate import ContentError

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture
def builders(monkeypatch) -> list[subprocess.Popen]:
    """Every process build_site starts to fork the languages' builds, for the test to look at afterwards."""
    started = []
    start = build_command._start_language_builds

    def recorded():
        started.append(start())
        return started[-1]

    monkeypatch.setattr(build_command, "_start_language_builds", recorded)
    return started


def old_site(tmp_path: Path) -> tuple[Path, dict[Path, int]]:
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "index.html").write_text("the site as it was", encoding="utf-8")
    return site_dir, {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}


@pytest.mark.site
def test_what_mkdocs_says_when_a_language_fails_is_shown_under_its_language(tmp_path, monkeypatch, builders, capsys):
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: x\ndocs_dir: {tmp_path / 'no-such-folder'}\n", encoding="utf-8")
    monkeypatch.setattr(build_command, "MKDOCS_YML", config)
    site_dir, before = old_site(tmp_path)

    assert main(["build", "--content", str(TINY), "--site-dir", str(site_dir)]) == 2

    message, *details = capsys.readouterr().err.splitlines()
    assert message == "build: MkDocs could not build the zh and en site (what it said follows)"
    said = "\n".join(details)
    assert "[zh] mkdocs build failed:" in said and "[en] mkdocs build failed:" in said
    assert said.count("isn't an existing directory") == 2, said  # each child's own output, not the helper's
    assert "Traceback" not in said
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == before
    assert [b.returncode for b in builders] == [0]


@pytest.mark.site
def test_a_content_error_ends_the_process_that_was_loading_mkdocs(tmp_path, builders):
    content = tmp_path / "content"
    (content / "entries").mkdir(parents=True)
    (content / "entries" / "broken.yml").write_text("id: broken\n", encoding="utf-8")

    with pytest.raises(ContentError):
        build_site(tmp_path / "site", content=content)

    assert len(builders) == 1 and builders[0].returncode is not None  # killed and reaped, not left running
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_a_builder_that_dies_before_forking_is_a_build_failure_with_what_it_said(tmp_path, monkeypatch):
    dying = [sys.executable, "-c", "import sys; print('no module named mkdocs'); sys.exit(1)"]
    monkeypatch.setattr(build_command, "_start_language_builds", lambda: subprocess.Popen(
        dying, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    site_dir, before = old_site(tmp_path)

    with pytest.raises(BuildFailed, match=r"^MkDocs could not be started \(what it said follows\)$") as failed:
        build_site(site_dir, content=TINY)

    assert failed.value.details == "no module named mkdocs"
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == before


def run_builds(jobs: dict) -> dict:
    done = subprocess.run([sys.executable, "-m", "pitfalls.commands.language_builds"], input=json.dumps(jobs) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    *before, last = done.stdout.splitlines()
    assert before == []  # the one line of results: the children's output never reaches this channel
    return json.loads(last)


def test_each_child_runs_mkdocs_with_its_own_arguments_and_environment(tmp_path):
    """Two children, one configuration whose docs folder comes from the environment: each sees its own."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# probe\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: probe\ndocs_dir: !ENV [PROBE_DOCS, no-such-folder]\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PROBE_DOCS"}
    results = run_builds({
        "given the folder": {"argv": ["build", "-q", "-f", str(config), "-d", str(tmp_path / "one")],
                             "env": env | {"PROBE_DOCS": str(tmp_path / "docs")}},
        "not given it": {"argv": ["build", "-q", "-f", str(config), "-d", str(tmp_path / "two")], "env": env},
        "a wrong option": {"argv": ["build", "--no-such-option"], "env": env},
    })
    assert results["given the folder"] == [0, ""]
    assert (tmp_path / "one" / "index.html").is_file()
    status, said = results["not given it"]
    assert status == 1 and "no-such-folder" in said and "isn't an existing directory" in said, said
    assert not (tmp_path / "two").exists()
    status, said = results["a wrong option"]
    assert status == 2 and "Error: No such option '--no-such-option'" in said, said


def test_an_empty_request_ends_the_builder_quietly():
    done = subprocess.run([sys.executable, "-m", "pitfalls.commands.language_builds"], input="", capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize("status, said", [
    (-9, "[en] mkdocs build failed (killed by SIGKILL: the system may have run out of memory)"),
    (-15, "[en] mkdocs build failed (killed by SIGTERM)"),
    (1, "[en] mkdocs build failed"),
])
def test_a_build_ended_by_a_signal_says_which_and_nothing_is_written(tmp_path, monkeypatch, status, said):
    results = json.dumps({"zh": [0, ""], "en": [status, ""]})
    monkeypatch.setattr(build_command, "_start_language_builds", lambda: subprocess.Popen(
        [sys.executable, "-c", f"import sys; sys.stdin.read(); print({results!r})"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))

    with pytest.raises(BuildFailed, match=r"^MkDocs could not build the en site \(what it said follows\)$") as failed:
        build_site(tmp_path / "site", content=TINY)

    assert failed.value.details == said
    assert sorted(p.name for p in tmp_path.iterdir()) == []
