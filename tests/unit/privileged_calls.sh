#!/bin/sh
# tests/unit/privileged_calls.sh: what the privileged core takes from
# launcher/unprivileged, read from the objects (nm), not from the includes.
#
# launcher/core and launcher/lib may take nothing from it (their include
# paths do not reach it either). launcher/supervisor may take only what a
# child it forks runs after it has dropped every privilege (the entry
# points below), and the allow-lists the children's seccomp filters are
# built from (data, read before the drop). Anything else would be root
# running code that `make tcb` does not count: the upstream proxy's
# address and the resolver's socket were such code until they moved to
# launcher/lib/upstream.c. Needs the objects of BUILD (make all).
set -u
BUILD=${BUILD:-build}
obj=$BUILD/obj/launcher
for d in core lib supervisor unprivileged; do
	ls "$obj/$d"/*.o >/dev/null 2>&1 || { echo "FAIL privileged-calls: no objects in $obj/$d (make all)"; exit 1; }
done
# name: where it runs
allowed='
ward_admission_hold the holder, after its drop (admit.c)
ward_broker_run the broker, after its drop (broker_proc.c)
ward_broker_syscalls the broker'"'"'s allow-list
ward_broker_nsyscalls the broker'"'"'s allow-list
ward_broker_ioctls the broker'"'"'s allow-list
ward_broker_nioctls the broker'"'"'s allow-list
ward_holder_syscalls the holder'"'"'s allow-list
ward_holder_nsyscalls the holder'"'"'s allow-list
ward_channel_init the courier, after its drop (main.c courier_main)
ward_courier_run the courier, after its drop (main.c courier_main)
ward_output_init the courier, after its drop (main.c courier_main)
ward_rmtree_inside the reclaimer, after its drop (reclaim.c)
ward_session_main ward session, which never holds a privilege
'
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
nm --defined-only "$obj"/unprivileged/*.o | awk 'NF == 3 && $2 ~ /[TDBRC]/ { print $3 }' | sort -u >"$T/unpriv"
nm -u "$obj"/core/*.o "$obj"/lib/*.o | awk '$1 == "U" { print $2 }' | sort -u | comm -12 - "$T/unpriv" >"$T/core"
if [ -s "$T/core" ]; then
	echo "FAIL privileged-calls/core: launcher/core or launcher/lib uses $(tr '\n' ' ' <"$T/core")"
else
	echo "PASS privileged-calls/core (nothing of launcher/unprivileged)"
fi
printf '%s\n' "$allowed" | awk 'NF { print $1 }' | sort -u >"$T/allowed"
nm -u "$obj"/supervisor/*.o | awk '$1 == "U" { print $2 }' | sort -u | comm -12 - "$T/unpriv" >"$T/sup"
extra=$(comm -23 "$T/sup" "$T/allowed" | tr '\n' ' ')
if [ -n "$extra" ]; then
	echo "FAIL privileged-calls/supervisor: launcher/supervisor uses $extra from launcher/unprivileged: if root runs it, it belongs in the core (launcher/core or launcher/lib); if only a child that dropped its privileges does, add it to this test's list with the child's name"
else
	echo "PASS privileged-calls/supervisor ($(wc -l <"$T/sup") names, each a dropped child's entry point or allow-list)"
fi
