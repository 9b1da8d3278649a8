# attack: files/host-secret-file
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-secret
# what: reads a host file with random content (a bait in /var/tmp,
#   readable by everyone) by its path, and searches every file it can read
#   for the content
# expect: open(path) fails with ENOENT, the search finds the content
#   nowhere, and it appears in no output (stdout, stderr, report, output
#   slot)
# control: the same script outside the sandbox, as the sandbox's host user,
#   opens the bait and finds the content
# if it fails: the mount table (stdlib-policies/base/core.ward binds, a
#   slot or bind of a host directory that holds the bait),
#   launcher/core/mounts.c (the new root, pivot_root, the old root detached)

attack() {
	local bait secret
	bait=/var/tmp/ward-attack-bait-$$
	secret=$(rand_hex 24)
	mkdir -p "$bait" && chmod 755 "$bait"
	at_exit "rm -rf '$bait'"
	echo "$secret" >"$bait/secret.txt" && chmod 644 "$bait/secret.txt"
	put find_secret.py <<'PY'
import errno, os, sys
path, secret, roots = sys.argv[1], sys.argv[2].encode(), sys.argv[3:]
try:
    with open(path, "rb") as f:
        print("open ok", f.read().strip().decode())
except OSError as e:
    print("open", errno.errorcode[e.errno])
found = []
for root in roots:
    for d, dirs, files in os.walk(root):
        # the host's /usr is bound read-only for the interpreter; /proc and
        # /dev are not files
        dirs[:] = [x for x in dirs if os.path.join(d, x) not in ("/usr", "/proc", "/dev", "/sys")]
        for n in files:
            p = os.path.join(d, n)
            try:
                if os.path.islink(p) or os.path.getsize(p) > 1 << 20:
                    continue
                with open(p, "rb") as f:
                    if secret in f.read():
                        found.append(p)
            except OSError:
                pass
print("found", " ".join(found) if found else "none")
PY
	sbx -- python3 /input/find_secret.py "$bait/secret.txt" "$secret" /
	check "open of the bait: ENOENT; $(why)" so_has "open ENOENT"
	check "the content found nowhere; $(why)" so_has "found none"
	check "the bait's content in no output" nothing_leaks "$secret"
	check "the run exited 0; $(why)" rc_is 0
	outside -- /usr/bin/python3 "$IN/find_secret.py" "$bait/secret.txt" "$secret" "$bait"
	control "outside, the script reads the bait; $(cwhy)" co_has "open ok $secret"
	control "outside, the search finds it; $(cwhy)" co_has "found $bait/secret.txt"
}
