# SPDX-License-Identifier: MIT
"""The client itself: compile and pin a profile, say its budget, run a
program under ward and collect what came out (all at the end, or as it
arrives)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import selectors
import shutil
import subprocess
import tempfile
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Mapping,
                    Optional, Sequence)

# ward's own exit codes (ward(1)): everything else is the program's.
WARD_REFUSED, WARD_CANNOT_EXEC, WARD_NOT_FOUND = 125, 126, 127

# How much of a stream one read takes.
CHUNK = 1 << 16


def sha256_file(path: str) -> str:
    """The SHA-256 of a file, in hex: a blob's pin."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclasses.dataclass(frozen=True)
class Budget:
    """The seeds' worst case of a task, as `wardc explain` computes it from
    the policy (docs/spec.md 6.7):

        T = (1 + N) x T_run + T_queue

    N the retries after the first run, T_run the policy's `wall` plus its
    `grace` (the longest a run lasts before the supervisor's SIGKILL),
    T_queue the caller's waiting for a sandbox and starting it. Seconds;
    run_s and worst_s are None when the policy has no `wall` (unbounded).
    slot_bytes: what one run can write back to the host through each
    read-write directory slot (its tmpfs's size), by slot name; not part
    of the time budget, so not compared.
    """

    retries: int
    queue_s: float
    run_s: Optional[float]
    worst_s: Optional[float]
    slot_bytes: Mapping[str, int] = dataclasses.field(
        default_factory=dict, compare=False)

    @staticmethod
    def of(retries: int, queue_s: float, run_s: Optional[float]) -> "Budget":
        """The formula, computed here."""
        worst = None if run_s is None else (1 + retries) * run_s + queue_s
        return Budget(retries, queue_s, run_s, worst)

    @staticmethod
    def from_explain(budget: Mapping[str, Any]) -> "Budget":
        """From the "budget" object of `wardc explain --format json`."""
        def seconds(ms: Optional[int]) -> Optional[float]:
            return None if ms is None else ms / 1000
        return Budget(int(budget["retries"]), budget["queue_ms"] / 1000,
                      seconds(budget.get("run_ms")),
                      seconds(budget.get("worst_ms")),
                      {str(k): int(v) for k, v in
                       budget.get("slot_bytes", {}).items()})


@dataclasses.dataclass(frozen=True)
class Chunk:
    """Bytes of one of the program's streams, as ward passed them on."""

    stream: str  # "stdout" or "stderr"
    data: bytes


@dataclasses.dataclass
class Run:
    """One execution: what ward said, and what came out."""

    exit_code: int
    report: Dict[str, Any]  # the run report (docs/spec.md part 4); {} if none
    stdout: bytes
    stderr: bytes
    exported: Dict[str, bytes]  # relative path -> bytes, only what the
    # exporter let out, and only when every manifest says it is complete

    @property
    def reason(self) -> Optional[str]:
        """Why the run ended (`exited`, `timeout`, `seccomp_violation`...)."""
        r = self.report.get("reason")
        return r if isinstance(r, str) else None

    def security(self) -> Dict[str, Any]:
        """The security scorecard: did the boundary hold, and what did the
        code try that the policy refused? Independent of the task."""
        denials = self.report.get("denials") or {}
        cleanup = self.report.get("cleanup") or {}
        refused: List[Dict[str, Any]] = []
        for manifest in self.report.get("export") or []:
            refused += [e for e in manifest.get("entries", [])
                        if e.get("verdict") != "exported"]
        return {
            "reason": self.reason,
            "seccomp_denials": denials.get("seccomp") or [],
            "network_denials": denials.get("network") or [],
            "export_refused": [(e.get("path"), e.get("reason"))
                               for e in refused],
            "cleaned_up": cleanup.get("processes_left") == 0
            and cleanup.get("cgroup_removed") is not False,
        }


class Execution:
    """A run under way. Iterate it for the program's output as it arrives
    (Chunk objects, stdout and stderr interleaved as ward passes them
    on); result() waits for the end and returns the Run. Use it as a
    context manager: leaving the block early stops the run (ward kills
    the sandbox on SIGTERM) and removes the temporary directory."""

    def __init__(self, argv: Sequence[str], tmp: str, out_dir: str,
                 report: str) -> None:
        self._tmp, self._out_dir, self._report = tmp, out_dir, report
        self._proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
        self._sel = selectors.DefaultSelector()
        assert self._proc.stdout and self._proc.stderr
        self._sel.register(self._proc.stdout, selectors.EVENT_READ, "stdout")
        self._sel.register(self._proc.stderr, selectors.EVENT_READ, "stderr")
        self._bufs: Dict[str, List[bytes]] = {"stdout": [], "stderr": []}
        self._run: Optional[Run] = None

    def __iter__(self) -> Iterator[Chunk]:
        while self._sel.get_map():
            for key, _ in self._sel.select():
                data = os.read(key.fd, CHUNK)
                if not data:
                    self._sel.unregister(key.fileobj)
                    continue
                self._bufs[key.data].append(data)
                yield Chunk(key.data, data)

    def result(self) -> Run:
        """Wait for the end (reading what is left of the streams), then
        read the report and the exported files."""
        if self._run is None:
            for _ in self:
                pass
            code = self._proc.wait()
            self._run = Run(code, self._read_report(),
                            b"".join(self._bufs["stdout"]),
                            b"".join(self._bufs["stderr"]),
                            self._read_exported())
            self.close()
        return self._run

    def close(self) -> None:
        """Stop the run if it is still going, and clean up."""
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._sel.close()
        for f in (self._proc.stdout, self._proc.stderr):
            if f:
                f.close()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> "Execution":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_report(self) -> Dict[str, Any]:
        try:
            with open(self._report) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            return {}
        return rep if isinstance(rep, dict) else {}

    def _read_exported(self) -> Dict[str, bytes]:
        # All or nothing: the files count only when every manifest says
        # the export is complete (a crash or a refusal leaves none that
        # does).
        rep = self._read_report()
        manifests = rep.get("export") or []
        complete = bool(manifests) and all(
            m.get("status") == "complete" for m in manifests)
        exported: Dict[str, bytes] = {}
        for root, _dirs, names in os.walk(self._out_dir) if complete else ():
            for name in names:
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    exported[os.path.relpath(path, self._out_dir)] = f.read()
        return exported


class Ward:
    """ward and wardc, and the search path profiles are compiled with."""

    def __init__(self, ward: str = "ward", wardc: str = "wardc",
                 search_path: Iterable[str] = ()) -> None:
        self.ward, self.wardc = ward, wardc
        self.includes = [a for d in search_path for a in ("-I", d)]

    def compile(self, source: str, blob: str) -> str:
        """Compile a profile once; its digest (returned) pins it for every
        run."""
        subprocess.run([self.wardc, "compile", *self.includes, source,
                        "-o", blob], check=True)
        return sha256_file(blob)

    def explain(self, blob: str, retries: int = 3,
                queue: str = "12s") -> Dict[str, Any]:
        """`wardc explain --format json`: what the policy allows, its
        limits and its budget for `retries` and `queue`."""
        out = subprocess.run([self.wardc, "explain", "--format", "json",
                              "--retries", str(retries), "--queue", queue,
                              blob], check=True, capture_output=True).stdout
        doc = json.loads(out)
        return doc if isinstance(doc, dict) else {}

    def budget(self, blob: str, retries: int = 3,
               queue: str = "12s") -> Budget:
        """The worst-case time of a task with `retries` corrections and
        `queue` of waiting and start-up (a duration, "12s", "500ms"), as
        `wardc explain` computes it: for the seeds' example (wall 30 s, no
        grace, 3 retries, 12 s) 132 s."""
        return Budget.from_explain(self.explain(blob, retries, queue)["budget"])

    def start(self, blob: str, digest: str, files: Mapping[str, bytes],
              argv: Sequence[str]) -> Execution:
        """Start argv under ward with `files` (name -> bytes) in the input
        slot, a fresh workspace, an export directory and a report."""
        tmp = tempfile.mkdtemp(prefix="ward-client-")
        try:
            # ward's courier copies the input in with the sandbox's host
            # ids (as root, the run's own, not the caller's): the input
            # must be readable by them, and by nobody who cannot guess
            # its random name (tmp may be searched, not listed); the
            # report and the export stay in a directory of ours alone.
            os.chmod(tmp, 0o711)
            inp = os.path.join(tmp, "input-" + os.urandom(16).hex())
            own = os.path.join(tmp, "own")
            os.mkdir(own, 0o700)
            os.mkdir(inp)
            os.chmod(inp, 0o755)
            for name, data in files.items():
                with open(os.path.join(inp, name), "wb") as f:
                    f.write(data)
                os.chmod(os.path.join(inp, name), 0o644)
            out = os.path.join(own, "export")
            report = os.path.join(own, "report.json")
            cmd = [self.ward, "--expect-digest", digest,
                   "--input", "input=" + inp, "--export-dir", out,
                   "--report", report, blob, "--", *argv]
            return Execution(cmd, tmp, out, report)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def run(self, blob: str, digest: str, files: Mapping[str, bytes],
            argv: Sequence[str],
            on_output: Optional[Callable[[Chunk], None]] = None) -> Run:
        """Run argv to the end (see start()); on_output, if given, sees
        each chunk of stdout and stderr as it arrives."""
        with self.start(blob, digest, files, argv) as ex:
            for chunk in ex:
                if on_output:
                    on_output(chunk)
            return ex.result()


def solve(ward: Ward, blob: str, digest: str,
          attempts: Sequence[Mapping[str, bytes]], argv: Sequence[str],
          predicate: Callable[[Run], bool], retries: int = 3,
          on_output: Optional[Callable[[int, Chunk], None]] = None
          ) -> List[Dict[str, Any]]:
    """Try each candidate (a dict of input files) until the task's
    predicate holds, at most 1 + retries times. Returns both scorecards of
    every attempt. on_output(attempt, chunk) streams each attempt's
    output."""
    log: List[Dict[str, Any]] = []
    for i, files in enumerate(attempts[: 1 + retries]):
        def stream(chunk: Chunk, i: int = i) -> None:
            if on_output:
                on_output(i + 1, chunk)
        run = ward.run(blob, digest, files, argv, stream)
        if run.exit_code == WARD_REFUSED and not run.reason:
            raise RuntimeError("ward refused the run: " +
                               run.stderr.decode(errors="replace"))
        task_ok = bool(predicate(run))
        log.append({
            "attempt": i + 1,
            "exit_code": run.exit_code,
            "security": run.security(),
            "task": {"ok": task_ok},
            "exported": {p: hashlib.sha256(d).hexdigest()
                         for p, d in sorted(run.exported.items())},
        })
        if task_ok:
            break
    return log

