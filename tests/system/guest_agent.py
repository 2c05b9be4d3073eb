"""The system test's agent inside the guest: runs the host's shell commands, one at a time.

Installed into the test's Debian image (not on a box) as a service. The guest has no network;
the host talks to it over a virtio serial port (QEMU's `virtserialport` named cobi.agent). Each
message is one line of JSON: the agent says {"hello": BOOT_ID} when it starts, then answers
each {"id": N, "cmd": TEXT, "timeout": S} with {"id": N, "rc": RC, "out": TEXT} (stdout and
stderr together; rc -1 when the command ran out of time). Python's standard library only: it
runs on the guest's own python3.
"""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

PORT = Path("/dev/virtio-ports/cobi.agent")


def send(fd: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def answer(request: dict[str, Any]) -> dict[str, Any]:
    try:
        done = subprocess.run(["bash", "-c", str(request["cmd"])], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=float(request.get("timeout", 120)), check=False)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or b""
        return {"id": request["id"], "rc": -1,
                "out": out.decode("utf-8", "replace") + "\n(timed out)"}
    return {"id": request["id"], "rc": done.returncode,
            "out": done.stdout.decode("utf-8", "replace")}


def main() -> None:
    while not PORT.exists():
        time.sleep(0.2)
    fd = os.open(PORT, os.O_RDWR)
    boot_id = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    send(fd, {"hello": boot_id})
    pending = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:            # the host is not connected: wait for it
            time.sleep(0.2)
            continue
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip():
                send(fd, answer(json.loads(line)))


if __name__ == "__main__":
    main()
