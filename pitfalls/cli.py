"""`python -m pitfalls`: the command line over the same core the site uses.

Each subcommand lives in its own module with `register(subparsers)`, which adds its parser
and sets `run` (args → exit code) as the default. Add a command by adding its module to COMMANDS.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import check, dist, linkcheck, match, new, search, similar
from .dist import build_date
from .site import DEFAULT_SITE_URL, ROOT, BuildFailed, build_site, serve

DESCRIPTION = """避雷 Pitfall Guide — 踩坑避雷指南的命令行工具 / command-line tool.
每个命令的详细用法 / details of each command: python -m pitfalls COMMAND --help
"""


def register_build(commands) -> None:
    build = commands.add_parser("build", help="构建中英双语站点到 site/ / build both languages into site/")
    build.add_argument("--site-dir", type=Path, default=ROOT / "site", help="output folder (default: %(default)s)")
    build.add_argument("--site-url", default=DEFAULT_SITE_URL, help="public root URL (default: %(default)s)")
    build.add_argument("--content", type=Path, default=ROOT / "content", help="content folder (default: %(default)s)")
    build.set_defaults(run=_build)


def _build(args) -> int:
    try:
        # dated by the commit (or SOURCE_DATE_EPOCH), so two builds of one commit are byte-identical
        build_site(args.site_dir, site_url=args.site_url, content=args.content, build_date=build_date()[0])
    except BuildFailed as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    print(f"built {args.site_dir}")
    return 0


def register_serve(commands) -> None:
    serve_cmd = commands.add_parser("serve", help="本地预览，自动刷新 / serve with live reload on 127.0.0.1:8000")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--content", type=Path, default=ROOT / "content", help="content folder (default: %(default)s)")
    serve_cmd.set_defaults(run=_serve)


def _serve(args) -> int:
    try:
        serve(args.host, args.port, content=args.content)
    except BuildFailed:
        return 1
    return 0


COMMANDS = [check.register, register_build, register_serve, linkcheck.register, new.register, similar.register, search.register, dist.register, match.register]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pitfalls", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(commands)
    args = parser.parse_args(argv)
    return args.run(args)
