#!/bin/sh
# tests/bench/bench_parse.sh BUILD_DIR: parsing speed and memory.
#
# Generates policies of 100,000 and 200,000 lines (groups with many members,
# fs entries, rules with conditions, limits, comments), parses each several
# times with a small driver linked with BUILD_DIR's front end, and prints
# lines per second (median run), the peak RSS, and the ratio of the two
# times: parsing is linear when twice the lines take twice the time.
# Target: over 1,000,000 lines/s.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
out=$build/bench
mkdir -p "$out"
for lib in libwardlang.a libwardcommon.a; do
	if [ ! -f "$build/$lib" ]; then
		echo "bench_parse: no $build/$lib (run make first)" >&2
		exit 2
	fi
done
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$top/lang" -I"$top/common" \
	-o "$out/bench_parse" "$top/tests/bench/bench_parse.c" \
	"$build/libwardlang.a" "$build/libwardcommon.a"

generate() { # LINES FILE: a valid policy of about LINES lines, shaped like
	# the stdlib (about 35 bytes a line, a third of them comments or blank)
	python3 - "$1" "$2" <<'PY'
import sys
want, path = int(sys.argv[1]), sys.argv[2]
out = ["ward 1;", "policy bench;", "use base;", ""]
i = 0
while len(out) < want:
    i += 1
    out.append(f"# Block {i}: the syscalls of one kind of program,")
    out.append("# the files it sees, its limits and its rules.")
    out.append(f"group @g{i} {{")
    for k in range(5):
        out.append("    " + ", ".join(f"call{k}_{m}" for m in range(5)) + ",")
    out.append(f"    @base-{i % 50}")
    out.append("}")
    out.append("")
    out.append("fs {")
    out.append("    # libraries, read-only")
    out.append(f"    bind /usr/lib/b{i} at /lib/b{i} ro;")
    out.append(f"    tmpfs /tmp/t{i} size 100M;  # scratch")
    out.append(f"    file /etc/f{i} \"one\\n\" mode 0644;")
    out.append(f"    symlink /bin/b{i} -> usr/bin/b;")
    out.append("}")
    out.append("")
    out.append("limits {")
    out.append(f"    memory {i % 900 + 1}M;")
    out.append("    cpu 0.5;")
    out.append("    wall 30s;")
    out.append("}")
    out.append("")
    out.append("syscalls {")
    out.append("    # sockets: local ones only")
    out.append("    allow socket if domain == AF_UNIX;")
    out.append(f"    allow ioctl if arg1 == TCGETS;")
    out.append(f"    errno EPERM @privileged, ptrace;")
    out.append(f"    kill mmap if arg2 & PROT_EXEC != 0;")
    out.append("}")
    out.append(f"const C{i} = O_RDONLY | {i};")
    out.append("")
with open(path, "w") as f:
    f.write("\n".join(out[:want]) + "\n")
PY
}

generate 100000 "$out/parse-100k.ward"
generate 200000 "$out/parse-200k.ward"
# the generator may cut the last block: close it so the file parses
for f in "$out/parse-100k.ward" "$out/parse-200k.ward"; do
	python3 - "$f" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")[:-1]
# drop the unfinished last block (after the last blank line)
while lines and lines[-1] != "":
    lines.pop()
open(p, "w").write("\n".join(lines) + "\n")
PY
done

a=$("$out/bench_parse" "$out/parse-100k.ward" 9)
b=$("$out/bench_parse" "$out/parse-200k.ward" 9)
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
la=$(field "$a" lines)
lb=$(field "$b" lines)
ta=$(field "$a" median_ms)
tb=$(field "$b" median_ms)
for r in "$a" "$b"; do
	echo "bench_parse: $(field "$r" lines) lines, $(field "$r" bytes) bytes:" \
		"median $(field "$r" median_ms) ms CPU ($(field "$r" wall_median_ms) ms wall)," \
		"$(field "$r" lines_per_s) lines/s, tree $(field "$r" arena_bytes) bytes," \
		"peak RSS $(field "$r" peak_rss_kb) KiB"
done
awk -v la="$la" -v lb="$lb" -v ta="$ta" -v tb="$tb" 'BEGIN {
	printf "bench_parse: linearity: %.2fx the lines took %.2fx the time\n", lb / la, tb / ta
	lps = la / (ta / 1000)
	printf "bench_parse: target 1000000 lines/s: %s\n", (lps >= 1000000) ? "met" : "NOT met"
}'
