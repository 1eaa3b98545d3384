"""The GitHub workflows, templates and editor settings: they parse, and every command and file
they name exists in the repository (so CI cannot drift from the code it runs)."""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shlex
import subprocess
import sys
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
            elif words[:2] == ["npm", "ci"]:
                assert (ROOT / "package.json").is_file() and (ROOT / "package-lock.json").is_file()
            elif words[:1] == ["make"]:
                assert set(w for w in words[1:] if not w.startswith("-")) <= make_targets(), words
    assert seen_pitfalls, f"{workflow.name} runs no `python -m pitfalls` command"


PINNED_USE = re.compile(r"^\s*(?:- )?uses: (actions/[\w-]+)@([0-9a-f]{40})  # (v\d+\.\d+\.\d+)$")


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_workflow_actions_are_pinned_to_a_commit_with_its_version(workflow):
    """A tag can be moved to other code; a full commit SHA cannot. The comment says which release it is."""
    text = workflow.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    uses = [step["uses"] for job in data["jobs"].values() for step in job["steps"] if "uses" in step]
    lines = [line for line in text.splitlines() if re.match(r"^\s*(?:- )?uses:", line)]
    assert len(lines) == len(uses) > 0
    for line in lines:
        assert PINNED_USE.match(line), f"{workflow.name}: {line.strip()} is not `owner/action@<40-hex SHA>  # vX.Y.Z`"


def test_each_action_is_pinned_to_one_commit_everywhere():
    pins: dict[str, set] = {}
    for workflow in WORKFLOWS:
        for line in workflow.read_text(encoding="utf-8").splitlines():
            if match := PINNED_USE.match(line):
                pins.setdefault(match.group(1), set()).add(match.group(2, 3))
    assert {action: len(versions) for action, versions in pins.items() if len(versions) > 1} == {}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_permissions_are_granted_per_job_and_checkouts_keep_no_token(workflow):
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    assert data["permissions"] == {}, "the workflow level grants nothing; each job asks for what it uses"
    for name, job in data["jobs"].items():
        assert "permissions" in job, f"job {name} must say which permissions it uses"
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, f"job {name}: checkout leaves the token in .git"


def test_pull_request_workflow_gives_a_fork_nothing_to_steal():
    """`pull_request` runs a fork's code with a read-only token and no secrets; keep it that way."""
    text = (ROOT / ".github/workflows/pr.yml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert set(data[True]) == {"pull_request"}  # no pull_request_target or workflow_run
    assert "secrets." not in text and "pull_request_target" not in text.split("\non:")[1]
    for job in data["jobs"].values():
        assert set(job["permissions"].values()) <= {"read", "none"}, job["permissions"]


def test_zizmor_finds_nothing():
    """zizmor's audits of the workflows (offline: it asks GitHub nothing), every severity and confidence."""
    zizmor = Path(sys.executable).parent / "zizmor"
    result = subprocess.run([str(zizmor), "--offline", "--persona=pedantic", "--format=json", str(ROOT / ".github")],
                            capture_output=True, text=True, timeout=120)
    findings = json.loads(result.stdout)
    assert findings == [], "\n".join(f"{f['ident']}: {f['desc']}" for f in findings)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("schema, files", [
    ("vendor.github-workflows", WORKFLOWS),
    ("vendor.github-issue-forms", [ROOT / ".github/ISSUE_TEMPLATE/propose-pitfall.yml"]),
    ("vendor.github-issue-config", [ROOT / ".github/ISSUE_TEMPLATE/config.yml"]),
])
def test_github_files_match_githubs_schemas(schema, files):
    """check-jsonschema's bundled copies of GitHub's schemas (no download)."""
    check = Path(sys.executable).parent / "check-jsonschema"
    result = subprocess.run([str(check), "--builtin-schema", schema, *map(str, files)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pull_request_workflow_runs_every_check():
    data = yaml.safe_load((ROOT / ".github/workflows/pr.yml").read_text(encoding="utf-8"))
    assert "pull_request" in data[True]  # YAML 1.1 reads the key `on` as true
    lines = " ".join(run_lines(ROOT / ".github/workflows/pr.yml"))
    for command in ("python -m pitfalls check", "python -m pitfalls build", "python -m pitfalls linkcheck site",
                    "npm ci", "python -m pytest"):
        assert command in lines
    setup = next(s for s in data["jobs"]["check"]["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"] == {"python-version": "3.11", "cache": "pip", "cache-dependency-path": "requirements.txt"}
    checkout = data["jobs"]["check"]["steps"][0]
    assert checkout["with"]["fetch-depth"] == 0  # --new-since needs the base branch
    # the tests on every supported Python: records/signatures.py walks re._parser, which is not a public interface
    test = data["jobs"]["test"]
    assert test["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    setup = next(s for s in test["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "${{ matrix.python }}"
    assert any(step.get("run", "").startswith("python -m pytest") for step in test["steps"])


def test_deploy_workflow_publishes_to_pages_from_main():
    data = yaml.safe_load((ROOT / ".github/workflows/deploy.yml").read_text(encoding="utf-8"))
    assert data[True]["push"]["branches"] == ["main"]
    # the build job reads; only the deploy job, which runs no code of the repository, may publish
    assert data["jobs"]["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert data["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    build_uses = [s.get("uses", "").split("@")[0] for s in data["jobs"]["build"]["steps"]]
    deploy_uses = [s.get("uses", "").split("@")[0] for s in data["jobs"]["deploy"]["steps"]]
    assert "actions/upload-pages-artifact" in build_uses and deploy_uses == ["actions/deploy-pages"]
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
