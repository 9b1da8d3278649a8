#!/bin/sh
# tests/golden/run.sh: diagnostics, byte for byte.
#
# For each tests/golden/cases/NAME.ward, run `$WARDC check --color=never
# [ARGS] NAME.ward` inside tests/golden/cases/ and compare its stderr with
# NAME.err. ARGS come from a first line `# args: ...` (for example
# `# args: -I lib -fdiagnostics-format=json`). The exit status must be 1
# when NAME.err holds an error, 0 otherwise. The source tree's absolute path
# prints as <top>, so the expected files do not depend on the checkout.
#
#   sh tests/golden/run.sh            run every case
#   sh tests/golden/run.sh NAME...    run some
#   UPDATE=1 sh tests/golden/run.sh   rewrite the .err files (then review
#                                     them: they are the specification)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
WARDC=${WARDC:-$top/build/wardc}
case $WARDC in /*) ;; *) WARDC=$top/$WARDC ;; esac
cd "$here/cases" || exit 2
unset WARD_PATH
export LC_ALL=C

if [ ! -x "$WARDC" ]; then
	echo "FAIL golden: no wardc at $WARDC"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

run_case() { # NAME
	name=$1
	file=$name.ward
	args=$(sed -n '1s/^# args: //p' "$file")
	# shellcheck disable=SC2086 # ARGS are words
	"$WARDC" check --color=never $args "$file" >/dev/null 2>"$tmp/raw"
	rc=$?
	sed "s|$top|<top>|g" "$tmp/raw" >"$tmp/got"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/got" "$name.err"
		echo "PASS golden/$name (updated)"
		return
	fi
	if [ ! -f "$name.err" ]; then
		echo "FAIL golden/$name: no $name.err (run with UPDATE=1)"
		failed=$((failed + 1))
		return
	fi
	want_rc=0
	if grep -q -e ' error:' -e '"severity":"error"' -e '^wardc: ' \
		"$name.err"; then
		want_rc=1
	fi
	if ! cmp -s "$name.err" "$tmp/got"; then
		echo "FAIL golden/$name: the diagnostics differ (- expected, + got)"
		diff -u "$name.err" "$tmp/got" | sed '1,2d; s/^/    /'
		failed=$((failed + 1))
	elif [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL golden/$name: exit status $rc, expected $want_rc"
		failed=$((failed + 1))
	else
		echo "PASS golden/$name"
	fi
}

# The Landlock part of `wardc explain` (its other parts hold the compiler's
# version and digests): tests/golden/explain/NAME.ward against NAME.explain.
explain_case() { # NAME
	name=$1
	(cd "$here/explain" && "$WARDC" explain -I "$top/stdlib-policies" \
		"$name.ward") 2>&1 | sed -n '/^landlock (/,/^$/p' >"$tmp/got"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/got" "$here/explain/$name.explain"
		echo "PASS golden/explain/$name (updated)"
	elif cmp -s "$here/explain/$name.explain" "$tmp/got"; then
		echo "PASS golden/explain/$name"
	else
		echo "FAIL golden/explain/$name: explain differs (- expected, + got)"
		diff -u "$here/explain/$name.explain" "$tmp/got" | sed '1,2d; s/^/    /'
		failed=$((failed + 1))
	fi
}

if [ $# -gt 0 ]; then
	for n in "$@"; do run_case "${n%.ward}"; done
else
	for f in *.ward; do
		[ -f "$f" ] || continue
		run_case "${f%.ward}"
	done
	for f in "$here"/explain/*.ward; do
		[ -f "$f" ] || continue
		n=${f##*/}
		explain_case "${n%.ward}"
	done
fi
[ "$failed" -eq 0 ]
