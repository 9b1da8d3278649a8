# attack: files/slot-symlink
# boundary: files
# profile: python
# modes: root rootless
# requires: python3 output-slot
# card: output channel
# seeds: 000-traversal
# what: a first run plants symlinks in the output slot that point at a
#   host bait by absolute path, by a chain of `..`, and at `/`; a second
#   run, given the same directory as its output slot, reads through them
#   and writes through them
# expect: inside, every link resolves in the sandbox's own root: reads
#   fail with ENOENT and writes with EROFS or ENOENT; the bait's content
#   is in no output and the bait is unchanged on the host
# control: on the host, reading the planted link (as a naive exporter of
#   the output directory would) does reach the bait: the links are real
#   and the observation would see a read or a write through them. (This
#   is the caller's hazard: never follow links when exporting a slot.)
# if it fails: the slot's bind and the new root (launcher/core/mounts.c:
#   slots opened without following the last component, pivot_root); a
#   mount placed under a slot would be refused (tests/e2e slot-symlink-*)

attack() {
	local bait secret
	bait=/var/tmp/ward-attack-link-$$
	secret=$(rand_hex 20)
	mkdir -p "$bait" && chmod 755 "$bait" && echo "$secret" >"$bait/secret.txt" &&
		chmod 666 "$bait/secret.txt"
	at_exit "rm -rf '$bait'"
	put links.py <<'PY'
import errno, os, sys
bait = sys.argv[2]
links = {"abs": bait, "dots": "../" * 12 + bait.lstrip("/"), "root": "/"}
if sys.argv[1] == "plant":
    for n, t in links.items():
        os.symlink(t, "/output/" + n)
    print("planted")
else:
    for p in ("/output/abs", "/output/dots", "/output/root" + bait):
        try:
            with open(p) as f:
                print("read %s ok %s" % (p, f.read().strip()))
        except OSError as e:
            print("read %s %s" % (p, errno.errorcode[e.errno]))
        try:
            with open(p, "a") as f:
                f.write("overwritten\n")
            print("write %s ok" % p)
        except OSError as e:
            print("write %s %s" % (p, errno.errorcode[e.errno]))
PY
	sbx -- python3 /input/links.py plant "$bait/secret.txt"
	check "the links were planted; $(why)" so_has "planted"
	sbx -- python3 /input/links.py follow "$bait/secret.txt"
	for p in /output/abs /output/dots "/output/root$bait/secret.txt"; do
		check "read through $p: ENOENT; $(why)" so_has "read $p ENOENT"
		check "write through $p refused; $(why)" grep -qxE "write $p (ENOENT|EROFS)" "$SO"
	done
	check "the bait's content in no output" nothing_leaks "$secret"
	check "the bait is unchanged" test "$(cat "$bait/secret.txt")" = "$secret"
	control "on the host, the planted link reaches the bait" \
		test "$(cat "$OUTD/abs" 2>/dev/null)" = "$secret"
	control "on the host, the dots link reaches it too" \
		test "$(cd "$OUTD" && cat dots 2>/dev/null)" = "$secret"
}
