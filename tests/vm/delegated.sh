#!/bin/sh
# tests/vm/delegated.sh: rootless ward with cgroup limits under a
# delegated cgroup2 subtree, as `systemd-run --user --scope -p
# Delegate=yes -- ward ...` puts it: ward alone in a cgroup whose
# directory and cgroup.procs, cgroup.subtree_control and cgroup.threads
# belong to the user. Needs root (to delegate) and pure cgroup2 with the
# memory, pids and cpu controllers given to the root's children (the VM of
# tests/vm/run.sh). One line per test.
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
cg=/sys/fs/cgroup

if [ "$(id -u)" != 0 ] || ! grep -q "^cgroup2 $cg " /proc/mounts ||
	grep -q ' cgroup ' /proc/mounts; then
	echo "SKIP rootless-delegated: needs root and pure cgroup2 at $cg"
	exit 0
fi
T=$(mktemp -d /tmp/ward-deleg.XXXXXX) || exit 1
chmod 755 "$T"
D=$cg/ward-deleg-$$
cleanup() {
	# the delegated subtree and whatever is left in it, children first
	for i in 1 2 3 4 5; do
		# shellcheck disable=SC2046
		kill -9 $(cat $(find "$D" -name cgroup.procs 2>/dev/null) 2>/dev/null) 2>/dev/null
		find "$D" -depth -type d -exec rmdir {} + 2>/dev/null
		[ -d "$D" ] || break
		sleep 0.2
	done
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

# The safety net: 1 GiB and 512 tasks for everything below $D; each run
# gets a scope of its own below it, delegated as systemd delegates a
# scope with Delegate=yes (a new one per `systemd-run --scope`).
mkdir "$D" || exit 1
echo 1G >"$D/memory.max"
echo 512 >"$D/pids.max"
echo "+memory +pids +cpu" >"$D/cgroup.subtree_control"
nscope=0
scope() { # a fresh delegated scope, in $S
	nscope=$((nscope + 1))
	S=$D/scope-$nscope
	mkdir "$S" && chown 65534:65534 "$S" "$S/cgroup.procs" \
		"$S/cgroup.subtree_control" "$S/cgroup.threads"
}

mkdir -p "$T/out"
chmod 777 "$T/out"
compile() { # NAME LIMITS
	cat >"$T/$1.ward" <<EOF
ward 1;
policy $1;
use base;
identity { user 1000; group 1000; hostname "sandbox"; capabilities none; }
fs { tmpfs /tmp size 16M mode 1777; }
net none;
limits { $2 }
syscalls default allow { errno EPERM keyctl, add_key, request_key; }
EOF
	"$WARDC" compile "$T/$1.ward" -o "$T/$1.wardb" >"$T/wardc.log" 2>&1 || {
		fail "rootless-delegated/compile-$1" "$(head -c 300 "$T/wardc.log")"
		exit 1
	}
	chmod 644 "$T/$1.wardb"
}
compile mem "memory 64M; swap 0; wall 60s;"
compile pids "pids 32; wall 60s;"
compile cpu "cpu 0.5; wall 3s;"

# run CGROUP ARGS...: ward as 65534, alone in CGROUP (written there by the
# shell that then becomes ward), under timeout(1).
run() {
	where=$1
	shift
	rm -f "$T/out/r.json"
	rc=0
	timeout -k 2 120 sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$where" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$WARD" --report "$T/out/r.json" "$@" >"$T/o" 2>"$T/e" </dev/null || rc=$?
}
q() { jq -r "$1" "$T/out/r.json" 2>/dev/null; }
why() { printf 'rc=%s %s err=%s procs=[%s]' "$rc" "$(jq -c '{reason,flags,cgroup,cleanup}' "$T/out/r.json" 2>/dev/null | head -c 300)" \
	"$(head -c 400 "$T/e" | tr '\n' '|')" "$(cat "$S/cgroup.procs" "$S"/*/cgroup.procs 2>/dev/null | tr '\n' ' ')"; }
runs_left() { find "$D" -type d -name 'run-*' | wc -l; }

scope
run "$S" "$T/mem.wardb" -- /usr/bin/python3 -c 'x = bytearray(1 << 30)'
if [ "$rc" = 137 ] && [ "$(q .reason)" = oom_killed ] && [ "$(q .mode)" = rootless ] &&
	[ "$(q '.cgroup.version.memory')" = 2 ] &&
	[ "$(q .cleanup.cgroup_removed)" = true ] && [ "$(runs_left)" = 0 ]; then
	pass rootless-delegated/memory-oom-killed
else
	fail rootless-delegated/memory-oom-killed "$(why)"
fi
# ward moved itself into a leaf of the delegated cgroup and enabled the
# controllers below it (the no-internal-processes rule)
if [ -d "$S/supervisor" ] && grep -q memory "$S/cgroup.subtree_control"; then
	pass rootless-delegated/self-move-into-leaf
else
	fail rootless-delegated/self-move-into-leaf "$(ls "$S") subtree=$(cat "$S/cgroup.subtree_control")"
fi

scope
run "$S" "$T/pids.wardb" -- /bin/sh -c 'f() { f | f & }; f; sleep 2; exit 0'
if [ "$(q '.flags | index("pids_limit") != null')" = true ] && [ "$(q .pids_refused)" -gt 0 ] &&
	[ "$(q .peaks.pids)" -le 32 ] && [ "$(runs_left)" = 0 ]; then
	pass rootless-delegated/fork-bomb-pids-limit
else
	fail rootless-delegated/fork-bomb-pids-limit "$(why)"
fi

scope
run "$S" "$T/cpu.wardb" -- /bin/sh -c 'while :; do :; done'
used=$(($(q .peaks.cpu_user_usec) + $(q .peaks.cpu_system_usec)))
wall=$(q .peaks.wall_ms)
share=$((used / (wall > 0 ? wall : 1) / 10))
if [ "$(q .reason)" = timeout ] && [ "$share" -ge 30 ] && [ "$share" -le 65 ] &&
	[ "$(q .peaks.cpu_throttled_periods)" -gt 5 ]; then
	pass "rootless-delegated/cpu-half-core ($share%)"
else
	fail rootless-delegated/cpu-half-core "share=$share% $(why)"
fi

# Without a delegation, refused before anything exists, saying how to get
# one.
N=$cg/ward-nodeleg-$$
mkdir "$N"
run "$N" "$T/mem.wardb" -- /bin/true
rmdir "$N" 2>/dev/null
if [ "$rc" = 125 ] && grep -q 'Delegate=yes' "$T/e" && [ "$(q .cgroup)" = null ]; then
	pass rootless-delegated/not-delegated-refused
else
	fail rootless-delegated/not-delegated-refused "$(why)"
fi

[ "$failures" = 0 ]
