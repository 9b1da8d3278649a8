#!/bin/sh
# tests/e2e/export_crun.sh: `wardc export --format oci` proven by a real
# consumer. The config.json of tests/export/crun.ward (root.path and
# process.args set, nothing else touched) is run by crun with a static
# probe (tests/export/crun_probe.c) as the only file of the root
# filesystem; what the probe prints and how it ends are compared, from
# outside, with what the policy says: allowed calls work, denied ones get
# the policy's errno, the killed one kills, and the cgroup limits are the
# policy's. Needs root (SKIP otherwise) and crun (make deps).
#
# One line per check: PASS name / FAIL name: why / SKIP name: why.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARDC=${WARDC:-$top/$BUILD/wardc}
CC=${CC:-cc}
failed=0

pass() { echo "PASS export-crun/$1"; }
fail() { echo "FAIL export-crun/$1: $2"; failed=1; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP export-crun: needs root (crun builds namespaces and cgroups)"
	exit 0
fi
if ! command -v crun >/dev/null 2>&1; then
	fail setup "crun is not installed (make deps installs it)"
	exit 1
fi

# A hybrid cgroup host (v1 controllers, cgroup2 at /sys/fs/cgroup/unified
# with a controller of its own) is refused by crun 1.8: run in a mount
# namespace of our own where the cgroup2 mount is gone, so that crun
# uses the v1 hierarchies. Nothing of the host changes.
if [ -z "${WARD_EXPORT_CRUN_NS:-}" ] &&
	[ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ] &&
	[ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; then
	WARD_EXPORT_CRUN_NS=1 exec unshare -m sh -c \
		'umount /sys/fs/cgroup/unified && exec sh "$0"' "$0"
fi

tmp=$(mktemp -d /tmp/ward-export-crun.XXXXXX)
# the container's user (host uid 65534) must reach the root filesystem
chmod 755 "$tmp"
state=$tmp/state
ids=""
cgpath=/ward-export-crun-$$
cleanup() {
	for id in $ids; do
		crun --root "$state" delete -f "$id" >/dev/null 2>&1
	done
	for d in /sys/fs/cgroup/*"$cgpath" /sys/fs/cgroup"$cgpath"; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# ---------------------------------------------------------------- bundle
rootfs=$tmp/rootfs
mkdir -p "$rootfs/usr" "$rootfs/proc" "$rootfs/dev" "$rootfs/tmp" "$state"
if ! $CC -static -O2 -o "$rootfs/probe" "$top/tests/export/crun_probe.c" \
	2>"$tmp/cc.err"; then
	fail setup "cannot build the static probe: $(head -c 300 "$tmp/cc.err")"
	exit 1
fi
if ! "$WARDC" export --format oci -I "$top/stdlib-policies" \
	"$top/tests/export/crun.ward" -o "$tmp/exported.json" \
	2>"$tmp/export.err"; then
	fail export "wardc export failed: $(head -c 300 "$tmp/export.err")"
	exit 1
fi
pass export

# The caller's part: root.path and process.args (and, for this test, a
# cgroup path of its own so that cleanup can find it).
config() { # args as a JSON list
	jq --arg root "$rootfs" --arg cg "$cgpath" --argjson args "$1" \
		'.root.path = $root | .process.args = $args |
		 .linux.cgroupsPath = $cg' "$tmp/exported.json" >"$tmp/config.json"
}

# run ID ARGS: crun run in the bundle; the probe's output in $tmp/out,
# the exit status in $rc.
run() {
	config "$2"
	ids="$ids $1"
	(cd "$tmp" && timeout 60 crun --root "$state" run --bundle "$tmp" \
		--config "$tmp/config.json" "$1" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	crun --root "$state" delete -f "$1" >/dev/null 2>&1
}

# --------------------------------------------------- what the policy says
run probe '["/probe"]'
if [ "$rc" -ne 0 ]; then
	fail run "crun run exited $rc: $(head -c 400 "$tmp/err")"
else
	pass run
fi
cat >"$tmp/want" <<'EOF'
getpid: ok
getppid: ok
acct: ENOSYS
chroot: EXDEV
socket unix: ok
socket inet: EPERM
socket inet6: ENOSYS
personality query: ok
personality set: ENOSYS
write /usr: EROFS
mkdir /new: EROFS
write /tmp: ok
uid 65534 gid 65534
hostname probe
PROBE=exported
nofile 64 64
NoNewPrivs:	1
CapEff:	0000000000000000
CapBnd:	0000000000000000
Seccomp:	2
EOF
# one check per line: what it proves is in its name
while IFS= read -r want; do
	name=$(printf '%s' "$want" | sed 's/[:=].*//; s/ /-/g')
	if grep -qxF -- "$want" "$tmp/out"; then
		pass "$name"
	else
		label=$(printf '%s' "$want" | sed 's/[:=].*//; s/ [0-9].*//')
		got=$(grep -F -- "$label" "$tmp/out" | head -1)
		fail "$name" "wanted \`$want\`, got \`${got:-nothing}\`"
	fi
done <"$tmp/want"
if [ "$(wc -l <"$tmp/out")" -ne "$(wc -l <"$tmp/want")" ]; then
	fail output "$(wc -l <"$tmp/out") lines, wanted $(wc -l <"$tmp/want")"
fi

# ------------------------------------------------------------ the kill
run probe-kill '["/probe", "kill"]'
if [ "$rc" -eq $((128 + 31)) ] && grep -qx 'ptrace: calling' "$tmp/out" &&
	! grep -q survived "$tmp/out"; then
	pass kill
else
	fail kill "exit $rc (wanted 159, SIGSYS), output: $(tr '\n' ' ' <"$tmp/out")"
fi

# ------------------------------------------------------- cgroup limits
# crun create builds the container (cgroups included) and waits before
# exec: read the limits from the host's cgroup files.
config '["/probe"]'
ids="$ids probe-limits"
if (cd "$tmp" && timeout 60 crun --root "$state" create --bundle "$tmp" \
	--config "$tmp/config.json" probe-limits >/dev/null 2>"$tmp/err"); then
	limit() { # v1-file v2-file
		if [ -f "/sys/fs/cgroup/memory$cgpath/$1" ] ||
			[ -f "/sys/fs/cgroup/pids$cgpath/$1" ] ||
			[ -f "/sys/fs/cgroup/cpu$cgpath/$1" ]; then
			cat /sys/fs/cgroup/*"$cgpath/$1" 2>/dev/null | head -1
		else
			cat "/sys/fs/cgroup$cgpath/$2" 2>/dev/null
		fi
	}
	check_limit() { # name want v1-file v2-file
		got=$(limit "$3" "$4")
		if [ "$got" = "$2" ]; then
			pass "$1"
		else
			fail "$1" "wanted $2, got ${got:-nothing}"
		fi
	}
	if [ -d "/sys/fs/cgroup/memory$cgpath" ]; then
		check_limit memory 134217728 memory.limit_in_bytes -
		check_limit swap-0 134217728 memory.memsw.limit_in_bytes -
		check_limit pids 32 pids.max -
		check_limit cpu-quota 50000 cpu.cfs_quota_us -
		check_limit cpu-period 100000 cpu.cfs_period_us -
	else
		check_limit memory 134217728 - memory.max
		check_limit swap-0 0 - memory.swap.max
		check_limit pids 32 - pids.max
		check_limit cpu "50000 100000" - cpu.max
	fi
else
	fail create "crun create failed: $(head -c 400 "$tmp/err")"
fi
crun --root "$state" delete -f probe-limits >/dev/null 2>&1

exit $failed
