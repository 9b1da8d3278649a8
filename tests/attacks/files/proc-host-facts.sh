# attack: files/proc-host-facts
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-secret
# what: reads what its own /proc tells of the host: the kernel's command
#   line, kallsyms (symbol names), the boot id, keys and key-users,
#   timer_list, interrupts, swaps, the acpi and scsi directories, and its
#   mountinfo, looking there for the host path of its input slot (a
#   read-only directory); then writes /proc/sys/kernel/hostname
# expect: every masked file reads empty and the masked directories are
#   empty; neither the host's command line nor its boot id nor a symbol
#   name is in any output; mountinfo shows the input slot at `/` of an
#   overlay, without its host path, and the output slot as a tmpfs,
#   without its host path either (a writable slot is a tmpfs the courier
#   fills and copies back); the write fails with EROFS
# control: outside, as the sandbox's host user, the same script reads the
#   host's command line, boot id and kallsyms names; and a bind of the
#   input directory in a private mount namespace (unshare -m, as root)
#   shows its host path in mountinfo
# if it fails: ward_proc_mask and ward_hide_slot (launcher/core/
#   mount_hide.c), the list in common/proc_mask.h, do_proc and do_bind
#   (launcher/core/mounts.c)

attack() {
	local cmdline bootid
	cmdline=$(head -c 60 /proc/cmdline)
	bootid=$(cat /proc/sys/kernel/random/boot_id)
	put facts.py <<'PY'
import errno, os, sys
root = sys.argv[1] if len(sys.argv) > 1 else "/proc"
for f in ("cmdline", "kallsyms", "sys/kernel/random/boot_id", "keys",
          "key-users", "timer_list", "interrupts", "swaps"):
    try:
        with open(os.path.join(root, f), "rb") as fh:
            data = fh.read(4096)
        print("read %s %d %s" % (f, len(data), data[:200].decode(errors="replace").replace("\n", "|")))
    except OSError as e:
        print("read %s %s" % (f, errno.errorcode[e.errno]))
for d in ("acpi", "scsi"):
    try:
        print("list %s %d" % (d, len(os.listdir(os.path.join(root, d)))))
    except OSError as e:
        print("list %s %s" % (d, errno.errorcode[e.errno]))
with open(os.path.join(root, "self/mountinfo")) as fh:
    for line in fh:
        print("mountinfo " + line.rstrip())
try:
    with open(os.path.join(root, "sys/kernel/hostname"), "w") as fh:
        fh.write("x\n")
    print("write-hostname ok")
except OSError as e:
    print("write-hostname " + errno.errorcode[e.errno])
PY
	sbx -- python3 /input/facts.py
	check "the run ended normally; $(why)" rc_is 0
	check "cmdline reads empty; $(why)" so_has "read cmdline 0 "
	check "kallsyms reads empty; $(why)" so_has "read kallsyms 0 "
	check "boot_id reads empty; $(why)" so_has "read sys/kernel/random/boot_id 0 "
	check "keys, key-users, timer_list, interrupts, swaps read empty; $(why)" \
		test "$(grep -cE '^read (keys|key-users|timer_list|interrupts|swaps) (0 |ENOENT)' "$SO")" = 5
	check "the masked directories are empty; $(why)" \
		test "$(grep -cE '^list (acpi|scsi) (0|ENOENT)$' "$SO")" = 2
	check "the host's command line is in no output" nothing_leaks "$cmdline"
	check "the host's boot id is in no output" nothing_leaks "$bootid"
	check "no kallsyms name in any output" nothing_leaks " T _stext"
	check "mountinfo: the input slot is an overlay at /; $(grep ' /input ' "$SO")" \
		grep -qE '^mountinfo [0-9]+ [0-9]+ [0-9:]+ / /input .* - overlay ' "$SO"
	# (a mount's root is its path from its file system's root: $IN, or
	# below /tmp if /tmp is a file system of its own; the harness's
	# directory is named ward-attack.*)
	check "mountinfo names no host path of the input slot" \
		not_in_out "$IN"
	check "mountinfo: the output slot is a tmpfs at /; $(grep ' /output ' "$SO")" \
		grep -qE '^mountinfo [0-9]+ [0-9]+ [0-9:]+ / /output .* - tmpfs ' "$SO"
	check "mountinfo names no host path of the output slot" \
		not_in_out "$OUTD"
	check "... nor of the harness's directory" not_in_out "ward-attack."
	check "/proc/sys is read-only; $(why)" so_has "write-hostname EROFS"
	# The controls.
	outside -- /usr/bin/python3 "$IN/facts.py"
	control "outside, the host's command line is read; $(cwhy)" \
		grep -qF -- "$cmdline" "$CO"
	control "... its boot id" grep -qF -- "$bootid" "$CO"
	control "... kallsyms names" grep -qF -- " T _stext" "$CO"
	mkdir -p "$CASE_T/mnt"
	outside -u root -- unshare -m --propagation private sh -c \
		'mount --bind "$1" "$2" && grep -F " $2 " /proc/self/mountinfo' sh "$IN" "$CASE_T/mnt"
	control "a plain bind of the input directory shows its host path in mountinfo; $(cwhy)" \
		grep -qE -- "^[0-9]+ [0-9]+ [0-9:]+ [^ ]*ward-attack[^ ]*/in $CASE_T/mnt " "$CO"
}

# (every line, the writable output slot's too: it is a tmpfs the courier
# fills and copies back, so its line names no host path either)
not_in_out() { ! grep '^mountinfo ' "$SO" | grep -qaF -- "$1"; }
