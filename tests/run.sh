#!/bin/sh
# tests/run.sh SUITE: run one suite (unit, golden, fuzz, syscalls, stdlib,
# lint, export, install, exporter, net, agents, e2e, profiles, attack,
# attack-cells) or
# all; or fresh (make deps demo on a bare Debian 12 root) or vm (the cgroup
# parts of the suites on Debian's stock kernel with pure cgroup v2, under
# qemu), which all does not include: .ci/run runs them after make deps
# check. golden holds the diagnostics
# (tests/golden) and the pinned seccomp listings (tests/bpf-golden).
# Every suite prints one line per test ("PASS name" / "FAIL name: why");
# cmocka binaries print their own summary, which is counted here. The last
# line is "N passed, N failed"; the exit status is 0 only when nothing failed.
set -u
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
export BUILD
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export WARDC="$top/$BUILD/wardc" WARD="$top/$BUILD/ward"
# Sanitizers: leaks are failures; stop on the first report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # count lines of a suite's output in $log
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
}

run_unit() {
	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		if out=$("$t" 2>&1); then rc=0; else rc=$?; fi
		p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
		f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		passed=$((passed + p))
		failed=$((failed + f))
		if [ "$f" -ne 0 ]; then
			printf '%s\n' "$out" | grep -E 'FAILED|ERROR|error|Sanitizer|runtime error' | head -40
			echo "FAIL unit/$name: $f failed"
		else
			echo "PASS unit/$name ($p tests)"
		fi
	done
}

run_script_suite() { # name script
	[ -f "$2" ] || return 0
	t0=$(date +%s)
	sh "$2" >"$log" 2>&1
	rc=$?
	cat "$log"
	# (how long it took, for CI's budget: a comment line, not counted)
	echo "# $1: $(($(date +%s) - t0)) s"
	count
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
		echo "FAIL $1: suite exited $rc"
		failed=$((failed + 1))
	fi
}

suite=${1:-all}
case $suite in
unit | all)
	echo "== unit"
	run_unit
	run_script_suite privileged-calls tests/unit/privileged_calls.sh
	;;
esac
case $suite in
golden | all)
	echo "== golden"
	run_script_suite golden tests/golden/run.sh
	run_script_suite bpf-golden tests/bpf-golden/run.sh
	;;
esac
case $suite in
fuzz | all) echo "== fuzz (corpus replay)"; run_script_suite fuzz-replay tests/fuzz/replay-all.sh ;;
esac
case $suite in
syscalls | all) echo "== syscalls"; run_script_suite syscalls tests/syscalls/run.sh ;;
esac
case $suite in
stdlib | all) echo "== stdlib"; run_script_suite stdlib tests/stdlib/run.sh ;;
esac
case $suite in
lint | all) echo "== lint"; run_script_suite lint tests/lint/run.sh ;;
esac
case $suite in
export | all) echo "== export"; run_script_suite export tests/export/run.sh ;;
esac
case $suite in
install | all) echo "== install"; run_script_suite install tests/install/run.sh ;;
esac
case $suite in
exporter | all) echo "== exporter"; run_script_suite exporter tests/exporter/run.sh ;;
esac
case $suite in
net | all)
	echo "== net"
	run_script_suite net tests/net/run.sh
	run_script_suite net-names tests/net/names.sh
	run_script_suite net-pip tests/net/pip.sh
	;;
esac
case $suite in
agents | all) echo "== agents"; run_script_suite agents tests/agents/run.sh ;;
esac
case $suite in
e2e | all) echo "== e2e"; run_script_suite e2e tests/e2e/run.sh ;;
esac
case $suite in
profiles | all) echo "== profiles"; run_script_suite profiles tests/profiles/run.sh ;;
esac
case $suite in
attack | all) echo "== attack"; run_script_suite attack tests/attacks/run.sh ;;
esac
case $suite in
attack-cells | all) echo "== attack-cells (the attacks as cells of sessions)"; run_script_suite attack-cells tests/attacks/run-cells.sh ;;
esac
case $suite in
fresh) echo "== fresh (make deps demo on a bare Debian 12 root)"; run_script_suite fresh tests/fresh/run.sh ;;
esac
case $suite in
vm) echo "== vm (pure cgroup v2 on Debian's stock kernel, under qemu)"; run_script_suite vm tests/vm/run.sh ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
