"""The speech engine's own process: `python -m cobi_companion.device.ports.render_worker
LIBRARY DATA MAX_SECONDS MEMORY_BYTES`, started by the box's voice (render_process.py). eSpeak NG
is C: a crash there (a segfault, an abort) or a render that never ends would end or stall the
process it runs in, so it runs here and costs the box only its voice.

The talk is on the standard streams, one message at a time, each a 4-byte big-endian length
then that many bytes. The worker first says hello (JSON: the engine's name and rate, or why it
could not start); then for each request (JSON: text, language, and the words a minute and
amplitude to say it at) it answers with a JSON reply,
and, when the reply is ok, a message of the samples (16-bit mono). It ends when its standard
input closes (the box ended or let it go).

The worker limits its own address space (RLIMIT_AS) where it may; under the box's unit
(`SystemCallFilter=~@resources`) it may not, and the box watches its memory instead.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import BinaryIO

HEADER = 4          # the length of a message, big-endian


def send(out: BinaryIO, payload: bytes) -> None:
    out.write(len(payload).to_bytes(HEADER, "big") + payload)
    out.flush()


def receive(stream: BinaryIO) -> bytes | None:
    """The next message, or None at the end of the stream."""
    header = stream.read(HEADER)
    if len(header) < HEADER:
        return None
    size = int.from_bytes(header, "big")
    payload = stream.read(size)
    return payload if len(payload) == size else None


def limit_memory(allowance: int) -> None:
    """No more address space than this process's now plus `allowance` bytes: a runaway
    render fails its allocation here instead of taking the box's memory."""
    import resource

    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            now = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (now + allowance, now + allowance))
    except (OSError, ValueError):
        pass            # refused (the unit's system call filter) or no /proc: the box watches


def serve(library: str, data: str, max_seconds: float, memory: int,
          stdin: BinaryIO, stdout: BinaryIO) -> int:
    from cobi_companion.device.ports.espeak import (
        EngineFailed,
        EngineMissing,
        Espeak,
        Library,
        TooLong,
    )

    try:
        engine = Espeak(Library(Path(library), Path(data) if data else None))
    except (EngineMissing, EngineFailed) as exc:
        kind = "missing" if isinstance(exc, EngineMissing) else "failed"
        send(stdout, json.dumps({"ok": False, "kind": kind, "error": str(exc)}).encode())
        return 1
    limit_memory(memory)
    max_bytes = int(max_seconds * engine.rate) * 2
    send(stdout, json.dumps({"ok": True, "name": engine.name, "rate": engine.rate}).encode())
    while (message := receive(stdin)) is not None:
        asked = json.loads(message)
        try:
            samples = engine.render(asked["text"], asked["language"], max_bytes,
                                    int(asked["wpm"]), int(asked["amplitude"]))
        except (EngineFailed, ValueError, KeyError, TypeError) as exc:
            kind = "too_long" if isinstance(exc, TooLong) else "failed"
            send(stdout, json.dumps({"ok": False, "kind": kind, "error": str(exc)}).encode())
            continue
        send(stdout, b'{"ok": true}')
        send(stdout, samples)
    return 0


def main(argv: list[str]) -> int:
    library, data, max_seconds, memory = argv
    # The messages go out on a copy of standard output; the library's own prints (C's
    # stdout) go to standard error, where they cannot break a message.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return serve(library, data, float(max_seconds), int(memory), sys.stdin.buffer, out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
