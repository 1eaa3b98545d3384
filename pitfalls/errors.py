"""Expected failures: one exception, and the checks of what a user gave that run before any work.

As in MkDocs (`mkdocs.exceptions`), a mistake the user can fix — a folder that does not exist, a path
that cannot be written, a port in use, content with errors — raises a `PitfallsError` whose message
names the path or value and says what to do. The command line (commands/cli.py) prints it as
`COMMAND: message` on stderr, without a traceback, and exits with its `exit_code`; so does an OSError
about a path the user gave. Anything else is a bug and keeps its traceback.

A leaf: every layer may raise it.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class PitfallsError(Exception):
    """A failure the user can fix: the message (its first line says what and what to do) is all they need."""

    exit_code = 2
    """What `pitfalls` exits with: 2, the command could not do its job (1 is a command's negative answer:
    `check` found errors, `match` matched nothing, `linkcheck` found broken links)."""

    def __init__(self, message: str, details: str = ""):
        super().__init__(message)
        self.details = details
        """Text printed as it is after the message (a command's output, YAML to paste)."""


LINK_LOOP = "a link on the path leads round in a loop"
"""Why a path whose links lead back to themselves (ELOOP) cannot be used, in the messages of the paths a user gave."""


def existing_folder(path: Path, what: str, todo: str) -> Path:
    """`path`, when it is a folder; else PitfallsError naming it as `what` (e.g. "--content") and saying `todo`."""
    if not path.exists():
        raise PitfallsError(f"{what} {path}: {_missing(path, 'folder')}; {todo}")
    if not path.is_dir():
        raise PitfallsError(f"{what} {path}: is a file, not a folder; {todo}")
    return path


def existing_file(path: Path, what: str, todo: str) -> Path:
    """`path`, when it is a regular file; else PitfallsError naming it as `what` (e.g. "FILE") and saying `todo`."""
    if not path.is_file():
        why = "is a folder" if path.is_dir() else "is not a regular file" if path.exists() else _missing(path, "file")
        raise PitfallsError(f"{what} {path}: {why}; {todo}")
    return path


def _missing(path: Path, kind: str) -> str:
    """Why `path`, which does not exist, is not there: a link to nothing, or no such `kind` (file or folder)."""
    return "is a link that leads nowhere (its target is gone, or links lead round in a loop)" if path.is_symlink() else f"no such {kind}"


def writable_output(path: Path, what: str, *, folder: bool) -> None:
    """Refuse, before any work, an output that cannot be written: `path` is the folder (`folder`) or
    file a command replaces whole, created with its parents. PitfallsError names it as `what`."""
    kind = "folder" if folder else "file"
    try:  # a link loop on the path: exists() says False, and the write would fail only after the work
        os.path.realpath(path, strict=True)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise PitfallsError(f"{what} {path}: {err.strerror}; {LINK_LOOP}; choose another path") from None
    if path.exists() and path.is_dir() != folder:
        raise PitfallsError(f"{what} {path}: is a {'file' if folder else 'folder'}; give the {kind} to write")
    parent = path.parent
    while not parent.exists():
        if parent.is_symlink():
            raise PitfallsError(f"{what} {path}: {parent} {_missing(parent, 'folder')}; choose another path")
        parent = parent.parent
    if not parent.is_dir():
        raise PitfallsError(f"{what} {path}: {parent} is a file, so no {kind} can be made under it; choose another path")
    try:  # the one sure test of a folder's permissions (root ignores the mode bits, a read-only mount does not)
        os.rmdir(tempfile.mkdtemp(prefix=f".{path.name}-probe-", dir=parent))
    except OSError as err:
        raise PitfallsError(f"{what} {path}: cannot write in {parent} ({err.strerror}); choose a folder you can write to") from None


def os_error_message(err: OSError, what: str) -> str:
    """One line for an OSError about the path the user gave as `what`: the path, why, what to do."""
    hint = {
        errno.ENOENT: "check the path",
        errno.ENOTDIR: "a part of the path is a file, not a folder; check the path",
        errno.EISDIR: "give a file",
        errno.EACCES: f"check its permissions, or give {what} another path",
        errno.EPERM: f"check its permissions, or give {what} another path",
        errno.EROFS: f"it is on a read-only file system; give {what} another path",
        errno.ENOSPC: "the disk is full; free some space",
        errno.ELOOP: f"{LINK_LOOP}; check the path",
    }.get(err.errno, f"give {what} another path")
    return f"{what} {err.filename}: {err.strerror}; {hint}"


def concerns(err: OSError, path: Path) -> bool:
    """Whether `err` is about `path` (a path the user gave): the path itself, something under it or
    above it (its parents, created for it), or a sidecar beside it (`.site-…` staging, `.name.partial`)."""
    for name in (err.filename, err.filename2):
        if name is None or isinstance(name, int):
            continue
        # realpath, not Path.resolve: on a symlink loop (the very error being reported) resolve raises RuntimeError
        for form in {Path(os.path.abspath(name)), Path(os.path.realpath(name))}:
            for given in {Path(os.path.abspath(path)), Path(os.path.realpath(path))}:
                if form.is_relative_to(given) or given.is_relative_to(form):
                    return True
                if form.parent == given.parent and form.name.startswith(f".{given.name}"):
                    return True
    return False
