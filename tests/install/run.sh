#!/bin/sh
# SPDX-License-Identifier: MIT
# The install suite: the conventions of a Unix tool, tested on an installed
# tree rather than the build tree.
#
# `make install` into a temporary DESTDIR with PREFIX=/usr/local (the normal
# build: a sanitizer tree build/x/san installs from build/x); the exact file
# list and modes, no setuid or setgid bit; the INSTALLED wardc, run from
# outside the source tree, finds the INSTALLED stdlib (and nothing else),
# checks every installed policy, compiles and explains the python profile,
# and still works when the whole tree is moved; examples/ward_client.py,
# with the installed programs on PATH, finds the installed python profile
# by name and runs its self-test; --help, --version and the
# usage exit codes of both binaries; the man pages render without a warning,
# carry every option of --help and of the option parsers, every command,
# keyword and limit, and their examples pass `wardc check'; the bash
# completion, sourced from its installed place, completes commands,
# options, values, files and slot names; another PREFIX lands in its place;
# `make uninstall` removes exactly what install put.
# Also: the README's set-up section is the two commands it promises, and
# make asks pkg-config nothing while it parses the Makefile.
# Lists of options, commands and keywords are split into words on purpose:
# shellcheck disable=SC2046,SC2086
set -u
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
here=$top/tests/install
# What is installed is the normal build, beside a sanitizer tree.
ibuild=${BUILD%/san}
version=$(sed -n 's/^VERSION := *//p' Makefile)
prefix=/usr/local

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/dest
root=$dest$prefix
fails=0
pass() { echo "PASS install/$1"; }
fail() {
	echo "FAIL install/$1: $2"
	fails=$((fails + 1))
}
# check NAME CMD...: PASS if CMD succeeds, else FAIL with its output
check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(printf '%s' "$out" | head -5 | tr '\n' ' ')"
	fi
}

# A make of our own: not the jobserver or the variables of a calling make.
imake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN \
		make --no-print-directory -C "$top" BUILD="$ibuild" SAN=0 "$@"
}

# ------------------------------------------------------------------ install
if ! imake -s -j"$(nproc)" install DESTDIR="$dest" PREFIX="$prefix" >"$tmp/make.log" 2>&1; then
	fail make-install "$(tail -5 "$tmp/make.log" | tr '\n' ' ')"
	exit 1
fi
pass make-install

# The exact list of what install puts, from the source tree.
{
	echo "bin/ward"
	echo "bin/ward-attack"
	echo "bin/wardc"
	for f in atk brk mkblob probe; do echo "libexec/ward/attacks/bin/$f"; done
	for f in tests/attacks/lib/*.sh tests/attacks/lib/icmpcount.py tests/net/testhost.py \
		tests/net/dnsserver.py tests/net/tlsprobe.py tests/net/dnsflood.py; do
		echo "libexec/ward/attacks/lib/${f##*/}"
	done
	for f in tests/attacks/*/*.sh; do
		case $f in tests/attacks/lib/*) ;; *) echo "libexec/ward/attacks/${f#tests/attacks/}" ;; esac
	done
	for f in stdlib-policies/*.ward stdlib-policies/*/*.ward stdlib-policies/*/*/*.ward; do
		[ -f "$f" ] && echo "share/ward/stdlib/${f#stdlib-policies/}"
	done
	for f in man/*.1; do echo "share/man/man1/${f#man/}"; done
	for f in man/*.5; do echo "share/man/man5/${f#man/}"; done
	echo "share/bash-completion/completions/ward"
	echo "share/bash-completion/completions/wardc"
	echo "share/ward/python_driver.py"
	for f in docs/*.md; do echo "share/doc/ward/${f#docs/}"; done
} | LC_ALL=C sort >"$tmp/want"
(cd "$root" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/got"
if cmp -s "$tmp/want" "$tmp/got"; then
	pass files
else
	fail files "$(diff "$tmp/want" "$tmp/got" | grep '^[<>]' | head -5 | tr '\n' ' ')"
fi
# Nothing is installed outside PREFIX.
outside=$(cd "$dest" && find . ! -type d ! -path "./${prefix#/}/*" | head -3)
if [ -z "$outside" ]; then pass only-under-prefix; else fail only-under-prefix "$outside"; fi

# Modes: programs 0755, everything else 0644, directories 0755; no setuid
# or setgid bit anywhere.
bad=$(cd "$root" && find . \( -type f \( -path './bin/*' -o -path './libexec/ward/attacks/bin/*' \) ! -perm 0755 \) -o \
	\( -type f ! -path './bin/*' ! -path './libexec/ward/attacks/bin/*' ! -perm 0644 \) -o \( -type d ! -perm 0755 \) | head -3)
if [ -z "$bad" ]; then pass modes; else fail modes "$bad"; fi
suid=$(find "$dest" -perm /6000 | head -3)
if [ -z "$suid" ]; then pass no-setuid; else fail no-setuid "$suid"; fi
link=$(readlink "$root/share/bash-completion/completions/ward")
if [ "$link" = wardc ]; then pass completion-link; else fail completion-link "ward -> '$link'"; fi
# The normal build, not the sanitizer's.
if grep -q __asan_init "$root/bin/wardc" "$root/bin/ward"; then
	fail not-sanitized "an installed binary is built with ASan"
else
	pass not-sanitized
fi

# -------------------------------------------------- the installed programs
# Run from a directory outside the source tree, with no WARD_PATH: the only
# stdlib wardc can find is the installed one.
work=$tmp/work
mkdir -p "$work"
unset WARD_PATH
wardc=$root/bin/wardc
ward=$root/bin/ward
stdlib=$root/share/ward/stdlib
real=$(cd "$stdlib" && pwd -P)
in_work() { (cd "$work" && "$@"); }

# (with the constants a profile leaves to its user set, as its header does)
. "$top/tests/lib/stdlib_defines.sh"
n=0
for f in "$stdlib"/*.ward "$stdlib"/*/*.ward; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	check "stdlib/check/${f#"$stdlib"/}" in_work "$wardc" check -Werror $(stdlib_defines "$f") "$f"
done
[ "$n" -gt 0 ] || fail stdlib/check "no installed policy"

if in_work "$wardc" compile "$stdlib/python.ward" -o "$tmp/python.wardb" 2>"$tmp/err"; then
	pass stdlib/compile-python
else
	fail stdlib/compile-python "$(head -3 "$tmp/err" | tr '\n' ' ')"
fi
if out=$(in_work "$wardc" explain "$tmp/python.wardb" 2>&1) &&
	printf '%s\n' "$out" | grep -q '^policy python ' &&
	printf '%s\n' "$out" | grep -q '/input  *slot input'; then
	pass stdlib/explain-python
else
	fail stdlib/explain-python "$(printf '%s' "$out" | head -3 | tr '\n' ' ')"
fi

# docs/agents.md's client, as a user runs it once ward is installed: the
# installed wardc and ward on PATH, from a directory outside the tree, the
# profile given by name. It must compile the INSTALLED python.ward (found
# where wardc finds its stdlib) and solve its task. (Root: the profile's
# cgroup limits.)
if [ "$(id -u)" = 0 ]; then
	if in_work env -u WARD_PATH PATH="$root/bin:/usr/bin:/bin" python3 "$top/examples/ward_client.py" \
		--self-test --profile python >"$tmp/client.json" 2>"$tmp/err" &&
		jq -e --arg p "$real/python.ward" --arg d "$(sha256sum "$tmp/python.wardb" | cut -c1-64)" \
			'.profile == $p and .profile_digest == $d and (.attempts | length) == 3 and
			.attempts[-1].task.ok == true' "$tmp/client.json" >/dev/null; then
		pass client/self-test-profile-by-name
	else
		fail client/self-test-profile-by-name "$(jq -c '{profile, profile_digest}' "$tmp/client.json" 2>/dev/null) $(tail -3 "$tmp/err" | tr '\n' ' ')"
	fi
else
	echo "SKIP install/client/self-test-profile-by-name: needs root (cgroup limits)"
fi

# ward-attack as installed, from a directory outside the tree: its
# catalogue lists every attack of the source tree's; as root, one attack
# per boundary against the installed python profile (compiled above), in
# both modes, with a JSON scorecard and exit 0.
if in_work "$root/bin/ward-attack" --list >"$tmp/list" 2>&1 &&
	[ "$(grep -c '^[a-z]*/' "$tmp/list")" = "$(ls tests/attacks/*/*.sh | grep -vc /lib/)" ]; then
	pass ward-attack/list
else
	fail ward-attack/list "$(head -3 "$tmp/list" | tr '\n' ' ')"
fi
if [ "$(id -u)" = 0 ]; then
	# (rootless mode runs the installed ward as uid 65534)
	chmod 755 "$tmp"
	rm -f "$tmp/card.json"
	if in_work env -u BUILD PATH=/usr/bin:/bin:/usr/sbin:/sbin "$root/bin/ward-attack" \
		--attack files/env-secret --attack identity/mount --attack net/metadata \
		--json "$tmp/card.json" "$tmp/python.wardb" >"$tmp/attack.out" 2>&1 &&
		grep -q "^# source: $stdlib/python.ward" "$tmp/attack.out" &&
		jq -e '.modes == ["root", "rootless"] and (.attacks | length) == 6 and
			all(.attacks[]; .outcome == "held")' "$tmp/card.json" >/dev/null; then
		pass ward-attack/installed-python
	else
		fail ward-attack/installed-python "$(grep -E '^(FAIL|SKIP)|passed' "$tmp/attack.out" | head -4 | tr '\n' ' ')"
	fi
else
	echo "SKIP install/ward-attack/installed-python: needs root (namespaces, cgroups)"
fi

# A policy of the user's, in a temporary directory, that uses the stdlib.
cat >"$work/mine.ward" <<'EOF'
ward 1;
policy mine;
use base;
use groups;
limits { memory 64M; pids 8; wall 1s; output 1M; }
syscalls default errno ENOSYS { allow @default, @basic-io; }
EOF
check stdlib/use-from-elsewhere in_work "$wardc" compile mine.ward -o mine.wardb

# It is the installed stdlib that is searched, and only it.
printf 'ward 1;\nuse nosuch;\n' >"$work/nosuch.ward"
if out=$(in_work "$wardc" check nosuch.ward 2>&1); then
	fail stdlib/searched "a missing fragment was found"
elif printf '%s\n' "$out" | grep -qx "  *= help: searched: $real"; then
	pass stdlib/searched
else
	fail stdlib/searched "$(printf '%s' "$out" | grep searched)"
fi

# The installed tree works as a whole wherever it is moved; without its
# stdlib, `use base` fails (no other copy is used behind its back).
cp -a "$root" "$tmp/moved"
if in_work "$tmp/moved/bin/wardc" check mine.ward 2>"$tmp/err"; then
	pass relocated
else
	fail relocated "$(head -3 "$tmp/err" | tr '\n' ' ')"
fi
mv "$tmp/moved/share/ward/stdlib" "$tmp/moved/share/ward/stdlib.away"
if out=$(in_work "$tmp/moved/bin/wardc" check mine.ward 2>&1); then
	fail relocated-without-stdlib "use base still resolved"
elif printf '%s\n' "$out" | grep -qF "cannot find \`base.ward\`"; then
	pass relocated-without-stdlib
else
	fail relocated-without-stdlib "$(printf '%s' "$out" | head -2 | tr '\n' ' ')"
fi

# ------------------------------------------------- --help, --version, usage
# expect NAME STATUS PATTERN STREAM CMD...: CMD exits STATUS and its STREAM
# (out or err) has a line matching PATTERN (grep -E).
expect() {
	name=$1 want=$2 pat=$3 stream=$4
	shift 4
	in_work "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, not $want: $(head -2 "$tmp/err" | tr '\n' ' ')"
	elif ! grep -Eq -- "$pat" "$tmp/$stream"; then
		fail "$name" "no \`$pat\` on std$stream: $(head -2 "$tmp/$stream" | tr '\n' ' ')"
	else
		pass "$name"
	fi
}
expect wardc/--help 0 '^usage: wardc COMMAND' out "$wardc" --help
expect wardc/-h 0 '^usage: wardc COMMAND' out "$wardc" -h
expect wardc/--version 0 "^wardc $version( |\$)" out "$wardc" --version
expect wardc/no-arguments 2 '^usage: wardc' err "$wardc"
expect wardc/unknown-option 2 "unknown (option|command)" err "$wardc" --bogus
expect wardc/unknown-command-option 2 "unknown option" err "$wardc" check --bogus
expect wardc/unknown-command 2 "unknown command" err "$wardc" frobnicate
expect wardc/bad-target 2 "unknown target" err "$wardc" check --target=mips x.ward
# Each command takes its own options (compiler/cli/commands.c) and refuses
# another's, naming both.
expect wardc/fmt-refuses-bpf 2 "^wardc fmt: unknown option \`--bpf\`" err \
	"$wardc" fmt --bpf --threshold 5 --retries x "$stdlib/base.ward"
expect wardc/check-refuses-o 2 "^wardc check: unknown option \`-o\`" err \
	"$wardc" check -o x "$stdlib/base.ward"
expect wardc/fmt--help-own 0 '^  --check ' out "$wardc" fmt --help
grep -o '{"[a-z]*", cmd_[a-z]*,' compiler/cli/commands.c | sed 's/{"\([a-z]*\)".*/\1/' |
	sort -u >"$tmp/commands"
while read -r cmd; do
	expect "wardc/$cmd--help" 0 '^usage: wardc' out "$wardc" "$cmd" --help
done <"$tmp/commands"
expect ward/--help 0 '^Usage: ward ' out "$ward" --help
expect ward/-h 0 '^Usage: ward ' out "$ward" -h
expect ward/--version 0 "^ward $version\$" out "$ward" --version
expect ward/-V 0 "^ward $version\$" out "$ward" -V
expect ward/no-arguments 125 'no POLICY' err "$ward"
expect ward/unknown-option 125 'unknown option' err "$ward" --bogus
expect ward/no-dashdash 125 'expected --' err "$ward" x.wardb /bin/true

# ---------------------------------------------------------------- man pages
man1=$root/share/man/man1
man5=$root/share/man/man5
for page in "$man1/wardc.1" "$man1/ward.1" "$man1/ward-attack.1" "$man5/ward.policy.5"; do
	name=$(basename "$page")
	if LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" >"$tmp/groff" 2>&1 && [ ! -s "$tmp/groff" ]; then
		pass "man/groff-ww/$name"
	else
		fail "man/groff-ww/$name" "$(head -3 "$tmp/groff" | tr '\n' ' ')"
	fi
	if command -v man >/dev/null; then
		if MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" >"$tmp/man" 2>"$tmp/err" &&
			[ ! -s "$tmp/err" ] && grep -q '^NAME' "$tmp/man"; then
			pass "man/man-l/$name"
		else
			fail "man/man-l/$name" "$(head -3 "$tmp/err" | tr '\n' ' ')"
		fi
	fi
	left=$(grep -o '@[A-Z]*@' "$page" | head -1)
	if [ -z "$left" ] && grep -q "^\.TH .*\"ward $version\"" "$page"; then
		pass "man/substituted/$name"
	else
		fail "man/substituted/$name" "placeholder $left left, or no version $version"
	fi
	LC_ALL=C.UTF-8 groff -man -Tutf8 -P-c "$page" >"$tmp/$name.txt" 2>/dev/null
done

# The man page checks, written to one list and run by one process.
checks=$tmp/checks
T=$(printf '\t')
mc() { # NAME MODE FILE ITEMS...
	name=$1 mode=$2 file=$3
	shift 3
	printf '%s\n' "$name$T$mode$T$file$T$*" >>"$checks"
}
: >"$checks"
# The sections a reader looks for.
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS EXIT_STATUS ENVIRONMENT FILES EXAMPLES SEE_ALSO; do
	mc "man/wardc.1/section/$s" section "$tmp/wardc.1.txt" "$s"
done
for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS ENVIRONMENT FILES EXAMPLES SEE_ALSO; do
	mc "man/ward.1/section/$s" section "$tmp/ward.1.txt" "$s"
done
for s in NAME SYNOPSIS DESCRIPTION SECTIONS FILES SEE_ALSO; do
	mc "man/ward.policy.5/section/$s" section "$tmp/ward.policy.5.txt" "$s"
done
mc man/wardc.1/exit-status section "$tmp/wardc.1.txt" EXIT_STATUS \
	$(sed -n 's/.*WARDC_OK = \([0-9]*\), WARDC_POLICY_ERROR = \([0-9]*\), WARDC_USAGE = \([0-9]*\).*/\1 \2 \3/p' compiler/codegen/driver.h)
mc man/ward.1/exit-status section "$tmp/ward.1.txt" EXIT_STATUS \
	$(sed -n 's/^#define WARD_EXIT_[A-Z_]* *\([0-9]*\).*/\1/p' launcher/core/exitcode.h)
mc man/wardc.1/files section "$tmp/wardc.1.txt" FILES \
	"$prefix/share/ward/stdlib" "$prefix/share/doc/ward"
mc man/wardc.1/environment section "$tmp/wardc.1.txt" ENVIRONMENT WARD_PATH

# Every option that --help shows or a parser accepts is in the man page.
help_opts() { # the options a --help text mentions
	grep -oE '(^|[ ,(\[])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ ,(\[]//' | sort -u
}
{
	in_work "$wardc" --help | help_opts
	while read -r cmd; do in_work "$wardc" "$cmd" --help | help_opts; done <"$tmp/commands"
	grep -ho '"-[-A-Za-z][-A-Za-z]*=\{0,1\}"' compiler/cli/wardc.c compiler/cli/commands.c |
		tr -d '"' | sed 's/=$//' | grep -vx -- '--'
} | sort -u >"$tmp/wardc-opts"
mc man/wardc.1/every-option options "$man1/wardc.1" $(cat "$tmp/wardc-opts")
mc man/wardc.1/every-command commands "$man1/wardc.1" $(cat "$tmp/commands")
{
	in_work "$ward" --help | help_opts
	sed -n 's/^[[:space:]]*{"\([a-z-]*\)", [a-z_]*_argument.*/--\1/p' launcher/core/cli.c
	sed -n 's/.*getopt_long([^"]*"[+:]*\([A-Za-z]*\)".*/\1/p' launcher/core/cli.c | fold -w1 | sed 's/^/-/'
} | sort -u >"$tmp/ward-opts"
mc man/ward.1/every-option options "$man1/ward.1" $(cat "$tmp/ward-opts")
# (the lists are not empty: a broken extraction would pass vacuously)
if [ "$(wc -l <"$tmp/wardc-opts")" -ge 15 ] && [ "$(wc -l <"$tmp/ward-opts")" -ge 10 ] &&
	[ "$(wc -l <"$tmp/commands")" -ge 10 ]; then
	pass man/option-lists
else
	fail man/option-lists "too few options or commands found: the extraction broke"
fi

# ward.policy(5) names every keyword and every limit, in bold.
kws=$(sed -n 's/^"\([a-z]*\)"[[:space:]]*{ return T_.*/\1/p' lang/lexer.l | tr '\n' ' ')
lims=$(sed -n 's/^[[:space:]]*{"\([a-z]*\)", WARD_LIM_.*/\1/p' compiler/check/sema_limits.c | tr '\n' ' ')
if [ "$(echo $kws | wc -w)" -ge 40 ] && [ "$(echo $lims | wc -w)" -ge 15 ]; then
	pass man/keyword-lists
else
	fail man/keyword-lists "too few keywords or limits found: the extraction broke"
fi
mc man/ward.policy.5/keywords bold "$tmp/ward.policy.5.txt" $kws
mc man/ward.policy.5/limits bold "$tmp/ward.policy.5.txt" $lims

python3 "$here/mancheck.py" batch <"$checks" >"$tmp/mancheck.out" 2>&1
cat "$tmp/mancheck.out"
fails=$((fails + $(grep -c '^FAIL' "$tmp/mancheck.out")))
if ! grep -q '^PASS' "$tmp/mancheck.out" && ! grep -q '^FAIL' "$tmp/mancheck.out"; then
	fail man/mancheck "no result: $(head -3 "$tmp/mancheck.out" | tr '\n' ' ')"
fi

# The examples of ward.policy(5) mean what they say.
mkdir -p "$tmp/examples"
nex=$(python3 "$here/mancheck.py" examples "$man5/ward.policy.5" "$tmp/examples")
if [ "${nex:-0}" -ge 2 ]; then pass man/examples-found; else fail man/examples-found "$nex"; fi
for f in "$tmp/examples"/*.ward; do
	[ -f "$f" ] || continue
	check "man/ward.policy.5/example/$(basename "$f" .ward)" in_work "$wardc" check -Werror "$f"
done

# ----------------------------------------------------------- bash completion
# complete NAME LINE WANT...: the completions of LINE (cursor at its end or
# at `_|_'), sorted, are exactly WANT (and `nospace' when asked for).
comp=$root/share/bash-completion/completions/ward
cdir=$tmp/comp
mkdir -p "$cdir/sub"
: >"$cdir/a.ward"
: >"$cdir/b.wardb"
: >"$cdir/c.json"
: >"$cdir/d.txt"
cp "$tmp/python.wardb" "$cdir/py.wardb"
complete_ok() {
	name=$1 line=$2
	shift 2
	want=$(printf '%s\n' "$@")
	got=$(cd "$cdir" && PATH="$root/bin:$PATH" bash "$here/complete.bash" "$comp" "$line" 2>&1)
	if [ "$got" = "$want" ]; then
		pass "completion/$name"
	else
		fail "completion/$name" "'$line' gave [$(printf %s "$got" | tr '\n' ' ')], not [$*]"
	fi
}
complete_ok commands 'wardc ex' explain export
complete_ok all-commands 'wardc ' args check compile constants diff explain export fmt import keygen lint replay sign suggest
complete_ok top-options 'wardc --' --help --version
complete_ok option-prefix 'wardc check --tar' --target= nospace
complete_ok target-values 'wardc compile x.ward --target ' aarch64 x86_64
complete_ok target-equals 'wardc compile x.ward --target=x' x86_64
complete_ok color-values 'wardc check --color=' always auto never
complete_ok diag-values 'wardc check -fdiagnostics-format=' json text
complete_ok explain-options 'wardc explain --' --bpf --color= --format= --help --queue= --retries= --target= nospace
complete_ok fmt-options 'wardc fmt -' --check --color= --help --target= -D -I -Werror -fdiagnostics-format= -h -w nospace
complete_ok explain-formats 'wardc explain --format ' json text yaml
complete_ok lint-formats 'wardc lint --format=' json sarif text
complete_ok list-rules-formats 'wardc lint --list-rules --format ' json markdown text
complete_ok export-formats 'wardc export --format ' k8s oci
complete_ok check-files 'wardc check ' a.ward sub
complete_ok lint-files 'wardc lint --threshold 1 ' a.ward sub
complete_ok explain-files 'wardc explain ' a.ward b.wardb py.wardb sub
complete_ok diff-files 'wardc diff a.ward ' a.ward b.wardb py.wardb sub
complete_ok import-files 'wardc import ' c.json sub
complete_ok include-dir 'wardc check -I ' sub
complete_ok include-dir-attached 'wardc check -Is' -Isub
complete_ok output-file 'wardc compile a.ward -o d' d.txt
complete_ok args-syscalls 'wardc args openat' openat openat2
complete_ok ward-options 'ward --s' --slot= --stderr= --stdin= --stdout= nospace
complete_ok ward-all-options 'ward -' -- --cgroup-base= --expect-digest= --export-dir= --help \
	--host-gid= --host-uid= --input= --keep-workspace --manifest= --max-sandboxes= --queue-dir= \
	--queue-timeout= --record= --replace --report= --slot= --stderr= \
	--stdin= --stdout= --trusted-key= --upstream-proxy= --verbose --version --workspace-base= -V -h -v nospace
complete_ok stdout-file 'ward --stdout d' d.txt
complete_ok report-equals-file 'ward --report=d' d.txt
cgmnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$cgmnt" ]; then
	complete_ok cgroup-base 'ward --cgroup-base ' \
		$(find "$cgmnt" -mindepth 1 -maxdepth 1 -type d -printf '/%f/\n' | LC_ALL=C sort) nospace
fi
complete_ok ward-short 'ward -V' -V
complete_ok ward-policy 'ward ' b.wardb py.wardb sub
complete_ok ward-policy-after-options 'ward -v --stdout d.txt ' b.wardb py.wardb sub
complete_ok ward-dashdash-after-options 'ward -v --slot=input=x --stdin - py.wardb ' --
complete_ok ward-dashdash 'ward py.wardb ' --
complete_ok ward-program 'ward py.wardb -- tru' true truncate
complete_ok slot-names 'ward --slot _|_ py.wardb -- /bin/true' input= output= nospace
complete_ok slot-name-prefix 'ward --slot o_|_ py.wardb -- /bin/true' output= nospace
complete_ok slot-equals-form 'ward --slot=i_|_ py.wardb -- /bin/true' input= nospace
complete_ok slot-given-once 'ward --slot input=x --slot _|_ py.wardb' output= nospace
complete_ok slot-path 'ward --slot input=s_|_ py.wardb' sub
complete_ok slot-no-policy 'ward --slot '
complete_ok expect-digest 'ward --expect-digest _|_ py.wardb' \
	"$(sha256sum "$cdir/py.wardb" | cut -d' ' -f1)"
complete_ok stdin 'ward --stdin -' -

# ------------------------------------------------------------ another PREFIX
# A second install with PREFIX=/opt/ward lands there, and its man pages say
# so; uninstall leaves a file of the user's (and its directory) alone.
dest2=$tmp/dest2
if imake -s install DESTDIR="$dest2" PREFIX=/opt/ward >"$tmp/make2.log" 2>&1 &&
	[ -x "$dest2/opt/ward/bin/wardc" ] &&
	grep -q '/opt/ward/share/ward/stdlib' "$dest2/opt/ward/share/man/man1/wardc.1" &&
	! grep -q '/usr/local' "$dest2/opt/ward/share/man/man1/wardc.1"; then
	pass prefix
else
	fail prefix "$(tail -3 "$tmp/make2.log" | tr '\n' ' ')"
fi
echo 'ward 1;' >"$dest2/opt/ward/share/ward/stdlib/mine.ward"
imake -s uninstall DESTDIR="$dest2" PREFIX=/opt/ward >"$tmp/make2.log" 2>&1
left=$(cd "$dest2" && find . ! -type d | sed 's|^\./||')
if [ "$left" = opt/ward/share/ward/stdlib/mine.ward ]; then
	pass uninstall-keeps-user-files
else
	fail uninstall-keeps-user-files "left: $(printf %s "$left" | tr '\n' ' ')"
fi
# The build tree's pages go back to the default PREFIX.
imake -s man PREFIX="$prefix" >/dev/null 2>&1

# ------------------------------------------------ the README's set-up
# Exactly two commands (issue 13): the section's command lines (indented
# four spaces) are `make deps demo` and `make deps check`, and `make`, the
# one prerequisite, is named with how to get it.
setup=$(sed -n '/^## Set up on a fresh Debian machine$/,/^## /p' README.md)
cmds=$(printf '%s\n' "$setup" | sed -n 's/^    \([^ ].*\)$/\1/p' | tr '\n' ';')
if [ "$cmds" = 'make deps demo;make deps check;' ] &&
	printf '%s\n' "$setup" | grep -q 'apt-get install make'; then
	pass readme-setup-two-commands
else
	fail readme-setup-two-commands "the set-up section's commands: [$cmds]"
fi

# ------------------------------------------------ what make asks at parse
# `make deps demo` parses the Makefile before deps has installed the
# packages pkg-config reads (tests/fresh, issue 13): a value taken from the
# installed system at parse time is empty, and the link fails. With a
# PKG_CONFIG that logs its calls, `make -n deps` (the parse, and deps's
# recipe) never calls it; the control, `make -n all` into an empty build
# tree, does (from the recipes), or the log would prove nothing.
printf '#!/bin/sh\necho "$*" >>"%s"\nexec pkg-config "$@"\n' "$tmp/pc.log" >"$tmp/pc"
chmod +x "$tmp/pc"
: >"$tmp/pc.log"
imake -n deps PKG_CONFIG="$tmp/pc" >/dev/null 2>"$tmp/pc.err"
if [ -s "$tmp/pc.log" ]; then
	fail make-parse-asks-no-pkg-config "make -n deps ran pkg-config: $(head -3 "$tmp/pc.log" | tr '\n' ' ')"
else
	imake -n all PKG_CONFIG="$tmp/pc" BUILD="$tmp/nobuild" >"$tmp/pc.out" 2>&1
	if grep -q -- '--libs' "$tmp/pc.log" && grep -q -- '-lseccomp' "$tmp/pc.out"; then
		pass "make-parse-asks-no-pkg-config (the recipes of make all ask it $(wc -l <"$tmp/pc.log") times)"
	else
		fail make-parse-asks-no-pkg-config "the control: make -n all did not ask pkg-config for the link flags: $(head -c 200 "$tmp/pc.log")"
	fi
fi

# ---------------------------------------------------------------- uninstall
if imake -s uninstall DESTDIR="$dest" PREFIX="$prefix" >"$tmp/make.log" 2>&1; then
	pass make-uninstall
else
	fail make-uninstall "$(tail -3 "$tmp/make.log" | tr '\n' ' ')"
fi
left=$(cd "$dest" && find . ! -type d | head -5)
if [ -z "$left" ]; then pass uninstall-removes-all; else fail uninstall-removes-all "left: $(printf %s "$left" | tr '\n' ' ')"; fi
if [ ! -e "$root/share/ward" ] && [ ! -e "$root/share/doc/ward" ]; then
	pass uninstall-removes-dirs
else
	fail uninstall-removes-dirs "share/ward or share/doc/ward is left"
fi

[ "$fails" -eq 0 ]
