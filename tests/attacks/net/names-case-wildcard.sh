# attack: net/names-case-wildcard
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: net python3
# seeds: 000-network
# what: names that try to pass for allowed ones, under the profile's test
#   copy allowing index.test and *.files.test by name: the allowed name in
#   another case with the root's dot (INDEX.Test.), a deeper name under the
#   wildcard (A.B.Files.Test, which the spec allows: one or more labels),
#   and names a loose match would let by: OTHER.Test., the wildcard's apex
#   files.test, evilfiles.test (ends in "files.test") and
#   a.files.test.evil.test (holds it); the harness's DNS server answers all
# expect: the first two resolve (asked of the server as the normal name),
#   the other four get no address and the server is never asked for them;
#   the report has them refused
# control: outside the sandbox, with the same resolver, all six resolve
# if it fails: common/dnsname_match.c, the stub's question reading
#   (launcher/unprivileged/dns.c read_question)

attack() {
	local names n bad="OTHER.Test. files.test evilfiles.test a.files.test.evil.test"
	[ "$NAMES_WORLD" = 1 ] || {
		fail "the names world did not come up: $(head -c 300 "$T/net/names-setup.err")"
		return
	}
	names_policy || { fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"; return; }
	check "the test copy's network adds the two names only (wardc diff)" names_diff_ok
	put resolve.py <<'PY'
import socket, sys
for n in sys.argv[1:]:
    try:
        print("resolve", n, socket.gethostbyname(n))
    except OSError:
        print("resolve", n, "none")
PY
	NET_RESOLV=$NAMES_RESOLV
	names_note
	# shellcheck disable=SC2086
	sbx -p names-net -- python3 /input/resolve.py INDEX.Test. A.B.Files.Test $bad
	names=$(names_seen | tr '\n' ';')
	check "the allowed name in another case with a dot resolves; $(why)" \
		so_has "resolve INDEX.Test. $ADDR_NAMES"
	check "a name two labels under the wildcard resolves; $(why)" \
		so_has "resolve A.B.Files.Test $ADDR_NAMES"
	for n in $bad; do
		check "$n gets no address; $(why)" so_has "resolve $n none"
	done
	check "the server was asked for the allowed ones, as normal names: $names" \
		sh -c "echo '$names' | grep -q 'query index.test 1 ' && echo '$names' | grep -q 'query a.b.files.test 1 '"
	check "the server was asked for none of the others: $names" \
		not grep -qE 'query (other\.test|files\.test|evilfiles\.test|a\.files\.test\.evil\.test) ' <<<"$names"
	check "the report has them refused" report_has \
		'[.network.dns[] | select(.verdict == "refused") | .name] | sort == ["a.files.test.evil.test", "evilfiles.test", "files.test", "other.test"]'
	# shellcheck disable=SC2086
	outside -- /usr/bin/python3 "$IN/resolve.py" INDEX.Test. A.B.Files.Test $bad
	NET_RESOLV=
	control "outside, all six resolve; $(cwhy)" \
		test "$(grep -c " $ADDR_NAMES\$" "$CO")" = 6
}
