#!/bin/sh
# tests/e2e/record.sh: record mode end to end (docs/spec.md 4.9). The
# python profile's workload (tests/profiles/work/stats.py: a CSV from the
# input slot, statistics to the output slot, "rows 3000" on stdout) runs
# under `wardc compile --record` blobs with `ward --record`, in root mode
# and rootless (setpriv to 65534); `wardc suggest` turns both records into
# a policy --from the python profile, which must compile, pass `wardc lint
# --threshold 2` (the recommended threshold, man wardc), run the same
# workload to the same stdout and stats.json digests (sha256) in both
# modes, and refuse mount (errno EPERM, as its rule says). Around it: a
# recording run refuses mount and records the refusal; a recording blob
# runs only with --record and --record only with one; a flood of distinct
# ioctl requests keeps the record bounded. One line per test: "PASS
# name" or "FAIL name: why".
#
# Rootless mode uses test copies without the memory, swap, cpu and pids
# limits (cgroup limits need a delegated base; tests/profiles does the
# same). Safety net: every launch runs under timeout(1); the temporary
# directory is removed on every path (trap).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}
NOBODY=65534

if [ "$(id -u)" != 0 ]; then
	echo "SKIP record: needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-record.XXXXXX) || exit 1
chmod 755 "$T"
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

failures=0
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
}

# ------------------------------------------------------------ policies
P=$top/stdlib-policies
nocg() { sed -E '/^[[:space:]]*(memory|swap|cpu|pids)[[:space:]]/d' "$1"; }
nocg "$P/python.ward" >"$T/python-nocg.ward"
build() { # OUT SRC [--record]
	out=$1 src=$2
	shift 2
	if ! "$WARDC" compile -I "$P" "$@" "$src" -o "$T/$out" >"$T/wardc.log" 2>&1; then
		fail "compile/$out" "$(head -c 300 "$T/wardc.log")"
		return 1
	fi
	chmod 644 "$T/$out"
}
build python.wardb "$P/python.ward"
build rec-root.wardb "$P/python.ward" --record
build rec-rootless.wardb "$T/python-nocg.ward" --record

if "$WARDC" explain "$T/rec-root.wardb" | grep -q 'requires:.* record'; then
	pass compile/record-variant-declared
else
	fail compile/record-variant-declared "explain does not list requirement record"
fi

# ------------------------------------------------------------ inputs
mkdir -p "$T/in" "$T/runs"
chmod 755 "$T/in" "$T/runs"
awk 'BEGIN {
	srand(7); split("north south east west central", r, " ")
	print "id,region,units,price"
	for (i = 1; i <= 3000; i++)
		printf "%d,%s,%d,%.2f\n", i, r[int(rand() * 5) + 1], int(rand() * 500), rand() * 100
}' >"$T/in/data.csv"
cp "$top/tests/profiles/work/stats.py" "$T/in/"
cat >"$T/in/mount.py" <<'EOF'
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)
print("mount", r, ctypes.get_errno())
EOF
cat >"$T/in/flood.py" <<'EOF'
import fcntl
for i in range(200):
    for req in range(0x7000, 0x7000 + 100):
        try:
            fcntl.ioctl(1, req)
        except OSError:
            pass
print("flooded")
EOF
chmod 644 "$T/in/"*

# run MODE NAME [WARD-ARGS...] BLOB -- PROGRAM...: one launch in a run
# directory of its own ($R, the launching user's): stdout in $R/stdout,
# status in $rc.
run() {
	mode=$1 name=$2
	shift 2
	R=$T/runs/$mode-$name
	mkdir -p "$R/out"
	chmod 755 "$R"
	chmod 777 "$R/out"
	[ "$mode" = rootless ] && chown $NOBODY:$NOBODY "$R"
	if [ "$mode" = rootless ]; then
		set -- setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
			"$WARD" --report "$R/report.json" --slot input="$T/in" --slot output="$R/out" "$@"
	else
		set -- "$WARD" --report "$R/report.json" --slot input="$T/in" --slot output="$R/out" "$@"
	fi
	timeout -k 2 60 "$@" >"$R/stdout" 2>"$R/stderr" </dev/null
	rc=$?
}
why() {
	printf 'rc=%s stdout=%s stderr=%s' "$rc" "$(head -c 200 "$R/stdout" | tr '\n' '|')" \
		"$(head -c 300 "$R/stderr" | tr '\n' '|')"
}
digest() { sha256sum <"$1" | cut -d' ' -f1; }

# ------------------------------------------------------------ the base run
run root base "$T/python.wardb" -- /usr/bin/python3 /input/stats.py
if [ "$rc" = 0 ] && [ "$(cat "$R/stdout")" = "rows 3000" ]; then
	pass root/record-base-run
	WANT_OUT=$(digest "$R/stdout")
	WANT_STATS=$(digest "$R/out/stats.json")
else
	fail root/record-base-run "$(why)"
	WANT_OUT=none WANT_STATS=none
fi

# ------------------------------------------------------------ recording
for mode in root rootless; do
	rec=$T/runs/$mode-rec/rec.jsonl
	run "$mode" rec --record "$rec" "$T/rec-$mode.wardb" -- /usr/bin/python3 /input/stats.py
	p=
	if [ "$rc" != 0 ]; then
		p="$(why)"
	elif [ "$(digest "$R/stdout")" != "$WANT_OUT" ] ||
		[ "$(digest "$R/out/stats.json")" != "$WANT_STATS" ]; then
		p="the recording run's output differs from the profile's: $(why)"
	elif ! head -n 1 "$rec" | jq -e '.ward_record == 1 and .policy == "python"' >/dev/null 2>&1; then
		p="no header: $(head -c 200 "$rec")"
	elif ! tail -n 1 "$rec" | jq -e '.end.calls > 100 and .end.dropped == 0' >/dev/null 2>&1; then
		p="no end line, or too few calls: $(tail -n 1 "$rec")"
	elif ! grep -q '"syscall":"openat"' "$rec" ||
		! jq -s -e 'any(.[]; .syscall == "clone" and .args["0"] > 0)' "$rec" >/dev/null 2>&1; then
		p="openat, or clone with its flags, is not in the record"
	elif grep -q '"syscall":"mount"' "$rec"; then
		p="the record says mount ran"
	fi
	if [ -z "$p" ]; then pass "$mode/record-python-workload"; else fail "$mode/record-python-workload" "$p"; fi
	cp "$rec" "$T/$mode.jsonl"

	# A recording run is still a sandbox: mount refused, and recorded.
	rec2=$T/runs/$mode-recmount/rec.jsonl
	run "$mode" recmount --record "$rec2" "$T/rec-$mode.wardb" -- /usr/bin/python3 /input/mount.py
	if [ "$rc" = 0 ] && [ "$(cat "$R/stdout")" = "mount -1 1" ] &&
		jq -s -e 'any(.[]; .refused == "mount" and .errno == 1)' "$rec2" >/dev/null 2>&1; then
		pass "$mode/record-refuses-mount"
	else
		fail "$mode/record-refuses-mount" "$(why) record: $(grep -c . "$rec2" 2>/dev/null) lines"
	fi

	# Bounded: 20000 ioctls of 100 requests keep at most 32 entries of
	# ioctl, the rest counted in one "many".
	rec3=$T/runs/$mode-flood/rec.jsonl
	run "$mode" flood --record "$rec3" "$T/rec-$mode.wardb" -- /usr/bin/python3 /input/flood.py
	n=$(jq -c 'select(.syscall == "ioctl")' "$rec3" 2>/dev/null | wc -l)
	many=$(jq -r 'select(.syscall == "ioctl" and .args == "many") | .count' "$rec3" 2>/dev/null)
	if [ "$rc" = 0 ] && [ "$n" -le 34 ] && [ "${many:-0}" -ge 10000 ] &&
		[ "$(wc -l <"$rec3")" -lt 200 ]; then
		pass "$mode/record-bounded"
	else
		fail "$mode/record-bounded" "$(why) ioctl entries=$n many=$many lines=$(wc -l <"$rec3" 2>/dev/null)"
	fi
done

# Only a recording run runs a recording blob, and --record only one.
run root norec "$T/rec-root.wardb" -- /usr/bin/python3 /input/stats.py
if [ "$rc" = 125 ] && grep -q 'recording variant' "$R/stderr" && [ ! -s "$R/stdout" ]; then
	pass root/record-blob-needs-record
else
	fail root/record-blob-needs-record "$(why)"
fi
run root recplain --record "$T/runs/plain.jsonl" "$T/python.wardb" -- /usr/bin/python3 /input/stats.py
if [ "$rc" = 125 ] && grep -q 'no recording program' "$R/stderr"; then
	pass root/record-needs-record-blob
else
	fail root/record-needs-record-blob "$(why)"
fi

# ------------------------------------------------------------ suggest
S=$T/suggested.ward
if "$WARDC" suggest "$T/root.jsonl" "$T/rootless.jsonl" --from "$P/python.ward" -o "$S" >"$T/suggest.log" 2>&1 &&
	"$WARDC" compile -I "$P" "$S" -o "$T/suggested.wardb" >>"$T/suggest.log" 2>&1; then
	pass compile/suggested-policy
else
	fail compile/suggested-policy "$(head -c 400 "$T/suggest.log")"
fi
chmod 644 "$T/suggested.wardb" 2>/dev/null
if "$WARDC" lint -I "$P" --threshold 2 "$S" >"$T/lint.log" 2>&1; then
	pass lint/suggested-policy-threshold-2
else
	fail lint/suggested-policy-threshold-2 "$(tail -c 400 "$T/lint.log")"
fi
if grep -q '^    allow .*\(mount\|bpf\|unshare\|ptrace\|init_module\|kexec\)' "$S" ||
	! grep -q 'errno EPERM .*@mount' "$S" || ! grep -q "# seen in $T/root.jsonl, $T/rootless.jsonl" "$S"; then
	fail suggest/dangerous-never-and-comments "$(grep -n 'allow\|EPERM\|seen' "$S" | head -c 600)"
else
	pass suggest/dangerous-never-and-comments
fi
# Without --from: a skeleton of the stdlib's defaults, which checks and
# lints the same.
if "$WARDC" suggest "$T/root.jsonl" -o "$T/skeleton.ward" >"$T/suggest.log" 2>&1 &&
	"$WARDC" lint -I "$P" --threshold 2 "$T/skeleton.ward" >>"$T/suggest.log" 2>&1; then
	pass suggest/skeleton-policy
else
	fail suggest/skeleton-policy "$(tail -c 400 "$T/suggest.log")"
fi
nocg "$S" >"$T/suggested-nocg.ward"
build suggested-nocg.wardb "$T/suggested-nocg.ward"
for mode in root rootless; do
	b=$T/suggested.wardb
	[ "$mode" = rootless ] && b=$T/suggested-nocg.wardb
	run "$mode" suggested "$b" -- /usr/bin/python3 /input/stats.py
	if [ "$rc" = 0 ] && [ "$(digest "$R/stdout")" = "$WANT_OUT" ] &&
		[ "$(digest "$R/out/stats.json")" = "$WANT_STATS" ]; then
		pass "$mode/suggested-same-digests"
	else
		fail "$mode/suggested-same-digests" "$(why) denials: $(jq -c .denials "$R/report.json" 2>/dev/null | head -c 300)"
	fi
	run "$mode" sugmount "$b" -- /usr/bin/python3 /input/mount.py
	if [ "$rc" = 0 ] && [ "$(cat "$R/stdout")" = "mount -1 1" ]; then
		pass "$mode/suggested-refuses-mount"
	else
		fail "$mode/suggested-refuses-mount" "$(why)"
	fi
done

[ "$failures" = 0 ]
