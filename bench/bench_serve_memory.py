"""Memory under `pitfalls serve` while the search vocabulary changes: each language worker's resident set.

    .venv/bin/python -m bench.bench_serve_memory [--edits 10]     (make bench-serve-memory)

Serves a copy of the tiny fixture (tests/fixtures/tiny), then EDITS times gives a tag a new Chinese
label. A label is a word of the segmenter's dictionary, so every edit is a new vocabulary: each worker
builds its language whole, with a new segmenter (a copy of jieba's dictionary, about 15 MB). After each edit
is served and the workers are idle again, it prints each worker's VmRSS. Target (issue 17): less than 100 MB of
growth per worker over the 10 edits; a segmenter cache that keeps every vocabulary's tokenizer grew by one
tokenizer per edit. Figures are printed, not asserted; the exit status is 1 when the target is missed.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "fixtures" / "tiny"
TAG = "gpu-memory"
"""The tag whose Chinese label each edit changes."""
LABELS = [f"显存标签{numeral}" for numeral in "一二三四五六七八九十百千万亿"]
TARGET_MB = 100
TIMEOUT = 600


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, OSError):
        return ""


def wait_for(url: str, text: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while text not in fetch(url):
        if time.monotonic() > deadline:
            raise SystemExit(f"{url} never showed {text!r}")
        time.sleep(0.3)


def workers(serve_pid: int) -> dict[str, int]:
    """Language → pid of `serve`'s serve_worker children."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == serve_pid and b"pitfalls.commands.serve_worker" in argv:
            found[Path(argv[-2].decode()).name] = int(proc.name)
    return dict(sorted(found.items()))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for {pid}")


def cpu_ticks(pids) -> int:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total


def settle(pids, quiet_for: float = 1.5) -> None:
    """Wait until the workers have used no CPU for `quiet_for` seconds (done with the work after their answer)."""
    last, since = cpu_ticks(pids), time.monotonic()
    while time.monotonic() - since < quiet_for:
        time.sleep(0.25)
        now = cpu_ticks(pids)
        if now != last:
            last, since = now, time.monotonic()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=10, choices=range(1, len(LABELS) + 1), metavar="N")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-serve-memory-"))
    content = work / "content"
    shutil.copytree(TINY, content)
    tags = content / "tags.yml"
    original = tags.read_text(encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    log = (work / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "pitfalls", "serve", "--port", str(port), "--content", str(content)],
                              cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(f"{url}zh/tags/{TAG}/", "显存")
        pids = workers(server.pid)
        settle(pids.values())
        start = {lang: rss_mb(pid) for lang, pid in pids.items()}
        print(f"workers {', '.join(f'{lang} (pid {pid})' for lang, pid in pids.items())}; VmRSS in MB")
        print(f"{'edit':>6}  " + "  ".join(f"{lang:>8}" for lang in pids))
        print(f"{'start':>6}  " + "  ".join(f"{start[lang]:8.1f}" for lang in pids))
        for edit, label in enumerate(LABELS[:args.edits], 1):
            tags.write_text(original.replace("zh: 显存", f"zh: {label}"), encoding="utf-8")
            wait_for(f"{url}zh/tags/{TAG}/", label)
            if workers(server.pid) != pids:
                raise SystemExit("the workers were restarted; the figures would not be one process's")
            settle(pids.values())
            print(f"{edit:>6}  " + "  ".join(f"{rss_mb(pid):8.1f}" for pid in pids.values()), flush=True)
        growth = {lang: rss_mb(pid) - start[lang] for lang, pid in pids.items()}
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"growth over {args.edits} vocabulary edits: " + ", ".join(f"{lang} {mb:+.1f} MB" for lang, mb in growth.items())
          + f" (target: under {TARGET_MB} MB per worker)")
    return 0 if max(growth.values()) < TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
