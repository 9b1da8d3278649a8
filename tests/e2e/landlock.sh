#!/bin/sh
# tests/e2e/landlock.sh: Landlock, the second file layer (issue 20 part 3,
# docs/spec.md 1.7.3 `landlock`, 3.4). Run from tests/e2e/run.sh, which
# builds the probe and mkblob and passes them in (PROBE_DIR, MKBLOB).
#
# The attack: a blob whose mount table has lost an entry's read-only flag
# (mkblob's `llro`: the Landlock rule is made from the entry as written,
# read-only; the mount is read-write) must still refuse the write, with
# Landlock's EACCES, and the host file must be unchanged, seen from
# outside. The controls: the same blob without Landlock lets the write
# through (so the refusal is Landlock's, not another layer's), and one whose
# mount and rule both say read-write does too. `landlock require;` with an
# ABI the kernel does not have is refused before anything runs (exit 125);
# `prefer` with it runs, and the report says the layer is incomplete. Root
# mode and rootless (uid 65534).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

if [ "$(id -u)" != 0 ]; then
	skip landlock "needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
if [ -z "${MKBLOB:-}" ] || [ -z "${PROBE_DIR:-}" ]; then
	echo "FAIL landlock: run from tests/e2e/run.sh (MKBLOB, PROBE_DIR)"
	exit 1
fi
T=$(mktemp -d /tmp/ward-landlock.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

# The kernel's ABI, as the launcher will see it (0: none). A host without
# Landlock cannot run the attack; it still runs the refusal of `require`.
abi=$("$PROBE_DIR/probe" landlock-abi | sed -n 's/^landlock-abi //p')
abi=${abi:-0}

BASE="env:PATH=/usr/bin:/bin bind:/usr:/usr:exec symlink:/bin:usr/bin
symlink:/lib:usr/lib symlink:/lib64:usr/lib64 proc:/proc dev:/dev
tmpfs:/tmp:16M:1777 bind:$PROBE_DIR:/probe:exec hostname=sandbox"
D="$T/data"
R="$T/rep/r.json" # the report, in a directory the rootless run can write
mkdir -p "$D" "$T/rep"
chmod 777 "$D"
chmod 1777 "$T/rep"

policy() { # OUT ITEM...
	out=$1
	shift
	"$MKBLOB" "$out" "$@" && chmod 644 "$out"
}
# shellcheck disable=SC2086
{
	policy "$T/attack.wardb" $BASE "bind:$D:/data:rw,llro" landlock=prefer &&
		policy "$T/nolayer.wardb" $BASE "bind:$D:/data:rw,llro" &&
		policy "$T/rw.wardb" $BASE "bind:$D:/data:rw" landlock=prefer &&
		policy "$T/require99.wardb" $BASE "bind:$D:/data:rw" \
			landlock=require:99 &&
		policy "$T/prefer99.wardb" $BASE "bind:$D:/data:rw" \
			landlock=prefer:99
} || {
	echo "FAIL landlock: mkblob"
	exit 1
}

# run MODE BLOB PROBE-ARGS...: output in $T/out, $T/err, report
# $T/r.json, status $rc.
run() {
	mode=$1
	blob=$2
	shift 2
	rm -f "$R"
	if [ "$mode" = rootless ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$WARD" --report "$R" "$blob" -- /probe/probe "$@"
	else
		set -- "$WARD" --report "$R" "$blob" -- /probe/probe "$@"
	fi
	prlimit --nproc=512 timeout -k 2 20 "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}
ll() { jq -c '.identity.landlock' "$R" 2>/dev/null; }
why() { printf 'rc=%s out=%s err=%s landlock=%s' "$rc" \
	"$(head -c 200 "$T/out" | tr '\n' '|')" \
	"$(head -c 300 "$T/err" | tr '\n' '|')" "$(ll)"; }
# fresh: the host's file, before each run
fresh() { printf 'host\n' >"$D/f" && chmod 666 "$D/f" && rm -f "$D/new"; }
unchanged() { [ "$(cat "$D/f")" = host ] && [ ! -e "$D/new" ]; }

for m in root rootless; do
	if [ "$abi" -gt 0 ]; then
		# The attack: the mount says rw, Landlock read-only.
		fresh
		run $m "$T/attack.wardb" write /data/f write /data/new
		if [ "$rc" = 0 ] && grep -qx 'write EACCES' "$T/out" &&
			[ "$(grep -c 'write EACCES' "$T/out")" = 2 ] && unchanged &&
			[ "$(jq -r '.identity.landlock.applied' "$R")" = true ] &&
			[ "$(jq -r '.identity.landlock.abi' "$R")" = "$abi" ]; then
			pass "$m/landlock-refuses-write-the-mount-allows (ABI $abi)"
		else
			fail "$m/landlock-refuses-write-the-mount-allows" \
				"host file: $(cat "$D/f" | head -c 20); $(why)"
		fi
		# Control: without the layer, the same mount table lets it
		# through -- the refusal above was Landlock's.
		fresh
		run $m "$T/nolayer.wardb" write /data/f
		if [ "$rc" = 0 ] && grep -qx 'write ok' "$T/out" &&
			[ "$(cat "$D/f")" = probe ] &&
			[ "$(jq -r '.identity.landlock.mode' "$R")" = off ]; then
			pass "$m/landlock-control-mount-alone-allows"
		else
			fail "$m/landlock-control-mount-alone-allows" "$(why)"
		fi
		# Control: both layers say read-write.
		fresh
		run $m "$T/rw.wardb" write /data/f write /data/new
		if [ "$rc" = 0 ] && [ "$(grep -c 'write ok' "$T/out")" = 2 ] &&
			[ "$(cat "$D/f")" = probe ] && [ -f "$D/new" ] &&
			[ "$(jq -r '.identity.landlock.applied' "$R")" = true ]; then
			pass "$m/landlock-control-both-rw-allow"
		else
			fail "$m/landlock-control-both-rw-allow" "$(why)"
		fi
		# prefer with an ABI above the kernel's: runs, and says the
		# layer is the kernel's subset.
		fresh
		run $m "$T/prefer99.wardb" write /data/f
		if [ "$rc" = 0 ] && grep -qx 'write ok' "$T/out" &&
			[ "$(jq -r '.identity.landlock.complete' "$R")" = false ] &&
			[ "$(jq -r '.identity.landlock.blob_abi' "$R")" = 99 ]; then
			pass "$m/landlock-prefer-runs-with-the-kernels-abi"
		else
			fail "$m/landlock-prefer-runs-with-the-kernels-abi" "$(why)"
		fi
	else
		skip "$m/landlock-refuses-write-the-mount-allows" \
			"this kernel has no Landlock"
	fi
	# require with an ABI the kernel does not have: refused, nothing ran.
	fresh
	run $m "$T/require99.wardb" write /data/f
	if [ "$rc" = 125 ] && grep -q 'requires Landlock' "$T/err" && unchanged; then
		pass "$m/landlock-require-refused-below-its-abi"
	else
		fail "$m/landlock-require-refused-below-its-abi" "$(why)"
	fi
	# A script reopens its own output streams (`echo x > /dev/stderr`):
	# the pipes are the courier's, so ward makes them writable to the
	# sandbox user; with Landlock on (pipes are not in a file tree).
	rm -f "$R"
	if [ "$m" = rootless ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD"
	else
		set -- "$WARD"
	fi
	prlimit --nproc=512 timeout -k 2 20 "$@" --report "$R" "$T/rw.wardb" -- \
		/bin/sh -c 'echo out >/dev/stdout && echo err >/dev/stderr' \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	# (the last line of stderr: under ASan, ward's code in the target
	# prints a warning there before its execve)
	if [ "$rc" = 0 ] && [ "$(cat "$T/out")" = out ] && [ "$(tail -n 1 "$T/err")" = err ]; then
		pass "$m/reopen-dev-stdout-stderr"
	else
		fail "$m/reopen-dev-stdout-stderr" "$(why)"
	fi
done

# A compiled policy with `landlock require;` (which needs ABI 6): on a
# kernel that has it, it runs and the report and explain say so; on an
# older one (Debian 12's 6.1 has ABI 2) or one without Landlock, it is
# refused before anything runs.
if [ -x "$WARDC" ]; then
	cat >"$T/p.ward" <<EOF
ward 1;
policy landlock;
use base;
identity { user 1000; group 1000; }
fs {
    landlock require;
    bind $PROBE_DIR at /probe ro exec;
    slot out at /out rw;
}
net none;
limits { memory 128M; pids 32; wall 20s; }
syscalls default allow { }
EOF
	mkdir -p "$T/out.d" && chmod 777 "$T/out.d"
	rm -f "$R"
	rc=0
	(cd "$top/stdlib-policies" && "$WARDC" compile "$T/p.ward" -o "$T/p.wardb") \
		>"$T/err" 2>&1 || rc=$?
	chmod 644 "$T/p.wardb" 2>/dev/null
	[ "$rc" = 0 ] && {
		timeout 20 "$WARD" --report "$R" --slot out="$T/out.d" \
			"$T/p.wardb" -- /probe/probe write /out/x write /probe/x \
			>"$T/out" 2>>"$T/err"
		rc=$?
	}
	if [ "$abi" -lt 6 ]; then
		if [ "$rc" = 125 ] && grep -q 'requires Landlock' "$T/err" &&
			[ ! -e "$T/out.d/x" ]; then
			pass "root/landlock-compiled-require-refused (ABI $abi)"
		else
			fail "root/landlock-compiled-require-refused" "$(why)"
		fi
	elif [ "$rc" = 0 ] &&
		grep -qx 'write ok' "$T/out" && grep -qx 'write EROFS' "$T/out" &&
		[ "$(jq -r '.identity.landlock.mode' "$R")" = require ] &&
		[ "$(jq -r '.identity.landlock.abi' "$R")" = "$abi" ] &&
		"$WARDC" explain "$T/p.wardb" | grep -q '^  mode      require'; then
		pass "root/landlock-compiled-require-runs (ABI $abi)"
	else
		fail "root/landlock-compiled-require-runs" "$(why)"
	fi
fi
