# SPDX-License-Identifier: MIT
"""Sessions: one sandbox, many cells (docs/spec.md part 7, docs/agents.md).

    with Session.start("py.wardb", run_args=["--slot", "input=in"]) as s:
        s.run("x = 41")
        e = s.run("x += 1; print(x)", on_stdout=lambda b: print(b))
        assert e.stdout == b"42\\n"
        e = s.run("while True: pass", timeout=2)   # e.status == "interrupted"
    s.report["session"]["reason"]                   # "stop"
    s.cell_denials(6)                               # what cell 6 was refused

Speaks the protocol directly: a frame is a 4-byte big-endian length and a
body; requests are binary (type byte and fields), replies JSON.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import subprocess
from typing import Any, Callable, Dict, List, Optional, Sequence

from .locate import source_tree

EXEC, INTERRUPT, STOP, STATUS = 1, 2, 3, 4
FRAME_MAX = 1024 * 1024 + 1024

DRIVER_PLACES = ("launcher/session/python_driver.py",)
DRIVER_INSTALLED = ("/usr/local/share/ward/python_driver.py",
                    "/usr/share/ward/python_driver.py")


def find_driver() -> str:
    """The Python driver's source file ($WARD_SESSION_DRIVER, the source
    tree's, or the installed one)."""
    env = os.environ.get("WARD_SESSION_DRIVER")
    if env:
        return env
    tree = source_tree()
    for rel in DRIVER_PLACES:
        if tree and os.path.exists(os.path.join(tree, rel)):
            return os.path.join(tree, rel)
    for path in DRIVER_INSTALLED:
        if os.path.exists(path):
            return path
    raise FileNotFoundError("ward's python_driver.py (set WARD_SESSION_DRIVER)")


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def read_frame(sock: socket.socket) -> Optional[Dict[str, Any]]:
    head = _read_exact(sock, 4)
    if head is None:
        return None
    (n,) = struct.unpack(">I", head)
    if n == 0 or n > 8 * FRAME_MAX:
        raise ValueError("a reply frame of %d bytes" % n)
    body = _read_exact(sock, n)
    return None if body is None else json.loads(body)


def _read_exact(sock: socket.socket, n: int) -> Optional[bytes]:
    buf = b""
    while len(buf) < n:
        part = sock.recv(n - len(buf))
        if not part:
            return None
        buf += part
    return buf


class Execution:
    """One cell's outcome: status ("ok", "error", "interrupted",
    "session_ended"), reason, stdout/stderr as sent (capped), result (the
    repr of a last expression), error (name, message, traceback), and
    the server's whole reply (raw)."""

    def __init__(self, cell: int) -> None:
        self.cell = cell
        self.stdout = b""
        self.stderr = b""
        self.raw: Dict[str, Any] = {}

    status = property(lambda self: self.raw.get("status"))
    reason = property(lambda self: self.raw.get("reason"))
    result = property(lambda self: self.raw.get("result"))
    error = property(lambda self: self.raw.get("error"))
    duration_ms = property(lambda self: self.raw.get("duration_ms"))
    # the policy's seccomp refusals during this cell, with this cell's
    # counts, as the broker told the server while the cell ran
    # the files this cell added, changed and deleted in the writable
    # slots: one object a slot, lists capped at 100 (counts complete)
    files = property(lambda self: self.raw.get("files") or [])
    denials = property(lambda self: (self.raw.get("denials") or {}).get("seccomp") or [])

    def __repr__(self) -> str:
        return "Execution(cell=%d, status=%r, reason=%r)" % (
            self.cell, self.status, self.reason)


class Session:
    """A sandbox kept alive under one compiled policy: `ward session
    start` in a child process, and this end of its socket."""

    def __init__(self, proc: "subprocess.Popen[bytes]", path: str) -> None:
        self.proc = proc
        self.path = path
        self.report: Optional[Dict[str, Any]] = None
        self.cells: List[Execution] = []

    @classmethod
    def start(cls, blob: str, run_args: Sequence[str] = (),
              driver: Optional[Sequence[str]] = None, ward: str = "ward",
              idle: Optional[str] = None,
              preexec: Optional[Callable[[], None]] = None) -> "Session":
        if driver is None:
            with open(find_driver()) as f:
                driver = ["python3", "-c", f.read()]
        argv = [ward, "session", "start"]
        if idle:
            argv += ["--idle", idle]
        argv += list(run_args) + [blob, "--"] + list(driver)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=preexec)
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        if not line.startswith("socket "):
            err = proc.stderr.read().decode() if proc.stderr else ""
            proc.wait()
            try:  # the session report of a session that never started
                why = json.loads(line)["session"]["reason"]
            except (ValueError, KeyError, TypeError):
                why = line[:200]
            raise RuntimeError("ward session start (%s): %s" % (why, err))
        return cls(proc, line.split(" ", 1)[1].strip())

    def _connect(self) -> socket.socket:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.path)
        return s

    def request(self, body: bytes) -> List[Dict[str, Any]]:
        """One request; every reply until its answer."""
        with self._connect() as s:
            s.sendall(frame(body))
            out: List[Dict[str, Any]] = []
            while True:
                m = read_frame(s)
                if m is None:
                    return out
                out.append(m)
                if m["type"] not in ("stdout", "stderr", "accepted"):
                    return out

    def run(self, code: str, timeout: Optional[float] = None,
            max_output: int = 0,
            on_stdout: Optional[Callable[[bytes], None]] = None,
            on_stderr: Optional[Callable[[bytes], None]] = None) -> Execution:
        wall = int(timeout * 1000) if timeout else 0
        body = struct.pack(">BII", EXEC, wall, max_output) + code.encode()
        try:
            return self._run(body, on_stdout, on_stderr)
        except OSError as err:  # the session is gone
            e = Execution(0)
            e.raw = {"status": "session_ended", "reason": str(err)}
            return e

    def _run(self, body: bytes, on_stdout: Optional[Callable[[bytes], None]],
             on_stderr: Optional[Callable[[bytes], None]]) -> Execution:
        with self._connect() as s:
            s.sendall(frame(body))
            e = Execution(0)
            while True:
                m = read_frame(s)
                if m is None:
                    e.raw = {"status": "session_ended", "reason": "closed"}
                    return e
                t = m["type"]
                if t == "accepted":
                    e.cell = m["cell"]
                elif t in ("stdout", "stderr"):
                    data = base64.b64decode(m["data"])
                    if t == "stdout":
                        e.stdout += data
                        if on_stdout:
                            on_stdout(data)
                    else:
                        e.stderr += data
                        if on_stderr:
                            on_stderr(data)
                elif t == "result":
                    e.raw = m
                    self.cells.append(e)
                    return e
                else:  # error, ended
                    e.raw = dict(m, status=m.get("code", t))
                    return e

    def status(self) -> Dict[str, Any]:
        return self.request(bytes([STATUS]))[-1]

    def interrupt(self, cell: int = 0) -> Dict[str, Any]:
        return self.request(struct.pack(">BI", INTERRUPT, cell))[-1]

    def stop(self, timeout: float = 30) -> Dict[str, Any]:
        """End the session; its report (the run report in "run")."""
        if self.report is None:
            try:
                self.request(bytes([STOP]))
            except OSError:
                pass  # it ended already
            out, _ = self.proc.communicate(timeout=timeout)
            lines = [l for l in out.decode().splitlines() if l.startswith("{")]
            self.report = json.loads(lines[-1]) if lines else {}
        return self.report

    def cell_denials(self, cell: int) -> List[Dict[str, Any]]:
        """The policy's seccomp refusals during the cell, from the
        session report (the cell's reply as it was sent: a call refused
        in two cells is in both, with each one's count)."""
        rep = self.stop() if self.report is None else self.report
        for c in rep.get("session", {}).get("cells", []):
            if c["cell"] == cell:
                return (c.get("denials") or {}).get("seccomp") or []
        return []

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        except Exception:
            self.proc.kill()
            self.proc.wait()
