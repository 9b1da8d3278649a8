#!/bin/sh
# tests/e2e/supervise.sh: end-to-end tests of supervision (run from
# tests/e2e/run.sh, the e2e suite's one entry point): cgroup limits
# (memory, cpu, pids), the tmpfs size, the wall timeout and its grace,
# output caps with digests and tails, seccomp kills named, signals to the
# supervisor, the run report, cleanup on every path (1,000 runs), the
# stdlib python profile end to end, and rootless refusals. One line per
# test: "PASS name", "FAIL name: why" or "SKIP name: why".
#
# Policies are compiled by wardc from the sources written below.
#
# Safety net (set here, not by ward): the whole script moves itself into
# an outer cgroup made below its own (memory 4G, pids 2048) before the
# first launch, so that a ward regression (a memory bomb, a fork bomb out
# of its cgroup) fails a test instead of taking the machine down; every
# launch runs under timeout(1). The outer cgroup, the temporary directory
# and any process a test started are removed on every path (trap).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}
CC=${CC:-cc}
RUNS=${WARD_E2E_RUNS:-1000}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP supervise: needs root (cgroups, and setpriv for rootless mode)"
	exit 0
fi
if [ ! -x "$WARD" ] || [ ! -x "$WARDC" ]; then
	echo "FAIL supervise: no ward or wardc in $top/$BUILD"
	exit 1
fi

T=$(mktemp -d /tmp/ward-sup.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
outer=
failures=0

own_v1() { sed -n "s/^[0-9]*:$1:\(.*\)/\1/p" /proc/self/cgroup; }
cgmnt() { awk -v t="$1" -v c="$2" '$9 == t && (c == "" || $NF ~ "(^|,)" c "(,|$)") { print $5; exit }' /proc/self/mountinfo; }

cleanup() {
	for p in $bgpids; do kill -9 "$p" 2>/dev/null; done
	# back to where the script came from, then the net goes
	for d in $outer; do
		parent=$(dirname "$d")
		[ -f "$parent/cgroup.procs" ] && echo $$ >"$parent/cgroup.procs" 2>/dev/null
	done
	for d in $outer; do
		rmdir "$d/sh" "$d/ward" "$d" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
}
skip() { echo "SKIP $1: $2"; }

# ------------------------------------------------------------ safety net
mem_mnt=$(cgmnt cgroup memory)
pids_mnt=$(cgmnt cgroup pids)
v2_mnt=$(cgmnt cgroup2 "")
CGBASE=
if [ -n "$mem_mnt" ] && [ -n "$pids_mnt" ]; then
	om="$mem_mnt$(own_v1 memory)"
	op="$pids_mnt$(own_v1 pids)"
	om="${om%/}/ward-e2e-$$"
	op="${op%/}/ward-e2e-$$"
	mkdir "$om" "$op" || { echo "FAIL supervise: cannot make the outer cgroups"; exit 1; }
	outer="$om $op"
	echo 4G >"$om/memory.limit_in_bytes"
	echo 4G >"$om/memory.memsw.limit_in_bytes" 2>/dev/null
	echo 2048 >"$op/pids.max"
	echo $$ >"$om/cgroup.procs" && echo $$ >"$op/cgroup.procs" ||
		{ echo "FAIL supervise: cannot enter the outer cgroups"; exit 1; }
	NET_PIDS="$op"
	BASES="$om/ward $op/ward ${v2_mnt:+$v2_mnt/ward} $(cgmnt cgroup cpu)/ward"
elif [ -n "$v2_mnt" ]; then
	# pure cgroup2: the script in a leaf of the outer cgroup, ward's base
	# beside it (no internal processes)
	o="$v2_mnt/ward-e2e-$$"
	mkdir "$o" "$o/sh" || { echo "FAIL supervise: cannot make the outer cgroup"; exit 1; }
	outer="$o"
	echo "+memory +pids +cpu" >"$o/cgroup.subtree_control"
	echo 4G >"$o/memory.max"
	echo 2048 >"$o/pids.max"
	echo $$ >"$o/sh/cgroup.procs" || { echo "FAIL supervise: cannot enter the outer cgroup"; exit 1; }
	CGBASE="--cgroup-base /ward-e2e-$$/ward"
	NET_PIDS="$o"
	BASES="$o/ward"
else
	echo "SKIP supervise: no cgroup hierarchy for the safety net"
	exit 0
fi
# shellcheck disable=SC2086
set -- $CGBASE
CGARGS="$*"

# ------------------------------------------------------------ tools
mkdir -p "$T/bin" "$T/out" "$T/in"
if ! "$CC" -static -O2 -o "$T/bin/probe" "$top/tests/e2e/probe.c" 2>"$T/cc.log"; then
	fail build/probe "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 755 "$T/bin" "$T/bin/probe" "$T/in"
chmod 777 "$T/out"

# compile NAME LIMITS SYSCALL-RULES [FS]: a policy on the stdlib's base.
compile() {
	cat >"$T/$1.ward" <<EOF
ward 1;
policy $1;
use base;
identity { user 65534; group 65534; hostname "sandbox"; capabilities none; }
fs {
	tmpfs /tmp size ${4:-16M} mode 1777;
	bind "$T/bin" at /probe ro exec;
}
net none;
limits { $2 }
syscalls default allow { errno EPERM keyctl, add_key, request_key; $3 }
EOF
	if ! "$WARDC" compile "$T/$1.ward" -o "$T/$1.wardb" >"$T/wardc.log" 2>&1; then
		fail "compile/$1" "$(head -c 300 "$T/wardc.log")"
		return 1
	fi
	chmod 644 "$T/$1.wardb"
}

# launch [MODE] WARD-ARGS...: run ward under timeout. Output in $T/o and
# $T/e, the report in $T/r.json, status in $rc, wall time (ms) in $ms.
launch() {
	mode=root
	if [ "$1" = rootless ]; then
		mode=rootless
		shift
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" --report "$T/out/r.json" "$@"
	else
		# shellcheck disable=SC2086
		set -- "$WARD" $CGARGS --report "$T/out/r.json" "$@"
	fi
	rm -f "$T/out/r.json"
	t0=$(date +%s%N)
	timeout -k 2 60 "$@" >"$T/o" 2>"$T/e" </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	cp "$T/out/r.json" "$T/r.json" 2>/dev/null || echo '{}' >"$T/r.json"
	: "$mode"
}

q() { jq -r "$1" "$T/r.json" 2>/dev/null; }
why() { printf 'rc=%s %sms report=%s err=%s' "$rc" "$ms" \
	"$(jq -c '{reason,flags,exit_code,signal,error}' "$T/r.json" 2>/dev/null | head -c 300)" \
	"$(head -c 300 "$T/e" | tr '\n' '|')"; }

procs_in_net() { wc -l <"$NET_PIDS/cgroup.procs"; }
# Run directories left by a supervisor that is gone (a leak). Some bases
# (cgroup2's, cpu's) are shared with every ward on the machine: the runs
# of live supervisors are not counted.
runs_left() {
	for b in $BASES; do [ -d "$b" ] && ls "$b"; done | grep '^run-' |
		while IFS=- read -r _ pid start; do
			start=${start%-broker} # the broker's, beside its run
			[ "$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null |
				cut -d' ' -f20)" = "$start" ] || echo "run-$pid-$start"
		done | wc -l
}

# A process of the test's own, outside any sandbox, in the same outer
# cgroup: it must survive every attack.
sleep 3600 &
sentinel=$!
bgpids="$bgpids $sentinel"

# ------------------------------------------------------------ memory
compile mem "memory 64M; swap 0; wall 20s;" "" || exit 1
launch "$T/mem.wardb" -- /usr/bin/python3 -c 'x = bytearray(1 << 30); print(len(x))'
peak=$(q .peaks.memory_bytes)
if [ "$rc" = 137 ] && [ "$(q .reason)" = oom_killed ] &&
	[ "$(q '.flags | index("oom_killed") != null')" = true ] &&
	[ "${peak:-0}" -le $((64 << 20)) ] &&
	{ [ "$(q .oom.oom_kill)" -ge 1 ] || [ "$(q .oom.whole_run_killed)" = true ]; } &&
	kill -0 $sentinel && [ "$(q .cleanup.cgroup_removed)" = true ]; then
	pass root/memory-bomb-oom-killed
else
	fail root/memory-bomb-oom-killed "peak=$peak $(why)"
fi
# the limits and where they were enforced
if [ "$(q '[.limits[] | select(.limit == "memory") | .enforced_by] | .[0]')" != null ] &&
	q '.limits[] | select(.limit == "memory") | .enforced_by' | grep -q '^cgroup v[12] memory\.' &&
	q '.limits[] | select(.limit == "swap") | .enforced_by' | grep -Eq 'memsw|swap'; then
	pass root/report-limits-enforced-by
else
	fail root/report-limits-enforced-by "$(jq -c .limits "$T/r.json")"
fi

# ------------------------------------------------------------ cpu
# Half a core over the window, from the cgroup's counters (CPU time over
# wall time, wide margin), and the quota's own throttling counter moved.
compile cpu "cpu 0.5; wall 3s;" "" || exit 1
launch "$T/cpu.wardb" -- /bin/sh -c 'while :; do :; done'
used=$(($(q .peaks.cpu_user_usec) + $(q .peaks.cpu_system_usec)))
wall=$(q .peaks.wall_ms)
share=$((used / (wall > 0 ? wall : 1) / 10)) # percent of one CPU
if [ "$(q .reason)" = timeout ] && [ "$(q .peaks.cpu_source)" != rusage ] &&
	[ "$share" -ge 30 ] && [ "$share" -le 65 ] &&
	[ "$(q .peaks.cpu_throttled_periods)" -gt 5 ]; then
	pass "root/cpu-half-core ($share%)"
else
	fail root/cpu-half-core "share=$share% used=${used}us wall=${wall}ms throttled=$(q .peaks.cpu_throttled_periods) $(why)"
fi

# CPU time (RLIMIT_CPU): SIGXCPU and SIGKILL at 1 s of CPU, well before
# the wall time.
compile cputime "cputime 1s; wall 20s;" "" || exit 1
launch "$T/cputime.wardb" -- /bin/sh -c 'while :; do :; done'
if [ "$(q .reason)" = cpu_time ] && [ "$ms" -lt 15000 ] &&
	q .limits[].enforced_by | grep -qx 'rlimit RLIMIT_CPU 1 s (rounded up)'; then
	pass "root/cputime-cpu_time (${ms}ms)"
else
	fail root/cputime-cpu_time "cpu=$(q .peaks.cpu_user_usec)+$(q .peaks.cpu_system_usec)us ($(q .peaks.cpu_source)) $(why)"
fi

# ------------------------------------------------------------ ward's own CPU
# The supervisor sleeps while the sandbox runs: its own CPU time (ward and
# all it reaped, from wait4, less the sandbox's from the report) stays a
# small part of the wall time. On cgroup2 its OOM watch (memory.events)
# once woke it at once for ever, a whole CPU beside every run (seen in
# tests/vm as resources/cpu-burn's excess); and once the file changed (the
# run reached its memory limit: "max"), a watch read through another
# descriptor stayed ready. One run sleeps; one first goes past its limit
# with memory it gave back (MADV_FREE: reclaimed at the limit without
# swap, no OOM), then sleeps.
launch_cpu() { # WARD-ARGS...: launch, ward's own CPU ms in $own
	rm -f "$T/out/r.json" "$T/cpu"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	timeout -k 2 60 python3 -c '
import os, sys
p = os.fork()
if p == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, st, ru = os.wait4(p, 0)
open(sys.argv[1], "w").write("%d\n" % ((ru.ru_utime + ru.ru_stime) * 1000))
sys.exit(os.waitstatus_to_exitcode(st) & 255)' "$T/cpu" "$WARD" $CGARGS \
		--report "$T/out/r.json" "$@" >"$T/o" 2>"$T/e" </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	cp "$T/out/r.json" "$T/r.json" 2>/dev/null || echo '{}' >"$T/r.json"
	own=$(($(cat "$T/cpu" 2>/dev/null || echo 999999) - \
		($(q '.peaks.cpu_user_usec // 0') + $(q '.peaks.cpu_system_usec // 0')) / 1000))
}
compile idle "memory 32M; swap 0; wall 30s;" "" || exit 1
launch_cpu "$T/idle.wardb" -- /bin/sleep 3
if [ "$rc" = 0 ] && [ $((own * 4)) -le $((ms + 400)) ]; then
	pass "root/supervisor-sleeps (${own}ms of CPU in ${ms}ms)"
else
	fail root/supervisor-sleeps "ward used ${own}ms of CPU in ${ms}ms, at most a quarter $(why)"
fi
launch_cpu "$T/idle.wardb" -- /usr/bin/python3 -c '
import mmap, time
kept = []
for i in range(6):
    m = mmap.mmap(-1, 8 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for off in range(0, 8 << 20, 4096):
        m[off] = 1
    m.madvise(mmap.MADV_FREE)
    kept.append(m)
time.sleep(3)'
# (the limit reached: v2 counts it, "max"; v1's failcnt may stay 0)
hits=$(q '.oom.limit_hits // 0')
peak=$(q '.peaks.memory_bytes // 0')
if [ "$rc" = 0 ] && { [ "$hits" -gt 0 ] || [ "$peak" -ge $((31 << 20)) ]; } &&
	[ $((own * 4)) -le $((ms + 400)) ]; then
	pass "root/supervisor-sleeps-after-limit (${own}ms of CPU in ${ms}ms, limit hit $hits times, peak $peak)"
else
	fail root/supervisor-sleeps-after-limit "ward used ${own}ms of CPU in ${ms}ms, at most a quarter; limit hit $hits times, peak $peak $(why)"
fi

# ------------------------------------------------------------ pids
before=$(procs_in_net)
compile pids "pids 32; wall 20s;" "" || exit 1
launch "$T/pids.wardb" -- /bin/sh -c 'f() { f | f & }; f; sleep 2; exit 0'
sleep 0.5
after=$(procs_in_net)
if [ "$rc" = 0 ] && [ "$(q '.flags | index("pids_limit") != null')" = true ] &&
	[ "$(q .pids_refused)" -gt 0 ] && [ "$(q .peaks.pids)" -le 32 ] &&
	[ "$before" = "$after" ] && kill -0 $sentinel; then
	pass root/fork-bomb-pids-limit
else
	fail root/fork-bomb-pids-limit "procs $before -> $after $(why)"
fi

# ------------------------------------------------------------ tmpfs
compile disk "wall 20s;" "" 1M || exit 1
launch "$T/disk.wardb" -- /bin/dd if=/dev/zero of=/tmp/fill bs=64k count=64
if [ "$rc" != 0 ] && grep -q "No space left on device" "$T/e" &&
	[ "$(q .output.stderr.tail)" != null ] &&
	q .output.stderr.tail | grep -q "No space left on device"; then
	pass root/tmpfs-enospc
else
	fail root/tmpfs-enospc "$(why)"
fi

# ------------------------------------------------------------ output
# 100 MB on stdout, 8 MiB kept (ceiling 128 MiB): the head delivered,
# the digest of the whole stream, its tail.
gen='yes "ward output line, the same every time" | head -c 100000000'
sh -c "$gen" >"$T/stream"
want=$(sha256sum <"$T/stream" | cut -c1-64)
compile out8 "stdout 8M; output 16M; wall 30s;" "" || exit 1
launch "$T/out8.wardb" -- /bin/sh -c "$gen"
tail -c 4096 "$T/stream" >"$T/tail.want"
jq -j .output.stdout.tail "$T/r.json" >"$T/tail.got"
if [ "$rc" = 0 ] && [ "$(q .output.stdout.bytes)" = 100000000 ] &&
	[ "$(q .output.stdout.kept)" = 8388608 ] &&
	[ "$(q .output.stdout.truncated)" = true ] &&
	[ "$(q .output.stdout.sha256)" = "$want" ] &&
	cmp -s "$T/tail.want" "$T/tail.got" &&
	[ "$(wc -c <"$T/o")" = 8388608 ] &&
	head -c 8388608 "$T/stream" | cmp -s - "$T/o"; then
	pass root/stdout-100MB-head-digest-tail
else
	fail root/stdout-100MB-head-digest-tail "got $(q .output.stdout.sha256) want $want $(why)"
fi
# --stdout FILE and --stderr FILE; stderr is its own stream
launch --stdout "$T/out/so" --stderr "$T/out/se" "$T/out8.wardb" -- \
	/bin/sh -c 'echo to-out; echo to-err >&2'
# (a sanitizer build may add its own warnings to stderr: the last line)
if [ "$rc" = 0 ] && [ "$(cat "$T/out/so")" = to-out ] &&
	[ "$(tail -n 1 "$T/out/se")" = to-err ] && [ ! -s "$T/o" ] &&
	[ "$(q .output.stderr.bytes)" = "$(wc -c <"$T/out/se")" ]; then
	pass root/stdout-stderr-files
else
	fail root/stdout-stderr-files "$(why)"
fi
# past the ceiling (1 MiB kept: 64 MiB read), the run ends
compile out1 "stdout 1M; wall 30s;" "" || exit 1
launch "$T/out1.wardb" -- /bin/sh -c "$gen"
b=$(q .output.stdout.bytes)
if [ "$rc" = 137 ] && [ "$(q .reason)" = output_limit ] &&
	[ "${b:-0}" -gt $((64 << 20)) ] && [ "$b" -lt 100000000 ] &&
	[ "$(wc -c <"$T/o")" = 1048576 ]; then
	pass root/output-ceiling
else
	fail root/output-ceiling "$(why)"
fi
# invalid UTF-8 in a tail is escaped (surrogateescape), not lost
launch "$T/out1.wardb" -- /bin/sh -c 'printf "ok \377\n"'
if [ "$(q .output.stdout.tail)" = "$(printf 'ok \355\263\277')" ] ||
	grep -q '"tail": "ok \\udcff\\n"' "$T/r.json"; then
	pass root/tail-invalid-utf8
else
	fail root/tail-invalid-utf8 "$(grep -o '"tail": "[^"]*"' "$T/r.json" | head -1)"
fi

# ------------------------------------------------------------ wall
compile wall "wall 1s; memory 64M;" "" || exit 1
launch "$T/wall.wardb" -- /bin/sleep 100
if [ "$rc" = 137 ] && [ "$(q .reason)" = timeout ] && [ "$ms" -lt 3000 ] &&
	[ "$(q .signal_name)" = SIGKILL ]; then
	pass "root/sleep-wall-1s-timeout (${ms}ms)"
else
	fail root/sleep-wall-1s-timeout "$(why)"
fi
compile grace "wall 1s; grace 2s;" "" || exit 1
# SIGTERM first: a target that handles it ends on its own terms ...
launch "$T/grace.wardb" -- /bin/sh -c 'trap "echo term; exit 7" TERM; sleep 100 & wait'
if [ "$rc" = 7 ] && [ "$(q .reason)" = timeout ] && grep -qx term "$T/o" &&
	[ "$ms" -lt 2900 ]; then
	pass root/grace-sigterm-first
else
	fail root/grace-sigterm-first "$(why)"
fi
# ... one that ignores it is killed when the grace is over
launch "$T/grace.wardb" -- /bin/sh -c 'trap "" TERM; sleep 100'
if [ "$rc" = 137 ] && [ "$(q .reason)" = timeout ] && [ "$ms" -ge 2900 ] &&
	[ "$ms" -lt 5000 ]; then
	pass "root/grace-then-kill (${ms}ms)"
else
	fail root/grace-then-kill "$(why)"
fi

# ------------------------------------------------------------ lifecycle
marker="ward-sup-daemon-$$"
launch "$T/wall.wardb" -- /bin/sh -c "(setsid /probe/probe sleep 300 $marker &); exit 0"
sleep 0.3
if [ "$rc" = 0 ] && ! pgrep -f "$marker" >/dev/null &&
	[ "$(q .cleanup.cgroup_removed)" = true ]; then
	pass root/double-forked-daemon-gone
else
	fail root/double-forked-daemon-gone "left: $(pgrep -f "$marker" | tr '\n' ' ') $(why)"
	pkill -9 -f "$marker"
fi

# SIGKILL of the supervisor: the sandbox dies with it (parent-death
# signal); its empty cgroups go at the next start.
# shellcheck disable=SC2086
"$WARD" $CGARGS "$T/wall.wardb" -- /probe/probe sleep 30 "$marker-k" >/dev/null 2>&1 &
sup=$!
bgpids="$bgpids $sup"
i=0
# (^: the target's own command line, not the supervisor's, which holds
# the same words)
# (up to 30 s: a start under qemu's TCG, tests/vm, takes seconds)
while ! pgrep -f "^/probe/probe sleep 30 $marker-k" >/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $sup
wait $sup 2>/dev/null
left=$(for b in $BASES; do [ -d "$b" ] && ls "$b" | grep "^run-$sup-"; done | sort -u)
# The sandbox dies by its parent-death signal, which takes its time (under
# TCG, tests/vm, more than half a second): up to 20 s for it to be gone.
run_procs() {
	procs=0
	for b in $BASES; do
		for d in "$b"/run-$sup-*; do
			[ -f "$d/cgroup.procs" ] && procs=$((procs + $(wc -l <"$d/cgroup.procs")))
		done
	done
}
j=0
run_procs
while { [ "$procs" != 0 ] || pgrep -f "$marker-k" >/dev/null; } && [ $j -lt 200 ]; do
	sleep 0.1
	j=$((j + 1))
	run_procs
done
launch "$T/wall.wardb" -- /bin/true
after=$(for b in $BASES; do [ -d "$b" ] && ls "$b" | grep "^run-$sup-"; done | wc -l)
if [ $i -lt 300 ] && ! pgrep -f "$marker-k" >/dev/null && [ -n "$left" ] &&
	[ "$procs" = 0 ] && [ "$after" = 0 ] && [ "$rc" = 0 ]; then
	pass root/supervisor-sigkill-leaves-nothing
else
	fail root/supervisor-sigkill-leaves-nothing "started=$i stale=[$left] procs=$procs after=$after"
	pkill -9 -f "$marker-k"
fi

# SIGTERM, SIGINT, SIGHUP to the supervisor: the sandbox is killed, the
# report written, the exit status 128+N. Sent once the target runs (a
# signal init gets during its setup has no handler to meet, and under
# qemu's TCG, tests/vm, setup takes most of a second), with a wall that
# cannot end the run first.
compile sigwall "wall 30s; memory 64M;" "" || exit 1
for s in TERM:15 INT:2 HUP:1; do
	n=${s#*:}
	s=${s%:*}
	rm -f "$T/out/sig.json"
	# shellcheck disable=SC2086
	"$WARD" $CGARGS --report "$T/out/sig.json" "$T/sigwall.wardb" -- \
		/probe/probe sleep 30 "$marker-s$s" >/dev/null 2>&1 &
	sup=$!
	i=0
	while ! pgrep -f "^/probe/probe sleep 30 $marker-s$s" >/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -$s $sup
	wait $sup
	rc=$?
	cp "$T/out/sig.json" "$T/r.json" 2>/dev/null
	if [ "$rc" = $((128 + n)) ] && [ "$(q .reason)" = interrupted ] &&
		[ "$(q .cleanup.cgroup_removed)" = true ]; then
		pass "root/supervisor-sig$s"
	else
		fail "root/supervisor-sig$s" "$(why)"
	fi
done

# A setup failure after the cgroups exist: reported, and nothing left.
cat >"$T/nosrc.ward" <<EOF
ward 1;
policy nosrc;
use base;
fs { bind /nonexistent-ward-src at /x; }
net none;
limits { memory 64M; pids 16; }
syscalls default allow { }
EOF
if "$WARDC" compile "$T/nosrc.ward" -o "$T/nosrc.wardb" >"$T/wardc.log" 2>&1; then
	chmod 644 "$T/nosrc.wardb"
	launch "$T/nosrc.wardb" -- /bin/true
	if [ "$rc" = 125 ] && [ "$(q .reason)" = launcher_error ] &&
		q .error | grep -q nonexistent-ward-src &&
		[ "$(q .cleanup.cgroup_removed)" = true ] && [ "$(runs_left)" = 0 ]; then
		pass root/setup-failure-cleans-up
	else
		fail root/setup-failure-cleans-up "$(why)"
	fi
else
	fail compile/nosrc "$(head -c 300 "$T/wardc.log")"
fi

# ------------------------------------------------------------ seccomp
compile kill "wall 20s; memory 64M;" "kill getpgrp; kill ioctl if request == TIOCSTI;" || exit 1
launch "$T/kill.wardb" -- /usr/bin/python3 -c 'import os; print("before", flush=True); os.getpgrp(); print("after")'
if [ "$rc" = 159 ] && [ "$(q .reason)" = seccomp_violation ] &&
	[ "$(q '.denials.seccomp[0].syscall')" = getpgrp ] &&
	grep -qx before "$T/o" && ! grep -q after "$T/o" &&
	[ "$(q .identity.seccomp.kill_listener)" = true ]; then
	pass root/seccomp-kill-names-syscall
else
	fail root/seccomp-kill-names-syscall "$(why)"
fi
launch "$T/kill.wardb" -- /usr/bin/python3 -c 'import fcntl, termios; fcntl.ioctl(1, termios.TIOCSTI, b"x")'
if [ "$rc" = 159 ] && [ "$(q '.denials.seccomp[0].syscall')" = ioctl ] &&
	[ "$(q '.denials.seccomp[0].nr')" = 16 ]; then
	pass root/seccomp-kill-argument-rule
else
	fail root/seccomp-kill-argument-rule "$(jq -c .denials "$T/r.json") $(why)"
fi
# the control: an allowed ioctl request does not kill
launch "$T/kill.wardb" -- /usr/bin/python3 -c 'import fcntl, termios, sys; print("alive")'
if [ "$rc" = 0 ] && [ "$(q .reason)" = exited ] && [ "$(q '.denials.seccomp | length')" = 0 ]; then
	pass root/seccomp-control-no-kill
else
	fail root/seccomp-control-no-kill "$(why)"
fi

# The broker answers every notification: if it dies during the run, no
# call that waits for it runs (the supervisor keeps the listener, so the
# kernel does not fail them with ENOSYS), and the sandbox is killed.
compile brokerdeath "wall 60s; memory 64M;" "kill getpgrp;" || exit 1
rm -f "$T/out/r.json" "$T/gate"
# The program says "up", then waits for a line on its stdin (a FIFO this
# test holds open) before it calls getpgrp: the broker is found and killed
# first however slowly the host starts python (the TCG VM takes seconds),
# and no fixed sleep decides the order.
mkfifo "$T/gate"
# shellcheck disable=SC2086
timeout -k 2 90 "$WARD" $CGARGS --report "$T/out/r.json" --stdin - "$T/brokerdeath.wardb" -- \
	/usr/bin/python3 -c 'import os, sys; print("up", flush=True); sys.stdin.readline(); os.getpgrp(); print("after", flush=True)' \
	>"$T/o" 2>"$T/e" <"$T/gate" &
wpid=$!
exec 7>"$T/gate"
t_end=$(($(date +%s) + 60))
while ! grep -q up "$T/o" 2>/dev/null && [ "$(date +%s)" -lt $t_end ]; do sleep 0.1; done
# the broker: a descendant of this ward (any depth) holding a notify fd
# that is not the sandbox's own process tree (which never holds one)
descendants() { for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
sup=$(pgrep -P $wpid)
bpid=
for c in $(descendants "${sup:-0}"); do
	ls -l /proc/$c/fd 2>/dev/null | grep -q 'seccomp notify' && bpid=$c
done
[ -n "$bpid" ] && kill -9 "$bpid"
# only now may the program go on (if the supervisor has not killed it yet)
(echo go >&7) 2>/dev/null
exec 7>&-
wait $wpid
rc=$?
cp "$T/out/r.json" "$T/r.json" 2>/dev/null || echo '{}' >"$T/r.json"
if [ -n "$bpid" ] && [ "$rc" = 125 ] && [ "$(q .reason)" = launcher_error ] &&
	q .error | grep -q "the broker.*ended during the run" && ! grep -q after "$T/o"; then
	pass root/broker-death-kills-the-run
else
	fail root/broker-death-kills-the-run "broker=${bpid:-none found} up=$(grep -c up "$T/o" 2>/dev/null) rc=$rc report=$(jq -c '{reason,flags,exit_code,signal,error}' "$T/r.json" 2>/dev/null | head -c 300) err=$(head -c 300 "$T/e" | tr '\n' '|')"
fi

# ------------------------------------------------------------ the report
launch -v "$T/mem.wardb" -- /bin/sh -c 'echo hi; exit 3' 2>/dev/null
ts='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$'
if [ "$rc" = 3 ] && [ "$(q .report_version)" = 1 ] &&
	q .run_id | grep -Eq '^run-[0-9]+-[0-9]+$' &&
	q .created | grep -Eq "$ts" && q .destroyed | grep -Eq "$ts" &&
	[ "$(q .target_exit)" = 3 ] && [ "$(q .mode)" = root ] &&
	[ "$(q .policy.digest)" = "$(sha256sum "$T/mem.wardb" | cut -c1-64)" ] &&
	[ "$(q .identity.uid)" = 65534 ] && [ "$(q .identity.no_new_privs)" = true ] &&
	[ "$(q .identity.seccomp.instructions)" -gt 0 ] &&
	q .cgroup.version.memory | grep -Eq '^[12]$' &&
	[ "$(q .peaks.wall_ms)" -ge 0 ] && [ "$(q .output.stdout.tail)" = hi ] &&
	grep -q "ward: run-.*: exited (exit 3)" "$T/e"; then
	pass root/report-schema
else
	fail root/report-schema "$(head -c 600 "$T/r.json") $(head -c 200 "$T/e")"
fi

# ------------------------------------------------------------ 1,000 runs
compile many "memory 64M; pids 16; wall 10s;" "" || exit 1
# Mounts of the host's namespace whose path names ward or this test (a
# run's leak would be under its workspace, /run/ward or $T): other tests
# on the machine mount and unmount network namespaces meanwhile.
ward_mounts() { awk '$2 ~ /ward/ { print $2 }' /proc/mounts | sort | tr '\n' ' '; }
mounts0=$(ward_mounts)
procs0=$(procs_in_net)
ls -A /tmp | sort >"$T/tmp0"
# The runs' host uid is one no other process has, so that a file of it in
# /tmp is one of these runs' (other ward runs on the machine use 65534).
huid=
for u in $(seq $((62000 + $$ % 2000)) 64999); do
	getent passwd "$u" >/dev/null || pgrep -U "$u" >/dev/null || { huid=$u; break; }
done
bad=0
i=0
while [ $i -lt "$RUNS" ]; do
	# shellcheck disable=SC2086
	timeout -k 2 30 "$WARD" $CGARGS --host-uid "$huid" --host-gid "$huid" "$T/many.wardb" -- /bin/true >/dev/null 2>&1 || bad=$((bad + 1))
	i=$((i + 1))
done
sleep 0.3
ls -A /tmp | sort >"$T/tmp1"
# new entries in /tmp made by the runs' host uid (other users of this
# machine may make their own meanwhile)
newtmp=$(comm -13 "$T/tmp0" "$T/tmp1" | while read -r f; do
	[ "$(stat -c %u "/tmp/$f" 2>/dev/null)" = "$huid" ] && echo "$f"
done)
if [ "$bad" = 0 ] && [ "$(runs_left)" = 0 ] &&
	[ "$(ward_mounts)" = "$mounts0" ] &&
	[ "$(procs_in_net)" = "$procs0" ] && [ -z "$newtmp" ]; then
	pass "root/$RUNS-runs-leave-nothing"
else
	fail "root/$RUNS-runs-leave-nothing" "failed=$bad runs-left=$(runs_left) mounts [$mounts0]->[$(ward_mounts)] procs $procs0->$(procs_in_net) tmp=[$newtmp]"
fi

# ------------------------------------------------------------ python
# The stdlib python profile end to end: a CSV in the input slot,
# statistics out of the output slot (what `make demo` runs).
if "$WARDC" compile "$top/stdlib-policies/python.ward" -o "$T/python.wardb" >"$T/wardc.log" 2>&1; then
	chmod 644 "$T/python.wardb"
	printf 'region,units\nnorth,12\nsouth,7\nnorth,3\n' >"$T/in/data.csv"
	cat >"$T/in/main.py" <<'PY'
import csv, json, statistics
rows = list(csv.DictReader(open("/input/data.csv")))
units = [int(r["units"]) for r in rows]
json.dump({"n": len(units), "mean": statistics.mean(units)}, open("/output/stats.json", "w"))
print("done")
PY
	chmod 644 "$T/in/"*
	launch --slot input="$T/in" --slot output="$T/out" "$T/python.wardb" -- /usr/bin/python3 /input/main.py
	if [ "$rc" = 0 ] && [ "$(cat "$T/out/stats.json" 2>/dev/null)" = '{"n": 3, "mean": 7.333333333333333}' ] &&
		[ "$(q .reason)" = exited ] && [ "$(q .identity.seccomp.kill_listener)" = true ] &&
		[ "$(q '[.limits[].limit] | join(",")')" = "memory,swap,cpu,pids,wall,grace,cputime,nofile,filesize,memlock,core,stdout,stderr,output,sigpending,msgqueue,inotify-instances,inotify-watches,fanotify-groups,fanotify-marks,stdout-mode,stderr-mode,stdout-at-cap" ]; then
		pass root/stdlib-python-csv-to-stats
	else
		fail root/stdlib-python-csv-to-stats "$(cat "$T/out/stats.json" 2>/dev/null) $(why)"
	fi
	# What a hostile program tried is on the record: the refused calls
	# of the profile's dangerous groups by name with their counts and
	# first arguments, the refused socket as a network attempt.
	cat >"$T/in/try.py" <<'PY'
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
for magic in (0x1234567, 0x7654321):
    libc.reboot(magic)
libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except OSError as e:
    print("socket", e.errno)
PY
	chmod 644 "$T/in/try.py"
	launch --slot input="$T/in" --slot output="$T/out" "$T/python.wardb" -- /usr/bin/python3 /input/try.py
	if [ "$rc" = 0 ] && [ "$(q .reason)" = exited ] &&
		[ "$(q '[.denials.seccomp[] | select(.syscall == "reboot" and .count == 2 and .errno == "EPERM" and .args[2] == "0x1234567")] | length')" = 1 ] &&
		[ "$(q '[.denials.seccomp[] | select(.syscall == "mount" and .count == 1 and .action == "errno EPERM")] | length')" = 1 ] &&
		[ "$(q '[.denials.network[] | select(.call == "socket" and .family == "ipv4" and .protocol == "tcp" and .errno == "EAFNOSUPPORT")] | length')" = 1 ] &&
		[ "$(q .network.mode)" = none ]; then
		pass root/stdlib-python-refusals-recorded
	else
		fail root/stdlib-python-refusals-recorded "$(jq -c .denials "$T/r.json" | head -c 600) $(why)"
	fi
else
	fail compile/python "$(head -c 300 "$T/wardc.log")"
fi

# ------------------------------------------------------------ rootless
# No delegation on cgroup v1: a policy with cgroup limits is refused,
# saying how to get one.
launch rootless "$T/mem.wardb" -- /bin/true
if [ "$rc" = 125 ] && [ "$(q .reason)" = launcher_error ] &&
	grep -q "rootless ward may not create any here" "$T/e" &&
	grep -q -- "--cgroup-base" "$T/e" && [ "$(q .cgroup)" = null ]; then
	pass rootless/cgroup-limits-refused
elif [ -z "$mem_mnt" ]; then
	skip rootless/cgroup-limits-refused "not a cgroup v1 host"
else
	fail rootless/cgroup-limits-refused "$(why)"
fi
# What needs no cgroup runs: the wall time, output caps, seccomp kills.
compile rl "wall 1s; stdout 4B; stderr 0B;" "kill getpgrp;" || exit 1
launch rootless "$T/rl.wardb" -- /bin/sh -c 'echo 123456789; sleep 100'
if [ "$rc" = 137 ] && [ "$(q .reason)" = timeout ] && [ "$(cat "$T/o")" = 1234 ] &&
	[ "$(q .output.stdout.bytes)" = 10 ] && [ "$(q .cgroup)" = null ] &&
	[ "$(q .cleanup.processes_left)" = 0 ] && [ "$(q .mode)" = rootless ]; then
	pass rootless/wall-and-output-cap
else
	fail rootless/wall-and-output-cap "$(why)"
fi
# (a wall of its own: python3 takes more than the 1 s above to start under
# qemu's TCG, tests/vm)
compile rlk "wall 30s;" "kill getpgrp;" || exit 1
launch rootless "$T/rlk.wardb" -- /usr/bin/python3 -c 'import os; os.getpgrp()'
if [ "$rc" = 159 ] && [ "$(q '.denials.seccomp[0].syscall')" = getpgrp ]; then
	pass rootless/seccomp-kill-names-syscall
else
	fail rootless/seccomp-kill-names-syscall "$(why)"
fi
launch rootless --cgroup-base /ward-no-such-base "$T/mem.wardb" -- /bin/true
if [ "$rc" = 125 ] && grep -q -- "--cgroup-base /ward-no-such-base" "$T/e"; then
	pass rootless/cgroup-base-not-delegated
else
	fail rootless/cgroup-base-not-delegated "$(why)"
fi

kill $sentinel 2>/dev/null
[ "$failures" = 0 ]
