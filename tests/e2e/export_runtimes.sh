#!/bin/sh
# tests/e2e/export_runtimes.sh: every stdlib profile as an OCI bundle that
# `wardc export --format oci --bundle` writes, run as it is by crun and by
# runc (Debian 12's, make deps), against ward running the same policy.
# The program in each is tests/export/refusal_probe.c (static, in the
# input slot): some 57 calls a sandbox should refuse, one line each with
# the errno it got. The three outputs must be identical, with at least 20
# calls answered otherwise than the kernel answers them without a filter
# (the probe run on the host as nobody: mount gets EFAULT there, for its
# NULL arguments, before any permission check), mount among them with
# EPERM: the filter refused them, not a missing capability.
#
# strict refuses the calls runc's own init makes after it loads the
# filter: runc must fail to start its bundle as written (fail closed), and
# run the bundle written with --allow-runtime-init (docs/export.md).
#
# crun 1.8 refuses a cgroup-hybrid host whose cgroup2 mount holds a
# controller ("cgroups in hybrid mode not supported, drop all controllers
# from cgroupv2"; here /sys/fs/cgroup/unified holds hugetlb), and a test
# must not move the host's controllers: crun runs in a mount namespace of
# its own where that mount is gone, so it sees a v1 host. runc 1.1 and ward
# run with the host's mounts (ward's agent-net needs the cgroup2 mount for
# its BPF).
#
# Needs root (SKIP otherwise). One line per check: PASS/FAIL/SKIP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARDC=${WARDC:-$top/$BUILD/wardc}
WARD=${WARD:-$top/$BUILD/ward}
CC=${CC:-cc}
PROFILES=${EXPORT_RUNTIMES_PROFILES:-python node shell cc strict agent-net}
failed=0

pass() { echo "PASS export-runtimes/$1"; }
fail() { echo "FAIL export-runtimes/$1: $2"; failed=1; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP export-runtimes: needs root (runtimes build namespaces and cgroups)"
	exit 0
fi
for tool in crun runc jq timeout unshare setpriv; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		fail setup "$tool is not installed (make deps)"
		exit 1
	fi
done

hybrid=0
if [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ] &&
	[ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ] &&
	[ -n "$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)" ]; then
	hybrid=1
fi

tmp=$(mktemp -d /tmp/ward-export-runtimes.XXXXXX)
# the runtimes reach the bundles as container root (host 65533)
chmod 755 "$tmp"
ids=""
cleanup() {
	for id in $ids; do
		crun --root "$tmp/crun" delete -f "$id" >/dev/null 2>&1
		runc --root "$tmp/runc" delete -f "$id" >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

mkdir -p "$tmp/in" "$tmp/crun" "$tmp/runc"
chmod 755 "$tmp/in"
if ! $CC -static -O2 -o "$tmp/in/probe" "$top/tests/export/refusal_probe.c" \
	2>"$tmp/cc.err"; then
	fail setup "cannot build the probe: $(head -c 300 "$tmp/cc.err")"
	exit 1
fi

# crun ID BUNDLE > out: crun run, with the host's cgroup2 mount hidden on a
# hybrid host (see above)
crun_run() {
	ids="$ids $1"
	if [ "$hybrid" = 1 ]; then
		timeout 60 unshare -m sh -c \
			'umount /sys/fs/cgroup/unified && exec "$@"' sh \
			crun --root "$tmp/crun" run --bundle "$2" "$1"
	else
		timeout 60 crun --root "$tmp/crun" run --bundle "$2" "$1"
	fi
}

runc_run() {
	ids="$ids $1"
	timeout 60 runc --root "$tmp/runc" run --bundle "$2" "$1"
}

# bundle NAME DIR [OPTIONS]: wardc export --bundle
bundle() {
	name=$1 dir=$2
	shift 2
	"$WARDC" export --format oci --bundle "$dir" --slot input="$tmp/in" \
		"$@" "$top/stdlib-policies/$name.ward" -- /input/probe \
		2>"$tmp/export.err"
}

# same WHAT A B: the probe's outputs are identical, and the filter
# decided enough of them (they differ from the unfiltered kernel's)
same() {
	if [ ! -s "$3" ]; then
		fail "$1" "no output: $(head -c 300 "$3.err" 2>/dev/null)"
	elif ! cmp -s "$2" "$3"; then
		fail "$1" "differs from ward: $(diff "$2" "$3" | grep '^[<>]' | head -4 | tr '\n' ' ')"
	else
		filtered=$(paste -d ' ' "$tmp/kernel" "$3" |
			awk '$1 == $3 && $2 != $4 && $4 != "ok"' | wc -l)
		if [ "$filtered" -lt 20 ]; then
			fail "$1" "only $filtered calls refused by the filter"
		elif ! grep -qx 'mount EPERM' "$3"; then
			fail "$1" "mount: $(grep '^mount ' "$3")"
		else
			pass "$1 ($filtered of $(wc -l <"$3") calls refused by the filter, each with ward's errno; mount EPERM)"
		fi
	fi
}

# what the kernel answers without a filter: the probe on the host, as
# nobody (it refuses to run as root)
setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/in/probe" \
	>"$tmp/kernel" 2>/dev/null
if [ "$(wc -l <"$tmp/kernel")" -lt 50 ] || grep -qx 'mount EPERM' "$tmp/kernel"; then
	fail setup "the probe without a filter: $(head -3 "$tmp/kernel" | tr '\n' ' ')"
	exit 1
fi

for p in $PROFILES; do
	"$WARDC" compile "$top/stdlib-policies/$p.ward" -o "$tmp/$p.wardb" 2>/dev/null
	if ! timeout 60 "$WARD" --slot input="$tmp/in" "$tmp/$p.wardb" -- \
		/input/probe >"$tmp/$p.ward" 2>"$tmp/$p.ward.err" ||
		[ ! -s "$tmp/$p.ward" ]; then
		fail "$p/ward" "ward did not run the probe: $(grep -v ASan "$tmp/$p.ward.err" | head -c 300)"
		continue
	fi
	if ! bundle "$p" "$tmp/b-$p"; then
		fail "$p/export" "$(head -c 300 "$tmp/export.err")"
		continue
	fi
	if ! [ -f "$tmp/b-$p/config.json" ] || [ -n "$(jq -r '.process.args[0] | select(. != "/input/probe")' "$tmp/b-$p/config.json")" ]; then
		fail "$p/export" "no config.json with process.args"
		continue
	fi
	crun_run "c-$$-$p" "$tmp/b-$p" >"$tmp/$p.crun" 2>"$tmp/$p.crun.err"
	same "$p/crun" "$tmp/$p.ward" "$tmp/$p.crun"

	runc_run "r-$$-$p" "$tmp/b-$p" >"$tmp/$p.runc" 2>"$tmp/$p.runc.err"
	rc=$?
	if grep -q 'cannot start it (crun can)' "$tmp/export.err"; then
		# fail closed: runc cannot start what refuses its own calls
		if [ "$rc" -ne 0 ] && ! [ -s "$tmp/$p.runc" ]; then
			pass "$p/runc-refuses-as-written (exit $rc: $(head -1 "$tmp/$p.runc.err" | cut -c1-80))"
		else
			fail "$p/runc-refuses-as-written" "runc exit $rc, output $(wc -l <"$tmp/$p.runc") lines"
		fi
		if ! bundle "$p" "$tmp/b-$p-init" --allow-runtime-init; then
			fail "$p/export-init" "$(head -c 300 "$tmp/export.err")"
			continue
		fi
		runc_run "ri-$$-$p" "$tmp/b-$p-init" >"$tmp/$p.runc" 2>"$tmp/$p.runc.err"
		same "$p/runc-allow-runtime-init" "$tmp/$p.ward" "$tmp/$p.runc"
	else
		same "$p/runc" "$tmp/$p.ward" "$tmp/$p.runc"
	fi
done
exit $failed
