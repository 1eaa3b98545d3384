"""Build and serve the bilingual site with MkDocs: one MkDocs build per language, run in
parallel, into a fresh folder that replaces `site/` only when every language succeeded."""

from __future__ import annotations

import logging
import os
import pickle
import signal
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .model import LANGUAGES
from .nginx import REDIRECT_MAP, redirect_map
from .validate import ContentError, load_knowledge_base

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
WATCHED = ("content", "templates", "hooks", "pitfalls", "overrides", "static", "mkdocs.yml")

ROOT_INDEX = """<!doctype html>
<html lang="zh">
<head>
<meta charset="utf-8">
<title>踩坑避雷指南 · Pitfall Guide</title>
<meta http-equiv="refresh" content="0; url=zh/">
<link rel="canonical" href="zh/">
</head>
<body><p><a href="zh/">中文</a> · <a href="en/">English</a></p></body>
</html>
"""


class BuildFailed(Exception):
    """A build that stopped; its message says why. Nothing was written to the site folder."""


def build_site(site_dir: Path, *, site_url: str = DEFAULT_SITE_URL, content: Path = ROOT / "content",
               build_date: int | None = None) -> None:
    """Build every language into `site_dir`, replacing it whole, or raise BuildFailed and leave it as it was.

    `build_date` (Unix time) replaces the clock in the output (sitemaps), for reproducible builds."""
    try:
        base = load_knowledge_base(content)
    except ContentError as err:
        raise BuildFailed(str(err)) from None

    site_dir = site_dir.resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-", dir=site_dir.parent))
    staging.chmod(0o777 & ~_umask())  # mkdtemp's 0700 would lock a web server's user out of site/
    # the languages' builds take the content validated here instead of each reading it again
    handover = Path(tempfile.mkdtemp(prefix="pitfalls-validated-")) / "base.pickle"
    handover.write_bytes(pickle.dumps(base))
    try:
        _build_languages(staging, site_url, content.resolve(), build_date, handover)
        (staging / "index.html").write_text(ROOT_INDEX, encoding="utf-8")
        (staging / REDIRECT_MAP).write_text(redirect_map(base), encoding="utf-8")
        shutil.copyfile(staging / LANGUAGES[0] / "404.html", staging / "404.html")
        _replace(site_dir, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(handover.parent, ignore_errors=True)


def _build_languages(staging: Path, site_url: str, content: Path, build_date: int | None, validated: Path) -> None:
    """Run one `mkdocs build --strict` per language, in parallel (one core each)."""
    runs = {}
    for lang in LANGUAGES:
        env = dict(os.environ, PITFALLS_LANG=lang, PITFALLS_SITE_URL=site_url,
                   PITFALLS_CONTENT=str(content), PITFALLS_VALIDATED=str(validated), NO_MKDOCS_2_WARNING="1")
        if build_date is not None:
            env["SOURCE_DATE_EPOCH"] = str(build_date)  # MkDocs dates the sitemaps with it
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                   "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(staging / lang)]
        runs[lang] = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
    failures = []
    for lang, run in runs.items():
        output, _ = run.communicate()
        if run.returncode != 0:
            failures.append(f"[{lang}] mkdocs build failed:\n{output.strip()}")
    if failures:
        raise BuildFailed("\n".join(failures))


def _replace(site_dir: Path, staging: Path) -> None:
    old = None
    if site_dir.exists():
        old = site_dir.with_name(f".{site_dir.name}-old-{os.getpid()}")
        site_dir.rename(old)
    staging.rename(site_dir)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def serve(host: str = "127.0.0.1", port: int = 8000, content: Path = ROOT / "content") -> None:
    """Serve both languages with live reload: any change under WATCHED rebuilds the site."""
    from mkdocs.livereload import LiveReloadServer  # only `serve` needs it

    logging.basicConfig(format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("mkdocs").setLevel(logging.INFO)  # "Detected file changes", "Reloading browsers"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean up the temporary site on kill too
    site_url = f"http://{host}:{port}/"
    serve_dir = Path(tempfile.mkdtemp(prefix="pitfalls-serve-")) / "site"

    def builder() -> None:
        try:
            build_site(serve_dir, site_url=site_url, content=content)
        except BuildFailed as err:
            print(f"build failed: {err}", file=sys.stderr)
            raise

    builder()
    server = LiveReloadServer(builder=builder, host=host, port=port, root=str(serve_dir))
    server.error_handler = lambda code: (serve_dir / "404.html").read_bytes() if code == 404 else None
    for name in WATCHED:
        server.watch(str(ROOT / name))
    if not content.resolve().is_relative_to(ROOT):
        server.watch(str(content))
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        shutil.rmtree(serve_dir.parent, ignore_errors=True)
