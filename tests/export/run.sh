#!/bin/sh
# tests/export/run.sh: the `wardc export` and `wardc import` command lines
# (exit codes, -o, what goes to stderr), then the runtimes' tests
# (tests/e2e/export_crun.sh, export_runtimes.sh). The libraries are tested by
# tests/unit/test_export.c and test_import.c.
#
# One line per test: PASS name / FAIL name: why. Exit 1 if any failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARDC=${WARDC:-$top/$BUILD/wardc}
export BUILD WARDC
cd "$top" || exit 2
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS export/$1"; }
fail() { echo "FAIL export/$1: $2"; failed=1; }

# expect NAME STATUS CMD...: the command exits with STATUS; its stdout in
# $tmp/out, its stderr in $tmp/err; otherwise it returns 1 and says why in
# $why. Each test is `expect ... && CHECK && ...; verdict $? NAME`: any
# step that fails, the exit status or a check after it, is a FAIL line
# (a test whose checks could fail without a word would prove nothing).
expect() {
	want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		why="exit $rc, wanted $want: $(head -c 300 "$tmp/err")"
		return 1
	fi
	why="exit $rc as wanted, but a check of its output failed: $(head -c 200 "$tmp/out" | tr '\n' '|') $(head -c 200 "$tmp/err" | tr '\n' '|')"
	return 0
}

verdict() { # STATUS NAME
	if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2" "$why"; fi
}

expect no-format 2 "$WARDC" export tests/export/crun.ward &&
	grep -qx 'wardc export: give --format oci or --format k8s' "$tmp/err"
verdict $? no-format

expect oci-stdout 0 "$WARDC" export --format oci tests/export/crun.ward &&
	jq -e '.linux.seccomp.defaultErrnoRet == 38 and .root.readonly and
	       .process.noNewPrivileges and .process.user.uid == 65534' \
		"$tmp/out" >/dev/null &&
	grep -q '^wardc export: set root.path and process.args' "$tmp/err"
verdict $? oci-stdout

# a blob exports like its source
"$WARDC" compile tests/export/crun.ward -o "$tmp/crun.wardb" 2>/dev/null
expect oci-blob 0 "$WARDC" export --format oci "$tmp/crun.wardb" \
	-o "$tmp/from-blob.json" &&
	"$WARDC" export --format oci tests/export/crun.ward \
		-o "$tmp/from-src.json" 2>/dev/null &&
	cmp -s "$tmp/from-blob.json" "$tmp/from-src.json" &&
	[ ! -s "$tmp/out" ]
verdict $? oci-blob

expect k8s 0 "$WARDC" export --format k8s tests/export/sample.ward &&
	[ "$(grep -c '^---$' "$tmp/out")" -eq 3 ] &&
	grep -q '^kind: "SeccompProfile"$' "$tmp/out" &&
	grep -q '^kind: "Pod"$' "$tmp/out" &&
	grep -q '^kind: "NetworkPolicy"$' "$tmp/out" &&
	grep -q '^wardc export: not expressed: limits: `pids 64`' "$tmp/err"
verdict $? k8s
# by default, the current operator's layout (cluster-scoped, API v1, the
# profile at operator/NAME.json): what --spo-layout cluster writes
cp "$tmp/out" "$tmp/k8s-default.yaml"
expect k8s-default-cluster 0 "$WARDC" export --format k8s \
	--spo-layout cluster tests/export/sample.ward &&
	cmp -s "$tmp/out" "$tmp/k8s-default.yaml" &&
	grep -qx 'apiVersion: "security-profiles-operator.x-k8s.io/v1"' "$tmp/out" &&
	grep -qx '      localhostProfile: "operator/sample-export.json"' "$tmp/out" &&
	! grep -q 'v1beta1\|operator/default/' "$tmp/out"
verdict $? k8s-default-cluster

# every stdlib profile exports in both formats (with the constants a
# profile leaves to its user set)
. tests/lib/stdlib_defines.sh
ok=1
for p in stdlib-policies/*.ward; do
	grep -q '^policy ' "$p" || continue
	for f in oci k8s; do
		# shellcheck disable=SC2046
		if ! "$WARDC" export --format "$f" $(stdlib_defines "$p") "$p" >/dev/null 2>"$tmp/err"; then
			fail "stdlib-$f" "$p: $(head -c 300 "$tmp/err")"
			ok=0
		fi
	done
done
[ "$ok" = 1 ] && pass stdlib

expect import 0 "$WARDC" import tests/export/default-deny.json \
	-o "$tmp/imported.ward" &&
	cmp -s "$tmp/imported.ward" tests/export/default-deny.ward.expected &&
	grep -qx 'wardc import: warning: tests/export/default-deny.json:84:5: `no_such_syscall`: unknown syscall, skipped' \
		"$tmp/err" &&
	"$WARDC" check "$tmp/imported.ward" 2>/dev/null
verdict $? import

# --bundle: the command line
expect bundle-no-program 2 "$WARDC" export --format oci --bundle "$tmp/b1" \
	tests/export/crun.ward &&
	grep -q 'give the program after --' "$tmp/err" && [ ! -e "$tmp/b1" ]
verdict $? bundle-no-program
expect bundle-not-k8s 2 "$WARDC" export --format k8s --bundle "$tmp/b1" \
	tests/export/crun.ward -- /probe &&
	grep -q 'are for --format oci' "$tmp/err"
verdict $? bundle-not-k8s
expect bundle-no-o 2 "$WARDC" export --format oci --bundle "$tmp/b1" \
	-o "$tmp/x.json" tests/export/crun.ward -- /probe &&
	grep -q 'no -o' "$tmp/err"
verdict $? bundle-no-o
expect program-without-bundle 2 "$WARDC" export --format oci \
	tests/export/crun.ward -- /probe &&
	grep -q 'is for --bundle' "$tmp/err"
verdict $? program-without-bundle
expect bundle-bad-slot 2 "$WARDC" export --format oci --bundle "$tmp/b1" \
	--slot nope=/tmp stdlib-policies/python.ward -- /probe &&
	grep -q "the policy has no slot of that name" "$tmp/err" && [ ! -e "$tmp/b1" ]
verdict $? bundle-bad-slot
expect bundle 0 "$WARDC" export --format oci --bundle "$tmp/b2" \
	stdlib-policies/python.ward -- /usr/bin/python3 -c 'print(1)' &&
	jq -e '.process.args == ["/usr/bin/python3", "-c", "print(1)"] and
	       .root.path == "rootfs" and
	       ([.mounts[] | select(.destination == "/input")][0].source |
	        endswith("/slots/input"))' "$tmp/b2/config.json" >/dev/null &&
	[ -f "$tmp/b2/rootfs/etc/ld.so.cache" ] && [ ! -s "$tmp/b2/rootfs/etc/ld.so.cache" ] &&
	[ -d "$tmp/b2/rootfs/usr" ] && [ "$(readlink "$tmp/b2/rootfs/bin")" = usr/bin ] &&
	grep -q '^sandbox:x:1000:' "$tmp/b2/rootfs/etc/passwd" &&
	[ -d "$tmp/b2/slots/output" ]
verdict $? bundle
expect bundle-twice 2 "$WARDC" export --format oci --bundle "$tmp/b2" \
	stdlib-policies/python.ward -- /probe &&
	grep -q 'holds a bundle already' "$tmp/err"
verdict $? bundle-twice

# The SeccompProfile of every stdlib profile (and the sample) against the
# Security Profiles Operator's CRD, in both layouts
for layout in cluster namespaced; do
	mkdir -p "$tmp/spo-$layout"
	for p in stdlib-policies/*.ward tests/export/sample.ward; do
		grep -q '^policy ' "$p" || continue
		# shellcheck disable=SC2046
		"$WARDC" export --format k8s --spo-layout "$layout" $(stdlib_defines "$p") "$p" \
			-o "$tmp/spo-$layout/$(basename "$p" .ward).yaml" 2>/dev/null ||
			fail "spo-$layout/$p" "wardc export failed"
	done
	python3 tests/export/validate_spo.py \
		tests/export/upstream/spo-seccompprofile-crd.yaml "$layout" \
		"$tmp/spo-$layout"/*.yaml >"$tmp/spo.out" 2>&1
	rc=$?
	sed 's/^\(PASS\|FAIL\) /\1 export\//' "$tmp/spo.out"
	[ "$rc" -eq 0 ] || failed=1
done
expect spo-layout-bad 2 "$WARDC" export --format k8s --spo-layout v1beta1 \
	tests/export/sample.ward &&
	grep -qx 'wardc export: --spo-layout takes cluster or namespaced' \
		"$tmp/err"
verdict $? spo-layout-bad

# Docker's and Podman's default profiles: what the imported policies give
# each syscall, for no capabilities and for the runtime's default set, on
# both targets, against the profiles read on their own (the newest
# syscalls, which libseccomp 2.5.4 cannot name, included)
python3 tests/export/import_defaults.py "$WARDC" "$top" >"$tmp/defaults" 2>&1
rc=$?
sed 's/^\(PASS\|FAIL\) /\1 export\//' "$tmp/defaults"
grep -q '^FAIL' "$tmp/defaults" && failed=1
[ "$rc" -eq 0 ] || grep -q '^FAIL' "$tmp/defaults" ||
	fail import-defaults "import_defaults.py exited $rc"

printf '{"defaultAction": 1}' >"$tmp/bad.json"
expect import-bad 1 "$WARDC" import "$tmp/bad.json" &&
	grep -qx "wardc import: error: $tmp/bad.json:1:19: an action must be a string" \
		"$tmp/err"
verdict $? import-bad

expect import-missing 2 "$WARDC" import "$tmp/none.json"
verdict $? import-missing

# the consumers: crun on a config of the caller's; crun and runc on the
# bundles of every stdlib profile as wardc writes them
sh tests/e2e/export_crun.sh || failed=1
sh tests/e2e/export_runtimes.sh || failed=1
exit $failed
