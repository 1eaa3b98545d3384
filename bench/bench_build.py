"""Build-scale benchmark: our bilingual build against a plain mkdocs-material build of the same pages.

    .venv/bin/python -m bench.bench_build [--sizes 1000 5000 10000] [--serve-size 1000]   (make bench-build)

For each size, a synthetic corpus (bench/generate.py) is built twice, each measured for wall time
and peak memory (the largest resident set of any process of the build):
  ours   `python -m pitfalls build`: validate, render, one `mkdocs build --strict` per language
  plain  the same pages of each language written as ordinary Markdown files (title in front
         matter) with a minimal mkdocs.yml: material theme, search plugin, the same Markdown
         extensions and the same nav shape (home, category pages, tag index), the two languages
         built in parallel like ours.
and the size of our largest HTML page and of the home page, per language. Then, under `python -m
pitfalls serve` (live reload) at --serve-size records, the time from saving a record to the changed
page being served (median of SAVES edits), from writing a new record to its page being served, and
from deleting it to its page being gone. Targets: ours ≤ 1.3× plain in time and ≤ 1.5× in memory,
time linear in N; no page over 300 KB, home ≤ 150 KB; a save served in ≤ 3 s at 1,000 records.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

from bench.generate import generate
from pitfalls.pages.render import SiteRenderer, ui_strings
from pitfalls.records.model import LANGUAGES
from pitfalls.records.validate import load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent
SAVES = 5
"""Edits timed under serve; the median is printed."""

# Runs a command and prints its wall time and the peak RSS of its largest descendant (KiB on Linux).
MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
took = time.perf_counter() - started
if code.returncode:
    sys.exit(code.stderr[-3000:])
print(json.dumps({"seconds": took, "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""

PLAIN_BUILD = """
import subprocess, sys
runs = [subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", config])
        for config in sys.argv[1:]]
sys.exit(max(run.wait() for run in runs))
"""


def measure(command: list[str], env: dict | None = None) -> dict:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True, text=True,
                         env=env, cwd=ROOT)
    if out.returncode:
        raise SystemExit(f"{' '.join(command[:4])} … failed:\n{out.stderr}")
    return json.loads(out.stdout)


def write_plain_project(content: Path, out: Path) -> list[Path]:
    """The pages of each language as ordinary Markdown files, with one mkdocs.yml per language."""
    base = load_knowledge_base(content)
    configs = []
    for lang in LANGUAGES:
        docs = out / lang / "docs"
        renderer = SiteRenderer(base, lang)
        for page in renderer.pages():
            path = docs / page.src_uri
            path.parent.mkdir(parents=True, exist_ok=True)
            if page.src_uri.endswith(".html"):
                path.write_text(page.content, encoding="utf-8")
            else:
                path.write_text(f"---\ntitle: {json.dumps(page.title, ensure_ascii=False)}\n---\n\n{page.content}",
                                encoding="utf-8")
        ui = ui_strings()[lang]
        config = {
            "site_name": ui["site_name"], "site_url": f"http://127.0.0.1:8000/{lang}/",
            "docs_dir": str(docs), "site_dir": str(out / "site" / lang), "use_directory_urls": True,
            "theme": {"name": "material", "language": lang},
            "plugins": ["search"], "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}],
            "nav": [{ui["home"]: "index.md"},
                    {ui["categories"]: [f"categories/{g.label.key}.md" for g in renderer.index.categories]},
                    {ui["all_tags"]: "tags/index.md"}],
            "validation": {"nav": {"omitted_files": "ignore"}},
        }
        path = out / lang / "mkdocs.yml"
        path.write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")  # JSON is YAML
        configs.append(path)
    return configs


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str | None:
    """The page at `url`, or None when it is not served (an error status or no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")
    except OSError:
        return None


def page_sizes(site: Path) -> dict[str, tuple[int, str, int]]:
    """Language → (bytes of its largest HTML page, that page, bytes of its home page)."""
    sizes = {}
    for lang in LANGUAGES:
        largest = max((page.stat().st_size, page) for page in (site / lang).rglob("*.html"))
        sizes[lang] = (largest[0], str(largest[1].relative_to(site)), (site / lang / "index.html").stat().st_size)
    return sizes


def wait_until(check, timeout: float) -> float:
    """Seconds until check() holds, polling every 0.1 s."""
    started = time.perf_counter()
    while not check():
        if time.perf_counter() - started > timeout:
            raise SystemExit("serve never showed the change")
        time.sleep(0.1)
    return time.perf_counter() - started


def save_to_reload(content: Path, timeout: float = 900) -> dict[str, float]:
    """Seconds under `python -m pitfalls serve`: first build, each of SAVES edits to a record until its
    changed page is served, a new record until its page is served, its deletion until the page is gone."""
    port = free_port()
    records = sorted((content / "entries").glob("*.yml"))
    root = f"http://127.0.0.1:{port}/en/"
    server = subprocess.Popen([sys.executable, "-m", "pitfalls", "serve", "--port", str(port), "--content", str(content)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        first = records[len(records) // 2]
        figures = {"first build": wait_until(lambda: "pf-quick-fix" in (fetch(f"{root}{first.stem}/") or ""), timeout)}
        if server.poll() is not None:
            raise SystemExit("serve stopped")
        time.sleep(2)  # let the watcher settle after the first build
        edits = []
        for number in range(SAVES):
            record = records[(len(records) // 2 + 7 * number) % len(records)]
            marker = f"EDITED-{number}-{int(time.time())}"
            data = yaml.safe_load(record.read_text(encoding="utf-8"))
            data["quick_fix"]["en"] = f"{marker} {data['quick_fix'].get('en', '')}"
            record.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
            edits.append(wait_until(lambda marker=marker, url=f"{root}{record.stem}/": marker in (fetch(url) or ""), timeout))
            time.sleep(1)
        figures["save"] = statistics.median(edits)
        data = yaml.safe_load(first.read_text(encoding="utf-8"))
        data["id"] = "a-brand-new-entry"
        data.pop("aliases", None)
        new = content / "entries" / "a-brand-new-entry.yml"
        new.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        figures["new record"] = wait_until(lambda: fetch(f"{root}a-brand-new-entry/") is not None, timeout)
        time.sleep(1)
        new.unlink()
        figures["deleted record"] = wait_until(lambda: fetch(f"{root}a-brand-new-entry/") is None, timeout)
        return figures
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # serve and the builds it started, nothing else
        server.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--serve-size", type=int, default=1000, help="0 skips the serve measurement")
    args = parser.parse_args(argv)

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        tmp = Path(tmp)
        for size in args.sizes:
            content = tmp / f"n{size}" / "content"
            generate(size, content, seed=0)
            ours = measure([sys.executable, "-m", "pitfalls", "build", "--content", str(content),
                            "--site-dir", str(tmp / f"n{size}" / "site")])
            configs = write_plain_project(content, tmp / f"n{size}" / "plain")
            plain = measure([sys.executable, "-c", PLAIN_BUILD, *map(str, configs)])
            pages = sum(1 for _ in (tmp / f"n{size}" / "site").rglob("index.html"))
            rows.append((size, pages, ours, plain, page_sizes(tmp / f"n{size}" / "site")))
            print(f"  built {size} records ({pages} pages): ours {ours['seconds']:.1f} s, plain {plain['seconds']:.1f} s",
                  file=sys.stderr, flush=True)
        serve = None
        if args.serve_size:
            content = tmp / "serve" / "content"
            generate(args.serve_size, content, seed=1)
            serve = save_to_reload(content)

    print(f"\n{'records':>8} {'pages':>7} {'ours s':>8} {'plain s':>8} {'ratio':>6} {'ours ms/rec':>12} "
          f"{'plain ms/rec':>13} {'ours MiB':>9} {'plain MiB':>10}")
    for size, pages, ours, plain, _ in rows:
        print(f"{size:>8} {pages:>7} {ours['seconds']:>8.1f} {plain['seconds']:>8.1f} "
              f"{ours['seconds'] / plain['seconds']:>6.2f} {1000 * ours['seconds'] / size:>12.1f} "
              f"{1000 * plain['seconds'] / size:>13.1f} {ours['peak_kib'] / 1024:>9.0f} {plain['peak_kib'] / 1024:>10.0f}")
    if len(rows) > 1:
        (small, _, ours_small, _, _), (large, _, ours_large, _, _) = rows[0], rows[-1]
        growth = (ours_large["seconds"] / ours_small["seconds"]) / (large / small)
        print(f"growth {small}→{large}: time per record ×{growth:.2f} (1.00 = linear)")
    print("peak MiB: largest single process; each build runs its two languages in parallel")
    print(f"\n{'records':>8} {'lang':>5} {'home KB':>8} {'largest KB':>11}  largest page")
    for size, _, _, _, sizes in rows:
        for lang, (largest, page, home) in sizes.items():
            print(f"{size:>8} {lang:>5} {home / 1024:>8.0f} {largest / 1024:>11.0f}  {page}")
    if serve:
        print(f"\nserve at {args.serve_size} records, seconds: " + "; ".join(f"{k} {v:.1f}" for k, v in serve.items())
              + f" (save: median of {SAVES})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
