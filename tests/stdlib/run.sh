#!/bin/sh
# The stdlib suite: every fragment and profile checks clean with -Werror on
# both targets; every profile compiles; compiling twice gives the same bytes;
# `wardc fmt` output compiles to the same blob as the original (a formatted
# policy means exactly what the original meant).
set -u
WARDC=${WARDC:-build/wardc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
pass() { echo "PASS stdlib/$1"; }
fail() { echo "FAIL stdlib/$1: $2"; fails=$((fails + 1)); }

# The constants a profile leaves to the user (wardc compile -D).
. tests/lib/stdlib_defines.sh
defines() { stdlib_defines "$1"; }

for src in stdlib-policies/*.ward stdlib-policies/*/*.ward; do
	[ -f "$src" ] || continue
	name=${src#stdlib-policies/}
	D=$(defines "$name")
	for target in x86_64 aarch64; do
		# shellcheck disable=SC2086
		if out=$($WARDC check -Werror --target "$target" $D "$src" 2>&1); then
			pass "check/$target/$name"
		else
			fail "check/$target/$name" "$(printf '%s' "$out" | head -5)"
		fi
	done
	if $WARDC fmt --check "$src" >/dev/null 2>&1; then
		pass "canonical/$name"
	else
		fail "canonical/$name" "not in wardc fmt's form (run wardc fmt -w)"
	fi
	grep -q '^policy ' "$src" || continue
	base=$(basename "$src" .ward)
	# shellcheck disable=SC2086
	if ! $WARDC compile $D "$src" -o "$tmp/$base.1" 2>"$tmp/err" ||
		! $WARDC compile $D "$src" -o "$tmp/$base.2" 2>>"$tmp/err"; then
		fail "compile/$name" "$(head -5 "$tmp/err")"
		continue
	fi
	if cmp -s "$tmp/$base.1" "$tmp/$base.2"; then
		pass "deterministic/$name"
	else
		fail "deterministic/$name" "two compiles differ"
	fi
	# Issue 24: every profile sets `grace` and an identity, and `wardc
	# explain` shows both timers and the backstop; a profile with a
	# writable slot has an export section (or says in a W410 suppression,
	# with its reason, why what it writes is no file to check by type:
	# pip-install's installed packages); the interpreters' profiles
	# pass stdout and stderr in text mode.
	$WARDC explain "$tmp/$base.1" >"$tmp/explain" 2>&1
	bad=
	grep -qE '^    grace [0-9]' "$src" || bad="$bad no grace;"
	grep -q '^identity {' "$src" || bad="$bad no identity section;"
	grep -qE '^  timers    SIGTERM to the target at .* \(wall\), SIGKILL at .* \(wall \+ grace\)$' "$tmp/explain" ||
		bad="$bad explain shows no two timers;"
	grep -qE '^  backstop  init ends the sandbox at .*, even with the supervisor stopped$' "$tmp/explain" ||
		bad="$bad explain shows no backstop;"
	if grep -qE '^ +[0-9]+  [^ ]+ +slot [^ ]+ .*\brw,' "$tmp/explain" &&
		grep -q '^  (none: nothing is exported)$' "$tmp/explain" &&
		! grep -qE '^ *# lint: allow W410 -- .{10,}' "$src"; then
		bad="$bad a writable slot and no export section;"
	fi
	case $base in python | node | shell)
		grep -q '^  stdout-mode text$' "$tmp/explain" && grep -q '^  stderr-mode text$' "$tmp/explain" ||
			bad="$bad stdout or stderr not in text mode;"
		;;
	esac
	if [ -z "$bad" ]; then
		pass "timers-export-identity/$name"
	else
		fail "timers-export-identity/$name" "$bad"
	fi
	# The formatted source, next to the original so that `use` and
	# `include` resolve the same way.
	fmtsrc="stdlib-policies/.fmt-$base.ward"
	if $WARDC fmt "$src" >"$tmp/fmt.ward" 2>"$tmp/err"; then
		cp "$tmp/fmt.ward" "$fmtsrc"
		# shellcheck disable=SC2086
		if $WARDC compile $D "$fmtsrc" -o "$tmp/$base.fmt" 2>"$tmp/err" &&
			cmp -s "$tmp/$base.1" "$tmp/$base.fmt"; then
			pass "fmt-same-blob/$name"
		else
			fail "fmt-same-blob/$name" "the formatted policy compiles differently"
		fi
		rm -f "$fmtsrc"
	else
		fail "fmt/$name" "$(head -3 "$tmp/err")"
	fi
done

# pip-install names no index of its own: without the constants it does not
# compile, and says how to set them; with them, the index and its file host
# are its only names (explain), and two indexes make two different blobs
# (the constants are in the source digest).
pip=stdlib-policies/pip-install.ward
out=$($WARDC compile "$pip" -o "$tmp/pip.none" 2>&1)
rc=$?
if [ "$rc" = 1 ] && [ ! -e "$tmp/pip.none" ] &&
	printf '%s' "$out" | grep -q "constant \`pip_index\` is not defined" &&
	printf '%s' "$out" | grep -q "wardc compile -D pip_files="; then
	pass pip-install/needs-the-index
else
	fail pip-install/needs-the-index "rc=$rc $(printf '%s' "$out" | head -3)"
fi
# shellcheck disable=SC2046
if $WARDC compile $(defines pip-install.ward) "$pip" -o "$tmp/pip.pypi" 2>"$tmp/err" &&
	$WARDC compile -D pip_index=index.example -D 'pip_files=*.files.example' \
		"$pip" -o "$tmp/pip.mine" 2>>"$tmp/err" &&
	out=$($WARDC explain "$tmp/pip.mine") &&
	[ "$(printf '%s\n' "$out" | grep -c 'tcp name ')" = 2 ] &&
	printf '%s' "$out" | grep -q 'tcp name index.example port 443' &&
	printf '%s' "$out" | grep -q 'tcp name \*.files.example port 443' &&
	! cmp -s "$tmp/pip.pypi" "$tmp/pip.mine" &&
	[ "$($WARDC explain "$tmp/pip.pypi" | grep source)" != "$(printf '%s\n' "$out" | grep source)" ]; then
	pass pip-install/names-the-index-it-is-given
else
	fail pip-install/names-the-index-it-is-given "$(head -3 "$tmp/err") $(printf '%s' "$out" | grep 'name ')"
fi

# `wardc diff` shows what an export rule lets out: a profile against itself
# is equal (exit 0, nothing printed); with zip and *.zip added to its
# export, exactly those two widenings (exit 1).
py=stdlib-policies/python.ward
sed -e 's/names "\*\.csv",/names "*.zip", "*.csv",/' -e 's/types text, png;/types text, png, zip;/' \
	-e 's/on-violation refuse;/on-violation skip;/' "$py" >"$tmp/wider.ward"
if out=$($WARDC diff "$py" "$py" 2>&1) && [ -z "$out" ]; then
	pass diff/equal
else
	fail diff/equal "$(printf '%s' "$out" | head -3)"
fi
out=$($WARDC diff -I stdlib-policies "$py" "$tmp/wider.ward" 2>&1)
rc=$?
want='export:
  + output: type zip: allowed
  + output: name "*.zip": allowed
  + output: on-violation: refuse -> skip'
if [ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | sed -n '/^export:/,$p')" = "$want" ]; then
	pass diff/export
else
	fail diff/export "rc=$rc $(printf '%s' "$out" | tr '\n' '|')"
fi
# Issue 17: zip added and the total raised tenfold is two widenings, exit 1;
# so are a workdir moved and the caller's groups kept. (Every field of every
# profile: tests/unit/test_diff.c.)
sed -e 's/types text, png;/types text, png, zip;/' -e 's/total 40M;/total 400M;/' \
	"$py" >"$tmp/total.ward"
out=$($WARDC diff -I stdlib-policies --format json "$py" "$tmp/total.ward" 2>&1)
rc=$?
if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q '"what": "output: total"' &&
	printf '%s' "$out" | grep -q '"what": "output: type zip"' &&
	printf '%s' "$out" | grep -q '"equal": false'; then
	pass diff/export-total
else
	fail diff/export-total "rc=$rc $(printf '%s' "$out" | tr '\n' ' ')"
fi
sed -e 's|workdir /work;|workdir /tmp; groups keep;|' "$py" >"$tmp/identity.ward"
out=$($WARDC diff -I stdlib-policies "$py" "$tmp/identity.ward" 2>&1)
rc=$?
want='identity:
  ~ workdir: /work -> /tmp
  + groups: refuse -> keep'
if [ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | sed -n '/^identity:/,$p')" = "$want" ]; then
	pass diff/identity
else
	fail diff/identity "rc=$rc $(printf '%s' "$out" | tr '\n' '|')"
fi
[ "$fails" -eq 0 ]
