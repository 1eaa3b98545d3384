"""`pitfalls build` and `pitfalls serve`: the bilingual site with MkDocs, one MkDocs build per
language, run in parallel, into a fresh folder that replaces `site/` only when every language
succeeded. The content is read and validated once, here, and handed to each language's build."""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..git import git
from ..pages.redirects import REDIRECT_MAP, redirect_map
from ..records.model import LANGUAGES
from ..records.validate import ContentError, load_knowledge_base
from ..settings import CONTENT_DIR, DEFAULT_SITE_URL, MKDOCS_YML, ROOT, site_root

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


def build_site(site_dir: Path, *, site_url: str = DEFAULT_SITE_URL, content: Path = CONTENT_DIR,
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
    handover = Path(tempfile.mkdtemp(prefix="pitfalls-handover-")) / "base.pickle"
    handover.write_bytes(pickle.dumps(base))
    try:
        _build_languages(staging, site_url, build_date, handover)
        (staging / "index.html").write_text(ROOT_INDEX, encoding="utf-8")
        (staging / REDIRECT_MAP).write_text(redirect_map(base), encoding="utf-8")
        shutil.copyfile(staging / LANGUAGES[0] / "404.html", staging / "404.html")
        _replace(site_dir, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(handover.parent, ignore_errors=True)


def _build_languages(staging: Path, site_url: str, build_date: int | None, handover: Path) -> None:
    """Run one `mkdocs build --strict` per language, in parallel (one core each)."""
    runs = {}
    for lang in LANGUAGES:
        # the settings the hook reads: pitfalls/settings.py
        env = dict(os.environ, PITFALLS_LANG=lang, PITFALLS_SITE_URL=site_url, PITFALLS_HANDOVER=str(handover),
                   NO_MKDOCS_2_WARNING="1")
        if build_date is not None:
            env["SOURCE_DATE_EPOCH"] = str(build_date)  # MkDocs dates the sitemaps with it
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                   "--config-file", str(MKDOCS_YML), "--site-dir", str(staging / lang)]
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


def serve(host: str = "127.0.0.1", port: int = 8000, content: Path = CONTENT_DIR) -> None:
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


def build_date() -> tuple[int, bool]:
    """(Unix time, reproducible?): SOURCE_DATE_EPOCH if set, else the last commit's time, else now."""
    if os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        return int(os.environ["SOURCE_DATE_EPOCH"]), True
    commit = (git(ROOT, "log", "-1", "--format=%ct") or "").strip()
    if commit.isdigit():
        return int(commit), True
    return int(time.time()), False


def register(commands) -> None:
    build = commands.add_parser("build", help="构建中英双语站点到 site/ / build both languages into site/")
    build.add_argument("--site-dir", type=Path, default=ROOT / "site", help="output folder (default: %(default)s)")
    build.add_argument("--site-url", default=site_root(), help="public root URL (default: PITFALLS_SITE_URL, else %(default)s)")
    build.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    build.set_defaults(run=_build)

    serve_cmd = commands.add_parser("serve", help="本地预览，自动刷新 / serve with live reload on 127.0.0.1:8000")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    serve_cmd.set_defaults(run=_serve)


def _build(args) -> int:
    try:
        # dated by the commit (or SOURCE_DATE_EPOCH), so two builds of one commit are byte-identical
        build_site(args.site_dir, site_url=site_root(args.site_url), content=args.content, build_date=build_date()[0])
    except BuildFailed as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    print(f"built {args.site_dir}")
    return 0


def _serve(args) -> int:
    try:
        serve(args.host, args.port, content=args.content)
    except BuildFailed:
        return 1
    return 0
