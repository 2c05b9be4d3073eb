"""`cobi-companion --version`: the installed package's version and, when the code runs from a git
checkout, the commit it was run from. Imported only when asked (`ShowVersion` in the package's
`__init__`): the other commands import no importlib.metadata or subprocess, and run no git.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "cobi-companion"
GIT_TIMEOUT_S = 10.0     # a git that hangs (a network file system) must not hang the command


def version_line() -> str:
    """`cobi-companion 0.1.0`, and ` (git 1bc7abb)` (`-dirty` with changes) from a checkout."""
    try:
        line = f"{DISTRIBUTION} {metadata.version(DISTRIBUTION)}"
    except metadata.PackageNotFoundError:
        line = f"{DISTRIBUTION} (not installed: version unknown)"
    commit = checkout_commit(Path(__file__).resolve().parent)
    return f"{line} (git {commit})" if commit else line


def checkout_commit(folder: Path) -> str | None:
    """The commit of the git work tree that holds this package's source, or None: no git, a
    folder outside a work tree, or one inside a work tree that does not track the package (a
    wheel installed into a virtual environment that lies inside some other checkout)."""
    if shutil.which("git") is None:
        return None
    tracked = git(folder, "ls-files", "--error-unmatch", "--", "__init__.py")
    return git(folder, "describe", "--always", "--dirty", "--abbrev=12") if tracked else None


def git(folder: Path, *args: str) -> str | None:
    """git's output, stripped, or None if it fails in any way."""
    # The caller's GIT_DIR and the like would point git at another repository.
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, env=env, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    out = done.stdout.strip()
    return out if done.returncode == 0 and out else None

