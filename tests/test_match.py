"""`python -m pitfalls match`: real-looking logs of seed pitfalls, a log with none, the JSON shape."""

from __future__ import annotations

import io
import json
import locale
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pitfalls.commands.cli import main
from pitfalls.commands.match import CHUNK_CHARS, probes, scan
from pitfalls.records.validate import load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent

OOM = """\
[2024-05-12 10:31:02,114] INFO  rank0 step=118 loss=2.3141 lr=2.0e-05
Traceback (most recent call last):
  File "/home/alice/proj/train.py", line 212, in <module>
    main()
  File "/home/alice/proj/train.py", line 180, in main
    loss.backward()
  File "/opt/conda/lib/python3.10/site-packages/torch/_tensor.py", line 522, in backward
    torch.autograd.backward(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.12 GiB is free. Process 48213 has 22.51 GiB memory in use.
"""

DATALOADER = """\
Epoch 3:  41%|████      | 823/2000 [02:11<03:08,  6.24it/s, loss=0.412]
Traceback (most recent call last):
  File "C:\\Users\\bob\\miniconda3\\envs\\cv\\lib\\site-packages\\torch\\utils\\data\\dataloader.py", line 1132, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "C:\\Users\\bob\\miniconda3\\envs\\cv\\lib\\queue.py", line 179, in get
    raise Empty
_queue.Empty

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "D:\\work\\cls\\train.py", line 88, in <module>
    for images, labels in loader:
RuntimeError: DataLoader worker (pid(s) 15872, 9744) exited unexpectedly
"""

SSH = """\
$ ssh -p 22 alice@203.0.113.42
ssh: connect to host 203.0.113.42 port 22: Connection timed out
"""

MISMATCH = """\
/opt/conda/lib/python3.11/site-packages/torch/cuda/__init__.py:230: UserWarning:
NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.
Traceback (most recent call last):
  File "/srv/jobs/7731/infer.py", line 14, in <module>
    y = model(x.cuda())
RuntimeError: CUDA error: no kernel image is available for execution on the device
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

NOTHING = """\
[2024-05-12 10:31:02,114] INFO  rank0 step=118 loss=2.3141 lr=2.0e-05
[2024-05-12 10:31:04,907] INFO  checkpoint saved to /ckpt/run-3/step-118.pt
Traceback (most recent call last):
  File "/home/alice/proj/eval.py", line 9, in <module>
    print(results["acc"])
KeyError: 'acc'
"""


def run_match(log: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pitfalls", "match", *args], input=log, capture_output=True,
                          text=True, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def seed_probes():
    return probes(load_knowledge_base(ROOT / "content"))


def matched(log: str, seed_probes) -> list:
    matches, _ = scan(io.StringIO(log), seed_probes)
    return matches


@pytest.mark.parametrize("log, entry, line_number", [
    (OOM, "cuda-out-of-memory", 9),
    (DATALOADER, "dataloader-workers-hang", 14),
    (SSH, "ssh-port-blocked", 2),
    (MISMATCH, "cuda-pytorch-mismatch", 2),
])
def test_a_traceback_finds_its_entry_first_with_the_line(log, entry, line_number, seed_probes):
    matches = matched(log, seed_probes)
    assert matches[0].record.id == entry
    first = min(matches[0].hits, key=lambda hit: hit.line_number)
    assert first.line_number == line_number
    assert first.line == log.splitlines()[line_number - 1]


@pytest.mark.parametrize("line", [
    "step 1200 | train_loss nan | grad_norm inf",  # the most common form, from the walk-through
    "loss nan", "loss=nan", "{'loss': nan, 'grad_norm': 3.1}", "Loss: NaN", "train_loss nan", '"loss": NaN',
    "loss inf", "loss=-inf", "{'loss': inf}", "Loss: Inf", "val_loss inf", "epoch 3 | loss = nan",
])
def test_a_nan_or_inf_loss_in_a_training_log_finds_loss_nan(line, seed_probes):
    log = f"[2024-05-12 10:31:02] INFO rank0 lr=2.0e-05\n[2024-05-12 10:31:04] INFO {line}\n"
    matches = matched(log, seed_probes)
    assert [m.record.id for m in matches] == ["loss-nan"]
    assert matches[0].hits[0].line_number == 2


@pytest.mark.parametrize("line", [
    "loss 2.3141", "loss of precision in fp16", "Loss in fine-tuning", "gloss: nan", "floss=nan", "loss nanny",
    "loss: information", "loss infinite", "Loss: NaNs appear", "loss function nan", "no loss, nan here",
])
def test_ordinary_words_next_to_loss_are_not_a_nan_loss(line, seed_probes):
    assert "loss-nan" not in [m.record.id for m in matched(line + "\n", seed_probes)]


def test_varying_parts_match_through_placeholders(seed_probes):
    for pid, path, host in [("1", "/a.py", "10.0.0.1"), ("4194303", "/very/long/path/x.py", "gpu-node-17.lab.example")]:
        log = (f'  File "{path}", line 3, in <module>\nRuntimeError: DataLoader worker (pid {pid}) exited unexpectedly\n'
               f"Connection to {host} closed by remote host.\n")
        assert [m.record.id for m in matched(log, seed_probes)] == ["dataloader-workers-hang", "ssh-disconnect"]


def test_more_and_more_specific_matches_rank_first(seed_probes):
    log = SSH + MISMATCH  # mismatch: two signatures on two lines; ssh: one
    assert [m.record.id for m in matched(log, seed_probes)][:2] == ["cuda-pytorch-mismatch", "ssh-port-blocked"]


def test_a_match_in_a_later_chunk_has_its_true_line_number(seed_probes):
    filler = "x" * 99 + "\n"
    lines = CHUNK_CHARS // len(filler) * 2 + 7
    matches = matched(filler * lines + SSH, seed_probes)
    assert matches[0].hits[0].line_number == lines + 2


def test_cli_prints_entry_fix_url_and_line():
    done = run_match(OOM, "--lang", "en")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("1. Out of GPU memory (CUDA out of memory)  [cuda-out-of-memory]\n")
    assert "   http://127.0.0.1:8000/en/cuda-out-of-memory/\n" in out
    assert "   Quick fix: batch_size /= 2 → FP16 → gradient_checkpointing → 4-bit\n" in out
    assert "   line 9: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB." in out


def test_nothing_matched_exits_1():
    done = run_match(NOTHING, "--lang", "en")
    assert done.returncode == 1
    assert done.stdout.strip() == "no entry matches (6 lines read)"


def test_json_shape_the_sites_default_language_and_site_url(tmp_path):
    log = tmp_path / "job.log"
    log.write_text(NOTHING + DATALOADER, encoding="utf-8")
    # zh, the site's default, whatever the locale says
    env = {"PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8", "PITFALLS_SITE_URL": "https://kb.example.org/pitfalls/"}
    done = subprocess.run([sys.executable, "-m", "pitfalls", "match", "--json", str(log)], capture_output=True,
                          text=True, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["format_version"] == 1 and result["lang"] == "zh" and result["lines_read"] == 20
    entry = result["matches"][0]
    assert set(entry) == {"id", "title", "url", "quick_fix", "hits"}
    assert entry["id"] == "dataloader-workers-hang"
    assert entry["url"] == "https://kb.example.org/pitfalls/zh/dataloader-workers-hang/"
    assert entry["title"] == "多进程 DataLoader (num_workers > 0) 卡死"
    hit = entry["hits"][0]
    assert set(hit) == {"kind", "pattern", "line_number", "line", "count"}
    assert hit["line_number"] == 20 and hit["line"] == "RuntimeError: DataLoader worker (pid(s) 15872, 9744) exited unexpectedly"


def test_usage_and_content_errors_exit_2(tmp_path):
    assert run_match("", str(tmp_path / "missing.log")).returncode == 2
    assert run_match("", "--lang", "fr").returncode == 2
    broken = tmp_path / "content"
    (broken / "entries").mkdir(parents=True)
    done = run_match(SSH, "--content", str(broken))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "match: the content has 2 error(s):",
        "content/categories.yml:1:1: (file): cannot read file: No such file or directory",
        "content/tags.yml:1:1: (file): cannot read file: No such file or directory",
    ]


def test_a_nan_loss_after_150_ordinary_loss_lines_is_found(seed_probes):
    """`loss` is on every line of a training log: past 100 lines in a chunk its anchor stops picking
    candidate lines, and the pattern itself is searched. The nan line must still be found."""
    log = "".join(f"[2024-05-12 10:31:{n % 60:02d}] INFO step={n} loss={2 + n / 1000:.4f}\n" for n in range(150))
    log += "[2024-05-12 10:33:31] INFO step=150 loss=nan\n"
    matches = matched(log, seed_probes)
    assert [m.record.id for m in matches] == ["loss-nan"]
    hit = matches[0].hits[0]
    assert (hit.line_number, hit.line, hit.count) == (151, "[2024-05-12 10:33:31] INFO step=150 loss=nan", 1)


def test_a_case_insensitive_signature_matches_the_line_in_capitals(tmp_path):
    """(?i) makes the pattern's literal text no anchor: it is searched directly, in any case."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", content)
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8") + "signatures:\n  - regex: '(?i)cuda error: out of memory'\n",
                      encoding="utf-8")
    found = probes(load_knowledge_base(content))
    for line in ("CUDA ERROR: OUT OF MEMORY", "RuntimeError: CUDA error: out of memory", "cuda error: Out Of Memory"):
        matches, _ = scan(io.StringIO(f"step 1\n{line}\n"), found)
        assert [(m.record.id, m.hits[0].probe.kind, m.hits[0].line_number) for m in matches] == [("gpu-oom", "regex", 2)], line


# --- on the tiny fixture with signatures of our own: ranking, counting, the output, in-process ---


def content_with(tmp_path: Path, **signatures: str) -> Path:
    """The tiny fixture content, with a `signatures:` YAML block (the value) added to each named record."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", content)
    for record_id, block in signatures.items():
        record = content / "entries" / f"{record_id.replace('_', '-')}.yml"
        record.write_text(record.read_text(encoding="utf-8") + block, encoding="utf-8")
    return content


LOG = """\
step 1
RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB
   nvidia-smi: No devices were found
RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB
"""
OOM_SIGNATURES = "signatures:\n  - exact: 'CUDA out of memory. Tried to allocate <size>'\n  - regex: 'allocate 1\\.\\d+ GiB'\n"


def run_match_in_process(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["match", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_report_shows_each_matching_line_once_with_what_matched_it(tmp_path, capsys):
    content = content_with(tmp_path, gpu_oom=OOM_SIGNATURES)
    (tmp_path / "job.log").write_text(LOG, encoding="utf-8")
    status, out, err = run_match_in_process(capsys, str(tmp_path / "job.log"), "--content", str(content), "--lang", "en")
    assert (status, err) == (0, "")
    assert out == """\
1. Out of GPU memory  [gpu-oom]
   http://127.0.0.1:8000/en/gpu-oom/
   Quick fix: Lower batch_size
   line 2: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB
      ← exact: CUDA out of memory. Tried to allocate <size> (2 lines)
      ← symptom: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB
   line 4: RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB
      ← regex: allocate 1\\.\\d+ GiB
2. 容器内看不到 GPU  [docker-no-gpu]
   http://127.0.0.1:8000/en/docker-no-gpu/
   Quick fix: 安装 NVIDIA Container Toolkit，并加 --gpus all
   line 3: nvidia-smi: No devices were found
      ← symptom: nvidia-smi: No devices were found
"""


def test_the_report_in_chinese_is_the_default(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("PITFALLS_SITE_URL", raising=False)
    content = content_with(tmp_path, gpu_oom=OOM_SIGNATURES)
    (tmp_path / "job.log").write_text(LOG, encoding="utf-8")
    status, out, _ = run_match_in_process(capsys, str(tmp_path / "job.log"), "--content", str(content),
                                          "--site-url", "https://kb.example.org/x")
    assert status == 0
    assert out.splitlines()[:6] == [
        "1. 显存不足  [gpu-oom]",
        "   https://kb.example.org/x/zh/gpu-oom/",
        "   快速修复: 减小 batch_size",
        "   第 2 行: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "      ← exact: CUDA out of memory. Tried to allocate <size> (2 行)",
        "      ← symptom: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]


def test_the_json_report_in_process(tmp_path, capsys):
    content = content_with(tmp_path, gpu_oom=OOM_SIGNATURES)
    (tmp_path / "job.log").write_text(LOG, encoding="utf-8")
    status, out, _ = run_match_in_process(capsys, str(tmp_path / "job.log"), "--json", "--content", str(content),
                                          "--lang", "en")
    assert status == 0
    result = json.loads(out)
    assert {k: v for k, v in result.items() if k != "matches"} == {"format_version": 1, "lang": "en", "lines_read": 4}
    assert [(m["id"], m["title"], m["url"], m["quick_fix"]) for m in result["matches"]] == [
        ("gpu-oom", "Out of GPU memory", "http://127.0.0.1:8000/en/gpu-oom/", "Lower batch_size"),
        ("docker-no-gpu", "容器内看不到 GPU", "http://127.0.0.1:8000/en/docker-no-gpu/", "安装 NVIDIA Container Toolkit，并加 --gpus all"),
    ]
    assert result["matches"][1]["hits"] == [
        {"kind": "symptom", "pattern": "nvidia-smi: No devices were found", "line_number": 3,
         "line": "   nvidia-smi: No devices were found", "count": 1}]  # the JSON keeps the line as it was
    assert [(h["kind"], h["line_number"], h["count"]) for h in result["matches"][0]["hits"]] == [
        ("exact", 2, 2), ("symptom", 2, 1), ("regex", 4, 1)]


def test_reading_standard_input_and_nothing_found(tmp_path, capsys, monkeypatch):
    content = content_with(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ok\r\n\xff\xfe not utf-8\r\nlast line")))
    status, out, _ = run_match_in_process(capsys, "--content", str(content), "--lang", "en")
    assert (status, out) == (1, "no entry matches (3 lines read)\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("一切正常\n".encode())))
    status, out, _ = run_match_in_process(capsys, "-", "--content", str(content))
    assert (status, out) == (1, "没有匹配的条目（读取 1 行）\n")


def test_a_missing_log_or_broken_content_exits_2_with_the_reason(tmp_path, capsys):
    content = content_with(tmp_path)
    status, out, err = run_match_in_process(capsys, str(tmp_path / "missing.log"), "--content", str(content))
    assert (status, out, err) == (2, "", f"match: FILE {tmp_path / 'missing.log'}: No such file or directory; check the path\n")
    (content / "tags.yml").write_text("cuda: {zh: CUDA}\n", encoding="utf-8")
    (tmp_path / "train.log").write_text("loss 0.1\n", encoding="utf-8")  # the log is checked first, the content next
    status, out, err = run_match_in_process(capsys, str(tmp_path / "train.log"), "--content", str(content))
    assert (status, out) == (2, "") and "content/tags.yml:1:7: cuda: 'en' is required" in err


def ranked(content: Path, log: str) -> list[tuple]:
    matches, _ = scan(io.StringIO(log), probes(load_knowledge_base(content)))
    return [(m.record.id, [(h.probe.kind, h.line_number) for h in m.hits]) for m in matches]


def test_entries_rank_by_patterns_then_specificity_then_line_then_id(tmp_path):
    content = content_with(
        tmp_path,
        docker_no_gpu="signatures:\n  - exact: 'alpha failure'\n  - exact: 'omega failure of the long kind'\n",
        gpu_oom="signatures:\n  - exact: 'bravo failure'\n",  # as specific as alpha failure: 12 literal characters
    )
    # docker-no-gpu comes first by id: gpu-oom wins on one rule where it loses on the next ones
    assert [i for i, _ in ranked(content, "bravo failure\nalpha failure\n")] == ["gpu-oom", "docker-no-gpu"]  # earlier line
    assert [i for i, _ in ranked(content, "alpha failure\nbravo failure\n")] == ["docker-no-gpu", "gpu-oom"]
    assert [i for i, _ in ranked(content, "bravo failure and alpha failure\n")] == ["docker-no-gpu", "gpu-oom"]  # same line: id
    assert [i for i, _ in ranked(content, "bravo failure\nomega failure of the long kind\n")] == ["docker-no-gpu", "gpu-oom"]  # more specific
    assert ranked(content, "bravo failure\nomega failure of the long kind\nalpha failure\n") == [
        ("docker-no-gpu", [("exact", 2), ("exact", 3)]), ("gpu-oom", [("exact", 1)])]
    content = content_with(tmp_path / "2", gpu_oom="signatures:\n  - exact: 'bravo failure'\n  - exact: 'gamma failure'\n",
                           docker_no_gpu="signatures:\n  - exact: 'alpha failure of the much longer and more specific kind'\n")
    assert [i for i, _ in ranked(content, "alpha failure of the much longer and more specific kind\nbravo failure\ngamma failure\n")] \
        == ["gpu-oom", "docker-no-gpu"]  # two patterns beat one more specific, on an earlier line


@pytest.mark.parametrize("symptom, probed", [("a b c d", False), ("ab cde", True), ("Error", True), ("Err", False)])
def test_a_verbatim_symptom_is_a_pattern_from_5_non_blank_characters(tmp_path, symptom, probed):
    content = content_with(tmp_path)
    record = content / "entries" / "docker-no-gpu.yml"
    record.write_text(record.read_text(encoding="utf-8").replace('  - "nvidia-smi: No devices were found"',
                                                                 f'  - "nvidia-smi: No devices were found"\n  - "{symptom}"'),
                      encoding="utf-8")
    found = [(p.record.id, p.kind, p.text, p.specificity) for p in probes(load_knowledge_base(content))]
    assert (("docker-no-gpu", "symptom", symptom, len(symptom.replace(" ", ""))) in found) is probed
    assert ("gpu-oom", "symptom", "OOM at the first training step", 25) not in found  # a behaviour, in words: no pattern
    assert [ranked(content, f"x {symptom}  y\n")] == ([[("docker-no-gpu", [("symptom", 1)])]] if probed else [[]])


def test_counts_line_numbers_and_the_shown_line(tmp_path):
    content = content_with(tmp_path)
    long_line = "nvidia-smi: No devices were found " + "x" * 400
    log = f"a\r\nnvidia-smi: No devices were found\r\nb\n{long_line}\nnvidia-smi: No devices were found"
    matches, lines = scan(io.StringIO(log), probes(load_knowledge_base(content)))
    assert lines == 5  # the last line has no newline
    (hit,) = matches[0].hits
    assert (hit.line_number, hit.count, hit.line) == (2, 3, "nvidia-smi: No devices were found\r")
    matches, _ = scan(io.StringIO(f"{long_line}\n"), probes(load_knowledge_base(content)))
    assert matches[0].hits[0].line == long_line[:300]


def test_a_line_across_the_end_of_a_chunk_is_read_whole(tmp_path):
    content = content_with(tmp_path)
    filler = "x" * 99 + "\n"
    head = filler * (CHUNK_CHARS // len(filler)) + "y" * (CHUNK_CHARS % len(filler) - 10)  # the chunk ends 10 characters on
    log = head + "nvidia-smi: No devices were found\nnext\n"
    matches, lines = scan(io.StringIO(log), probes(load_knowledge_base(content)))
    assert lines == CHUNK_CHARS // len(filler) + 2
    assert [(m.record.id, m.hits[0].line_number) for m in matches] == [("docker-no-gpu", CHUNK_CHARS // len(filler) + 1)]


def test_a_common_anchor_searched_directly_keeps_the_patterns_without_one(tmp_path):
    """150 lines with `devices` make the symptom's anchor too common to pick lines by; the case-insensitive
    signature, which has no anchor, must still be searched too."""
    content = content_with(tmp_path, gpu_oom="signatures:\n  - regex: '(?i)cuda error: out of memory'\n")
    log = "nvidia-smi: 2 devices ok\n" * 150 + "CUDA ERROR: OUT OF MEMORY\nnvidia-smi: No devices were found\n"  # the anchor is `nvidia-smi:`
    assert sorted(ranked(content, log)) == [("docker-no-gpu", [("symptom", 152)]), ("gpu-oom", [("regex", 151)])]


def test_match_reads_the_sites_content_by_default(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PITFALLS_SITE_URL", raising=False)
    (tmp_path / "ssh.log").write_bytes(SSH.encode() + b"\xff\xfe broken bytes are replaced\n")
    status, out, _ = run_match_in_process(capsys, str(tmp_path / "ssh.log"), "--lang", "en")
    assert status == 0
    assert out.startswith("1. SSH port blocked by a firewall / server unreachable  [ssh-port-blocked]\n"
                          "   http://127.0.0.1:8000/en/ssh-port-blocked/\n")


def test_the_json_is_indented_utf_8(tmp_path, capsys):
    content = content_with(tmp_path)
    (tmp_path / "job.log").write_text(LOG, encoding="utf-8")
    _, out, _ = run_match_in_process(capsys, str(tmp_path / "job.log"), "--json", "--content", str(content))
    assert out.startswith('{\n  "format_version": 1,\n  "lang": "zh",\n')
    assert '"title": "容器内看不到 GPU"' in out


def test_match_help_names_its_options(capsys, monkeypatch):
    monkeypatch.delenv("PITFALLS_SITE_URL", raising=False)
    monkeypatch.setenv("COLUMNS", "1000")  # no wrapping (argparse would break a path at its hyphens)
    with pytest.raises(SystemExit) as done:
        main(["match", "--help"])
    out = " " + " ".join(capsys.readouterr().out.split()) + " "
    assert done.value.code == 0
    for text in ("FILE", "log or traceback to read; - (the default) reads stdin", "--lang {zh,en}",
                 "language of titles and URLs (default: zh, the site's default)", "print the result as JSON",
                 f"content folder (default: {ROOT / 'content'})",
                 "public root URL of the printed links (default: http://127.0.0.1:8000/)"):
        assert f" {text} " in out, text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert " match 从日志或报错找条目 / the entries whose error a log or traceback shows " in " ".join(capsys.readouterr().out.split())


def test_a_closed_pipe_ends_match_quietly(tmp_path, capsys, monkeypatch):
    """`pitfalls match log | head`: the reader stopped reading; no traceback, and the exit status still says what matched."""
    content = content_with(tmp_path)
    (tmp_path / "job.log").write_text(LOG, encoding="utf-8")

    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["match", str(tmp_path / "job.log"), "--content", str(content)]) == 0
    assert sys.stdout is None


def test_symptoms_are_matched_literally_even_with_angle_brackets(tmp_path):
    content = content_with(tmp_path)
    record = content / "entries" / "docker-no-gpu.yml"
    record.write_text(record.read_text(encoding="utf-8").replace('  - "nvidia-smi: No devices were found"',
                                                                 '  - "worker <pid> lost <num> devices"'), encoding="utf-8")
    assert ranked(content, "worker 42 lost 3 devices\n") == []  # <pid> is no placeholder in a symptom
    assert ranked(content, "x worker <pid> lost <num> devices\n") == [("docker-no-gpu", [("symptom", 1)])]


def test_the_edges_of_a_log(tmp_path):
    content = content_with(tmp_path, gpu_oom="signatures:\n  - regex: '(?i)cuda error: out of memory'\n")
    found = probes(load_knowledge_base(content))
    assert scan(io.StringIO(""), found) == ([], 0)
    # a blank first line, found through an anchor and through a pattern searched directly
    matches, lines = scan(io.StringIO("\nnvidia-smi: No devices were found\n\n"), found)
    assert (lines, [(m.record.id, m.hits[0].line_number) for m in matches]) == (3, [("docker-no-gpu", 2)])
    matches, _ = scan(io.StringIO("\nCUDA ERROR: OUT OF MEMORY\n"), found)
    assert [(m.record.id, m.hits[0].line_number, m.hits[0].line) for m in matches] == [("gpu-oom", 2, "CUDA ERROR: OUT OF MEMORY")]
    # a match on the log's very first character
    matches, _ = scan(io.StringIO("CUDA ERROR: OUT OF MEMORY X\nok\n"), found)
    assert [(m.record.id, m.hits[0].line_number, m.hits[0].line) for m in matches] == [("gpu-oom", 1, "CUDA ERROR: OUT OF MEMORY X")]


def test_a_log_is_read_as_utf_8_whatever_the_locale(tmp_path, capsys, monkeypatch):
    content = content_with(tmp_path)
    record = content / "entries" / "docker-no-gpu.yml"
    record.write_text(record.read_text(encoding="utf-8").replace('  - "nvidia-smi: No devices were found"',
                                                                 '  - "错误：找不到 GPU 设备"'), encoding="utf-8")
    log = tmp_path / "job.log"
    log.write_text("启动\n错误：找不到 GPU 设备\n", encoding="utf-8")
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # a server whose locale is plain ASCII
    try:
        status, out, _ = run_match_in_process(capsys, str(log), "--content", str(content), "--json")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(log.read_bytes())))
        from_stdin, _, _ = run_match_in_process(capsys, "--content", str(content))
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert (status, from_stdin) == (0, 0)
    assert json.loads(out)["matches"][0]["hits"][0]["line"] == "错误：找不到 GPU 设备"


def test_a_pattern_searched_directly_that_can_start_at_a_newline_still_finds_every_line(tmp_path):
    """`\\s*` lets the first match begin at the newline of a blank first line: the search goes on from the next line."""
    content = content_with(tmp_path, gpu_oom="signatures:\n  - regex: '(?i)\\s*cuda error: out of memory'\n")
    log = "\nCUDA ERROR: OUT OF MEMORY\nok\n  cuda error: out of memory\n"
    assert [(m.record.id, [(h.line_number, h.count) for h in m.hits]) for m in scan(io.StringIO(log), probes(load_knowledge_base(content)))[0]] \
        == [("gpu-oom", [(2, 2)])]
