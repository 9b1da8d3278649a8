#!/bin/sh
# tests/e2e/outcomes.sh: every limit is on the record (issue 24, seed 000:
# "CPU, memory, disk, processes and wall time", the peaks and what was
# exceeded). Run from tests/e2e/run.sh, as root, and rootless as uid 65534.
#
#   disk     a full /tmp is the flag disk_full; a file cut at `filesize`
#            is the flag filesize_limit; peaks.mounts lists every writable
#            mount with its bytes at the end and at most
#   slot     a read-write slot is a tmpfs: mountinfo names no host path;
#            what was there comes in, what the sandbox writes comes back,
#            what it deletes stays on the host
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP outcomes: needs root (and setpriv for rootless mode)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-outcomes.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

cat >"$T/p.ward" <<'EOF'
ward 1;
policy outcomes;
use base;
identity { user 1000; group 1000; }
fs {
    tmpfs /tmp size 4M mode 1777;
    slot out at /out rw size 8M;
}
net none;
limits { filesize 2M; wall 20s; stdout text; }
syscalls default allow { }
EOF
if ! "$WARDC" compile "$T/p.ward" -o "$T/p.wardb" >"$T/wardc.log" 2>&1; then
	fail compile "$(head -c 300 "$T/wardc.log")"
	exit 1
fi
chmod 644 "$T/p.wardb"

q() { jq -r "$1" "$T/r.json" 2>/dev/null; }

for m in root rootless; do
	rm -rf "$T/out" "$T/r.json" "$T/rep"
	mkdir -p "$T/out" "$T/rep"
	chmod 1777 "$T/rep"
	echo before >"$T/out/kept.txt"
	echo gone >"$T/out/removed.txt"
	chown -R 65534:65534 "$T/out"
	set -- "$WARD" --report "$T/rep/r.json" --slot out="$T/out" "$T/p.wardb" -- \
		/bin/sh -c 'cat /out/kept.txt
			rm /out/removed.txt; echo new >/out/new.txt
			dd if=/dev/zero of=/tmp/a bs=1M count=3 2>/dev/null
			dd if=/dev/zero of=/tmp/b bs=1M count=3 2>/dev/null
			trap "" XFSZ; dd if=/dev/zero of=/out/cut bs=1M count=3 2>/dev/null
			grep " /out " /proc/self/mountinfo'
	if [ $m = rootless ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	fi
	timeout 60 "$@" >"$T/so" 2>"$T/se"
	rc=$?
	cp "$T/rep/r.json" "$T/r.json" 2>/dev/null
	why="rc=$rc $(head -c 300 "$T/se" | tr '\n' '|') $(jq -c '{reason, flags, m: .peaks.mounts}' "$T/r.json" 2>/dev/null | head -c 600)"
	if [ "$rc" = 0 ] && [ "$(q '.flags | index("disk_full") != null')" = true ] &&
		[ "$(q '.peaks.mounts[] | select(.path == "/tmp") | .full')" = true ] &&
		[ "$(q '.peaks.mounts[] | select(.path == "/tmp") | .size')" = 4194304 ]; then
		pass "$m/outcomes-tmp-full-flag"
	else
		fail "$m/outcomes-tmp-full-flag" "$why"
	fi
	if [ "$(q '.flags | index("filesize_limit") != null')" = true ] &&
		[ "$(q '.peaks.mounts[] | select(.path == "/out") | .file_at_filesize')" = cut ]; then
		pass "$m/outcomes-filesize-flag"
	else
		fail "$m/outcomes-filesize-flag" "$why"
	fi
	if [ "$(q '.peaks.mounts | length')" = 2 ] &&
		[ "$(q '.peaks.mounts[] | select(.path == "/out") | .bytes_peak >= 2097152')" = true ]; then
		pass "$m/outcomes-peaks-per-mount"
	else
		fail "$m/outcomes-peaks-per-mount" "$why"
	fi
	# the slot: a tmpfs (no host path in mountinfo), filled and copied
	# back; a deletion inside is kept on the host
	if grep -qx before "$T/so" && grep -q ' / /out .* - tmpfs ' "$T/so" &&
		! grep -qF "$T/out" "$T/so" &&
		[ "$(cat "$T/out/new.txt" 2>/dev/null)" = new ] &&
		[ -f "$T/out/removed.txt" ] &&
		[ "$(stat -c %s "$T/out/cut" 2>/dev/null)" = 2097152 ] &&
		[ "$(q '.peaks.mounts[] | select(.path == "/out") | .deleted_inside_kept')" = 1 ]; then
		pass "$m/outcomes-slot-is-a-tmpfs-copied-back"
	else
		fail "$m/outcomes-slot-is-a-tmpfs-copied-back" "$(head -c 300 "$T/so" | tr '\n' '|'); $(ls "$T/out" | tr '\n' ' '); $why"
	fi
done

# Rootless, a read-write slot the caller cannot write is refused before
# anything runs, with the fix in the message; the directory is untouched.
rm -rf "$T/ro" && mkdir -p "$T/ro" && chmod 755 "$T/ro" && echo x >"$T/ro/keep"
timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" \
	--slot out="$T/ro" "$T/p.wardb" -- /bin/sh -c 'echo ran; echo y >/out/new' \
	>"$T/so" 2>"$T/se"
rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && ! grep -q ran "$T/so" &&
	grep -q 'cannot write' "$T/se" && grep -q 'chown 65534:65534' "$T/se" &&
	[ "$(ls "$T/ro")" = keep ]; then
	pass "rootless/outcomes-unwritable-slot-refused"
else
	fail "rootless/outcomes-unwritable-slot-refused" "rc=$rc $(head -c 300 "$T/se" | tr '\n' '|') $(ls "$T/ro" | tr '\n' ' ')"
fi
# control: the same directory given to that user is accepted and written
chown -R 65534:65534 "$T/ro"
timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" \
	--slot out="$T/ro" "$T/p.wardb" -- /bin/sh -c 'echo y >/out/new' \
	>"$T/so" 2>"$T/se"
rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$T/ro/new" 2>/dev/null)" = y ]; then
	pass "rootless/outcomes-writable-slot-control"
else
	fail "rootless/outcomes-writable-slot-control" "rc=$rc $(head -c 300 "$T/se" | tr '\n' '|')"
fi
