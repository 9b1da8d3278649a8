#!/bin/sh
# tests/profiles/run.sh: every stdlib profile (stdlib-policies/*.ward) runs
# its real workload end to end, in root mode and in rootless mode (setpriv
# to 65534), and the result is checked from outside: the files the
# workload left in the output slot (or its stdout) against values computed
# on the host by other tools, exit status 0, and the run report's reason
# "exited". One line per test: "PASS profiles/MODE/NAME",
# "FAIL profiles/MODE/NAME: why" or "SKIP profiles/MODE/NAME: why"; then
# "N passed, N failed". Root only.
#
# Every run passes --export-dir: each profile has a writable output slot
# and an export section, and what the workload left there must come out
# whole, with a manifest that says `complete` (strict's program writes only
# its stdout: its export is complete and empty).
#
# The workloads are in tests/profiles/work (README.md beside this script):
#   python     stats.py: a CSV -> statistics (JSON) and a CSV per region,
#              then exported with --export-dir; checked against awk.
#              analysis.py: the same CSV grouped by pandas, a series fitted
#              by numpy and scipy, a quadrature and a root (scipy), a chart
#              drawn by matplotlib to a PNG that --export-dir lets out;
#              checked against awk, and the PNG by a reader of the host's.
#              And who owns /usr inside: not the sandbox's own uid (files
#              of unmapped host users show as the overflow uid)
#   node       main.js: a file hashed through streams, timers through
#              promises, JSON out; checked against sha256sum and sha1sum
#   cc         a two-file C program built by make and gcc in /work, then
#              run; checked against a sieve in awk
#   shell      job.sh: find | xargs cat | tr | sort | uniq -c | awk ...;
#              checked against python3 on the host
#   strict     numstat.c built static on the host, handed in through the
#              input slot, data on stdin; checked against awk and python3
#   agent-net  fetch.py: HTTPS from the pinned mirror (192.0.2.10:443, a
#              test host with a test CA in a network namespace made here),
#              then port 80 of the same host, which must be refused
#
# Rootless mode: the profiles' memory, pids and cpu limits need cgroups,
# which cgroup v1 does not delegate to users; the script plays the
# administrator and delegates a base to 65534 (--cgroup-base, what ward's
# refusal asks for), so rootless runs the real profiles too. Only when no
# base can be delegated does it fall back to a test copy without those
# four limits, and says so in the PASS line. agent-net runs in both modes:
# its allow-list is the socket broker's (with the cgroup programs beside
# it in root mode).
#
# Safety net: every launch runs under timeout(1) and a process limit,
# inside an outer cgroup (memory 3G, pids 1024) made below this script's
# own; ward runs agent-net inside a network namespace made here that routes
# to nothing but the test mirror (checked before the run). The temporary
# directory, the cgroups, the namespaces and the mirror are removed on
# every path (trap). The checks read only what the sandboxed programs
# wrote (the output slot, ward's stdout): a sanitizer build of ward prints
# on stderr, which is only shown when a test fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}
CC=${CC:-cc}
W=$top/tests/profiles/work
PY=/usr/bin/python3
NOBODY=65534
TIMEOUT=${PROFILES_TIMEOUT:-90}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP profiles: needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
if [ ! -x "$WARD" ] || [ ! -x "$WARDC" ]; then
	echo "FAIL profiles: no ward or wardc in $top/$BUILD"
	echo "0 passed, 1 failed"
	exit 1
fi
for tool in jq setpriv prlimit timeout awk "$PY"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP profiles: $tool is not installed"
		exit 0
	fi
done

passed=0
failed=0
pass() {
	echo "PASS profiles/$1${2:+ ($2)}"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL profiles/$1: $2"
	failed=$((failed + 1))
}
skip() { echo "SKIP profiles/$1: $2"; }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

T=$(mktemp -d /tmp/ward-profiles.XXXXXX) || exit 1
chmod 755 "$T"
CG_MADE=   # cgroup directories made here, parents first
NS_HOST=
NS_NET=
bgpids=
LPID=
CG_OUTER=  # the outer cgroups, one per hierarchy

# Kill what is left in a cgroup tree, then remove it (children first).
# (cg_remove and cleanup run from the EXIT trap.)
# shellcheck disable=SC2317
cg_remove() {
	[ -d "$1" ] || return 0
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		# shellcheck disable=SC2046
		kill -9 $(find "$1" -name cgroup.procs -exec cat {} + 2>/dev/null) 2>/dev/null
		find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
		[ -d "$1" ] || return 0
		sleep 0.2
	done
}
# shellcheck disable=SC2317,SC2086
cleanup() {
	# a launch under way: timeout passes the signal to ward, which ends
	# its run and cleans up after it
	if [ -n "$LPID" ]; then
		kill -TERM "$LPID" 2>/dev/null
		wait "$LPID" 2>/dev/null
	fi
	for p in $bgpids; do kill "$p" 2>/dev/null; done
	for p in $bgpids; do wait "$p" 2>/dev/null; done
	for n in $NS_HOST $NS_NET; do ip netns del "$n" 2>/dev/null; done
	# the outer cgroups first, then the parents made for them, deepest
	# first (rmdir leaves alone a parent someone else uses)
	for d in $CG_OUTER; do cg_remove "$d"; done
	for d in $(printf '%s\n' $CG_MADE | sort -r); do rmdir "$d" 2>/dev/null; done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ------------------------------------------------------------ the net
# One cgroup path P, the same in every hierarchy (so that it can serve as
# rootless ward's --cgroup-base), below this script's own memory cgroup:
# the memory the workloads use stays accounted where it was. P has the
# outer limits; every launch joins P (memory, pids) before ward starts, so
# that root-mode ward makes its runs below it; P/rl, delegated to 65534,
# is rootless ward's base.
NET_MEM=$((3 << 30))
NET_PIDS=1024
cgmnt() { # CONTROLLER: the mount point of its v1 hierarchy
	awk -v c="$1" '{ for (i = 7; i < NF && $i != "-"; i++) ; }
		$(i + 1) == "cgroup" && $NF ~ "(^|,)" c "(,|$)" { print $5; exit }' /proc/self/mountinfo
}
own_v1() { sed -n "s/^[0-9]*:\([^:]*,\)\{0,1\}$1\(,[^:]*\)\{0,1\}:\(.*\)/\3/p" /proc/self/cgroup; }
mkdir_track() { # DIR: mkdir -p, remembering each directory it made
	[ -d "$1" ] && return 0
	mkdir_track "$(dirname "$1")" || return 1
	mkdir "$1" || return 1
	CG_MADE="$CG_MADE $1"
}
CG_OK=0
DELEGATED=0
JOIN=
CGBASE_RL=
cg_init() {
	m_mem=$(cgmnt memory)
	m_pids=$(cgmnt pids)
	m_cpu=$(cgmnt cpu)
	[ -n "$m_mem" ] && [ -n "$m_pids" ] || return 1
	own=$(own_v1 memory)
	P="${own%/}/ward-profiles-$$"
	for m in $m_mem $m_pids $m_cpu; do
		[ -d "$m$P" ] && return 1 # not ours
		mkdir_track "$m$P" || return 1
		CG_OUTER="$CG_OUTER $m$P"
	done
	echo $NET_MEM >"$m_mem$P/memory.limit_in_bytes" || return 1
	if [ -f "$m_mem$P/memory.memsw.limit_in_bytes" ]; then
		echo $NET_MEM >"$m_mem$P/memory.memsw.limit_in_bytes" || return 1
	fi
	echo $NET_PIDS >"$m_pids$P/pids.max" || return 1
	JOIN="$m_mem$P/cgroup.procs $m_pids$P/cgroup.procs"
	CG_OK=1
	# (PROFILES_NO_DELEGATION=1 tries the fallback on a host that has it)
	[ "${PROFILES_NO_DELEGATION:-0}" = 1 ] || [ -z "$m_cpu" ] && return 0
	for m in $m_mem $m_pids $m_cpu; do
		mkdir "$m$P/rl" && chown -R $NOBODY:$NOBODY "$m$P/rl" || return 0
	done
	CGBASE_RL="$P/rl"
	DELEGATED=1
}
if ! cg_init; then
	skip setup/safety-net "no cgroup v1 memory and pids hierarchies: timeout and process limit only, and rootless runs test copies without cgroup limits"
fi

# net_touched: what of the outer limits has been hit ("" if nothing).
net_touched() {
	[ "$CG_OK" = 1 ] || return 0
	f=$(cat "$m_mem$P/memory.failcnt" 2>/dev/null)
	x=$(awk '$1 == "max" { print $2 }' "$m_pids$P/pids.events" 2>/dev/null)
	[ "${f:-0}" != 0 ] && printf 'outer memory limit hit %s times; ' "$f"
	[ "${x:-0}" != 0 ] && printf 'outer pids.max hit %s times; ' "$x"
}

# ------------------------------------------------------------ identities
# Root mode: the sandbox user maps to a host uid that nothing else on the
# host has (--host-uid), so that what it writes is recognisably the
# sandbox's. Rootless: the caller's own, 65534.
HUID=
for u in $(seq $((61000 + $$ % 3000)) 64999); do
	getent passwd "$u" >/dev/null && continue
	pgrep -U "$u" >/dev/null && continue
	HUID=$u
	break
done
if [ -z "$HUID" ]; then
	fail setup/host-uid "no free uid in 61000-64999"
	finish
fi

# ------------------------------------------------------------ policies
# $T/pol/NAME.wardb: the profile as shipped. NAME-nocg.wardb: the test
# copy without the cgroup limits, for rootless mode without delegation.
mkdir -p "$T/pol" "$T/bin" "$T/runs" "$T/exp"
chmod 755 "$T/pol" "$T/bin" "$T/runs"
PROFILES="python node cc shell strict agent-net"
for p in $PROFILES; do
	if ! "$WARDC" compile -I "$top/stdlib-policies" "$top/stdlib-policies/$p.ward" \
		-o "$T/pol/$p.wardb" 2>"$T/pol/err"; then
		fail "compile/$p" "$(head -c 400 "$T/pol/err")"
		continue
	fi
	sed -E '/^[[:space:]]*(memory|swap|cpu|pids)[[:space:]]/d' \
		"$top/stdlib-policies/$p.ward" >"$T/pol/$p-nocg.ward"
	"$WARDC" compile -I "$top/stdlib-policies" "$T/pol/$p-nocg.ward" \
		-o "$T/pol/$p-nocg.wardb" 2>"$T/pol/err" ||
		fail "compile/$p-nocg" "$(head -c 400 "$T/pol/err")"
	chmod 644 "$T/pol/"*.wardb
done

# ------------------------------------------------------------ launching
cat >"$T/bin/join" <<'EOF'
#!/bin/sh
# join PROCS... -- CMD...: enter the outer cgroups, then exec CMD.
while [ "$1" != -- ]; do
	echo $$ >"$1" || exit 121
	shift
done
shift
exec "$@"
EOF
chmod 755 "$T/bin/join"

# newrun MODE NAME: a fresh directory R for one test: R/in (read-only
# slot), R/out (the output slot, the sandbox user's), R/export; the
# report, stdout and stderr beside them, written by ward.
newrun() {
	R="$T/runs/$1-$2"
	mkdir -p "$R/in" "$R/out" "$R/export"
	chmod 755 "$R" "$R/in"
	if [ "$1" = root ]; then
		chown "$HUID:$HUID" "$R/out"
	else
		chown $NOBODY:$NOBODY "$R" "$R/out" "$R/export"
	fi
}

# launch MODE NAME NETNS -- PROGRAM ARGS...: ward with the profile NAME
# (its test copy when rootless mode has no delegated base), the slots of
# $R, a report, the extra ward options in $WARGS (paths of $T: no spaces),
# under the safety net, in network namespace NETNS if not "". Status in
# $rc; $COPY says when a test copy was used.
launch() {
	mode=$1 name=$2 ns=$3
	shift 4
	pol="$T/pol/$name.wardb"
	COPY=
	opts="--report $R/report.json --slot input=$R/in --slot output=$R/out ${WARGS:-}"
	pre="prlimit --nproc=$NET_PIDS -- timeout -k 5 $TIMEOUT env -i PATH=/usr/local/bin:/usr/bin:/bin"
	pre="$pre ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS}"
	if [ "$mode" = root ]; then
		opts="--host-uid $HUID --host-gid $HUID $opts"
	else
		pre="$pre setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups"
		if [ "$DELEGATED" = 1 ]; then
			opts="--cgroup-base $CGBASE_RL $opts"
		elif [ "$name" != agent-net ]; then
			pol="$T/pol/$name-nocg.wardb"
			COPY="test copy without memory, swap, cpu and pids limits: no delegated cgroup"
		fi
	fi
	[ -n "$ns" ] && pre="nsenter --net=/run/netns/$ns $pre"
	rm -f "$R/report.json"
	# In the background, so that a signal to the script interrupts the
	# wait and its trap stops the launch at once (sh defers traps until a
	# foreground command ends).
	# shellcheck disable=SC2086
	"$T/bin/join" $JOIN -- $pre "$WARD" $opts "$pol" -- "$@" \
		>"$R/stdout" 2>"$R/stderr" </dev/null &
	LPID=$!
	wait $LPID
	rc=$?
	LPID=
	WARGS=
}

q() { jq -r "$1" "$R/report.json" 2>/dev/null; }
# why: the run in one line, for a FAIL.
why() {
	printf 'rc=%s report=%s stdout=%s stderr=%s %s' "$rc" \
		"$(jq -c '{reason,exit_code,signal_name,error,denials}' "$R/report.json" 2>/dev/null | head -c 400)" \
		"$(head -c 200 "$R/stdout" | tr '\n' '|')" \
		"$(grep -v '^ward: run-' "$R/stderr" | head -c 400 | tr '\n' '|')" \
		"$(net_touched)"
}
# ran_ok MODE NAME: exit 0, reason "exited", the profile's name and the
# mode in the report, the outer limits untouched. Else $bad says why.
ran_ok() {
	bad=
	if [ "$rc" != 0 ]; then
		bad="exit status $rc"
	elif [ "$(q .reason)" != exited ] || [ "$(q .exit_code)" != 0 ]; then
		bad="report reason $(q .reason), exit_code $(q .exit_code)"
	elif [ "$(q .policy.name)" != "$2" ] || [ "$(q .mode)" != "$1" ]; then
		bad="report policy $(q .policy.name), mode $(q .mode)"
	elif [ -n "$(net_touched)" ]; then
		bad="$(net_touched)"
	fi
	[ -z "$bad" ]
}
# exported FILE...: "" when --export-dir got exactly FILE... of the output
# slot, byte for byte, and the manifest says `complete`; else what differs.
# (Every profile with a writable output slot has an export section.)
exported() {
	got=$(cd "$R/export" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
	[ $# -eq 0 ] && want=
	if [ "$(q '.export[0].status')" != complete ] || [ "$(q '.export[0].exported')" != true ]; then
		printf 'the export is not complete: %s' \
			"$(jq -c '.export[0] | {status, refusal, error}' "$R/report.json" 2>/dev/null)"
	elif [ "$got" != "$want" ]; then
		printf -- '--export-dir holds [%s], not [%s]' "$got" "$want"
	else
		for f in "$@"; do
			cmp -s "$R/export/$f" "$R/out/$f" || { printf '%s differs from the slot' "$f"; return; }
		done
	fi
}

# verdict MODE NAME PROBLEM [POLICY]: PASS when the run and the checks went
# well. POLICY is the profile the test ran (default: NAME).
verdict() {
	if ! ran_ok "$1" "${4:-$2}"; then
		fail "$1/$2" "$bad; $(why)"
	elif [ -n "$3" ]; then
		fail "$1/$2" "$3; $(why)"
	else
		pass "$1/$2" "$COPY"
	fi
}

# jsoneq GOT EXPECTED: the same JSON values, numbers equal or within a
# relative 1e-9 (means and medians computed by different programs).
jsoneq() {
	jq -n --slurpfile a "$1" --slurpfile b "$2" '
def eq($x; $y):
  if ($x|type) == "number" and ($y|type) == "number" then
    $x == $y or ((($x - $y)|fabs) <= 1e-9 * ($y|fabs))
  elif ($x|type) == "object" and ($y|type) == "object" then
    ($x|keys) == ($y|keys) and all($x|keys[]; . as $k | eq($x[$k]; $y[$k]))
  elif ($x|type) == "array" and ($y|type) == "array" then
    ($x|length) == ($y|length) and all(range($x|length); . as $i | eq($x[$i]; $y[$i]))
  else $x == $y end;
($a|length) == 1 and eq($a[0]; $b[0])' 2>/dev/null | grep -qx true
}
# differs GOT EXPECTED: "" when the files are equal, else what differs.
differs() {
	cmp -s "$1" "$2" && return 0
	printf '%s differs: got [%s] expected [%s]' "$(basename "$1")" \
		"$(head -c 200 "$1" 2>/dev/null | tr '\n' '|')" "$(head -c 200 "$2" | tr '\n' '|')"
}

# ------------------------------------------------------------ inputs
# The inputs and the expected results, computed on the host by other
# programs than the workloads.
E=$T/exp

# python: 3000 rows of id,region,units,price; awk computes the same
# statistics (medians by sort -n).
awk 'BEGIN {
	srand(7); split("north south east west central", r, " ")
	print "id,region,units,price"
	for (i = 1; i <= 3000; i++)
		printf "%d,%s,%d,%.2f\n", i, r[int(rand() * 5) + 1], int(rand() * 500), rand() * 100
}' >"$E/data.csv"
median() { # COLUMN: the median of a column of $E/data.csv, in cents for price
	tail -n +2 "$E/data.csv" | cut -d, -f"$1" | tr -d . | sed 's/^0*\([0-9]\)/\1/' |
		sort -n | awk '{ a[NR] = $1 } END {
		if (NR % 2) print a[(NR + 1) / 2]; else printf "%.17g\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
awk -F, -v mu="$(median 3)" -v mc="$(median 4)" '
function stat(s, mn, mx, n, med) {
	return sprintf("{\"sum\": %.0f, \"min\": %d, \"max\": %d, \"mean\": %.17g, \"median\": %s}",
		s, mn, mx, s / n, med)
}
NR > 1 {
	n++; u = $3 + 0; c = $4; sub(/\./, "", c); c += 0
	su += u; sc += c
	if (n == 1 || u < umin) umin = u; if (n == 1 || u > umax) umax = u
	if (n == 1 || c < cmin) cmin = c; if (n == 1 || c > cmax) cmax = c
	rows[$2]++; units[$2] += u
}
END {
	printf "{\"rows\": %d, \"units\": %s, \"price_cents\": %s, \"by_region\": {", n,
		stat(su, umin, umax, n, mu), stat(sc, cmin, cmax, n, mc)
	sep = ""
	for (g in rows) { printf "%s\"%s\": {\"rows\": %d, \"units\": %d}", sep, g, rows[g], units[g]; sep = ", " }
	print "}}"
}' "$E/data.csv" >"$E/stats.json"
{
	echo region,rows,units
	tail -n +2 "$E/data.csv" | awk -F, '{ r[$2]++; u[$2] += $3 } END { for (g in r) print g "," r[g] "," u[g] }' |
		LC_ALL=C sort
} >"$E/regions.csv"

# python, analysis.py: per region of data.csv, rows, units and the mean
# price; a series y = 1.75 x + 12 + noise, its moments and least-squares
# line (two passes in awk, the textbook formulas); the integral of
# exp(-t^2) over the line is sqrt(pi); the root of cos t = t is the limit
# of iterating cos.
awk 'BEGIN { srand(13); print "x,y"
	for (i = 0; i < 1000; i++) printf "%d,%.6f\n", i, 1.75 * i + 12 + (rand() - 0.5) * 40 }' >"$E/series.csv"
{
	printf '{"by_region": '
	awk -F, 'NR > 1 { rows[$2]++; units[$2] += $3; price[$2] += $4 }
	END {
		printf "{"; sep = ""
		for (g in rows) {
			printf "%s\"%s\": {\"rows\": %d, \"units\": %d, \"price_mean\": %.17g}",
				sep, g, rows[g], units[g], price[g] / rows[g]
			sep = ", "
		}
		printf "}"
	}' "$E/data.csv"
	printf ', "series": '
	awk -F, 'NR > 1 { n++; x[n] = $1 + 0; y[n] = $2 + 0; sx += $1; sy += $2 }
	END {
		mx = sx / n; my = sy / n
		for (i = 1; i <= n; i++) {
			dx = x[i] - mx; dy = y[i] - my
			sxx += dx * dx; syy += dy * dy; sxy += dx * dy
		}
		b = sxy / sxx; a = my - b * mx
		printf "{\"n\": %d, \"mean_x\": %.17g, \"mean_y\": %.17g, \"std_y\": %.17g, ", n, mx, my, sqrt(syy / n)
		printf "\"polyfit\": [%.17g, %.17g], \"linregress\": [%.17g, %.17g, %.17g]}", b, a, b, a, sxy / sqrt(sxx * syy)
	}' "$E/series.csv"
	awk 'BEGIN {
		t = 1; for (i = 0; i < 1000; i++) t = cos(t)
		printf ", \"gauss\": %.17g, \"dottie\": %.17g}\n", sqrt(atan2(0, -1)), t
	}'
} >"$E/analysis.json"

# node: 2 MiB of random bytes; sha256sum and sha1sum.
head -c $((2 << 20)) /dev/urandom >"$E/blob.bin"
jq -n --argjson n "$(stat -c %s "$E/blob.bin")" \
	--arg s256 "$(sha256sum "$E/blob.bin" | cut -c1-64)" \
	--arg s1 "$(sha1sum "$E/blob.bin" | cut -c1-40)" \
	'{file: "blob.bin", bytes: $n, sha256: $s256, sha1: $s1}' >"$E/hash.json"

# cc: the primes below 200000 by a sieve in awk.
awk -v n=200000 'BEGIN {
	for (i = 2; i < n; i++) if (!(i in c)) {
		k++; s += i; last = i
		for (j = i * i; j < n; j += i) c[j] = 1
	}
	printf "count %d\nsum %.0f\nlast %d\n", k, s, last
}' >"$E/primes.txt"

# shell: three text files (and one that is not .txt) of words in mixed
# case and punctuation; python3 counts them.
mkdir -p "$E/text/sub"
seed=0
for f in a b sub/c; do
	seed=$((seed + 1))
	awk -v seed=$seed 'BEGIN {
		srand(seed * 31 + 5)
		n = split("The quick brown Fox jumps over the lazy dog; a dog, a fox! " \
			"Sandbox sandboxes seccomp namespaces cgroups mount proc " \
			"Policy policies compiler launcher ward Ward WARD kernel syscall " \
			"extraordinarily it is of and to in", w, " ")
		for (l = 0; l < 400; l++) {
			line = ""
			for (k = int(rand() * 12); k > 0; k--) line = line w[int(rand() * n) + 1] " "
			print line
		}
	}' >"$E/text/$f.txt"
done
echo "ignored words ignored ignored" >"$E/text/notes.md"
"$PY" - "$E/text" "$E" <<'PYEOF'
import collections, os, re, sys
root, out = sys.argv[1], sys.argv[2]
paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(root)
               for f in fs if f.endswith(".txt"))
text = "".join(open(p).read() for p in paths)
words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
count = collections.Counter(words)
top = sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
with open(os.path.join(out, "top.txt"), "w") as f:
    f.writelines("%s %d\n" % kv for kv in top)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write("words %d\ndistinct %d\nlines %d\nlongest %s\n" % (
        len(words), len(count), text.count("\n"),
        min(words, key=lambda w: (-len(w), w))))
with open(os.path.join(out, "topword.txt"), "w") as f:
    f.write(top[0][0] + "\n")
PYEOF

# strict: 50000 integers; awk sums them, python3 hashes the bytes.
awk 'BEGIN { srand(11); for (i = 0; i < 50000; i++) print int(rand() * 2000001) - 1000000 }' >"$E/numbers.txt"
{
	awk 'NR == 1 || $1 < mn { mn = $1 } NR == 1 || $1 > mx { mx = $1 } { s += $1 }
		END { printf "count %d\nsum %.0f\nmin %d\nmax %d\n", NR, s, mn, mx }' "$E/numbers.txt"
	"$PY" -c '
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("fnv1a %016x" % h)' "$E/numbers.txt"
} >"$E/numstat.txt"
if ! "$CC" -static -O2 -o "$T/bin/numstat" "$W/numstat.c" 2>"$T/cc.log"; then
	fail build/numstat "$(head -c 300 "$T/cc.log")"
fi
chmod -R a+rX "$E" "$T/bin"

# ------------------------------------------------------------ workloads
# Each: a fresh run directory, the inputs in its input slot, one launch as
# the profile's header shows it, then the results against $E.

t_python() { # MODE
	newrun "$1" python
	cp "$W/stats.py" "$E/data.csv" "$R/in/" && chmod 644 "$R/in/"*
	WARGS="--export-dir $R/export"
	launch "$1" python "" -- /usr/bin/python3 /input/stats.py
	p=
	if ! jsoneq "$R/out/stats.json" "$E/stats.json"; then
		p="stats.json: got $(head -c 300 "$R/out/stats.json" 2>/dev/null) expected $(head -c 300 "$E/stats.json")"
	elif [ -n "$(differs "$R/out/regions.csv" "$E/regions.csv")" ]; then
		p=$(differs "$R/out/regions.csv" "$E/regions.csv")
	elif [ "$(cat "$R/stdout")" != "rows 3000" ]; then
		p="stdout is not 'rows 3000'"
	elif [ -n "$(exported regions.csv stats.json)" ]; then
		p=$(exported regions.csv stats.json)
	elif [ "$1" = root ] && [ "$(stat -c %u "$R/out/stats.json")" != "$HUID" ]; then
		p="stats.json is owned by $(stat -c %u "$R/out/stats.json"), not the sandbox's host uid $HUID"
	fi
	verdict "$1" python "$p"
}

# The stack people use under the python profile: numpy, pandas, scipy and
# matplotlib (Debian's, from the host's /usr), a chart exported as a PNG,
# and nothing on stderr from fontconfig.
# The numbers against awk's; the PNG, as it arrived in --export-dir, read by
# pngcheck.py (the standard library, not the code that drew it): its
# signature and every chunk well formed, 800x450 as the script asked, not
# blank (the bars' green, the points' blue, the line's red: matplotlib's
# tab:green, tab:blue and tab:red), within the export's 5M per file, the
# report's manifest calling it an exported png with the host's SHA-256.
CHART_COLOURS="2ca02c 1f77b4 d62728"
# shellcheck disable=SC2086 # $CHART_COLOURS: one argument per colour
t_python_stack() { # MODE
	newrun "$1" python-stack
	cp "$W/analysis.py" "$E/data.csv" "$E/series.csv" "$R/in/" && chmod 644 "$R/in/"*
	WARGS="--export-dir $R/export"
	launch "$1" python "" -- /usr/bin/python3 /input/analysis.py
	png=$R/export/chart.png
	p=
	if ! missing=$("$PY" -c 'import numpy, pandas, scipy, matplotlib' 2>&1); then
		p="the host's python3 lacks the stack (make deps installs python3-numpy, -pandas, -scipy, -matplotlib): $(printf '%s' "$missing" | tail -1)"
	elif ! jsoneq "$R/out/analysis.json" "$E/analysis.json"; then
		p="analysis.json: got $(head -c 600 "$R/out/analysis.json" 2>/dev/null) expected $(head -c 600 "$E/analysis.json")"
	elif [ "$(cat "$R/stdout")" != "charted 1000 points" ]; then
		p="stdout is not 'charted 1000 points'"
	elif grep -q 'Fontconfig error' "$R/stderr"; then
		p="fontconfig complained on stderr: $(grep 'Fontconfig' "$R/stderr" | head -1)"
	elif [ ! -f "$png" ] || ! cmp -s "$png" "$R/out/chart.png"; then
		p="--export-dir did not export chart.png: $(cd "$R/export" && echo *)"
	elif [ "$(od -An -tx1 -N8 "$png" | tr -d ' \n')" != 89504e470d0a1a0a ]; then
		p="chart.png does not start with the PNG signature: $(od -An -tx1 -N8 "$png")"
	elif size=$(stat -c %s "$png") && { [ "$size" -lt 10000 ] || [ "$size" -gt $((5 << 20)) ]; }; then
		p="chart.png is $size bytes: not a drawn chart, or over the export's 5M"
	elif ! seen=$("$PY" "$top/tests/profiles/pngcheck.py" "$png" $CHART_COLOURS 2>&1); then
		p="chart.png: $seen"
	elif ! printf '%s\n' "$seen" | grep -q '^png 800x450 depth 8 '; then
		p="chart.png is not 800x450: $seen"
	elif distinct=$(printf '%s\n' "$seen" | sed -n 's/.* distinct \([0-9]*\).*/\1/p') &&
		[ "${distinct:-0}" -lt 16 ] || printf '%s\n' "$seen" | grep -qE ' [0-9a-f]{6}=0( |$)'; then
		p="chart.png lacks what was drawn (colours $CHART_COLOURS): $seen"
	elif [ "$(q '[.export[0].entries[] | select(.path == "chart.png") |
		select(.verdict == "exported" and .type == "png")] | .[0].sha256')" != "$(sha256sum "$png" | cut -c1-64)" ]; then
		p="the manifest does not list chart.png as an exported png with its SHA-256: $(jq -c '.export[0].entries' "$R/report.json" 2>/dev/null | head -c 300)"
	fi
	verdict "$1" python-stack "$p" python
}

# Files of host users the user namespace does not map (root's /usr) show as
# the kernel's overflow uid; the sandbox's own uid must be another, or
# they look like the sandbox's own (git's safe.directory, `ls -l`, a
# program checking it owns its config are fooled). base/core's passwd
# names both: the sandbox's `sandbox`, the overflow uid `nobody`.
t_python_owner() { # MODE
	newrun "$1" python-unmapped-owner
	# shellcheck disable=SC2016 # expanded inside the sandbox
	launch "$1" python "" -- /bin/sh -c 'echo "$(id -u) $(id -un) $(stat -c "%u %U" /usr)"'
	overflow=$(cat /proc/sys/kernel/overflowuid)
	read -r uid uname owner oname rest <"$R/stdout"
	p=
	if [ -z "$oname" ] || [ -n "$rest" ]; then
		p="stdout is not 'UID NAME OWNER NAME'"
	elif [ "$uid" = "$owner" ]; then
		p="/usr, root's on the host, is owned inside by uid $owner ($oname): the sandbox's own uid ($uname)"
	elif [ "$owner" != "$overflow" ]; then
		p="/usr is owned inside by uid $owner, not the overflow uid $overflow"
	elif [ "$uname" != sandbox ] || [ "$oname" != nobody ]; then
		p="names: the sandbox's uid $uid is '$uname' (not sandbox), the overflow uid '$oname' (not nobody)"
	fi
	verdict "$1" python-unmapped-owner "$p" python
}

t_node() {
	newrun "$1" node
	cp "$W/main.js" "$E/blob.bin" "$R/in/" && chmod 644 "$R/in/"*
	WARGS="--export-dir $R/export"
	launch "$1" node "" -- /usr/bin/node /input/main.js
	p=
	if ! jq 'del(.order)' "$R/out/hash.json" >"$R/hash.json" 2>/dev/null ||
		! jsoneq "$R/hash.json" "$E/hash.json"; then
		p="hash.json: got $(head -c 300 "$R/out/hash.json" 2>/dev/null) expected $(jq -c . "$E/hash.json")"
	elif [ "$(jq -c '[(.order | length), (.order | index("immediate") != null),
		(.order | map(select(. != "immediate")))]' "$R/out/hash.json")" != '[3,true,["timeout10","timeout300"]]' ]; then
		# the immediate may come after a timer when the loop starts late
		# (a throttled CPU), but the timers keep their order (300 ms
		# apart: a cpu quota's throttling can stall node for tens of ms
		# between registering two timers; 40 and 10 once came reversed)
		p="timers: $(jq -c .order "$R/out/hash.json")"
	elif [ "$(cat "$R/stdout")" != "hashed $((2 << 20)) bytes" ]; then
		p="stdout is not 'hashed $((2 << 20)) bytes'"
	else
		p=$(exported hash.json)
	fi
	verdict "$1" node "$p"
}

t_cc() {
	newrun "$1" cc
	mkdir "$R/in/prog"
	cp "$W/cc/Makefile" "$W/cc/main.c" "$W/cc/sieve.c" "$W/cc/sieve.h" "$R/in/prog/"
	chmod -R a+rX "$R/in"
	WARGS="--export-dir $R/export"
	launch "$1" cc "" -- /bin/sh -c \
		'cp -r /input/prog/. /work && cd /work && make >/output/build.log && cat /output/build.log && ./primes 200000 /output/primes.txt'
	p=$(differs "$R/out/primes.txt" "$E/primes.txt")
	if [ -z "$p" ] && ! grep -q -- '-o primes main.o sieve.o' "$R/stdout"; then
		p="make did not link in the sandbox: stdout $(head -c 300 "$R/stdout" | tr '\n' '|')"
	fi
	# the build's log and its result leave; the binary stays in /work
	[ -z "$p" ] && p=$(exported build.log primes.txt)
	verdict "$1" cc "$p"
}

t_shell() {
	newrun "$1" shell
	cp "$W/job.sh" "$R/in/" && cp -r "$E/text" "$R/in/"
	chmod -R a+rX "$R/in"
	WARGS="--export-dir $R/export"
	launch "$1" shell "" -- /bin/bash /input/job.sh
	p=$(differs "$R/out/top.txt" "$E/top.txt")
	[ -z "$p" ] && p=$(differs "$R/out/summary.txt" "$E/summary.txt")
	[ -z "$p" ] && p=$(differs "$R/stdout" "$E/topword.txt")
	[ -z "$p" ] && p=$(exported summary.txt top.txt)
	verdict "$1" shell "$p"
}

t_strict() {
	newrun "$1" strict
	cp "$T/bin/numstat" "$R/in/" && chmod 755 "$R/in/numstat"
	WARGS="--stdin $E/numbers.txt --export-dir $R/export"
	launch "$1" strict "" -- /input/numstat
	# (the program writes its stdout only: an empty, complete export)
	p=$(differs "$R/stdout" "$E/numstat.txt")
	[ -z "$p" ] && p=$(exported)
	verdict "$1" strict "$p"
}

# ------------------------------------------------------------ agent-net
# The pinned mirror, 192.0.2.10 (a documentation address), exists only in
# namespaces made here:
#
#   NS_HOST (ward runs here)  203.0.113.1 ── veth ── 203.0.113.2  NS_NET
#   route 192.0.2.10/32 via 203.0.113.2          lo: 192.0.2.10
#                                                mirror.py: HTTPS on 443
#                                                (a test CA's certificate
#                                                for "mirror"), TCP on 80
#
# NS_HOST has no default route (checked before the run), so nothing but
# the mirror is reachable from where ward runs.
MIRROR=192.0.2.10
NET_WHY=
net_init() {
	for tool in ip nsenter openssl; do
		command -v "$tool" >/dev/null 2>&1 || { NET_WHY="$tool is not installed"; return 1; }
	done
	mkdir -p "$T/net/www" && chmod 755 "$T/net" "$T/net/www"
	cp "$E/data.csv" "$T/net/www/" && chmod 644 "$T/net/www/data.csv"
	if ! openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=mirror \
		-addext subjectAltName=DNS:mirror -keyout "$T/net/key.pem" \
		-out "$T/net/ca.pem" >"$T/net/openssl.log" 2>&1; then
		NET_WHY="openssl: $(head -c 200 "$T/net/openssl.log")"
		return 1
	fi
	NS_HOST=wp-h-$$ NS_NET=wp-n-$$
	for n in $NS_HOST $NS_NET; do
		if ! ip netns add "$n" || ! ip -n "$n" link set lo up; then
			NET_WHY="ip netns add $n failed"
			return 1
		fi
	done
	if ! { ip -n "$NS_HOST" link add wp0 type veth peer name wp1 netns "$NS_NET" &&
		ip -n "$NS_HOST" addr add 203.0.113.1/24 dev wp0 &&
		ip -n "$NS_NET" addr add 203.0.113.2/24 dev wp1 &&
		ip -n "$NS_NET" addr add $MIRROR/32 dev lo &&
		ip -n "$NS_HOST" link set wp0 up && ip -n "$NS_NET" link set wp1 up &&
		ip -n "$NS_HOST" route add $MIRROR/32 via 203.0.113.2; } 2>"$T/net/ip.log"; then
		NET_WHY="veth: $(head -c 200 "$T/net/ip.log")"
		return 1
	fi
	for a in 1.1.1.1 8.8.8.8 10.0.0.1 172.16.0.1 192.168.1.1 2001:4860:4860::8888; do
		if nsenter --net="/run/netns/$NS_HOST" ip route get "$a" >/dev/null 2>&1; then
			fail setup/net-isolated "$NS_HOST routes $a; no agent-net run"
			NET_WHY="the test namespace is not isolated"
			return 1
		fi
	done
	nsenter --net="/run/netns/$NS_NET" "$PY" "$W/mirror.py" $MIRROR "$T/net/www" \
		"$T/net/ca.pem" "$T/net/key.pem" "$T/net/mirror.log" "$T/net/ready" \
		>/dev/null 2>"$T/net/mirror.err" &
	bgpids="$bgpids $!"
	i=0
	while [ ! -f "$T/net/ready" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ ! -f "$T/net/ready" ]; then
		NET_WHY="the mirror did not start: $(head -c 300 "$T/net/mirror.err")"
		return 1
	fi
	jq -n --argjson n "$(stat -c %s "$E/data.csv")" \
		--argjson l "$(wc -l <"$E/data.csv")" \
		--arg s "$(sha256sum "$E/data.csv" | cut -c1-64)" \
		'{status: 200, bytes: $n, lines: $l, sha256: $s, port80: "EPERM"}' >"$E/fetch.json"
}

t_agentnet() {
	newrun "$1" agent-net
	if [ -n "$NET_WHY" ]; then
		skip "$1/agent-net" "$NET_WHY"
		return
	fi
	cp "$W/fetch.py" "$T/net/ca.pem" "$R/in/" && chmod 644 "$R/in/"*
	n0=$(wc -l <"$T/net/mirror.log")
	WARGS="--export-dir $R/export"
	launch "$1" agent-net "$NS_HOST" -- /usr/bin/python3 /input/fetch.py
	sleep 0.2 # the mirror logs from its own thread
	layers='["namespace","broker","cgroup-bpf"]'
	[ "$1" = rootless ] && layers='["namespace","broker"]' 
	seen=$(tail -n +$((n0 + 1)) "$T/net/mirror.log" | tr '\n' ';')
	p=
	if ! jsoneq "$R/out/fetch.json" "$E/fetch.json"; then
		p="fetch.json: got $(head -c 300 "$R/out/fetch.json" 2>/dev/null) expected $(jq -c . "$E/fetch.json")"
	elif [ "$seen" != "get /data.csv;" ]; then
		# seen from the mirror's side: one HTTPS request, nothing on 80
		p="the mirror saw: $seen"
	elif [ "$(q '[.denials.network[]? | select(.layer == "broker" and .call == "connect" and .address == "'$MIRROR'" and .port == 80 and .errno == "EPERM")] | length')" != 1 ]; then
		p="the report does not name the refused connect to $MIRROR:80: $(jq -c .denials "$R/report.json" 2>/dev/null)"
	elif [ "$(q '[.network.attempts[]? | select(.verdict == "allowed" and .address == "'$MIRROR'" and .port == 443)] | length')" != 1 ]; then
		p="the report does not have the allowed connect to $MIRROR:443: $(jq -c .network "$R/report.json" 2>/dev/null)"
	elif [ "$(q '.network.layers' | tr -d ' \n')" != "$layers" ]; then
		p="the report's layers are $(q '.network.layers' | tr -d ' \n'), not $layers"
	elif [ "$(cat "$R/stdout")" != "fetched $(stat -c %s "$E/data.csv")" ]; then
		p="stdout is not 'fetched $(stat -c %s "$E/data.csv")'"
	else
		p=$(exported fetch.json)
	fi
	verdict "$1" agent-net "$p"
}

net_init
for MODE in root rootless; do
	t_python $MODE
	t_python_stack $MODE
	t_python_owner $MODE
	t_node $MODE
	t_cc $MODE
	t_shell $MODE
	t_strict $MODE
	t_agentnet $MODE
done
finish
