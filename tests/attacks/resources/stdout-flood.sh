# attack: resources/stdout-flood
# boundary: resources
# profile: python
# modes: root
# requires: python3
# card: output channel
# seeds: 000-fill
# needs: the real profile (output caps)
# what: 100 MB on stdout (the seeds' "巨量 stdout"), then 3 MB (issue 17:
#   3 MiB on a 1 MiB cap), both of numbered lines the harness can
#   regenerate; then 10 MB under a test policy that is the python profile
#   with `stdout-at-cap truncate` (only that line differs)
# expect: 100 MB and 3 MB: the run stops at the cap (the profile's
#   `stdout-at-cap kill`, seed 004: stop at 1 MB with an error): reason
#   `output_limit` (137), ward delivers exactly the first 1 MiB of the
#   stream, the report says truncated and flags output_truncated. 10 MB
#   under truncate: the run exits 0, ward delivers the first 1 MiB, the
#   flag output_truncated, and the report has the stream's full size, the
#   SHA-256 of the whole stream (the harness computes it independently)
#   and its last 4 KiB as the tail
# control: outside, the same program writes all 100 MB: the size check
#   would see a missing cap
# if it fails: the courier's output pipes (caps, ceiling, digest, tail:
#   launcher/unprivileged/output.c, part 4.5 of the spec); the profile's
#   `stdout-at-cap kill`

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
	sbx -- python3 /input/flood.py 3000000
	check "3 MB: reason output_limit, 137, flag output_truncated; $(jq -c '{reason,flags,exit_code}' "$REP")" \
		report_has '.reason == "output_limit" and .exit_code == 137 and (.flags | index("output_truncated") != null)'
	check "3 MB: ward delivered exactly the first 1 MiB ($(stat -c %s "$SO") bytes)" \
		cmp -s "$SO" <(head -c 1048576 "$CASE_T/10mb")
	derive_policy python-truncate python -e 's/stdout-at-cap kill;/stdout-at-cap truncate;/' || {
		fail "the test policy: $(head -c 300 "$T/pol/err")"
		return
	}
	sbx -p python-truncate -- python3 /input/flood.py 10000000
	check "10 MB under truncate: exited 0, flag output_truncated; $(jq -c '{reason,flags,exit_code}' "$REP")" \
		report_has '.reason == "exited" and .exit_code == 0 and (.flags | index("output_truncated") != null)'
	check "10 MB: the first 1 MiB delivered" cmp -s "$SO" <(head -c 1048576 "$CASE_T/10mb")
	check "10 MB: size and SHA-256 of the whole stream; $(jq -c '.output.stdout | del(.tail)' "$REP")" \
		report_has ".output.stdout.bytes == 10000000 and .output.stdout.sha256 == \"$(sha256sum <"$CASE_T/10mb" | cut -c1-64)\""
	check "10 MB: the tail is the last 4 KiB" \
		test "$(jq -r .output.stdout.tail "$REP")" = "$(tail -c 4096 "$CASE_T/10mb")"
	outside -- sh -c "/usr/bin/python3 '$IN/flood.py' 100000000 | wc -c"
	control "outside, all 100 MB are written; $(cwhy)" co_has 100000000
}
