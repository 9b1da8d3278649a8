#!/bin/sh
# tests/vm/guest.sh BUILD: PID 1 of the VM of tests/vm/run.sh, on the
# host's read-only root. Mounts what a system has, cgroup2 alone at
# /sys/fs/cgroup (the kernel was booted with cgroup_no_v1=all), then runs
# the cgroup parts of the suites; their PASS/FAIL/SKIP lines go to the
# serial console, which the host reads. Ends with "VM-DONE" and a power
# off (PID 1 must not exit: the kernel would panic).
BUILD=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

# (/dev, /proc and /sys were moved here by the initramfs)
[ -e /proc/self/mountinfo ] || mount -t proc proc /proc || echo "VM: no /proc"
[ -d /sys/fs/cgroup ] || mount -t sysfs sysfs /sys || echo "VM: no /sys"
mkdir -p /dev/pts /dev/shm
mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts || echo "VM: no devpts"
mount -t tmpfs -o mode=1777 tmpfs /dev/shm || echo "VM: no /dev/shm"
mount -t cgroup2 cgroup2 /sys/fs/cgroup || echo "VM: no cgroup2"
# What udev would make: bash's process substitution needs /dev/fd (without
# it ward-attack's list of attacks read empty and it ran none).
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
hostname ward-vm
# Overcommit as a host with more memory than the VM's 2 GiB would: the
# memory bomb's one 8 GB list is refused at once otherwise (MemoryError)
# instead of growing into its cgroup's limit.
echo 1 >/proc/sys/vm/overcommit_memory || echo "VM: no overcommit"
ip link set lo up 2>/dev/null

done_() {
	echo "VM-DONE"
	sync
	echo o >/proc/sysrq-trigger
	sleep 60
}

v1=$(grep -c ' cgroup ' /proc/mounts)
echo "VM: kernel $(uname -r), cgroup2 controllers: $(cat /sys/fs/cgroup/cgroup.controllers), v1 hierarchies mounted: $v1"
if [ "$v1" != 0 ] || ! grep -q cgroup_no_v1=all /proc/cmdline; then
	echo "FAIL vm/pure-cgroup-v2: v1 hierarchies are mounted"
	done_
fi
echo "PASS vm/pure-cgroup-v2"
# The root gives every controller to its children, as systemd does.
echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control

cd "$top" || done_
export BUILD WARD="$BUILD/ward" WARDC="$BUILD/wardc"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The suites (VM_SUITES of tests/vm/run.sh picks some, for a quick look).
suites=${2:-supervise delegated admission attacks}
for s in $suites; do
	t0=$(date +%s)
	case $s in
	supervise)
		# Supervision with real cgroup2 limits: memory (OOM, the whole
		# run killed), cpu, cputime, pids (a fork bomb), wall, output,
		# a double-forked daemon, signals, the report, cleanup after
		# many runs, the python profile, rootless refusals.
		WARD_E2E_RUNS=${WARD_VM_RUNS:-50} sh tests/e2e/supervise.sh 2>&1 ;;
	delegated)
		# Rootless ward with limits under a delegated subtree.
		sh tests/vm/delegated.sh 2>&1 ;;
	admission)
		# The ceiling on sandboxes at once, on this kernel.
		sh tests/e2e/admission.sh 2>&1 ;;
	attacks)
		# The attacks that need cgroups, under the suite's outer
		# cgroup2 net: memory, pids, cpu, what outlives a run.
		# (patterns match the attacks' "# attack:" names). The python
		# profile's only: the shell profile's one here, its fork bomb,
		# meets the same pids.max as fork-count and supervise's
		# fork-bomb-pids-limit, and under TCG that profile's harness
		# (its probes, root and rootless) and the bomb's 30 s wall
		# cost CI minutes (the host's suite runs both). Root mode
		# only: rootless, the attacks run a test copy without the
		# cgroup limits (no delegation here; delegated.sh tests
		# rootless ward with limits), so they would test no cgroup.
		# Their static programs are the host's build, when there is
		# one (make test-vm makes it).
		# cpu-burn reads the CPU of ward and the sandbox together: it
		# once saw 14.3 s in 11.8 s of wall, the supervisor spinning
		# on its cgroup2 OOM watch (supervise's supervisor-sleeps now).
		bins=
		[ -x "$BUILD/attacks/atk" ] && bins=$BUILD/attacks
		WARD_ATTACK_BINS=$bins \
			ATTACK_PROFILES="python" ATTACK_MODE=root bash tests/attacks/run.sh \
			resources/memory-bomb resources/fork-count \
			resources/cpu-burn \
			resources/double-fork-daemon resources/zombie-flood 2>&1 |
			grep -E '^(PASS|FAIL|SKIP|# )' ;;
	*.sh)
		# A script of the tree, run as it is (a look of one's own).
		sh "$s" 2>&1 ;;
	*) echo "FAIL vm/suite-$s: no such suite" ;;
	esac
	echo "# $s: $(($(date +%s) - t0))s"
done
done_
