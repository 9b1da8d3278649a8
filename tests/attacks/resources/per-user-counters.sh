# attack: resources/per-user-counters
# boundary: resources
# profile: python
# modes: root rootless
# requires: probe-slot
# what: takes as much as it can of the kernel's per-user counters and
#   holds it: inotify instances, POSIX message-queue bytes (default-sized
#   queues), queued real-time signals, fanotify groups. They are charged up
#   the chain of user namespaces to the namespace's owner, the host user
#   the run belongs to (root in root mode, since the root supervisor makes
#   the namespace; the caller rootless): unbounded, a run locks that user
#   out (128 inotify instances per user here, 800 KiB of queues, ~96k
#   signals). Inotify watches too, one per file it makes in /tmp
# expect: the sandbox gets the profile's share and no more (8 inotify
#   instances: user.max_inotify_instances of its namespace, one of them
#   holding 8192 watches, user.max_inotify_watches there; at most 3
#   queues: RLIMIT_MSGQUEUE 256K; 1024 signals: RLIMIT_SIGPENDING;
#   fanotify: EPERM from the profile's seccomp, and 0 groups allowed by its
#   namespace), and while it holds them, a process of that host user (root
#   in root mode) still gets one of each
# control: a process in a user namespace of the same owner made without
#   ward (`unshare -U -r -i`) takes the whole budget of each counter, and
#   while it holds it the same host probe gets none (EMFILE, EMFILE,
#   EAGAIN); it lets go at once. The same namespace holds more than 8192
#   watches (the host's budget, 8192 only in ward's)
# if it fails: ward_userns_limits_open/apply (launcher/core/hardening.c:
#   user.max_inotify_* of the sandbox's user namespace), ward_set_rlimits
#   (the defaults of ward_limit_default, common/policy.h), the profile's
#   `errno EPERM @privileged` for fanotify_init

# count_of NAME FILE: the count of a "NAME COUNT WHY" line
count_of() { awk -v n="$1" '$1 == n { print $2 }' "$2"; }

attack() {
	local who=(-u "$HUID") i n ctl
	# The identity the sandbox's user namespace is charged to: its owner.
	[ "$MODE" = root ] && who=(-u root)
	rm -f "$IN/release-ctl"
	# (released by a line on its stdin, a FIFO the harness holds open:
	# the slots show the host nothing live, docs/spec.md 1.7.3)
	ctl_fifo
	# (the watches first: their instance is one of the 8)
	sbx -b -s "$CTL_FIFO" -- /input/atk hold watches 20000 hold inotify 1000 \
		hold mq 1000 hold sigq 200000 hold fanotify 10 waitline 20
	for i in $(seq 100); do
		grep -q '^fanotify ' "$SO" 2>/dev/null && break
		sleep 0.1
	done
	# While the sandbox holds its share: the host user still gets one.
	mkdir -p "$CASE_T/w" && chmod 777 "$CASE_T/w"
	outside "${who[@]}" -e "ATK_DIR=$CASE_T/w" -- "$IN/atk" hold inotify 1 \
		hold watches 1 hold mq 1 hold sigq 1 hold fanotify 1
	cp "$CO" "$CASE_T/probe-held"
	ctl_say release
	sbx_wait
	check "the run ended normally; $(why)" rc_is 0
	check "inotify watches: the sandbox got 8192; $(why)" so_has "watches 8192 ENOSPC"
	check "inotify: the sandbox got 8 instances (7 more); $(why)" so_has "inotify 7 EMFILE"
	n=$(count_of mq "$SO")
	check "mqueue: the sandbox got 1 to 3 queues (256K); $(why)" \
		test "${n:-0}" -ge 1 -a "${n:-0}" -le 3 -a -n "$(grep '^mq .* EMFILE$' "$SO")"
	check "signals: the sandbox queued 1024; $(why)" so_has "sigq 1024 EAGAIN"
	check "fanotify: EPERM; $(why)" so_has "fanotify 0 EPERM"
	check "the sandbox held them until released; $(why)" so_has "waitline ok"
	check "the host user got an inotify instance meanwhile; $(cat "$CASE_T/probe-held")" \
		grep -qx "inotify 1 ok" "$CASE_T/probe-held"
	check "... a watch" grep -qx "watches 1 ok" "$CASE_T/probe-held"
	check "... a message queue" grep -qx "mq 1 ok" "$CASE_T/probe-held"
	check "... a queued signal" grep -qx "sigq 1 ok" "$CASE_T/probe-held"
	check "... a fanotify group" grep -qx "fanotify 1 ok" "$CASE_T/probe-held"

	# The control: the same, in a user namespace of the same owner that
	# ward did not make.
	(run_netted -x "${who[@]}" -e "ATK_DIR=$CASE_T/w" -- unshare -U -r -i -- \
		"$IN/atk" hold watches 9000 hold inotify 1000 \
		hold mq 1000 hold sigq 200000 waitfile "$IN/release-ctl" 20 \
		>"$CASE_T/ctl.out" 2>&1) &
	ctl=$!
	at_exit "touch $IN/release-ctl; wait $ctl 2>/dev/null"
	for i in $(seq 300); do
		grep -q '^sigq ' "$CASE_T/ctl.out" 2>/dev/null && break
		sleep 0.05
	done
	outside "${who[@]}" -- "$IN/atk" hold inotify 1 hold mq 1 hold sigq 1
	touch "$IN/release-ctl"
	wait "$ctl"
	control "without ward, a namespace takes more than 8 inotify instances ($(tr '\n' '|' <"$CASE_T/ctl.out"))" \
		test "$(count_of inotify "$CASE_T/ctl.out")" -gt 8
	control "... and more than 8192 watches" grep -qx "watches 9000 ok" "$CASE_T/ctl.out"
	control "... and the host user then gets none; $(cwhy)" co_has "inotify 0 EMFILE"
	control "... nor a message queue" co_has "mq 0 EMFILE"
	control "... nor a queued signal" co_has "sigq 0 EAGAIN"
}
