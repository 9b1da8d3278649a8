#!/bin/sh
# tests/bench/bench_session.sh BUILD_DIR: the round trip of a trivial cell
# (`x += 1`) in a warm session of the stdlib python profile against a
# fresh `ward` run of the same code under the same blob, interleaved (one
# of each per round, so both see the same machine). Prints the medians
# and their ratio. Goal (issue 23): a warm cell at least 10x faster.
# Needs root (the profile's cgroup limits). RUNS=30 default: the python
# profile's wall (30 s) is the session's lifetime.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
RUNS=${RUNS:-30}
[ -x "$BUILD/ward" ] || { echo "bench_session: no $BUILD/ward (make first)"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench_session: needs root"; exit 1; }
T=$(mktemp -d /tmp/ward-bench-session.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/in" "$T/out"
chmod 755 "$T"
chmod 777 "$T/out"
"$BUILD/wardc" compile "$top/stdlib-policies/python.ward" -o "$T/py.wardb" || exit 1
TOP=$top timeout -k 5 60 /usr/bin/python3 - "$BUILD/ward" "$T" "$RUNS" <<'PY'
import os, statistics, subprocess, sys, time
sys.path.insert(0, os.path.join(os.environ.get("TOP", "."), "examples/python"))
from ward_client import Session
ward, t, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = ["--slot", "input=%s/in" % t, "--slot", "output=%s/out" % t]
fresh, warm = [], []
with Session.start(t + "/py.wardb", run_args=args, ward=ward) as s:
    s.run("x = 0")
    for _ in range(runs):
        t0 = time.monotonic()
        subprocess.run([ward] + args + [t + "/py.wardb", "--", "/usr/bin/python3",
                       "-c", "x = 0\nx += 1"], check=True)
        fresh.append(time.monotonic() - t0)
        t0 = time.monotonic()
        e = s.run("x += 1")
        warm.append(time.monotonic() - t0)
        assert e.status == "ok", e.raw
    assert s.run("x").result == repr(runs)
f, w = statistics.median(fresh) * 1e3, statistics.median(warm) * 1e3
print("   fresh run of `x += 1`:  median %7.2f ms  (%d runs)" % (f, runs))
print("   warm cell `x += 1`:     median %7.2f ms  (%d cells)" % (w, runs))
print("   warm cell is %.0fx faster (goal: >= 10x)" % (f / w))
PY
