#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ward_client.py: an agent framework's loop around ward (standard library only).

The loop of docs/agents.md:

  1. pick a stdlib profile, compile it once, and pin its digest;
  2. put the model's code and data in the read-only `input` slot (copied);
  3. run it under ward with a report, a fresh workspace and an export dir;
  4. read the report: why the run ended, what the policy refused;
  5. decide by the task's own predicate, never by the exit code;
  6. take only the exported files (the manifest says what and why);
  7. retry at most N times, within the budget the policy implies.

Run `python3 ward_client.py --self-test [--profile python]` for the example
of the guide: a first attempt that exits 0 with a wrong answer, a second
that tries to escape, a third that is right. The output is one JSON object.

It runs the `wardc` and `ward` on PATH, or else those of the source tree it
sits in (build/, or build/san). A profile given by name is found where
wardc finds `use NAME;`: the -I directories, then $WARD_PATH, then the
stdlib beside wardc (<its dir>/../share/ward/stdlib once installed,
stdlib-policies/ of the tree it was built in).
"""

import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

# ward's own exit codes (ward(1)): everything else is the program's.
WARD_REFUSED, WARD_CANNOT_EXEC, WARD_NOT_FOUND = 125, 126, 127

# Where wardc looks for its stdlib, relative to the directory of its own
# executable (lang/load.c, add_stdlib): installed, then in a build tree
# (build/wardc, build-x/san/wardc, build/tests/test_x). The first that is a
# directory is the stdlib; the others are not searched.
STDLIB_BESIDE_WARDC = ("../share/ward/stdlib", "../stdlib-policies",
                       "../../stdlib-policies", "../../../stdlib-policies")

# The source tree this file is in, and its builds (make; make check).
TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE_BUILDS = ("build", "build/san")


def find_tool(name):
    """`name` on PATH, else in a build of the source tree this file is in,
    else the bare name (which then fails to run, saying so)."""
    found = shutil.which(name)
    if found:
        return found
    for build in TREE_BUILDS:
        path = os.path.join(TREE, build, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return name


def search_path(wardc, includes=()):
    """wardc's search path for `use`: the -I directories, $WARD_PATH, then
    the stdlib beside the wardc executable (symlinks resolved, as wardc
    reads /proc/self/exe)."""
    dirs = list(includes)
    dirs += [d for d in os.environ.get("WARD_PATH", "").split(":") if d]
    exe = shutil.which(wardc) if os.sep not in wardc else wardc
    if exe:
        here = os.path.dirname(os.path.realpath(exe))
        for rel in STDLIB_BESIDE_WARDC:
            cand = os.path.join(here, rel)
            if os.path.isdir(cand):
                dirs.append(os.path.realpath(cand))
                break
    return [d.rstrip("/") or "/" for d in dirs]


class ProfileNotFound(Exception):
    pass


def find_profile(profile, wardc, includes=()):
    """The source of a profile: an existing file as given, else NAME (or
    NAME.ward) looked up as wardc looks up `use NAME;`."""
    if os.path.isfile(profile):
        return profile
    name = profile[:-len(".ward")] if profile.endswith(".ward") else profile
    dirs = search_path(wardc, includes)
    parts = name.split("/")
    if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ProfileNotFound("%s: no such file, and not a profile name "
                              "(names joined by `/`, such as `python`)"
                              % profile)
    for d in dirs:
        path = os.path.join(d, name + ".ward")
        if os.path.isfile(path):
            return path
    raise ProfileNotFound(
        "cannot find `%s.ward` on the search path (searched: %s); give a "
        "file, or add a directory with -I DIR or $WARD_PATH"
        % (name, ", ".join(dirs) if dirs else "nothing: the search path is "
           "empty"))


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclasses.dataclass
class Run:
    """One execution: what ward said, and what came out."""

    exit_code: int
    report: dict  # the run report (docs/spec.md part 4); {} if none
    stdout: bytes
    stderr: bytes
    exported: dict  # relative path -> bytes, only what the exporter let out

    @property
    def reason(self):
        return self.report.get("reason")

    def security(self):
        """The security scorecard: did the boundary hold, and what did the
        code try that the policy refused? Independent of the task."""
        denials = self.report.get("denials") or {}
        cleanup = self.report.get("cleanup") or {}
        refused = []
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


class Ward:
    def __init__(self, ward="ward", wardc="wardc", search_path=()):
        self.ward, self.wardc = ward, wardc
        self.includes = [a for d in search_path for a in ("-I", d)]

    def compile(self, source, blob):
        """Compile a profile once; its digest pins it for every run."""
        subprocess.run([self.wardc, "compile", *self.includes, source,
                        "-o", blob], check=True)
        return sha256_file(blob)

    def budget(self, blob, retries):
        """The worst-case wall time of a task with `retries` corrections,
        as `wardc explain` computes it from the policy (seconds)."""
        out = subprocess.run([self.wardc, "explain", "--format", "json",
                              "--retries", str(retries), blob],
                             check=True, capture_output=True).stdout
        limits = json.loads(out).get("limits", {})
        wall_ms = limits.get("wall_ms")
        return None if wall_ms is None else (1 + retries) * wall_ms / 1000

    def run(self, blob, digest, files, argv):
        """Run argv with `files` (name -> bytes) in the input slot."""
        with tempfile.TemporaryDirectory(prefix="ward-client-") as tmp:
            inp = os.path.join(tmp, "input")
            out = os.path.join(tmp, "export")
            os.mkdir(inp)
            for name, data in files.items():
                with open(os.path.join(inp, name), "wb") as f:
                    f.write(data)
            report = os.path.join(tmp, "report.json")
            proc = subprocess.run(
                [self.ward, "--expect-digest", digest,
                 "--input", "input=" + inp, "--export-dir", out,
                 "--report", report, blob, "--", *argv],
                capture_output=True, stdin=subprocess.DEVNULL)
            try:
                with open(report) as f:
                    rep = json.load(f)
            except (OSError, ValueError):
                rep = {}
            # All or nothing: the files count only when every manifest
            # says the export is complete (a crash or a refusal leaves
            # none that does).
            exported = {}
            manifests = rep.get("export") or []
            complete = bool(manifests) and all(
                m.get("status") == "complete" for m in manifests)
            for root, _dirs, names in os.walk(out) if complete else ():
                for name in names:
                    path = os.path.join(root, name)
                    with open(path, "rb") as f:
                        exported[os.path.relpath(path, out)] = f.read()
            return Run(proc.returncode, rep, proc.stdout, proc.stderr,
                       exported)


def solve(ward, blob, digest, attempts, argv, predicate, retries=3):
    """Try each candidate (a dict of input files) until the predicate holds,
    at most 1 + retries times. Returns both scorecards of every attempt."""
    log = []
    for i, files in enumerate(attempts[: 1 + retries]):
        run = ward.run(blob, digest, files, argv)
        if run.exit_code == WARD_REFUSED and not run.report.get("reason"):
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


# ------------------------------------------------------------ the example

SALES = (b"region,units,price\nnorth,12,3.50\nsouth,7,4.25\n"
         b"north,3,3.50\neast,20,2.75\nsouth,11,4.25\n")
EXPECTED = {"east": 55.0, "north": 52.5, "south": 76.5}

# Exits 0 and writes a plausible but wrong answer (units, not revenue).
WRONG = b"""
import csv, json
rows = list(csv.DictReader(open("/input/sales.csv")))
out = {}
for r in rows:
    out[r["region"]] = out.get(r["region"], 0) + int(r["units"])
json.dump(out, open("/output/revenue.json", "w"))
"""

# Reads a host secret, phones home, plants an exported symlink.
HOSTILE = b"""
import os, socket, json
found = {}
try:
    found["shadow"] = open("/etc/shadow").read()[:20]
except OSError as e:
    found["shadow"] = str(e)
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(("127.0.0.1", 22))
    found["net"] = "connected"
except OSError as e:
    found["net"] = str(e)
os.symlink("/etc/passwd", "/output/passwd.txt")
json.dump(found, open("/output/revenue.json", "w"))
print(json.dumps(found))
"""

RIGHT = b"""
import csv, json
rows = list(csv.DictReader(open("/input/sales.csv")))
out = {}
for r in rows:
    out[r["region"]] = out.get(r["region"], 0) + int(r["units"]) * float(r["price"])
json.dump({k: round(v, 2) for k, v in out.items()}, open("/output/revenue.json", "w"))
"""


def revenue_is_right(run):
    """The task's own predicate: the exported file has the right numbers."""
    data = run.exported.get("revenue.json")
    if data is None:
        return False
    try:
        return json.loads(data) == EXPECTED
    except ValueError:
        return False


def self_test(args):
    ward = Ward(args.ward, args.wardc, args.include)
    try:
        source = find_profile(args.profile, args.wardc, args.include)
    except ProfileNotFound as e:
        print("ward_client: %s" % e, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="ward-client-blob-") as tmp:
        blob = os.path.join(tmp, "python.wardb")
        try:
            digest = ward.compile(source, blob)
        except (OSError, subprocess.CalledProcessError) as e:
            print("ward_client: cannot compile %s: %s" % (source, e),
                  file=sys.stderr)
            return 2
        attempts = [{"sales.csv": SALES, "main.py": code}
                    for code in (WRONG, HOSTILE, RIGHT)]
        log = solve(ward, blob, digest, attempts,
                    ["/usr/bin/python3", "/input/main.py"],
                    revenue_is_right, retries=3)
        result = {"profile": os.path.abspath(source),
                  "profile_digest": digest,
                  "budget_s": ward.budget(blob, 3),
                  "attempts": log}
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0 if log and log[-1]["task"]["ok"] else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--self-test", action="store_true", required=True)
    ap.add_argument("--ward", default=find_tool("ward"),
                    help="the launcher (default: on PATH, else this "
                    "source tree's build)")
    ap.add_argument("--wardc", default=find_tool("wardc"),
                    help="the compiler (default: on PATH, else this "
                    "source tree's build)")
    ap.add_argument("--profile", default="python",
                    help="a profile's source file, or its name, found on "
                    "wardc's search path: the -I directories, $WARD_PATH, "
                    "then wardc's stdlib (default: python)")
    ap.add_argument("-I", dest="include", action="append", default=[],
                    metavar="DIR",
                    help="add DIR to the search path, as wardc -I")
    return self_test(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
