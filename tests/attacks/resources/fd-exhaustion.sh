# attack: resources/fd-exhaustion
# boundary: resources
# profile: python
# modes: root rootless
# requires: python3
# what: opens /dev/null until the kernel refuses, 10000 times at most
# expect: open fails with EMFILE after 253 descriptors (the profile's
#   nofile 256, minus stdin, stdout, stderr)
# control: outside, with a limit of 4096, the same loop opens more than
#   4000: the count follows the limit in force
# if it fails: the rlimits of the target (nofile; launcher/core/exec.c)

attack() {
	put fds.py <<'PY'
import errno, os
fds = []
try:
    while len(fds) < 10000:
        fds.append(os.open("/dev/null", os.O_RDONLY))
    print("opened", len(fds), "none")
except OSError as e:
    print("opened", len(fds), errno.errorcode[e.errno])
PY
	sbx -- python3 /input/fds.py
	check "EMFILE after 253; $(why)" so_has "opened 253 EMFILE"
	outside -- prlimit --nofile=4096 -- /usr/bin/python3 "$IN/fds.py"
	control "outside, more than 4000; $(cwhy)" \
		awk '$1 == "opened" && $2 > 4000 { ok = 1 } END { exit !ok }' "$CO"
}
