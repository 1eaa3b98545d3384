"""The GitHub workflows, templates and editor settings: they parse, and every command and file
they name exists in the repository (so CI cannot drift from the code it runs)."""

from __future__ import annotations

import argparse
import base64
import fnmatch
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pitfalls.commands.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ISSUE_FORMS = sorted(p for p in (ROOT / ".github" / "ISSUE_TEMPLATE").glob("*.yml") if p.name != "config.yml")
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
            lines += [re.split(r"\s#\s", line)[0].strip() for line in script.splitlines()
                      if line.strip() and not line.strip().startswith("#")]
    return lines


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, re.M))


def check_pitfalls_command(words: list[str]) -> None:
    """`python -m pitfalls …` arguments parse with the real command line (unknown flags fail)."""
    # a variable: a number fits any option but an address
    args = [re.sub(r"^\$\w+$|^\$\{?\w+\}?$", "https://wiki.example.com/" if before == "--site-url" else "1", word)
            for before, word in zip(["", *words[:-1]], words, strict=True)]
    try:
        parsed, unknown = cli_parser().parse_known_args(args)
    except (argparse.ArgumentError, SystemExit) as err:
        raise AssertionError(f"`python -m pitfalls {' '.join(words)}` does not parse: {err}") from None
    assert not unknown, f"`python -m pitfalls {' '.join(words)}`: unknown arguments {unknown}"


def commands_in(line: str) -> list[list[str]]:
    """The simple commands of a shell line (split at ;, &&, ||, |), as words, without redirections."""
    words = shlex.split(line.replace("$(", " ").replace(")", " "), comments=True)
    commands, current, redirected = [], [], False
    for word in words:
        if redirected:  # the target of a redirection
            redirected = False
            continue
        if re.fullmatch(r"\d?(>>?|<)", word):
            redirected = True
            continue
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
    ("vendor.github-issue-forms", ISSUE_FORMS),
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
    for command in ("python -m ruff check .", "lint-imports", "python -m pitfalls check", "python -m pitfalls build",
                    "python -m pitfalls linkcheck site", "npm ci", "python -m pytest"):
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
    mentioned = re.findall(r"python -m pitfalls ([a-z][a-z-]*)", text)
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
    # aliases are the maintainer's choice; the id field is optional (`from-issue` makes one from the title)
    assert set(schema["properties"]) - {"id", "aliases"} <= ids
    required = {item["id"] for item in form["body"] if item.get("validations", {}).get("required")}
    assert set(schema["required"]) - {"id"} <= required
    category = next(item for item in form["body"] if item.get("id") == "category")
    keys = [option.split(" ")[0] for option in category["attributes"]["options"]]
    assert keys == list(yaml.safe_load((ROOT / "content/categories.yml").read_text(encoding="utf-8")))


# --- the proposal workflow: an issue becomes a pull request ---

PROPOSAL = ROOT / ".github/workflows/proposal.yml"


def test_no_workflow_puts_an_expression_inside_a_script():
    """`${{ … }}` inside `run:` is pasted into the script before the shell reads it: text from an issue or a
    branch name would run as code. Values reach scripts through `env:` only."""
    for workflow in WORKFLOWS:
        data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
        for name, job in data["jobs"].items():
            for step in job["steps"]:
                assert "${{" not in step.get("run", ""), f"{workflow.name}: job {name}: {step.get('name')}"


def test_the_proposal_workflow_grants_each_job_only_what_it_uses():
    data = yaml.safe_load(PROPOSAL.read_text(encoding="utf-8"))
    assert data[True] == {"issues": {"types": ["opened", "edited", "labeled"]}}
    assert "pitfall-proposal" in data["jobs"]["convert"]["if"]
    assert "github.event.issue.state == 'open'" in data["jobs"]["convert"]["if"]  # a closed issue's edit makes nothing
    permissions = {name: job["permissions"] for name, job in data["jobs"].items()}
    assert permissions == {"convert": {"contents": "read"},
                           "pull-request": {"contents": "write", "pull-requests": "write"},
                           "comment": {"issues": "write"}}
    for name in ("pull-request", "comment"):  # the jobs that may write run none of the repository's code
        job = data["jobs"][name]
        assert job["needs"] == "convert" and all("uses" not in step for step in job["steps"])
    text = PROPOSAL.read_text(encoding="utf-8")
    # the issue's text is read in one place, into an environment variable
    assert text.count("github.event.issue.body") == 1
    assert data["jobs"]["convert"]["steps"][-1]["env"]["BODY"] == "${{ github.event.issue.body }}"
    setup = next(s for s in data["jobs"]["convert"]["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert "cache" not in setup["with"]  # a run anyone can start writes no cache that deploy.yml would read
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/propose-pitfall.yml").read_text(encoding="utf-8"))
    assert form["labels"] == ["pitfall-proposal"]


def _script(job: str) -> tuple[str, dict]:
    data = yaml.safe_load(PROPOSAL.read_text(encoding="utf-8"))
    step = data["jobs"][job]["steps"][-1]
    return step["run"], step.get("env", {})


def test_the_convert_step_passes_a_hostile_issue_on_as_data(tmp_path):
    """The step's script, run by bash as Actions runs it, on an issue whose text tries the shell: the command
    gets the text as a file, and the outputs are a status, a slug and base64."""
    script, env = _script("convert")
    assert set(env) == {"BODY", "ISSUE"}
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    # the same script, with the record written into the copy of the content
    script = script.replace("python -m pitfalls from-issue", f"{sys.executable} -m pitfalls from-issue --content {content}")
    body = (ROOT / "tests/fixtures/issues/minimal.md").read_text(encoding="utf-8").replace(
        "SSH 连上就断 / SSH disconnects right after login",
        "SSH 连上就断 $(touch pwned1) `touch pwned2` \"; touch pwned3; \" / SSH disconnects $HOME ${{ github.token }}")
    output = tmp_path / "output"
    runner = {"BODY": body, "ISSUE": "17", "RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(output),
              "PATH": "/usr/bin:/bin"}
    result = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=runner, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert outputs["status"] == "0" and outputs["id"] == "ssh-disconnects-home-github-token"
    record = base64.b64decode(outputs["record"]).decode()
    assert "$(touch pwned1)" in record and not list(tmp_path.glob("pwned*"))
    assert base64.b64decode(outputs["message"]).decode().startswith("Closes #17\n")
    # a body that is not the form's: no record, a message for the comment, and the step does not fail
    output.unlink()
    result = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env={**runner, "BODY": "hello"},
                            capture_output=True, text=True, timeout=120)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert result.returncode == 0 and outputs.keys() == {"status", "message"} and outputs["status"] == "2"
    assert "not the body of the 'propose a pitfall' issue form" in base64.b64decode(outputs["message"]).decode()


FAKE_GH = """#!/bin/bash
printf '%s\\n' "$*" >> "$GH_LOG"
case "$*" in
  "api repos/team/wiki/git/ref/heads/main --jq .object.sha") echo 0123abc ;;
  "api repos/team/wiki/git/ref/heads/pitfall-proposal/issue-17 --silent") exit 1 ;;
esac
"""


@pytest.mark.parametrize("record_id, calls", [
    ("ssh-keepalive", [
        "api repos/team/wiki/git/ref/heads/main --jq .object.sha",
        "api repos/team/wiki/git/ref/heads/pitfall-proposal/issue-17 --silent",
        "api -X POST repos/team/wiki/git/refs -f ref=refs/heads/pitfall-proposal/issue-17 -f sha=0123abc --silent",
        "api -X PUT repos/team/wiki/contents/content/entries/ssh-keepalive.yml -f branch=pitfall-proposal/issue-17 "
        "-f message=Add ssh-keepalive (proposed in #17) -f content=aWQ6IHNzaC1rZWVwYWxpdmUK --silent",
        "pr list --repo team/wiki --head pitfall-proposal/issue-17 --state open --json number --jq .[0].number // empty",
        "pr create --repo team/wiki --base main --head pitfall-proposal/issue-17 --title Add pitfall ssh-keepalive (#17) "
        "--body-file {temp}/body.md"]),
    ("../../x; rm -rf ~", []),  # not an id: nothing is called
])
def test_the_pull_request_step_commits_through_the_api_and_opens_the_pull_request(tmp_path, record_id, calls):
    script, env = _script("pull-request")
    assert set(env) == {"GH_TOKEN", "REPO", "BASE", "ISSUE", "ID", "RECORD", "MESSAGE"}
    (tmp_path / "gh").write_text(FAKE_GH)
    (tmp_path / "gh").chmod(0o755)
    log = tmp_path / "gh.log"
    runner = {"GH_TOKEN": "t", "REPO": "team/wiki", "BASE": "main", "ISSUE": "17", "ID": record_id,
              "RECORD": base64.b64encode(b"id: ssh-keepalive\n").decode(), "MESSAGE": base64.b64encode(b"Closes #17\n").decode(),
              "RUNNER_TEMP": str(tmp_path), "GH_LOG": str(log), "PATH": f"{tmp_path}:/usr/bin:/bin"}
    result = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=runner, capture_output=True, text=True, timeout=60)
    made = log.read_text().splitlines() if log.exists() else []
    assert made == [call.format(temp=tmp_path) for call in calls]
    assert result.returncode == (0 if calls else 1)
    if calls:
        assert (tmp_path / "body.md").read_text() == "Closes #17\n"
