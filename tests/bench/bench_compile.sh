#!/bin/sh
# Compile time of each stdlib profile, process start included (issue 3's
# target: a median under 20 ms), and of `wardc check` alone. hyperfine runs
# each command 30 times after 3 warm-ups; the median is printed.
set -eu
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
WARDC=$BUILD/wardc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v hyperfine >/dev/null 2>&1; then
	echo "hyperfine is missing (make deps)"
	exit 1
fi
median() { # JSON -> median in ms
	python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$1"
}
printf '%-10s %12s %12s %10s\n' profile "compile ms" "check ms" "blob bytes"
for src in stdlib-policies/*.ward; do
	grep -q '^policy ' "$src" || continue
	name=$(basename "$src" .ward)
	hyperfine -N --style none --warmup 3 --runs 30 --export-json "$tmp/c.json" \
		"$WARDC compile $src -o $tmp/$name.wardb" >/dev/null 2>&1
	hyperfine -N --style none --warmup 3 --runs 30 --export-json "$tmp/k.json" \
		"$WARDC check $src" >/dev/null 2>&1
	printf '%-10s %12s %12s %10s\n' "$name" "$(median "$tmp/c.json")" \
		"$(median "$tmp/k.json")" "$(wc -c <"$tmp/$name.wardb")"
done
