#!/bin/sh
# tests/e2e/run.sh: end-to-end tests of the launcher, the real `ward`, in
# root mode (as root) and rootless mode (setpriv to 65534). Every check
# observes from outside the sandbox or from the attacked syscall's own
# result (tests/e2e/probe.c). One line per test: "PASS name" or
# "FAIL name: why" ("SKIP name: why" when the host cannot show it).
#
# Policies are built by tests/e2e/mkblob.c from a list of items (see its
# header), so these tests do not depend on wardc and can build blobs wardc
# refuses to write (corrupt ones); `policy` below is the one place to
# switch to `wardc compile`. The supervision tests (tests/e2e/supervise.sh,
# run at the end) compile real policies with wardc, the stdlib python
# profile among them.
#
# Safety net: every launch runs under timeout(1) and a process limit; the
# temporary directory and any process a test started are removed on every
# path (trap).
# $BASE is split into items on purpose:
# shellcheck disable=SC2086
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARD=${WARD:-$top/$BUILD/ward}
CC=${CC:-cc}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP e2e: needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
if [ ! -x "$WARD" ]; then
	echo "FAIL e2e: no launcher at $WARD"
	exit 1
fi

T=$(mktemp -d /tmp/ward-e2e.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
bait=/var/tmp/ward-bait.$$
cleanup() {
	for p in $bgpids; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$T" "$bait"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
}
skip() { echo "SKIP $1: $2"; }

# ------------------------------------------------------------ tools
mkdir -p "$T/bin" "$T/tools"
if ! "$CC" -static -O2 -o "$T/bin/probe" "$top/tests/e2e/probe.c" 2>"$T/cc.log"; then
	fail build/probe "$(head -c 300 "$T/cc.log")"
	exit 1
fi
if ! "$CC" -O1 -D_GNU_SOURCE -I"$top/common" -I"$top/compiler/codegen" \
	-o "$T/tools/mkblob" "$top/tests/e2e/mkblob.c" \
	"$top/compiler/codegen/blob_write.c" "$top/compiler/codegen/landlock_rules.c" "$top/common/blob_read.c" "$top/common/answer_ranges.c" \
	"$top/common/sha256.c" "$top/common/util.c" \
	-lseccomp -lsodium 2>"$T/cc.log"; then
	fail build/mkblob "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 755 "$T/bin" "$T/bin/probe"

# policy OUT ITEM...: write a blob readable by the rootless user.
policy() {
	out=$1
	shift
	"$T/tools/mkblob" "$out" "$@" && chmod 644 "$out"
}

# The base of the test policies: /usr read-only, proc, dev, tmpfs /tmp, the
# probe's directory, and a small filter that denies what only seccomp can
# deny here (keyrings, bpf) so that the other layers are tested alone.
BASE="env:PATH=/usr/bin:/bin bind:/usr:/usr:exec symlink:/bin:usr/bin
symlink:/lib:usr/lib symlink:/lib64:usr/lib64 proc:/proc dev:/dev
tmpfs:/tmp:16M:1777 bind:$T/bin:/probe:exec hostname=sandbox
seccomp:errno=1:keyctl,add_key,request_key,bpf"
# shellcheck disable=SC2086
policy "$T/base.wardb" $BASE env:A=b inherit:HOME inherit:WARD_UNSET || exit 1

for c in truncate digest overlap hugecount wrongarch; do
	# shellcheck disable=SC2086
	policy "$T/bad-$c.wardb" $BASE corrupt=$c || exit 1
done

# launch MODE WARD-ARGS...: run ward under the safety net. Output in
# $T/out and $T/err, status in $rc.
launch() {
	mode=$1
	shift
	if [ "$mode" = rootless ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" "$@"
	else
		set -- "$WARD" "$@"
	fi
	prlimit --nproc=512 timeout -k 2 20 "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}

has() { grep -qxF -- "$1" "$T/out"; }
err_has() { grep -qF -- "$1" "$T/err"; }
why() { printf 'rc=%s out=%s err=%s' "$rc" "$(head -c 200 "$T/out" | tr '\n' '|')" \
	"$(head -c 300 "$T/err" | tr '\n' '|')"; }

# expect NAME RC LINE...: the launch ended with RC and printed every LINE.
expect() {
	name=$1
	want=$2
	shift 2
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit $rc, expected $want; $(why)"
		return 1
	fi
	for l in "$@"; do
		if ! has "$l"; then
			fail "$name" "no line \"$l\"; $(why)"
			return 1
		fi
	done
	pass "$name"
}

# refused NAME TEXT: ward refused (125) and said TEXT.
refused() {
	if [ "$rc" = 125 ] && err_has "$2"; then
		pass "$1"
	else
		fail "$1" "expected 125 and \"$2\"; $(why)"
	fi
}

# Does the host show i386 syscalls at all? (Some hypervisors have no
# int 0x80 entry: the probe dies of SIGSEGV outside any sandbox.)
"$T/bin/probe" int80 >/dev/null 2>&1
host_int80=$?

for mode in root rootless; do
	m=$mode
	if [ $m = root ]; then sbx=65534; else sbx=65534; fi
	B="$T/base.wardb"

	# ---- identity: not root inside; files land as an unprivileged uid
	rm -rf "$T/out.d" && mkdir "$T/out.d" && chown 65534:65534 "$T/out.d"
	policy "$T/slot.wardb" $BASE slot:out:/out:rw
	mkdir -p "$T/rep.d" && chmod 1777 "$T/rep.d" && rm -f "$T/rep.d/id.json"
	launch $m --report "$T/rep.d/id.json" --slot out="$T/out.d" "$T/slot.wardb" -- /probe/probe ids write /out/f
	owner=$(stat -c %u:%g "$T/out.d/f" 2>/dev/null)
	# root mode: the run's own ids, from ward's block (never 65534, the
	# host's nobody, shared with every other run); rootless: the caller's
	if [ $m = root ]; then
		h=$(jq -r .identity.host_uid "$T/rep.d/id.json" 2>/dev/null)
		want="$h:$h"
		[ "${h:-0}" -ge 2097152000 ] 2>/dev/null || want="a run id, not $h"
	else
		want="65534:65534"
	fi
	if [ "$rc" = 0 ] && has "ids $sbx $sbx $sbx $sbx $sbx $sbx" &&
		has "write ok" && [ "$owner" = "$want" ] &&
		[ "$(stat -c %u:%g "$T/out.d")" = "65534:65534" ]; then
		pass "$m/identity"
	else
		fail "$m/identity" "owner=$owner want=$want; $(why)"
	fi
	if [ $m = root ]; then
		rm -f "$T/out.d/f"
		chmod 777 "$T/out.d"
		launch $m --host-uid 4242 --host-gid 4243 --slot out="$T/out.d" \
			"$T/slot.wardb" -- /probe/probe ids write /out/f
		owner=$(stat -c %u:%g "$T/out.d/f" 2>/dev/null)
		if [ "$rc" = 0 ] && has "ids 65534 65534 65534 65534 65534 65534" &&
			[ "$owner" = "4242:4243" ]; then
			pass "$m/host-uid"
		else
			fail "$m/host-uid" "owner=$owner; $(why)"
		fi
		launch $m --host-uid 0 "$B" -- /probe/probe ids
		refused "$m/host-uid-0" "never host root"
		# Two runs at once, seen from outside: each gets an id pair of
		# ward's block of its own (issue 15: per-user counters and what
		# a run leaves are never shared), no host user's; the control,
		# both given the same --host-uid, do share one.
		two_runs() { # WARD-OPTIONS...: owners of o1/f and o2/f
			rm -rf "$T/o1" "$T/o2" && mkdir "$T/o1" "$T/o2" && chmod 777 "$T/o1" "$T/o2"
			pids=
			for k in 1 2; do
				prlimit --nproc=512 timeout -k 2 20 "$WARD" "$@" --slot out="$T/o$k" \
					"$T/slot.wardb" -- /probe/probe write /out/f sleep 1 >/dev/null 2>&1 </dev/null &
				pids="$pids $!"
			done
			# shellcheck disable=SC2086
			wait $pids
			owners="$(stat -c %u:%g "$T/o1/f" 2>/dev/null) $(stat -c %u:%g "$T/o2/f" 2>/dev/null)"
		}
		two_runs
		o1=${owners%% *} o2=${owners##* }
		u1=${o1%%:*} u2=${o2%%:*}
		if [ -n "$u1" ] && [ -n "$u2" ] && [ "$u1" != "$u2" ] &&
			[ "$u1" -ge 2097152000 ] && [ "$u2" -ge 2097152000 ] &&
			[ "$o1" = "$u1:$u1" ] && [ "$o2" = "$u2:$u2" ] &&
			! getent passwd "$u1" >/dev/null && ! getent passwd "$u2" >/dev/null; then
			pass "$m/run-ids-two-runs-apart ($owners)"
		else
			fail "$m/run-ids-two-runs-apart" "owners [$owners]"
		fi
		two_runs --host-uid 4242 --host-gid 4242
		if [ "$owners" = "4242:4242 4242:4242" ]; then
			pass "$m/run-ids-control-fixed-id-shared"
		else
			fail "$m/run-ids-control-fixed-id-shared" "owners [$owners]"
		fi
	else
		launch $m --host-uid 4242 "$B" -- /probe/probe ids
		refused "$m/host-uid-needs-root" "need root"
	fi

	# ---- the file system
	launch $m "$B" -- /probe/probe write /x write /usr/x write /tmp/x
	expect "$m/readonly-root" 0 "write EROFS" "write ok"
	launch $m "$B" -- /probe/probe mounts
	if [ "$rc" = 0 ] && has "mnt / ro,nosuid,nodev,noexec,relatime" &&
		has "mnt /usr ro,nosuid,nodev,relatime" &&
		has "mnt /tmp rw,nosuid,nodev,noexec,relatime" &&
		! grep -v '^mnt /dev/' "$T/out" | grep -v nosuid,nodev | grep -q .; then
		pass "$m/mount-flags"
	else
		fail "$m/mount-flags" "$(why)"
	fi
	mkdir -p $bait && echo secret >$bait/f && chmod -R a+rX $bait
	launch $m "$B" -- /probe/probe stat $bait/f stat /etc/shadow stat /root stat /usr/bin/sh
	rm -rf $bait
	# /usr/bin/sh is the control: the probe does see what is bound.
	if [ "$rc" = 0 ] && [ "$(grep -c '^stat ENOENT' "$T/out")" = 3 ] &&
		[ "$(sed -n 4p "$T/out")" = "stat ok" ]; then
		pass "$m/bait-file"
	else
		fail "$m/bait-file" "$(why)"
	fi

	# ---- what is inherited: only the policy's environment, fds 0-2
	home=${HOME:-/root}
	export HOME=/home/bait WARD_BAIT=secret
	launch $m "$B" -- /probe/probe env 7<"$B"
	ctl=$("$T/bin/probe" env | grep -c WARD_BAIT=secret)
	unset WARD_BAIT
	HOME=$home
	if [ "$rc" = 0 ] && [ "$ctl" = 1 ] && [ "$(grep -c '^env ' "$T/out")" = 3 ] &&
		has "env PATH=/usr/bin:/bin" && has "env A=b" &&
		has "env HOME=/home/bait"; then
		pass "$m/env-exact"
	else
		fail "$m/env-exact" "$(why)"
	fi
	# (The control: the harness's descriptors do reach ward's process.)
	ctl=$(sh -c '"$1" fds' - "$T/bin/probe" 7<"$B" 9>"$T/fd9")
	launch $m "$B" -- /probe/probe fds 7<"$B" 9>"$T/fd9"
	if [ "${ctl#fds 0 1 2 7 9}" != "$ctl" ]; then
		expect "$m/fds-closed" 0 "fds 0 1 2"
	else
		fail "$m/fds-closed" "control saw \"$ctl\""
	fi

	# ---- attacks that the namespaces, capabilities and init stop
	launch $m "$B" -- /probe/probe mount unshare-mnt unshare-user ptrace \
		open-w /proc/1/exe keyctl bpf
	expect "$m/attacks" 0 "mount EPERM" "unshare-mnt EPERM" \
		"unshare-user ENOSPC" "ptrace EPERM" "open-w EACCES" \
		"keyctl EPERM" "bpf EPERM"
	launch $m "$B" -- /probe/probe caps hostname netif
	expect "$m/caps-dropped" 0 "caps CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 CapBnd=0000000000000000 CapAmb=0000000000000000 NoNewPrivs=1 Seccomp=2" \
		"hostname sandbox" "netif lo:up"
	# uid 0 inside the sandbox is worth nothing (securebits, no caps).
	policy "$T/uid0.wardb" $BASE uid=0 gid=0
	launch $m "$T/uid0.wardb" -- /probe/probe ids caps mount
	expect "$m/uid0-inside" 0 "ids 0 0 0 0 0 0" "caps CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 CapBnd=0000000000000000 CapAmb=0000000000000000 NoNewPrivs=1 Seccomp=2" \
		"mount EPERM"
	policy "$T/caps.wardb" $BASE caps=0x400
	launch $m "$T/caps.wardb" -- /probe/probe caps
	expect "$m/caps-keep" 0 "caps CapInh=0000000000000400 CapPrm=0000000000000400 CapEff=0000000000000400 CapBnd=0000000000000400 CapAmb=0000000000000400 NoNewPrivs=1 Seccomp=2"

	# TIOCSTI: the probe's stdin is a terminal that is the controlling
	# terminal of the session ward runs in; the control, outside the
	# sandbox, shows that the injection works there.
	if [ $m = root ]; then pre=; else pre="setpriv --reuid=65534 --regid=65534 --clear-groups"; fi
	timeout 10 script -qec "$pre $T/bin/probe tiocsti 0" /dev/null >"$T/ctl" 2>&1
	timeout 10 script -qec "$pre $WARD --stdin - $B -- /probe/probe tiocsti 0" /dev/null >"$T/out" 2>&1
	rc=0
	if grep -q "tiocsti ok" "$T/ctl" && grep -q "tiocsti EPERM" "$T/out"; then
		pass "$m/tiocsti"
	else
		fail "$m/tiocsti" "control: $(tr -d '\r' <"$T/ctl" | head -c 100); $(why)"
	fi

	# A setuid-root binary in a writable slot gains nothing (nosuid).
	rm -rf "$T/suid.d" && mkdir "$T/suid.d" && chown 65534:65534 "$T/suid.d"
	cp "$T/bin/probe" "$T/suid.d/probe" && chown 0:0 "$T/suid.d/probe" &&
		chmod 6755 "$T/suid.d/probe"
	policy "$T/suid.wardb" $BASE slot:s:/s:rw,exec
	launch $m --slot s="$T/suid.d" "$T/suid.wardb" -- /s/probe ids
	if [ -u "$T/suid.d/probe" ]; then
		expect "$m/setuid-in-slot" 0 "ids 65534 65534 65534 65534 65534 65534"
	else
		fail "$m/setuid-in-slot" "the setuid bit did not stick on the host copy"
	fi

	# A symlink planted in a slot cannot lead a mount or a file out.
	rm -rf "$T/sl.d" "$T/target" && mkdir "$T/sl.d" "$T/target"
	echo keep >"$T/target/f.txt"
	ln -s "$T/target" "$T/sl.d/cache"
	ln -s "$T/target/f.txt" "$T/sl.d/f.txt"
	chown -h 65534:65534 "$T/sl.d" "$T/sl.d/cache" "$T/sl.d/f.txt"
	policy "$T/sl1.wardb" $BASE slot:w:/w:rw tmpfs:/w/cache:1M
	launch $m --slot w="$T/sl.d" "$T/sl1.wardb" -- /probe/probe ids
	if [ "$rc" = 125 ] && err_has "symlink" && [ "$(ls "$T/target")" = f.txt ] &&
		! grep -q " $T/target " /proc/self/mountinfo; then
		pass "$m/slot-symlink-mount"
	else
		fail "$m/slot-symlink-mount" "$(why)"
	fi
	policy "$T/sl2.wardb" $BASE slot:w:/w:rw file:/w/f.txt:0444:owned
	launch $m --slot w="$T/sl.d" "$T/sl2.wardb" -- /probe/probe ids
	if [ "$rc" = 125 ] && err_has "symlink" && [ "$(cat "$T/target/f.txt")" = keep ]; then
		pass "$m/slot-symlink-file"
	else
		fail "$m/slot-symlink-file" "$(why)"
	fi
	ln -s "$T/target" "$T/slotlink"
	launch $m --slot out="$T/slotlink" "$T/slot.wardb" -- /probe/probe ids
	refused "$m/slot-path-symlink" "symlink is not followed"
	rm -f "$T/slotlink"

	# ---- seccomp: foreign ABIs die
	"$T/bin/probe" x32 >"$T/ctl" 2>&1
	launch $m "$B" -- /probe/probe x32
	if grep -q "x32 ENOSYS" "$T/ctl" && [ "$rc" = 159 ] && ! has "x32 ENOSYS"; then
		pass "$m/x32-killed"
	else
		fail "$m/x32-killed" "control: $(cat "$T/ctl"); $(why)"
	fi
	if [ "$host_int80" = 0 ]; then
		launch $m "$B" -- /probe/probe int80
		expect "$m/int80-killed" 159
	else
		skip "$m/int80-killed" "int 0x80 dies with status $host_int80 outside any sandbox on this host"
	fi

	# ---- lifecycle
	launch $m "$B" -- /probe/probe doublefork
	expect "$m/zombies-reaped" 0 "zombies 0"
	marker="ward-e2e-marker-$$-$m"
	if [ $m = rootless ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" "$B" -- \
			/probe/probe sleep 30 "$marker" >/dev/null 2>&1 &
	else
		"$WARD" "$B" -- /probe/probe sleep 30 "$marker" >/dev/null 2>&1 &
	fi
	sup=$!
	bgpids="$bgpids $sup"
	i=0
	while ! pgrep -f "^/probe/probe sleep 30 $marker" >/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if ! pgrep -f "^/probe/probe sleep 30 $marker" >/dev/null; then
		fail "$m/supervisor-killed" "the target never started"
	else
		kill -9 $sup
		sleep 1
		if pgrep -f "$marker" >"$T/left"; then
			fail "$m/supervisor-killed" "left alive: $(tr '\n' ' ' <"$T/left")"
			pkill -9 -f "$marker"
		else
			pass "$m/supervisor-killed"
		fi
	fi
	wait $sup 2>/dev/null
	if [ $m = rootless ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$WARD" "$B" -- \
			/probe/probe sleep 30 >/dev/null 2>&1 &
	else
		"$WARD" "$B" -- /probe/probe sleep 30 >/dev/null 2>&1 &
	fi
	sup=$!
	bgpids="$bgpids $sup"
	sleep 0.5
	kill -TERM $sup
	wait $sup
	rc=$?
	expect "$m/sigterm-forwarded" 143

	# ---- exit codes
	launch $m "$B" -- /probe/probe exit 3
	expect "$m/exit-status" 3
	launch $m "$B" -- /probe/probe kill 9
	expect "$m/exit-signal" 137
	launch $m "$B" -- /probe/probe sigpipe
	expect "$m/signals-default" 141
	policy "$T/nosrc.wardb" $BASE bind:/nonexistent-ward-src:/x
	i=0
	while [ $i -lt 5 ]; do
		launch $m "$T/nosrc.wardb" -- /probe/probe ids
		[ "$rc" = 125 ] && err_has "bind /nonexistent-ward-src for /x" || break
		i=$((i + 1))
	done
	if [ $i = 5 ]; then pass "$m/setup-failure-reported"; else
		fail "$m/setup-failure-reported" "run $i: $(why)"; fi
	launch $m "$B" -- nosuchprogram
	if [ "$rc" = 127 ] && err_has "nosuchprogram: not found inside the sandbox (its PATH is"; then
		pass "$m/exit-not-found"
	else
		fail "$m/exit-not-found" "$(why)"
	fi
	# A program the host has but the policy does not bring in: said so,
	# with what the sandbox does see (the README's newcomer's surprise).
	launch $m "$B" -- /sbin/ldconfig --version
	if [ "$rc" = 127 ] && err_has "/sbin/ldconfig: not found inside the sandbox" &&
		err_has "the sandbox sees only its policy's mounts (" &&
		err_has "which is on the host"; then
		pass "$m/exit-not-found-on-host"
	else
		fail "$m/exit-not-found-on-host" "$(why)"
	fi
	policy "$T/noexec.wardb" $BASE file:/etc/script:0644:x
	launch $m "$T/noexec.wardb" -- /etc/script
	expect "$m/exit-cannot-execute" 126
	launch $m "$B" /probe/probe
	refused "$m/exit-usage" "expected --"
	rep="$T/out.d/report.json"
	launch $m --report "$rep" "$B" -- /probe/probe exit 7
	if [ "$rc" = 7 ] && [ "$(jq -r '.reason + " " + (.target_exit|tostring) + " " + .mode' "$rep" 2>/dev/null)" = "exited 7 $m" ]; then
		pass "$m/report"
	else
		fail "$m/report" "$(cat "$rep" 2>/dev/null); $(why)"
	fi
	rm -f "$rep" # ward never reuses a file (spec 3.3 step 4)
	launch $m --report "$rep" "$T/bad-digest.wardb" -- /probe/probe exit 7
	if [ "$rc" = 125 ] && [ "$(jq -r '.reason + " " + (.exit_code|tostring)' "$rep" 2>/dev/null)" = "launcher_error 125" ] &&
		jq -r .error "$rep" | grep -q "digest mismatch"; then
		pass "$m/report-refusal"
	else
		fail "$m/report-refusal" "$(cat "$rep" 2>/dev/null); $(why)"
	fi
	rm -f "$rep"

	# ---- stdin, rlimits
	echo "hello stdin" >"$T/in.txt" && chmod 644 "$T/in.txt"
	launch $m --stdin "$T/in.txt" "$B" -- /probe/probe stdin
	expect "$m/stdin-file" 0 "stdin 12 hello stdin"
	launch $m "$B" -- /probe/probe stdin
	expect "$m/stdin-default-null" 0 "stdin 0 "
	policy "$T/rl.wardb" $BASE limit:nofile=64
	launch $m "$T/rl.wardb" -- /probe/probe rlimits
	expect "$m/rlimits" 0 "rlimits nofile=64/64 core=0/0"

	# ---- refusals before any process is created
	launch $m "$T/bad-truncate.wardb" -- /probe/probe ids
	refused "$m/blob-truncated" "the header says"
	launch $m "$T/bad-digest.wardb" -- /probe/probe ids
	refused "$m/blob-bad-digest" "digest mismatch"
	launch $m "$T/bad-overlap.wardb" -- /probe/probe ids
	refused "$m/blob-overlap" "sections tile the body"
	launch $m "$T/bad-hugecount.wardb" -- /probe/probe ids
	refused "$m/blob-huge-count" "cannot fit"
	launch $m "$T/bad-wrongarch.wardb" -- /probe/probe ids
	refused "$m/blob-wrong-arch" "compiled for aarch64"
	launch $m --expect-digest "$(printf '%064d' 0)" "$B" -- /probe/probe ids
	refused "$m/expect-digest-mismatch" "digest mismatch"
	launch $m --expect-digest "$(sha256sum "$B" | cut -c1-64)" "$B" -- /probe/probe exit 0
	expect "$m/expect-digest-match" 0
	policy "$T/cg.wardb" $BASE req=1 limit:memory=64M
	launch $m "$T/cg.wardb" -- /probe/probe ids
	if [ $m = root ]; then
		# enforced now (tests/e2e/supervise.sh tests the limits)
		expect "$m/cgroup-memory-limit" 0 "ids 65534 65534 65534 65534 65534 65534"
	elif grep -q '^[0-9]*:memory:' /proc/self/cgroup; then
		# cgroup v1 has no delegation to users
		refused "$m/needs-cgroup-delegation" "rootless ward may not create any here"
	else
		skip "$m/needs-cgroup-delegation" "memory is not on cgroup v1 here"
	fi
	policy "$T/net.wardb" $BASE net=allowlist
	launch $m "$T/net.wardb" -- /probe/probe ids
	refused "$m/needs-net-allowlist" "network allow-list"
	# (a read-write slot without --slot gets a fresh workspace directory,
	# tests/exporter/e2e.sh; a read-only one has nothing to show)
	policy "$T/roslot.wardb" $BASE slot:in:/in
	launch $m "$T/roslot.wardb" -- /probe/probe ids
	refused "$m/slot-missing" "needs --slot in="
	launch $m --slot out="$T/out.d" --slot other=/tmp "$T/slot.wardb" -- /probe/probe ids
	refused "$m/slot-undeclared" "declares no slot"
	cp "$B" "$T/ww.wardb" && chmod 666 "$T/ww.wardb"
	launch $m "$T/ww.wardb" -- /probe/probe ids
	refused "$m/blob-world-writable" "writable by group or others"
	cp "$B" "$T/other.wardb" && chown 4321 "$T/other.wardb"
	launch $m "$T/other.wardb" -- /probe/probe ids
	refused "$m/blob-foreign-owner" "owned by uid 4321"
done

# No process at all for a refused blob (root mode; strace counts the
# launcher's process creations).
if command -v strace >/dev/null; then
	for b in bad-digest bad-hugecount bad-overlap; do
		# (A leak checker cannot stop the world under strace.)
		ASAN_OPTIONS=detect_leaks=0 timeout 20 \
			strace -f -qq -e trace=clone,clone3,fork,vfork \
			-o "$T/strace.log" "$WARD" "$T/$b.wardb" -- /probe/probe ids \
			>/dev/null 2>&1
		st=$?
		# A new process is a fork, a vfork, a clone3 or a clone without
		# CLONE_VM (a sanitizer's leak checker clones a CLONE_VM tracer).
		n=$(grep -E 'fork\(|clone3\(|clone\(' "$T/strace.log" |
			grep -vc 'clone(.*CLONE_VM')
		if [ "$st" = 125 ] && [ -f "$T/strace.log" ] && [ "$n" = 0 ]; then
			pass "root/no-process-$b"
		else
			fail "root/no-process-$b" "$n process creations: $(head -c 300 "$T/strace.log")"
		fi
	done
	# The control: a good blob makes exactly one clone3, and nothing else.
	ASAN_OPTIONS=detect_leaks=0 timeout 20 \
		strace -f -qq -e trace=clone,clone3,fork,vfork \
		-o "$T/strace.log" "$WARD" "$T/base.wardb" -- /probe/probe exit 0 \
		>/dev/null 2>&1
	if [ "$(grep -c 'clone3(' "$T/strace.log")" = 1 ]; then
		pass "root/one-clone3-control"
	else
		fail "root/one-clone3-control" "$(head -c 300 "$T/strace.log")"
	fi
else
	skip "root/no-process" "strace is not installed (make deps)"
fi

# A host that forbids user namespaces is explained, not met with a bare
# error: ward runs rootless inside a user namespace whose own
# user.max_user_namespaces is 0 (so the rest of the machine is untouched).
# The namespace's root sets the limit, then becomes uid 65534 for ward.
userns_forbidden() {
	d="$T/nouserns"
	mkdir "$d" && mkfifo "$d/go" || return 1
	timeout -k 2 20 unshare --user sh -c "echo \$\$ >$d/pid; read x <$d/go; exec sh -c \"
		echo 0 >/proc/sys/user/max_user_namespaces || exit 9;
		exec setpriv --reuid=65534 --regid=65534 --clear-groups \
			$WARD $T/base.wardb -- /probe/probe ids\"" >"$T/out" 2>&1 &
	bg=$!
	bgpids="$bgpids $bg"
	i=0
	while [ ! -s "$d/pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# The maps are written from here (root) before the inner shell
	# re-executes, so that it is root of its namespace with capabilities.
	pid=$(cat "$d/pid" 2>/dev/null)
	[ -n "$pid" ] || { fail "rootless/userns-forbidden-explained" "no inner shell"; return; }
	printf '0 0 1\n65534 65534 1\n' >"/proc/$pid/uid_map"
	printf '0 0 1\n65534 65534 1\n' >"/proc/$pid/gid_map"
	timeout 10 sh -c 'echo go >"$1"' - "$d/go"
	wait $bg
	rc=$?
	if [ "$rc" = 125 ] && grep -q "user.max_user_namespaces = 0" "$T/out" &&
		grep -q "sysctl user.max_user_namespaces=" "$T/out"; then
		pass "rootless/userns-forbidden-explained"
	else
		fail "rootless/userns-forbidden-explained" "rc=$rc $(head -c 300 "$T/out")"
	fi
}
userns_forbidden

# The real compiler's output runs the same (when wardc is built).
WARDC=${WARDC:-$top/$BUILD/wardc}
if [ -x "$WARDC" ]; then
	cat >"$T/e2e.ward" <<EOF
ward 1;
policy e2e;
identity { user 65534; group 65534; hostname "sandbox"; capabilities none; }
env { PATH = "/usr/bin:/bin"; }
fs {
	bind /usr ro exec;
	symlink /bin -> usr/bin;
	symlink /lib -> usr/lib;
	symlink /lib64 -> usr/lib64;
	proc;
	dev;
	tmpfs /tmp size 16M mode 1777;
	bind "$T/bin" at /probe ro exec;
}
net none;
limits { nofile 128; }
syscalls default allow { errno EPERM keyctl, add_key, request_key, bpf; }
EOF
	if "$WARDC" compile "$T/e2e.ward" -o "$T/wardc.wardb" >"$T/err" 2>&1; then
		chmod 644 "$T/wardc.wardb"
		for m in root rootless; do
			launch $m "$T/wardc.wardb" -- /probe/probe ids keyctl rlimits write /x
			expect "$m/wardc-compiled-policy" 0 \
				"ids 65534 65534 65534 65534 65534 65534" "keyctl EPERM" \
				"rlimits nofile=128/128 core=0/0" "write EROFS"
		done
	else
		fail "wardc/compile" "$(head -c 300 "$T/err")"
	fi
else
	skip "wardc/compiled-policy" "no wardc at $WARDC"
fi

# Supervision (limits, timeouts, output, the report, cleanup): its own
# file, run from here so that the e2e suite keeps one entry point.
if ! BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" CC="$CC" \
	sh "$top/tests/e2e/supervise.sh"; then
	failures=$((failures + 1))
fi

# Every limit on the record: disk full, filesize, peaks per mount, slots.
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/outcomes.sh" >"$T/outcomes.out" 2>&1
cat "$T/outcomes.out"
grep -q '^FAIL' "$T/outcomes.out" && failures=$((failures + 1))

# Landlock, the second file layer: a mount table's lost read-only flag.
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" MKBLOB="$T/tools/mkblob" \
	PROBE_DIR="$T/bin" sh "$top/tests/e2e/landlock.sh" >"$T/landlock.out" 2>&1
cat "$T/landlock.out"
grep -q '^FAIL' "$T/landlock.out" && failures=$((failures + 1))

# The report for audit and replay: program and input digests, wardc replay.
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/replay.sh" >"$T/replay.out" 2>&1
cat "$T/replay.out"
grep -q '^FAIL' "$T/replay.out" && failures=$((failures + 1))

# Root never reads what the sandbox wrote (privilege separation).
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/privsep.sh" >"$T/privsep.out" 2>&1
cat "$T/privsep.out"
grep -q '^FAIL' "$T/privsep.out" && failures=$((failures + 1))

# The host's ceiling on sandboxes and its queue (admission control).
BUILD="$BUILD" WARD="$WARD" CC="$CC" sh "$top/tests/e2e/admission.sh" >"$T/admission.out" 2>&1
cat "$T/admission.out"
grep -q '^FAIL' "$T/admission.out" && failures=$((failures + 1))

# Signed profiles: --trusted-key, wardc keygen/sign/explain.
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/signing.sh" >"$T/signing.out" 2>&1
cat "$T/signing.out"
grep -q '^FAIL' "$T/signing.out" && failures=$((failures + 1))
# Record mode: record, suggest, and the suggestion run (docs/spec.md 4.12).
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/record.sh" >"$T/record.out" 2>&1
cat "$T/record.out"
grep -q '^FAIL' "$T/record.out" && failures=$((failures + 1))

# Sessions: one sandbox, many cells (docs/spec.md part 7).
BUILD="$BUILD" WARD="$WARD" WARDC="$WARDC" sh "$top/tests/e2e/session.sh" >"$T/session.out" 2>&1
cat "$T/session.out"
grep -q '^FAIL' "$T/session.out" && failures=$((failures + 1))

# A setuid ward refuses to run.
cp "$WARD" "$T/bin/ward-suid" && chmod 4755 "$T/bin/ward-suid"
rc=0
setpriv --reuid=65534 --regid=65534 --clear-groups "$T/bin/ward-suid" \
	"$T/base.wardb" -- /probe/probe ids >"$T/out" 2>"$T/err" || rc=$?
refused "rootless/setuid-refused" "must not be installed setuid"
rm -f "$T/bin/ward-suid"

[ "$failures" = 0 ]
