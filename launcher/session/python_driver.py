# SPDX-License-Identifier: MIT
# ward's Python session driver (docs/spec.md 7.5): standard library only.
#
# Runs in the sandbox as the run's program. Reads `exec CELL B64` and
# `interrupt CELL` lines on stdin; runs each cell in one namespace (state
# survives between cells); sends what fds 1 and 2 receive during the cell
# (subprocesses included) as `out`/`err` chunks and the cell's end as
# `done`, on a copy of the original stdout. An interrupt raises
# KeyboardInterrupt in the main thread (SIGINT through pthread_kill).
# Nothing here is trusted by ward: the server checks every line.
# With --shell (python3 -c SOURCE --shell) a cell is a shell command: its
# working directory and environment persist from cell to cell.
import ast
import base64
import os
import resource
import select
import signal
import sys
import threading
import traceback

PROTO = os.fdopen(os.dup(1), "wb", buffering=0)
# Every matplotlib figure a cell leaves open becomes a PNG in the output
# slot (exported, if the policy's export rules let it, with the run's
# manifest). No display in a sandbox: matplotlib falls back to Agg by
# itself, and the environment stays the policy's.
FIGURES = os.environ.get("WARD_FIGURES_DIR", "/output")
LOCK = threading.Lock()
STATE = {"cell": 0}
MAIN = threading.get_ident()
CMDS = []
CMD_READY = threading.Condition()


def b64(data):
    if isinstance(data, str):
        data = data.encode("utf-8", "backslashreplace")
    return base64.b64encode(data).decode("ascii") if data else "-"


def send(line):
    PROTO.write(line.encode("ascii") + b"\n")


def fionread(fd):
    import fcntl
    import struct
    import termios

    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


# fds 1 and 2 become pipes this driver reads: what a cell prints, even a
# subprocess, reaches the caller as chunks of that cell.
pipes = []
for fd in (1, 2):
    r, w = os.pipe()
    os.dup2(w, fd)
    os.close(w)
    pipes.append(r)
sys.stdout = open(1, "w", buffering=1, closefd=False)
sys.stderr = open(2, "w", buffering=1, closefd=False)


def pump():
    kinds = {pipes[0]: "out", pipes[1]: "err"}
    while True:
        ready, _, _ = select.select(pipes, [], [])
        for fd in ready:
            with LOCK:
                data = os.read(fd, 32768)
                if data:
                    send("%s %d %s" % (kinds[fd], STATE["cell"], b64(data)))


def control():
    for raw in sys.stdin.buffer:
        words = raw.decode("ascii", "replace").split()
        with CMD_READY:
            if len(words) == 3 and words[0] == "exec":
                code = b"" if words[2] == "-" else base64.b64decode(words[2])
                CMDS.append((int(words[1]), code.decode("utf-8", "replace")))
                CMD_READY.notify()
            elif len(words) == 2 and words[0] == "interrupt":
                if int(words[1]) == STATE["cell"] and STATE.get("running"):
                    signal.pthread_kill(MAIN, signal.SIGINT)
    with CMD_READY:
        CMDS.append(None)
        CMD_READY.notify()


def usage():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime), max(
        s.ru_maxrss, c.ru_maxrss
    )


def run_cell(code, ns, cell):
    """(status, result repr, exception name, message, traceback)"""
    try:
        tree = ast.parse(code, "<cell %d>" % cell, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, "<cell %d>" % cell, "exec"), ns)
        value = None
        if last is not None:
            value = eval(compile(last, "<cell %d>" % cell, "eval"), ns)
        return "ok", (None if value is None else repr(value)), "", "", ""
    except KeyboardInterrupt as e:
        return "interrupted", None, "KeyboardInterrupt", str(e), cell_tb(e)
    except BaseException as e:  # SystemExit too: the session goes on
        return "error", None, type(e).__name__, str(e), cell_tb(e)


def cell_tb(e):
    """The traceback from the cell's own frames (not the driver's)."""
    return "".join(traceback.format_exception(type(e), e, e.__traceback__.tb_next))


def run_shell_cell(code, state, cell):
    """A cell of the shell driver (--shell): one /bin/sh per cell, in its
    own session; its working directory and environment carried to the
    next cell. An interrupt is SIGINT to the cell's process group, then
    SIGKILL after a second."""
    import subprocess

    r, w = os.pipe()
    # The cell's commands do not get the driver's descriptor (closed for
    # the group, which is not a subshell: cd and exports stay).
    script = "{\n%s\n} %d>&-\n__ward_rc=$?\n{ pwd; env -0; } >&%d\nexit $__ward_rc\n" % (
        code, w, w)
    out = []
    try:
        p = subprocess.Popen(["/bin/sh", "-c", script], cwd=state["cwd"],
                             env=state["env"], stdin=subprocess.DEVNULL,
                             pass_fds=(w,), start_new_session=True)
    finally:
        os.close(w)
    reader = threading.Thread(target=lambda: out.append(os.fdopen(r, "rb").read()))
    reader.start()
    try:
        rc = p.wait()
    except KeyboardInterrupt:
        os.killpg(p.pid, signal.SIGINT)
        try:
            p.wait(1)
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        reader.join()
        return "interrupted", None, "KeyboardInterrupt", "", ""
    reader.join()
    cwd, _, env = (out[0] if out else b"").partition(b"\n")
    if cwd:
        state["cwd"] = cwd.decode("utf-8", "surrogateescape")
        state["env"] = dict(
            kv.decode("utf-8", "surrogateescape").split("=", 1)
            for kv in env.split(b"\0") if b"=" in kv)
        state["env"].pop("__ward_rc", None)
    if rc < 0:  # killed by a signal (an exec'd command): as a shell says
        rc = 128 - rc
    if rc == 0:
        return "ok", "0", "", "", ""
    return "error", str(rc), "ExitStatus", "exit status %d" % rc, ""


def save_figures(cell):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None or not os.access(FIGURES, os.W_OK):
        return
    for k, num in enumerate(plt.get_fignums(), 1):
        name = "cell-%d-figure-%d.png" % (cell, k)
        try:
            plt.figure(num).savefig(os.path.join(FIGURES, name), format="png")
            with LOCK:
                send("figure %d %s" % (cell, b64(name)))
        except Exception as e:  # the cell's figure, the cell's problem
            print("figure %d: %s" % (num, e), file=sys.stderr)
        finally:
            plt.close(num)


def drain():
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        with LOCK:
            if all(fionread(fd) == 0 for fd in pipes):
                return
        select.select(pipes, [], [], 0.001)


def main():
    ns = {"__name__": "__main__", "__builtins__": __builtins__}
    shell = "--shell" in sys.argv[1:]
    state = {"cwd": os.getcwd(), "env": dict(os.environ)}
    threading.Thread(target=pump, daemon=True).start()
    threading.Thread(target=control, daemon=True).start()
    send("ready")
    while True:
        try:
            with CMD_READY:
                while not CMDS:
                    CMD_READY.wait()
                cmd = CMDS.pop(0)
            if cmd is None:
                return
            cell, code = cmd
            cpu0, _ = usage()
            with LOCK:
                STATE["cell"] = cell
                STATE["running"] = True
            if shell:
                status, value, name, msg, tb = run_shell_cell(code, state, cell)
            else:
                status, value, name, msg, tb = run_cell(code, ns, cell)
            STATE["running"] = False
            if not shell:
                save_figures(cell)
            drain()
            cpu1, rss = usage()
            with LOCK:
                send(
                    "done %d %s %d %d %s %s %s %s"
                    % (cell, status, int((cpu1 - cpu0) * 1e6), rss,
                       b64(value or ""), b64(name), b64(msg), b64(tb))
                )
        except KeyboardInterrupt:
            # An interrupt that came after its cell's end: nothing to stop.
            STATE["running"] = False
            continue


main()
