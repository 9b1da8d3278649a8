# attack: resources/zombie-flood
# boundary: lifecycle
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 000-runaway
# what: 200 children that exit at once and are never waited for (a
#   process table filling with zombies), then the parent exits and leaves
#   them to init
# expect: the program counts its 200 zombies while it lives; after the
#   run no process of it is left on the host (the harness's lifecycle
#   check: test cgroup, host uid); the run exits 0
# control: outside the sandbox, the same program counts its 200 zombies
#   too: the count is real
# if it fails: init's reaping (launcher/core/init.c step 16), the end of the
#   pid namespace with init

attack() {
	sbx -- /input/atk zombies 200
	check "200 zombies inside; $(why)" so_has "zombies 200 of 200"
	check "the run exited 0; $(why)" rc_is 0
	outside -- "$IN/atk" zombies 50
	control "outside, the program counts its zombies; $(cwhy)" grep -q '^zombies [0-9]* of 50$' "$CO"
	control "... at least 50" test "$(awk '{ print $2 }' "$CO")" -ge 50
}
