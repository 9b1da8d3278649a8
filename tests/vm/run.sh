#!/bin/sh
# tests/vm/run.sh: the cgroup parts of the suites on a second kernel with
# pure cgroup v2 (docs/spec.md 4.1): Debian's stock kernel (the package
# linux-image-amd64) booted under qemu with cgroup_no_v1=all, whatever the
# host runs (this machine's kernel is hybrid: v1 controllers, cgroup2 at
# /sys/fs/cgroup/unified without them).
#
# How (each choice is the one that worked on a 2-core host whose /dev/kvm
# hangs with nested KVM):
#   * qemu TCG (-accel tcg -cpu max, the default pc machine; -M microvm
#     did not boot this kernel);
#   * a busybox initramfs made here, with the modules that reach the host:
#     virtio, virtio_ring, virtio_pci*, netfs, fscache, 9pnet,
#     9pnet_virtio, 9p;
#   * the host's / shared read-only over virtio-9p (-virtfs ...,readonly=on)
#     and mounted as the guest's root, with tmpfs on /tmp, /run, /var/tmp
#     and /root: the guest runs this tree's build, the host's python3, jq
#     and setpriv, and writes nothing to the host;
#   * switch_root, not chroot, into it: the kernel refuses user namespaces
#     to a chrooted process;
#   * the guest's PID 1 is tests/vm/guest.sh, which mounts cgroup2 and runs
#     the suites (tests/e2e/supervise.sh, tests/vm/delegated.sh,
#     tests/e2e/admission.sh, the attacks that need cgroups); their lines
#     come back on the serial console.
#
# Needs qemu-system-x86, linux-image-amd64 and busybox-static (make deps)
# and a build in $BUILD (make test-vm: build/, the normal build, which TCG
# runs faster than the sanitizers'). VM_MEM (MiB, default 2048), VM_CPUS
# (default 2) and VM_TIMEOUT (s, default 1800) size it; VM_SUITES picks
# among "supervise delegated admission attacks" (default: all four).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
VM_MEM=${VM_MEM:-2048}
VM_CPUS=${VM_CPUS:-2}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
VM_SUITES=${VM_SUITES:-supervise delegated admission attacks}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP vm: needs root (the guest shares the host's / as it is)"
	exit 0
fi
missing=
command -v qemu-system-x86_64 >/dev/null || missing="$missing qemu-system-x86"
[ -x /bin/busybox ] || missing="$missing busybox-static"
# The newest stock kernel with its modules (not necessarily the running one).
kver=
for k in $(ls -v /boot/vmlinuz-*-amd64 2>/dev/null); do
	v=${k#/boot/vmlinuz-}
	[ -d "/lib/modules/$v/kernel" ] && kver=$v
done
[ -n "$kver" ] || missing="$missing linux-image-amd64"
if [ -n "$missing" ]; then
	echo "FAIL vm/setup: missing$missing (make deps installs them)"
	exit 1
fi
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
if [ ! -x "$BUILD/ward" ] || [ ! -x "$BUILD/wardc" ]; then
	echo "FAIL vm/setup: no ward or wardc in $BUILD (make first)"
	exit 1
fi

T=$(mktemp -d /tmp/ward-vm.XXXXXX) || exit 1
qpid=
cleanup() {
	[ -n "$qpid" ] && kill -9 "$qpid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ------------------------------------------------------------ initramfs
# The modules that reach the host's root, each after what it needs (from
# modules.dep), unpacked if compressed (busybox insmod takes plain ELF).
want="virtio_pci 9pnet_virtio 9p"
dep=/lib/modules/$kver/modules.dep
R=$T/initramfs
mkdir -p "$R/bin" "$R/mod" "$R/proc" "$R/sys" "$R/dev" "$R/newroot"
cp /bin/busybox "$R/bin/busybox"
mods=
add_mod() { # PATH relative to /lib/modules/VER, as modules.dep names it
	# (sh has no locals: the name is worked out again after the recursion)
	case " $mods " in *" $(basename "$1" | sed 's/\.ko.*//') "*) return 0 ;; esac
	for d in $(grep "^$1:" "$dep" | cut -d: -f2); do add_mod "$d" || return 1; done
	name=$(basename "$1" | sed 's/\.ko.*//')
	src=/lib/modules/$kver/$1
	case $src in
	*.ko) cp "$src" "$R/mod/$name.ko" ;;
	*.ko.xz) xz -dc "$src" >"$R/mod/$name.ko" ;;
	*.ko.zst) zstd -qdc "$src" >"$R/mod/$name.ko" ;;
	*.ko.gz) gzip -dc "$src" >"$R/mod/$name.ko" ;;
	*) return 1 ;;
	esac || return 1
	mods="$mods $name"
}
for m in $want; do
	rel=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$dep" | head -1 | cut -d: -f1)
	# built in (modules.builtin): nothing to load
	if [ -z "$rel" ] && grep -qE "/$m\.ko" "/lib/modules/$kver/modules.builtin" 2>/dev/null; then
		continue
	fi
	if [ -z "$rel" ] || ! add_mod "$rel"; then
		echo "FAIL vm/setup: module $m (or what it needs) not found for $kver"
		exit 1
	fi
done
cat >"$R/init" <<EOF
#!/bin/busybox sh
B=/bin/busybox
\$B mount -t proc proc /proc
\$B mount -t sysfs sysfs /sys
\$B mount -t devtmpfs devtmpfs /dev
for m in $mods; do
	[ -f /mod/\$m.ko ] || continue
	\$B insmod /mod/\$m.ko || echo "VM: insmod \$m failed"
done
if ! \$B mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose host /newroot; then
	echo "VM: cannot mount the host's root"; \$B poweroff -f
fi
\$B mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp
\$B mount -t tmpfs -o mode=1777 tmpfs /newroot/var/tmp
\$B mount -t tmpfs -o mode=755 tmpfs /newroot/run
\$B mount -t tmpfs -o mode=700 tmpfs /newroot/root
for d in dev proc sys; do
	\$B mount --move /\$d /newroot/\$d || echo "VM: cannot move /\$d"
done
exec \$B switch_root /newroot /bin/sh $top/tests/vm/guest.sh "$BUILD" "$VM_SUITES"
EOF
chmod 755 "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$T/initrd.gz" || {
	echo "FAIL vm/setup: cannot make the initramfs"
	exit 1
}

# ------------------------------------------------------------ boot
echo "vm: booting $kver under qemu (TCG, ${VM_CPUS} CPUs, ${VM_MEM} MiB), cgroup_no_v1=all"
t0=$(date +%s)
timeout -k 10 "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg,thread=multi -cpu max \
	-smp "$VM_CPUS" -m "$VM_MEM" -nodefaults -display none -no-reboot \
	-serial stdio -monitor none -nic none \
	-kernel "/boot/vmlinuz-$kver" -initrd "$T/initrd.gz" \
	-append "console=ttyS0 cgroup_no_v1=all panic=-1 loglevel=3 rdinit=/init" \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	</dev/null >"$T/console" 2>"$T/qemu.err" &
qpid=$!
wait "$qpid"
qrc=$?
qpid=
secs=$(($(date +%s) - t0))
# The suites' own lines, then the verdict.
tr -d '\r' <"$T/console" | grep -E '^(PASS|FAIL|SKIP|VM[: ]|# )' | grep -v '^VM-DONE'
if ! tr -d '\r' <"$T/console" | grep -q '^VM-DONE'; then
	echo "FAIL vm/boot: the guest did not finish (qemu exit $qrc after ${secs}s); the console's end:"
	tr -d '\r' <"$T/console" | tail -30 | sed 's/^/  | /'
	head -c 500 "$T/qemu.err"
	exit 1
fi
echo "vm: done in ${secs}s"
! tr -d '\r' <"$T/console" | grep -q '^FAIL'
