"""`pitfalls from-issue`: the bodies GitHub writes for the "propose a pitfall" issue form → records.

Real issue-form bodies (tests/fixtures/issues/: complete, minimal, Chinese only, English only) and bodies
written the way GitHub writes them (`issue_body`) with an unknown tag, missing answers and hostile text: each
becomes a record that passes `check`, or nothing is written and the errors name the form's question."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, ROOT
from pitfalls.commands.cli import main
from pitfalls.commands.from_issue import NO_RESPONSE, fenced, form_fields, pull_request, read_body, refused
from pitfalls.records.load import read_yaml

ISSUES = FIXTURES / "issues"
SCHEMA_FIELDS = set(json.loads((ROOT / "pitfalls" / "record.schema.json").read_text(encoding="utf-8"))["properties"])


@pytest.fixture
def content(tmp_path) -> Path:
    """A writable copy of the real content."""
    target = tmp_path / "content"
    shutil.copytree(ROOT / "content", target)
    return target


def issue_body(**answers: str) -> str:
    """An issue body as GitHub writes it for the form: every field's heading, its answer or "_No response_",
    fields with `render:` in a code fence, the checkbox ticked, CRLF line endings as the API returns them."""
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/propose-pitfall.yml").read_text(encoding="utf-8"))
    parts = []
    for item in form["body"]:
        if item["type"] == "markdown":
            continue
        attributes = item["attributes"]
        if item["type"] == "checkboxes":
            parts.append(f"### {attributes['label']}\n\n" + "\n".join(f"- [X] {o['label']}" for o in attributes["options"]))
            continue
        answer = answers.get(item["id"], "")
        if answer and attributes.get("render"):
            answer = f"```{attributes['render']}\n{answer}\n```"
        parts.append(f"### {attributes['label']}\n\n{answer or NO_RESPONSE}")
    return "\n\n".join(parts).replace("\n", "\r\n")


MINIMAL = {"title": "显存不足 / Out of GPU memory on the first step", "category": "training · 训练 / Training",
           "tags": "cuda, oom", "symptoms": "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
           "quick_fix": "把 batch size 减半 / Halve the batch size", "steps": "1. 减小 `batch_size` / Lower `batch_size`"}


def convert(capsys, content: Path, body: str | Path, *flags: str) -> tuple[int, str, str, Path | None]:
    """Exit status, stdout, stderr of `from-issue` and the record it wrote (None when none)."""
    if isinstance(body, str):
        path = content.parent / "issue.md"
        path.write_text(body, encoding="utf-8", newline="")
        body = path
    before = set((content / "entries").iterdir())
    status = main(["from-issue", str(body), "--content", str(content), *flags])
    out, err = capsys.readouterr()
    written = set((content / "entries").iterdir()) - before
    assert len(written) <= 1
    return status, out, err, next(iter(written), None)


def record_of(path: Path) -> dict:
    doc, problems = read_yaml(path, path.name)
    assert problems == []
    return doc.data


def check(capsys, content: Path, path: Path) -> tuple[int, str]:
    status = main(["check", "--content", str(content), str(path)])
    out, err = capsys.readouterr()
    return status, out + err


# --- real bodies ---


def test_a_complete_proposal_becomes_a_record_that_passes_check(content, capsys):
    status, out, err, path = convert(capsys, content, ISSUES / "complete.md", "--issue", "42")
    assert status == 0, err
    assert out.strip().endswith("nccl-watchdog-timeout-in-multi-node-training.yml") and path.name == Path(out.strip()).name
    data = record_of(path)
    assert data == {
        "id": "nccl-watchdog-timeout-in-multi-node-training", "category": "training",
        "title": {"zh": "NCCL 通信超时", "en": "NCCL watchdog timeout in multi-node training"},
        "quick_fix": {"zh": "先设 `NCCL_DEBUG=INFO` 看卡在哪张网卡，多半要设 `NCCL_SOCKET_IFNAME`",
                      "en": "Set `NCCL_DEBUG=INFO` to see which interface hangs; usually `NCCL_SOCKET_IFNAME` must be set"},
        "symptoms": ["RuntimeError: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
                     "OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out.",
                     {"zh": "训练卡在第一个 all_reduce，GPU 利用率 100%", "en": "Training hangs at the first all_reduce with GPUs at 100%"}],
        "steps": [{"zh": "打开 NCCL 日志", "en": "Turn on NCCL's log", "code": "export NCCL_DEBUG=INFO"},
                  {"zh": "在日志里找 `NET/Socket : Using` 那一行，确认网卡",
                   "en": "Find the `NET/Socket : Using` line and check the interface"},
                  {"zh": "指定正确的网卡", "en": "Name the right interface", "code": "export NCCL_SOCKET_IFNAME=eth0"}],
        "tags": ["cuda", "gpu"],
        "cause": {"zh": "多网卡机器上 NCCL 选中了不通的网卡（如 docker0）。",
                  "en": "On machines with several interfaces NCCL picks one that cannot reach the other nodes (such as docker0)."},
        "environment": {"os": "Ubuntu 22.04", "gpu": "8x A100", "cuda": "12.1", "python": "3.10", "frameworks": "PyTorch 2.1"},
        "verification": {"zh": "日志里出现 `Using eth0`，all_reduce 在几秒内完成",
                         "en": "The log says `Using eth0` and all_reduce finishes within seconds"},
        "references": [{"title": "NCCL environment variables",
                        "url": "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"}],
        "related": ["ssh-port-blocked"], "last_verified": "2026-11-20",
        "signatures": [{"exact": "Watchdog caught collective operation timeout"}],
        "keywords": {"zh": ["多机训练卡死", "选错网卡"], "en": ["multi-node hang"]},
    }
    assert "note: 标签 / Tags: left out '分布式': not in" in err  # unknown tags are listed, not invented
    assert "left out 3 line(s) of a traceback" in err
    assert "0 error(s), 0 warning(s)" in err
    assert check(capsys, content, path)[0] == 0


@pytest.mark.parametrize("fixture, record_id, languages", [
    ("minimal.md", "ssh-disconnects-right-after-login", {"zh", "en"}),
    ("zh-only.md", "conda-import-torch-libcudnn", {"zh"}),
    ("en-only.md", "jupyter-kernel-dies", {"en"}),
])
def test_minimal_and_one_language_proposals_pass_check(content, capsys, fixture, record_id, languages):
    status, out, err, path = convert(capsys, content, ISSUES / fixture)
    assert status == 0, err
    assert path.name == f"{record_id}.yml"
    data = record_of(path)
    assert set(data["title"]) == languages and set(data["quick_fix"]) == languages  # the one-language fallback
    status, report = check(capsys, content, path)
    assert status == 0 and "0 error(s)" in report
    if languages == {"zh"}:
        assert data["tags"] == ["cuda", "dependency-management", "python"]  # matched by label, any separator
        assert data["steps"][1] == {"zh": "安装与 CUDA 版本对应的 cudnn", "code": "conda install -c nvidia cudnn=8"}
        assert data["related"] == ["cuda-pytorch-mismatch"] and data["last_verified"] == "2026-11-03"
        assert "not translated into English (en)" in err
    if languages == {"en"}:
        assert "last_verified" not in data and "left out '2026-11-31': not a date" in err
        assert data["references"] == [{"title": "pandas IO tools", "url": "https://pandas.pydata.org/docs/user_guide/"
                                       "io.html#iterating-through-files-chunk-by-chunk"}]
        assert "References: left out 1 line(s) without an http(s) link" in err


def test_crlf_bodies_read_the_same(content, capsys):
    lf = read_body((ISSUES / "complete.md").read_text(encoding="utf-8"))
    assert read_body((ISSUES / "complete.md").read_text(encoding="utf-8").replace("\n", "\r\n")) == lf
    assert lf["cause"].count("\n---\n") == 1 and lf["symptoms"].startswith("Traceback")  # the fence is gone
    assert lf["id"] == "" and set(lf) == set(form_fields())


# --- the conversion table ---


@pytest.mark.parametrize("answers, expected", [
    # both languages on one line, and over several lines with a line `---` between them
    ({"quick_fix": "重启 / Restart it"}, {"quick_fix": {"zh": "重启", "en": "Restart it"}}),
    ({"quick_fix": "Restart / 重启"}, {"quick_fix": {"zh": "重启", "en": "Restart"}}),
    ({"quick_fix": "用 `a / b` 代替"}, {"quick_fix": {"zh": "用 `a / b` 代替"}}),  # not split inside code
    ({"quick_fix": "NCCL_P2P_DISABLE=1 / NCCL_IB_DISABLE=1"}, {"quick_fix": {"en": "NCCL_P2P_DISABLE=1 / NCCL_IB_DISABLE=1"}}),
    ({"cause": "第一段\n\n第二段\n---\nFirst\n\nsecond"}, {"cause": {"zh": "第一段\n\n第二段", "en": "First\n\nsecond"}}),
    # the id: the form's, slugified; else made from the English title, else the ASCII words, else pinyin
    ({"id": "My_Entry!!"}, {"id": "my-entry"}),
    ({"title": "显存不足"}, {"id": "xian-cun-bu-zu"}),
    ({"title": "显存不足 (CUDA out of memory)"}, {"id": "cuda-out-of-memory-2"}),  # taken: -2
    ({"title": "tags"}, {"id": "tags-2"}),  # a site page's id
    # symptoms: error messages verbatim, behaviours as text; tags by key or label, in any case
    ({"symptoms": "Killed (exit code 137)\nthe job just stops\n训练突然停止"},
     {"symptoms": ["Killed (exit code 137)", {"en": "the job just stops"}, {"zh": "训练突然停止"}]}),
    ({"tags": "#CUDA  GPU-Memory, 显存"}, {"tags": ["cuda", "gpu-memory"]}),
    # steps: items, continuation lines, fenced and `$ ` commands, a command with no words
    ({"steps": "1. one\n   more\n2) two\n```sh\nmake\nmake install\n```\n- three\n$ ls"},
     {"steps": [{"en": "one\n   more"}, {"en": "two", "code": "make\nmake install"}, {"en": "three", "code": "ls"}]}),
    ({"steps": "```\nnvidia-smi\n```"}, {"steps": [{"zh": "运行：", "en": "Run:", "code": "nvidia-smi"}]}),
    ({"environment": "os: Ubuntu\nGPU: A100\ncuda:\nfoo: bar"}, {"environment": {"os": "Ubuntu", "gpu": "A100"}}),
    ({"related": "loss-nan, https://wiki.corp/en/docker-gpu/#steps nope"}, {"related": ["loss-nan", "docker-gpu"]}),
    ({"last_verified": "2026/1/5"}, {"last_verified": "2026-01-05"}),
    ({"signatures": "ab\nWatchdog caught collective operation timeout"},
     {"signatures": [{"exact": "Watchdog caught collective operation timeout"}]}),
    # keywords: by their characters; one the title already says is left out, as check would refuse it
    ({"keywords": "爆显存、OOM at step 1,out of GPU memory\n显存炸了, 爆显存"}, {"keywords": {"zh": ["爆显存", "显存炸了"], "en": ["OOM at step 1"]}}),
])
def test_answers_become_fields(content, capsys, answers, expected):
    status, _, err, path = convert(capsys, content, issue_body(**{**MINIMAL, **answers}))
    assert status == 0, err
    data = record_of(path)
    for key, value in expected.items():
        assert data[key] == value, err


def test_unknown_tags_are_listed_not_invented(content, capsys):
    status, _, err, path = convert(capsys, content, issue_body(**{**MINIMAL, "tags": "cuda, flash-attn, 量化"}))
    assert status == 0
    assert record_of(path)["tags"] == ["cuda"]
    assert "left out 'flash-attn', '量化': not in content/tags.yml" in err
    assert "flash-attn" not in (content / "tags.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("answers, message", [
    ({"tags": "flash-attn"}, "标签 / Tags: none of 'flash-attn' is a tag of content/tags.yml"),
    ({"steps": "1.\n2.\n"}, "排查与修复步骤 / Diagnosis and fix steps: no answer; the record needs one"),
    ({"category": "infra"}, "分类 / Category: 'infra' is not a category of content/categories.yml; known: environment, "),
    ({"title": "x" * 300}, "title.en: is 300 characters long; the limit is 200  [标题 / Title]"),
    ({"symptoms": "RuntimeError: " + "x" * 10_000}, "symptoms[0]: is 10014 characters long; the limit is 2000  "
                                                    "[报错与现象 / Error messages and symptoms]"),
])
def test_nothing_is_written_when_the_proposal_cannot_become_a_record(content, capsys, answers, message):
    body = issue_body(**{**MINIMAL, **answers})
    status, out, err, path = convert(capsys, content, body, "--message", str(content.parent / "comment.md"))
    assert (status, out, path) == (1, "", None)
    assert message in err and "nothing written" in err
    assert "Traceback" not in err
    comment = (content.parent / "comment.md").read_text(encoding="utf-8")
    assert message in comment and "Edit the issue" in comment
    # --draft writes it for a maintainer to finish, and still reports the errors
    status, out, err, path = convert(capsys, content, body, "--draft")
    assert status == 1 and path is not None and message in err
    assert set(record_of(path)) <= SCHEMA_FIELDS


HOSTILE = {
    "title": "<script>alert('t')</script> \"q\" 'a': [b] {c} & *d !e | > # f % @g `h`",
    "id": "../../etc/passwd",
    "tags": "cuda, <img src=x onerror=alert(1)>",
    "symptoms": "Error: ---\n...\nkey: value\n- item\n\"unterminated\nError: {{ 7*7 }} ${{ github.token }} $(touch pwned)"
                "\nError: \x1b[31mred\x1b[0m \u202eevil",
    "quick_fix": "\"; rm -rf / # ``` !!python/object/apply:os.system ['id']",
    "steps": "1. <b>bold</b> null\n```\n</script><script>alert(1)</script>\n---\n```\n2. ok: `a: b` ~",
    "cause": "true",
    "environment": "os: !!python/object/apply:os.system ['ls']\ngpu: &anchor *alias",
    "references": "[x](javascript:alert(1))\nhttps://example.org/\"onmouseover=alert(1)",
    "verification": "123",
}


def test_hostile_text_stays_text(content, capsys):
    status, _, err, path = convert(capsys, content, issue_body(**{**MINIMAL, **HOSTILE}))
    assert status == 0, err
    assert path.name == "etc-passwd.yml" and "'../../etc/passwd' is written 'etc-passwd' as a URL" in err
    data = record_of(path)
    assert set(data) <= SCHEMA_FIELDS and data["id"] == "etc-passwd"
    assert data["title"] == {"en": HOSTILE["title"]}
    assert data["quick_fix"] == {"en": HOSTILE["quick_fix"]}
    assert data["cause"] == {"en": "true"} and data["verification"] == {"en": "123"}
    assert data["symptoms"][:2] == ["Error: ---", {"en": "..."}]
    assert "Error: {{ 7*7 }} ${{ github.token }} $(touch pwned)" in data["symptoms"]
    assert "Error: [31mred[0m evil" in data["symptoms"]  # control and bidirectional characters removed
    assert "removed 3 control or bidirectional override character(s)" in err
    assert data["steps"][0] == {"en": "<b>bold</b> null", "code": "</script><script>alert(1)</script>\n---"}
    assert data["environment"] == {"os": "!!python/object/apply:os.system ['ls']", "gpu": "&anchor *alias"}
    assert data["references"] == [{"title": "\"onmouseover=alert(1)", "url": "https://example.org/"}]  # text, not an attribute
    assert data["tags"] == ["cuda"]
    assert check(capsys, content, path)[0] == 0
    assert not (Path.cwd() / "pwned").exists()


def test_a_ten_thousand_character_field_is_refused_in_one_clear_line(content, capsys):
    status, _, err, path = convert(capsys, content, issue_body(**{**MINIMAL, "cause": "因" * 10_000}))
    assert (status, path) == (1, None)
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        "error: content/entries/out-of-gpu-memory-on-the-first-step.yml:19:7: cause.zh: is 10000 characters long; "
        "the limit is 2000  [原因 / Cause]"]


# --- bad input: one line, exit 2 ---


@pytest.mark.parametrize("body, message", [
    ("just some text\n", "not the body of the 'propose a pitfall' issue form"),
    ("", "not the body of the 'propose a pitfall' issue form"),
    ("### 标题 / Title\n\na\n\n### 标题 / Title\n\nb\n", "the answer '### 标题 / Title' appears twice"),
    ("x" * 300_000, "300000 characters; an issue body has at most 262144"),
])
def test_bad_bodies_are_refused_in_one_line(content, capsys, body, message):
    status, out, err, path = convert(capsys, content, body)
    assert (status, out, path) == (2, "", None)
    assert err.count("\n") == 1 and err.startswith("from-issue: ") and message in err


def test_bad_files_and_ids_are_refused_in_one_line(content, capsys, monkeypatch):
    status, _, err, _ = convert(capsys, content, content.parent / "missing.md")
    assert status == 2 and err == f"from-issue: {content.parent / 'missing.md'}: cannot read it: No such file or directory\n"
    (content.parent / "latin1.md").write_bytes("### 标题 / Title\n\ncaf\xe9".encode("latin-1", "replace"))
    assert convert(capsys, content, content.parent / "latin1.md")[0] == 2
    for given, message in (("Bad_Id", "--id 'Bad_Id' is not a valid id"), ("loss-nan", "--id 'loss-nan' is already used"),
                           ("recent", "--id 'recent' is already used")):
        status, _, err, path = convert(capsys, content, issue_body(**MINIMAL), "--id", given)
        assert (status, path) == (2, None) and message in err and err.count("\n") == 1
    status, _, _, path = convert(capsys, content, issue_body(**MINIMAL), "--id", "chosen-by-maintainer")
    assert status == 0 and path.name == "chosen-by-maintainer.yml"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(issue_body(**MINIMAL).encode())))
    status, out, _, path = convert(capsys, content, Path("-"))
    assert status == 0 and path.name == "out-of-gpu-memory-on-the-first-step.yml"


# --- the pull request's and the comment's text ---


def test_the_pull_request_text_closes_the_issue_and_keeps_issue_text_in_code(content, capsys):
    message = content.parent / "pr.md"
    body = issue_body(**{**MINIMAL, "tags": "cuda, @maintainers ```evil``` [x](https://evil)"})
    status, _, err, _ = convert(capsys, content, body, "--issue", "7", "--message", str(message))
    assert status == 0, err
    text = message.read_text(encoding="utf-8")
    assert text.startswith("Closes #7\n")
    assert "`content/entries/out-of-gpu-memory-on-the-first-step.yml`" in text
    # issue text shows only inside a fence longer than any run of backticks in it
    assert "\n````text\n" in text and "@maintainers" in text.split("````text\n")[1].split("\n````")[0]
    assert text.count("@maintainers") == 1


def test_fences_and_messages():
    assert fenced("a ``` b") == "````text\na ``` b\n````"
    assert fenced("plain") == "```text\nplain\n```"
    assert pull_request(None, "x", "content/entries/x.yml", [], [], []).startswith("`content/entries/x.yml`")
    assert refused(3, ["标签 / Tags: none"]).startswith("This proposal cannot become a record yet")


def test_a_proposal_too_large_for_a_record_file_names_its_longest_answers(content, capsys):
    cause = "因" * 90_000  # 90,000 characters of body, 270,000 bytes of YAML
    status, out, err, path = convert(capsys, content, issue_body(**{**MINIMAL, "cause": cause}), "--draft")
    assert (status, out, path) == (1, "", None) and "Traceback" not in err
    assert "a record file holds at most 262144" in err and "the longest answers: 原因 / Cause" in err


def test_the_example_in_docs_sharing_is_what_the_command_makes(content, capsys):
    """docs/SHARING.md shows complete.md's body, the record and the pull request's text: they stay true."""
    doc = (ROOT / "docs" / "SHARING.md").read_text(encoding="utf-8")
    message = content.parent / "pr.md"
    status, _, _, path = convert(capsys, content, ISSUES / "complete.md", "--issue", "42", "--message", str(message))
    assert status == 0
    assert (ISSUES / "complete.md").read_text(encoding="utf-8").rstrip() in doc
    assert f"```yaml\n{path.read_text(encoding='utf-8')}```" in doc
    assert f"````markdown\n{message.read_text(encoding='utf-8').rstrip()}\n````" in doc
