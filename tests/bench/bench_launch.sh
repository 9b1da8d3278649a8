#!/bin/sh
# tests/bench/bench_launch.sh BUILD_DIR: launch overhead of /usr/bin/true,
# rootless (uid 65534), interleaved: ward under a strict-like policy
# (read-only /usr, proc, dev, tmpfs /tmp, a small seccomp program),
# bubblewrap doing the equivalent with the same seccomp program by fd,
# `unshare` creating the same namespaces (the kernel's floor), and a plain
# exec. Prints medians and the ratios ward/bwrap and ward/unshare.
# Targets (issue 4): ward <= 0.6x bwrap with seccomp, <= 1.4x unshare.
# Needs root (to drop to 65534 with a clean group list). RUNS=200 default.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
RUNS=${RUNS:-200}
CC=${CC:-cc}
WARD=$BUILD/ward
[ -x "$WARD" ] || { echo "bench_launch: no $WARD (make first)"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench_launch: needs root"; exit 1; }
command -v bwrap >/dev/null || { echo "bench_launch: bwrap missing (make deps)"; exit 1; }

T=$(mktemp -d /tmp/ward-bench.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
"$CC" -O2 -o "$T/launchbench" "$top/tests/bench/launchbench.c" || exit 1
# mkblob: the Makefile's (make bench builds it; the test policies that
# need no seccomp filter, or a filter of their own)
cp "$BUILD/attacks/mkblob" "$T/mkblob" || exit 1

# The seccomp program: a deny-list of the usual privileged calls; the same
# bytes go to ward (in the blob) and to bwrap (by fd).
DENY=mount,umount2,pivot_root,chroot,unshare,setns,keyctl,add_key,request_key
DENY=$DENY,bpf,ptrace,kexec_load,init_module,finit_module,delete_module
DENY=$DENY,reboot,swapon,swapoff,perf_event_open,userfaultfd,open_by_handle_at
"$T/mkblob" "$T/strict.wardb" env:PATH=/usr/bin:/bin bind:/usr:/usr:exec \
	symlink:/lib64:usr/lib64 symlink:/lib:usr/lib symlink:/bin:usr/bin \
	proc:/proc dev:/dev tmpfs:/tmp:64M:1777 "seccomp:errno=1:$DENY" \
	"bpf-out=$T/strict.bpf" || exit 1
chmod 644 "$T/strict.wardb" "$T/strict.bpf"

echo "bench_launch: $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$T/launchbench" "$RUNS" 65534 "$T/strict.bpf" \
	"ward $WARD $T/strict.wardb -- /usr/bin/true" \
	"bwrap bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind /usr /usr --symlink usr/lib64 /lib64 --symlink usr/lib /lib --symlink usr/bin /bin --proc /proc --dev /dev --tmpfs /tmp --seccomp @BPF /usr/bin/true" \
	"unshare unshare --user --map-root-user --mount --pid --net --ipc --uts --fork /usr/bin/true" \
	"exec /usr/bin/true"
