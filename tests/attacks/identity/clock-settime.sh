# attack: identity/clock-settime
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: sets the host's clocks (clock_settime of CLOCK_REALTIME,
#   settimeofday: to the time they already show) and the host name
# expect: every call fails with EPERM; the host's clock still agrees with
#   the harness's
# control: outside, as root, the same calls succeed
# if it fails: the profile's `errno EPERM @privileged` (@clock-set), the
#   UTS namespace for the host name

attack() {
	local h
	h=$(hostname)
	sbx -- /input/atk clock_settime settimeofday sethostname "$h"
	check "every call EPERM; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"clock_settime EPERM settimeofday EPERM sethostname EPERM "
	check "the host's clock is sane" test "$(( $(date +%s) - $(stat -c %Y "$CASE_T/stamp") ))" -lt 300
	check "the host's name is unchanged" test "$(hostname)" = "$h"
	outside -u root -- "$IN/atk" clock_settime settimeofday sethostname "$h"
	control "outside as root, the calls succeed; $(cwhy)" \
		test "$(tr '\n' ' ' <"$CO")" = "clock_settime ok settimeofday ok sethostname ok "
}
