"""`pitfalls` (or `python -m pitfalls`): the command line over the same core the site uses.

Each subcommand lives in its own module with `register(subparsers)`, which adds its parser
and sets `run` (args → exit code) as the default. Add a command by adding its module to COMMANDS.

Errors take one path (pitfalls/errors.py): a `PitfallsError` raised anywhere, and an OSError about a
path the user gave (an option of type Path, or one of its parents or sidecar files; a symlink loop on it too), end here as
`COMMAND: message` on stderr and exit code 2 (the error's `exit_code`), with no traceback. Output cut short by its
reader (`| head`) ends the command quietly.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from ..errors import PitfallsError, concerns, os_error_message
from . import build, check, dist, from_issue, linkcheck, match, new, search, serve, similar

DESCRIPTION = """避雷 Pitfall Guide — 踩坑避雷指南的命令行工具 / command-line tool.
每个命令的详细用法 / details of each command: pitfalls COMMAND --help
"""


COMMANDS = [check.register, build.register, serve.register, linkcheck.register, new.register, from_issue.register,
            similar.register, search.register, dist.register, match.register]


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error in one line like every other error: `COMMAND: what; see --help`, exit 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.given: list[str] = []

    def parse_known_args(self, args=None, namespace=None):
        self.given = list(sys.argv[1:] if args is None else args)  # for error: what this parser was given
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        command = self.prog.removeprefix("pitfalls").strip() or "pitfalls"
        # a value that starts with - (a pasted flag: pitfalls search --shm-size) is read as an option, and the
        # argument it was meant for is then missing: say where it goes
        options = {option for action in self._actions for option in action.option_strings}
        dashed = [arg for arg in self.given if arg.startswith("-") and arg.split("=")[0] not in options]
        if command != "pitfalls" and message.startswith("the following arguments are required") and dashed \
                and "--" not in self.given:
            message = (f"{dashed[0]} is no option of {command}: a value that starts with - goes after --, "
                       f"as in `{self.prog} -- {dashed[0]}`")
        self.exit(PitfallsError.exit_code, f"{command}: {message}; see `{self.prog} --help`\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="pitfalls", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(commands)
    args = parser.parse_args(argv)
    return run_command(args.command, commands.choices[args.command], args, args.run)


def run_command(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace, run) -> int:
    """`run(args)`'s exit code (0 for None), through the one error path: `COMMAND: message` for a PitfallsError and for
    an OSError about a path of `parser`'s arguments; also for the bench scripts."""
    try:
        return run(args) or 0
    except PitfallsError as err:
        return _fail(command, str(err), err.exit_code, err.details)
    except BrokenPipeError:
        # whatever read the output stopped (`pitfalls search … | head -1`): end quietly, with the status of a tool that
        # SIGPIPE ended; stdout goes to /dev/null so that the interpreter's flush at exit does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except (OSError, RuntimeError) as err:
        # Python 3.11 and 3.12's Path.resolve report a symlink loop as a RuntimeError raised while handling the OSError
        # (ELOOP); 3.13 raises the OSError itself
        found = err.__context__ if isinstance(err, RuntimeError) else err
        what = _given_path(found, args, parser) if isinstance(found, OSError) else None
        if what is None:
            raise  # not about anything the user gave: a bug, with its traceback
        return _fail(command, os_error_message(found, what), PitfallsError.exit_code)


def _fail(command: str, message: str, code: int, details: str = "") -> int:
    print(f"{command}: {message}", file=sys.stderr)
    if details:
        print(details, end="" if details.endswith("\n") else "\n", file=sys.stderr)
    return code


def _given_path(err: OSError, args: argparse.Namespace, parser: argparse.ArgumentParser) -> str | None:
    """How the user named the path `err` is about (`--site-dir`, `FILE`), or None when it is about none of theirs."""
    for action in parser._actions:  # argparse keeps no public list of a parser's arguments
        value = getattr(args, action.dest, None)
        for path in value if isinstance(value, list) else [value]:
            if isinstance(path, Path) and str(path) != "-" and concerns(err, path):
                return action.option_strings[0] if action.option_strings else action.metavar or action.dest
    return None
