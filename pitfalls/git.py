"""The one way the project asks git: run a command in a folder, get its output or None."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(where: Path, *args: str) -> str | None:
    """Output of `git -C where args…`, or None when git, the checkout or the revision is missing."""
    try:
        done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None
