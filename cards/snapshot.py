"""Snapshots of checked files: what the checks made of the card, table and settings files, kept
as plain JSON and used again while none of those files has changed.

Checking the files with pydantic (importing it and building its models) was most of what a
command of the command line cost, and seconds of a Pi Zero's start. After the files are checked,
a snapshot keeps the plain data the box reads (the cards, the tables, the config, and every
problem met, so that a broken file is still reported) under a key: every file read with its
size, times and inode (and every file that may be read, with none when it is not there), the
code that checks them (its files' sizes and times: an upgrade changes them) and whatever else
the result depends on (`Fingerprint`). While the key is the same the data is used, without
pydantic being imported; else the files are checked again and a new snapshot taken (`cached`).

The file is a line of JSON with the format, the key and a CRC-32 of the data, then a line of
JSON with the data. A snapshot that cannot be read, is not JSON, is of other files or other code,
or whose data does not match its CRC is ignored (and replaced): it is never trusted. One that
cannot be written (a read-only folder, a full disk) is only not there: the files are then
checked at each start. It is written as the box writes its files: a temporary file in the same
folder, flushed, synced, renamed over the old one, and the folder synced.

This module imports only the standard library.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

FORMAT = "cobi-companion snapshot 1"
MAX_BYTES = 16 * 1024 * 1024   # far above any snapshot: a bigger file is not one of ours
# Files changed this recently may change again within the same tick of their file system's
# clock (FAT keeps modification times to 2 s) without their stamp changing: a snapshot taken
# from them could hide that change, so none is taken until they are older.
RACY_NS = 2_000_000_000
CACHE_ENV = "CACHE_DIRECTORY"        # systemd's CacheDirectory=
STATE_ENV = "STATE_DIRECTORY"        # systemd's StateDirectory=
APP = "cobi-companion"

T = TypeVar("T")


def cache_folder() -> Path:
    """Where the box keeps what it can make again (snapshots, the glyph atlas): systemd's
    $CACHE_DIRECTORY, else `cache` in its $STATE_DIRECTORY, else the user's cache folder
    ($XDG_CACHE_HOME or ~/.cache) / cobi-companion."""
    for name, below in ((CACHE_ENV, ""), (STATE_ENV, "cache")):
        given = os.environ.get(name, "").split(os.pathsep)[0]
        if given:
            return Path(given) / below
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / APP


def snapshot_file(name: str) -> Path:
    """The snapshot called `name` ("box-cards", "cli-config", ...) in the cache folder."""
    return cache_folder() / "snapshots" / f"{name}.json"


def stamp(path: Path) -> list[Any] | None:
    """What changes when a file (or folder) changes: its type and permissions, size,
    modification and change times and inode, and a link's target's too; None when there is
    nothing at `path`."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:             # a folder on the way cannot be read: a problem too
        return ["error", exc.errno]
    mark: list[Any] = _marks(info)
    if stat.S_ISLNK(info.st_mode):
        try:
            mark.append(_marks(os.stat(path)))
        except OSError:
            mark.append(None)          # a dangling link is a file's problem, and a state
    return mark


def _marks(info: os.stat_result) -> list[Any]:
    return [info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def package_file(package: str, name: str) -> Path | None:
    """A file of an installed package, looked for as the import system looks for the package
    (the first folder of sys.path that has it), without importing it."""
    for folder in sys.path:
        candidate = Path(folder or ".") / package / name
        if candidate.is_file():
            return candidate
    return None


def checking_code(files: Iterable[Path]) -> list[Path]:
    """`files` (the project's code that checks some files) and pydantic's version file: an
    upgrade of pydantic may change what a check makes of a file too."""
    pydantic = package_file("pydantic", "version.py")
    return [*files, *([pydantic] if pydantic else [])]


class Fingerprint:
    """The key of a snapshot: the files a result is made of, each with its stamp, and other
    values it depends on, in the order they are added."""

    def __init__(self) -> None:
        self.parts: list[Any] = []
        self.newest_ns = 0

    def value(self, name: str, value: Any) -> Fingerprint:
        """Something besides files the result depends on (JSON data)."""
        self.parts.append([name, value])
        return self

    def file(self, path: Path) -> Fingerprint:
        """A file that is read if it is there. A file that is not there is only "none": the
        result is the same wherever it would have been."""
        mark = stamp(path)
        self._saw(mark)
        self.parts.append(None if mark is None else [str(path), mark])
        return self

    def folder(self, path: Path, pattern: str) -> Fingerprint:
        """A folder whose files matching `pattern` are read: each of them (the folder's own
        times change with any other file in it, like Python's __pycache__)."""
        if not path.is_dir():
            self.parts.append(None)
            return self
        entries = []
        for entry in sorted(path.glob(pattern)):
            mark = stamp(entry)
            self._saw(mark)
            entries.append([entry.name, mark])
        self.parts.append([str(path), entries])
        return self

    def code(self, files: Iterable[Path]) -> Fingerprint:
        """The code that checks the files, and the interpreter that runs it: any change to
        them (an upgrade, an edit) makes a new key."""
        self.parts.append(["code", sys.version, [[str(f), stamp(f)] for f in files]])
        return self

    def _saw(self, mark: list[Any] | None) -> None:
        # Modification times only: an edit sets it, and a change that leaves it as it was
        # (a time set back with `touch -d`) changes the change time, which the key holds.
        if mark is not None and mark[0] != "error":
            self.newest_ns = max(self.newest_ns, mark[2])

    @property
    def key(self) -> list[Any]:
        return [FORMAT, self.parts]

    def racy(self) -> bool:
        """Whether a file was changed so recently that it may change again unseen."""
        return time.time_ns() - self.newest_ns < RACY_NS


def _crc(text: bytes) -> int:
    return zlib.crc32(text)


def load(path: Path, key: list[Any]) -> Any | None:
    """The data of the snapshot at `path` if it is whole and its key is `key`, else None."""
    try:
        with open(path, "rb") as handle:
            head, _, body = handle.read(MAX_BYTES + 1).partition(b"\n")
        header = json.loads(head)
        if not isinstance(header, dict) or header.get("key") != key or \
                header.get("crc") != _crc(body) or len(body) > MAX_BYTES:
            return None
        return json.loads(body)
    except (OSError, ValueError, RecursionError):    # not there, unreadable, not JSON
        return None


def save(path: Path, key: list[Any], data: Any) -> bool:
    """Write the snapshot; False when it cannot be (the files are then checked next time)."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    header = json.dumps({"key": key, "crc": _crc(body)}, ensure_ascii=False).encode()
    try:
        write_atomically(path, header + b"\n" + body)
    except OSError:
        return False
    return True


def write_atomically(path: Path, data: bytes) -> None:
    """Replace the file at `path` with `data`, whole or not at all (OSError if it cannot)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # one per thread too: the reload's thread and the loop's may both write a snapshot
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            _write_all(handle, data)
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)             # the rename itself survives a pulled plug
    finally:
        os.close(folder)


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view):]      # a full disk raises OSError here


def cached(snapshot: Path | None, fingerprint: Callable[[], Fingerprint],
           build: Callable[[], T], dump: Callable[[T], Any],
           restore: Callable[[Mapping[str, Any]], T]) -> T:
    """`build()`'s result, or the same restored from the snapshot when it is of the same
    files and code. The files are fingerprinted before they are read and again after: a
    snapshot is taken only when nothing changed meanwhile (nor just before)."""
    if snapshot is None:
        return build()
    before = fingerprint()
    data = load(snapshot, before.key)
    if isinstance(data, dict):
        try:
            return restore(data)
        except (KeyError, TypeError, ValueError, AttributeError):  # not what we wrote
            pass
    result = build()
    if not before.racy() and fingerprint().key == before.key:
        save(snapshot, before.key, dump(result))
    return result
