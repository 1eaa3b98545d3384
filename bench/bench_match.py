"""Benchmark of `python -m pitfalls match`: time and peak memory on a generated log.

    .venv/bin/python -m bench.bench_match [--mb 100] [--dense-mb 10]

Writes bench/out/match-<N>mb.log: a training log (step lines, warnings, progress bars) with a
real traceback of a seed pitfall every ~50,000 lines, deterministic per size. Runs `match` on
it from a file and from stdin, each in a fresh process, and prints wall time, throughput and
the process's peak resident memory. The dense log has a matching line every 20 lines: the
slow path, where each hit line is checked against every pattern.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

NOISE = [
    "[{t}] INFO  rank{r} step={n} loss={loss:.4f} lr={lr:.2e} grad_norm={g:.3f} tokens/s={tps}",
    "[{t}] WARNING torch.distributed: NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING",
    "Epoch {e}:  {p}%|{bar}| {n}/20000 [{m}:{s:02d}<00:00, 3.21it/s, loss={loss:.3f}]",
    "[{t}] DEBUG dataloader: prefetched batch {n} from /data/shard-{r:05d}.parquet ({tps} rows)",
    "[{t}] INFO  checkpoint saved to /ckpt/run-{e}/step-{n}.pt (1.2 GiB) in {g:.1f}s",
]
ERRORS = [
    ["Traceback (most recent call last):",
     '  File "/home/u{r}/train.py", line 212, in <module>',
     "    loss.backward()",
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {g:.2f} GiB. GPU 0 has a total capacity of 79.1 GiB"],
    ["RuntimeError: DataLoader worker (pid {tps}) exited unexpectedly with exit code 1."],
    ["ssh: connect to host 10.0.{r}.7 port 22: Connection timed out"],
    ["ImportError: cannot import name 'packaging' from 'pkg_resources' (/opt/conda/lib/python3.11/site-packages/pkg_resources/__init__.py)"],
]


def generate(path: Path, megabytes: int, every: int, seed: int = 7) -> None:
    """Write a log of about `megabytes` MB with one error block every `every` lines."""
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    written = 0
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while written < target:
            n += 1
            values = dict(t=f"2024-05-12 10:{n // 6000 % 60:02d}:{n // 100 % 60:02d},{n % 1000:03d}", r=rng.randrange(64),
                          n=n, loss=rng.uniform(0.5, 3), lr=rng.uniform(1e-6, 1e-4), g=rng.uniform(0.1, 9),
                          tps=rng.randrange(1000, 90000), e=n // 20000, p=n % 100, bar="█" * (n % 10),
                          m=n % 60, s=n % 60)
            block = ERRORS[(n // every) % len(ERRORS)] if n % every == 0 else [rng.choice(NOISE)]
            text = "".join(line.format(**values) + "\n" for line in block)
            out.write(text)
            written += len(text.encode("utf-8"))


def run(args: list[str], stdin: Path | None = None) -> tuple[float, float, str]:
    """Run match in a fresh process: wall seconds, peak RSS in MiB, first line of its output."""
    command = [sys.executable, "-c",
               "import resource, sys; from pitfalls.commands.cli import main; code = main(sys.argv[1:]); "
               "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)",
               "match", *args]
    start = time.perf_counter()
    with (stdin or Path("/dev/null")).open("rb") as source:
        done = subprocess.run(command, cwd=ROOT, stdin=source, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"match failed ({done.returncode}): {done.stderr}")
    peak_kib = int(done.stderr.strip().splitlines()[-1])
    return seconds, peak_kib / 1024, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100, help="size of the sparse log (default: %(default)s)")
    parser.add_argument("--dense-mb", type=int, default=10, help="size of the dense log (default: %(default)s)")
    options = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    baseline_seconds, baseline_mib, _ = run(["--json", "/dev/null"])
    print(f"startup (empty log): {baseline_seconds:.2f} s, peak RSS {baseline_mib:.0f} MiB")
    for name, megabytes, every in (("sparse", options.mb, 50_000), ("dense", options.dense_mb, 20)):
        log = OUT / f"match-{name}-{megabytes}mb.log"
        if not log.exists() or log.stat().st_size < megabytes * 1_000_000:
            generate(log, megabytes, every)
        size = log.stat().st_size / 1e6
        for how, args, stdin in (("file", ["--json", str(log)], None), ("stdin", ["--json", "-"], log)):
            seconds, mib, output = run(args, stdin)
            entries = output.count('"id":')
            print(f"{name} log {size:.0f} MB via {how}: {seconds:.2f} s ({size / seconds:.0f} MB/s), "
                  f"peak RSS {mib:.0f} MiB, {entries} entries matched")


if __name__ == "__main__":
    main()
