"""QEMU for the system test: the probe of KVM, the guest with its agent's and QMP's sockets."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host import StepFailed


def kvm_works(kernel: Path) -> tuple[bool, str]:
    """A short boot of the kernel alone under KVM: it must reach its panic (no root) at once.
    Where KVM is listed but its guests hang, nothing comes out."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False, "no /dev/kvm"
    command = ["qemu-system-x86_64", "-accel", "kvm", "-m", "256", "-kernel", str(kernel),
               "-append", "console=ttyS0 panic=-1", "-no-reboot", "-display", "none",
               "-serial", "stdio", "-nic", "none"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=15, check=False)
    except subprocess.TimeoutExpired:
        return False, "a KVM guest printed nothing in 15 s (it hangs)"
    if b"Kernel panic" in done.stdout:
        return True, "a KVM guest booted its kernel"
    return False, f"a KVM guest ended without booting (exit {done.returncode})"


class Lines:
    """A unix socket read as lines of JSON."""

    def __init__(self, path: Path, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        self.pending = b""

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("nothing came")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError("the socket closed")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        message: dict[str, Any] = json.loads(line)
        return message


@dataclass
class Guest:
    """One QEMU run of the disk, with the agent's and QMP's sockets."""

    work: Path
    disk: Path
    payload: Path
    kernel: Path
    initrd: Path
    accel: str
    name: str
    process: subprocess.Popen[bytes] | None = None
    agent: Lines | None = None
    qmp: Lines | None = None
    boot_id: str = ""
    next_id: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    def start(self) -> None:
        agent_sock, qmp_sock = self.work / "agent.sock", self.work / "qmp.sock"
        for sock in (agent_sock, qmp_sock):
            sock.unlink(missing_ok=True)
        accel = "tcg,thread=multi" if self.accel == "tcg" else "kvm"
        command = [
            "qemu-system-x86_64", "-accel", accel, "-smp", "2", "-m", "2048",
            "-kernel", str(self.kernel), "-initrd", str(self.initrd),
            "-append", "root=/dev/vda rw console=ttyS0 panic=-1",
            "-drive", f"file={self.disk},format=raw,if=virtio",
            "-drive", f"file={self.payload},format=raw,if=virtio,readonly=on",
            "-device", "qemu-xhci,id=xhci",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={agent_sock},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=cobi.agent",
            "-qmp", f"unix:{qmp_sock},server=on,wait=off",
            "-serial", f"file:{self.work / (self.name + '-console.log')}",
            "-display", "none", "-nic", "none", "-monitor", "none"]
        with (self.work / (self.name + "-qemu.log")).open("wb") as log:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT)
        self.agent = Lines(agent_sock)
        self.qmp = Lines(qmp_sock)
        self.qmp.read(30)                                     # the greeting
        self.qmp_do("qmp_capabilities")

    def wait_hello(self, timeout: float = 600) -> float:
        """Until the agent of a new boot says hello; the seconds it took."""
        assert self.agent is not None
        started = time.monotonic()
        while True:
            left = timeout - (time.monotonic() - started)
            message = self.agent.read(max(left, 0.1))
            if "hello" in message and message["hello"] != self.boot_id:
                self.boot_id = str(message["hello"])
                return time.monotonic() - started

    def sh(self, command: str, timeout: float = 120) -> tuple[int, str]:
        assert self.agent is not None
        self.next_id += 1
        self.agent.send({"id": self.next_id, "cmd": command, "timeout": timeout})
        while True:
            message = self.agent.read(timeout + 30)
            if message.get("id") == self.next_id:
                return int(message["rc"]), str(message["out"])

    def ok(self, command: str, timeout: float = 120) -> str:
        rc, out = self.sh(command, timeout)
        if rc != 0:
            raise StepFailed(f"`{command}` ended with {rc}: {out.strip()[-2000:]}")
        return out

    def qmp_do(self, command: str, **arguments: Any) -> Any:
        assert self.qmp is not None
        self.qmp.send({"execute": command, **({"arguments": arguments} if arguments else {})})
        while True:
            message = self.qmp.read(60)
            if "event" in message:
                self.events.append(message)
            elif "error" in message:
                raise StepFailed(f"QMP {command}: {message['error']}")
            elif "return" in message:
                return message["return"]

    def qmp_event(self, name: str, timeout: float) -> dict[str, Any]:
        assert self.qmp is not None
        end = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["event"] == name:
                    self.events.remove(event)
                    return event
            self.events.append(self.qmp.read(max(end - time.monotonic(), 0.1)))

    def wait_exit(self, timeout: float) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
