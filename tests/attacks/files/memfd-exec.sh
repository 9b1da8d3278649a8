# attack: files/memfd-exec
# boundary: files
# profile: python
# modes: root rootless
# requires: probe-slot
# what: runs a program it wrote, past the noexec mounts: a copy of a static
#   binary in a memfd (memfd_create with no flag, with MFD_EXEC, with
#   MFD_NOEXEC_SEAL), executed with execveat(fd, "", AT_EMPTY_PATH) and
#   through /proc/self/fd/N, under every stdlib profile this mode runs;
#   under python also the same copy written to /tmp, /work and /dev/shm and
#   executed by path and through an O_PATH descriptor, and /usr/bin/id
#   copied to /tmp and loaded by the dynamic linker (ld.so /tmp/id)
# expect: nothing runs: memfd_create(MFD_EXEC) fails with EACCES, other
#   memfds are not executable (EACCES at execveat) in root mode
#   (vm.memfd_noexec = 2 in the sandbox's pid namespace, which it reads
#   back as 2) and are refused at memfd_create (EACCES, the launcher's
#   seccomp guard) rootless, where the setting cannot be written; strict
#   has no memfd_create at all; the files get EACCES; ld.so fails to map
#   the file (exit 127)
# control: outside, as the sandbox's host user, the same memfd runs the
#   copy; and inside, under a test policy that is the python profile plus
#   `memfd exec;`, it runs too
# if it fails: ward_memfd_noexec and ward_memfd_guard_install
#   (launcher/core/memfd.c), called from init's setup and the target
#   (launcher/core/init.c); the noexec tmpfs mounts (launcher/core/mounts.c)

# ran: a line that is only the tag: the copy ran and printed it
ran() { grep -qxE 'memfd-[a-z]+-[a-z]+' "$1"; }

attack() {
	local p seen=0
	for p in $PROFILES; do
		[ "$(accepted "$p")" = none ] && continue
		seen=$((seen + 1))
		sbx -p "$p" -- /input/atk memfd none fd memfd none proc memfd exec fd \
			memfd seal fd echo done
		check "$p: no memfd ran; $(why)" not ran "$SO"
		check "$p: the program went on; $(why)" so_has done
		check "$p: MFD_EXEC refused; $(why)" \
			grep -qE '^memfd-exec-fd create (EACCES|ENOSYS)$' "$SO"
	done
	check "at least five profiles ran ($seen)" test "$seen" -ge 5
	sbx -- /input/atk file /tmp/a path file /tmp/b opath file /work/c path \
		file /dev/shm/d opath echo done
	check "written files do not run (EACCES); $(why)" \
		test "$(grep -c '^file-.* exec EACCES$' "$SO")" = 4
	sbx -p shell -- /bin/bash -c 'cp /usr/bin/id /tmp/id && chmod 755 /tmp/id &&
		/lib64/ld-linux-x86-64.so.2 /tmp/id; echo "ldso=$?"
		echo "scope=$(cat /proc/sys/vm/memfd_noexec)"'
	check "ld.so cannot map a noexec file; $(why)" so_has "ldso=127"
	if [ "$MODE" = root ]; then
		check "root mode: the pid namespace has vm.memfd_noexec = 2; $(why)" so_has "scope=2"
	fi
	# The controls: outside, and under a policy that opts in.
	outside -- "$IN/atk" memfd none fd
	control "outside, the memfd runs; $(cwhy)" co_has "memfd-none-fd"
	derive_policy memfd-exec python -e '$a fs { memfd exec; }' || {
		fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"
		return
	}
	sbx -p memfd-exec -- /input/atk memfd exec fd
	control "with \`memfd exec\`, the memfd runs inside; $(why)" so_has "memfd-exec-fd"
}

not() { ! "$@"; }
