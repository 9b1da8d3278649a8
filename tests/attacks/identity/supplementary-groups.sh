# attack: identity/supplementary-groups
# boundary: identity
# profile: python
# modes: rootless
# requires: probe-slot
# seeds: 004-privilege
# what: a caller with a supplementary group (here adm, gid 4) starts ward
#   rootless; an unprivileged user namespace cannot drop it (setgroups is
#   denied), so the sandbox would read files of that group: the program
#   reads a root:adm 0640 file in its input slot
# expect: ward refuses to run (exit 125) with a message that names the
#   group and the way out (setpriv --clear-groups); the file's content
#   appears nowhere
# control: the same caller under a test policy that says `groups keep;`
#   (that one line added) reads the file, and the report's measured
#   identity lists the group as the program's /proc/self/status shows it
#   (the overflow gid: the policy names no group, so the list is not
#   copied from it), and `host_groups` names gid 4
# if it fails: ward_priv_check_groups (launcher/core/privilege.c), the
#   policy's `groups` (identity)

attack() {
	local secret
	secret="adm-only-$(rand_hex 8)"
	printf '%s\n' "$secret" >"$IN/adm.log"
	chown 0:4 "$IN/adm.log" && chmod 0640 "$IN/adm.log"
	outside -u root -- setpriv --reuid="$HUID" --regid="$HUID" --groups=4 \
		"$WARD" --report "$CASE_T/rep/groups.json" --slot "input=$IN" \
		--slot "output=$OUTD" "$(policy_path python)" -- /bin/cat /input/adm.log
	check "ward refused (exit 125); control rc=$crc" test "$crc" = 125
	check "the message names the group and the way out: $(head -c 300 "$CE")" \
		sh -c "grep -q 'adm (4)' '$CE' && grep -q 'clear-groups' '$CE'"
	check "the file's content appears nowhere" \
		sh -c "! grep -rqaF '$secret' '$CO' '$CE' '$OUTD' '$CASE_T/rep/groups.json'"
	derive_policy groups-keep python -e '$a identity { groups keep; }' || {
		fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"
		return
	}
	outside -u root -- setpriv --reuid="$HUID" --regid="$HUID" --groups=4 \
		"$WARD" --report "$CASE_T/rep/keep.json" --slot "input=$IN" \
		--slot "output=$OUTD" "$T/pol/groups-keep.wardb" -- /bin/cat /input/adm.log /proc/self/status
	control "with groups keep, the sandbox reads the file (rc $crc)" co_has "$secret"
	# (measured, not copied from the policy, which names no group: the
	# report's list is the one the kernel shows the program, where the
	# unmapped gid 4 is the overflow gid)
	local seen
	seen=$(awk '$1 == "Groups:" { $1 = ""; print }' "$CO" | tr -s ' ' '\n' | grep . | tr '\n' ' ')
	control "and the report lists the group as the program sees it ([$seen]: $(jq -c .identity.groups "$CASE_T/rep/keep.json" 2>&1))" \
		test -n "$seen" -a "$(jq -r '.identity.groups | map(tostring) | join(" ")' "$CASE_T/rep/keep.json" 2>/dev/null) " = "$seen"
	control "... and by its host gid: $(jq -c .identity.host_groups "$CASE_T/rep/keep.json" 2>&1)" \
		jq -e '.identity.host_groups == [4]' "$CASE_T/rep/keep.json"
	rm -f "$IN/adm.log"
}
