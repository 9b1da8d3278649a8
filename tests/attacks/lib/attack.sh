# shellcheck shell=bash
# tests/attacks/lib/attack.sh: what an attack file (tests/attacks/*/*.sh)
# may call. Each attack runs in a bash of its own with world.sh and this
# file sourced, and defines one function, attack(), which launches the
# attack and observes it from outside:
#
#   sbx [OPTS] -- CMD ARGS...     run CMD in the sandbox ($rc $SO $SE $REP)
#   outside [OPTS] -- CMD ARGS... the same outside the sandbox, as a control
#                                 ($crc $CO $CE)
#   control DESC CMD...           the control showed that the observation
#                                 sees the attack when nothing stops it
#   check DESC CMD...             an observation of the sandboxed run
#   fail MSG / skip MSG           verdicts (a fail wins)
#
# The verdict is PASS when no check failed, at least one check and one
# control ran, and nothing was skipped. The harness (run.sh) then checks
# that nothing of the run outlived it.
#
# Variables: MODE (root|rootless), HUID (the sandbox user's host uid), IN
# (the input slot: the attack's files, with the static programs `atk` and
# `probe`), OUTD (the output slot), CASE_T (a scratch directory of this
# attack, not visible to the sandbox), MARK (a string unique to this run).

_verdict() { # KIND MSG
	printf '%s %s\n' "$1" "$2" >>"$CASE_T/verdict"
}
fail() { _verdict FAIL "$*"; }
skip() { _verdict SKIP "$*"; }

check() { # DESC CMD...
	local d=$1
	shift
	_verdict CHECK "$d"
	"$@" || fail "$d"
}

control() { # DESC CMD...
	local d=$1
	shift
	_verdict CONTROL "$d"
	"$@" || fail "control: $d (the observation would not see the attack succeed)"
}

# why: a short account of the last sandboxed run, for failure messages.
why() {
	printf 'rc=%s out=%s err=%s' "$rc" "$(head -c 300 "$SO" | tr '\n' '|')" \
		"$(head -c 300 "$SE" | tr '\n' '|')"
}
cwhy() {
	printf 'control rc=%s out=%s err=%s' "$crc" "$(head -c 200 "$CO" | tr '\n' '|')" \
		"$(head -c 200 "$CE" | tr '\n' '|')"
}

# put NAME [MODE]: stdin becomes the file NAME of the input slot.
put() {
	cat >"$IN/$1" && chmod "${2:-644}" "$IN/$1"
}

# policy_path NAME: the policy under attack when NAME is the attack's own
# profile (base_name), another stdlib profile (the real one, or its test
# copy when ward refuses the real one in this mode) or a test policy of
# this run.
policy_path() {
	local v n
	n=$(base_name "$1")
	case " $PROFILES " in
	*" $n "*)
		v=$(accepted "$n")
		case $v in
		real) echo "$T/pol/$n.wardb" ;;
		nocg) echo "$T/pol/$n-nocg.wardb" ;;
		*) return 1 ;;
		esac
		echo "$n:$v" >>"$CASE_T/policies"
		;;
	*)
		echo "$T/pol/$1.wardb"
		echo "$1:test" >>"$CASE_T/policies"
		;;
	esac
}

# sbx [-p POLICY] [-t SECS] [-s STDIN] [-e VAR=VAL] [-o OUTDIR] [-w WARDOPT]
#     [-b] -- CMD ARGS...
# One run of ward in this MODE: the policy (default: the attack's
# `# profile:`), the slots input=$IN and output=$OUTD, a report in $REP.
# -b runs it in the background (its pid in $SBX_PID; `sbx_wait` sets $rc).
# Output in $SO and $SE.
_nsbx=0
sbx() {
	local pol=$PROFILE to=${LAUNCH_TIMEOUT:-60} stdin= out=$OUTD envs=() wopts=() bg=0 path u=
	while [ "$1" != -- ]; do
		case $1 in
		-p) pol=$2; shift ;;
		-t) to=$2; shift ;;
		-s) stdin=$2; shift ;;
		-e) envs+=(-e "$2"); shift ;;
		-o) out=$2; shift ;;
		-w) wopts+=("$2"); shift ;;
		-b) bg=1 ;;
		esac
		shift
	done
	shift
	_nsbx=$((_nsbx + 1))
	SO="$CASE_T/sbx$_nsbx.out" SE="$CASE_T/sbx$_nsbx.err"
	# (rootless, ward writes the report as the caller)
	REP="$CASE_T/rep/sbx$_nsbx.json"
	path=$(policy_path "$pol") || {
		skip "ward refuses the $pol profile in $MODE mode: $(refusal "$MODE" "$(base_name "$pol")")"
		rc=125
		return 1
	}
	[ "$MODE" = root ] && wopts+=(--host-uid "$HUID" --host-gid "$HUID")
	[ "$MODE" = root ] && [ "${CG_V2:-0}" = 1 ] && wopts+=(--cgroup-base "$CG_WARD_BASE")
	[ "$MODE" = rootless ] && u=$NOBODY
	[ -n "$stdin" ] && wopts+=(--stdin "$stdin")
	if [ -n "$(blob_slots "$path")" ]; then
		wopts+=(--slot "input=$IN" --slot "output=$out")
	fi
	if [ $bg = 1 ]; then
		run_netted -x ${u:+-u $u} -t "$to" "${envs[@]}" -- "$WARD" --report "$REP" \
			"${wopts[@]}" "$path" -- "$@" >"$SO" 2>"$SE" &
		SBX_PID=$!
		return 0
	fi
	run_netted ${u:+-u $u} -t "$to" "${envs[@]}" -- "$WARD" --report "$REP" \
		"${wopts[@]}" "$path" -- "$@" >"$SO" 2>"$SE"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ] && [ ! -s "$REP" ]; then
		fail "the harness's timeout (${to}s) ended the run: the sandbox did not"
	fi
	return 0
}

# ward_cmd VAR [-p POLICY] [-w WARDOPT]... -- CMD ARGS...: the command line
# sbx would run (the ward part, shell-quoted) into VAR, for an attack that
# must wrap it (in a terminal). Sets REP.
ward_cmd() {
	local var=$1 pol=$PROFILE path wopts=()
	shift
	while [ "$1" != -- ]; do
		case $1 in
		-p) pol=$2; shift ;;
		-w) wopts+=("$2"); shift ;;
		esac
		shift
	done
	shift
	_nsbx=$((_nsbx + 1))
	REP="$CASE_T/rep/sbx$_nsbx.json"
	path=$(policy_path "$pol") || return 1
	[ "$MODE" = root ] && wopts+=(--host-uid "$HUID" --host-gid "$HUID")
	[ "$MODE" = root ] && [ "${CG_V2:-0}" = 1 ] && wopts+=(--cgroup-base "$CG_WARD_BASE")
	[ -n "$(blob_slots "$path")" ] && wopts+=(--slot "input=$IN" --slot "output=$OUTD")
	printf -v "$var" '%q ' "$WARD" --report "$REP" "${wopts[@]}" "$path" -- "$@"
}

sbx_wait() {
	wait "$SBX_PID"
	rc=$?
}

# find_supervisor MARK: the pid of the supervisor of the run whose command
# line holds MARK, waiting up to 5 s for it ($SUP, empty if none). ward's
# other processes carry the same command line (the courier and the
# reclaimers are forks of the supervisor, init a clone of it that is also
# pid 1 of its own namespace): the supervisor is the one in the host's pid
# namespace only whose parent is not ward.
find_supervisor() {
	local i p pp w
	w=$(readlink -f "$WARD")
	SUP=
	for i in $(seq 100); do
		for p in $(pgrep -f -- "$1"); do
			pp=$(awk '$1 == "PPid:" { print $2 }' "/proc/$p/status" 2>/dev/null)
			[ "$(readlink "/proc/$p/exe")" = "$w" ] &&
				[ "$(awk '$1 == "NSpid:" { print NF }' "/proc/$p/status")" = 2 ] &&
				[ "$(readlink "/proc/$pp/exe")" != "$w" ] && SUP=$p
		done
		[ -n "$SUP" ] && return 0
		sleep 0.05
	done
	return 1
}

# ctl_fifo: a FIFO for `sbx -s "$CTL_FIFO"`, the one live channel from the
# harness into a running sandbox (the slots are copies: docs/spec.md
# 1.7.3). The harness holds it open read-write (fd CTL_FD), so ward's open
# of it does not wait and its reader sees no end of file before the case's
# own end. `ctl_say LINE` writes one line to it.
ctl_fifo() {
	CTL_FIFO="$CASE_T/ctl.fifo"
	rm -f "$CTL_FIFO"
	mkfifo -m 666 "$CTL_FIFO" || fail "mkfifo $CTL_FIFO"
	exec {CTL_FD}<>"$CTL_FIFO"
	at_exit "exec $CTL_FD>&-"
}
ctl_say() { printf '%s\n' "$1" >&"$CTL_FD"; }

# blob_slots BLOB: the slot names a blob declares (cached per blob).
blob_slots() {
	local c="$1.slots"
	[ -f "$c" ] || "$WARDC" explain "$1" 2>/dev/null |
		awk '$3 == "slot" { print $4 }' >"$c"
	cat "$c"
}

# outside [-u UID|root] [-t SECS] [-e VAR=VAL] -- CMD ARGS...: the control,
# the same action outside the sandbox, in the same safety net and network
# namespace, as the sandbox's host user (default) or as root. Output in $CO
# and $CE, status in $crc.
_nout=0
outside() {
	local u=$HUID to=${LAUNCH_TIMEOUT:-60} envs=()
	while [ "$1" != -- ]; do
		case $1 in
		-u) u=$2; shift ;;
		-t) to=$2; shift ;;
		-e) envs+=(-e "$2"); shift ;;
		esac
		shift
	done
	shift
	local pre=()
	# (run by a user, "root" is root of a user namespace of its own: a
	# control that needs the host's root then cannot show the attack, and
	# the attack is an error, not a pass)
	[ "$u" = root ] && [ "$(id -u)" != 0 ] && pre=(unshare -r --)
	[ "$u" = root ] && u=
	_nout=$((_nout + 1))
	CO="$CASE_T/out$_nout.out" CE="$CASE_T/out$_nout.err"
	local keep=${rc:-}
	run_netted ${u:+-u $u} -t "$to" "${envs[@]}" -- "${pre[@]}" "$@" >"$CO" 2>"$CE"
	crc=$rc
	rc=$keep
}

# Observations.
not() { ! "$@"; }
so_has() { grep -qxF -- "$1" "$SO"; }
co_has() { grep -qxF -- "$1" "$CO"; }
rc_is() { [ "$rc" = "$1" ]; }
# leaks STRING: STRING appears in anything the run produced: its stdout,
# stderr, report, or any file of the output slot.
leaks() {
	# (the report's run.argv is the command line the caller gave, which
	# an attack may use to tell its program what to look for)
	grep -rqaF -- "$1" "$SO" "$SE" "$OUTD" 2>/dev/null ||
		{ jq 'del(.run.argv)' "$REP" 2>/dev/null || cat "$REP" 2>/dev/null; } |
		grep -qaF -- "$1"
}
nothing_leaks() { ! leaks "$1"; }
reason() { jq -r '.reason // empty' "$REP" 2>/dev/null; }
reason_is() { [ "$(reason)" = "$1" ]; }
# report_has JQ: the report satisfies a jq expression.
report_has() { jq -e "$1" "$REP" >/dev/null 2>&1; }

# needs_super: the resource attacks need the limits of the real profile,
# which only ward with supervision (issue 5) accepts.
needs_real() { # PROFILE
	if [ "$(accepted "$(base_name "$1")")" != real ]; then
		skip "waits for supervision (issue 5): ward refuses the real $1 profile in $MODE mode ($(refusal "$MODE" "$(base_name "$1")"))"
		return 1
	fi
}

rand_hex() { head -c "${1:-16}" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
