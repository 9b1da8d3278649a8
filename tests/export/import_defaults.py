#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Import the default seccomp profiles of Docker (moby) and Podman
(containers/common) with `wardc import`, compile the policies, and compare
what `wardc explain` says each syscall gets with the profiles read here on
their own, as a runtime applies them (moby's and containers/common's own
rules: an entry applies when the container holds every capability of
includes.caps and none of excludes.caps, and its architecture is listed in
includes.arches and not in excludes.arches; runtimes skip entries whose
action is the default; an unconditional entry wins over conditional ones;
of two unconditional entries the first).

For each profile, each target and two capability sets: none (what ward's
policies keep) and the runtime's own default set. Syscall names and
numbers are the kernel's (common/syscalls.tsv), not libseccomp's, which
lacks the newest: the point is that none of them is lost.

    import_defaults.py WARDC TOP

prints one PASS/FAIL line per comparison; exits 1 if any failed.
"""

import errno
import json
import os
import subprocess
import sys
import tempfile

# The runtimes' default capability sets (tests/export/upstream/SOURCES).
MOBY_CAPS = [
    "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER",
    "CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP",
    "CAP_SETPCAP", "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL",
    "CAP_AUDIT_WRITE"]
PODMAN_CAPS = [
    "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID",
    "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_SETFCAP", "CAP_SETGID",
    "CAP_SETPCAP", "CAP_SETUID", "CAP_SYS_CHROOT"]

PROFILES = [("moby-default.json", MOBY_CAPS),
            ("podman-default.json", PODMAN_CAPS)]

# The profiles' architecture names (Go's GOARCH and libseccomp's).
ARCH_NAMES = {"x86_64": ("amd64", "x86_64", "SCMP_ARCH_X86_64"),
              "aarch64": ("arm64", "aarch64", "SCMP_ARCH_AARCH64")}

# socket(): ward's `net none` (no net section in an imported policy) adds
# a rule of its own whatever the profile says (docs/export.md, section 4).
WARD_OWN = {"socket"}


def kernel_syscalls(top, arch):
    col = {"x86_64": 1, "aarch64": 2}[arch]
    names = set()
    with open(os.path.join(top, "common", "syscalls.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if parts[col] != "-":
                names.add(parts[0])
    return names


def action_text(action, errno_ret, default_errno):
    """The profile's action as `wardc explain` words it."""
    if action == "SCMP_ACT_ALLOW":
        return "allow"
    if action == "SCMP_ACT_LOG":
        return "log"
    if action == "SCMP_ACT_ERRNO":
        n = errno_ret if errno_ret is not None else default_errno
        return "errno " + errno.errorcode.get(n, str(n))
    if action in ("SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS",
                  "SCMP_ACT_KILL_THREAD"):
        return "kill"
    if action == "SCMP_ACT_TRAP":
        return "trap"
    return "errno ENOSYS"  # TRACE, NOTIFY: no tracer, no listener


def applies(entry, caps, arch):
    inc = entry.get("includes") or {}
    exc = entry.get("excludes") or {}
    names = ARCH_NAMES[arch]
    if any(c not in caps for c in inc.get("caps") or []):
        return False
    if inc.get("arches") and not any(a in names for a in inc["arches"]):
        return False
    if any(c in caps for c in exc.get("caps") or []):
        return False
    if any(a in names for a in exc.get("arches") or []):
        return False
    if exc.get("minKernel"):
        return False  # ward assumes a current kernel
    return True


def expected(profile, caps, arch, kernel):
    """syscall -> "allow", "errno EPERM", ... or "conditional"; syscalls
    left to the default are absent. And the default's words."""
    dflt = action_text(profile["defaultAction"],
                       profile.get("defaultErrnoRet"), errno.EPERM)
    uncond, cond = {}, set()
    for e in profile.get("syscalls") or []:
        if not applies(e, caps, arch):
            continue
        act = action_text(e["action"], e.get("errnoRet"), errno.EPERM)
        if act == dflt:
            continue  # runtimes skip it
        for n in e.get("names") or []:
            if n not in kernel:
                continue
            if e.get("args"):
                cond.add(n)
            elif n not in uncond:
                uncond[n] = act
    out = dict(uncond)
    for n in cond - set(uncond):
        out[n] = "conditional"
    return out, dflt


def ward_says(wardc, top, path, caps, arch, tmp):
    src = os.path.join(tmp, "imported.ward")
    cmd = [wardc, "import", "--target", arch, "-o", src, path]
    if caps:
        cmd[2:2] = ["--capabilities", ",".join(caps)]
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    out = subprocess.run(
        [wardc, "explain", "--target", arch, "--format", "json", src],
        check=True, capture_output=True).stdout
    syscalls = json.loads(out)["syscalls"]
    got = {}
    # "errno EPERM log": the same errno, and ward's broker records the
    # call (docs/spec.md 4.6); the call sees what the profile says
    def words(a):
        return a[:-len(" log")] if a.endswith(" log") else a
    for r in syscalls["rules"]:
        got[r["syscall"]] = ("conditional" if r["argument_checked"]
                             else words(r["action"]))
    return got, words(syscalls["default"])


def compare(want, wdflt, got, gdflt, kernel):
    bad = []
    if wdflt != gdflt:
        bad.append("default: profile %s, ward %s" % (wdflt, gdflt))
    for n in sorted(kernel - WARD_OWN):
        w = want.get(n, wdflt)
        g = got.get(n, gdflt)
        if w != g:
            bad.append("%s: profile %s, ward %s" % (n, w, g))
    return bad


def main():
    wardc, top = sys.argv[1], sys.argv[2]
    failed = 0
    for name, runtime_caps in PROFILES:
        path = os.path.join(top, "tests", "export", "upstream", name)
        with open(path) as f:
            profile = json.load(f)
        for arch in ("x86_64", "aarch64"):
            kernel = kernel_syscalls(top, arch)
            for label, caps in (("no-caps", []),
                                ("runtime-caps", runtime_caps)):
                test = "import-%s/%s/%s" % (name[:-len(".json")], arch,
                                            label)
                want, wdflt = expected(profile, caps, arch, kernel)
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        got, gdflt = ward_says(wardc, top, path, caps,
                                               arch, tmp)
                    except subprocess.CalledProcessError as e:
                        print("FAIL %s: %s" % (test, e))
                        failed += 1
                        continue
                bad = compare(want, wdflt, got, gdflt, kernel)
                allowed = sum(1 for v in want.values() if v == "allow")
                if bad:
                    print("FAIL %s: %d differ: %s" % (test, len(bad),
                                                     "; ".join(bad[:6])))
                    failed += 1
                else:
                    print("PASS %s (%d syscalls, %d allowed always, %d by "
                          "their arguments, all as the profile says)"
                          % (test, len(kernel), allowed,
                             sum(1 for v in want.values()
                                 if v == "conditional")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
