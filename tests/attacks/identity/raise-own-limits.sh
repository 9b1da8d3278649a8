# attack: identity/raise-own-limits
# boundary: resources
# profile: python
# modes: root rootless
# requires: python3 probe-slot
# seeds: 004-privilege
# what: widens its own limits: raises its hard limit on open files,
#   opens its cgroup's memory limit under /sys/fs/cgroup to write it,
#   mounts a cgroup filesystem of its own, and raises its priority
#   (nice -5) from python and from the shell
# expect: setrlimit: EPERM; /sys/fs/cgroup: ENOENT (no /sys inside);
#   mount: EPERM; nice(-5): ENOSYS under python (setpriority is not in its
#   filter), EPERM under shell (allowed, refused by the kernel)
# control: outside, as root, the cgroup file the sandbox looked for (the
#   test's own cgroup) opens for writing; and raising the hard limit
#   succeeds where root has CAP_SYS_RESOURCE (this harness's root may not:
#   then the host answers EPERM as well, and only the sandbox's answer is
#   checked)
# if it fails: capabilities (no CAP_SYS_RESOURCE), the mount table (no
#   /sys), the profile's @mount rule

attack() {
	sbx -- /input/atk prlimit-raise open-w /sys/fs/cgroup/memory/memory.limit_in_bytes \
		open-w /sys/fs/cgroup/memory.max mount-cgroup /tmp
	check "what stops each; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"prlimit-raise EPERM open-w ENOENT open-w ENOENT mount-cgroup EPERM "
	sbx -- python3 -c 'import os, errno
try:
    os.nice(-5); print("nice ok")
except OSError as e:
    print("nice", errno.errorcode[e.errno])'
	check "python: nice(-5): ENOSYS; $(why)" so_has "nice ENOSYS"
	sbx -p shell -- nice -n -5 true
	check "shell: nice -n -5: Permission denied; $(why)" grep -q "Permission denied" "$SE"
	outside -u root -- "$IN/atk" open-w "${CG_RUN[0]}/memory.limit_in_bytes"
	control "outside as root, the cgroup's limit file opens for writing; $(cwhy)" co_has "open-w ok"
	if [ $(( 0x$(awk '/^CapEff/ { print $2 }' /proc/self/status) >> 24 & 1 )) = 1 ]; then
		outside -u root -- prlimit --nofile=256:1024 -- "$IN/atk" prlimit-raise
		control "outside as root, the hard limit is raised; $(cwhy)" co_has "prlimit-raise ok"
	fi
}
