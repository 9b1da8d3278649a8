#!/bin/sh
# tests/attacks/run.sh [PATTERN...]: the attack suite. Every file
# tests/attacks/BOUNDARY/NAME.sh is one attack (see README.md): it runs as
# the sandboxed program under the stdlib profile it targets, and is
# observed from outside. One line per attack and mode, "PASS MODE/NAME",
# "FAIL MODE/NAME: why" or "SKIP MODE/NAME: why", closing with
# "N passed, N failed". PATTERNs (shell globs on NAME) select attacks.
#
# Needs root (root mode, setpriv for rootless mode, network namespaces,
# the outer cgroups). The safety net is described in README.md.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARD=${WARD:-$TOP/$BUILD/ward}
WARDC=${WARDC:-$TOP/$BUILD/wardc}
CC=${CC:-cc}
A="$TOP/tests/attacks"
CASE_TIMEOUT=${CASE_TIMEOUT:-300}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP attack: needs root (root mode, rootless by setpriv, namespaces, cgroups)"
	exit 0
fi
for f in "$WARD" "$WARDC"; do
	if [ ! -x "$f" ]; then
		echo "FAIL attack/setup: no $f (make BUILD=$BUILD)"
		exit 1
	fi
done

# shellcheck source=lib/world.sh
. "$A/lib/world.sh"
# shellcheck source=lib/attack.sh
. "$A/lib/attack.sh"

passed=0 failed=0 skipped=0
line() { # KIND NAME MSG
	case $1 in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	if [ -n "${3:-}" ]; then echo "$1 $2: $3"; else echo "$1 $2"; fi
}
finish() {
	[ -f "${T:-/nonexistent}/times" ] && sort -k2 -rn "$T/times" | head -5 |
		awk '{ printf "# slowest: %s\n", $0 }'
	echo "$passed passed, $failed failed ($skipped skipped)"
	[ "$failed" = 0 ]
	exit
}

# ------------------------------------------------------------ setup
world_init ward-attack
if ! safety_net_init "ward-attack-$$" 2>"$T/net.err"; then
	line FAIL setup/safety-net "cannot make the outer cgroups: $(head -c 300 "$T/net.err")"
	finish
fi
pick_root_huid || {
	line FAIL setup/host-uid "no free uid in 61000-64999"
	finish
}

# The static programs the attacks run inside (bound through the input
# slot): tests/e2e/probe.c (shared with the end-to-end tests) and
# tests/attacks/lib/atk.c; mkblob for the test policies that need no
# seccomp filter.
build() { # OUT SRC [FLAGS...]
	local out=$1 src=$2
	shift 2
	"$CC" -O2 -Wall -Wextra -o "$T/bin/$out" "$src" "$@" 2>"$T/cc.log" || {
		line FAIL "setup/build-$out" "$(head -c 400 "$T/cc.log")"
		finish
	}
}
build probe "$TOP/tests/e2e/probe.c" -static
build atk "$A/lib/atk.c" -static -pthread
build brk "$A/lib/brk.c" -static -pthread
build mkblob "$TOP/tests/e2e/mkblob.c" -D_GNU_SOURCE -I"$TOP/common" \
	-I"$TOP/compiler/codegen" "$TOP/compiler/codegen/blob_write.c" "$TOP/compiler/codegen/landlock_rules.c" "$TOP/common/blob_read.c" \
	"$TOP/common/sha256.c" "$TOP/common/util.c" -lseccomp -lsodium
chmod 755 "$T/bin"/*

if ! net_world_init 2>"$T/net.err"; then
	line FAIL setup/net-world "$(head -c 300 "$T/net.err")"
	finish
fi
policies_build || finish
probe_profiles
for m in root rootless; do
	for p in $PROFILES; do
		v=$(MODE=$m accepted "$p")
		case $v in
		real) echo "# $m $p: the stdlib profile as it is" ;;
		nocg) echo "# $m $p: a test copy without the supervisor's limits ($(refusal $m "$p"))" ;;
		*) echo "# $m $p: refused ($(refusal $m "$p"); test copy: $(refusal $m "$p-nocg"))" ;;
		esac
	done
done

# Test policies, each more permissive than a profile in exactly one way
# (the attacks that use them say which, and check it with `wardc diff`).
# "layers": the python profile's view of the host with no seccomp filter
# at all, for the attacks that show what stops a call when seccomp does
# not (namespaces, capabilities, no_new_privs, the mount table).
LAYERS="name=layers env:PATH=/usr/bin:/bin env:LANG=C.UTF-8 env:HOME=/work
bind:/usr:/usr:exec symlink:/bin:usr/bin symlink:/lib:usr/lib
symlink:/lib64:usr/lib64 symlink:/sbin:usr/sbin proc:/proc dev:/dev
tmpfs:/tmp:100M:1777 tmpfs:/work:100M slot:input:/input:exec
slot:output:/output:rw seccomp-default:allow"
# shellcheck disable=SC2086
mkblob_policy layers $LAYERS || {
	line FAIL setup/policy-layers "$(head -c 300 "$T/pol/err")"
	finish
}

# ------------------------------------------------------------ the table
# docs/attacks.md is generated from the attack headers: a stale table fails.
if sh "$A/gen-doc.sh" >"$T/attacks.md" 2>"$T/gen.err"; then
	if cmp -s "$T/attacks.md" "$TOP/docs/attacks.md"; then
		line PASS doc/attacks-table
	else
		line FAIL doc/attacks-table "docs/attacks.md differs from the attack headers (sh tests/attacks/gen-doc.sh >docs/attacks.md)"
	fi
else
	line FAIL doc/attacks-table "$(head -c 300 "$T/gen.err")"
fi

# ------------------------------------------------------------ lifecycle
# What of a run could outlive it, seen from the host: processes (in the
# test's cgroups; as root, any process of the run's unique host uid),
# mounts of the host's mount namespace, cgroup directories named ward,
# files in the temporary directories owned by the sandbox user, network
# namespaces and links.
# The cgroups of the test harnesses themselves (this one, tests/net,
# tests/profiles), which may run at the same time on a shared machine.
OTHER_HARNESSES='/ward-attack-[0-9]+|/ward-net-(test|bench)-[0-9]+|/ward-profiles-[0-9]+|/ward-e2e-[0-9]+'
life_snapshot() { # FILE
	{
		# (network namespaces made by test harnesses are bound under
		# /run/netns; ward makes none)
		echo "== mounts"
		awk '$5 !~ "^/run/netns/" { print $5 }' /proc/self/mountinfo | sort
		echo "== cgroups"
		# (a directory named just "ward" is the base ward makes under the
		# cgroup it runs in and keeps by design; a run's directory below
		# it must not stay, which life_check sees in the test cgroups)
		find /sys/fs/cgroup -maxdepth 5 -type d -name '*ward*' ! -name ward 2>/dev/null |
			grep -vE "$OTHER_HARNESSES" | sort
		echo "== links"
		ip -o link 2>/dev/null | awk -F': ' '{ print $2 }' | sort
		in_ns "$NS_HOST" ip -o link 2>/dev/null | awk -F': ' '{ print "host-ns " $2 }' | sort
	} >"$1"
}

life_check() { # BEFORE: prints what outlived the run
	local left d i
	# Processes that are dying (a control's orphans, killed or exited)
	# get up to 3 s to be gone.
	for i in $(seq 30); do
		[ -z "$(cg_procs)" ] && { [ "$MODE" != root ] || ! pgrep -U "$HUID" >/dev/null; } &&
			! pgrep -f "$MARK" >/dev/null && break
		sleep 0.1
	done
	left=$(cg_procs)
	[ -n "$left" ] && printf 'processes left in the test cgroup: %s; ' \
		"$(for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60; echo; done | sort -u | tr '\n' '|')"
	if [ "$MODE" = root ]; then
		left=$(pgrep -U "$HUID" | tr '\n' ' ')
		[ -n "$left" ] && printf 'processes of the sandbox uid %s left: %s; ' "$HUID" "$left"
	fi
	left=$(pgrep -f "$MARK" | tr '\n' ' ')
	[ -n "$left" ] && printf 'processes with the marker left: %s; ' "$left"
	# ward's base (<own cgroup>/ward) stays; a run's directory must not.
	for d in "${CG_RUN[@]}"; do
		left=$(find "$d" -mindepth 1 -type d ! -path "$d/ward" ! -path "$d/sh" 2>/dev/null | tr '\n' ' ')
		[ -n "$left" ] && printf 'cgroups left: %s; ' "$left"
	done
	life_snapshot "$CASE_T/life.after"
	left=$(diff "$1" "$CASE_T/life.after" | grep '^>' | tr '\n' ' ' | cut -c1-300)
	[ -n "$left" ] && printf 'left on the host: %s; ' "$left"
	# Files the sandbox user made in the host's temporary directories, and
	# run directories left in ward's workspace bases.
	left=$(find /tmp /var/tmp /dev/shm /run -mindepth 1 -maxdepth 1 -user "$HUID" \
		-newer "$CASE_T/stamp" 2>/dev/null | tr '\n' ' ')
	[ -n "$left" ] && printf 'files of the sandbox uid left: %s; ' "$left"
	# The workspaces of this case's own runs, by the paths their reports
	# give (other ward runs may share the machine: theirs are not judged).
	left=$(for r in "$CASE_T"/rep/*.json; do
		[ -f "$r" ] && jq -r '.workspace.path // empty' "$r" 2>/dev/null
	done | while read -r w; do [ -e "$w" ] && echo "$w"; done | tr '\n' ' ')
	[ -n "$left" ] && printf 'workspaces left: %s; ' "$left"
	return 0
}

# ------------------------------------------------------------ the attacks
header() { # FILE KEY: the value of "# KEY: ..." (continuation lines joined)
	awk -v k="# $2:" '
		index($0, k) == 1 { v = substr($0, length(k) + 2); on = 1; next }
		on && /^#   / { sub(/^#[ ]+/, ""); v = v " " $0; next }
		{ on = 0 }
		/^[^#]/ { exit }
		END { print v }' "$1"
}

ncase=0
run_case() { # FILE
	local f=$1 name modes needs m v msg kind pols tag pid dog t0
	name=$(header "$f" attack)
	modes=$(header "$f" modes)
	needs=$(header "$f" needs)
	PROFILE=$(header "$f" profile)
	for m in ${modes:-root rootless}; do
		MODE=$m
		mode_ids
		ncase=$((ncase + 1))
		CASE_T="$T/runs/$ncase"
		IN="$CASE_T/in" OUTD="$CASE_T/out"
		MARK="wardmark$$x$ncase"
		mkdir -p "$IN" "$OUTD" "$CASE_T/rep" && chmod 755 "$CASE_T" "$IN"
		chown "$HUID:$HUID" "$OUTD"
		[ "$MODE" = rootless ] && chown "$NOBODY" "$CASE_T/rep"
		cp "$T/bin/atk" "$T/bin/probe" "$T/bin/brk" "$IN/"
		cg_new "c$ncase" || {
			line FAIL "$m/$name" "cannot make the test cgroups"
			continue
		}
		life_snapshot "$CASE_T/life.before"
		touch "$CASE_T/stamp"
		t0=$(date +%s)
		: >"$CASE_T/verdict"
		(
			_cleanup_actions=()
			trap _run_cleanup EXIT
			# shellcheck disable=SC1090
			. "$f"
			attack
		) >"$CASE_T/log" 2>&1 &
		pid=$!
		# The watchdog's sleep is killed with it and holds none of our
		# output open (a reader of this suite's pipe would wait for it).
		(sleep "$CASE_TIMEOUT" && kill -9 "$pid") >/dev/null 2>&1 &
		dog=$!
		wait "$pid"
		pkill -P "$dog" 2>/dev/null
		kill "$dog" 2>/dev/null
		wait "$dog" 2>/dev/null
		msg=$(life_check "$CASE_T/life.before")
		if ! cg_remove_run; then
			msg="${msg}cannot remove the test cgroups; "
		fi
		kind=PASS
		v=$(grep -m1 '^FAIL ' "$CASE_T/verdict" | cut -d' ' -f2-)
		if [ -n "$msg" ]; then
			kind=FAIL v="lifecycle: $msg${v:+; $v}"
		elif [ -n "$v" ]; then
			kind=FAIL
		elif grep -q '^SKIP ' "$CASE_T/verdict"; then
			kind=SKIP v=$(grep -m1 '^SKIP ' "$CASE_T/verdict" | cut -d' ' -f2-)
		elif ! grep -q '^CHECK ' "$CASE_T/verdict"; then
			kind=FAIL v="no observation was made ($(tail -c 300 "$CASE_T/log" | tr '\n' '|'))"
		elif ! grep -q '^CONTROL ' "$CASE_T/verdict"; then
			kind=FAIL v="no control was run"
		fi
		pols=$(sort -u "$CASE_T/policies" 2>/dev/null | grep -v ':real$' |
			sed 's/:nocg$/ without the supervisor limits/; s/:test$/ (test policy)/' | tr '\n' ',' | sed 's/,$//; s/,/, /g')
		tag=
		[ -n "$pols" ] && [ "$kind" != SKIP ] && tag=" [$pols]"
		if [ "$kind" = PASS ]; then
			echo "PASS $m/$name$tag"
			passed=$((passed + 1))
		else
			line "$kind" "$m/$name" "$v$tag"
		fi
		local touched
		touched=$(net_touched)
		if [ -n "$touched" ]; then
			line FAIL "$m/$name/safety-net" "the outer net stopped it: $touched"
			# Reset the counters so that the next attack is judged alone.
			echo 0 >"$CG_MEM/memory.failcnt" 2>/dev/null
		fi
		[ "${KEEP:-0}" = 1 ] || rm -rf "$CASE_T"
		echo "$m/$name $(($(date +%s) - t0)) s" >>"$T/times"
	done
}

cg_remove_run() {
	local d ok=0
	for d in "${CG_RUN[@]}"; do
		cg_remove "$d" || ok=1
	done
	return $ok
}

selected() { # NAME
	[ $# -gt 0 ] || return 0
	local p n=$1
	shift
	for p in $SELECT; do
		# shellcheck disable=SC2254
		case $n in $p) return 0 ;; esac
	done
	return 1
}

SELECT="$*"
for f in "$A"/*/*.sh; do
	case $f in "$A"/lib/*) continue ;; esac
	n=$(header "$f" attack)
	if [ -n "$SELECT" ]; then
		selected "$n" $SELECT || continue
	fi
	run_case "$f"
done
finish
