#!/bin/sh
# tests/e2e/signing.sh: signed profiles (docs/spec.md 2.8), with the real
# wardc (keygen, sign, explain) and the real ward, in root mode and
# rootless mode (setpriv to 65534). Run from tests/e2e/run.sh. One line
# per test: "PASS name", "FAIL name: why" or "SKIP name: why".
#
#   ward --trusted-key K runs a blob signed with K's secret key and
#   refuses, each with its own message and exit status 125 and before any
#   process, namespace, cgroup or admission slot exists: an unsigned blob,
#   a blob signed by another key, and a signed blob with one byte changed
#   (a blob that is valid otherwise: its content digest is recomputed, and
#   the control shows it runs without --trusted-key). A blob signed with
#   either of two trusted keys runs (key rotation); the report names the
#   key; wardc explain shows the signer or that the blob is unsigned.
#
# Safety net: every launch runs under timeout(1) and a process limit; the
# temporary directory is removed on every path (trap).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
}
skip() { echo "SKIP $1: $2"; }
failures=0

if [ "$(id -u)" != 0 ]; then
	skip signing "needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
if [ ! -x "$WARD" ] || [ ! -x "$WARDC" ]; then
	fail signing/build "no ward or wardc in $BUILD"
	exit 1
fi
T=$(mktemp -d /tmp/ward-signing.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

# The stdlib's base; MARK is the byte the changed blob changes.
cat >"$T/p.ward" <<'EOF2'
ward 1;
policy signing;
use base;
env { MARK = "mark-1"; }
net none;
syscalls default allow { }
EOF2
if ! "$WARDC" compile "$T/p.ward" -o "$T/p.wardb" >"$T/log" 2>&1 ||
	! "$WARDC" keygen -o "$T/k1" >"$T/k1.out" 2>&1 ||
	! "$WARDC" keygen -o "$T/k2" >"$T/k2.out" 2>&1; then
	fail signing/setup "$(head -c 300 "$T/log" "$T/k1.out" "$T/k2.out" 2>&1)"
	exit 1
fi
id1=$(sed -n 's/^key id //p' "$T/k1.out")
id2=$(sed -n 's/^key id //p' "$T/k2.out")

# ---- wardc keygen: the key id is SHA-256(public key)'s first 8 bytes,
# the secret key is private, a key is never overwritten.
want=$(python3 -c 'import hashlib, sys
print(hashlib.sha256(bytes.fromhex(open(sys.argv[1]).read().split()[1])).hexdigest()[:16])' "$T/k1.pub")
if [ -n "$id1" ] && [ "$id1" = "$want" ] && [ "$id1" != "$id2" ] &&
	[ "$(stat -c %a "$T/k1")" = 600 ] && [ "$(stat -c %a "$T/k1.pub")" = 644 ] &&
	! "$WARDC" keygen -o "$T/k1" >/dev/null 2>&1 &&
	[ "$(stat -c %a "$T/k1")" = 600 ]; then
	pass wardc/keygen
else
	fail wardc/keygen "id1=$id1 want=$want id2=$id2 $(stat -c %a "$T/k1" "$T/k1.pub" | tr '\n' ' ')"
fi

# The blobs: signed by k1; the same blob signed by k2 (the rotation);
# an unsigned copy; a signed one with one byte changed and its content
# digest recomputed (a valid blob, only not the signed one).
cp "$T/p.wardb" "$T/p2.wardb" && cp "$T/p.wardb" "$T/u.wardb"
"$WARDC" sign -k "$T/k1" "$T/p.wardb" >"$T/sign.out" 2>&1
"$WARDC" sign -k "$T/k2" "$T/p2.wardb" >>"$T/sign.out" 2>&1
if [ -s "$T/p.wardb.sig" ] && [ -s "$T/p2.wardb.sig" ] &&
	grep -q "with key $id1: $T/p.wardb.sig" "$T/sign.out" &&
	cmp -s "$T/p.wardb" "$T/u.wardb"; then
	pass wardc/sign-leaves-blob
else
	fail wardc/sign-leaves-blob "$(head -c 300 "$T/sign.out")"
fi
python3 - "$T/p.wardb" "$T/c.wardb" <<'EOF2'
import hashlib, sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"mark-1")
b[i + 5] = ord("2")  # MARK=mark-2: one byte
b[32:64] = hashlib.sha256(bytes(b[:32]) + bytes(b[64:])).digest()
open(sys.argv[2], "wb").write(b)
EOF2
cp "$T/p.wardb.sig" "$T/c.wardb.sig"
# A signature with one bit of its Ed25519 part flipped.
cp "$T/p.wardb" "$T/f.wardb"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[100] ^= 1; open(sys.argv[2], "wb").write(b)' \
	"$T/p.wardb.sig" "$T/f.wardb.sig"
chmod 644 "$T"/*.wardb "$T"/*.sig "$T"/*.pub

# ---- wardc explain: who signed, or unsigned
"$WARDC" explain "$T/p.wardb" >"$T/ex1" 2>&1
"$WARDC" explain "$T/u.wardb" >"$T/ex2" 2>&1
"$WARDC" explain --format json "$T/p2.wardb" >"$T/ex3" 2>&1
"$WARDC" explain "$T/c.wardb" >"$T/ex4" 2>&1
if grep -q "signed: by key $id1" "$T/ex1" && grep -q "signed: no (unsigned" "$T/ex2" &&
	[ "$(jq -r '.signature.status + " " + .signature.key_id' "$T/ex3")" = "signed $id2" ] &&
	grep -q "is for another blob" "$T/ex4"; then
	pass wardc/explain-signer
else
	fail wardc/explain-signer "$(head -c 200 "$T/ex1" "$T/ex2" "$T/ex4" | tr '\n' '|')"
fi

# launch MODE WARD-ARGS...: out, err and rc of one run under the net.
launch() {
	pre=
	[ "$1" = rootless ] && pre="setpriv --reuid=65534 --regid=65534 --clear-groups"
	shift
	# shellcheck disable=SC2086
	prlimit --nproc=512 timeout -k 2 20 $pre "$WARD" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}
why() { printf 'rc=%s out=%s err=%s' "$rc" "$(head -c 200 "$T/out" | tr '\n' '|')" \
	"$(head -c 300 "$T/err" | tr '\n' '|')"; }
ran() {
	if [ "$rc" = 0 ] && [ "$(cat "$T/out")" = "$2" ]; then pass "$1"; else fail "$1" "$(why)"; fi
}
# refused NAME TEXT: 125, TEXT said, and the program never ran.
refused() {
	if [ "$rc" = 125 ] && grep -qF -- "$2" "$T/err" && [ ! -s "$T/out" ]; then
		pass "$1"
	else
		fail "$1" "expected 125 and \"$2\"; $(why)"
	fi
}

K1="--trusted-key $T/k1.pub"
K2="--trusted-key $T/k2.pub"
mkdir -m 1777 "$T/rep"
# shellcheck disable=SC2086
for m in root rootless; do
	launch $m $K1 "$T/p.wardb" -- /bin/sh -c 'echo signed-ok $MARK'
	ran "$m/signed-runs" "signed-ok mark-1"
	rm -f "$T/rep/r.json"
	launch $m $K1 --report "$T/rep/r.json" "$T/p.wardb" -- /bin/true
	if [ "$rc" = 0 ] && [ "$(jq -r .policy.signed_by "$T/rep/r.json")" = "$id1" ]; then
		pass "$m/report-signed-by"
	else
		fail "$m/report-signed-by" "$(head -c 300 "$T/rep/r.json" 2>&1); $(why)"
	fi

	launch $m $K1 "$T/u.wardb" -- /bin/echo ran
	refused "$m/unsigned-refused" "$T/u.wardb is unsigned (there is no $T/u.wardb.sig) and --trusted-key runs only signed blobs"
	launch $m $K2 "$T/p.wardb" -- /bin/echo ran
	refused "$m/other-key-refused" "$T/p.wardb.sig: signed by key $id1, which is not a trusted key (--trusted-key: $id2)"
	launch $m $K1 "$T/c.wardb" -- /bin/echo ran
	refused "$m/changed-byte-refused" "$T/c.wardb.sig: the blob was changed after it was signed: its SHA-256 is $(sha256sum "$T/c.wardb" | cut -c1-64), the signature is for $(sha256sum "$T/p.wardb" | cut -c1-64)"
	launch $m $K1 "$T/f.wardb" -- /bin/echo ran
	refused "$m/forged-signature-refused" "$T/f.wardb.sig: the signature does not verify with trusted key $id1: forged or damaged"
	# The controls: without --trusted-key the unsigned and the changed
	# blobs are valid and run (so only the signature refused them).
	launch $m "$T/c.wardb" -- /bin/sh -c 'echo $MARK'
	ran "$m/changed-blob-control" mark-2
	launch $m "$T/u.wardb" -- /bin/echo ran
	ran "$m/unsigned-without-trusted-key" ran

	# Rotation: either of two trusted keys verifies.
	launch $m $K1 $K2 "$T/p2.wardb" -- /bin/echo new-key
	ran "$m/rotation-new-key" new-key
	launch $m $K1 $K2 "$T/p.wardb" -- /bin/echo old-key
	ran "$m/rotation-old-key" old-key
	launch $m $K2 $K1 "$T/u.wardb" -- /bin/echo ran
	refused "$m/rotation-unsigned-refused" "is unsigned"

	# A trusted key that someone else could have replaced is refused.
	cp "$T/k1.pub" "$T/kw.pub" && chmod 666 "$T/kw.pub"
	launch $m --trusted-key "$T/kw.pub" "$T/p.wardb" -- /bin/echo ran
	refused "$m/writable-key-refused" "--trusted-key $T/kw.pub: the trusted key $T/kw.pub is writable by group or others"
done

# ---- before anything else: no process (so no namespace), no cgroup, no
# admission slot for a refusal (root mode, under strace). The control: the
# signed blob does clone.
if command -v strace >/dev/null; then
	for c in u:k1 p:k2 c:k1; do
		b=${c%%:*}
		ASAN_OPTIONS=detect_leaks=0 timeout 20 strace -f -qq \
			-e trace=clone,clone3,fork,vfork,unshare,mkdir,mkdirat,openat \
			-o "$T/strace.log" "$WARD" --trusted-key "$T/${c#*:}.pub" --max-sandboxes 4 \
			"$T/$b.wardb" -- /bin/true >/dev/null 2>&1
		st=$?
		n=$(grep -E 'fork\(|clone3\(|clone\(|unshare\(|cgroup|admission' "$T/strace.log" |
			grep -vc 'clone(.*CLONE_VM')
		if [ "$st" = 125 ] && [ "$n" = 0 ]; then
			pass "root/nothing-before-signature-$b"
		else
			fail "root/nothing-before-signature-$b" "status $st, $n: $(grep -E 'clone|fork|unshare|cgroup|admission' "$T/strace.log" | head -c 300)"
		fi
	done
	ASAN_OPTIONS=detect_leaks=0 timeout 20 strace -f -qq \
		-e trace=clone,clone3,fork,vfork,unshare,mkdir,mkdirat,openat \
		-o "$T/strace.log" "$WARD" --trusted-key "$T/k1.pub" --max-sandboxes 4 \
		"$T/p.wardb" -- /bin/true >/dev/null 2>&1
	if grep -q 'clone3(' "$T/strace.log" && grep -q admission "$T/strace.log"; then
		pass root/nothing-before-signature-control
	else
		fail root/nothing-before-signature-control "$(head -c 300 "$T/strace.log")"
	fi
else
	skip root/nothing-before-signature "strace is not installed (make deps)"
fi

[ "$failures" = 0 ]
