#!/bin/sh
# tests/bench/bench_cgroup.sh BUILD_DIR: what cgroup limits cost a launch,
# and throughput under the stdlib python profile. Root (cgroups).
#
# 1. Launch overhead, interleaved (launchbench.c): /usr/bin/true under the
#    same policy compiled twice, with `memory 512M; swap 0; cpu 0.5;
#    pids 256` and without; bubblewrap (no limits: it has none to offer)
#    and `unshare` as references. The added milliseconds are the medians'
#    difference; then one controller at a time. On a v1 host init is moved
#    into its v1 cgroups by cgroup.procs writes (one per hierarchy, all
#    while init is held, back to back), which some kernels make wait for
#    an RCU grace period (cgroup_threadgroup_rwsem's rcu_sync); cgroup2
#    places it with clone3(CLONE_INTO_CGROUP) and no write at all. Step 2
#    shows what the writes cost on this kernel.
# 2. The cgroup steps alone (cgroup_steps.c, with the launcher's code):
#    mkdir, limits, the v1 cgroup.procs writes, the counters, rmdir.
# 3. Throughput: /bin/true under the stdlib python profile (its slots
#    given empty directories), 3 launchers at once for 20 s
#    (throughput.c), against bubblewrap with the equivalent mounts and a
#    seccomp program, which sets no limit at all: the comparison is ward
#    with its limits, cgroups and report against bwrap without any.
#
# RUNS=200 rounds, SECONDS_TP=20, WORKERS=3 by default.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
RUNS=${RUNS:-200}
SECONDS_TP=${SECONDS_TP:-20}
WORKERS=${WORKERS:-3}
CC=${CC:-cc}
WARD=$BUILD/ward
WARDC=$BUILD/wardc
[ -x "$WARD" ] && [ -x "$WARDC" ] || { echo "bench_cgroup: no $WARD or $WARDC (make first)"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench_cgroup: needs root"; exit 1; }
command -v bwrap >/dev/null || { echo "bench_cgroup: bwrap missing (make deps)"; exit 1; }

T=$(mktemp -d /tmp/ward-bench.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
"$CC" -O2 -o "$T/launchbench" "$top/tests/bench/launchbench.c" || exit 1
"$CC" -O2 -o "$T/throughput" "$top/tests/bench/throughput.c" || exit 1
# mkblob: the Makefile's (make bench builds it; the test policies that
# need no seccomp filter, or a filter of their own)
cp "$BUILD/attacks/mkblob" "$T/mkblob" || exit 1

# The same policy with and without cgroup limits, and with one controller
# at a time (the cost per controller and hierarchy).
for v in lim nolim mem pids cpu; do
	case $v in
	lim) l="memory 512M; swap 0; cpu 0.5; pids 256;" ;;
	mem) l="memory 512M; swap 0;" ;;
	pids) l="pids 256;" ;;
	cpu) l="cpu 0.5;" ;;
	*) l="" ;;
	esac
	cat >"$T/$v.ward" <<EOF
ward 1;
policy bench_$v;
use base;
identity { user 65534; group 65534; hostname "sandbox"; capabilities none; }
fs { tmpfs /tmp size 64M mode 1777; }
net none;
limits { $l nofile 256; }
syscalls default allow { errno EPERM mount, umount2, pivot_root, chroot, unshare, setns, keyctl, add_key, request_key, bpf, ptrace; }
EOF
	"$WARDC" compile "$T/$v.ward" -o "$T/$v.wardb" || exit 1
	chmod 644 "$T/$v.wardb"
done
"$WARDC" compile "$top/stdlib-policies/python.ward" -o "$T/python.wardb" || exit 1
chmod 644 "$T/python.wardb"
mkdir -p "$T/in" "$T/out"
chmod 755 "$T/in"
chmod 777 "$T/out"

# bwrap's seccomp program: a deny-list like the policies' (bwrap takes raw
# BPF by descriptor).
DENY=mount,umount2,pivot_root,chroot,unshare,setns,keyctl,add_key,request_key,bpf,ptrace
"$T/mkblob" "$T/deny.wardb" "seccomp:errno=1:$DENY" "bpf-out=$T/deny.bpf" || exit 1
chmod 644 "$T/deny.bpf"
BWRAP="bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind /usr /usr --symlink usr/lib64 /lib64 --symlink usr/lib /lib --symlink usr/bin /bin --ro-bind /etc /etc --proc /proc --dev /dev --tmpfs /tmp"

echo "bench_cgroup: $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E ' - cgroup2? ' /proc/self/mountinfo | awk '{print "  " $5 " (" $(NF-2) ")"}' | sort | head -12
echo
echo "-- launch: /usr/bin/true, root, $RUNS interleaved rounds"
"$T/launchbench" "$RUNS" -1 "$T/deny.bpf" \
	"limits $WARD $T/lim.wardb -- /usr/bin/true" \
	"nolimits $WARD $T/nolim.wardb -- /usr/bin/true" \
	"bwrap $BWRAP --seccomp @BPF /usr/bin/true" \
	"unshare unshare --user --map-root-user --mount --pid --net --ipc --uts --fork /usr/bin/true" \
	| tee "$T/launch.txt"
# the added cost, from the medians (launchbench prints "NAME median ...")
awk '$1 == "limits" { a = $2 } $1 == "nolimits" { b = $2 }
	END { if (a && b) printf "cgroup limits add %.2f ms per launch (%.2f vs %.2f ms median)\n", a - b, a, b }' "$T/launch.txt"

echo
echo "-- one controller at a time: what each adds, $RUNS interleaved rounds"
# With any controller the run also gets cgroup2 (cgroup.kill, cpu.stat,
# CLONE_INTO_CGROUP) or, without it, v1 cpuacct and freezer: the first
# controller pays for those directories too.
"$T/launchbench" "$RUNS" -1 "$T/deny.bpf" \
	"nolimits $WARD $T/nolim.wardb -- /usr/bin/true" \
	"memory $WARD $T/mem.wardb -- /usr/bin/true" \
	"pids $WARD $T/pids.wardb -- /usr/bin/true" \
	"cpu $WARD $T/cpu.wardb -- /usr/bin/true" \
	"all3 $WARD $T/lim.wardb -- /usr/bin/true" | tee "$T/ctrl.txt"
awk '$1 == "nolimits" { b = $2 } $1 ~ /^(memory|pids|cpu|all3)$/ { m[$1] = $2 }
	END { for (k in m) printf "%s adds %.2f ms per launch\n", k, m[k] - b }' "$T/ctrl.txt" | sort

echo
echo "-- the cgroup steps alone (launcher/cgroup*.c), memory + pids + cpu"
if "$CC" -O2 -D_GNU_SOURCE -I"$top/common" -I"$top/launcher/core" -I"$top/launcher/lib" -o "$T/cgroup_steps" \
	"$top/tests/bench/cgroup_steps.c" "$BUILD/libwardlauncher.a" \
	"$BUILD/libwardcommon.a" -lcap -lsodium -lz 2>"$T/cc.log"; then
	"$T/cgroup_steps" "$RUNS"
else
	echo "(cgroup_steps did not build: $(head -c 200 "$T/cc.log"))"
fi

echo
echo "-- throughput: /bin/true under the python profile, $WORKERS launchers, ${SECONDS_TP}s each"
"$T/throughput" "$SECONDS_TP" "$WORKERS" "$T/deny.bpf" \
	"ward $WARD --slot input=$T/in --slot output=$T/out $T/python.wardb -- /bin/true" \
	"bwrap $BWRAP --tmpfs /work --ro-bind $T/in /input --bind $T/out /output --seccomp @BPF /bin/true" \
	| tee "$T/tp.txt"
awk '$1 == "ward" { a = $2 } $1 == "bwrap" { b = $2 }
	END { if (a && b) printf "ward/bwrap throughput: %.2fx (ward with memory, cpu and pids cgroups; bwrap without any limit)\n", a / b }' "$T/tp.txt"
