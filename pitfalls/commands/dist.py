"""`python -m pitfalls dist`: the whole site in one reproducible archive, for machines with no network.

The archive holds one folder, pitfall-guide-site/, which any static server can serve from its
root (`python -m http.server`; `/` leads to /zh/). It is reproducible: the same commit gives the
same bytes, because entries are sorted, owners and modes are fixed, every time stamp (files,
gzip header, sitemaps) is the build date, and that date is the commit's (or SOURCE_DATE_EPOCH).
"""

from __future__ import annotations

import gzip
import hashlib
import sys
import tarfile
import tempfile
from pathlib import Path

from ..errors import PitfallsError, writable_output
from ..settings import CONTENT_DIR, ROOT, site_root, site_url_option
from .build import build_date, build_site

ARCHIVE = ROOT / "dist" / "pitfall-guide-site.tar.gz"
"""Where `make dist` writes the archive."""
TOP_FOLDER = "pitfall-guide-site"
"""The one folder the archive unpacks into."""


def register(commands) -> None:
    dist = commands.add_parser("dist", help="离线包 / pack the site into dist/pitfall-guide-site.tar.gz, reproducibly")
    dist.add_argument("--output", type=Path, default=ARCHIVE, help="archive to write (default: %(default)s)")
    dist.add_argument("--site-url", type=site_url_option, default=site_root(),
                      help="root URL it will be served at, for canonical links and sitemaps (default: %(default)s)")
    dist.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    dist.set_defaults(run=_run)


def _run(args) -> int:
    writable_output(args.output, "--output", folder=False)  # before the build, not after it
    date, reproducible = build_date()
    if not reproducible:
        print("warning: no SOURCE_DATE_EPOCH and no git commit: dating the archive now, "
              "so it will not be byte-identical to another build", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="pitfalls-dist-") as tmp:
        site_dir = Path(tmp) / "site"
        build_site(site_dir, site_url=args.site_url, content=args.content, build_date=date)
        files = write_archive(site_dir, args.output, date)
    digest = hashlib.sha256(args.output.read_bytes()).hexdigest()
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes, {files} files, sha256 {digest})")
    return 0


def write_archive(site_dir: Path, output: Path, date: int) -> int:
    """Pack `site_dir` into the .tar.gz `output` (replaced whole) as TOP_FOLDER/; returns the number of files."""
    paths = sorted(site_dir.rglob("*"), key=lambda path: path.relative_to(site_dir).parts)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(f".{output.name}.partial")
    files = 0
    try:
        with open(partial, "wb") as raw, \
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=date, compresslevel=9) as packed, \
                tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as tar:
            tar.addfile(_entry(TOP_FOLDER, tarfile.DIRTYPE, 0o755, date))
            for path in paths:
                name = f"{TOP_FOLDER}/{path.relative_to(site_dir).as_posix()}"
                if path.is_symlink() or not (path.is_dir() or path.is_file()):
                    raise PitfallsError(f"{path}: only plain files and folders belong in the site; remove it")
                if path.is_dir():
                    tar.addfile(_entry(name, tarfile.DIRTYPE, 0o755, date))
                else:
                    entry = _entry(name, tarfile.REGTYPE, 0o644, date)
                    entry.size = path.stat().st_size
                    with open(path, "rb") as data:
                        tar.addfile(entry, data)
                    files += 1
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(output)
    return files


def _entry(name: str, kind: bytes, mode: int, date: int) -> tarfile.TarInfo:
    """A tar header that says nothing about the machine that made it."""
    entry = tarfile.TarInfo(name)
    entry.type, entry.mode, entry.mtime = kind, mode, date
    entry.uid = entry.gid = 0
    entry.uname = entry.gname = ""
    return entry
