# attack: files/terminal-escape
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# card: output channel
# what: seed 000's viewer attack through stdout: the program prints OSC 0
#   (the viewer's title), OSC 52 (a write to the viewer's clipboard in many
#   terminals), CSI 2J (clear the screen), a CR that overwrites the line,
#   and U+202E (right-to-left override), between two lines of text
# expect: what reaches ward's stdout holds no ESC (0x1b), BEL, CR or U+202E
#   byte; the sequences are there, visibly escaped (`\x1b]52;c;...`); the
#   text lines are intact; the report says the stream is in text mode,
#   counts the escaped bytes, and keeps the raw stream's size and SHA-256
#   (those of what the raw run below delivers)
# control: the same program under a test policy whose stdout is `raw`
#   (only that line differs) passes the ESC, BEL, CR and U+202E bytes
#   through to the caller
# if it fails: the courier's text mode (launcher/unprivileged/textsafe.c,
#   output.c), the profile's `stdout text;`

attack() {
	put esc.py <<'PY'
import sys
sys.stdout.write("before\n\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\rhidden\u202eevil\nafter\n")
PY
	sbx -- /usr/bin/python3 /input/esc.py
	check "no ESC byte reached the caller; $(why)" \
		sh -c "! grep -q \"\$(printf '\\033')\" '$SO'"
	check "no BEL or CR byte reached the caller" \
		sh -c "! grep -q \"\$(printf '\\007')\" '$SO' && ! grep -q \"\$(printf '\\r')\" '$SO'"
	check "no U+202E reached the caller" sh -c "! grep -q \"\$(printf '\\342\\200\\256')\" '$SO'"
	check "the sequences are there, escaped; $(why)" \
		grep -qF '\x1b]52;c;ZXZpbA==\x07' "$SO"
	check "the text lines are intact" sh -c "so_has() { grep -qxF -- \"\$1\" '$SO'; }; so_has before && so_has after"
	check "the report says text mode, 9 escaped bytes (ESC, BEL, CR: 1 each; U+202E: 3)" \
		report_has '.output.stdout.mode == "text" and .output.stdout.escaped == 9'
	jq -r '"\(.output.stdout.bytes) \(.output.stdout.sha256)"' "$REP" >"$CASE_T/text-digest" 2>&1
	derive_policy terminal-raw python -e 's/^[[:space:]]*stdout text;/    stdout raw;/' || {
		fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"
		return
	}
	sbx -p terminal-raw -- /usr/bin/python3 /input/esc.py
	cp "$SO" "$CASE_T/raw.out"
	control "with stdout raw, the ESC byte reaches the caller" \
		sh -c "grep -q \"\$(printf '\\033')\" '$CASE_T/raw.out'"
	# (the raw run delivers the program's bytes as they are: what the text
	# run's report must describe, the raw stream, not what was shown)
	check "the report keeps the raw stream's size and SHA-256 ($(cat "$CASE_T/text-digest"); raw: $(wc -c <"$CASE_T/raw.out") $(sha256sum <"$CASE_T/raw.out" | cut -d' ' -f1))" \
		test "$(cat "$CASE_T/text-digest")" = "$(wc -c <"$CASE_T/raw.out") $(sha256sum <"$CASE_T/raw.out" | cut -d' ' -f1)"
	control "... and the BEL, CR and U+202E bytes too" \
		sh -c "grep -q \"\$(printf '\\007')\" '$CASE_T/raw.out' && grep -q \"\$(printf '\\r')\" '$CASE_T/raw.out' && grep -q \"\$(printf '\\342\\200\\256')\" '$CASE_T/raw.out'"
}
