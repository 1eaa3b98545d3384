"""The GitHub workflows, templates and editor settings: they parse, and every command and file
they name exists in the repository (so CI cannot drift from the code it runs)."""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from pitfalls.commands.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
DOCS = [ROOT / "CONTRIBUTING.md", ROOT / ".github" / "pull_request_template.md"]


def cli_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pitfalls", exit_on_error=False)
    commands = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(commands)
    return parser


def run_lines(workflow: Path) -> list[str]:
    """Every command line of every `run:` step, comments and shell continuations resolved."""
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    lines = []
    for job in data["jobs"].values():
        for step in job["steps"]:
            script = step.get("run", "").replace("\\\n", " ")
            lines += [line.split(" #")[0].strip() for line in script.splitlines()
                      if line.strip() and not line.strip().startswith("#")]
    return lines


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, re.M))


def check_pitfalls_command(words: list[str]) -> None:
    """`python -m pitfalls …` arguments parse with the real command line (unknown flags fail)."""
    args = [re.sub(r"^\$\w+$|^\$\{?\w+\}?$", "placeholder", w) for w in words]
    try:
        parsed, unknown = cli_parser().parse_known_args(args)
    except (argparse.ArgumentError, SystemExit) as err:
        raise AssertionError(f"`python -m pitfalls {' '.join(words)}` does not parse: {err}") from None
    assert not unknown, f"`python -m pitfalls {' '.join(words)}`: unknown arguments {unknown}"


def commands_in(line: str) -> list[list[str]]:
    """The simple commands of a shell line (split at ;, &&, ||, |), as words."""
    words = shlex.split(line.replace("$(", " ").replace(")", " "), comments=True)
    commands, current = [], []
    for word in words:
        if word in (";", "&&", "||", "|") or word.endswith(";"):
            if word.endswith(";") and word != ";":
                current.append(word[:-1])
            commands.append(current)
            current = []
        else:
            current.append(word)
    return [c for c in commands + [current] if c]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_every_command_a_workflow_runs_exists(workflow):
    seen_pitfalls = 0
    for line in run_lines(workflow):
        for words in commands_in(line):
            while words and words[0] in ("sudo", "then", "if", "!", "fi", "[", "else"):
                words = words[1:]
            if words[:3] == ["python", "-m", "pitfalls"]:
                check_pitfalls_command(words[3:])
                seen_pitfalls += 1
            elif words[:3] == ["python", "-m", "pip"] and "-r" in words:
                assert (ROOT / words[words.index("-r") + 1]).is_file()
            elif words[:3] == ["python", "-m", "pytest"]:
                assert "[tool.pytest.ini_options]" in (ROOT / "pyproject.toml").read_text() and "pytest==" in (ROOT / "requirements.txt").read_text()
            elif words[:1] == ["make"]:
                assert set(w for w in words[1:] if not w.startswith("-")) <= make_targets(), words
    assert seen_pitfalls, f"{workflow.name} runs no `python -m pitfalls` command"


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_workflow_actions_are_pinned_to_a_major_version(workflow):
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    for job in data["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"actions/[\w-]+@v\d+", step["uses"]), step["uses"]


def test_pull_request_workflow_runs_every_check():
    data = yaml.safe_load((ROOT / ".github/workflows/pr.yml").read_text(encoding="utf-8"))
    assert "pull_request" in data[True]  # YAML 1.1 reads the key `on` as true
    lines = " ".join(run_lines(ROOT / ".github/workflows/pr.yml"))
    for command in ("python -m pitfalls check", "python -m pitfalls build", "python -m pitfalls linkcheck site",
                    "python -m pytest"):
        assert command in lines
    setup = next(s for s in data["jobs"]["check"]["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"] == {"python-version": "3.11", "cache": "pip", "cache-dependency-path": "requirements.txt"}
    checkout = data["jobs"]["check"]["steps"][0]
    assert checkout["with"]["fetch-depth"] == 0  # --new-since needs the base branch


def test_deploy_workflow_publishes_to_pages_from_main():
    data = yaml.safe_load((ROOT / ".github/workflows/deploy.yml").read_text(encoding="utf-8"))
    assert data[True]["push"]["branches"] == ["main"]
    assert data["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    uses = [s.get("uses", "") for job in data["jobs"].values() for s in job["steps"]]
    assert "actions/upload-pages-artifact@v3" in uses and "actions/deploy-pages@v4" in uses
    build = next(s for s in data["jobs"]["build"]["steps"] if s.get("name", "").startswith("Build"))
    assert build["env"]["PITFALLS_SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_commands_in_contributor_docs_exist(doc):
    text = doc.read_text(encoding="utf-8")
    mentioned = re.findall(r"python -m pitfalls ([a-z]+)", text)
    assert mentioned
    assert set(mentioned) <= set(cli_parser()._subparsers._group_actions[0].choices)
    assert set(re.findall(r"`make ([a-z]+)`", text)) <= make_targets()
    for path in re.findall(r"`((?:\.github|\.vscode|pitfalls|content|templates)/[\w./-]+)`", text):
        if "<" not in path and "*" not in path:
            assert (ROOT / path).exists(), path


def test_pre_commit_hook_runs_check_on_record_files():
    hook = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"][0]["hooks"][0]
    words = hook["entry"].split()
    assert words[1:3] == ["-m", "pitfalls"]
    check_pitfalls_command(words[3:] + ["content/entries/x.yml"])
    pattern = re.compile(hook["files"])
    for path in ["content/entries/cuda-out-of-memory.yml", "content/tags.yml", "content/categories.yml"]:
        assert pattern.search(path), path
    assert not pattern.search("tests/fixtures/tiny/entries/gpu-oom.yml")


def test_vscode_maps_the_schemas_to_the_files_they_describe():
    schemas = json.loads((ROOT / ".vscode/settings.json").read_text(encoding="utf-8"))["yaml.schemas"]
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "content").rglob("*.yml")}
    covered = set()
    for schema, globs in schemas.items():
        assert (ROOT / schema).is_file(), schema
        covered |= {f for f in files for g in globs if fnmatch.fnmatch(f, g)}
    entries = {f for f in files if f.startswith("content/entries/")}
    assert entries | {"content/categories.yml", "content/tags.yml"} <= covered


def test_issue_form_mirrors_the_record():
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/propose-pitfall.yml").read_text(encoding="utf-8"))
    ids = {item["id"] for item in form["body"] if "id" in item}
    schema = json.loads((ROOT / "pitfalls/record.schema.json").read_text(encoding="utf-8"))
    # id and aliases are the maintainer's choice (the URL), not the proposer's
    assert set(schema["properties"]) - {"id", "aliases"} <= ids
    required = {item["id"] for item in form["body"] if item.get("validations", {}).get("required")}
    assert set(schema["required"]) - {"id"} <= required
    category = next(item for item in form["body"] if item.get("id") == "category")
    keys = [option.split(" ")[0] for option in category["attributes"]["options"]]
    assert keys == list(yaml.safe_load((ROOT / "content/categories.yml").read_text(encoding="utf-8")))
