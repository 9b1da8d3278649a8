# attack: files/slot-dotdot
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-traversal
# what: climbs out of the slots with `..`: open("/input/../../../HOST"),
#   openat(fd of /input, "../../HOST"), os.chdir("/output") then "..",
#   /proc/self/root/.., /proc/self/cwd/../.., /proc/1/root (init's root)
#   and /proc/1/cwd, where HOST is a bait file of the host
# expect: every attempt fails (ENOENT, or EACCES for init's links) and the
#   bait's content is in no output
# control: the same script outside the sandbox, with the host's input
#   directory in place of /input, reads the bait through `..`
# if it fails: pivot_root and the detached old root (launcher/core/mounts.c),
#   init's PR_SET_DUMPABLE(0) for /proc/1 (launcher/core/init.c)

attack() {
	local bait secret
	bait=/var/tmp/ward-attack-dotdot-$$
	secret=$(rand_hex 20)
	mkdir -p "$bait" && chmod 755 "$bait" && echo "$secret" >"$bait/secret.txt" &&
		chmod 644 "$bait/secret.txt"
	at_exit "rm -rf '$bait'"
	put dotdot.py <<'PY'
import errno, os, sys
inp, bait = sys.argv[1], sys.argv[2].lstrip("/")
up = "../" * 16
def attempt(name, fn):
    try:
        print("%s ok %s" % (name, fn().strip()))
    except OSError as e:
        print("%s %s" % (name, errno.errorcode[e.errno]))
def read(p, **kw):
    with open(p, **kw) as f:
        return f.read()
attempt("dotdot", lambda: read(inp + "/" + up + bait))
fd = os.open(inp, os.O_RDONLY | os.O_DIRECTORY)
attempt("openat", lambda: read(up + bait, opener=lambda p, fl: os.open(p, fl, dir_fd=fd)))
os.chdir(inp)
os.chdir(up)
attempt("chdir", lambda: read(bait))
attempt("proc-root", lambda: read("/proc/self/root/" + up + bait))
attempt("proc-cwd", lambda: read("/proc/self/cwd/" + up + bait))
attempt("init-root", lambda: read("/proc/1/root/" + bait))
attempt("init-cwd", lambda: read("/proc/1/cwd/" + up + bait))
PY
	sbx -- python3 /input/dotdot.py /input "$bait/secret.txt"
	for a in dotdot openat chdir proc-root proc-cwd; do
		check "$a: ENOENT; $(why)" so_has "$a ENOENT"
	done
	check "init-root: EACCES; $(why)" so_has "init-root EACCES"
	check "init-cwd: EACCES; $(why)" so_has "init-cwd EACCES"
	check "the bait's content in no output" nothing_leaks "$secret"
	outside -- /usr/bin/python3 "$IN/dotdot.py" "$IN" "$bait/secret.txt"
	control "outside, .. reaches the bait; $(cwhy)" co_has "dotdot ok $secret"
	control "outside, openat(.., ...) too; $(cwhy)" co_has "openat ok $secret"
}
