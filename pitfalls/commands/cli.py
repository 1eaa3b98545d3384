"""`pitfalls` (or `python -m pitfalls`): the command line over the same core the site uses.

Each subcommand lives in its own module with `register(subparsers)`, which adds its parser
and sets `run` (args → exit code) as the default. Add a command by adding its module to COMMANDS.
"""

from __future__ import annotations

import argparse

from . import build, check, dist, from_issue, linkcheck, match, new, search, serve, similar

DESCRIPTION = """避雷 Pitfall Guide — 踩坑避雷指南的命令行工具 / command-line tool.
每个命令的详细用法 / details of each command: pitfalls COMMAND --help
"""


COMMANDS = [check.register, build.register, serve.register, linkcheck.register, new.register, from_issue.register,
            similar.register, search.register, dist.register, match.register]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pitfalls", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(commands)
    args = parser.parse_args(argv)
    return args.run(args)
