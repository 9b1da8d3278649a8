# attack: resources/stdout-flood
# boundary: resources
# profile: python
# modes: root
# needs: the real profile (output caps)
# what: 100 MB on stdout (the seeds' "巨量 stdout"), then, in a second
#   run, 10 MB, both of numbered lines the harness can regenerate
# expect: 100 MB: the run is killed past the output ceiling (64 MiB):
#   reason `output_limit` (137), ward delivers exactly the first 1 MiB of
#   the stream, the report says truncated. 10 MB: the run exits 0, ward
#   delivers the first 1 MiB, and the report has the stream's full size,
#   the SHA-256 of the whole stream (the harness computes it
#   independently) and its last 4 KiB as the tail
# control: outside, the same program writes all 100 MB: the size check
#   would see a missing cap
# if it fails: the supervisor's output pipes (caps, ceiling, digest,
#   tail: launcher, part 4.5 of the spec)

attack() {
	needs_real python || return
	put flood.py <<'PY'
import sys
n = int(sys.argv[1]) // 20
out = sys.stdout.buffer
for i in range(0, n, 5000):
    out.write(b"".join(b"ward-flood-%08d\n" % j for j in range(i, min(i + 5000, n))))
PY
	/usr/bin/python3 "$IN/flood.py" 10000000 >"$CASE_T/10mb"
	sbx -- python3 /input/flood.py 100000000
	check "100 MB: reason output_limit, 137; $(jq -c '{reason,flags,exit_code}' "$REP")" \
		report_has '.reason == "output_limit" and .exit_code == 137'
	check "ward delivered exactly the first 1 MiB ($(stat -c %s "$SO") bytes)" \
		cmp -s "$SO" <(head -c 1048576 "$CASE_T/10mb")
	check "the report says truncated; $(jq -c '.output.stdout | del(.tail)' "$REP")" \
		report_has '.output.stdout.truncated == true and .output.stdout.kept == 1048576'
	sbx -- python3 /input/flood.py 10000000
	check "10 MB: exited 0; $(jq -c '{reason,exit_code}' "$REP")" report_has '.reason == "exited" and .exit_code == 0'
	check "10 MB: the first 1 MiB delivered" cmp -s "$SO" <(head -c 1048576 "$CASE_T/10mb")
	check "10 MB: size and SHA-256 of the whole stream; $(jq -c '.output.stdout | del(.tail)' "$REP")" \
		report_has ".output.stdout.bytes == 10000000 and .output.stdout.sha256 == \"$(sha256sum <"$CASE_T/10mb" | cut -c1-64)\""
	check "10 MB: the tail is the last 4 KiB" \
		test "$(jq -r .output.stdout.tail "$REP")" = "$(tail -c 4096 "$CASE_T/10mb")"
	outside -- sh -c "/usr/bin/python3 '$IN/flood.py' 100000000 | wc -c"
	control "outside, all 100 MB are written; $(cwhy)" co_has 100000000
}
