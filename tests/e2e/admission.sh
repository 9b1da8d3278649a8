#!/bin/sh
# tests/e2e/admission.sh: the host's ceiling on concurrent sandboxes and
# the queue in front of it (docs/spec.md 3.10), observed from outside: a
# watcher counts the pid namespaces of the runs' init processes while
# they exist. Run from tests/e2e/run.sh. One line per test: "PASS name",
# "FAIL name: why" or "SKIP name: why".
#
#   8 runs at once get at most floor(1.5 x online CPUs) sandboxes at a
#   time (the default ceiling), all complete, in the order they came, and
#   each report says how long it waited; a queue timeout is its own
#   reason (queue_timeout) and exit status (124); a ward killed in the
#   queue or holding a slot frees it; a signal ends a wait; in root mode
#   the slot is held by a process that is not uid 0 and no root process
#   has it open, and a run whose holder is killed is killed too; rootless
#   callers share a queue that root made; bad settings are refused.
#
# Safety net: every launch runs under timeout(1); the temporary directory
# and every process a test started are removed on every path (trap).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
CC=${CC:-cc}
# The defaults are what this file tests (the other suites turn the
# ceiling off); a test that wants others says so on its command line.
unset WARD_MAX_SANDBOXES WARD_QUEUE_TIMEOUT

if [ "$(id -u)" != 0 ]; then
	echo "SKIP admission: needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-adm.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
cleanup() {
	for p in $bgpids; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
}

# A policy without cgroups (admission does not depend on them): /usr,
# proc, dev, a tmpfs; sleep is the program.
mkdir -p "$T/tools" "$T/out" "$T/q"
chmod 777 "$T/out"
if ! "$CC" -O1 -D_GNU_SOURCE -I"$top/common" -I"$top/compiler/codegen" \
	-o "$T/tools/mkblob" "$top/tests/e2e/mkblob.c" \
	"$top/compiler/codegen/blob_write.c" "$top/compiler/codegen/landlock_rules.c" "$top/common/blob_read.c" "$top/common/answer_ranges.c" \
	"$top/common/sha256.c" "$top/common/util.c" \
	-lseccomp -lsodium 2>"$T/cc.log"; then
	fail admission/build "$(head -c 300 "$T/cc.log")"
	exit 1
fi
"$T/tools/mkblob" "$T/adm.wardb" env:PATH=/usr/bin:/bin bind:/usr:/usr:exec \
	symlink:/bin:usr/bin symlink:/lib:usr/lib symlink:/lib64:usr/lib64 \
	proc:/proc dev:/dev tmpfs:/tmp:16M:1777 || exit 1
chmod 644 "$T/adm.wardb"

q() { jq -r "$2" "$1" 2>/dev/null; }

# ------------------------------------------------------------ 8 at once
# The watcher: every few ms, the distinct pid namespaces (not ours) of
# the processes whose command line holds the marker: the target's shell
# ($0, which ward passes as given), one pid namespace per sandbox. It
# stops when $T/stop appears.
cat >"$T/watch.py" <<'EOF'
import os, sys, time
marker, stop, out = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
host = os.readlink("/proc/self/ns/pid")
most = samples = 0
while not os.path.exists(stop):
    seen = set()
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                if marker not in f.read():
                    continue
            ns = os.readlink("/proc/%s/ns/pid" % p)
        except OSError:
            continue
        if ns != host:
            seen.add(ns)
    most = max(most, len(seen))
    samples += 1
    time.sleep(0.002)
open(out, "w").write("%d %d\n" % (most, samples))
EOF
ceiling=$(($(getconf _NPROCESSORS_ONLN) * 3 / 2))
[ "$ceiling" -ge 1 ] || ceiling=1
marker=ward-adm-$$
python3 "$T/watch.py" "$marker" "$T/stop" "$T/most" &
watcher=$!
bgpids="$bgpids $watcher"
sleep 0.3
pids=
for i in 1 2 3 4 5 6 7 8; do
	# The default ceiling: neither the option nor the environment.
	env -u WARD_MAX_SANDBOXES -u WARD_QUEUE_TIMEOUT timeout -k 2 60 \
		"$WARD" --report "$T/out/r$i.json" "$T/adm.wardb" -- /bin/sh -c 'sleep 1.5; :' "$marker" \
		>/dev/null 2>"$T/e$i" </dev/null &
	pids="$pids $!"
	bgpids="$bgpids $!"
	sleep 0.01 # a defined order of arrival, for the FIFO check
done
ok=0
for p in $pids; do wait "$p" && ok=$((ok + 1)); done
touch "$T/stop"
wait "$watcher"
read -r most samples <"$T/most"
if [ "$ok" = 8 ] && [ "$most" -le "$ceiling" ] && [ "$most" -ge 2 ] && [ "$samples" -ge 20 ]; then
	pass "admission/8-at-once-at-most-$ceiling-sandboxes"
else
	fail "admission/8-at-once-at-most-$ceiling-sandboxes" \
		"$ok of 8 succeeded, at most $most sandboxes seen at once in $samples samples; $(cat "$T"/e* | head -c 300)"
fi
# Every report has its wait, and the waits agree with the ceiling: a run
# holds its slot for at least its 1.5 s of sleep after its admission, so
# a run that joined while `ceiling` others had been admitted less than
# 1.5 s before cannot have been admitted before the first of them could
# end (checked from the reports' CLOCK_MONOTONIC marks, whatever the
# machine's speed; on a quick one most runs come within 1.5 s and wait).
cat >"$T/waits.py" <<'EOF'
import json, sys
ceiling, D = int(sys.argv[1]), 1_500_000_000
qs = [json.load(open(f))["queue"] for f in sys.argv[2:]]
if any(not isinstance(q.get("ms"), int) or not q.get("admitted_ns") for q in qs):
    print("a report without its wait: %s" % [q.get("ms") for q in qs]); sys.exit(1)
forced = 0
for j in qs:
    held = [i["admitted_ns"] for i in qs if i is not j and i["admitted_ns"] <= j["ticket_ns"] < i["admitted_ns"] + D]
    if len(held) >= ceiling:
        forced += 1
        if j["admitted_ns"] < min(held) + D:
            print("admitted %d ms after joining while %d runs held the slots" % (j["ms"], len(held))); sys.exit(1)
print("%d waited for a slot, longest %d ms" % (forced, max(q["ms"] for q in qs)))
EOF
if v=$(python3 "$T/waits.py" "$ceiling" "$T"/out/r[1-8].json) &&
	[ "$(q "$T/out/r1.json" '.queue.ceiling')" = "$ceiling" ] &&
	[ "$(q "$T/out/r1.json" '.queue.dir')" = /run/ward/admission ]; then
	pass "admission/each-report-has-its-wait ($v)"
else
	fail admission/each-report-has-its-wait "$v; $(jq -c .queue "$T/out/r8.json")"
fi
# first come, first served: admitted in the order of the tickets
order=$(for i in 1 2 3 4 5 6 7 8; do
	q "$T/out/r$i.json" '"\(.queue.ticket_ns) \(.queue.admitted_ns)"'
done | sort -n | awk '$1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ { bad = 2 } NR > 1 && $2 < last { bad = bad ? bad : 1 } { last = $2 }
	END { print NR != 8 ? "only " NR " tickets" : bad == 2 ? "a report without its ticket" : bad ? "out of order" : "in order" }')
if [ "$order" = "in order" ]; then
	pass admission/first-come-first-served
else
	fail admission/first-come-first-served "$order"
fi
# the per-step timings are there
if [ "$(q "$T/out/r1.json" '[.timings_us | .prepare, .queue, .courier, .create, .spawn, .exec, .supervise, .finish, .deliver, .total | numbers] | length')" = 10 ]; then
	pass admission/report-timings
else
	fail admission/report-timings "$(jq -c .timings_us "$T/out/r1.json")"
fi

# ------------------------------------------------------------ timeout
# One slot, held by a run that sleeps; the next gives up after 300 ms.
hold() { # hold SECONDS ARGS...: a run that holds the slot of queue $T/q
	# (no timeout(1) around it: $holder must be ward itself; its sleep
	# bounds it)
	s=$1
	shift
	"$@" --max-sandboxes 1 --queue-dir "$T/q" \
		"$T/adm.wardb" -- /usr/bin/sleep "$s" >/dev/null 2>>"$T/holder.err" </dev/null &
	holder=$!
	bgpids="$bgpids $holder"
	# (until the slot is locked, not a fixed sleep: under a slow kernel,
	# qemu TCG on a loaded host, 0.5 s was not always enough)
	wait_for locked "$T/q/slot-0" || fail admission/holder-locks-slot "slot-0 never locked"
}
locked() { # locked FILE: FILE exists and a flock is held on its inode
	[ -e "$1" ] || return 1
	li=$(stat -c %i "$1")
	awk -v i="$li" '$2 == "FLOCK" { split($6, a, ":"); if (a[3] == i) f = 1 } END { exit !f }' /proc/locks
}
joined() { # joined FILE: someone holds a read lock (OFD) on FILE: in line
	[ -e "$1" ] || return 1
	li=$(stat -c %i "$1")
	awk -v i="$li" '$2 == "OFDLCK" && $4 == "READ" { split($6, a, ":"); if (a[3] == i) f = 1 } END { exit !f }' /proc/locks
}
wait_for() { # wait_for TEST FILE: up to 20 s for `TEST FILE` (joined, locked)
	n=0
	until "$1" "$2"; do
		n=$((n + 1))
		[ "$n" -le 200 ] || return 1
		sleep 0.1
	done
}
hold 20 "$WARD"
# ------------------------------------------------------------ the holder
# Root mode: the slot is locked and held by a process that is not uid 0
# (the holder, dropped to the run's ids), and no root process has the
# slot file open at all: /proc/locks names the locker of slot-0's inode,
# /proc/*/fd every process that has it open. The control: a root
# flock(1) on a file of ours is seen by the same look as uid 0.
slot_users() { # slot_users FILE: "locker-uid openers' uids" of FILE
	ino=$(stat -c %i "$1")
	lp=$(awk -v i="$ino" '$2 == "FLOCK" { split($6, a, ":"); if (a[3] == i) print $5 }' /proc/locks | head -n1)
	lu=$( [ -n "$lp" ] && awk '/^Uid:/ { print $3 }' "/proc/$lp/status" 2>/dev/null)
	ou=
	for f in /proc/[0-9]*/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$1" ] || continue
		p=${f#/proc/}
		ou="$ou $(awk '/^Uid:/ { print $3 }' "/proc/${p%%/*}/status" 2>/dev/null)"
	done
	echo "${lu:-none}${ou}"
}
touch "$T/ctl"
flock -x "$T/ctl" sleep 5 &
ctl=$!
bgpids="$bgpids $ctl"
wait_for locked "$T/ctl" || :
cu=$(slot_users "$T/ctl")
kill "$ctl" 2>/dev/null
su=$(slot_users "$T/q/slot-0")
# (locker first, then each opener: the control is root throughout; the
# slot's locker is a uid and no opener is root)
if [ "${cu%% *}" != 0 ] || [ "$cu" = 0 ]; then
	fail admission/slot-held-by-non-root "the control (a root flock) is not seen as uid 0: $cu"
elif [ "${su%% *}" = none ] || [ "${su%% *}" = 0 ] || [ "$su" = "${su%% *}" ]; then
	fail admission/slot-held-by-non-root "slot-0's locker and openers: $su"
else
	case " $su " in
	*" 0 "*) fail admission/slot-held-by-non-root "a root process has slot-0 open: $su" ;;
	*) pass "admission/slot-held-by-non-root (slot-0: uid $su; control: uid $cu)" ;;
	esac
fi
rc=0
timeout -k 2 30 "$WARD" --max-sandboxes 1 --queue-dir "$T/q" --queue-timeout 300ms \
	--report "$T/out/to.json" "$T/adm.wardb" -- /usr/bin/true >/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 124 ] && [ "$(q "$T/out/to.json" .reason)" = queue_timeout ] &&
	[ "$(q "$T/out/to.json" .exit_code)" = 124 ] &&
	[ "$(q "$T/out/to.json" .queue.timed_out)" = true ] &&
	[ "$(q "$T/out/to.json" .queue.ms)" -ge 300 ] &&
	[ "$(q "$T/out/to.json" .run_id)" = null ] &&
	grep -q 'queue timeout' "$T/e"; then
	pass admission/queue-timeout-124
else
	fail admission/queue-timeout-124 "rc=$rc $(jq -c '{reason,exit_code,queue,run_id}' "$T/out/to.json" 2>/dev/null) $(head -c 200 "$T/e")"
fi

# ------------------------------------------------------------ a signal
# (ward itself gets the one SIGTERM: timeout(1) would send it twice, and
# a second signal while the report is written cuts the report short)
rc=0
"$WARD" --max-sandboxes 1 --queue-dir "$T/q" --queue-timeout 20s \
	--report "$T/out/sig.json" "$T/adm.wardb" -- /usr/bin/true >/dev/null 2>&1 </dev/null &
w=$!
# (once it is in line: its read lock on the queue's file, not a fixed
# sleep, which a slow kernel, qemu TCG, can outlast)
wait_for joined "$T/q/queue" || fail admission/signal-ends-the-wait "it never joined the queue"
kill -TERM "$w"
wait "$w" || rc=$?
# (its queue in the report: where it waited, from the holder's JOINED)
if [ "$rc" = 143 ] && [ "$(q "$T/out/sig.json" .reason)" = interrupted ] &&
	[ "$(q "$T/out/sig.json" .queue.ceiling)" = 1 ] &&
	[ "$(q "$T/out/sig.json" .queue.dir)" = "$T/q" ] &&
	[ "$(q "$T/out/sig.json" '.queue.ticket_ns > 0')" = true ]; then
	pass admission/signal-ends-the-wait
else
	fail admission/signal-ends-the-wait "rc=$rc $(jq -c '{reason,exit_code,error,queue}' "$T/out/sig.json" 2>/dev/null)"
fi

# ------------------------------------------------------------ crashes
# A supervisor killed outright frees its slot: the next run starts at
# once (its wait is far below the holder's 20 s).
kill -9 "$holder"
wait "$holder" 2>/dev/null
rc=0
timeout -k 2 30 "$WARD" --max-sandboxes 1 --queue-dir "$T/q" --queue-timeout 2s \
	--report "$T/out/after.json" "$T/adm.wardb" -- /usr/bin/true >/dev/null 2>&1 </dev/null || rc=$?
if [ "$rc" = 0 ] && [ "$(q "$T/out/after.json" .queue.ms)" -lt 1000 ]; then
	pass admission/killed-holder-frees-its-slot
else
	fail admission/killed-holder-frees-its-slot "rc=$rc $(jq -c .queue "$T/out/after.json" 2>/dev/null)"
fi

# ------------------------------------------------------------ the holder's end
# The holder killed while its run goes on: the slot is free, so the run
# may not go on past the ceiling: it is killed (launcher_error, 125) long
# before its 20 s. The holder is found from outside: slot-0's locker in
# /proc/locks, a child of that ward (the control: it is found, and is
# not root); unharmed, such a run would sleep its 20 s and exit 0.
"$WARD" --max-sandboxes 1 --queue-dir "$T/q" --report "$T/out/hk.json" \
	"$T/adm.wardb" -- /usr/bin/sleep 20 >/dev/null 2>"$T/hk.err" </dev/null &
w=$!
bgpids="$bgpids $w"
wait_for locked "$T/q/slot-0" || fail admission/holder-killed-kills-the-run "slot-0 never locked"
ino=$(stat -c %i "$T/q/slot-0")
hp=$(awk -v i="$ino" '$2 == "FLOCK" { split($6, a, ":"); if (a[3] == i) print $5 }' /proc/locks | head -n1)
hppid=$( [ -n "$hp" ] && awk '/^PPid:/ { print $2 }' "/proc/$hp/status" 2>/dev/null)
huid=$( [ -n "$hp" ] && awk '/^Uid:/ { print $3 }' "/proc/$hp/status" 2>/dev/null)
t0=$(date +%s)
[ -n "$hp" ] && kill -9 "$hp"
rc=0
wait "$w" || rc=$?
t1=$(date +%s)
if [ -z "$hp" ] || [ "$hppid" != "$w" ] || [ "${huid:-0}" = 0 ]; then
	fail admission/holder-killed-kills-the-run "the control: no holder of ward $w found (locker ${hp:-none}, its parent ${hppid:-?}, uid ${huid:-?})"
elif [ "$rc" = 125 ] && [ $((t1 - t0)) -lt 10 ] &&
	[ "$(q "$T/out/hk.json" .reason)" = launcher_error ] &&
	grep -q "holder" "$T/hk.err"; then
	pass admission/holder-killed-kills-the-run
else
	fail admission/holder-killed-kills-the-run "rc=$rc after $((t1 - t0)) s $(jq -c '{reason,error}' "$T/out/hk.json" 2>/dev/null) $(head -c 200 "$T/hk.err")"
fi

# ------------------------------------------------------------ rootless
# Root's queue (0755, files 0644) is shared with a rootless caller, who
# only reads it: with root holding the one slot, the rootless run waits.
ls -ld "$T/q" | grep -q '^drwxr-xr-x' && [ "$(stat -c %a "$T/q/slot-0")" = 644 ] &&
	pass admission/root-queue-readable-by-all ||
	fail admission/root-queue-readable-by-all "$(ls -ld "$T/q" "$T/q/slot-0")"
hold 20 "$WARD"
rc=0
timeout -k 2 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$WARD" --max-sandboxes 1 --queue-dir "$T/q" --queue-timeout 300ms \
	--report "$T/out/rl.json" "$T/adm.wardb" -- /usr/bin/true >/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 124 ] && [ "$(q "$T/out/rl.json" .reason)" = queue_timeout ] &&
	[ "$(q "$T/out/rl.json" .mode)" = rootless ]; then
	pass admission/rootless-shares-root-queue
else
	fail admission/rootless-shares-root-queue "rc=$rc $(jq -c '{reason,mode,queue,error}' "$T/out/rl.json" 2>/dev/null) $(head -c 200 "$T/e")"
fi
kill -9 "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
# Without --queue-dir, rootless joins the host's (root's) queue.
rc=0
timeout -k 2 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$WARD" --report "$T/out/rl2.json" "$T/adm.wardb" -- /usr/bin/true >/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 0 ] && [ "$(q "$T/out/rl2.json" .queue.dir)" = /run/ward/admission ] &&
	[ "$(q "$T/out/rl2.json" .queue.host_wide)" = true ]; then
	pass admission/rootless-joins-host-queue
else
	fail admission/rootless-joins-host-queue "rc=$rc $(jq -c .queue "$T/out/rl2.json" 2>/dev/null) $(head -c 200 "$T/e")"
fi
# A queue another user could write is refused.
mkdir "$T/qbad" && chmod 777 "$T/qbad"
rc=0
timeout -k 2 30 "$WARD" --queue-dir "$T/qbad" "$T/adm.wardb" -- /usr/bin/true \
	>/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 125 ] && grep -q 'nobody else can write' "$T/e"; then
	pass admission/writable-queue-refused
else
	fail admission/writable-queue-refused "rc=$rc $(head -c 200 "$T/e")"
fi

# ------------------------------------------------------------ settings
rc=0
timeout -k 2 30 env WARD_MAX_SANDBOXES=many "$WARD" "$T/adm.wardb" -- /usr/bin/true \
	>/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 125 ] && grep -q 'WARD_MAX_SANDBOXES' "$T/e"; then
	pass admission/bad-ceiling-refused
else
	fail admission/bad-ceiling-refused "rc=$rc $(head -c 200 "$T/e")"
fi
rc=0
timeout -k 2 30 "$WARD" --max-sandboxes 0 --report "$T/out/off.json" "$T/adm.wardb" -- /usr/bin/true \
	>/dev/null 2>"$T/e" </dev/null || rc=$?
if [ "$rc" = 0 ] && [ "$(q "$T/out/off.json" .queue)" = null ]; then
	pass admission/no-ceiling
else
	fail admission/no-ceiling "rc=$rc $(jq -c .queue "$T/out/off.json" 2>/dev/null)"
fi

[ "$failures" != 0 ] && [ -s "$T/holder.err" ] && echo "# holder: $(head -c 300 "$T/holder.err")"
[ "$failures" = 0 ]
