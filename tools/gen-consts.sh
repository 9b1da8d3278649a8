#!/bin/sh
# Generate the table of built-in constants of the policy language (AF_UNIX,
# O_CLOEXEC, EPERM, CAP_SYS_ADMIN, ...) from the system headers.
#
#   CC=cc sh tools/gen-consts.sh tools/consts.list > consts_table.c
#
# No value is typed by hand anywhere. For each header of the list the
# preprocessor tells which names it defines (object-like macros from -dD,
# enumeration constants from the preprocessed text); the C compiler then
# evaluates every candidate in a test translation unit, and the names that are
# not integer constants (SIGRTMIN is a function call, SIG_DFL a pointer) or do
# not compile are dropped there, so one odd name never breaks the build.
#
# Two tables come out:
#  - the native one holds expressions, `{ "AF_UNIX", (uint64_t)(AF_UNIX) }`,
#    compiled into wardc with the same headers;
#  - the foreign one (aarch64 on an x86_64 host, and the other way round) is
#    evaluated with the foreign target's headers by a cross compiler that only
#    emits assembly (`clang --target=... -S`): the values are read back from
#    the assembly, so no foreign code ever runs. Without the cross headers the
#    foreign table is empty and every lookup for that target fails (closed).
#
# A name that two headers define with different values is left out, with a
# comment in the output. Environment: CC (native compiler), FOREIGN_CC (a
# complete compiler command for the foreign target; by default clang with
# Debian's cross headers under /usr/<triple>/include).
set -eu

LIST=${1:?usage: gen-consts.sh tools/consts.list}
CC=${CC:-cc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ward-consts.XXXXXX")
# GEN_CONSTS_KEEP=1 keeps the work directory, to see what was dropped.
if [ -n "${GEN_CONSTS_KEEP:-}" ]; then
	echo "gen-consts: work directory $TMP" >&2
else
	trap 'rm -rf "$TMP"' EXIT INT TERM
fi

die() {
	echo "gen-consts: $*" >&2
	exit 1
}
warn() { echo "gen-consts: warning: $*" >&2; }

# ---------------------------------------------------------------- targets
NATIVE_CC="$CC -D_GNU_SOURCE"
case $($CC -dumpmachine 2>/dev/null) in
x86_64*) FOREIGN_TRIPLE=aarch64-linux-gnu FOREIGN_ARCH=WARD_ARCH_AARCH64 ;;
aarch64*) FOREIGN_TRIPLE=x86_64-linux-gnu FOREIGN_ARCH=WARD_ARCH_X86_64 ;;
*) die "unsupported host compiler target: $($CC -dumpmachine)" ;;
esac
if [ -z "${FOREIGN_CC:-}" ]; then
	FOREIGN_CC=
	if command -v clang >/dev/null 2>&1 && [ -d "/usr/$FOREIGN_TRIPLE/include" ]; then
		# -nostdinc: the host's /usr/include must not leak into the foreign
		# evaluation (its asm/ directory is the host's).
		FOREIGN_CC="clang --target=$FOREIGN_TRIPLE -nostdinc -D_GNU_SOURCE \
-isystem $(clang -print-resource-dir)/include -isystem /usr/$FOREIGN_TRIPLE/include"
	fi
fi

# ---------------------------------------------------------------- the list
# spec: one line per header: HEADER<TAB>PREFIXES<TAB>EXCLUDES<TAB>KIND (no
# field is empty: the shell's read would merge two tabs; "-" excludes nothing)
awk '
	{ sub(/#.*/, "") }
	NF == 0 { next }
	{
		pre = ""; exc = "-"; kind = "plain"
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^@/) kind = substr($i, 2)
			else if ($i ~ /^!/) exc = exc " " substr($i, 2)
			else pre = pre " " $i
		}
		if (kind != "plain" && kind != "errno" && kind != "cap") {
			print "consts.list:" NR ": unknown kind @" kind > "/dev/stderr"; exit 1
		}
		if (pre == "") {
			print "consts.list:" NR ": no prefix for " $1 > "/dev/stderr"; exit 1
		}
		printf "%s\t%s\t%s\t%s\n", $1, pre, exc, kind
	}' "$LIST" >"$TMP/spec" || die "bad list $LIST"
[ -s "$TMP/spec" ] || die "empty list $LIST"

# ---------------------------------------------------------------- helpers
# includes FILE-OF-HEADERS: the #include lines of a translation unit.
includes() {
	while read -r h; do printf '#include <%s>\n' "$h"; done <"$1"
}

# discover CC DIR: the candidate names of every header of the list, as
# "NAME<TAB>HEADER<TAB>KIND<TAB>DEFINITION" lines in DIR/cand (DEFINITION is
# the macro's body, or "=" for an enumeration constant). Returns non-zero if a
# header does not preprocess.
discover() {
	d_cc=$1 d_dir=$2
	: >"$d_dir/cand"
	while IFS='	' read -r hdr pre exc kind; do
		printf '#include <%s>\n' "$hdr" >"$d_dir/h.c"
		# -dD: the preprocessed text with the header's own #define lines
		$d_cc -E -dD -P "$d_dir/h.c" >"$d_dir/pp" 2>"$d_dir/err" ||
			{ cat "$d_dir/err" >&2; return 1; }
		{
			# object-like macros only: a function-like one has "(" right
			# after its name
			sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\) \(.*\)$/\1	\2/p' "$d_dir/pp"
			# identifiers of the preprocessed text: the enumeration
			# constants among them survive the evaluation, the rest
			# (types, functions, tags) does not
			grep -v '^#' "$d_dir/pp" | tr -cs 'A-Za-z0-9_' '\n' | sort -u | sed 's/$/	=/'
		} | awk -F '\t' -v pre="$pre" -v exc="$exc" -v hdr="$hdr" -v kind="$kind" '
			BEGIN { np = split(pre, P, " "); ne = split(exc, X, " ") }
			seen[$1]++ { next }
			{
				ok = 0
				for (i = 1; i <= np; i++)
					if (index($1, P[i]) == 1) ok = 1
				for (i = 1; i <= ne; i++)
					if (index($1, X[i]) == 1) ok = 0
				if (ok) printf "%s\t%s\t%s\t%s\n", $1, hdr, kind, $2
			}' >>"$d_dir/cand"
	done <"$TMP/spec"
}

# evaluate CC HEADERS NAMES OUT: evaluates NAMES (one a line) in a translation
# unit that includes HEADERS; writes "NAME<TAB>VALUE" for every name that is
# an integer constant expression, VALUE as the compiler printed it (decimal,
# maybe negative). Names that fail are dropped: first by the line numbers of
# the compiler's errors, in a few rounds, then one by one.
evaluate() {
	e_cc=$1 e_hdrs=$2 e_names=$3 e_out=$4
	e_dir=$e_out.d
	mkdir -p "$e_dir"
	cp "$e_names" "$e_dir/names"
	e_ninc=$(wc -l <"$e_hdrs")
	e_round=0
	while :; do
		if [ ! -s "$e_dir/names" ]; then
			: >"$e_out"
			return 0
		fi
		{
			includes "$e_hdrs"
			echo 'const unsigned long long ward_v[] = {'
			sed 's/.*/(unsigned long long)((&) | 0ULL),/' "$e_dir/names"
			echo '};'
		} >"$e_dir/tu.c"
		if $e_cc -w -S -o "$e_dir/tu.s" "$e_dir/tu.c" 2>"$e_dir/err"; then
			break
		fi
		# Lines ninc+2 .. of tu.c hold the names.
		sed -n 's/^.*tu\.c:\([0-9][0-9]*\):.*$/\1/p' "$e_dir/err" | sort -un |
			awk -v base="$((e_ninc + 1))" '$1 > base { print $1 - base }' >"$e_dir/bad"
		e_round=$((e_round + 1))
		if [ -s "$e_dir/bad" ] && [ $e_round -le 8 ]; then
			awk 'NR == FNR { bad[$1] = 1; next } !(FNR in bad)' \
				"$e_dir/bad" "$e_dir/names" >"$e_dir/names.new"
			mv "$e_dir/names.new" "$e_dir/names"
			continue
		fi
		# No usable line numbers: try each name alone.
		: >"$e_dir/names.new"
		while read -r n; do
			{
				includes "$e_hdrs"
				printf 'const unsigned long long ward_v[] = { (unsigned long long)((%s) | 0ULL) };\n' "$n"
			} >"$e_dir/one.c"
			if $e_cc -w -S -o /dev/null "$e_dir/one.c" 2>/dev/null; then
				echo "$n" >>"$e_dir/names.new"
			fi
		done <"$e_dir/names"
		mv "$e_dir/names.new" "$e_dir/names"
		e_round=0
	done
	# The values follow the label ward_v: .quad (x86_64), .xword or .8byte
	# (aarch64) one each; .zero/.space N stand for N/8 zero values.
	awk '
		/^ward_v:/ { on = 1; next }
		!on { next }
		/^[A-Za-z_.$][A-Za-z0-9_.$]*:/ { exit }
		$1 == ".quad" || $1 == ".xword" || $1 == ".8byte" || $1 == ".dword" { print $2; next }
		$1 == ".zero" || $1 == ".space" { for (i = 0; i < $2 / 8; i++) print 0; next }
		$1 == ".size" || $1 == ".section" || $1 == ".text" || $1 == ".ident" { exit }
	' "$e_dir/tu.s" >"$e_dir/vals"
	[ "$(wc -l <"$e_dir/vals")" -eq "$(wc -l <"$e_dir/names")" ] ||
		die "could not read the values back from the assembly of $e_cc"
	grep -qv '^-\{0,1\}[0-9][0-9]*$' "$e_dir/vals" &&
		die "unexpected value in the assembly of $e_cc: $(grep -v '^-\{0,1\}[0-9][0-9]*$' "$e_dir/vals" | head -1)"
	paste "$e_dir/names" "$e_dir/vals" >"$e_out"
}

# build CC DIR: the evaluated names of one target in DIR/final, as
# "NAME<TAB>VALUE<TAB>KIND<TAB>ALIAS", sorted; clashes in DIR/clash. Returns
# non-zero if the target's headers are not usable.
build() {
	b_cc=$1 b_dir=$2
	mkdir -p "$b_dir"
	discover "$b_cc" "$b_dir" || return 1
	cut -f1 "$TMP/spec" >"$b_dir/hdrs"
	# Every header of the list must compile together with the others: the
	# native table is compiled as one translation unit.
	includes "$b_dir/hdrs" >"$b_dir/all.c"
	$b_cc -w -S -o /dev/null "$b_dir/all.c" 2>"$b_dir/err" ||
		{ cat "$b_dir/err" >&2; return 1; }

	# A name that headers define with different texts: evaluate it in each
	# of those headers alone; different values are a clash.
	: >"$b_dir/clash"
	cut -f1,4 "$b_dir/cand" | LC_ALL=C sort -u | cut -f1 | uniq -d >"$b_dir/multi"
	if [ -s "$b_dir/multi" ]; then
		while read -r n; do
			awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$b_dir/cand" | sort -u >"$b_dir/nh"
			: >"$b_dir/nv"
			while read -r h; do
				echo "$h" >"$b_dir/one.h"
				echo "$n" >"$b_dir/one.n"
				evaluate "$b_cc" "$b_dir/one.h" "$b_dir/one.n" "$b_dir/one.v"
				cut -f2 "$b_dir/one.v" | sed "s|^|<$h>: |" >>"$b_dir/nv"
			done <"$b_dir/nh"
			if [ "$(cut -d' ' -f2 "$b_dir/nv" | sort -u | wc -l)" -gt 1 ]; then
				printf '%s\t%s\n' "$n" "$(tr '\n' ' ' <"$b_dir/nv")" >>"$b_dir/clash"
			fi
		done <"$b_dir/multi"
	fi

	cut -f1 "$b_dir/cand" | LC_ALL=C sort -u >"$b_dir/names"
	if [ -s "$b_dir/clash" ]; then
		cut -f1 "$b_dir/clash" | LC_ALL=C sort -u >"$b_dir/clashnames"
		LC_ALL=C comm -23 "$b_dir/names" "$b_dir/clashnames" >"$b_dir/names.new"
		mv "$b_dir/names.new" "$b_dir/names"
	fi
	evaluate "$b_cc" "$b_dir/hdrs" "$b_dir/names" "$b_dir/vals"

	# kind: the most specific one any header gave; alias: the macro's body is
	# another candidate name (EWOULDBLOCK is EAGAIN), which reverse lookups
	# skip.
	awk -F '\t' '
		FILENAME == ARGV[1] {
			if (!($1 in kind) || kind[$1] == "plain") kind[$1] = $3
			if ($4 ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && $4 != $1) body[$1] = $4
			next
		}
		{
			alias = ($1 in body) && (body[$1] in kind)
			printf "%s\t%s\t%s\t%d\n", $1, $2, kind[$1], alias
		}
	' "$b_dir/cand" "$b_dir/vals" | LC_ALL=C sort -t '	' -k1,1 >"$b_dir/final"
}

# ---------------------------------------------------------------- evaluate
# The two targets are independent: the foreign one runs in the background.
if [ -n "$FOREIGN_CC" ]; then
	build "$FOREIGN_CC" "$TMP/foreign" 2>"$TMP/foreign.err" &
	foreign_pid=$!
fi
build "$NATIVE_CC" "$TMP/native" || die "the headers of $LIST do not compile natively"
[ -s "$TMP/native/final" ] || die "no constant evaluated natively"

FOREIGN_OK=0
if [ -n "$FOREIGN_CC" ]; then
	if wait "$foreign_pid"; then
		FOREIGN_OK=1
	else
		cat "$TMP/foreign.err" >&2
		warn "the $FOREIGN_TRIPLE headers do not compile; no constants for that target"
	fi
else
	warn "no compiler or headers for $FOREIGN_TRIPLE (Debian: libc6-dev-${FOREIGN_TRIPLE%%-*}-cross); no constants for that target"
fi
if [ $FOREIGN_OK != 1 ]; then
	mkdir -p "$TMP/foreign"
	: >"$TMP/foreign/final"
fi

# ---------------------------------------------------------------- emit
# emit_entries native|foreign FINAL: the table's lines, from
# "NAME<TAB>VALUE<TAB>KIND<TAB>ALIAS" lines.
emit_entries() {
	awk -F '\t' -v how="$1" '
		BEGIN {
			K["errno"] = "WARD_CONST_KIND_ERRNO"
			K["cap"] = "WARD_CONST_KIND_CAP"
			K["plain"] = "WARD_CONST_KIND_PLAIN"
		}
		{
			if (how == "native")
				v = "(uint64_t)(" $1 ")"
			else if ($2 ~ /^-/)
				v = "UINT64_C(0) - UINT64_C(" substr($2, 2) ")"
			else
				v = "UINT64_C(" $2 ")"
			printf "\t{ \"%s\", %s, %s, %s },\n", $1, v, K[$3], $4
		}' "$2"
}

emit_clashes() {
	[ -s "$1" ] || return 0
	while IFS='	' read -r n why; do
		printf '/* skipped %s: the headers disagree: %s*/\n' "$n" "$why"
	done <"$1"
}

cat <<EOF
/* Generated by tools/gen-consts.sh from tools/consts.list: do not edit.
 * The native table's values are the headers' own expressions; the foreign
 * ($FOREIGN_TRIPLE) table's values were computed by the C compiler for that
 * target and read back from its assembly. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
EOF
includes "$TMP/native/hdrs"
cat <<'EOF'
#include <stdint.h>

#include "consts.h"
#include "policy.h"

#if defined(__x86_64__)
#define WARD_NATIVE_ARCH WARD_ARCH_X86_64
#elif defined(__aarch64__)
#define WARD_NATIVE_ARCH WARD_ARCH_AARCH64
#else
#error "ward supports x86_64 and aarch64 hosts"
#endif

EOF
emit_clashes "$TMP/native/clash"
echo 'static const struct ward_const_entry native_consts[] = {'
emit_entries native "$TMP/native/final"
echo '};'
echo

[ $FOREIGN_OK = 1 ] && emit_clashes "$TMP/foreign/clash"
if [ -s "$TMP/foreign/final" ]; then
	echo 'static const struct ward_const_entry foreign_consts[] = {'
	emit_entries foreign "$TMP/foreign/final"
	echo '};'
	FOREIGN_COUNT="sizeof foreign_consts / sizeof foreign_consts[0]"
else
	printf '/* no constants for %s: its headers were not available */\n' "$FOREIGN_TRIPLE"
	echo 'static const struct ward_const_entry foreign_consts[1];'
	FOREIGN_COUNT=0
fi

cat <<EOF

const struct ward_const_table ward_const_tables[] = {
	{ WARD_NATIVE_ARCH, native_consts, sizeof native_consts / sizeof native_consts[0] },
	{ $FOREIGN_ARCH, foreign_consts, $FOREIGN_COUNT },
};
const size_t ward_const_ntables = sizeof ward_const_tables / sizeof ward_const_tables[0];
EOF
