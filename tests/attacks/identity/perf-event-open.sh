# attack: identity/perf-event-open
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: opens a performance counter on itself (perf_event_open: side
#   channels and a long record of kernel bugs), user-space only, which an
#   unprivileged process may do on this host
# expect: EPERM
# control: outside, as the sandbox's host user, the same counter opens
# if it fails: the profile's `errno EPERM @debug` (perf_event_open is in
#   it), the seccomp program

attack() {
	sbx -- /input/atk perf
	check "perf_event_open: EPERM; $(why)" so_has "perf EPERM"
	outside -- "$IN/atk" perf
	control "outside, perf_event_open works; $(cwhy)" co_has "perf ok"
}
