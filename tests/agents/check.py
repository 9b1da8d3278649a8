#!/usr/bin/env python3
"""The agents guide's loop, run for real: the ward client (the package
in examples/python) drives ward on the stdlib python profile through a
wrong answer, a hostile attempt and a right one, and every scorecard is
checked from outside; its budget against `wardc explain`, its streaming
against the clock; then the guide's command line itself, from the tree
and from elsewhere, and the package installed with pip into a fresh
virtual environment, offline."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "examples", "python"))
import ward_client as wc  # noqa: E402
from ward_client import example as ex  # noqa: E402

build = os.environ.get("BUILD", "build")
ward = wc.Ward(os.path.join(top, build, "ward"), os.path.join(top, build, "wardc"))
failed = 0


def run_self_test(argv, cwd, env):
    """The client's self-test: the process, its JSON, its attempts."""
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True,
                          timeout=300)
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        out = {}
    return proc, out, out.get("attempts") or [{}]


def check(name, cond, detail=""):
    global failed
    if cond:
        print("PASS agents/" + name)
    else:
        failed += 1
        print("FAIL agents/%s: %s" % (name, detail))


with tempfile.TemporaryDirectory(prefix="ward-agents-") as tmp:
    blob = os.path.join(tmp, "python.wardb")
    digest = ward.compile(os.path.join(top, "stdlib-policies/python.ward"), blob)
    check("digest-pinned", digest == wc.sha256_file(blob))
    argv = list(ex.ARGV)
    files = ex.files

    wrong = ward.run(blob, digest, files(ex.WRONG), argv)
    check("exit-0-is-not-success", wrong.exit_code == 0 and
          wrong.reason == "exited" and not ex.revenue_is_right(wrong),
          "exit %d reason %s" % (wrong.exit_code, wrong.reason))

    hostile = ward.run(blob, digest, files(ex.HOSTILE), argv)
    sec = hostile.security()
    # what the hostile code found, from its stdout: its export is refused
    seen = json.loads(hostile.stdout or b"{}")
    check("hostile-no-secret", "root:" not in seen.get("shadow", "root:"),
          repr(seen.get("shadow")))
    check("hostile-no-network", seen.get("net") not in (None, "connected"),
          repr(seen.get("net")))
    check("hostile-symlink-not-exported",
          "passwd.txt" not in hostile.exported and
          ("passwd.txt", "symlink") in [tuple(x) for x in sec["export_refused"]],
          repr(sec["export_refused"]))
    check("hostile-nothing-exported", hostile.exported == {} and
          [m.get("status") for m in hostile.report.get("export") or []] == ["refused"],
          repr(hostile.exported))
    check("hostile-cleaned-up", sec["cleaned_up"], repr(hostile.report.get("cleanup")))

    right = ward.run(blob, digest, files(ex.RIGHT), argv)
    check("right-answer-exported", ex.revenue_is_right(right),
          repr(right.exported))
    man = (right.report.get("export") or [{}])[0]
    sums = {e["path"]: e["sha256"] for e in man.get("entries", [])
            if e.get("verdict") == "exported"}
    import hashlib
    check("manifest-digest", sums.get("revenue.json") ==
          hashlib.sha256(right.exported.get("revenue.json", b"")).hexdigest(),
          repr(sums))

    log = wc.solve(ward, blob, digest, [files(c) for c in ex.ATTEMPTS],
                   argv, ex.revenue_is_right, retries=1)
    check("retries-bounded", len(log) == 2 and not log[-1]["task"]["ok"],
          "%d attempts" % len(log))

    # The seeds' budget: (1 + N) x (wall + grace) + T_queue, what wardc
    # explain says. The client used to drop T_queue (and grace): for the
    # seeds' example, a policy of 30 s and no grace with 3 retries and 12 s
    # of queue, it said 120 s where explain says 132 s.
    seed = os.path.join(tmp, "seed.ward")
    with open(seed, "w") as f:
        f.write("ward 1;\npolicy seed;\nlimits { wall 30s; }\n"
                "syscalls default errno ENOSYS { }\n")
    seed_blob = os.path.join(tmp, "seed.wardb")
    ward.compile(seed, seed_blob)
    explained_limits = json.loads(subprocess.run(
        [ward.wardc, "explain", "--format", "json", blob], check=True,
        capture_output=True).stdout)["limits"]
    run_s = (explained_limits["wall_ms"] +
             explained_limits.get("grace_ms", 0)) / 1000
    for b_path, retries, queue, want in (
            (seed_blob, 3, "12s", 132.0), (seed_blob, 1, "500ms", 60.5),
            (blob, 3, "12s", 4 * run_s + 12), (blob, 0, "2m", run_s + 120)):
        b = ward.budget(b_path, retries, queue)
        explained = json.loads(subprocess.run(
            [ward.wardc, "explain", "--format", "json", "--retries",
             str(retries), "--queue", queue, b_path], check=True,
            capture_output=True).stdout)["budget"]
        check("budget/%s-%d-%s" % (os.path.basename(b_path)[:-6], retries,
                                   queue),
              b.worst_s == want == explained["worst_ms"] / 1000 and
              wc.Budget.of(retries, b.queue_s, b.run_s) == b,
              "%r, explain %r, want %r" % (b, explained, want))

    # Streaming: stdout and stderr as the program writes them, not at the
    # end (a second line two seconds after the first).
    slow = (b"import sys, time\nprint('first', flush=True)\n"
            b"print('oops', file=sys.stderr, flush=True)\n"
            b"time.sleep(2)\nprint('second', flush=True)\n")
    t0 = time.monotonic()
    seen = []
    with ward.start(blob, digest, {"main.py": slow}, argv) as run_:
        for chunk in run_:
            seen.append((time.monotonic() - t0, chunk.stream, chunk.data))
        streamed = run_.result()
    first = [t for t, s_, d in seen if s_ == "stdout" and b"first" in d]
    second = [t for t, s_, d in seen if s_ == "stdout" and b"second" in d]
    err_seen = [t for t, s_, d in seen if s_ == "stderr" and b"oops" in d]
    check("streaming", first and second and err_seen and
          second[0] - first[0] > 1.5 and err_seen[0] < second[0] and
          streamed.stdout == b"first\nsecond\n" and b"oops" in streamed.stderr
          and streamed.reason == "exited",
          "chunks %r, run %r" % ([(round(t, 2), s_, d[:20]) for t, s_, d in seen],
                                 streamed.reason))
    got = []
    ward.run(blob, digest, {"main.py": slow}, argv, on_output=got.append)
    check("streaming-callback",
          b"".join(c.data for c in got if c.stream == "stdout") ==
          b"first\nsecond\n", repr(got[:4]))

    tampered = os.path.join(tmp, "tampered.wardb")
    data = bytearray(open(blob, "rb").read())
    data[-1] ^= 1
    open(tampered, "wb").write(data)
    bad = ward.run(tampered, digest, files(ex.RIGHT), argv)
    check("digest-mismatch-refused", bad.exit_code == wc.WARD_REFUSED and
          b"digest" in bad.stderr.lower(), bad.stderr[:200])

# The documented invocation, as a user types it: `python3
# examples/ward_client.py --self-test --profile python`, a profile given by
# name. From the tree with no ward on PATH (the client takes the tree's
# build), and with the build on PATH from elsewhere; both must find the
# tree's stdlib, as wardc does, and pin the digest of what they compiled.
profile = os.path.realpath(os.path.join(top, "stdlib-policies/python.ward"))
with tempfile.TemporaryDirectory(prefix="ward-agents-") as tmp:
    blob = os.path.join(tmp, "python.wardb")
    want_digest = ward.compile(profile, blob)
    clean = "/usr/bin:/bin"
    env = {k: v for k, v in os.environ.items() if k != "WARD_PATH"}

    def self_test(name, argv, path, cwd, want_profile=profile, extra_env=None):
        e = dict(env, PATH=path, **(extra_env or {}))
        proc, out, attempts = run_self_test(["python3", *argv], cwd, e)
        check(name, proc.returncode == 0 and
              out.get("profile") == want_profile and
              out.get("profile_digest") == want_digest and
              len(attempts) == 3 and attempts[-1].get("task", {}).get("ok"),
              "exit %d profile %r digest %r stderr %r" % (
                  proc.returncode, out.get("profile"),
                  out.get("profile_digest"), proc.stderr[-300:]))

    if shutil.which("wardc", path=clean) or shutil.which("ward", path=clean):
        check("documented/from-tree", False,
              "a wardc or ward in %s would be used instead of the tree's" % clean)
    else:
        self_test("documented/from-tree",
                  ["examples/ward_client.py", "--self-test", "--profile", "python"],
                  clean, top)
        self_test("documented/from-tree-default-profile",
                  ["examples/ward_client.py", "--self-test"], clean, top)
        # from elsewhere, the tree's build still, and the file's name
        self_test("documented/tree-from-elsewhere-profile-dot-ward",
                  [os.path.join(top, "examples/ward_client.py"), "--self-test",
                   "--profile", "python.ward"], clean, tmp)
    client = os.path.join(top, "examples/ward_client.py")
    self_test("documented/build-on-path",
              [client, "--self-test", "--profile", "python"],
              os.path.join(top, build) + ":" + clean, tmp)
    # -I and $WARD_PATH come before the stdlib, as for wardc's `use`.
    mine = os.path.join(tmp, "mine")
    os.mkdir(mine)
    shutil.copy(profile, os.path.join(mine, "python.ward"))
    self_test("documented/ward-path-first",
              [client, "--self-test", "--profile", "python"],
              os.path.join(top, build) + ":" + clean, tmp,
              want_profile=os.path.join(mine, "python.ward"),
              extra_env={"WARD_PATH": mine})
    # A name on no directory of the search path: the directories searched,
    # no traceback, usage status 2.
    proc = subprocess.run(["python3", client, "--self-test", "--profile", "nosuch"],
                          cwd=tmp, env=dict(env, PATH=os.path.join(top, build) + ":" + clean),
                          capture_output=True, timeout=60)
    err = proc.stderr.decode(errors="replace")
    check("documented/profile-not-found", proc.returncode == 2 and
          "cannot find `nosuch.ward`" in err and
          os.path.dirname(profile) in err and "Traceback" not in err,
          "exit %d: %r" % (proc.returncode, err[-300:]))

# The package, installed: pip from the tree into a fresh virtual
# environment, with no index (the build backend is the tree's own), then
# the documented invocation through its console script and through -m,
# with the build on PATH.
with tempfile.TemporaryDirectory(prefix="ward-agents-venv-") as tmp:
    python_blob = os.path.join(tmp, "python.wardb")
    ward.compile(profile, python_blob)
    python_budget = ward.budget(python_blob, 3, "12s").worst_s
    venv = os.path.join(tmp, "venv")
    path = os.path.join(top, build) + ":/usr/bin:/bin"
    env = {k: v for k, v in os.environ.items() if k != "WARD_PATH"}
    env["PATH"] = path
    made = subprocess.run([sys.executable, "-m", "venv", venv],
                          capture_output=True)
    pip = subprocess.run([os.path.join(venv, "bin", "pip"), "install",
                          "--no-index", "--quiet",
                          os.path.join(top, "examples", "python")],
                         cwd=tmp, env=env, capture_output=True, timeout=300)
    check("pip-install", made.returncode == 0 and pip.returncode == 0 and
          os.path.exists(os.path.join(venv, "bin", "ward-client")),
          (made.stderr + pip.stderr)[-400:])
    for name, cmd in (("installed/console-script",
                       [os.path.join(venv, "bin", "ward-client")]),
                      ("installed/module",
                       [os.path.join(venv, "bin", "python"), "-m",
                        "ward_client"])):
        proc, out, attempts = run_self_test(
            cmd + ["--self-test", "--profile", "python"], tmp, env)
        check(name, proc.returncode == 0 and
              out.get("profile") == profile and
              out.get("budget_s") == python_budget and
              len(attempts) == 3 and attempts[-1]["task"]["ok"],
              "exit %d %r %r" % (proc.returncode, out.get("budget_s"),
                                 proc.stderr[-300:]))
    # installed, it is not the tree's: it finds the programs on PATH only
    where = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                            "import ward_client as w; print(w.source_tree(),"
                            " w.__file__)"], env=env, capture_output=True)
    check("installed/not-the-tree", where.stdout.startswith(b"None " + venv.encode()),
          where.stdout + where.stderr)

# typed: mypy --strict over the package, when mypy is installed
mypy = shutil.which("mypy")
if mypy:
    proc = subprocess.run([mypy, "--strict", "--no-incremental",
                           os.path.join(top, "examples", "python", "ward_client")],
                          capture_output=True)
    check("typed-mypy-strict", proc.returncode == 0,
          (proc.stdout + proc.stderr)[-400:])
else:
    print("SKIP agents/typed: mypy is not installed (make deps)")

sys.exit(1 if failed else 0)
