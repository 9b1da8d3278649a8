# attack: files/half-export
# boundary: files
# profile: python
# modes: root rootless
# requires: probe-slot output-slot export
# card: output channel
# seeds: 000-fill 000-mixed
# what: seed 000's export rule, 导出总量超限停止写入且不导出半成品 (past the
#   total, export no half-finished result), under every stdlib profile this
#   mode runs that has a writable output slot: the program fills its output
#   slot with files each under the profile's per-file cap whose sum passes
#   its total (nine 4.9 MiB files against python's 40M, five against cc's
#   20M), and the caller exports with --export-dir. (strict's program
#   cannot open a file: its one way out is stdout.)
# expect: with every profile the export directory holds nothing, the
#   manifest's status is `refused` with the reason `total-cap`, `exported`
#   is false, and the files that passed on their own are `withheld`
# control: under the same profile, one file fewer (under the total) is
#   exported whole, status `complete`: the files and the export were fine,
#   only the total refused them
# if it fails: the exporter's all-or-nothing rule and its total cap
#   (launcher/unprivileged/exporter.c); the profile's `on-violation refuse`

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
	local p caps total each n k args x ran=
	# Each profile's export caps (per-file, total), as its export section
	# says; a profile whose caps change fails the check on `total-cap`.
	caps="python:5M:40M shell:5M:40M node:5M:40M cc:5M:20M agent-net:5M:40M"
	for c in $caps; do
		p=${c%%:*}
		case $(accepted "$p") in real | nocg) ;; *) continue ;; esac
		ran="$ran $p"
		total=$(numfmt --from=iec "${c##*:}")
		each=$(($(numfmt --from=iec "$(echo "$c" | cut -d: -f2)") * 49 / 50))
		n=$((total / each + 1))
		x=$CASE_T/$p
		mkdir -p "$x"
		[ "$MODE" = rootless ] && chown "$NOBODY" "$x"

		args=()
		for k in $(seq 1 "$n"); do args+=(fill "/output/part$k.txt" "$each"); done
		rm -rf "${OUTD:?}"/*
		sbx -p "$p" -w --export-dir -w "$x/over" -- /input/atk "${args[@]}"
		check "$p: the sandbox wrote $n files of $each bytes; $(why)" \
			test "$(grep -c '^fill ok' "$SO")" = "$n"
		check "$p: the export directory holds nothing: $(ls -A "$x/over" 2>&1 | head -c 200 | tr '\n' ' ')" \
			test -d "$x/over" -a -z "$(ls -A "$x/over" 2>/dev/null)"
		check "$p: the manifest says refused for total-cap, never exported" \
			manifest "$REP" "m['status'] == 'refused' and not m['exported'] and
m['refusal']['reason'] == 'total-cap' and e('part1.txt')['verdict'] == 'withheld'"

		# control: one file fewer, under the total, leaves whole
		rm -rf "${OUTD:?}"/*
		sbx -p "$p" -w --export-dir -w "$x/under" -- /input/atk "${args[@]:0:$((3 * (n - 1)))}"
		control "$p: $((n - 1)) files are exported whole; $(why)" \
			test "$(ls "$x/under" 2>/dev/null | wc -l)" = $((n - 1))
		control "$p: its manifest is complete" \
			manifest "$REP" "m['status'] == 'complete' and m['exported']"
	done
	check "the python profile was among those run:$ran" test -n "$(echo "$ran" | grep -w python)"
}
