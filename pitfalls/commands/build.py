"""`pitfalls build`: the bilingual site with MkDocs, one MkDocs build per
language, run in parallel, into a fresh folder that replaces `site/` only when every language
succeeded. The content is read and validated once, here, and handed to each language's build."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..errors import PitfallsError, existing_folder, writable_output
from ..git import git
from ..pages.redirects import REDIRECT_MAP, redirect_map
from ..records.model import LANGUAGES, KnowledgeBase
from ..records.validate import CONTENT_FOLDER_TODO, load_knowledge_base
from ..settings import CONTENT_DIR, DEFAULT_SITE_URL, MKDOCS_YML, ROOT, site_root, site_url_option
from .dependencies import check_material

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


class BuildFailed(PitfallsError):
    """MkDocs stopped a language's build; `details` holds what it said. Nothing was written to the site folder."""


def build_site(site_dir: Path, *, site_url: str = DEFAULT_SITE_URL, content: Path = CONTENT_DIR,
               build_date: int | None = None) -> None:
    """Build every language into `site_dir`, replacing it whole, or raise a PitfallsError (ContentError,
    BuildFailed, or a content folder that is not there or an output that cannot be written, both checked first)
    and leave it as it was.

    `build_date` (Unix time) replaces the clock in the output (sitemaps), for reproducible builds."""
    existing_folder(content, "--content", CONTENT_FOLDER_TODO)
    check_site_dir(site_dir, content)
    check_material()  # the site's search speaks its worker protocol
    builder = _start_language_builds()  # loads MkDocs while the content is read
    try:
        base = load_knowledge_base(content)
        site_dir = site_dir.resolve()
        site_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-", dir=site_dir.parent))
        staging.chmod(0o777 & ~_umask())  # mkdtemp's 0700 would lock a web server's user out of site/
        # the languages' builds take the content validated here instead of each reading it again
        handover = Path(tempfile.mkdtemp(prefix="pitfalls-handover-")) / "base.pickle"
        try:
            handover.write_bytes(pickle.dumps(base))
            _build_languages(builder, staging, site_url, build_date, handover)
            write_root_files(staging, base)
            _replace(site_dir, staging)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            shutil.rmtree(handover.parent, ignore_errors=True)
    finally:
        if builder.poll() is None:  # not given its work: the content was refused, or the build interrupted
            builder.kill()
            builder.wait()


def check_site_dir(site_dir: Path, content: Path) -> None:
    """Refuse, before any work, a site folder the build cannot write, or must not replace: the build replaces
    it whole, so it must be new, empty or a site built before (which has an index.html), and hold no project files."""
    writable_output(site_dir, "--site-dir", folder=True)
    folder = site_dir.resolve()
    for precious in (content.resolve(), ROOT):
        if precious.is_relative_to(folder):
            raise PitfallsError(f"--site-dir {site_dir}: holds {precious}, and the build replaces the site folder whole; "
                                "give a folder of its own, such as site/")
    if folder.is_dir() and not (folder / "index.html").is_file() and any(folder.iterdir()):
        raise PitfallsError(f"--site-dir {site_dir}: is not empty and holds no built site (no index.html), and the build "
                            "replaces it whole; give a new or empty folder, or delete it first")


def write_root_files(site_dir: Path, base: KnowledgeBase) -> None:
    """What the site root holds besides the language sites: the language choice, nginx's redirects, the 404 page."""
    (site_dir / "index.html").write_text(ROOT_INDEX, encoding="utf-8")
    (site_dir / REDIRECT_MAP).write_text(redirect_map(base), encoding="utf-8")
    shutil.copyfile(site_dir / LANGUAGES[0] / "404.html", site_dir / "404.html")


def language_environment(lang: str, site_url: str, handover: Path) -> dict[str, str]:
    """The environment of one language's MkDocs process: the settings the hook reads (pitfalls/settings.py)."""
    return dict(os.environ, PITFALLS_LANG=lang, PITFALLS_SITE_URL=site_url, PITFALLS_HANDOVER=str(handover),
                NO_MKDOCS_2_WARNING="1")


def _start_language_builds() -> subprocess.Popen:
    """The process that forks the languages' builds (language_builds.py), loading MkDocs until it is given them."""
    return subprocess.Popen([sys.executable, "-m", "pitfalls.commands.language_builds"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _build_languages(builder: subprocess.Popen, staging: Path, site_url: str, build_date: int | None,
                     handover: Path) -> None:
    """One `mkdocs build --strict` per language, in parallel (one core each), forked by `builder`."""
    jobs = {}
    for lang in LANGUAGES:
        env = language_environment(lang, site_url, handover)
        if build_date is not None:
            env["SOURCE_DATE_EPOCH"] = str(build_date)  # MkDocs dates the sitemaps with it
        jobs[lang] = {"env": env, "argv": ["build", "--strict", "--quiet", "--config-file", str(MKDOCS_YML),
                                           "--site-dir", str(staging / lang)]}
    output, _ = builder.communicate(json.dumps(jobs) + "\n")
    try:
        results = json.loads(output.splitlines()[-1]) if builder.returncode == 0 else None
    except (IndexError, ValueError):
        results = None
    if results is None:  # it failed before it could fork them: what Python said is in its output
        raise BuildFailed("MkDocs could not be started (what it said follows)", details=output.strip())
    failures = {lang: _failure(lang, status, said) for lang, (status, said) in results.items() if status != 0}
    if failures:
        raise BuildFailed(f"MkDocs could not build the {' and '.join(failures)} site (what it said follows)",
                          details="\n".join(failures.values()))


def _failure(lang: str, status: int, said: str) -> str:
    """A language's failed build: what MkDocs said, or what ended it when MkDocs could not say (a signal)."""
    head = f"[{lang}] mkdocs build failed"
    if status < 0:
        name = signal.Signals(-status).name if -status in signal.valid_signals() else f"signal {-status}"
        head += f" (killed by {name}{': the system may have run out of memory' if name == 'SIGKILL' else ''})"
    return f"{head}:\n{said.strip()}" if said.strip() else head


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
    build.add_argument("--site-url", type=site_url_option, default=site_root(), help="public root URL (default: PITFALLS_SITE_URL, else %(default)s)")
    build.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    build.set_defaults(run=_build)


def _build(args) -> int:
    # dated by the commit (or SOURCE_DATE_EPOCH), so two builds of one commit are byte-identical
    build_site(args.site_dir, site_url=args.site_url, content=args.content, build_date=build_date()[0])
    print(f"built {args.site_dir}")
    return 0

