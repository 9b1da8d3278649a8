# attack: files/csv-formula
# boundary: files
# profile: python
# modes: root rootless
# requires: python3 output-slot export
# card: output channel
# seeds: 000-mixed
# what: seed 000's viewer attack through an exported file: the program
#   writes results.csv whose cells start formulas a spreadsheet runs when
#   the caller opens it (`=HYPERLINK(...)` to the attacker's host,
#   `@SUM(...)`, `+cmd|...`), beside clean.csv whose only signed cell is a
#   number (-3); the caller exports with --export-dir
# expect: the export is complete (CSV is allowed: a formula is flagged,
#   not refused) and the manifest flags results.csv with the warning
#   `csv-formula`, its count of cells (3) and the first one's row and
#   column (2, 2), and counts one flagged file; clean.csv has no warning
# control: the exported results.csv holds the formula cells byte for byte
#   (a spreadsheet would run them: the flag is what tells the caller), and
#   a number that starts with `-` is not taken for a formula (clean.csv)
# if it fails: the exporter's CSV scan (launcher/unprivileged/export_csv.c)
#   and where the exporter records it (launcher/unprivileged/exporter.c)

# manifest REPORT EXPR: EXPR (Python) holds for the report's one manifest
# (m; e(PATH) an entry).
manifest() {
	python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["export"][0]
def e(p):
    return next((x for x in m["entries"] if x["path"] == p), {})
def w(p):
    return [x for x in e(p).get("warnings") or [] if x.get("warning") == "csv-formula"]
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
PY
}

attack() {
	local x=$CASE_T/x
	mkdir -p "$x"
	[ "$MODE" = rootless ] && chown "$NOBODY" "$x"
	put csv.py <<'PY'
open("/output/results.csv", "w").write(
    'name,total\n'
    'alice,"=HYPERLINK(""http://198.51.100.7/x"",""open"")"\n'
    'bob,@SUM(A1:A3)\n'
    'carol,+cmd|\' /C calc\'!A0\n')
open("/output/clean.csv", "w").write("name,total\nalice,-3\nbob,4\n")
print("written")
PY
	sbx -w --export-dir -w "$x/export" -- python3 /input/csv.py
	check "the sandbox wrote them; $(why)" so_has written
	check "the export is complete; $(jq -c '.export[0] | {status, exported, flagged}' "$REP" 2>&1)" \
		manifest "$REP" "m['status'] == 'complete' and m['exported'] and m['flagged'] == 1"
	check "the manifest flags results.csv: 3 formula cells, the first at row 2, column 2; $(jq -c '.export[0].entries[] | select(.path == "results.csv")' "$REP" 2>&1 | head -c 300)" \
		manifest "$REP" "len(w('results.csv')) == 1 and w('results.csv')[0]['cells'] == 3 and
w('results.csv')[0]['row'] == 2 and w('results.csv')[0]['column'] == 2"
	check "clean.csv has no warning" manifest "$REP" "w('clean.csv') == [] and e('clean.csv')['verdict'] == 'exported'"
	control "the exported results.csv holds the formula cells as written" \
		grep -qF '"=HYPERLINK(""http://198.51.100.7/x"",""open"")"' "$x/export/results.csv"
	control "... and clean.csv its negative number" grep -qx 'alice,-3' "$x/export/clean.csv"
}
