"""The languages' MkDocs builds, forked from one process that has loaded MkDocs once: `python -m` this module.

Each language's build is its own MkDocs process (MkDocs keeps its state in module globals), and each used to
start from nothing: Python, MkDocs, Material, our page modules and jieba's dictionary, about 0.8 s of CPU a
process before its first page. This process loads them once (`pitfalls build` starts it before it reads the
content, so the two overlap), then forks one child per language, which runs MkDocs' own command line as
`python -m mkdocs` would. A fork of a process that has started no thread is safe; this one starts none.

Protocol (build.py is the other end): one JSON line on stdin, {language: {"argv": [...], "env": {...}}}; one
JSON line on stdout when every child has ended, {language: [exit status, what MkDocs printed]}. The children
write to files of their own, never to that stdout. An empty stdin (the caller gave up) ends it quietly.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback

import material.plugins.search.plugin  # noqa: F401  loaded by MkDocs for `plugins: [search]`
import material.templates  # noqa: F401  the theme's package
from mkdocs.__main__ import cli

import pitfalls.pages.export  # noqa: F401  the hook's imports (the hook itself is loaded by MkDocs from its file)
import pitfalls.pages.render  # noqa: F401
import pitfalls.pages.search_index  # noqa: F401
from pitfalls.text import jieba_dictionary

jieba_dictionary()  # the children's segmenters copy it


def run_mkdocs(argv: list[str], env: dict[str, str]) -> int:
    """MkDocs' command line in this process, as `python -m mkdocs ARGV` with environment ENV would run it."""
    os.environ.clear()
    os.environ.update(env)
    try:
        cli.main(argv, prog_name="mkdocs")
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        print(done.code, file=sys.stderr)
    except BaseException:  # what click lets through: a bug, shown as Python shows one
        traceback.print_exc()
    return 1


def build(jobs: dict[str, dict]) -> dict[str, list]:
    """Fork one child per job, wait for all: {name: [exit status, output]} (status -N: killed by signal N)."""
    children = {}
    for name, job in jobs.items():
        output = tempfile.TemporaryFile()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                os.dup2(output.fileno(), 1)
                os.dup2(output.fileno(), 2)
                status = run_mkdocs(job["argv"], job["env"])
            finally:  # never back into the loop: a child builds one language
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        children[name] = (pid, output)
    results = {}
    for name, (pid, output) in children.items():
        _, wait_status = os.waitpid(pid, 0)
        output.seek(0)
        results[name] = [os.waitstatus_to_exitcode(wait_status), output.read().decode("utf-8", "replace")]
        output.close()
    return results


def main() -> None:
    line = sys.stdin.readline()
    if line.strip():
        print(json.dumps(build(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
