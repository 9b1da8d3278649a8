#!/bin/sh
# tests/fuzz/run.sh: build and run the libFuzzer targets, or replay their
# corpora without libFuzzer.
#
#   sh tests/fuzz/run.sh fuzz SECONDS TARGET...
#       build tests/fuzz/fuzz_TARGET.c with clang -fsanitize=fuzzer,address,
#       undefined into build/fuzz/ and run it for SECONDS on
#       tests/fuzz/corpus/TARGET/ (new inputs go to build/fuzz/corpus-TARGET/,
#       not the repository; crashes to tests/fuzz/crashes/, git-ignored)
#   sh tests/fuzz/run.sh fuzz-replay [SECONDS] TARGET...
#       build each target with cc -fsanitize=address,undefined and
#       tests/fuzz/replay_main.c, and feed it every file of its corpus
#
# A target names the libraries it needs on a line of its own:
#     fuzz-sources: lang core
# (lang: lang/ and the generated scanner and parser; core: common/, the
# blob contract both programs share; compiler: compiler/ without wardc.c, with the constants
# table; launcher: launcher/ without main.c; export: the exporter's
# content checks, launcher/unprivileged/export_*.c and safefs.c; session:
# the session protocol's parsers, session_proto.c). Without that line
# it gets all four. A file tests/fuzz/TARGET.dict is passed as a dictionary.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=build/fuzz
gen=$out/gen
mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
fuzz | fuzz-replay) ;;
*)
	echo "usage: $0 fuzz|fuzz-replay SECONDS TARGET..." >&2
	exit 2
	;;
esac
seconds=60
case ${1:-} in
'' | *[!0-9]*) ;;
*) seconds=$1 && shift ;;
esac
if [ $# -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do
		[ -f "$f" ] || continue
		t=${f#tests/fuzz/fuzz_}
		set -- "$@" "${t%.c}"
	done
fi
mkdir -p "$gen"

# The scanner and parser, generated as the Makefile does.
generate() {
	if [ ! -f "$gen/parser.c" ] || [ lang/parser.y -nt "$gen/parser.c" ]; then
		bison -Wall -Werror --defines="$gen/parser.h" -o "$gen/parser.c" \
			lang/parser.y
	fi
	if [ ! -f "$gen/lexer.c" ] || [ lang/lexer.l -nt "$gen/lexer.c" ]; then
		flex --header-file="$gen/lexer.h" -o "$gen/lexer.c" lang/lexer.l
	fi
	if [ -f tools/gen-consts.sh ] && { [ ! -f "$gen/consts_table.c" ] ||
		[ tools/consts.list -nt "$gen/consts_table.c" ]; }; then
		CC=${CC:-cc} sh tools/gen-consts.sh tools/consts.list \
			>"$gen/consts_table.c.tmp" &&
			mv "$gen/consts_table.c.tmp" "$gen/consts_table.c"
	fi
	if [ ! -f "$gen/syscall_table.c" ] ||
		[ common/syscalls.tsv -nt "$gen/syscall_table.c" ]; then
		sh tools/gen-syscall-table.sh common/syscalls.tsv \
			>"$gen/syscall_table.c.tmp" &&
			mv "$gen/syscall_table.c.tmp" "$gen/syscall_table.c"
	fi
}

sources_of() { # TARGET: the library sources it links
	want=$(sed -n 's/.*fuzz-sources:[[:space:]]*//p' "tests/fuzz/fuzz_$1.c" |
		head -n 1)
	[ -n "$want" ] || want="lang core compiler launcher"
	for part in $want; do
		case $part in
		lang) echo lang/*.c "$gen/lexer.c" "$gen/parser.c" ;;
		core) ls common/*.c ;;
		compiler)
			ls compiler/*/*.c | grep -v '^compiler/cli/wardc\.c$'
			[ -f "$gen/consts_table.c" ] && echo "$gen/consts_table.c"
			echo "$gen/syscall_table.c"
			;;
		launcher)
			ls launcher/*/*.c | grep -v '^launcher/supervisor/main\.c$'
			;;
		export)
			ls launcher/unprivileged/export_*.c launcher/unprivileged/safefs.c \
				launcher/lib/fsutil.c
			;;
		session) echo launcher/unprivileged/session_proto.c ;;
		esac
	done | tr '\n' ' '
}

pkgs="libseccomp libsodium yaml-0.1 libcap zlib"
cflags="-std=gnu11 -g -D_GNU_SOURCE -DWARD_VERSION=\"fuzz\" -I. -Ilang \
-Icommon $(for d in compiler/*/ launcher/*/; do printf ' -I%s' "${d%/}"; done) -I$gen $(pkg-config --cflags $pkgs 2>/dev/null || true)"
libs=$(pkg-config --libs $pkgs 2>/dev/null || true)

generate
status=0
# Replay: the targets are built first, a job per CPU (each compiles its
# sources whole; one after another they were most of the suite's time).
if [ "$mode" = fuzz-replay ]; then
	jobs=$(nproc 2>/dev/null || echo 1)
	n=0
	for t in "$@"; do
		[ -f "tests/fuzz/fuzz_$t.c" ] || continue
		rm -f "$out/replay_$t"
		# shellcheck disable=SC2046 # sources and flags are words
		${CC:-cc} $cflags -O1 -fsanitize=address,undefined \
			-fno-sanitize-recover=all -fno-omit-frame-pointer \
			-o "$out/replay_$t" tests/fuzz/replay_main.c \
			"tests/fuzz/fuzz_$t.c" $(sources_of "$t") $libs \
			>"$out/replay_$t.cc.log" 2>&1 &
		n=$((n + 1))
		if [ $n -ge "$jobs" ]; then
			wait
			n=0
		fi
	done
	wait
fi
for t in "$@"; do
	src=tests/fuzz/fuzz_$t.c
	if [ ! -f "$src" ]; then
		echo "FAIL fuzz/$t: no $src"
		status=1
		continue
	fi
	corpus=tests/fuzz/corpus/$t
	mkdir -p "$corpus"
	# shellcheck disable=SC2046 # sources and flags are words
	if [ "$mode" = fuzz ]; then
		bin=$out/fuzz_$t
		clang $cflags -O1 -fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=undefined -o "$bin" "$src" \
			$(sources_of "$t") $libs
		scratch=$out/corpus-$t
		mkdir -p "$scratch" tests/fuzz/crashes
		dict=
		[ -f "tests/fuzz/$t.dict" ] && dict=-dict=tests/fuzz/$t.dict
		echo "fuzz/$t: $seconds s"
		# shellcheck disable=SC2086 # an empty $dict is no argument
		if "$bin" -max_total_time="$seconds" -timeout=10 -max_len=65536 \
			-artifact_prefix="tests/fuzz/crashes/$t-" \
			-print_final_stats=1 $dict "$scratch" "$corpus" \
			2>"$out/fuzz_$t.log"; then
			grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' \
				"$out/fuzz_$t.log" || true
			echo "PASS fuzz/$t"
		else
			tail -n 40 "$out/fuzz_$t.log"
			echo "FAIL fuzz/$t: see tests/fuzz/crashes/ and $out/fuzz_$t.log"
			status=1
		fi
	else
		bin=$out/replay_$t
		if [ ! -x "$bin" ]; then
			cat "$out/replay_$t.cc.log"
			echo "FAIL fuzz-replay/$t: it did not build"
			status=1
		elif "$bin" "$corpus"; then
			echo "PASS fuzz-replay/$t"
		else
			echo "FAIL fuzz-replay/$t"
			status=1
		fi
	fi
done
exit $status
