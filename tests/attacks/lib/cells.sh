# shellcheck shell=bash
# tests/attacks/lib/cells.sh: ward-attack's hooks (WARD_ATTACK_HOOKS) for
# tests/attacks/run-cells.sh: the attacks as cells of ONE session per
# mode. Sourced by harness_main after the setup, with $WARD the cell
# client (lib/ward-cell). For each mode it starts the shared session
# (`ward-cell --hold`, under the safety net and in NS_HOST as every launch,
# in cgroups of its own, with the sandbox's host uid and the input
# directory $T/cells/MODE/in, which the cases in CELLS_SHARED use as
# their $IN); every launch of such a case whose command line is the
# session's becomes a cell of it, judged by the harness as a run is, from
# the cell's reply (lib/ward-cell). After each case:
#   - one quiet cell (`sleep 0.3`), and the check cell before each of the
#     case's cells, must have no denials and no file changes: a case's
#     refusals and files are in its own cells' replies, not in the
#     neighbours' (with a control at the start: a process a cell leaves
#     behind makes a refused mount during the next cell, which must be
#     seen there);
#   - a session that ended under a cell is said, recorded on the case
#     and replaced by a new one for the rest.
# At the end each session is stopped and judged: it ended by the stop,
# and nothing of it is left (processes of the sandbox uid, its workspace,
# its socket's directory, its cgroups).

# The cases whose launches go to the shared session (run-cells.sh sets
# it; the others' launches each start a session of their own).
CELLS_SHARED=${CELLS_SHARED:-}
# shellcheck disable=SC2034 # (read through eval)
CELLS_GEN_root=0 CELLS_GEN_rootless=0

cells_py() { # ARGS...: ward-cell as the harness (root), outside the world
	WARD_CELL_WARD=$WARD_CELL_WARD python3 "$A/lib/ward-cell" "$@"
}

# cells_start MODE: a new shared session for MODE ($T/cells/MODE/cur).
cells_start() {
	local m=$1 g d u='' opts=() path stands i keep_run keep_join keep_base keep_case=${CASE_T:-}
	MODE=$m
	mode_ids
	eval "g=\$((CELLS_GEN_$m + 1)); CELLS_GEN_$m=\$g"
	d="$T/cells/$m/g$g"
	mkdir -p "$T/cells/$m/in" "$d/out" "$d/cg" && chmod 755 "$T/cells" "$T/cells/$m" "$T/cells/$m/in"
	cp "$T/bin/atk" "$T/bin/probe" "$T/bin/brk" "$T/cells/$m/in/"
	chown "$HUID:$HUID" "$d/out" 2>/dev/null || chmod 777 "$d/out"
	[ "$m" = rootless ] && { u=$NOBODY; chown "$NOBODY" "$d"; }
	echo "$m#$g" >"$d/name"
	ln -sfn "g$g" "$T/cells/$m/cur"
	# The case variables policy_path and cg_new use, kept for the case.
	keep_run=("${CG_RUN[@]}") keep_join=("${CG_JOIN[@]}") keep_base=${CG_WARD_BASE:-}
	CASE_T=$d
	path=$(policy_path "$TARGET_NAME") || {
		line FAIL "$m/cells/session-start" "no policy for $m mode"
		return 1
	}
	# The policy's wall is a session's lifetime (docs/spec.md 7.1): the
	# shared session runs a copy without it, which stands for the policy
	# (ward-cell --stands-for), and nothing else differs (wardc diff).
	stands=$path
	if derive_policy "cells-$m" "$TARGET_NAME" -e '/^    wall [0-9]/d' 2>/dev/null; then
		i=$("$WARDC" diff "$path" "$T/pol/cells-$m.wardb" 2>&1 | grep '^  [-+~] ')
		case $i in
		"") ;;
		"  + wall: "*" -> unlimited")
			path=$T/pol/cells-$m.wardb
			[ "$g" = 1 ] && echo "# $m: the shared session's policy differs from $(basename "$stands") by its wall alone (a session's lifetime; wardc diff: ${i#  + })"
			;;
		*)
			line FAIL "$m/cells/session-start" "the copy without the wall differs by more: $(printf '%s' "$i" | tr '\n' '|')"
			return 1
			;;
		esac
	fi
	cg_new "cells-$m-$g" || {
		line FAIL "$m/cells/session-start" "cannot make the session's test cgroups"
		return 1
	}
	echo "${CG_RUN[*]}" >"$d/cgroups"
	[ "$m" = root ] && opts+=(--host-uid "$HUID" --host-gid "$HUID")
	[ "$m" = root ] && [ "${CG_V2:-0}" = 1 ] && opts+=(--cgroup-base "$CG_WARD_BASE")
	[ -n "$(blob_slots "$path")" ] && opts+=(--slot "input=$T/cells/$m/in" --slot "output=$d/out")
	(run_netted -x ${u:+-u $u} -t 7200 -e "WARD_CELL_WARD=$WARD_CELL_WARD" \
		${WARD_MAX_SANDBOXES:+-e "WARD_MAX_SANDBOXES=$WARD_MAX_SANDBOXES"} -- \
		python3 "$A/lib/ward-cell" --hold "$d" --stands-for "$stands" "${opts[@]}" "$path") >"$d/holder.log" 2>&1 &
	echo $! >"$d/holder.pid"
	CG_RUN=("${keep_run[@]}") CG_JOIN=("${keep_join[@]}") CG_WARD_BASE=$keep_base CASE_T=$keep_case
	for i in $(seq 600); do
		[ -s "$d/socket" ] || [ -e "$d/ended" ] && break
		sleep 0.1
	done
	if [ ! -s "$d/socket" ]; then
		line FAIL "$m/cells/session-start" "the shared session $m#$g did not start: $(head -c 300 "$d/ended" "$d/holder.log" 2>/dev/null | tr '\n' '|')"
		rm -f "$T/cells/$m/cur"
		return 1
	fi
	# Its processes of the sandbox uid (init, the driver, the courier)
	# are the session's, not a case's (life_check's huid_procs).
	[ "$m" = root ] && pgrep -U "$HUID" >>"$T/keep-$m"
	echo "# $m: the shared session $m#$g ($(cat "$d/socket")): the cases' launches under ${TARGET_NAME} are its cells"
}

# cells_reply_clean JSON: no denial, no file changed in a cell's reply.
cells_reply_clean() {
	jq -e '((.denials.seccomp // []) | length == 0) and ((.denials.network // []) | length == 0) and
		((.denials.dns // []) | length == 0) and
		([(.files // [])[] | .counts | .added + .changed + .deleted] | add // 0) == 0' >/dev/null 2>&1 <<<"$1"
}

# cells_abort: on any exit of the harness, the sessions still held end
# (the holder stops its session; timeout(1) above it forwards the TERM).
cells_abort() {
	local m p
	for m in root rootless; do
		[ -L "$T/cells/$m/cur" ] && touch "$T/cells/$m/cur/stop"
	done
	for p in $(cat "$T"/cells/*/g*/holder.pid 2>/dev/null); do
		grep -qa -- '--hold' "/proc/$p/cmdline" 2>/dev/null && kill -TERM "$p" 2>/dev/null
	done
	return 0
}

hook_start() {
	local m d r
	mkdir -p "$T/cells"
	at_exit cells_abort
	# The caller's ceiling on sandboxes at once (tests/run.sh: none), for
	# the sessions and the cell client (lib/ward-cell: harness_env).
	[ -n "${WARD_MAX_SANDBOXES:-}" ] && echo "WARD_MAX_SANDBOXES=$WARD_MAX_SANDBOXES" >"$T/cells/env"
	chmod 755 "$T/cells"
	for m in $MODES; do
		grep -qx "$m runs" "$T/pol/can" || continue
		cells_start "$m" || continue
		# The control: a cell leaves a process behind that makes a refused
		# mount half a second later, during the next cell, which must show
		# it (so the quiet cells' check would see a neighbour's refusal).
		d="$T/cells/$m/cur"
		cells_py --cell "$d" '/input/atk sleep 1 x mount-bind / /tmp >/dev/null 2>&1 &' 'sleep 4' >"$d/ctl.json"
		r=$(sed -n 2p "$d/ctl.json")
		if jq -e '[.denials.seccomp[]? | select(.syscall == "mount")] | length > 0' >/dev/null 2>&1 <<<"$r" &&
			head -1 "$d/ctl.json" | jq -e '(.denials.seccomp // []) | length == 0' >/dev/null 2>&1; then
			line PASS "$m/cells/attribution-control" "a refusal made during the next cell is in the next cell's reply, not in the cell that left the process"
		else
			line FAIL "$m/cells/attribution-control" "the next cell's denials: $(jq -c .denials <<<"$r" 2>&1 | head -c 200); the first's: $(head -1 "$d/ctl.json" | jq -c .denials 2>&1 | head -c 200)"
		fi
	done
}

# hook_case_end MODE NAME: after a case's lifecycle check, before its
# verdict; adds to $CASE_T/verdict and $CASE_T/notes.
hook_case_end() {
	local m=$1 n=$2 d c r cells='' own='' sname='' ended=''
	d="$T/cells/$m/cur"
	for c in "$CASE_T"/rep/*.cell; do
		[ -f "$c" ] || continue
		if [ "$(jq -r .session "$c")" = own ]; then
			own="${own:+$own; }$(jq -r '.not_shared // "?"' "$c")"
			continue
		fi
		sname=$(jq -r .session "$c")
		cells="${cells:+$cells,}$(jq -r '.cell // "-"' "$c")"
		if ! cells_reply_clean "$(jq -c '{denials: .check_denials, files: .check_files}' "$c")"; then
			echo "FAIL cell attribution: the check cell $(jq -r .check_cell "$c") before cell $(jq -r .cell "$c") has the case's denials or files: $(jq -c '[.check_denials, .check_files]' "$c" | head -c 300)" >>"$CASE_T/verdict"
		fi
		if [ "$(jq -r '.session_ended // empty' "$c")" != "" ]; then
			ended="cell $(jq -r .cell "$c") ended the shared session $sname ($(jq -r '.session_reason // .session_ended' "$c"))"
		fi
	done
	[ -n "$cells" ] && echo "cells $cells of the shared session $sname" >>"$CASE_T/notes"
	[ -n "$own" ] && echo "a session of its own for: $(printf '%s' "$own" | sed 's/; /\n/g' | sort -u | tr '\n' ',' | sed 's/,$//; s/,/, /g')" >>"$CASE_T/notes"
	[ -L "$d" ] || return 0
	if [ -z "$ended" ] && [ ! -e "$d/ended" ] && [ -n "$cells" ]; then
		r=$(cells_py --cell "$d" 'sleep 0.3')
		if [ "$(jq -r .status <<<"$r" 2>/dev/null)" = session_ended ]; then
			ended="the shared session $sname ended after the case"
		elif ! cells_reply_clean "$r"; then
			echo "FAIL cell attribution: the quiet cell after cells $cells has denials or files: $(jq -c '[.denials, .files]' <<<"$r" | head -c 300)" >>"$CASE_T/verdict"
		fi
	fi
	[ -z "$ended" ] && [ -e "$d/ended" ] && ended="the shared session $(cat "$d/name") ended ($(cat "$d/ended"))"
	if [ -n "$ended" ]; then
		echo "$ended: a new session for the rest" >>"$CASE_T/notes"
		echo "# $m: $ended during $n: a new session for the rest"
		echo "$m/$n: $ended" >>"$T/cells/ended"
		cells_end "$m" noverdict
		cells_start "$m"
		MODE=$m
		mode_ids
	fi
}

# cells_end MODE [noverdict]: stop the current session and judge it.
cells_end() {
	local m=$1 d name i r why='' ws sock cg n
	d="$T/cells/$m/cur"
	[ -L "$d" ] || return 0
	name=$(cat "$d/name")
	touch "$d/stop"
	for i in $(seq 600); do
		[ -e "$d/ended" ] && break
		sleep 0.1
	done
	wait "$(cat "$d/holder.pid")" 2>/dev/null
	MODE=$m
	mode_ids
	r=$(jq -r '.session.reason // empty' "$d/report.json" 2>/dev/null)
	ws=$(jq -r '.run.workspace.path // empty' "$d/report.json" 2>/dev/null)
	sock=$(cat "$d/socket")
	for i in $(seq 30); do
		{ [ "$m" != root ] || ! pgrep -U "$HUID" >/dev/null; } && break
		sleep 0.1
	done
	[ "$m" = root ] && pgrep -U "$HUID" >/dev/null && why="${why}processes of the sandbox uid $HUID left: $(pgrep -U "$HUID" | tr '\n' ' '); "
	[ -n "$ws" ] && [ -e "$ws" ] && why="${why}its workspace $ws left; "
	[ -e "$(dirname "$sock")" ] && why="${why}its socket's directory $(dirname "$sock") left; "
	for cg in $(cat "$d/cgroups"); do
		[ -n "$(find "$cg" -mindepth 1 -type d ! -path "$cg/ward" ! -path "$cg/sh" 2>/dev/null)" ] &&
			why="${why}cgroups left in $cg; "
		cg_remove "$cg" || why="${why}cannot remove $cg; "
	done
	n=$(jq '.session.cells | length' "$d/report.json" 2>/dev/null)
	rm -f "$T/cells/$m/cur" "$T/keep-$m"
	if [ "${2:-}" = noverdict ]; then
		[ -n "$why" ] && line FAIL "$m/cells/$name-end" "after it ended: $why"
		return 0
	fi
	if [ "$r" != stop ]; then
		line FAIL "$m/cells/$name-end" "the session ended by '$r', not the stop ($(head -c 200 "$d/ended" 2>/dev/null))"
	elif [ -n "$why" ]; then
		line FAIL "$m/cells/$name-end" "$why"
	else
		line PASS "$m/cells/$name-end" "$n cells; stopped, nothing of it left (processes, workspace, socket, cgroups)"
	fi
}

hook_finish() {
	local m
	for m in $MODES; do cells_end "$m"; done
	[ -s "$T/cells/ended" ] && sed 's/^/# a session ended under a case: /' "$T/cells/ended"
	return 0
}

# hook_case_start MODE NAME: a case of CELLS_SHARED uses the shared
# session's input directory as its $IN.
hook_case_start() {
	case " $CELLS_SHARED " in
	*" $2 "*) [ -L "$T/cells/$1/cur" ] && IN="$T/cells/$1/in" ;;
	esac
	return 0
}
