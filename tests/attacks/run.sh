#!/bin/sh
# tests/attacks/run.sh [PATTERN...]: the attack suite: ward-attack
# (tools/ward-attack) run over the stdlib profiles the attacks were written
# for (each attack file's `# profile:`), each compiled from
# stdlib-policies/ with its source given for the test copies. Every file
# tests/attacks/BOUNDARY/NAME.sh is one attack (see README.md). One line
# per attack and mode, "PASS MODE/NAME", "FAIL MODE/NAME: why" or
# "SKIP MODE/NAME: why", closing with "N passed, N failed". PATTERNs
# (shell globs on NAME) select attacks; ATTACK_PROFILES (lib/world.sh) the
# profiles, ATTACK_MODE (root or rootless) the mode.
#
# Needs root (root mode, setpriv for rootless mode, network namespaces,
# the outer cgroups). The safety net is described in README.md.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
export BUILD
WARDC=${WARDC:-$TOP/$BUILD/wardc}
A="$TOP/tests/attacks"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP attack: needs root (root mode, rootless by setpriv, namespaces, cgroups)"
	exit 0
fi
passed=0 failed=0 skipped=0
finish() {
	echo "$passed passed, $failed failed ($skipped skipped)"
	[ "$failed" = 0 ]
	exit
}
if [ ! -x "$WARDC" ]; then
	echo "FAIL attack/setup: no $WARDC (make BUILD=$BUILD)"
	failed=1
	finish
fi
T=$(mktemp -d /tmp/ward-attack-suite.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

# docs/attacks.md is generated from the attack headers: a stale table fails
# (the whole suite's check; not a selection's: under the VM's TCG it costs
# minutes).
if [ $# -gt 0 ]; then
	:
elif sh "$A/gen-doc.sh" >"$T/attacks.md" 2>"$T/gen.err"; then
	if cmp -s "$T/attacks.md" "$TOP/docs/attacks.md"; then
		echo "PASS doc/attacks-table"
		passed=$((passed + 1))
	else
		echo "FAIL doc/attacks-table: docs/attacks.md differs from the attack headers (sh tests/attacks/gen-doc.sh >docs/attacks.md)"
		failed=$((failed + 1))
	fi
else
	echo "FAIL doc/attacks-table: $(head -c 300 "$T/gen.err")"
	failed=$((failed + 1))
fi

# shellcheck source=lib/catalogue.sh
. "$A/lib/catalogue.sh"
sel=()
for p in "$@"; do sel+=(--attack "$p"); done
# ATTACK_MODE=root or rootless: that mode only (tests/vm: the rootless
# runs there are the test copies without cgroup limits, which the host's
# suite runs already).
[ -n "${ATTACK_MODE:-}" ] && sel+=(--mode "$ATTACK_MODE")
# The profiles that have attacks (of the selection).
homes=$(attack_files | while read -r f; do
	n=$(header "$f" attack)
	if [ $# -gt 0 ]; then
		ok=0
		for p in "$@"; do
			# shellcheck disable=SC2254
			case $n in $p) ok=1 ;; esac
		done
		[ $ok = 1 ] || continue
	fi
	home "$f"
done | awk '!s[$0]++')

for p in $homes; do
	echo "# the $p profile"
	"$WARDC" compile -I "$TOP/stdlib-policies" "$TOP/stdlib-policies/$p.ward" -o "$T/$p.wardb" 2>"$T/err" || {
		echo "FAIL setup/compile-$p: $(head -c 300 "$T/err")"
		failed=$((failed + 1))
		continue
	}
	"$TOP/tools/ward-attack" --name "$p" --source "$TOP/stdlib-policies/$p.ward" \
		"${sel[@]}" "$T/$p.wardb" >"$T/out" 2>&1 &
	wait $!
	rc=$?
	# Its PASS/FAIL/SKIP lines and notes; the scorecard and closing line
	# are summed here.
	sed -n '/^== scorecard/q; p' "$T/out" | grep -v '^[0-9]* passed, '
	passed=$((passed + $(grep -c '^PASS ' "$T/out")))
	failed=$((failed + $(grep -c '^FAIL ' "$T/out")))
	skipped=$((skipped + $(grep -c '^SKIP ' "$T/out")))
	if [ $rc -ge 2 ] && ! grep -q '^FAIL ' "$T/out"; then
		echo "FAIL setup/ward-attack-$p: exit $rc: $(tail -c 300 "$T/out" | tr '\n' '|')"
		failed=$((failed + 1))
	fi
done

# ward-attack judged as a tool (its "tool/..." lines), with the whole
# suite or a selection that names it.
want_tool=1
if [ $# -gt 0 ]; then
	want_tool=0
	for p in "$@"; do
		# shellcheck disable=SC2254
		case tool/x in $p) want_tool=1 ;; esac
	done
fi
if [ $want_tool = 1 ]; then
	bash "$A/tool-test.sh" >"$T/out" 2>&1
	grep -v '^[0-9]* passed, ' "$T/out"
	passed=$((passed + $(grep -c '^PASS ' "$T/out")))
	failed=$((failed + $(grep -c '^FAIL ' "$T/out")))
fi
finish
