# shellcheck shell=bash
# tests/attacks/lib/harness.sh: ward-attack's run (tools/ward-attack):
# the world, one case per attack and mode, the lifecycle check after each,
# the scorecard. Sourced after catalogue.sh, world.sh and attack.sh; the
# caller set A, TOP (empty when installed), WARD, WARDC, STDLIB, TESTHOST,
# TARGET_BLOB, TARGET_SRC, TARGET_NAME, MODES, SELECT, JSON, JUNIT,
# BASELINE.

passed=0 failed=0 skipped=0
line() { # KIND NAME MSG
	case $1 in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	if [ -n "${3:-}" ]; then echo "$1 $2: $3"; else echo "$1 $2"; fi
}

# setup_fail NAME MSG: the world cannot be made: nothing is judged.
setup_fail() {
	line FAIL "setup/$1" "$2"
	echo "$passed passed, $failed failed ($skipped skipped)"
	exit 2
}

# ------------------------------------------------------------ lifecycle
# What of a run could outlive it, seen from the host: processes (in the
# test's cgroups; as root, any process of the run's unique host uid),
# mounts of the host's mount namespace, the cgroup directories of its runs,
# files in the temporary directories owned by the sandbox user, network
# namespaces and links.
life_snapshot() { # FILE
	{
		# (network namespaces made by test harnesses are bound under
		# /run/netns; ward makes none)
		echo "== mounts"
		awk '$5 !~ "^/run/netns/" { print $5 }' /proc/self/mountinfo | sort
		echo "== links"
		ip -o link 2>/dev/null | awk -F': ' '{ print $2 }' | sort
		[ "$NET_WORLD" = 1 ] && in_ns "$NS_HOST" ip -o link 2>/dev/null | awk -F': ' '{ print "host-ns " $2 }' | sort
	} >"$1"
}

# huid_procs: the processes of the sandbox's host uid, but for those of a
# session that outlives the case by design ($T/keep-MODE, lib/cells.sh).
huid_procs() {
	if [ -s "$T/keep-$MODE" ]; then
		pgrep -U "$HUID" | grep -vxF -f "$T/keep-$MODE"
	else
		pgrep -U "$HUID"
	fi
}

life_check() { # BEFORE: prints what outlived the run
	local left d i
	# Processes that are dying (a control's orphans, killed or exited)
	# get up to 3 s to be gone.
	for i in $(seq 30); do
		[ -z "$(cg_procs)" ] && { [ "$MODE" != root ] || [ -z "$(huid_procs)" ]; } &&
			! pgrep -f "$MARK" >/dev/null && break
		sleep 0.1
	done
	left=$(cg_procs)
	[ -n "$left" ] && printf 'processes left in the test cgroup: %s; ' \
		"$(for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60; echo; done | sort -u | tr '\n' '|')"
	if [ "$MODE" = root ]; then
		left=$(huid_procs | tr '\n' ' ')
		[ -n "$left" ] && printf 'processes of the sandbox uid %s left: %s; ' "$HUID" "$left"
	fi
	left=$(pgrep -f "$MARK" | tr '\n' ' ')
	[ -n "$left" ] && printf 'processes with the marker left: %s; ' "$left"
	# ward's base (<own cgroup>/ward) stays; a run's directory must not.
	for d in "${CG_RUN[@]}"; do
		left=$(find "$d" -mindepth 1 -type d ! -path "$d/ward" ! -path "$d/sh" 2>/dev/null | tr '\n' ' ')
		[ -n "$left" ] && printf 'cgroups left: %s; ' "$left"
	done
	# A run's cgroup directories are named by its run id (and the broker's
	# by RUNID-broker), wherever ward made them: those of this case's runs,
	# by the ids their reports give, must be gone from every hierarchy.
	# (Other cgroups named ward on the machine belong to other runs.)
	left=$(for r in "$CASE_T"/rep/*.json; do
		[ -f "$r" ] && jq -r '.run_id // empty' "$r" 2>/dev/null
	done | while read -r id; do
		case $id in run-[0-9]*-[0-9]*) ;; *) continue ;; esac
		find /sys/fs/cgroup -maxdepth 8 -type d \( -name "$id" -o -name "$id-broker" \) 2>/dev/null
	done | tr '\n' ' ')
	[ -n "$left" ] && printf 'cgroups of this case'"'"'s runs left: %s; ' "$left"
	life_snapshot "$CASE_T/life.after"
	left=$(diff "$1" "$CASE_T/life.after" | grep '^>' | tr '\n' ' ' | cut -c1-300)
	[ -n "$left" ] && printf 'left on the host: %s; ' "$left"
	# Files the sandbox user made in the host's temporary directories, and
	# run directories left in ward's workspace bases. (As a user, the
	# sandbox user is the caller, whose other files are not judged. The
	# rootless workspace base /tmp/ward-UID stays by design, as the cgroup
	# base does: the workspaces in it are judged below. Rootless, the
	# sandbox user is 65534, which other ward runs on the machine share:
	# only root mode's uid, unique to this run, says a file is ours.)
	if [ "$(id -u)" = 0 ] && [ "$MODE" = root ]; then
		left=$(find /tmp /var/tmp /dev/shm /run -mindepth 1 -maxdepth 1 -user "$HUID" \
			-newer "$CASE_T/stamp" ! -path "$T" ! -path "/tmp/ward-$HUID" 2>/dev/null | tr '\n' ' ')
		[ -n "$left" ] && printf 'files of the sandbox uid left: %s; ' "$left"
	fi
	# The workspaces of this case's own runs, by the paths their reports
	# give (other ward runs may share the machine: theirs are not judged).
	left=$(for r in "$CASE_T"/rep/*.json; do
		[ -f "$r" ] && jq -r '.workspace.path // empty' "$r" 2>/dev/null
	done | while read -r w; do [ -e "$w" ] && echo "$w"; done | tr '\n' ' ')
	[ -n "$left" ] && printf 'workspaces left: %s; ' "$left"
	return 0
}

cg_remove_run() {
	local d ok=0
	for d in "${CG_RUN[@]}"; do
		cg_remove "$d" || ok=1
	done
	return $ok
}

# ------------------------------------------------------------ the scorecard
# $T/card: one line per attack and mode, tab-separated: mode, attack,
# card, outcome (held|broke|skipped|error), evidence, the control's result,
# where to look first, seeds, the policies used besides the target.
record() { # MODE NAME FILE OUTCOME EVIDENCE CONTROL TAG
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(card "$3")" "$4" \
		"$(printf '%s' "$5" | tr '\t\n' '  ' | cut -c1-600)" \
		"$(printf '%s' "$6" | tr '\t\n' '  ' | cut -c1-400)" \
		"$(header "$3" "if it fails")" "$(header "$3" seeds)" "$7" >>"$T/card"
}

# control_result VERDICT: what the controls showed.
control_result() {
	local c
	if grep -q '^FAIL control: ' "$1"; then
		grep -m1 '^FAIL control: ' "$1" | cut -d' ' -f3- | sed 's/^/not seen: /'
		return
	fi
	c=$(grep '^CONTROL ' "$1" | cut -d' ' -f2- | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if [ -n "$c" ]; then echo "seen: $c"; else echo "none ran"; fi
}

# ------------------------------------------------------------ one case
# Hooks (WARD_ATTACK_HOOKS may redefine them): after the setup; before a case's attack
# (MODE NAME; it may change IN), after its lifecycle check (MODE NAME; it
# may add to $CASE_T/verdict and $CASE_T/notes), after the last case.
hook_start() { :; }
hook_case_start() { :; }
hook_case_end() { :; }
hook_finish() { :; }
ncase=0
run_case() { # FILE
	local f=$1 name modes m v msg kind pols tag pid dog t0 req why outcome
	name=$(header "$f" attack)
	modes=$(header "$f" modes)
	req=$(header "$f" requires)
	# The policy the attack's runs use by default: its profile, whose place
	# the policy under attack takes (base_name); the layers attacks' own
	# test policy; python's for the attacks that derive theirs.
	PROFILE=$(header "$f" profile)
	PROFILE=${PROFILE:-python}
	for m in ${modes:-root rootless}; do
		case " $MODES " in
		*" $m "*) ;;
		*)
			[ "$m" = root ] && why="needs root (ward-attack runs as uid $(id -u): rootless only)" ||
				why="rootless mode not run (--mode)"
			line SKIP "$m/$name" "$why"
			record "$m" "$name" "$f" skipped "$why" "" ""
			continue
			;;
		esac
		MODE=$m
		mode_ids
		# What the policy under attack lacks, or the world: the attack is
		# not run, and says why.
		why=
		grep -qx "$m runs" "$T/pol/can" ||
			why="ward refuses the policy in $m mode: $(refusal "$m" "$TARGET_NAME")${TARGET_SRC:-; give --source FILE.ward for a test copy without the supervisor limits}"
		# shellcheck disable=SC2086
		[ -z "$why" ] && why=$(lacks "$m" $req)
		if [ -z "$why" ] && [ "$NET_WORLD" != 1 ] && grep -qE 'net_note|NS_HOST|ADDR_|in_ns ' "$f"; then
			why="network attacks run only in network namespaces ward-attack makes, which needs root"
		fi
		if [ -n "$why" ]; then
			line SKIP "$m/$name" "$why"
			record "$m" "$name" "$f" skipped "$why" "" ""
			continue
		fi
		if [ "${PLAN:-0}" = 1 ]; then
			echo "RUN $m/$name"
			continue
		fi
		ncase=$((ncase + 1))
		CASE_T="$T/runs/$ncase"
		IN="$CASE_T/in" OUTD="$CASE_T/out"
		MARK="wardmark$$x$ncase"
		hook_case_start "$m" "$name"
		mkdir -p "$IN" "$OUTD" "$CASE_T/rep" && chmod 755 "$CASE_T" "$IN"
		chown "$HUID:$HUID" "$OUTD" 2>/dev/null || chmod 777 "$OUTD"
		[ "$MODE" = rootless ] && chown "$NOBODY" "$CASE_T/rep" 2>/dev/null
		cp "$T/bin/atk" "$T/bin/probe" "$T/bin/brk" "$IN/"
		cg_new "c$ncase" || {
			line FAIL "$m/$name" "cannot make the test cgroups"
			record "$m" "$name" "$f" error "cannot make the test cgroups" "" ""
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
		# output open (a reader of this tool's pipe would wait for it).
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
		hook_case_end "$m" "$name"
		kind=PASS outcome=held
		v=$(grep -m1 '^FAIL ' "$CASE_T/verdict" | cut -d' ' -f2-)
		if [ -n "$msg" ]; then
			kind=FAIL outcome=broke v="lifecycle: $msg${v:+; $v}"
		elif [ -n "$v" ]; then
			kind=FAIL outcome=broke
			# A control that did not see the attack, or a test policy
			# that does not compile: the attack could not be judged.
			case $v in "control: "* | "the test policy"*) outcome=error ;; esac
		elif grep -q '^SKIP ' "$CASE_T/verdict"; then
			kind=SKIP outcome=skipped v=$(grep -m1 '^SKIP ' "$CASE_T/verdict" | cut -d' ' -f2-)
		elif ! grep -q '^CHECK ' "$CASE_T/verdict"; then
			kind=FAIL outcome=error v="no observation was made ($(tail -c 300 "$CASE_T/log" | tr '\n' '|'))"
		elif ! grep -q '^CONTROL ' "$CASE_T/verdict"; then
			kind=FAIL outcome=error v="no control was run"
		fi
		pols=$(sort -u "$CASE_T/policies" 2>/dev/null | grep -v ':real$' |
			sed 's/:nocg$/ without the supervisor limits/; s/:test$/ (test policy)/' |
			tr '\n' ',' | sed 's/,$//; s/,/, /g')
		[ -s "$CASE_T/notes" ] && pols="${pols:+$pols; }$(sort -u "$CASE_T/notes" | tr '\n' ';' | sed 's/;$//')"
		tag=
		[ -n "$pols" ] && [ "$kind" != SKIP ] && tag=" [$pols]"
		if [ "$kind" = PASS ]; then
			echo "PASS $m/$name$tag"
			passed=$((passed + 1))
			v=$(grep '^CHECK ' "$CASE_T/verdict" | cut -d' ' -f2- | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		else
			line "$kind" "$m/$name" "$v$tag"
		fi
		record "$m" "$name" "$f" "$outcome" "$v" "$(control_result "$CASE_T/verdict")" "$pols"
		local touched
		touched=$(net_touched)
		if [ -n "$touched" ]; then
			line FAIL "$m/$name/safety-net" "the outer net stopped it: $touched"
			record "$m" "$name/safety-net" "$f" broke "the outer net stopped it: $touched" "" ""
			# Reset the counters so that the next attack is judged alone.
			echo 0 >"$CG_MEM/memory.failcnt" 2>/dev/null
		fi
		[ "${KEEP:-0}" = 1 ] || rm -rf "$CASE_T"
		echo "$m/$name $(($(date +%s) - t0)) s" >>"$T/times"
	done
}

selected() { # NAME
	local p
	[ -n "$SELECT" ] || return 0
	for p in $SELECT; do
		# shellcheck disable=SC2254
		case $1 in $p) return 0 ;; esac
	done
	return 1
}

# ------------------------------------------------------------ setup
# build OUT SRC [FLAGS...]: a program of the catalogue, from the source
# tree (installed, they are in $A/bin).
build() {
	local out=$1 src=$2
	shift 2
	if [ -z "$TOP" ]; then
		cp "$A/bin/$out" "$T/bin/$out" || setup_fail "bin-$out" "no $A/bin/$out"
		return
	fi
	# WARD_ATTACK_BINS: a directory with them built already (`make
	# BUILD/attacks/NAME`, as make install does; tests/vm, where a
	# compile under TCG costs a minute)
	if [ -n "${WARD_ATTACK_BINS:-}" ]; then
		cp "$WARD_ATTACK_BINS/$out" "$T/bin/$out" ||
			setup_fail "bin-$out" "no $WARD_ATTACK_BINS/$out"
		return
	fi
	"$CC" -O2 -Wall -Wextra -o "$T/bin/$out" "$TOP/$src" "$@" 2>"$T/cc.log" ||
		setup_fail "build-$out" "$(head -c 400 "$T/cc.log")"
}

harness_setup() {
	world_init ward-attack
	if ! safety_net_init "ward-attack-$$" 2>"$T/net.err"; then
		setup_fail safety-net "cannot make the outer cgroups below $(awk -F: '$2 ~ /memory/ || $1 == 0 { print $3; exit }' /proc/self/cgroup) ($(head -c 200 "$T/net.err" | tr '\n' ' ')): run as root, or as a user in a cgroup delegated to it (systemd-run --user --scope -p Delegate=yes)"
	fi
	if [ "$(id -u)" = 0 ]; then
		pick_root_huid || setup_fail host-uid "no free uid in 61000-64999"
	fi
	# The static programs the attacks run inside (bound through the input
	# slot): tests/e2e/probe.c (shared with the end-to-end tests) and
	# tests/attacks/lib/atk.c, brk.c; mkblob for the test policies that
	# need no seccomp filter.
	build probe tests/e2e/probe.c -static
	build atk tests/attacks/lib/atk.c -static -pthread
	build brk tests/attacks/lib/brk.c -static -pthread
	build mkblob tests/e2e/mkblob.c -D_GNU_SOURCE -I"$TOP/common" \
		-I"$TOP/compiler/codegen" "$TOP/compiler/codegen/blob_write.c" "$TOP/compiler/codegen/landlock_rules.c" "$TOP/common/blob_read.c" "$TOP/common/answer_ranges.c" \
		"$TOP/common/sha256.c" "$TOP/common/util.c" -lseccomp -lsodium
	chmod 755 "$T/bin"/*
	# Network namespaces need root: as a user, the network attacks skip.
	if [ "$(id -u)" = 0 ]; then
		net_world_init 2>"$T/net.err" || setup_fail net-world "$(head -c 300 "$T/net.err")"
	fi
	find_source
	policies_build || setup_fail policies "$(head -c 300 "$T/pol/err")"
	probe_profiles
	probe_target
	local m p v
	for m in $MODES; do
		MODE=$m
		for p in $PROFILES; do
			v=$(accepted "$p")
			[ "$p" = "$TARGET_NAME" ] || continue
			case $v in
			real) echo "# $m: the policy as it is" ;;
			nocg) echo "# $m: a test copy without the supervisor's limits ($(refusal $m "$p"))" ;;
			*) echo "# $m: refused ($(refusal $m "$p")${TARGET_SRC:+; test copy: $(refusal $m "$p-nocg")})" ;;
			esac
		done
		echo "# $m: runs $(grep "^$m " "$T/pol/can" | cut -d' ' -f2 | grep -v -- '-no$' | grep -vx runs | tr '\n' ' ')"
	done
	# The test copy, when there is one, differs from the policy only by
	# the supervisor's limits: wardc diff shows it.
	if [ -f "$T/pol/$TARGET_NAME-nocg.wardb" ] && grep -q " $TARGET_NAME nocg\$" "$T/pol/accepted"; then
		echo "# the test copy differs from the policy by (wardc diff):"
		"$WARDC" diff "$T/pol/$TARGET_NAME.wardb" "$T/pol/$TARGET_NAME-nocg.wardb" 2>&1 |
			grep '^  [-+~] ' | sed 's/^/#   /'
	fi
	# The test policies the layers attacks use (each more permissive than
	# python in one way: no seccomp filter at all), for the attacks that
	# show what stops a call when seccomp does not (namespaces,
	# capabilities, no_new_privs, the mount table).
	local LAYERS="name=layers env:PATH=/usr/bin:/bin env:LANG=C.UTF-8 env:HOME=/work
bind:/usr:/usr:exec symlink:/bin:usr/bin symlink:/lib:usr/lib
symlink:/lib64:usr/lib64 symlink:/sbin:usr/sbin proc:/proc dev:/dev
tmpfs:/tmp:100M:1777 tmpfs:/work:100M slot:input:/input:exec
slot:output:/output:rw seccomp-default:allow"
	# shellcheck disable=SC2086
	mkblob_policy layers $LAYERS || setup_fail policy-layers "$(head -c 300 "$T/pol/err")"
}

# find_source: without --source, a stdlib profile of the policy's name
# whose compilation is this very blob is its source (said on the output).
find_source() {
	local n
	[ -z "$TARGET_SRC" ] || return 0
	n=$("$WARDC" explain "$TARGET_BLOB" 2>/dev/null | awk 'NR == 1 { print $2 }')
	[ -n "$n" ] && [ -f "$STDLIB/$n.ward" ] || return 0
	"$WARDC" compile -I "$STDLIB" "$STDLIB/$n.ward" -o "$T/pol/find.wardb" 2>/dev/null &&
		cmp -s "$T/pol/find.wardb" "$TARGET_BLOB" || return 0
	TARGET_SRC=$STDLIB/$n.ward
	echo "# source: $TARGET_SRC (the stdlib $n profile compiles to this very blob)"
}

# ------------------------------------------------------------ output
scorecard_print() {
	local b shown n
	echo "== scorecard: $TARGET_BLOB (policy $(policy_label)), modes run: $MODES"
	[ -n "$TARGET_SRC" ] && echo "   source: $TARGET_SRC"
	echo "$CARD_BOUNDARIES" | tr '|' '\n' | while read -r b; do
		n=$(awk -F'\t' -v b="$b" '$3 == b' "$T/card" | cut -f2 | sort -u | wc -l)
		printf -- '-- %s: %s attacks; %s\n' "$b" "$n" "$(awk -F'\t' -v b="$b" '$3 == b { c[$4]++ }
			END { printf "held %d, broke %d, skipped %d, error %d (attack runs)", c["held"], c["broke"], c["skipped"], c["error"] }' "$T/card")"
		awk -F'\t' -v b="$b" '$3 == b' "$T/card" | cut -f2 | awk '!s[$0]++' | while read -r n; do
			shown=$(awk -F'\t' -v n="$n" '$2 == n { printf "%s%s: %s", sep, $1, $4; sep = ", " }' "$T/card")
			printf '   %-34s %s\n' "$n" "$shown"
			awk -F'\t' -v n="$n" '$2 == n && $4 != "held" { printf "      %s %s: %s\n", $1, $4, substr($5, 1, 200) }' "$T/card"
			awk -F'\t' -v n="$n" '$2 == n && $7 != "" { print "      if it fails, look first at: " $7; exit }' "$T/card"
		done
	done
	echo "== the seeds' samples (seed 000's adversarial table, seed 004's malicious sample set)"
	seed_rows | while IFS='|' read -r id seed text; do
		printf '   %-18s %s\n' "$id" "$text"
		awk -F'\t' -v id="$id" '(" " $8 " ") ~ (" " id " ") { printf "%s %s:%s", $2, $1, $4; print "" }' "$T/card" |
			awk '{ split($2, a, ":"); o[$1] = o[$1] (o[$1] ? "," : "") a[1] " " a[2] } END { for (k in o) print k " (" o[k] ")" }' |
			sort | sed 's/^/      /' | grep . || echo "      (no attack of this run stands for it)"
	done
}

policy_label() {
	"$WARDC" explain "$TARGET_BLOB" 2>/dev/null | awk 'NR == 1 { print $2 } $1 == "blob" { print $2; exit }' | tr '\n' ' ' | sed 's/ $//'
}

# json_records: the scorecard as JSON.
json_write() { # FILE
	jq -R -s --arg policy "$TARGET_BLOB" --arg lbl "$(policy_label)" --arg modes "$MODES" \
		--arg src "$TARGET_SRC" '
		split("\n") | map(select(length > 0) | split("\t")) |
		{ policy: $policy, label: $lbl, source: $src, modes: ($modes | split(" ")),
		  attacks: map({ mode: .[0], id: .[1], boundary: .[2], outcome: .[3],
		    evidence: .[4], control: .[5], look_first: .[6],
		    seeds: (.[7] | split(" ") | map(select(length > 0))),
		    policies: .[8] }) }' "$T/card" >"$1"
}

xml_esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

junit_write() { # FILE
	local mode id b out ev ctl look seeds pols
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		printf '<testsuites name="ward-attack" tests="%s" failures="%s" errors="%s" skipped="%s">\n' \
			"$(wc -l <"$T/card")" "$(cut -f4 "$T/card" | grep -cx broke)" \
			"$(cut -f4 "$T/card" | grep -cx error)" "$(cut -f4 "$T/card" | grep -cx skipped)"
		printf '<testsuite name="%s" tests="%s">\n' "$(printf '%s' "$TARGET_BLOB" | xml_esc)" "$(wc -l <"$T/card")"
		while IFS=$'\t' read -r mode id b out ev ctl look seeds pols; do
			printf '<testcase classname="%s" name="%s/%s">' "$(printf '%s' "$b" | xml_esc)" "$mode" "$(printf '%s' "$id" | xml_esc)"
			case $out in
			broke) printf '<failure message="%s">if it fails, look first at: %s</failure>' \
				"$(printf '%s' "$ev" | xml_esc)" "$(printf '%s' "$look" | xml_esc)" ;;
			error) printf '<error message="%s"/>' "$(printf '%s' "$ev" | xml_esc)" ;;
			skipped) printf '<skipped message="%s"/>' "$(printf '%s' "$ev" | xml_esc)" ;;
			esac
			printf '<system-out>%s</system-out></testcase>\n' "$(printf 'evidence: %s; control: %s' "$ev" "$ctl" | xml_esc)"
		done <"$T/card"
		echo '</testsuite>'
		echo '</testsuites>'
	} >"$1"
}

# baseline_compare FILE: every attack whose outcome differs from an
# earlier JSON scorecard's (or that only one of them has).
baseline_compare() {
	local n
	jq -r '.attacks[] | "\(.mode)/\(.id)\t\(.outcome)"' "$1" 2>/dev/null | sort >"$T/base.old" || {
		echo "ward-attack: $1 is not a ward-attack JSON scorecard" >&2
		return 1
	}
	awk -F'\t' '{ print $1 "/" $2 "\t" $4 }' "$T/card" | sort >"$T/base.new"
	join -t $'\t' -a1 -a2 -e '(absent)' -o 0,1.2,2.2 "$T/base.old" "$T/base.new" |
		awk -F'\t' '$2 != $3 { print "CHANGED " $1 ": " $2 " -> " $3 }' >"$T/base.diff"
	n=$(wc -l <"$T/base.diff")
	echo "== against the baseline $1: $n attack(s) changed"
	cat "$T/base.diff"
}

# ------------------------------------------------------------ main
harness_main() {
	local f n status=0
	harness_setup
	: >"$T/card"
	# WARD_ATTACK_HOOKS: a file that may redefine the hooks below (the
	# attacks as cells of sessions: lib/cells.sh, tests/attacks/run-cells.sh).
	if [ -n "${WARD_ATTACK_HOOKS:-}" ]; then
		# shellcheck disable=SC1090
		. "$WARD_ATTACK_HOOKS"
	fi
	hook_start
	# (the list is read first: nothing an attack runs may read it from
	# stdin)
	local files
	mapfile -t files < <(attack_files)
	for f in "${files[@]}"; do
		n=$(header "$f" attack)
		selected "$n" || continue
		# --name: the policy stands for that stdlib profile; its attacks
		# are the ones written for it (the project's suite).
		if [ "$TARGET_NAME" != target ] && [ "$(home "$f")" != "$TARGET_NAME" ]; then
			continue
		fi
		run_case "$f" </dev/null
	done
	hook_finish
	[ -f "$T/times" ] && sort -k2 -rn "$T/times" | head -"${WARD_ATTACK_SLOWEST:-5}" |
		awk '{ printf "# slowest: %s\n", $0 }'
	scorecard_print
	[ -n "$JSON" ] && { rm -f "$JSON" && json_write "$JSON" || status=2; }
	[ -n "$JUNIT" ] && { rm -f "$JUNIT" && junit_write "$JUNIT" || status=2; }
	[ -n "$BASELINE" ] && { baseline_compare "$BASELINE" || status=2; }
	echo "$passed passed, $failed failed ($skipped skipped)"
	[ "$failed" = 0 ] || status=1
	exit $status
}
