"""The search engine's own node tests (tests/js/*.test.js, node's built-in test runner): each module of
static/assets/search/ tested in-process under node, fast enough for StrykerJS to run them for every mutant
(`make mutation-js`). Run here so that `make test` and CI run them; alone: `node --test tests/js/`."""

from __future__ import annotations

import shutil
import subprocess

from conftest import ROOT


def test_engine_node_tests_pass():
    files = sorted(path.name for path in (ROOT / "tests" / "js").glob("*.test.js"))
    assert files == ["analysis.test.js", "engine-more.test.js", "engine-rules.test.js", "engine.test.js", "kept.test.js",
                     "pinyin.test.js", "protocol.test.js", "query.test.js", "ranking.test.js", "results.test.js", "typos.test.js",
                     "waves.test.js"]
    done = subprocess.run([shutil.which("node"), "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-5000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout
