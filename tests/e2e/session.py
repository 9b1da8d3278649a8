# SPDX-License-Identifier: MIT
"""tests/e2e/session.py MODE WARD BLOB SLOTDIR: sessions (docs/spec.md part
7) through the Python client, from outside: state across cells, a cell's
wall that keeps the session, per-cell denials, hostile frames, a burst,
an ignored interrupt, the memory limit (root: oom), and nothing left.
One line per test: PASS name, FAIL name: why, SKIP name: why. Run from
tests/e2e/session.sh (which runs it as root and as uid 65534)."""

import json
import os
import socket
import stat
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../examples/python"))
from ward_client.session import Session, frame, read_frame  # noqa: E402

MODE, WARD, BLOB, SLOTS = sys.argv[1:5]
OOM = len(sys.argv) > 5 and sys.argv[5] == "oom"
RUN_ARGS = ["--slot", "input=%s/in" % SLOTS, "--slot", "output=%s/out" % SLOTS]
EXPORT = "%s/export-%s" % (SLOTS, MODE)
failures = 0


def check(name, ok, why=""):
    global failures
    if ok:
        print("PASS %s/%s" % (MODE, name))
    else:
        failures += 1
        print("FAIL %s/%s: %s" % (MODE, name, str(why)[:600]))
    sys.stdout.flush()


def start():
    return Session.start(BLOB, run_args=RUN_ARGS, ward=WARD)


def ours_by_ancestry(pid):
    """Is the driver pid ours: an ancestor (the ward that runs it) names
    BLOB, or it is an orphan that no ward runs any more (a leak, whoever
    made it)? A driver of another session on the machine is not."""
    for _ in range(32):
        try:
            with open("/proc/%s/stat" % pid) as f:
                pid = f.read().rsplit(")", 1)[1].split()[1]
            if pid in ("0", "1"):
                return True
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read()
            if BLOB.encode() in cmd:
                return True
            if cmd.split(b"\0")[0].endswith(b"ward"):
                return False
        except OSError:
            return True
    return True


def processes_of_blob(wait=3.0):
    """Processes whose command line names this test's blob (P, W, S, the
    janitor) or is the driver's, after at most wait seconds."""
    end = time.monotonic() + wait
    while True:
        found = []
        for pid in os.listdir("/proc"):
            if pid.isdigit() and int(pid) != os.getpid():
                try:
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        cmd = f.read()
                    # (not this test's own ancestors, whose command
                    # lines name the blob too)
                    # (a driver is ours when one of its ancestors names
                    # our blob: other sessions may run on the machine; a
                    # ward whose command line carries the driver is
                    # judged by the blob alone)
                    if (BLOB.encode() in cmd and b"session.py" not in cmd) or \
                            (b"ward's Python session driver" in cmd and
                             not cmd.split(b"\0")[0].endswith(b"ward") and
                             ours_by_ancestry(pid)):
                        found.append("pid %s %r" % (pid, cmd[:80]))
                except OSError:
                    pass
        if not found or time.monotonic() > end:
            return found
        time.sleep(0.1)


def nothing_left(name, s, rep):
    """The session's directory, socket and processes, its cgroup (by run
    id) and the run's own cleanup record."""
    run = rep.get("run") or {}
    d = os.path.dirname(s.path)
    leftovers = []
    if os.path.exists(d):
        leftovers.append(d)
    rid = run.get("run_id") or ""
    for root, dirs, _ in os.walk("/sys/fs/cgroup"):
        for x in dirs:
            if rid and rid in x:
                leftovers.append(os.path.join(root, x))
        if root.count("/") > 6:
            dirs[:] = []
    leftovers += processes_of_blob()
    # root mode: the sandbox's host uid is its own; no process has it now
    hu = (run.get("identity") or {}).get("host_uid")
    if MODE == "root" and hu is not None:
        for pid in os.listdir("/proc"):
            try:
                if pid.isdigit() and os.stat("/proc/" + pid).st_uid == hu:
                    leftovers.append("pid %s of uid %d" % (pid, hu))
            except OSError:
                pass
    cl = run.get("cleanup") or {}
    check(name, rid and not leftovers and cl.get("processes_left") == 0,
          "left %s cleanup %s run_id %r" % (leftovers, cl, rid))


def cells():
    s = Session.start(BLOB, run_args=RUN_ARGS + ["--export-dir", EXPORT], ward=WARD)
    st = os.stat(s.path)
    dst = os.stat(os.path.dirname(s.path))
    check("socket-0600-in-callers-dir",
          stat.S_IMODE(st.st_mode) == 0o600 and st.st_uid == os.getuid() and
          stat.S_IMODE(dst.st_mode) == 0o700 and dst.st_uid == os.getuid(),
          "%o %o" % (st.st_mode, dst.st_mode))
    e1 = s.run("x = 41")
    e2 = s.run("x += 1; print(x)")
    check("state-survives", e1.status == "ok" and e2.stdout == b"42\n" and
          e2.raw["stdout"]["sha256"].startswith("084c799c"), e2.raw)
    t0 = time.monotonic()
    e3 = s.run("while True: pass", timeout=2)
    el = time.monotonic() - t0
    check("cell-wall-interrupts", e3.status == "interrupted" and
          e3.reason == "wall" and 1.9 <= el < 3.5 and
          e3.error is None, "%s %.2fs" % (e3.raw, el))
    e4 = s.run("print(x)")
    check("variables-survive-interrupt", e4.stdout == b"42\n", e4.raw)
    e5 = s.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone")
    if e5.status == "error" and e5.error["name"] == "ModuleNotFoundError":
        print("SKIP %s/figure-png: no matplotlib" % MODE)
        e5 = None
    e6 = s.run('import os; os.system("mount -t tmpfs x /mnt")')
    e7 = s.run("raise ValueError('no')")
    check("error-with-traceback", e7.status == "error" and
          e7.error["name"] == "ValueError" and e7.error["message"] == "no" and
          "<cell 7>" in e7.error["traceback"], e7.raw)
    e8 = s.run("print('y' * 5000)", max_output=100)
    check("per-cell-output-cap", len(e8.stdout) == 100 and
          e8.raw["stdout"]["bytes"] == 5001 and e8.raw["stdout"]["truncated"],
          e8.raw)
    streamed = []
    e9 = s.run("import sys, time\nfor i in range(3):\n print(i, flush=True); time.sleep(0.2)",
               on_stdout=lambda b: streamed.append((time.monotonic(), b)))
    check("stdout-streams", len(streamed) >= 2 and
          streamed[-1][0] - streamed[0][0] > 0.2 and e9.stdout == b"0\n1\n2\n",
          streamed)
    esc = s.run("print('\\x1b]0;owned\\x07\\u202e')")
    check("text-mode-escapes-cell-output", b"\x1b" not in esc.stdout and
          b"\x07" not in esc.stdout and b"\\x1b" in esc.stdout and
          esc.raw["stdout"]["mode"] == "text" and esc.raw["stdout"]["escaped"] == 5,
          esc.raw)
    esc = s.run("raise ValueError('\\x1b[2J')")
    check("text-mode-escapes-error", "\x1b" not in esc.error["message"] and
          "\\x1b[2J" == esc.error["message"] and "\x1b" not in esc.error["traceback"],
          esc.raw)
    hostile(s)
    burst(s)
    garbage(s)
    e = s.run("print(x)")
    check("serves-after-abuse", e.stdout == b"42\n", e.raw)
    rep = s.stop()
    mounts = {c: [d for d in s.cell_denials(c) if d["syscall"] == "mount"]
              for c in range(1, 10)}
    check("denials-in-their-cell",
          len(mounts[6]) == 1 and not any(mounts[c] for c in mounts if c != 6) and
          e6.stderr.startswith(b"mount:"), mounts)
    check("stop-reason", rep["session"]["reason"] == "stop", rep["session"])
    if e5 is not None:
        ex = [x for x in (rep.get("run") or {}).get("export") or []]
        pngs = [en for x in ex for en in x.get("entries", [])
                if en.get("type") == "png" and en.get("verdict") == "exported"]
        check("figure-png-in-manifest", e5.raw.get("figures") == ["cell-5-figure-1.png"] and
              [p["path"] for p in pngs] == ["cell-5-figure-1.png"] and
              os.path.exists(os.path.join(EXPORT, "cell-5-figure-1.png")),
              "%s %s" % (e5.raw, ex))
    nothing_left("stop-leaves-nothing", s, rep)


def denials_live():
    """Each cell's reply has its own refusals, while the session runs: a
    mount refused in cell 1 and again in cell 3 is in both, count 1 each,
    and not in cell 2 between them; and its own file changes: a file cell
    4 writes in /output is in cell 4's and not in cell 5's."""
    s = start()
    mnt = 'import os; os.system("mount -t tmpfs x /mnt")'
    es = [s.run(mnt), s.run("y = 1"), s.run(mnt)]
    m = [[d for d in e.denials if d["syscall"] == "mount"] for e in es]
    check("denials-in-each-cells-reply",
          [[d["count"] for d in x] for x in m] == [[1], [], [1]] and
          all(e.raw["denials"]["lost"] == 0 for e in es),
          [e.raw.get("denials") for e in es])
    name = "cellfile-%s-%d.txt" % (MODE, os.getpid())  # an export rule's name
    w = s.run("open('/output/%s', 'w').write('hi')" % name)
    n = s.run("y = 2")

    def paths(e, what):
        return [x["path"] for sl in (e.raw.get("files") or [])
                if sl["slot"] == "output" for x in sl[what]]
    check("files-in-the-writing-cell-only",
          paths(w, "added") == [name] and not paths(n, "added") and
          not paths(n, "changed") and not paths(es[1], "added"),
          "%s %s" % (w.raw.get("files"), n.raw.get("files")))
    rep = s.stop()
    check("denials-in-session-report-per-cell",
          [[d["count"] for d in s.cell_denials(c) if d["syscall"] == "mount"]
           for c in (1, 2, 3)] == [[1], [], [1]], rep.get("session"))


def raw_conn(s):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(s.path)
    c.settimeout(10)
    return c


def hostile(s):
    # 64 MiB of request: refused at its header, never read.
    c = raw_conn(s)
    c.sendall(struct.pack(">I", 64 << 20) + b"\x01" + b"\0" * 65536)
    m = read_frame(c)
    check("64mib-request-refused", m and m.get("code") == "frame_too_large", m)
    c.close()
    c = raw_conn(s)
    c.sendall(struct.pack(">I", 0xFFFFFFFF) + b"xyz")
    m = read_frame(c)
    check("forged-length-refused", m and m.get("code") == "frame_too_large", m)
    c.close()
    c = raw_conn(s)
    c.sendall(frame(b"\x09junk") + frame(b"\x01ab") + frame(bytes([4])))
    ms = [read_frame(c), read_frame(c), read_frame(c)]
    check("malformed-requests-answered",
          [m.get("code") or m.get("type") for m in ms] ==
          ["unknown_type", "malformed", "status"], ms)
    c.close()
    # A frame left unfinished is not waited for by anyone else.
    stuck = raw_conn(s)
    stuck.sendall(struct.pack(">I", 1000) + b"\x04")
    e = s.run("print(x)")
    check("partial-frame-does-not-stall", e.stdout == b"42\n", e.raw)
    stuck.close()


def burst(s):
    c = raw_conn(s)
    body = frame(struct.pack(">BII", 1, 0, 0) + b"pass")
    c.sendall(body * 10000)
    counts = {}
    for _ in range(10000):
        m = read_frame(c)
        if m is None:
            break
        k = m.get("code") or m["type"]
        if k in ("accepted", "queue_full"):
            counts[k] = counts.get(k, 0) + 1
        if counts.get("accepted", 0) + counts.get("queue_full", 0) == 10000:
            break
    c.close()
    check("burst-10000-bounded-queue",
          counts.get("queue_full", 0) >= 9000 and
          counts.get("accepted", 0) + counts.get("queue_full", 0) == 10000,
          counts)
    st = s.status()
    check("serves-after-burst", st.get("type") == "status", st)
    # the accepted cells run before any other
    for _ in range(100):
        st = s.status()
        if st.get("state") == "idle" and st.get("queued") == 0:
            break
        time.sleep(0.1)


def garbage(s):
    # The cell writes on the driver's own channel (fd 3): lies and noise.
    e = s.run("import os\nfor i in range(1000): os.write(3, b'done 999 ok 1 1 - - - -\\n')\n"
              "os.write(3, b'\\x00\\xff garbage\\n' * 100)")
    check("driver-garbage-ignored", e.status == "ok", e.raw)


def ignored_interrupt():
    s = start()
    s.run("x = 1")
    t0 = time.monotonic()
    e = s.run("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
              "while True: pass", timeout=1)
    el = time.monotonic() - t0
    rep = s.stop()
    check("interrupt-ignored-ends-session", e.status == "session_ended" and
          e.reason == "interrupt_ignored" and 2.5 < el < 6 and
          rep["session"]["reason"] == "interrupt_ignored",
          "%s %.1fs %s" % (e.raw, el, rep.get("session")))
    nothing_left("interrupt-ignored-leaves-nothing", s, rep)


def oom():
    s = start()
    s.run("x = 41")
    e = s.run("b = b'x' * (700 << 20)")
    rep = s.stop()
    check("memory-limit-ends-session-oom", e.status == "session_ended" and
          e.reason == "oom_killed" and rep["session"]["reason"] == "oom_killed" and
          (rep.get("run") or {}).get("reason") == "oom_killed",
          "%s %s" % (e.raw, rep.get("session")))
    nothing_left("oom-leaves-nothing", s, rep)


def shell():
    with open(os.path.join(os.path.dirname(__file__),
                           "../../launcher/session/python_driver.py")) as f:
        src = f.read()
    s = Session.start(BLOB, run_args=RUN_ARGS, ward=WARD,
                      driver=["python3", "-c", src, "--shell"])
    s.run("cd /tmp; export Y=7")
    e2 = s.run('echo "$Y"; pwd')
    t0 = time.monotonic()
    e3 = s.run("sleep 100", timeout=1)
    el = time.monotonic() - t0
    e4 = s.run('echo "$Y"; pwd; exit 3')
    rep = s.stop()
    check("shell-cwd-and-env-persist", e2.stdout == b"7\n/tmp\n" and
          e4.stdout == b"7\n/tmp\n" and e4.status == "error" and
          e4.result == "3", "%s %s" % (e2.raw, e4.raw))
    check("shell-cell-wall-interrupts", e3.status == "interrupted" and
          e3.reason == "wall" and el < 3.5, "%s %.1fs" % (e3.raw, el))
    nothing_left("shell-leaves-nothing", s, rep)


def limits():
    """Idle timeout, the connection ceiling, and a cell that floods its
    output past the policy's stdout cap (the session ends output_limit)."""
    s = start()
    conns = [raw_conn(s) for _ in range(8)]
    extra = raw_conn(s)
    m = read_frame(extra)
    check("ninth-connection-refused", m and m.get("code") == "too_many_connections", m)
    for c in conns + [extra]:
        c.close()
    # the server sees the closes when it next runs: until then a caller
    # may still find every place taken
    for _ in range(50):
        if s.status().get("type") == "status":
            break
        time.sleep(0.1)
    e = s.run("import sys\nfor i in range(100): sys.stdout.write('y' * 100000)",
              max_output=1000)
    rep = s.stop()
    check("output-flood-ends-session", e.status == "session_ended" and
          e.reason == "output_limit" and len(e.stdout) <= 1000 and
          rep["session"]["reason"] == "output_limit", "%s %s" % (e.raw, rep.get("session")))
    nothing_left("output-flood-leaves-nothing", s, rep)
    s = Session.start(BLOB, run_args=RUN_ARGS, ward=WARD, idle="1s")
    s.run("x = 1")
    t0 = time.monotonic()
    out, _ = s.proc.communicate(timeout=20)
    el = time.monotonic() - t0
    s.report = json.loads(out.decode().splitlines()[-1])
    check("idle-ends-session", s.report["session"]["reason"] == "idle" and 0.8 < el < 4,
          "%s %.1fs" % (s.report.get("session"), el))
    nothing_left("idle-leaves-nothing", s, s.report)


def socket_option():
    """--socket PATH: in a directory of the caller's only; elsewhere
    refused before anything starts."""
    import subprocess
    import tempfile
    r = subprocess.run([WARD, "session", "start", "--socket", "/tmp/ward-session-test.sock"] +
                       RUN_ARGS + [BLOB, "--", "true"], capture_output=True, timeout=20)
    check("socket-option-refused-in-shared-dir", r.returncode == 125 and
          b"must be yours and not writable by group or others" in r.stderr and
          not os.path.exists("/tmp/ward-session-test.sock"), r)
    d = tempfile.mkdtemp(prefix="ward-session-test-sock.")
    path = os.path.join(d, "s")
    with open(os.path.join(os.path.dirname(__file__),
                           "../../launcher/session/python_driver.py")) as f:
        src = f.read()
    p = subprocess.Popen([WARD, "session", "start", "--socket", path] + RUN_ARGS +
                         [BLOB, "--", "python3", "-c", src], stdout=subprocess.PIPE)
    line = p.stdout.readline().decode().strip()
    s = Session(p, path)
    st = s.status()
    rep = s.stop()
    check("socket-option-used-and-removed", line == "socket " + path and
          st.get("type") == "status" and rep["session"]["reason"] == "stop" and
          not os.path.exists(path), "%r %s" % (line, st))
    os.rmdir(d)


def killed(how):
    """The caller gone (SIGKILL to the Python process that started the
    session) or P itself killed: nothing is left."""
    import subprocess
    prog = ("import sys, os, signal; sys.path.insert(0, %r)\n"
            "from ward_client.session import Session\n"
            "s = Session.start(%r, run_args=%r, ward=%r)\n"
            "print(s.path, s.proc.pid, flush=True)\n"
            "s.run('x = 1')\n"
            "os.kill(s.proc.pid if %r == 'p' else os.getpid(), signal.SIGKILL)\n"
            "import time; time.sleep(30)\n") % (
                os.path.join(os.path.dirname(__file__), "../../examples/python"),
                BLOB, RUN_ARGS, WARD, how)
    c = subprocess.Popen([sys.executable, "-c", prog], stdout=subprocess.PIPE)
    path = c.stdout.readline().decode().split()[0]
    if how == "p":
        time.sleep(0.5)
        c.kill()
    c.wait()
    left = processes_of_blob(5.0)
    d = os.path.dirname(path)
    check("%s-killed-leaves-nothing" % ("session" if how == "p" else "caller"),
          not left and not os.path.exists(d), "%s %s" % (left, d))


NET_CELL = '''import socket
try:
    socket.getaddrinfo("forbidden.test", 443, type=socket.SOCK_STREAM)
    print("resolved")
except OSError as e:
    print("dns", type(e).__name__)
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("192.0.2.99", 443))
    print("connected")
except OSError as e:
    print("connect", e.errno)
'''


def net_denials():
    """A refused connect and a refused DNS query are in the reply of the
    cell that made them, with its count, and in no other cell's: under
    agent-net with a name rule (WARD_SESSION_NET, tests/e2e/session.sh),
    a connect to 192.0.2.99:443 (not allowed: the broker refuses it, no
    packet) and a lookup of forbidden.test (not an allowed name: the stub
    answers NXDOMAIN, asks nobody), in cells 2 and 4, cells 1, 3 and 5
    doing nothing. The run report has them too, with the session's
    counts."""
    blob = os.environ.get("WARD_SESSION_NET")
    if not blob:
        print("SKIP %s/net-denials-per-cell: no WARD_SESSION_NET" % MODE)
        return
    try:
        s = Session.start(blob, run_args=RUN_ARGS, ward=WARD)
    except RuntimeError as e:
        print("SKIP %s/net-denials-per-cell: ward refuses the policy: %s" % (MODE, str(e)[:200]))
        return
    es = [s.run(c) for c in ("y = 1", NET_CELL, "y = 2", NET_CELL, "y = 3")]
    rep = s.stop()

    def conn(e):
        return [d["count"] for d in (e.raw.get("denials") or {}).get("network") or []
                if d["call"] == "connect" and d["address"] == "192.0.2.99" and
                d["port"] == 443 and d["errno"] == "EPERM"]

    def dns(e):
        return sorted((d["type"], d["count"]) for d in (e.raw.get("denials") or {}).get("dns") or []
                      if d["name"] == "forbidden.test" and d["verdict"] == "refused")
    quiet = [es[i] for i in (0, 2, 4)]
    check("net-denials-per-cell",
          all(e.stdout == b"dns gaierror\nconnect 1\n" for e in (es[1], es[3])) and
          conn(es[1]) == [1] and conn(es[3]) == [1] and
          dns(es[1]) == dns(es[3]) and ("A", 1) in dns(es[1]) and
          all(not (e.raw.get("denials") or {}).get("network") and
              not (e.raw.get("denials") or {}).get("dns") for e in quiet),
          [(e.stdout, e.raw.get("denials")) for e in es])
    run = rep.get("run") or {}
    check("net-denials-in-run-report",
          [d["count"] for d in (run.get("denials") or {}).get("network") or []
           if d.get("call") == "connect" and d.get("address") == "192.0.2.99"] == [2],
          (run.get("denials") or {}).get("network"))


def status_of(pid):
    with open("/proc/%d/status" % pid) as f:
        return dict(l.rstrip("\n").split(":\t", 1) for l in f if ":\t" in l)


def server_filter():
    """S (the session server, docs/spec.md 7.1) runs under a seccomp filter
    of its own, with no_new_privs (and, in root mode, as 65534): S is the
    child of P that holds the listening socket; the janitor, P's other fork,
    has no filter (the control: the observation tells them apart).
    tests/unit/test_session_filter.c shows the filter refuses from S's
    position what S never needs (open by name, socket, exec, fork, kill,
    ptrace)."""
    s = start()
    try:
        inode = None
        with open("/proc/net/unix") as f:
            for l in f:
                fields = l.split()
                if len(fields) >= 8 and fields[7] == s.path:
                    inode = fields[6]
        kids = []
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open("/proc/%s/stat" % d) as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == s.proc.pid:
                            kids.append(int(d))
                except OSError:
                    pass
        srv, others = None, []
        for k in kids:
            try:
                fds = [os.readlink("/proc/%d/fd/%s" % (k, fd)) for fd in os.listdir("/proc/%d/fd" % k)]
                with open("/proc/%d/cmdline" % k, "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if b"--session-events" in cmd:
                continue  # W, the run
            if "socket:[%s]" % inode in fds:
                srv = k
            else:
                others.append(k)
        st = status_of(srv) if srv else {}
        check("server-has-own-seccomp-filter",
              st.get("Seccomp") == "2" and int(st.get("Seccomp_filters", "0")) >= 1 and
              st.get("NoNewPrivs") == "1" and
              (MODE != "root" or st.get("Uid", "").split()[:1] == ["65534"]),
              "S %s: %s" % (srv, {k: st.get(k) for k in ("Seccomp", "Seccomp_filters", "NoNewPrivs", "Uid")}))
        ctl = [status_of(k).get("Seccomp") for k in others]
        check("server-filter-control-janitor-has-none", "0" in ctl, "P's other children: %s %s" % (others, ctl))
        e = s.run("x = 1")
        check("server-serves-under-its-filter", e.status == "ok", e.raw)
    finally:
        s.stop()


cells()
denials_live()
net_denials()
server_filter()
socket_option()
limits()
killed("caller")
killed("p")
shell()
ignored_interrupt()
if OOM:
    oom()
else:
    print("SKIP %s/memory-limit-ends-session-oom: no memory limit without "
          "cgroup delegation" % MODE)
sys.exit(1 if failures else 0)
