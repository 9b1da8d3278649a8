# attack: identity/uid-not-root
# boundary: identity
# profile: shell
# modes: root rootless
# requires: bash
# seeds: 004-privilege
# what: the seed's checklist: `id -u` and the capability sets of the
#   sandboxed shell, and who owns on the host a file it writes into the
#   output slot
# expect: uid and gid 1000 inside (the stdlib's sandbox user), no
#   capability in any set (CapInh/Prm/Eff/Bnd/Amb all 0), NoNewPrivs 1,
#   Seccomp 2; the file on the host belongs to the run's unprivileged host
#   uid (as root: a uid of its own, never 0; rootless: the caller's)
# control: outside as root, the same commands show uid 0 and a full
#   capability set: the observation tells root from not
# if it fails: the identity section, the id maps (launcher/core/ns.c), the
#   capability drop and securebits (launcher/core/init.c), --host-uid

attack() {
	put whoami.sh <<'SH'
echo "uid $(id -u) $(id -g)"
grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\t' ' '
[ -d /output ] && echo x >/output/owned
SH
	sbx -- bash /input/whoami.sh
	check "uid and gid 1000; $(why)" so_has "uid 1000 1000"
	for c in CapInh CapPrm CapEff CapBnd CapAmb; do
		check "$c empty; $(why)" so_has "$c: 0000000000000000"
	done
	check "NoNewPrivs; $(why)" so_has "NoNewPrivs: 1"
	check "seccomp filter; $(why)" so_has "Seccomp: 2"
	check "the file belongs to host uid $HUID, not root" \
		test "$(stat -c %u:%g "$OUTD/owned" 2>&1)" = "$HUID:$HUID"
	mkdir -m 777 "$CASE_T/ctl"
	outside -u root -- sh -c "sed 's|/output|$CASE_T/ctl|' '$IN/whoami.sh' | sh"
	control "outside as root, uid 0; $(cwhy)" co_has "uid 0 0"
	control "outside as root, capabilities; $(cwhy)" grep -q '^CapEff: 000001ff' "$CO"
}
