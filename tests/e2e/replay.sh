#!/bin/sh
# tests/e2e/replay.sh: the report is enough to audit and repeat a run
# (issue 17). Run from tests/e2e/run.sh, as root, and rootless as uid 65534.
#
#   program   run.program.sha256 and size are those of the file the target
#             exec'd, as sha256sum and stat see it from outside (an ELF of
#             the host and a script of the input snapshot)
#   inputs    run.inputs[].sha256 is the tree digest of docs/spec.md 4.2,
#             computed here by a second implementation (python), and
#             changes when one byte of an input changes
#   network   run.network: the mode, and an allow-list digest that changes
#             with the allow-list
#   replay    `wardc replay`: a deterministic run matches (exit 0), one
#             that prints random bytes does not (exit 1), nor one that
#             exports a random file (the export's digests), a changed input
#             or another blob is refused before anything runs (exit 125),
#             a bad command line is a usage error (exit 2)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}

# Under ASan (make check's SAN build), ward's own code in the target, on
# the stack it was cloned with, prints ASan's "ignoring requested
# __asan_handle_no_return" warning (with addresses) to the target's stderr
# before its execve: then stderr alone may differ between two runs.
case $WARD in */san/*) SAN=1 ;; *) SAN=0 ;; esac
san_stderr_only() { # RC REPLAY-OUTPUT
	[ "$SAN" = 1 ] && [ "$1" = 1 ] && grep -q '^stderr sha256  *MISMATCH' "$2" &&
		[ "$(grep -c MISMATCH "$2")" = 2 ] && grep -q '^replay  *MISMATCH: the outputs differ$' "$2"
}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP replay: needs root (and setpriv for rootless mode)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-replay-e2e.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

cat >"$T/p.ward" <<'EOF2'
ward 1;
policy replay;
use base;
identity { user 1000; group 1000; }
fs {
    tmpfs /tmp size 4M mode 1777;
    slot data at /data;
}
net none;
limits { wall 20s; stdout text; }
syscalls default allow { }
EOF2
sed -e 's/^policy replay;/policy replay-net;/' -e 's,^use base;,use base/core;,' \
	-e 's/^net none;/net { host h = 192.0.2.10; allow tcp h port 443; }/' \
	"$T/p.ward" >"$T/n1.ward"
sed -e 's/port 443/port 444/' "$T/n1.ward" >"$T/n2.ward"
if ! "$WARDC" compile -I "$top/stdlib-policies" "$top/stdlib-policies/python.ward" \
	-o "$T/py.wardb" >"$T/wardc.log" 2>&1; then
	fail compile "$(head -c 300 "$T/wardc.log")"
	exit 1
fi
chmod 644 "$T/py.wardb"
for p in p n1 n2; do
	if ! "$WARDC" compile "$T/$p.ward" -o "$T/$p.wardb" >"$T/wardc.log" 2>&1; then
		fail compile "$(head -c 300 "$T/wardc.log")"
		exit 1
	fi
	chmod 644 "$T/$p.wardb"
done

# The tree digest, a second time, from the spec's words.
cat >"$T/tree.py" <<'EOF2'
import hashlib, os, stat, sys
def mode(st):
    if stat.S_ISDIR(st.st_mode): return 0o755
    if stat.S_ISLNK(st.st_mode): return 0o777
    return 0o755 if st.st_mode & 0o111 else 0o644
recs = []
def walk(rel):
    for n in os.listdir(os.path.join(sys.argv[1], rel)):
        p = os.path.join(rel, n) if rel else n
        full = os.path.join(sys.argv[1], p)
        st = os.lstat(full)
        if stat.S_ISREG(st.st_mode):
            c = open(full, "rb").read()
            recs.append((p.encode(), b"file", len(c), hashlib.sha256(c).hexdigest().encode(), st))
        elif stat.S_ISLNK(st.st_mode):
            t = os.fsencode(os.readlink(full))
            recs.append((p.encode(), b"symlink", len(t), t, st))
        elif stat.S_ISDIR(st.st_mode):
            recs.append((p.encode(), b"dir", 0, b"", st))
            walk(p)
walk("")
h = hashlib.sha256(b"ward-tree-1\n")
for p, t, size, c, st in sorted(recs, key=lambda r: r[0]):
    h.update(b"\0".join([p, t, b"%04o" % mode(st), str(size).encode(), c]) + b"\0")
print(h.hexdigest())
EOF2

q() { jq -r "$1" "$2" 2>/dev/null; }

for m in root rootless; do
	as=
	[ $m = rootless ] && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	rm -rf "$T/in" "$T/rep"
	mkdir -p "$T/in/sub" "$T/rep"
	chmod 1777 "$T/rep"
	echo hello >"$T/in/a.txt"
	echo x >"$T/in/sub/b"
	ln -s a.txt "$T/in/l"
	printf '#!/bin/sh\ncat /data/a.txt\n' >"$T/in/prog.sh"
	chmod 755 "$T/in" "$T/in/sub" "$T/in/prog.sh"
	chmod 644 "$T/in/a.txt" "$T/in/sub/b"

	# run NAME PROGRAM...: a report in $T/rep/NAME.json
	run() {
		n=$1
		shift
		rm -f "$T/rep/$n.json"
		timeout 60 $as "$WARD" --report "$T/rep/$n.json" --input data="$T/in" \
			"$T/p.wardb" -- "$@" >"$T/so" 2>"$T/se"
	}

	# The program: an ELF of the host, and a script of the snapshot.
	run elf /bin/cat /data/a.txt
	rc=$?
	r=$T/rep/elf.json
	if [ "$rc" = 0 ] &&
		[ "$(q .run.program.sha256 "$r")" = "$(sha256sum </bin/cat | cut -d' ' -f1)" ] &&
		[ "$(q .run.program.size "$r")" = "$(stat -Lc %s /bin/cat)" ] &&
		[ "$(q .run.program.path "$r")" = /bin/cat ]; then
		pass "$m/replay-program-digest-elf"
	else
		fail "$m/replay-program-digest-elf" "rc=$rc $(head -c 200 "$T/se") $(jq -c .run.program "$r" 2>/dev/null)"
	fi
	run script /data/prog.sh
	rc=$?
	r=$T/rep/script.json
	if [ "$rc" = 0 ] && [ "$(cat "$T/so")" = hello ] &&
		[ "$(q .run.program.sha256 "$r")" = "$(sha256sum <"$T/in/prog.sh" | cut -d' ' -f1)" ] &&
		[ "$(q .run.program.size "$r")" = "$(stat -c %s "$T/in/prog.sh")" ]; then
		pass "$m/replay-program-digest-script"
	else
		fail "$m/replay-program-digest-script" "rc=$rc $(head -c 200 "$T/se") $(jq -c .run.program "$r" 2>/dev/null)"
	fi

	# The input: the spec's tree digest, and a change to one byte.
	want=$(python3 "$T/tree.py" "$T/in")
	got=$(q '.run.inputs[0].sha256' "$T/rep/elf.json")
	if [ -n "$want" ] && [ "$got" = "$want" ] &&
		[ "$(q '.run.inputs[0] | "\(.name) \(.host_path) \(.entries) \(.error)"' "$T/rep/elf.json")" = "data $T/in 5 null" ]; then
		pass "$m/replay-input-tree-digest"
	else
		fail "$m/replay-input-tree-digest" "want=$want $(jq -c .run.inputs "$T/rep/elf.json" 2>/dev/null)"
	fi
	cp "$T/rep/elf.json" "$T/elf-before.json"
	echo hellO >"$T/in/a.txt"
	run elf2 /bin/cat /data/a.txt
	got2=$(q '.run.inputs[0].sha256' "$T/rep/elf2.json")
	if [ -n "$got2" ] && [ "$got2" != null ] && [ "$got2" != "$got" ] &&
		[ "$got2" = "$(python3 "$T/tree.py" "$T/in")" ]; then
		pass "$m/replay-input-digest-changes"
	else
		fail "$m/replay-input-digest-changes" "before=$got after=$got2"
	fi

	# Replay refuses the changed input, before anything runs.
	timeout 60 $as "$WARDC" replay "$T/elf-before.json" "$T/p.wardb" >"$T/ro" 2>"$T/re"
	rc=$?
	if [ "$rc" = 125 ] && grep -q "input data ($T/in) changed since the run" "$T/re" &&
		! [ -s "$T/ro" ]; then
		pass "$m/replay-refuses-changed-input"
	else
		fail "$m/replay-refuses-changed-input" "rc=$rc $(head -c 300 "$T/re") $(head -c 300 "$T/ro")"
	fi

	# A deterministic run replays to the same digests.
	timeout 60 $as "$WARDC" replay "$T/rep/elf2.json" "$T/p.wardb" >"$T/ro" 2>"$T/re"
	rc=$?
	if { { [ "$rc" = 0 ] && grep -q '^replay  *match$' "$T/ro"; } || san_stderr_only "$rc" "$T/ro"; } &&
		grep -q "^stdout sha256  *match $(q .output.stdout.sha256 "$T/rep/elf2.json")$" "$T/ro" &&
		grep -q '^program sha256  *match' "$T/ro"; then
		pass "$m/replay-deterministic-matches"
	else
		fail "$m/replay-deterministic-matches" "rc=$rc $(head -c 300 "$T/re") $(tr '\n' '|' <"$T/ro" | head -c 600)"
	fi

	# Random bytes do not.
	run rand /bin/sh -c 'head -c 16 /dev/urandom | od -An -tx1'
	rc=$?
	timeout 60 $as "$WARDC" replay "$T/rep/rand.json" "$T/p.wardb" >"$T/ro" 2>"$T/re"
	rc2=$?
	if [ "$rc" = 0 ] && [ "$(q .output.stdout.bytes "$T/rep/rand.json")" -gt 0 ] &&
		[ "$rc2" = 1 ] && grep -q '^stdout sha256  *MISMATCH recorded' "$T/ro" &&
		grep -q '^replay  *MISMATCH' "$T/ro"; then
		pass "$m/replay-random-mismatches"
	else
		fail "$m/replay-random-mismatches" "rc=$rc rc2=$rc2 $(head -c 300 "$T/re") $(tr '\n' '|' <"$T/ro" | head -c 600)"
	fi

	# Another blob is refused; a bad command line is a usage error.
	timeout 60 $as "$WARDC" replay "$T/rep/elf2.json" "$T/n1.wardb" >"$T/ro" 2>"$T/re"
	rc=$?
	timeout 60 $as "$WARDC" replay "$T/rep/elf2.json" >/dev/null 2>&1
	rc2=$?
	if [ "$rc" = 125 ] && grep -q 'is not the blob of the run' "$T/re" && [ "$rc2" = 2 ]; then
		pass "$m/replay-refuses-other-blob"
	else
		fail "$m/replay-refuses-other-blob" "rc=$rc rc2=$rc2 $(head -c 300 "$T/re")"
	fi

	# The export: each exported file's digest is compared (python's
	# profile exports /output); random content mismatches.
	for e in same rand; do
		rm -rf "$T/rep/x-$e" "$T/rep/x-$e.json"
		code='open("/output/a.csv", "w").write("x,y\n1,2\n")'
		[ $e = rand ] && code='import os; open("/output/a.csv", "w").write("x,%s\n" % os.urandom(8).hex())'
		timeout 60 $as "$WARD" --report "$T/rep/x-$e.json" --input input="$T/in" \
			--export-dir "$T/rep/x-$e" "$T/py.wardb" -- /usr/bin/python3 -c "$code" >/dev/null 2>"$T/se"
		timeout 60 $as "$WARDC" replay "$T/rep/x-$e.json" "$T/py.wardb" >"$T/ro-$e" 2>"$T/re-$e"
		eval "rc_$e=\$?"
	done
	if grep -q "limits need cgroups" "$T/se"; then
		echo "SKIP $m/replay-export-digests: the python profile's limits need cgroups this host does not delegate"
	elif [ "$(q '.export[0].entries[0].path' "$T/rep/x-same.json")" = a.csv ] &&
		{ [ "$rc_same" = 0 ] || san_stderr_only "$rc_same" "$T/ro-same"; } &&
		grep -q '^export output/a.csv  *match ' "$T/ro-same" &&
		[ "$rc_rand" = 1 ] && grep -q '^export output/a.csv  *MISMATCH recorded' "$T/ro-rand" &&
		grep -q '^stdout sha256  *match' "$T/ro-rand"; then
		pass "$m/replay-export-digests"
	else
		fail "$m/replay-export-digests" "same=$rc_same rand=$rc_rand $(head -c 200 "$T/se") $(head -c 200 "$T/re-same") $(tr '\n' '|' <"$T/ro-same") $(tr '\n' '|' <"$T/ro-rand")"
	fi

	# The network: mode and allow-list digest.
	d=
	for n in n1 n2; do
		rm -f "$T/rep/$n.json"
		timeout 60 $as "$WARD" --report "$T/rep/$n.json" --input data="$T/in" \
			"$T/$n.wardb" -- /bin/true >/dev/null 2>&1
		d="$d $(q '.run.network | "\(.mode) \(.rules) \(.allow_list_sha256 | length)"' "$T/rep/$n.json")"
	done
	d1=$(q .run.network.allow_list_sha256 "$T/rep/n1.json")
	d2=$(q .run.network.allow_list_sha256 "$T/rep/n2.json")
	if [ "$d" = " allow-list 1 64 allow-list 1 64" ] && [ "$d1" != "$d2" ] &&
		[ "$(q '.run.network | "\(.mode) \(.allow_list_sha256)"' "$T/rep/elf2.json")" = "none null" ]; then
		pass "$m/replay-network-digest"
	else
		fail "$m/replay-network-digest" "$d $d1 $d2"
	fi
done
