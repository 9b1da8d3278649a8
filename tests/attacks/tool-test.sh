#!/bin/bash
# tests/attacks/tool-test.sh: ward-attack judged as a tool (run by
# tests/attacks/run.sh, which makes these "tool/..." lines part of the
# attack suite). Copies of the python profile each weaker in one way
# (/etc bound read-write; mount allowed) must make it exit non-zero and
# name exactly the attacks they break; --baseline against the python
# profile's own scorecard must name exactly what changed; the node, shell
# and strict profiles must skip only what they give no way to run, each
# with its reason. Needs root.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
export BUILD
WARDC=${WARDC:-$TOP/$BUILD/wardc}
TOOL=$TOP/tools/ward-attack
T=$(mktemp -d /tmp/ward-attack-tool.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
passed=0 failed=0
ok() { echo "PASS tool/$1" && passed=$((passed + 1)); }
ko() { echo "FAIL tool/$1: $2" && failed=$((failed + 1)); }

compile() { # NAME SRC
	"$WARDC" compile -I "$TOP/stdlib-policies" "$2" -o "$T/$1.wardb" 2>"$T/err" || {
		ko "compile-$1" "$(head -c 300 "$T/err")"
		return 1
	}
}
S=$TOP/stdlib-policies
# The weaker copies, each one change from python (wardc diff shows it).
sed -e 's/^policy python;/policy python-etc-rw;/' \
	-e 's|^    tmpfs /tmp size 100M mode 1777;|    bind /etc rw;\n&|' "$S/python.ward" >"$T/etc-rw.ward"
sed -e 's/^policy python;/policy python-mount;/' \
	-e 's/errno EPERM @privileged, @mount,/allow mount, umount2;\n    errno EPERM @privileged,/' \
	"$S/python.ward" >"$T/mount.ward"
compile python "$S/python.ward" && compile etc-rw "$T/etc-rw.ward" && compile mount "$T/mount.ward" ||
	{ echo "$passed passed, $failed failed" && exit 1; }
# Each copy is weaker in one way only: what `wardc diff` shows.
d=$("$WARDC" diff "$T/python.wardb" "$T/etc-rw.wardb" | grep '^  [-+~] ')
# (the mount and its Landlock rule, which repeats it)
want=$(printf '%s\n%s' "  + /etc: bind /etc rw,noexec,nosuid,nodev" "  + /etc: read write truncate create remove rename")
if [ "$d" = "$want" ]; then ok copy-etc-rw; else ko copy-etc-rw "wardc diff: $d"; fi
d=$("$WARDC" diff "$T/python.wardb" "$T/mount.wardb" | grep '^  [-+~] ' | tr '\n' '|')
if [ "$d" = "  + mount: errno EPERM log -> allow|  + umount2: errno EPERM log -> allow|" ]; then
	ok copy-mount
else
	ko copy-mount "wardc diff: $d"
fi

SET=(--attack files/write-outside-workspace --attack identity/mount --attack files/env-secret)
# run NAME ARGS...: the tool, its output in $T/NAME.out, status in $T/NAME.rc
run() {
	local n=$1
	shift
	"$TOOL" "$@" >"$T/$n.out" 2>&1
	echo $? >"$T/$n.rc"
}
outcomes() { # JSON: "mode/id outcome" lines
	jq -r '.attacks[] | "\(.mode)/\(.id) \(.outcome)"' "$1" | sort
}

# The python profile itself: everything holds, exit 0.
run python "${SET[@]}" --json "$T/python.json" --junit "$T/python.xml" "$T/python.wardb"
if [ "$(cat "$T/python.rc")" = 0 ] && [ "$(outcomes "$T/python.json" | grep -cv ' held$')" = 0 ] &&
	[ "$(jq '.attacks | length' "$T/python.json")" = 6 ]; then
	ok python-holds
else
	ko python-holds "exit $(cat "$T/python.rc"): $(grep -E '^(FAIL|SKIP)' "$T/python.out" | head -3 | tr '\n' '|')"
fi
if xmllint --noout "$T/python.xml" 2>"$T/err" && grep -q '<testcase classname="identity" name="root/identity/mount">' "$T/python.xml"; then
	ok junit
else
	ko junit "$(head -c 300 "$T/err")"
fi
# Every boundary of seed 000 on the scorecard, and the seeds' rows.
miss=
for b in files network resources identity lifecycle "output channel"; do
	grep -q "^-- $b: " "$T/python.out" || miss="$miss $b"
done
for r in 000-secret 000-network 000-runaway 000-fill 000-traversal 000-mixed 004-reverse-shell \
	004-fork-bomb 004-disk-fill 004-intranet-probe 004-privilege; do
	grep -q "^   $r " "$T/python.out" || miss="$miss $r"
done
if [ -z "$miss" ]; then ok scorecard-rows; else ko scorecard-rows "missing:$miss"; fi

# broken COPY WANT...: the copy makes the tool exit 1 and break exactly WANT.
broken() {
	local c=$1 got want
	shift
	run "$c" "${SET[@]}" --source "$T/$c.ward" --json "$T/$c.json" --baseline "$T/python.json" "$T/$c.wardb"
	got=$(outcomes "$T/$c.json" | awk '$2 == "broke" { print $1 }' | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$(cat "$T/$c.rc")" = 1 ] && [ "$got" = "$want" ]; then
		ok "$c-breaks"
	else
		ko "$c-breaks" "exit $(cat "$T/$c.rc"), broke: $got (want $want)"
	fi
	local named=1 w
	for w in "$@"; do grep -q "^FAIL $w: " "$T/$c.out" || named=0; done
	if [ $named = 1 ]; then ok "$c-names-them"; else ko "$c-names-them" "$(grep '^FAIL' "$T/$c.out" | cut -c1-200 | tr '\n' '|')"; fi
	# --baseline names exactly what changed.
	got=$(sed -n 's/^CHANGED \([^:]*\): held -> broke$/\1/p' "$T/$c.out" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ] && [ "$(grep -c '^CHANGED ' "$T/$c.out")" = $# ]; then
		ok "$c-baseline"
	else
		ko "$c-baseline" "$(grep '^CHANGED\|^== against' "$T/$c.out" | tr '\n' '|')"
	fi
}
broken etc-rw root/files/write-outside-workspace rootless/files/write-outside-workspace
broken mount root/identity/mount rootless/identity/mount

# The node, shell and strict profiles: what skips, and why.
for p in node shell strict; do
	compile "$p" "$S/$p.ward" || continue
	run "$p" --plan "$T/$p.wardb"
	# What each gives no way to run: no network allow-list (all three);
	# strict runs no interpreter at all (only programs of its input slot).
	case $p in
	strict) allowed='the policy has no network allow-list|the policy does not run (python3|sh|bash) ' ;;
	*) allowed='the policy has no network allow-list' ;;
	esac
	bad=$(grep '^SKIP ' "$T/$p.out" | cut -d' ' -f3- | grep -vE "^($allowed)" | head -3)
	runs=$(grep -c '^RUN ' "$T/$p.out")
	nets=$(grep '^SKIP ' "$T/$p.out" | grep -c 'no network allow-list')
	if [ "$(cat "$T/$p.rc")" = 0 ] && [ -z "$bad" ] && [ "$runs" -gt 0 ] && [ "$nets" = 20 ]; then
		ok "$p-skips-only-what-it-cannot-run"
	else
		ko "$p-skips-only-what-it-cannot-run" "exit $(cat "$T/$p.rc"), $runs run, other skips: $(printf '%s' "$bad" | tr '\n' '|')"
	fi
done
# strict runs the attacks that need only its input slot's programs.
if grep -q '^RUN root/identity/mount$' "$T/strict.out" && grep -q '^SKIP root/files/env-secret: the policy does not run python3' "$T/strict.out"; then
	ok strict-runs-probe-programs
else
	ko strict-runs-probe-programs "$(grep 'identity/mount\|files/env-secret' "$T/strict.out" | tr '\n' '|')"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
