"""The contributor's command line on fixtures: new → check, every kind of broken record with
its exact message, line and exit status, warnings, annotations, and similar-entry detection."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pitfalls.commands.cli import main
from pitfalls.commands.new import PLACEHOLDER

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"

GOOD = """\
id: {id}
category: training
title:
  zh: 学习率太大导致 loss 爆炸
  en: Loss explodes because the learning rate is too high
quick_fix:
  zh: 把学习率降低 10 倍
  en: Lower the learning rate tenfold
symptoms:
  - "ValueError: loss is nan at step 120"
steps:
  - zh: 降低学习率：
    en: "Lower the learning rate:"
    code: python train.py --lr 1e-4
tags: [cuda]
last_verified: 2026-11-02
"""


@pytest.fixture
def content(tmp_path) -> Path:
    """A writable copy of the tiny fixture content (gpu-oom: complete; docker-no-gpu: zh only)."""
    target = tmp_path / "content"
    shutil.copytree(TINY, target)
    return target


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `python -m pitfalls ARGV`."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(content: Path, name: str, text: str) -> Path:
    path = content / "entries" / f"{name}.yml"
    path.write_text(text, encoding="utf-8")
    return path


# --- new ---


def test_new_then_check_passes(content, capsys):
    status, out, err = run(capsys, "new", "--content", str(content), "--id", "lr-too-high", "--category", "training",
                           "--tags", "cuda, gpu-memory", "--title-zh", "学习率太大", "--title-en", "Learning rate too high")
    assert status == 0, err
    path = content / "entries" / "lr-too-high.yml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../pitfalls/record.schema.json\n")
    schema = json.loads((ROOT / "pitfalls" / "record.schema.json").read_text(encoding="utf-8"))
    for field in schema["properties"]:  # every field, written out or (when it cannot be empty) commented out
        assert f"\n{field}:" in text or f"\n# {field}:" in text, field
    assert "\n  zh: 学习率太大\n" in text and "tags: [cuda, gpu-memory]" in text

    status, out, err = run(capsys, "check", "--content", str(content), str(path))
    assert status == 0, out
    assert err.startswith("0 error(s), ")
    # what is left to write is flagged, at its line
    assert f"content/entries/lr-too-high.yml:12:7: quick_fix.zh: placeholder '{PLACEHOLDER}' left from `new`" in out
    assert "title.zh: placeholder" not in out  # given as a flag
    url_line = text.splitlines().index("    url: https://example.com/") + 1
    assert (f"content/entries/lr-too-high.yml:{url_line}:10: references[0].url: placeholder URL 'https://example.com/' "
            "left from `new`: link the page you mean, or delete the reference (warning)") in out.splitlines()


def test_new_filled_in_passes_without_warnings(content, capsys):
    assert run(capsys, "new", "--content", str(content), "--id", "lr-too-high", "--category", "training",
               "--tags", "cuda")[0] == 0
    write(content, "lr-too-high", GOOD.format(id="lr-too-high"))
    status, out, err = run(capsys, "check", "--content", str(content), str(content / "entries" / "lr-too-high.yml"))
    assert (status, out, err) == (0, "", "0 error(s), 0 warning(s)\n")


def test_new_asks_on_a_terminal(content, capsys, monkeypatch):
    answers = iter(["asked-entry", "deployment", "docker", "", "Asked title", ""])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, err = run(capsys, "new", "--content", str(content))
    assert status == 0, err
    text = (content / "entries" / "asked-entry.yml").read_text(encoding="utf-8")
    assert "category: deployment" in text and "en: Asked title\n" in text and f"zh: {PLACEHOLDER}：" in text


@pytest.mark.parametrize("flags, message", [
    (["--id", "gpu-oom"], "new: id 'gpu-oom' is already used by {entries}/gpu-oom.yml"),
    # the scaffold goes through the validator: its messages, as `check` would print them
    (["--id", "cuda-oom-old"], "new: id: id 'cuda-oom-old' is already used by content/entries/gpu-oom.yml; "
                               "two entries cannot share a URL"),  # an alias
    (["--id", "GPU_OOM"], "new: 'GPU_OOM' is not a valid id: lowercase ASCII letters, digits and single hyphens (e.g. 'gpu-oom')"),
    (["--id", "a" * 81], "new: id: is 81 characters long; the limit is 80"),
    (["--id", "tags"], "new: id: id 'tags' is reserved for a site page"),
    (["--id", "ok-id", "--tags", "cuda,Not_A_Key"], "new: tags[1]: 'Not_A_Key' is not a valid key: lowercase ASCII "
                                                  "letters, digits and single hyphens (e.g. 'not-a-key')"),
])
def test_new_refuses(content, capsys, flags, message):
    defaults = {"--id": "ok-id", "--category": "training", "--tags": "cuda"}
    defaults.update(dict(zip(flags[::2], flags[1::2], strict=True)))
    before = sorted(p.name for p in (content / "entries").iterdir())
    status, out, err = run(capsys, "new", "--content", str(content), *(x for kv in defaults.items() for x in kv))
    assert status == 2
    assert err.strip() == message.format(entries=content / "entries")
    assert sorted(p.name for p in (content / "entries").iterdir()) == before


@pytest.mark.parametrize("flags, expected", [
    (["--tags", "cuda,numerical-stability"],
     "new: tag 'numerical-stability' is not in content/tags.yml; known: cuda, gpu-memory, docker, unused. To add it, put "
     "these lines in content/tags.yml, write its Chinese label, then run `new` again:\n"
     'numerical-stability:\n  zh: ""\n  en: Numerical stability\n'),
    (["--category", "infra"],
     "new: category 'infra' is not in content/categories.yml; known: training, deployment. To add it, put these lines in "
     "content/categories.yml, write its Chinese label, then run `new` again:\n"
     'infra:\n  zh: ""\n  en: Infra\n'),
])
def test_new_prints_the_yaml_that_adds_an_unknown_key_without_a_terminal(content, capsys, monkeypatch, flags, expected):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    defaults = {"--id": "ok-id", "--category": "training", "--tags": "cuda"}
    defaults.update(dict(zip(flags[::2], flags[1::2], strict=True)))
    status, _, err = run(capsys, "new", "--content", str(content), *(x for kv in defaults.items() for x in kv))
    assert (status, err) == (2, expected)
    assert not (content / "entries" / "ok-id.yml").exists()
    # pasted as printed, with the label written in, the same command goes through
    registry = content / ("tags.yml" if "--tags" in flags else "categories.yml")
    paste = expected.split(":\n", 1)[1].replace('zh: ""', "zh: 数值稳定")
    registry.write_text(registry.read_text(encoding="utf-8") + paste, encoding="utf-8")
    assert run(capsys, "new", "--content", str(content), *(x for kv in defaults.items() for x in kv))[0] == 0


def test_new_offers_to_add_a_missing_tag_on_a_terminal(content, capsys, monkeypatch):
    answers = iter(["y", "基础设施", "Infrastructure", "y", "数值稳定性", ""])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, err = run(capsys, "new", "--content", str(content), "--id", "lr-too-high", "--category", "infra",
                           "--tags", "cuda,numerical-stability", "--title-zh", "", "--title-en", "", "--symptom", "")
    assert status == 0, err
    assert "added category 'infra' to content/categories.yml" in err and "added tag 'numerical-stability'" in err
    tags = (content / "tags.yml").read_text(encoding="utf-8")
    # at the end (the fixture's keys are not alphabetical), with the English label suggested from the key
    assert tags.endswith("en: Unused\nnumerical-stability:\n  zh: 数值稳定性\n  en: Numerical stability\n")
    assert (content / "categories.yml").read_text(encoding="utf-8").endswith("infra:\n  zh: 基础设施\n  en: Infrastructure\n")
    status, out, _ = run(capsys, "check", "--content", str(content), str(content / "entries" / "lr-too-high.yml"))
    assert status == 0 and "unknown" not in out


def test_new_adds_nothing_when_a_label_is_refused(content, capsys, monkeypatch):
    answers = iter(["y", "", ""])  # no Chinese label
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    before = (content / "tags.yml").read_text(encoding="utf-8")
    status, _, err = run(capsys, "new", "--content", str(content), "--id", "x-y", "--category", "training",
                         "--tags", "mps", "--title-zh", "", "--title-en", "", "--symptom", "")
    assert status == 2
    assert err == "new: content/tags.yml would not be valid: mps.zh: must not be empty\n"
    assert (content / "tags.yml").read_text(encoding="utf-8") == before


def test_new_asks_for_no_label_when_the_draft_is_refused_anyway(content, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail(f"asked {prompt!r}"))
    before = (content / "tags.yml").read_text(encoding="utf-8")
    status, _, err = run(capsys, "new", "--content", str(content), "--id", "cuda-oom-old", "--category", "training",
                         "--tags", "mps", "--title-zh", "", "--title-en", "", "--symptom", "")
    assert (status, err) == (2, "new: id: id 'cuda-oom-old' is already used by content/entries/gpu-oom.yml; two entries "
                                "cannot share a URL\n")
    assert (content / "tags.yml").read_text(encoding="utf-8") == before


def test_new_without_a_terminal_names_the_missing_flag(content, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    status, _, err = run(capsys, "new", "--content", str(content), "--id", "x-y")
    assert (status, err.strip()) == (2, "new: --category is required (stdin is not a terminal, so it cannot be asked for)")


# --- check: errors ---

BROKEN = [
    # (what, file name, record text, expected line)
    ("unknown tag", "lr-too-high", GOOD.format(id="lr-too-high").replace("tags: [cuda]", "tags: [cuda, gpu-memry]"),
     "content/entries/lr-too-high.yml:15:14: tags[1]: unknown tag 'gpu-memry' (did you mean 'gpu-memory'?); "
     "add it to content/tags.yml with a zh and an en label (CONTRIBUTING.md), or use a known key"),
    ("unknown category", "lr-too-high", GOOD.format(id="lr-too-high").replace("category: training", "category: trainig"),
     "content/entries/lr-too-high.yml:2:11: category: unknown category 'trainig' (did you mean 'training'?); known: "
     "training, deployment; a new one goes in content/categories.yml with a zh and an en label (CONTRIBUTING.md)"),
    ("id is not the file name (two files, one id)", "lr-copy", GOOD.format(id="gpu-oom"),
     "content/entries/lr-copy.yml:1:5: id: id 'gpu-oom' differs from the file name 'lr-copy.yml'; they must match"),
    ("broken related", "lr-too-high", GOOD.format(id="lr-too-high") + "related: [gpu-oom, docker-no-gpus]\n",
     "content/entries/lr-too-high.yml:17:20: related[1]: no entry has id 'docker-no-gpus' (did you mean 'docker-no-gpu'?)"),
    ("alias clashing with an id", "lr-too-high", GOOD.format(id="lr-too-high") + "aliases: [old-lr, docker-no-gpu]\n",
     "content/entries/lr-too-high.yml:17:19: aliases[1]: alias 'docker-no-gpu' is already used by "
     "content/entries/docker-no-gpu.yml; two entries cannot share a URL"),
    ("alias clashing with another alias", "lr-too-high", GOOD.format(id="lr-too-high") + "aliases: [cuda-oom-old]\n",
     "content/entries/lr-too-high.yml:17:11: aliases[0]: alias 'cuda-oom-old' is already used by "
     "content/entries/gpu-oom.yml; two entries cannot share a URL"),
    ("alias equal to its own id", "lr-too-high", GOOD.format(id="lr-too-high") + "aliases: [lr-too-high]\n",
     "content/entries/lr-too-high.yml:17:11: aliases[0]: alias 'lr-too-high' is the entry's own id; an alias is a former id"),
    ("related to itself", "lr-too-high", GOOD.format(id="lr-too-high") + "related: [lr-too-high]\n",
     "content/entries/lr-too-high.yml:17:11: related[0]: an entry cannot be related to itself"),
]


@pytest.mark.parametrize("what, name, text, expected", BROKEN, ids=[b[0] for b in BROKEN])
def test_check_reports_each_broken_record_at_its_line(content, capsys, what, name, text, expected):
    path = write(content, name, text)
    status, out, err = run(capsys, "check", "--content", str(content))
    assert status == 1
    assert [line for line in out.splitlines() if not line.endswith("(warning)")] == [expected]
    assert err.startswith("1 error(s), ")
    # naming the file reports its problems only (the tiny fixture's warnings are elsewhere)
    assert run(capsys, "check", "--content", str(content), str(path))[:2] == (1, expected + "\n")


def test_check_annotates_for_github_actions(content, capsys, monkeypatch):
    write(content, "lr-too-high", GOOD.format(id="lr-too-high").replace("tags: [cuda]", "tags: [cuda, gpu-memry]"))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    status, out, _ = run(capsys, "check", "--content", str(content), "--verbose")
    assert status == 1
    assert ("::error file=content/entries/lr-too-high.yml,line=15,col=14,title=tags[1]::unknown tag 'gpu-memry' "
            "(did you mean 'gpu-memory'?); add it to content/tags.yml with a zh and an en label (CONTRIBUTING.md), or "
            "use a known key") in out.splitlines()
    assert ("::warning file=content/entries/docker-no-gpu.yml,line=1,col=1,title=last_verified::"
            "not set: add the date (YYYY-MM-DD) someone last confirmed the fix") in out.splitlines()


def test_check_with_files_still_fails_on_errors_elsewhere(content, capsys):
    write(content, "lr-too-high", GOOD.format(id="lr-too-high") + "related: [nowhere]\n")
    status, out, err = run(capsys, "check", "--content", str(content), str(content / "entries" / "gpu-oom.yml"))
    assert status == 1 and "lr-too-high" not in out
    assert "1 more error(s) in 1 other file(s) (content/entries/lr-too-high.yml): run `check` without FILES" in err


def test_check_puts_a_broken_registry_first_without_a_cascade(content, capsys):
    tags = content / "tags.yml"  # the walk-through's typo: `eng:` for `en:`
    tags.write_text(tags.read_text(encoding="utf-8").replace("  en: CUDA", "  eng: CUDA"), encoding="utf-8")
    write(content, "lr-too-high", GOOD.format(id="lr-too-high").replace("tags: [cuda]", "tags: [cuda, gpu-memry]"))
    cause = ["content/tags.yml:2:3: cuda: 'en' is required",
             "content/tags.yml:3:3: cuda.eng: unknown field 'eng' (did you mean 'en'?); allowed: zh, en"]
    note = ("note: content/tags.yml has errors, so the tags named by 3 record(s) were not checked; fix it first, "
            "then check again")
    own = ("content/entries/lr-too-high.yml:15:14: tags[1]: unknown tag 'gpu-memry' (did you mean 'gpu-memory'?); "
           "add it to content/tags.yml with a zh and an en label (CONTRIBUTING.md), or use a known key")
    status, out, err = run(capsys, "check", "--content", str(content))
    assert status == 1
    assert [line for line in out.splitlines() if not line.endswith("(warning)")] == [*cause, note, own]
    assert err.startswith("3 error(s), ")
    # a record: its own problems and those of the registries it depends on
    status, out, err = run(capsys, "check", "--content", str(content), str(content / "entries" / "lr-too-high.yml"))
    assert (status, out.splitlines()) == (1, [*cause, note, own])
    assert "more error(s)" not in err
    # the registry alone narrows the output to it
    status, out, err = run(capsys, "check", "--content", str(content), str(tags))
    assert (status, out.splitlines()) == (1, [*cause, note])
    assert err.endswith("1 more error(s) in 1 other file(s) (content/entries/lr-too-high.yml): run `check` without FILES\n")


# --- check: warnings ---


def test_check_warnings_do_not_fail(content, capsys):
    write(content, "lr-too-high", GOOD.format(id="lr-too-high")
          .replace('  - "ValueError: loss is nan at step 120"', '  - "训练几步后 loss 变成 nan"\n  - "The loss goes up"')
          .replace("    code: python train.py --lr 1e-4\n", "")
          .replace("last_verified: 2026-11-02\n", ""))
    status, out, err = run(capsys, "check", "--content", str(content), str(content / "entries" / "lr-too-high.yml"))
    assert status == 0
    not_message = ("a plain-string symptom is shown as a verbatim error message, but this does not look like one; "
                   "paste the exact message, or describe the behaviour as {zh: …, en: …} (warning)")
    assert out.splitlines() == [
        "content/entries/lr-too-high.yml:1:1: last_verified: not set: add the date (YYYY-MM-DD) someone last "
        "confirmed the fix (warning)",
        f"content/entries/lr-too-high.yml:10:5: symptoms[0]: {not_message}",
        f"content/entries/lr-too-high.yml:11:5: symptoms[1]: {not_message}",
        "content/entries/lr-too-high.yml:13:3: steps: no step gives a command: add `code` (or inline `code`) to the "
        "step where the reader runs something (warning)",
    ]
    assert err == "0 error(s), 4 warning(s)\n"


@pytest.mark.parametrize("url, flagged", [
    ("https://example.org/docs", True), ("http://docs.example.com/x", True), ("https://kb.example/a", True),
    ("https://pytorch.org/docs/stable/notes/cuda.html", False), ("https://myexample.com/", False),
])
def test_check_flags_example_urls_like_placeholders(content, capsys, url, flagged):
    path = write(content, "lr-too-high", GOOD.format(id="lr-too-high") + f"references:\n  - title: Docs\n    url: {url}\n")
    status, out, _ = run(capsys, "check", "--content", str(content), str(path))
    assert status == 0
    expected = (f"content/entries/lr-too-high.yml:19:10: references[0].url: placeholder URL {url!r}: link the page you "
                "mean, or delete the reference (warning)\n")
    assert out == (expected if flagged else "")


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=folder, check=True, capture_output=True)


def test_check_sums_up_missing_dates_of_records_nobody_changed(content, capsys):
    unverified = ("content/entries/docker-no-gpu.yml:1:1: last_verified: not set: add the date (YYYY-MM-DD) someone "
                  "last confirmed the fix (warning)")
    summary = "1 unchanged record(s) have no last_verified date (--verbose lists them)\n"
    _git(content, "init", "-q", "-b", "main")
    _git(content, "add", ".")
    _git(content, "commit", "-q", "-m", "seed")
    status, out, err = run(capsys, "check", "--content", str(content))
    assert status == 0 and unverified not in out.splitlines()
    assert err.endswith(summary) and "0 error(s), 1 warning(s)" in err  # the translation warning stays
    assert unverified in run(capsys, "check", "--content", str(content), "--verbose")[1].splitlines()
    assert unverified in run(capsys, "check", "--content", str(content), str(content / "entries" / "docker-no-gpu.yml"))[1]
    # a record being worked on gets it in full: changed in the working tree, or since --new-since
    docker = content / "entries" / "docker-no-gpu.yml"
    docker.write_text(docker.read_text(encoding="utf-8") + "related: [gpu-oom]\n", encoding="utf-8")
    status, out, err = run(capsys, "check", "--content", str(content))
    assert unverified in out.splitlines() and "unchanged record" not in err
    _git(content, "commit", "-q", "-am", "relate")
    assert unverified not in run(capsys, "check", "--content", str(content))[1]
    assert unverified in run(capsys, "check", "--content", str(content), "--new-since", "HEAD~1")[1].splitlines()


def test_check_warns_about_a_missing_translation(content, capsys):
    status, out, _ = run(capsys, "check", "--content", str(content), str(content / "entries" / "docker-no-gpu.yml"))
    assert status == 0
    assert ("content/entries/docker-no-gpu.yml:4:3: title: not translated into English (en): title, quick_fix, steps[0]; "
            "the en page shows the other language under a notice (warning)") in out.splitlines()


def test_check_translations_prints_coverage(content, capsys):
    status, out, _ = run(capsys, "check", "--content", str(content), "--translations")
    assert status == 0
    assert out.split("翻译覆盖率 / translation coverage:\n")[1] == (
        "  zh: 2/2 records complete (100%)\n"
        "  en: 1/2 records complete (50%)\n"
        "    missing en: content/entries/docker-no-gpu.yml\n")


def test_the_real_content_has_no_errors(capsys):
    status, out, err = run(capsys, "check")
    assert status == 0, out


# --- similar ---

NEAR_DUPLICATE = """\
id: gpu-memory-exhausted
title:
  zh: 训练时显存不足 OOM
  en: GPU runs out of memory during training
symptoms:
  - zh: 训练刚开始就 OOM
    en: OOM right at the first training step
"""
DISTINCT = """\
id: matplotlib-font
title:
  zh: matplotlib 中文显示为方框
  en: Chinese characters show as boxes in matplotlib plots
symptoms:
  - "UserWarning: Glyph 20013 missing from current font."
"""


def test_similar_names_a_planted_near_duplicate(tmp_path, capsys):
    draft = tmp_path / "draft.yml"
    draft.write_text(NEAR_DUPLICATE, encoding="utf-8")
    status, out, err = run(capsys, "similar", str(draft))
    assert status == 0
    assert out.splitlines() == ["content/entries/cuda-out-of-memory.yml: 显存不足 (CUDA out of memory) (similarity 0.47)"]


def test_similar_stays_quiet_on_a_distinct_entry(tmp_path, capsys):
    draft = tmp_path / "draft.yml"
    draft.write_text(DISTINCT, encoding="utf-8")
    status, out, err = run(capsys, "similar", str(draft))
    assert (status, out) == (0, "")
    assert err == "0 similar entries / 相似条目 0 条\n"


def test_similar_names_an_entry_with_the_same_error_message(tmp_path, capsys):
    draft = tmp_path / "draft.yml"  # the numbers differ, the message is the same
    draft.write_text('title: {en: Something else}\nsymptoms:\n  - "RuntimeError: CUDA out of memory. Tried to allocate '
                     '8.00 GiB"\n', encoding="utf-8")
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    status, out, _ = run(capsys, "similar", "--content", str(content), str(draft))
    assert out.startswith("content/entries/gpu-oom.yml: 显存不足 (similarity ")
    assert out.rstrip().endswith("same error message 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB')")


RETITLED_OOM = """\
id: training-gpu-memory-full
title:
  zh: 训练时 GPU 内存满了
  en: GPU memory full while training
symptoms:
  - "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"
"""
"""The walk-through's draft: titled differently, its one symptom the very line `match` maps to cuda-out-of-memory."""


def test_similar_names_the_entry_whose_signature_the_drafts_error_matches(tmp_path, capsys):
    draft = tmp_path / "draft.yml"
    draft.write_text(RETITLED_OOM, encoding="utf-8")
    status, out, err = run(capsys, "similar", str(draft))
    assert status == 0 and err == "1 similar entry / 相似条目 1 条\n"
    assert out == ("content/entries/cuda-out-of-memory.yml: 显存不足 (CUDA out of memory) (similarity 0.35; its signature "
                   "'CUDA out of memory. Tried to allocate <size>' matches the error message)\n")


def test_check_warns_when_a_new_records_error_matches_a_signature(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    _git(content, "init", "-q", "-b", "main")
    _git(content, "add", ".")
    _git(content, "commit", "-q", "-m", "seed")
    write(content, "lr-too-high", GOOD.format(id="lr-too-high").replace(
        "ValueError: loss is nan at step 120", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"))
    status, out, _ = run(capsys, "check", "--content", str(content))
    assert status == 0
    assert ("content/entries/lr-too-high.yml:4:3: title: probably the same pitfall as content/entries/cuda-out-of-memory.yml: "
            "显存不足 (CUDA out of memory) (similarity 0.33; its signature 'CUDA out of memory. Tried to allocate <size>' "
            "matches the error message); extend that entry, or say how this one differs (warning)") in out.splitlines()


def test_similar_names_an_entry_whose_message_the_drafts_line_contains(tmp_path, capsys):
    draft = tmp_path / "draft.yml"  # the whole line, other numbers, other case and punctuation
    draft.write_text('title: {en: Something else}\nsymptoms:\n  - "[rank3] E0512 nvidia-smi -- no devices were found '
                     '(after 3 retries)"\n', encoding="utf-8")
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    status, out, _ = run(capsys, "similar", "--content", str(content), str(draft))
    assert out.startswith("content/entries/docker-no-gpu.yml: 容器内看不到 GPU (similarity ")
    assert out.rstrip().endswith("same error message 'nvidia-smi: No devices were found')")


def test_new_compares_the_error_message_it_is_given(content, capsys):
    status, out, err = run(capsys, "new", "--content", str(content), "--id", "docker-gpus", "--category", "deployment",
                           "--tags", "docker", "--symptom", "nvidia-smi: No devices were found")
    assert status == 0, err
    assert ("similar existing entry / 相似条目: content/entries/docker-no-gpu.yml: 容器内看不到 GPU (similarity 1.00; "
            "same error message 'nvidia-smi: No devices were found')") in err.splitlines()
    text = (content / "entries" / "docker-gpus.yml").read_text(encoding="utf-8")
    assert '  - "nvidia-smi: No devices were found"\n' in text


def test_similar_does_not_match_an_entry_with_itself(capsys):
    status, out, _ = run(capsys, "similar", str(ROOT / "content" / "entries" / "cuda-out-of-memory.yml"))
    assert (status, out) == (0, "")


def test_check_warns_about_similar_entries_for_new_records_only(content, capsys):
    def git(*args):
        subprocess.run(["git", *args], cwd=content, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "base")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "seed")
    copy = (content / "entries" / "gpu-oom.yml").read_text(encoding="utf-8")
    write(content, "gpu-oom-again", copy.replace("id: gpu-oom", "id: gpu-oom-again").replace("aliases: [cuda-oom-old]\n", ""))
    expected = ("content/entries/gpu-oom-again.yml:5:3: title: probably the same pitfall as content/entries/gpu-oom.yml: "
                "显存不足 (similarity 1.00; same error message 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB'); "
                "extend that entry, or say how this one differs (warning)")
    status, out, _ = run(capsys, "check", "--content", str(content))
    assert status == 0 and out.splitlines().count(expected) == 1
    assert "probably the same pitfall" not in out.replace(expected, "")  # gpu-oom is not new: no warning on it

    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "add")
    assert "probably the same pitfall" not in run(capsys, "check", "--content", str(content))[1]
    # in a pull request the record is committed: --new-since names the base
    assert expected in run(capsys, "check", "--content", str(content), "--new-since", "HEAD~1")[1].splitlines()
