#!/bin/sh
# Record which syscalls the stdlib profiles' workloads really make, so that
# their allow-lists can be checked and redone (stdlib-policies/*.ward).
#
#   sh tools/strace-syscalls.sh [OUTDIR]      (default: tools/strace)
#
# Needs strace, setpriv, unshare and ip; runs as root. Each workload runs
# under strace -f as an unprivileged host user standing for the sandbox's
# (65534, the host's nobody: the sandbox's own 1000 may be a real user
# here), with the sandbox's environment
# (env -i, LANG, PATH, HOME) and a scratch directory standing for /work,
# /input, /output and /tmp. It writes, per workload W:
#   W.syscalls  "name calls", sorted by name: every syscall of every thread
#               and child, from the first execve on;
#   W.etc       the paths under /etc the workload looked at, and the result;
#   W.other     the paths outside /usr, /etc, /tmp, /work, /input, /output
#               and the usual /proc and /dev entries it looked at;
#   W.args      the distinct decoded values of the arguments that policies
#               check (ioctl requests, socket domains, clone flags, ...);
#   W.tasks     the most tasks (threads and processes) alive at once.
# The agent-net workload talks HTTP to a server on 192.0.2.10 (TEST-NET-1,
# a documentation address) inside a network namespace made for it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$top/tools/strace}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
[ "$(id -u)" = 0 ] || {
	echo "strace-syscalls: run as root" >&2
	exit 2
}
for t in strace setpriv unshare ip gcc make python3 node bash; do
	command -v $t >/dev/null || {
		echo "strace-syscalls: missing $t" >&2
		exit 2
	}
done

S=$(mktemp -d /tmp/ward-strace.XXXXXX)
trap 'rm -rf "$S"' EXIT INT TERM
mkdir -p "$S/work" "$S/input" "$S/output" "$S/tmp"
chown 65534:65534 "$S/work" "$S/output" "$S/tmp"

# ---------------------------------------------------------------- inputs
python3 - "$S/input/data.csv" <<'EOF'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    f.write("id,group,value,when\n")
    for i in range(5000):
        f.write(f"{i},{random.choice('abcde')},{random.gauss(50, 12):.3f},2024-01-{i % 28 + 1:02d}\n")
EOF
chmod -R a+rX "$S/input"

cat >"$S/work/analyse.py" <<'EOF'
# A typical data-analysis task: read a CSV, compute statistics, write JSON.
import collections, csv, datetime, decimal, fractions, hashlib, itertools
import json, math, os, random, re, statistics, sys, tempfile, time
import concurrent.futures, gzip, sqlite3, subprocess, threading, zipfile

rows = list(csv.DictReader(open("/input/data.csv", newline="")))
vals = [float(r["value"]) for r in rows]
by_group = collections.defaultdict(list)
for r in rows:
    by_group[r["group"]].append(float(r["value"]))
stats = {
    "n": len(vals),
    "mean": statistics.mean(vals),
    "stdev": statistics.stdev(vals),
    "median": statistics.median(vals),
    "quantiles": statistics.quantiles(vals, n=4),
    "groups": {g: round(statistics.fmean(v), 3) for g, v in sorted(by_group.items())},
    "sqrt_sum": math.sqrt(sum(vals)),
    "days": len({datetime.date.fromisoformat(r["when"]) for r in rows}),
    "digest": hashlib.sha256(open("/input/data.csv", "rb").read()).hexdigest(),
    "sum_dec": str(sum(decimal.Decimal(r["value"]) for r in rows)),
    "frac": str(fractions.Fraction(3, 7) * 7),
    "rand": random.random() < 2,
    "re": len(re.findall(r"\d+", "a1b22c333")),
    "now": time.time() > 0 and datetime.datetime.now().year > 2000,
}
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "scratch.csv")
    with open(p, "w") as f:
        csv.writer(f).writerows(itertools.islice(([r["id"], r["value"]] for r in rows), 100))
    with gzip.open(p + ".gz", "wt") as f:
        f.write("x" * 1000)
    with zipfile.ZipFile(p + ".zip", "w") as z:
        z.write(p, "scratch.csv")
    db = sqlite3.connect(os.path.join(d, "t.db"))
    db.execute("create table t(g text, v real)")
    db.executemany("insert into t values (?, ?)", [(r["group"], float(r["value"])) for r in rows])
    db.commit()
    stats["sql"] = db.execute("select count(*) from t").fetchone()[0]
    db.close()
    stats["listing"] = sorted(os.listdir(d))
with concurrent.futures.ThreadPoolExecutor(4) as ex:
    stats["threads"] = sum(ex.map(lambda v: v * 2, range(100)))
stats["sub"] = subprocess.run(["echo", "hi"], capture_output=True, text=True).stdout.strip()
os.makedirs("/output", exist_ok=True)
with open("/output/stats.json", "w") as f:
    json.dump(stats, f, indent=2)
print(json.dumps({k: stats[k] for k in ("n", "mean", "median")}))
print("done", file=sys.stderr)
EOF

cat >"$S/work/mp.py" <<'EOF'
# multiprocessing: a pool of worker processes (fork, pipes, semaphores).
import multiprocessing
if __name__ == "__main__":
    with multiprocessing.Pool(2) as p:
        print(sum(p.map(abs, range(-50, 50))))
EOF

cat >"$S/work/np.py" <<'EOF'
# numpy, when installed (OpenBLAS starts threads).
import numpy as np
a = np.random.default_rng(1).normal(size=(300, 300))
print(float(np.linalg.norm(a @ a.T)), float(np.median(a)))
EOF

cat >"$S/work/app.js" <<'EOF'
// Read JSON-ish input, compute, write a file, use timers, promises, crypto.
const fs = require("fs"), crypto = require("crypto"), os = require("os"), path = require("path");
const lines = fs.readFileSync("/input/data.csv", "utf8").trim().split("\n").slice(1);
const vals = lines.map(l => parseFloat(l.split(",")[2]));
const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
fs.mkdirSync("/tmp/n", { recursive: true });
fs.writeFileSync("/tmp/n/out.json", JSON.stringify({ mean }));
fs.promises.readFile("/tmp/n/out.json", "utf8").then(t => {
  const h = crypto.createHash("sha256").update(t).digest("hex");
  setTimeout(() => {
    fs.writeFileSync("/output/node.json", JSON.stringify({ mean, h, cpus: os.cpus().length, rnd: crypto.randomBytes(4).toString("hex") }));
    console.log(JSON.stringify({ n: vals.length, mean: mean.toFixed(3) }));
  }, 20);
});
EOF

cat >"$S/work/pipeline.sh" <<'EOF'
# Text processing with the usual tools.
set -eu
cd /work
cut -d, -f2 /input/data.csv | tail -n +2 | sort | uniq -c | sort -rn > /tmp/groups.txt
wc -l < /input/data.csv
grep -c ',a,' /input/data.csv
sed -n '2,5s/,/;/gp' /input/data.csv | tr ';' '\t' | head -n 2
awk -F, 'NR > 1 { s += $3 } END { printf "%.2f\n", s / (NR - 1) }' /input/data.csv
mkdir -p /tmp/d/e && cp /tmp/groups.txt /tmp/d/e/ && mv /tmp/d/e/groups.txt /tmp/d/g.txt
find /tmp/d -type f | xargs cat | tee /output/groups.txt > /dev/null
x=$(date +%Y); [ "$x" -gt 2000 ] && echo "year ok"
ls -la /tmp/d > /dev/null; rm -rf /tmp/d
printf '%s\n' b a c | sort | paste -sd, -
( cd /tmp && echo sub ) ; echo "$(basename /a/b/c)" "$(dirname /a/b/c)"
sleep 0.01; env | grep -c PATH; md5sum /input/data.csv | cut -c1-8
EOF

mkdir -p "$S/work/proj"
cat >"$S/work/proj/main.c" <<'EOF'
#include <stdio.h>
#include "sq.h"
int main(void) { printf("hello %d\n", sq(7)); return 0; }
EOF
cat >"$S/work/proj/sq.c" <<'EOF'
#include "sq.h"
int sq(int x) { return x * x; }
EOF
echo 'int sq(int x);' >"$S/work/proj/sq.h"
printf 'hello: main.o sq.o\n\t$(CC) -o $@ main.o sq.o -lm\n%%.o: %%.c sq.h\n\t$(CC) -O2 -Wall -c $<\n' >"$S/work/proj/Makefile"
cat >"$S/work/cc.sh" <<'EOF'
set -eu
cd /work/proj
make -s
./hello
cc -o /tmp/one main.c sq.c && /tmp/one
EOF
chown -R 65534:65534 "$S/work"

# A static binary: sums primes, prints the result.
cat >"$S/static.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	unsigned n = 20000, count = 0;
	char *sieve = calloc(n + 1, 1);
	for (unsigned i = 2; i <= n; i++)
		if (!sieve[i]) {
			count++;
			for (unsigned j = 2 * i; j <= n; j += i)
				sieve[j] = 1;
		}
	printf("%u primes\n", count);
	free(sieve);
	return 0;
}
EOF
gcc -O2 -static -o "$S/static" "$S/static.c"

# ---------------------------------------------------------------- tracing
# The scratch tree is bound over the sandbox's paths in a mount namespace, so
# the workloads see /work, /input, /output and /tmp as inside the sandbox.
run() { # run NAME COMMAND...: trace COMMAND as 65534 in the sandbox's layout
	name=$1
	shift
	unshare -m sh -c '
		S=$1; shift
		mount --make-rprivate /
		for d in work input output tmp; do mkdir -p /$d; mount --bind "$S/$d" /$d; done
		cd /work
		exec setpriv --reuid=65534 --regid=65534 --clear-groups \
			env -i LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin HOME=/work \
			strace -f -q -s 64 -o /tmp/trace "$@"
	' sh "$S" "$@" >"$S/$name.out" 2>&1 || {
		echo "strace-syscalls: $name failed:" >&2
		cat "$S/$name.out" >&2
		exit 1
	}
	summarise "$name" "$S/tmp/trace"
	rm -f "$S/tmp/trace"
}

summarise() { # summarise NAME TRACE
	# "PID name(" starts a call; "<... name resumed>" finishes one.
	sed -n 's/^[0-9][0-9]*  *\([a-z0-9_]*\)(.*/\1/p' "$2" | sort | uniq -c |
		awk '{ print $2, $1 }' >"$OUT/$1.syscalls"
	# paths of file syscalls with their outcome ("ok" or the errno name)
	grep -v '<unfinished \.\.\.>$' "$2" |
		grep -E '^[0-9]+ +(open|openat|openat2|creat|stat|lstat|newfstatat|statx|statfs|access|faccessat|faccessat2|readlink|readlinkat|execve|execveat|chdir|mkdir|mkdirat|unlink|unlinkat|rmdir|rename|renameat|renameat2|link|linkat|symlink|symlinkat|chmod|fchmodat|truncate|utimensat|getxattr|lgetxattr|connect|bind)\(' |
		sed -n 's/^[0-9][0-9]*  *[a-z0-9_]*([^"]*"\(\/[^"]*\)".* = \(-1 [A-Z]*\|[0-9x]\).*$/\1 \2/p' |
		sed 's/ -1 \([A-Z]*\)$/ \1/; s/ [0-9x]$/ ok/' | sort -u >"$S/paths"
	grep '^/etc/' "$S/paths" >"$OUT/$1.etc" || :
	# and those outside the sandbox's usual tree
	grep -v '^/\(etc\|usr\|work\|input\|output\|tmp\|proc/self\|dev/\(null\|urandom\|tty\|shm\)\)\(/\| \)' \
		"$S/paths" >"$OUT/$1.other" || :
	{
		grep -o 'ioctl([0-9]*, [A-Z_0-9]*' "$2" | sed 's/.*, /ioctl request /'
		grep -o 'socket(AF_[A-Z0-9]*, [A-Z_|0-9]*' "$2" | sed 's/socket(/socket /; s/,//'
		grep -o 'clone(child_stack=[^,]*, flags=[A-Z_|0-9]*' "$2" | sed 's/.*flags=/clone flags /'
		grep -o 'clone3({flags=[A-Z_|0-9]*' "$2" | sed 's/.*flags=/clone3 flags /'
		grep -o 'prctl(PR_[A-Z_0-9]*' "$2" | sed 's/(/ option /'
		grep -o 'fcntl([0-9]*, F_[A-Z_0-9]*' "$2" | sed 's/.*, /fcntl cmd /'
		grep -o 'madvise(0x[0-9a-f]*, [0-9]*, MADV_[A-Z_0-9]*' "$2" | sed 's/.*, /madvise advice /'
		grep -o 'mprotect(0x[0-9a-f]*, [0-9]*, PROT_[A-Z_|]*' "$2" | sed 's/.*, /mprotect prot /'
		grep -o 'mmap(NULL, [0-9]*, PROT_[A-Z_|]*' "$2" | sed 's/.*, /mmap prot /'
		grep -o 'setsockopt([0-9]*, [A-Z_0-9]*, [A-Z_0-9]*' "$2" | sed 's/setsockopt([0-9]*, /setsockopt /; s/,//'
		grep -o 'kill([0-9]*, SIG[A-Z0-9]*' "$2" | sed 's/.*, /kill sig /'
		grep -o 'personality(0x[0-9a-f]*\|personality([A-Z_|]*' "$2" | sed 's/(/ /'
	} | sort | uniq -c | awk '{ c = $1; $1 = ""; sub(/^ /, ""); print $0, c }' >"$OUT/$1.args"
	# tasks alive at once: +1 at a clone/fork that returned a pid, -1 at an exit
	awk '
		/^[0-9]+ +(clone|clone3|fork|vfork)\(.*= [0-9]+$/ { n++; if (n > m) m = n }
		/<\.\.\. (clone|clone3|fork|vfork) resumed>.*= [0-9]+$/ { n++; if (n > m) m = n }
		/\+\+\+ (exited|killed) / { n-- }
		END { print m + 1 }' "$2" >"$OUT/$1.tasks"
}

run python python3 /work/analyse.py
run python-mp python3 /work/mp.py
if env -i PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import numpy' 2>/dev/null; then
	run python-numpy python3 /work/np.py
else
	echo "strace-syscalls: numpy not installed: no python-numpy trace" >&2
fi
run node node /work/app.js
run shell bash /work/pipeline.sh
run cc sh /work/cc.sh
cp "$S/static" "$S/work/static"
run strict /work/static

# agent-net: python fetches over HTTP from a server on 192.0.2.10, both inside
# a new network namespace; the name is pinned in an /etc/hosts of its own.
cat >"$S/work/fetch.py" <<'EOF'
import json, ssl, urllib.request
ssl.create_default_context()  # loads the CA certificates
with urllib.request.urlopen("http://mirror:8080/data.json", timeout=5) as r:
    print(json.load(r)["ok"])
EOF
mkdir -p "$S/srv"
echo '{"ok": true}' >"$S/srv/data.json"
printf '127.0.0.1 localhost\n192.0.2.10 mirror\n' >"$S/hosts"
printf 'passwd: files\ngroup: files\nhosts: files\n' >"$S/nsswitch.conf"
unshare -n sh -c '
	S=$1
	ip link set lo up
	ip addr add 192.0.2.10/32 dev lo
	cd "$S/srv"
	python3 -m http.server --bind 192.0.2.10 8080 >/dev/null 2>&1 &
	srv=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do
		python3 -c "import socket; socket.create_connection((\"192.0.2.10\", 8080), 1)" 2>/dev/null && break
		sleep 0.2
	done
	unshare -m sh -c "
		mount --make-rprivate /
		mount --bind $S/hosts /etc/hosts
		mount --bind $S/nsswitch.conf /etc/nsswitch.conf
		for d in work input output tmp; do mkdir -p /\$d; mount --bind $S/\$d /\$d; done
		cd /work
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env -i LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin HOME=/work \
			strace -f -q -s 64 -o /tmp/trace python3 /work/fetch.py
	"
	rc=$?
	kill $srv
	exit $rc
' sh "$S" >"$S/agent-net.out" 2>&1 || {
	cat "$S/agent-net.out" >&2
	exit 1
}
summarise agent-net "$S/tmp/trace"

for f in "$OUT"/*.syscalls; do
	printf '%-14s %3d syscalls, %s tasks\n' "$(basename "$f" .syscalls)" \
		"$(wc -l <"$f")" "$(cat "${f%.syscalls}.tasks")"
done
