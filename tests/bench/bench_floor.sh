#!/bin/sh
# tests/bench/bench_floor.sh BUILD_DIR: the launch floor (issue 19).
#
# 1. /bin/true under the stdlib shell profile without its cgroup limits
#    (memory, swap, cpu, pids removed; everything else as it is: slots,
#    workspace, mounts, seccomp, the courier), interleaved in one run with
#    `unshare` of the same namespaces (the kernel's floor) and bubblewrap
#    with a seccomp program (given on a descriptor opened anew for every
#    round: each round the same input). Root, then rootless (uid 65534).
#    Prints the medians and the ratios ward/unshare and ward/bwrap.
# 2. Where ward's time goes: the report's per-step timings (timings_us),
#    medians over the same number of runs, root and rootless.
#
# Every command's exit status is checked (launchbench stops at the first
# failure). Needs root. RUNS=100 rounds by default.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
RUNS=${RUNS:-100}
CC=${CC:-cc}
WARD=$BUILD/ward
WARDC=$BUILD/wardc
[ -x "$WARD" ] && [ -x "$WARDC" ] || { echo "bench_floor: no $WARD or $WARDC (make first)"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench_floor: needs root"; exit 1; }
command -v bwrap >/dev/null || { echo "bench_floor: bwrap missing (make deps)"; exit 1; }

T=$(mktemp -d /tmp/ward-bench.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
"$CC" -O2 -o "$T/launchbench" "$top/tests/bench/launchbench.c" || exit 1
# mkblob: the Makefile's (make bench builds it; the test policies that
# need no seccomp filter, or a filter of their own)
cp "$BUILD/attacks/mkblob" "$T/mkblob" || exit 1

# The shell profile less its cgroup limits.
grep -v -E '^[[:space:]]*(memory|swap|cpu|pids) ' "$top/stdlib-policies/shell.ward" |
	sed 's/^policy shell;/policy shell_nocg;/' >"$T/shell_nocg.ward"
"$WARDC" compile -I "$top/stdlib-policies" "$T/shell_nocg.ward" -o "$T/shell.wardb" || exit 1
mkdir "$T/in"
chmod 755 "$T/in"
chmod 644 "$T/shell.wardb"
DENY=mount,umount2,pivot_root,chroot,unshare,setns,keyctl,add_key,request_key,bpf,ptrace
"$T/mkblob" "$T/deny.wardb" "seccomp:errno=1:$DENY" "bpf-out=$T/deny.bpf" || exit 1
chmod 644 "$T/deny.bpf"
BWRAP="bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind /usr /usr --symlink usr/lib64 /lib64 --symlink usr/lib /lib --symlink usr/bin /bin --ro-bind /etc /etc --proc /proc --dev /dev --tmpfs /tmp --tmpfs /work --ro-bind $T/in /input --tmpfs /output --seccomp @BPF /bin/true"
UNSHARE_ROOT="unshare --user --map-root-user --mount --pid --net --ipc --uts --cgroup --fork /bin/true"

echo "bench_floor: $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in root rootless; do
	uid=-1
	[ $mode = rootless ] && uid=65534
	echo
	echo "-- $mode: /bin/true, shell profile without cgroup limits, $RUNS interleaved rounds"
	"$T/launchbench" "$RUNS" "$uid" "$T/deny.bpf" \
		"ward $WARD --slot input=$T/in $T/shell.wardb -- /bin/true" \
		"unshare $UNSHARE_ROOT" \
		"bwrap $BWRAP" | tee "$T/$mode.txt"
	awk -v m=$mode '$1 == "ward" { w = $2 } $1 == "unshare" { u = $2 } $1 == "bwrap" { b = $2 }
		END { if (w && u && b) printf "%s: ward/unshare = %.2f (target <= 1.10), ward/bwrap = %.2f\n", m, w / u, w / b }' "$T/$mode.txt"
done

# Where the time goes: each step's median, from the reports.
for mode in root rootless; do
	echo
	echo "-- $mode: ward's steps (median us of $RUNS runs, timings_us)"
	mkdir -p "$T/rep-$mode"
	chmod 777 "$T/rep-$mode"
	i=0
	while [ $i -lt "$RUNS" ]; do
		if [ $mode = root ]; then set --; else set -- setpriv --reuid=65534 --regid=65534 --clear-groups; fi
		"$@" "$WARD" --report "$T/rep-$mode/$i.json" --slot input="$T/in" "$T/shell.wardb" -- /bin/true \
			>/dev/null 2>&1 </dev/null || { echo "bench_floor: run $i failed"; exit 1; }
		i=$((i + 1))
	done
	python3 - "$T/rep-$mode" <<'EOF'
import json, os, statistics, sys
d = sys.argv[1]
rs = [json.load(open(os.path.join(d, f))) for f in os.listdir(d)]
keys = list(rs[0]["timings_us"])
print("  " + "  ".join("%s %d" % (k, statistics.median(r["timings_us"][k] or 0 for r in rs)) for k in keys))
EOF
done
