# attack: files/zip-slip
# boundary: files
# profile: python
# modes: root rootless
# requires: python3 output-slot export
# card: output channel
# seeds: 000-traversal 000-mixed
# what: under a test policy that is the python profile with `zip` and
#   "*.zip" added to its export rule (nothing else: `wardc diff` says so),
#   writes slip.zip into its output slot, a zip whose one entry is
#   ../../../../etc/cron.d/evil (the seeds' path traversal through an
#   archive, 压缩包路径穿越), beside a harmless results.csv; the caller
#   exports with --export-dir
# expect: the manifest refuses slip.zip as `archive-path` and names the
#   entry; all or nothing: the export directory holds nothing (results.csv
#   is withheld) and the status is `refused`
# control: the raw slip.zip is in the output slot with its `..` entry as
#   written (read outside with Python's zipfile), and under the same test
#   policy a run that writes a zip whose entry is results/table.csv has it
#   exported, status `complete`: zip was allowed, only the entry refused it
# if it fails: the exporter's archive inspection
#   (launcher/unprivileged/export_archive.c) and where the exporter calls
#   it (launcher/unprivileged/exporter.c)

# manifest REPORT EXPR: EXPR (Python) holds for the report's one manifest
# (m; e(PATH) an entry).
manifest() {
	python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["export"][0]
def e(p):
    return next((x for x in m["entries"] if x["path"] == p), {})
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
PY
}

attack() {
	local base x=$CASE_T/x
	derive_policy python-zip python \
		-e 's/names "\*\.csv",/names "*.zip", "*.csv",/' \
		-e 's/types text, png;/types text, png, zip;/' || {
		fail "the test policy: $(head -c 300 "$T/pol/err")"
		return
	}
	base=$T/pol/python-zip.base.wardb
	"$WARDC" diff "$base" "$T/pol/python-zip.wardb" |
		grep '^  [-+~] ' >"$CASE_T/diff"
	check "the test policy only adds zip to the export: $(tr '\n' '|' <"$CASE_T/diff")" \
		test "$(cat "$CASE_T/diff")" = "$(printf '  + output: type zip: allowed\n  + output: name "*.zip": allowed')"
	mkdir -p "$x"
	[ "$MODE" = rootless ] && chown "$NOBODY" "$x"

	put slip.py <<'PY'
import sys, zipfile
with zipfile.ZipFile("/output/" + sys.argv[1], "w") as z:
    z.writestr(sys.argv[2], "* * * * * root touch /tmp/pwned\n")
open("/output/results.csv", "w").write("a,b\n1,2\n")
print("written")
PY
	sbx -p python-zip -w --export-dir -w "$x/export" -- \
		python3 /input/slip.py slip.zip ../../../../etc/cron.d/evil
	check "the sandbox wrote it; $(why)" so_has written
	check "the export directory holds nothing: $(ls -A "$x/export" 2>&1 | tr '\n' ' ')" \
		test -d "$x/export" -a -z "$(ls -A "$x/export" 2>/dev/null)"
	check "the manifest refuses slip.zip as archive-path, naming the entry" \
		manifest "$REP" "e('slip.zip')['reason'] == 'archive-path' and
'../../../../etc/cron.d/evil' in e('slip.zip')['detail']"
	check "the manifest says refused, never exported" \
		manifest "$REP" "m['status'] == 'refused' and not m['exported'] and
m['refusal']['path'] == 'slip.zip' and e('results.csv')['verdict'] == 'withheld'"
	check "nothing named evil on the host's side" \
		test -z "$(find "$x" -name evil 2>/dev/null)"

	# control: the archive in the slot is the attack, as written...
	outside -u root -- python3 -c 'import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).namelist())' "$OUTD/slip.zip"
	control "the slot holds slip.zip with its .. entry; $(cwhy)" \
		co_has "['../../../../etc/cron.d/evil']"
	# ...and zip was allowed: the same policy exports a zip whose entry
	# stays inside
	rm -f "$OUTD/slip.zip" "$OUTD/results.csv"
	sbx -p python-zip -w --export-dir -w "$x/control" -- \
		python3 /input/slip.py results.zip results/table.csv
	control "under the same policy a zip with a safe entry is exported; $(why)" \
		test -f "$x/control/results.zip" -a -f "$x/control/results.csv"
	control "its manifest is complete" \
		manifest "$REP" "m['status'] == 'complete' and m['exported'] and
e('results.zip')['archive'] == {'entries': 1, 'unpacked': 32}"
}
