#!/bin/sh
# tests/attacks/gen-doc.sh: print docs/attacks.md, the table of every
# attack, from the headers of the attack files (tests/attacks/*/*.sh).
# tests/attacks/run.sh compares its output with docs/attacks.md, so the
# table cannot drift from the suite:
#
#   sh tests/attacks/gen-doc.sh >docs/attacks.md
set -u
A=$(cd "$(dirname "$0")" && pwd)

# field FILE KEY: "# KEY: value" with its continuation lines ("#   ...").
field() {
	awk -v k="# $2:" '
		index($0, k) == 1 { v = substr($0, length(k) + 2); on = 1; next }
		on && /^#   / { sub(/^#[ ]+/, ""); v = v " " $0; next }
		{ on = 0 }
		/^[^#]/ { exit }
		END { gsub(/\|/, "\\|", v); print v }' "$1"
}

cat <<'MD'
# The attack suite

Every boundary of a ward sandbox is proven by an attack made from inside
it and observed from outside (the seeds: "a configuration line is not
evidence"). This table is generated from the headers of the attack files
in `tests/attacks/` by `tests/attacks/gen-doc.sh`; `make attack` fails when
it differs from the suite. How the suite runs and how its safety net is set:
[tests/attacks/README.md](../tests/attacks/README.md).

Each attack runs as the sandboxed program under the stdlib profile it
targets (or a test policy, permissive in exactly one way, where the header
says so), in root mode and, where it means something without cgroups, in
rootless mode (uid 65534). Each has a **control**: the same attack where
nothing stops it (outside the sandbox, or a positive canary inside),
showing that the observation would see the attack succeed. After every
attack the harness checks that nothing of the run outlived it: processes,
cgroups, mounts, files of the sandbox user, network namespaces and links.

`ward-attack POLICY.wardb` (tools/ward-attack, man ward-attack(1)) runs
the same catalogue against any compiled policy: each attack's "runs
under" column names the stdlib profile it was written for, whose place
the policy under attack takes, and what it requires of that policy to run
at all; an attack whose requirement the policy does not meet is skipped,
with the reason, and the policy is never widened.

| attack | boundary | what it does | expected observation (from outside) | control | runs under | if it fails, look first at (若失败，优先查) |
|---|---|---|---|---|---|---|
MD
for f in "$A"/*/*.sh; do
	case $f in "$A"/lib/*) continue ;; esac
	name=$(field "$f" attack)
	[ -n "$name" ] || { echo "gen-doc: $f has no '# attack:' header" >&2; exit 1; }
	for k in boundary what expect control "if it fails"; do
		if [ -z "$(field "$f" "$k")" ]; then
			echo "gen-doc: $f has no '# $k:' header" >&2
			exit 1
		fi
	done
	modes=$(field "$f" modes)
	needs=$(field "$f" needs)
	prof=$(field "$f" profile)
	req=$(field "$f" requires)
	printf '| `%s` | %s | %s | %s | %s | %s, %s%s%s | %s |\n' "$name" \
		"$(field "$f" boundary)" "$(field "$f" what)" "$(field "$f" expect)" \
		"$(field "$f" control)" "${prof:-a test policy}" "${modes:-root rootless}" \
		"${needs:+; needs $needs}" "${req:+; requires $req}" "$(field "$f" "if it fails")"
done

# The seeds' rows, each with the attacks that stand for it (`# seeds:`).
. "$A/lib/catalogue.sh"
cat <<'MD'

## The seeds' samples

Seed 000's adversarial table (对抗测试) and seed 004's malicious sample set
(恶意样本集, "run it after every update of the security configuration and
check that every sample fails"), row by row, with the attacks that stand
for each (their `# seeds:` header). `ward-attack` prints the same table
with each attack's outcome. The last row of seed 000 belongs to the task's
own acceptance (业务谓词) as much as to the sandbox: ward's part is the
export's rules, which refuse the wrong product while the right one passes.

| row | seed | what the seed asks | attacks |
|---|---|---|---|
MD
seed_rows | while IFS='|' read -r id seed text; do
	list=$(for f in "$A"/*/*.sh; do
		case $f in "$A"/lib/*) continue ;; esac
		case " $(field "$f" seeds) " in *" $id "*) printf '`%s` ' "$(field "$f" attack)" ;; esac
	done)
	[ -n "$list" ] || { echo "gen-doc: no attack for the seed row $id" >&2; exit 1; }
	printf '| %s | %s | %s | %s |\n' "$id" "$seed" "$text" "${list% }"
done
