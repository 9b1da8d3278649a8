#!/usr/bin/env python3
"""tests/lint/check.py CASE.ward JSON RC: compare `wardc lint --format json`
output for one case with the expectations written in the case itself:

    # expect: W104 11:2                 a finding that is not suppressed
    # expect: W104 lib/frag.ward:7:2    ... in another file of the case
    # expect-suppressed: W104 11:2      a finding that is suppressed
    # expect-score: 1.1                 the exposure score ("none": fragment)
    # expect-exit: 1                    the exit status (default: 1 when an
                                        expected finding is an error, else 0)

The findings must be exactly the expected ones: a rule that fires where it
should not fails the case as surely as one that stays quiet. Prints one
line, "PASS lint/NAME" or "FAIL lint/NAME: why", and exits 1 on failure.
"""
import json
import os
import re
import sys


def main():
    case, out_path, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
    name = os.path.basename(case)[: -len(".ward")]
    base = os.path.basename(case)
    want, want_supp, score, want_rc = [], [], None, None
    for line in open(case, encoding="utf-8"):
        m = re.match(r"\s*# expect(-suppressed)?: (W\d{3}) (\S+)\s*$", line)
        if m:
            where = m.group(3)
            if where.count(":") == 1:
                where = base + ":" + where
            (want_supp if m.group(1) else want).append(m.group(2) + " " + where)
        m = re.match(r"\s*# expect-score: (\S+)\s*$", line)
        if m:
            score = m.group(1)
        m = re.match(r"\s*# expect-exit: (\d+)\s*$", line)
        if m:
            want_rc = int(m.group(1))
    if not want and not want_supp and score is None and name != "clean":
        print(f"FAIL lint/{name}: the case has no expectations")
        return 1
    try:
        doc = json.load(open(out_path, encoding="utf-8"))
        f = doc["files"][0]
    except (ValueError, KeyError, IndexError) as e:
        print(f"FAIL lint/{name}: no JSON report ({e})")
        return 1
    if "error" in f:
        print(f"FAIL lint/{name}: {f['error']}")
        return 1

    def key(x):
        return "%s %s:%d:%d" % (x["rule"], x.get("file", "?"), x.get("line", 0),
                                 x.get("column", 0))

    got = sorted(key(x) for x in f["findings"])
    got_supp = sorted(key(x) for x in f["suppressed"])
    errs = []
    if got != sorted(want):
        errs.append("findings %s, expected %s" % (got, sorted(want)))
    if got_supp != sorted(want_supp):
        errs.append("suppressed %s, expected %s" % (got_supp, sorted(want_supp)))
    for x in f["suppressed"]:
        if not x.get("justification"):
            errs.append("%s is suppressed without a justification" % key(x))
    if score is not None:
        got_score = "none" if f["score"] is None else "%.1f" % f["score"]
        if got_score != score:
            errs.append("score %s, expected %s" % (got_score, score))
    if want_rc is None:
        want_rc = 1 if any(x["severity"] == "error" for x in f["findings"]) else 0
    if rc != want_rc:
        errs.append("exit status %d, expected %d" % (rc, want_rc))
    if errs:
        print(f"FAIL lint/{name}: " + "; ".join(errs))
        return 1
    print(f"PASS lint/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
