#!/bin/sh
# make demo: compile the stdlib, show what the default policy (python)
# allows, then run the main job under it: a Python analysis that reads a CSV
# from the read-only `input` slot (a copy, --input) and writes statistics to
# the `output` slot (a fresh directory of the run's workspace), exported
# under the policy's `export` rules (--export-dir), with the manifest and
# the run report.
set -eu
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
WARDC=$BUILD/wardc
WARD=$BUILD/ward
work=$(mktemp -d /tmp/ward-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

echo "== compiling the stdlib profiles"
# (pip-install leaves its index to the user: set here as its header does)
. tests/lib/stdlib_defines.sh
for src in stdlib-policies/*.ward; do
	grep -q '^policy ' "$src" || continue
	name=$(basename "$src" .ward)
	# shellcheck disable=SC2046
	$WARDC compile $(stdlib_defines "$src") "$src" -o "$work/$name.wardb"
	printf '  %-12s %s\n' "$name" "$(sha256sum "$work/$name.wardb" | cut -c1-16)"
done

echo
echo "== wardc explain python"
$WARDC explain "$work/python.wardb"

echo
echo "== the main job: python3 under the python profile"
mkdir -p "$work/input"
cat > "$work/input/sales.csv" <<'CSV'
region,units,price
north,12,3.50
south,7,4.25
north,3,3.50
east,20,2.75
south,11,4.25
CSV
cat > "$work/input/main.py" <<'PY'
import csv, json, statistics
rows = list(csv.DictReader(open("/input/sales.csv")))
by_region = {}
for r in rows:
    by_region.setdefault(r["region"], []).append(int(r["units"]) * float(r["price"]))
stats = {k: {"orders": len(v), "revenue": round(sum(v), 2),
             "mean": round(statistics.mean(v), 2)} for k, v in sorted(by_region.items())}
json.dump(stats, open("/output/stats.json", "w"), indent=2)
print("regions:", ", ".join(stats))
print("total revenue:", round(sum(s["revenue"] for s in stats.values()), 2))
PY
chmod 0755 "$work"
# The input is copied into the run's workspace; the output slot is a fresh
# directory there, exported afterwards into $work/export.
set +e
$WARD --input input="$work/input" --export-dir "$work/export" \
	--manifest "$work/manifest.json" --report "$work/report.json" \
	"$work/python.wardb" -- /usr/bin/python3 /input/main.py
rc=$?
set -e
echo "(ward exited $rc)"
if [ -f "$work/export/stats.json" ]; then
	echo "== exported by the sandbox (--export-dir), with sha256sum"
	(cd "$work/export" && sha256sum -- *)
	echo "== stats.json"
	cat "$work/export/stats.json"
	echo
fi
if [ -f "$work/manifest.json" ]; then
	echo "== the export manifest (--manifest)"
	if command -v jq >/dev/null 2>&1; then
		jq -c '.[] | {slot, exported, files, bytes}, (.entries[] |
			{path, size, sha256, type, verdict, reason})' "$work/manifest.json"
	else
		cat "$work/manifest.json"
	fi
fi
if [ -f "$work/report.json" ]; then
	echo
	echo "== the run report (--report)"
	if command -v jq >/dev/null 2>&1; then
		jq . "$work/report.json"
	else
		cat "$work/report.json"
	fi
fi
exit $rc
