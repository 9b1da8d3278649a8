#!/bin/sh
# tests/e2e/privsep.sh: root never reads what the sandbox wrote (issue 14,
# docs/spec.md 3.1). Run from tests/e2e/run.sh.
#
# A root-mode run whose sandbox writes files the exporter must open, under
# strace -f: every process's uid is followed from the trace (a process is
# root until its own setresuid to another id succeeds; a fork starts with
# its parent's), and every open of a file the sandbox wrote, by any
# process, must come from one that is no longer root. The control: the
# same trace must show that those files were opened at all (by the
# courier, for the file diff and the export), or the check proves nothing.
# The same for the caller's --input tree: root never opens a file of it
# (the courier copies it in with the run's ids), and the control is that
# the trace shows them opened, and the sandbox sees them.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

if [ "$(id -u)" != 0 ]; then
	skip root/privsep "needs root"
	exit 0
fi
if ! command -v strace >/dev/null; then
	skip root/privsep "strace is not installed (make deps)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-privsep.XXXXXX) || exit 1
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

cat >"$T/p.ward" <<'EOF'
ward 1;
policy privsep;
use base;
identity { user 1000; group 1000; }
fs { slot output at /output rw; }
net none;
export output {
    files 5;
    per-file 1M;
    total 2M;
    names "*.txt";
    types text;
}
limits { memory 128M; pids 32; wall 20s; }
syscalls default allow { }
EOF
if ! "$WARDC" compile "$T/p.ward" -o "$T/p.wardb" >"$T/wardc.log" 2>&1; then
	fail root/privsep "compile: $(head -c 300 "$T/wardc.log")"
	exit 1
fi
chmod 644 "$T/p.wardb"
# the traced run's: the same with an input slot
sed 's|fs { slot output at /output rw; }|fs { slot output at /output rw; slot data at /data ro; }|' \
	"$T/p.ward" >"$T/pi.ward"
if ! "$WARDC" compile "$T/pi.ward" -o "$T/pi.wardb" >"$T/wardc.log" 2>&1; then
	fail root/privsep "compile: $(head -c 300 "$T/wardc.log")"
	exit 1
fi
chmod 644 "$T/pi.wardb"
mkdir "$T/exp" "$T/in" "$T/in/sub"
echo given >"$T/in/given-by-caller-1.txt"
echo deeper >"$T/in/sub/given-by-caller-2.txt"
chmod -R a+rX "$T/in"
ASAN_OPTIONS=detect_leaks=0 timeout 60 strace -f -qq -s 256 \
	-e trace=open,openat,openat2,setresuid,setuid,clone,clone3,fork,vfork \
	-o "$T/trace" "$WARD" --report "$T/r.json" --export-dir "$T/exp" \
	--input data="$T/in" "$T/pi.wardb" -- /bin/sh -c \
	'echo one >/output/written-by-sandbox-1.txt; mkdir /output/d;
	 echo two >/output/d/written-by-sandbox-2.txt;
	 cat /data/given-by-caller-1.txt /data/sub/given-by-caller-2.txt' >"$T/out" 2>&1
rc=$?
if [ "$rc" != 0 ] || [ ! -f "$T/exp/written-by-sandbox-1.txt" ]; then
	fail root/privsep "the run: rc=$rc $(head -c 300 "$T/out") $(ls "$T/exp")"
	exit 1
fi
# pid -> uid, from the trace: clones inherit, setresuid/setuid change it.
# A pid no clone of the trace returned was made in another pid namespace
# (strace shows the child's pid as its parent sees it): a process of the
# sandbox, mapped to an unprivileged host uid.
for marker in written-by-sandbox given-by-caller; do
python3 - "$T/trace" "$marker" >"$T/verdict-$marker" <<'EOF'
import re, sys
marker = sys.argv[2]
uid = {}
first = None
root_opens, dropped_opens = [], []
pending = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"(\d+)\s+(.*)", line)
    if not m:
        continue
    pid, rest = int(m.group(1)), m.group(2)
    if first is None:
        first = pid
        uid[pid] = 0
    uid.setdefault(pid, "sandbox")
    c = re.match(r"(<\.\.\. )?(clone3?|fork|vfork)(\(| resumed>).*=\s+(\d+)", rest)
    if c:
        uid[int(c.group(4))] = uid[pid]
        continue
    # (strace splits a call another process interrupts: "setresuid(1,
    # ... <unfinished ...>", later "<... setresuid resumed>) = 0")
    s = re.match(r"set(res)?uid\((\d+)", rest)
    if s and rest.strip().endswith("<unfinished ...>"):
        pending[pid] = int(s.group(2))
        continue
    if re.match(r"<\.\.\. set(res)?uid resumed>", rest):
        if pid in pending and re.search(r"=\s+0$", rest.strip()):
            uid[pid] = pending.pop(pid)
        continue
    if s and re.search(r"=\s+0$", rest.strip()):
        uid[pid] = int(s.group(2))
        continue
    if marker in rest and re.match(r"open", rest):
        if uid[pid] == "sandbox":
            continue  # the sandbox's own writes
        (root_opens if uid[pid] == 0 else dropped_opens).append(
            "%d(uid %s): %s" % (pid, uid[pid], rest.strip()[:160]))
print("root %d dropped %d" % (len(root_opens), len(dropped_opens)))
for o in root_opens[:5]:
    print("ROOT " + o)
EOF
done
read -r _ nroot _ ndropped <"$T/verdict-written-by-sandbox"
if [ "$nroot" != 0 ]; then
	fail root/privsep-root-reads-nothing "$(head -c 900 "$T/verdict-written-by-sandbox" | tr "\n" "|")"
elif [ "$ndropped" -lt 2 ]; then
	fail root/privsep-control "the trace shows no open of the sandbox's files by ward: $(head -c 300 "$T/verdict-written-by-sandbox")"
else
	pass root/privsep-root-reads-nothing
	pass root/privsep-control
fi
# The caller's input: opened (to be copied in) only by a process that
# dropped root; the control: it was opened, and the sandbox read it.
read -r _ nroot _ ndropped <"$T/verdict-given-by-caller"
if [ "$nroot" != 0 ]; then
	fail root/privsep-root-reads-no-input "$(head -c 900 "$T/verdict-given-by-caller" | tr "\n" "|")"
elif [ "$ndropped" -lt 2 ] || ! grep -q given "$T/out" || ! grep -q deeper "$T/out"; then
	fail root/privsep-input-control "the input was not opened by ward, or the sandbox did not see it: $(head -c 300 "$T/verdict-given-by-caller") $(head -c 200 "$T/out")"
else
	pass root/privsep-root-reads-no-input
	pass root/privsep-input-control
fi
# The exported files belong to the sandbox's host ids (this run's own),
# the export directory to its owner again.
huid=$(jq -r .identity.host_uid "$T/r.json")
if [ "$(stat -c %u "$T/exp")" = 0 ] && [ "$huid" -ge 2097152000 ] &&
	[ "$(stat -c %u "$T/exp/written-by-sandbox-1.txt")" = "$huid" ]; then
	pass root/privsep-export-dir-given-back
else
	fail root/privsep-export-dir-given-back "$(stat -c '%n %u' "$T/exp" "$T/exp"/*)"
fi

# ---- what ward writes for the caller is only a file it creates (O_EXCL,
# O_NOFOLLOW): a planted symlink or file is refused, and --replace removes
# only a regular file of the caller's own.
cat >"$T/q.ward" <<'EOF'
ward 1;
policy plain;
use base;
identity { user 1000; group 1000; }
net none;
limits { wall 20s; }
syscalls default allow { }
EOF
"$WARDC" compile "$T/q.ward" -o "$T/q.wardb" >"$T/wardc.log" 2>&1 ||
	fail root/privsep-plain-compile "$(head -c 300 "$T/wardc.log")"
chmod 644 "$T/q.wardb"
qrun() { # WARD-OPTIONS...: a run of /bin/true under q.wardb, status in qrc
	ASAN_OPTIONS=detect_leaks=0 timeout 60 "$WARD" "$@" "$T/q.wardb" -- /bin/true \
		>"$T/q.out" 2>"$T/q.err"
	qrc=$?
}
echo untouched >"$T/victim"
ln -s "$T/victim" "$T/planted.json"
qrun --report "$T/planted.json"
if [ "$qrc" = 125 ] && [ "$(cat "$T/victim")" = untouched ] &&
	grep -q -- "--report $T/planted.json" "$T/q.err"; then
	pass root/report-planted-symlink-refused
else
	fail root/report-planted-symlink-refused "rc=$qrc victim=$(cat "$T/victim") $(head -c 300 "$T/q.err")"
fi
qrun --replace --report "$T/planted.json"
if [ "$qrc" = 125 ] && [ -L "$T/planted.json" ] && [ "$(cat "$T/victim")" = untouched ] &&
	grep -q "removes only a regular file of yours" "$T/q.err"; then
	pass root/report-planted-symlink-not-replaced
else
	fail root/report-planted-symlink-not-replaced "rc=$qrc $(head -c 300 "$T/q.err")"
fi
echo old >"$T/exists.json"
qrun --report "$T/exists.json"
if [ "$qrc" = 125 ] && [ "$(cat "$T/exists.json")" = old ] && grep -q "the file exists" "$T/q.err"; then
	pass root/report-existing-file-refused
else
	fail root/report-existing-file-refused "rc=$qrc $(head -c 300 "$T/q.err")"
fi
# The control of the two above: --replace does replace a file of one's own.
qrun --replace --report "$T/exists.json"
if [ "$qrc" = 0 ] && [ "$(jq -r .reason "$T/exists.json" 2>/dev/null)" = exited ]; then
	pass root/report-replace-own-file
else
	fail root/report-replace-own-file "rc=$qrc $(head -c 300 "$T/q.err")"
fi
echo theirs >"$T/theirs.json"
chown 65534:65534 "$T/theirs.json"
qrun --replace --report "$T/theirs.json"
if [ "$qrc" = 125 ] && [ "$(cat "$T/theirs.json")" = theirs ] &&
	grep -q "removes only a regular file of yours" "$T/q.err"; then
	pass root/report-others-file-not-replaced
else
	fail root/report-others-file-not-replaced "rc=$qrc $(head -c 300 "$T/q.err")"
fi

# The other files ward writes for the caller, in the issue's case (issue
# 15): another user planted the file with mode 666 to read or forge what
# ward writes. Each is refused and left as it was; the control, the same
# option given a path that does not exist, writes it.
mkdir -p "$T/m.out"
chmod 777 "$T/m.out"
"$WARDC" compile --record "$T/q.ward" -o "$T/q-rec.wardb" >"$T/wardc.log" 2>&1 ||
	fail root/privsep-record-compile "$(head -c 300 "$T/wardc.log")"
chmod 644 "$T/q-rec.wardb"
for opt in --stdout --stderr --record --manifest; do
	extra=
	blob=$T/q.wardb
	[ $opt = --manifest ] && extra="--export-dir $T/m.exp --slot output=$T/m.out" && blob=$T/p.wardb
	[ $opt = --record ] && blob=$T/q-rec.wardb
	echo planted >"$T/p666"
	chown 65534:65534 "$T/p666"
	chmod 666 "$T/p666"
	rm -f "$T/fresh"
	rm -rf "$T/m.exp"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=0 timeout 60 "$WARD" $opt "$T/p666" $extra "$blob" -- /bin/true \
		>"$T/q.out" 2>"$T/q.err"
	qrc=$?
	rm -rf "$T/m.exp"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=0 timeout 60 "$WARD" $opt "$T/fresh" $extra "$blob" -- /bin/true \
		>/dev/null 2>&1
	frc=$?
	if [ "$qrc" = 125 ] && [ "$(cat "$T/p666")" = planted ] &&
		grep -q -- "$opt $T/p666: the file exists" "$T/q.err" &&
		[ "$frc" = 0 ] && [ -f "$T/fresh" ] && [ "$(stat -c %u "$T/fresh")" = 0 ]; then
		pass "root/planted${opt#-}-refused"
	else
		fail "root/planted${opt#-}-refused" "rc=$qrc fresh rc=$frc $(cat "$T/p666") $(head -c 300 "$T/q.err")"
	fi
done

# ---- what is lent for a run is given back: an export directory and a
# read-write slot belong to the run's host ids during the run only; their
# owner and mode are the caller's again afterwards (docs/spec.md 3.2).
mkdir "$T/exp2" "$T/slot2"
chown 1234:1235 "$T/exp2" "$T/slot2"
chmod 0750 "$T/exp2"
chmod 0700 "$T/slot2"
ASAN_OPTIONS=detect_leaks=0 timeout 60 "$WARD" --report "$T/r2.json" \
	--export-dir "$T/exp2" --slot output="$T/slot2" "$T/p.wardb" -- \
	/bin/sh -c 'echo lent >/output/lent.txt' >"$T/out2" 2>&1
rc=$?
huid=$(jq -r .identity.host_uid "$T/r2.json" 2>/dev/null)
got="$(stat -c '%u:%g %a' "$T/exp2") $(stat -c '%u:%g %a' "$T/slot2")"
if [ "$rc" = 0 ] && [ "$got" = "1234:1235 750 1234:1235 700" ] &&
	[ "$(cat "$T/slot2/lent.txt" 2>/dev/null)" = lent ] &&
	[ "$(stat -c %u "$T/slot2/lent.txt")" = "$huid" ] && [ "$huid" != 1234 ]; then
	pass root/privsep-lent-and-given-back
else
	fail root/privsep-lent-and-given-back "rc=$rc got=[$got] huid=$huid $(head -c 300 "$T/out2")"
fi
