# attack: identity/read-host-processes
# boundary: identity
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-secret
# what: looks at the host's other processes: lists /proc and reads every
#   command line for a secret carried in the arguments of a host process of
#   the same user (a stand-in the harness starts), and opens that
#   process's /proc/PID/cmdline and environ by its host pid
# expect: the secret is not found; /proc/PID/cmdline: ENOENT; /proc
#   lists only the sandbox's own processes (init and the program)
# control: outside, the same script as the same user finds the secret
# if it fails: the pid namespace and the proc instance mounted for it
#   (launcher/core/mounts.c: proc of the sandbox's pid namespace)

attack() {
	local secret
	secret=$(rand_hex 16)
	setpriv --reuid="$HUID" --regid="$HUID" --clear-groups \
		"$IN/atk" sleep 60 "secret-$secret" >/dev/null 2>&1 &
	local standin=$!
	at_exit "kill -9 $standin; wait $standin"
	put ps.py <<'PY'
import errno, os, sys
secret = open(sys.argv[1]).read().strip()
pid = sys.argv[2]
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
found = []
for p in pids:
    try:
        if secret.encode() in open("/proc/%d/cmdline" % p, "rb").read():
            found.append(p)
    except OSError:
        pass
print("found", found or "none")
print("pids", len(pids))
try:
    open("/proc/%s/cmdline" % pid, "rb").read()
    print("cmdline ok")
except OSError as e:
    print("cmdline", errno.errorcode[e.errno])
PY
	sleep 0.2
	# (the secret goes in through a file: an argument would be in the
	# sandbox's own command lines, and in init's, which is ward's)
	echo "$secret" >"$IN/secret"
	sbx -- python3 /input/ps.py /input/secret "$standin"
	check "the secret is not found; $(why)" so_has "found none"
	check "/proc/PID/cmdline: ENOENT; $(why)" so_has "cmdline ENOENT"
	check "two processes in /proc (init, python); $(why)" so_has "pids 2"
	outside -- /usr/bin/python3 "$IN/ps.py" "$IN/secret" "$standin"
	control "outside, the secret is found; $(cwhy)" grep -q "^found \[$standin\]" "$CO"
}
