#!/usr/bin/env python3
"""The agents guide's loop, run for real: examples/ward_client.py drives
ward on the stdlib python profile through a wrong answer, a hostile
attempt and a right one, and every scorecard is checked from outside."""
import json
import os
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "examples"))
import ward_client as wc  # noqa: E402

build = os.environ.get("BUILD", "build")
ward = wc.Ward(os.path.join(top, build, "ward"), os.path.join(top, build, "wardc"))
failed = 0


def check(name, cond, detail=""):
    global failed
    if cond:
        print("PASS agents/" + name)
    else:
        failed += 1
        print("FAIL agents/%s: %s" % (name, detail))


with tempfile.TemporaryDirectory(prefix="ward-agents-") as tmp:
    blob = os.path.join(tmp, "python.wardb")
    digest = ward.compile(os.path.join(top, "stdlib-policies/python.ward"), blob)
    check("digest-pinned", digest == wc.sha256_file(blob))
    argv = ["/usr/bin/python3", "/input/main.py"]
    files = lambda code: {"sales.csv": wc.SALES, "main.py": code}

    wrong = ward.run(blob, digest, files(wc.WRONG), argv)
    check("exit-0-is-not-success", wrong.exit_code == 0 and
          wrong.reason == "exited" and not wc.revenue_is_right(wrong),
          "exit %d reason %s" % (wrong.exit_code, wrong.reason))

    hostile = ward.run(blob, digest, files(wc.HOSTILE), argv)
    sec = hostile.security()
    # what the hostile code found, from its stdout: its export is refused
    seen = json.loads(hostile.stdout or b"{}")
    check("hostile-no-secret", "root:" not in seen.get("shadow", "root:"),
          repr(seen.get("shadow")))
    check("hostile-no-network", seen.get("net") not in (None, "connected"),
          repr(seen.get("net")))
    check("hostile-symlink-not-exported",
          "passwd.txt" not in hostile.exported and
          ("passwd.txt", "symlink") in [tuple(x) for x in sec["export_refused"]],
          repr(sec["export_refused"]))
    check("hostile-nothing-exported", hostile.exported == {} and
          [m.get("status") for m in hostile.report.get("export") or []] == ["refused"],
          repr(hostile.exported))
    check("hostile-cleaned-up", sec["cleaned_up"], repr(hostile.report.get("cleanup")))

    right = ward.run(blob, digest, files(wc.RIGHT), argv)
    check("right-answer-exported", wc.revenue_is_right(right),
          repr(right.exported))
    man = (right.report.get("export") or [{}])[0]
    sums = {e["path"]: e["sha256"] for e in man.get("entries", [])
            if e.get("verdict") == "exported"}
    import hashlib
    check("manifest-digest", sums.get("revenue.json") ==
          hashlib.sha256(right.exported.get("revenue.json", b"")).hexdigest(),
          repr(sums))

    log = wc.solve(ward, blob, digest, [files(c) for c in (wc.WRONG, wc.HOSTILE, wc.RIGHT)],
                   argv, wc.revenue_is_right, retries=1)
    check("retries-bounded", len(log) == 2 and not log[-1]["task"]["ok"],
          "%d attempts" % len(log))

    tampered = os.path.join(tmp, "tampered.wardb")
    data = bytearray(open(blob, "rb").read())
    data[-1] ^= 1
    open(tampered, "wb").write(data)
    bad = ward.run(tampered, digest, files(wc.RIGHT), argv)
    check("digest-mismatch-refused", bad.exit_code == wc.WARD_REFUSED and
          b"digest" in bad.stderr.lower(), bad.stderr[:200])

sys.exit(1 if failed else 0)
