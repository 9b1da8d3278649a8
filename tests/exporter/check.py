#!/usr/bin/env python3
"""tests/exporter/check.py NAME OUT.json EXPR...: evaluate each EXPR (Python)
on the output of `exportctl run` (or `export`) and print one line, "PASS
exporter/NAME" or "FAIL exporter/NAME: the first expression that is false".

In the expressions: m is the manifest, d the diff, w the workspace (None
for `export`), r the whole run report (None for `export`), e(PATH) the manifest entry of PATH (None if absent),
why(PATH) its reason, verdict(PATH) its verdict, exported() the sorted
paths exported. The output must be valid JSON, with no raw control byte.
"""
import json
import sys


def main():
    name, path, exprs = sys.argv[1], sys.argv[2], sys.argv[3:]
    raw = open(path, "rb").read()
    bad = [b for b in raw.rstrip(b"\n") if b < 0x20]
    if bad:
        print("FAIL exporter/%s: raw control bytes in the output: %r" % (name, bad[:5]))
        return 1
    try:
        doc = json.loads(raw)
    except ValueError as err:
        print("FAIL exporter/%s: not JSON: %s" % (name, err))
        return 1
    m = doc.get("manifest", doc)
    d = doc.get("diff")
    w = doc.get("workspace")
    r = doc.get("report")
    entries = {x["path"]: x for x in m["entries"]}

    def e(p):
        return entries.get(p)

    def why(p):
        return (entries.get(p) or {}).get("reason")

    def verdict(p):
        return (entries.get(p) or {}).get("verdict")

    def exported():
        return sorted(x["path"] for x in m["entries"] if x["verdict"] == "exported")

    env = dict(m=m, d=d, w=w, r=r, e=e, why=why, verdict=verdict, exported=exported)
    for x in exprs:
        try:
            ok = eval(x, env)
        except Exception as err:  # a missing key is a failure too
            ok = False
            x = "%s (%s: %s)" % (x, type(err).__name__, err)
        if not ok:
            print("FAIL exporter/%s: %s" % (name, x))
            return 1
    print("PASS exporter/%s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
