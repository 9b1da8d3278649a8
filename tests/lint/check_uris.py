#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The artifact URIs of a SARIF log from `wardc lint`, for tests/lint/run.sh.

    check_uris.py LOG.sarif NAME      the log is valid UTF-8 JSON, and every
                                      result's URI is an RFC 3986 relative
                                      reference that decodes to NAME's bytes
                                      (a NAME that starts with / and is not
                                      below the working directory: a file:
                                      URI whose path decodes to it)
    check_uris.py --multitool OUT     Sarif.Multitool's output log reports
                                      nothing

Prints the URIs (or what is wrong) and exits 1 when something is.
"""

import json
import re
import sys
import urllib.parse

# RFC 3986, section 3.3 and 4.2: pchar = unreserved / pct-encoded /
# sub-delims / ":" / "@"; a relative reference's first segment has no ":"
# (path-noscheme), or it would read as a scheme.
PCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@:]|%[0-9A-Fa-f]{2})"
SEG_NC = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|%[0-9A-Fa-f]{2})+"
PATH_NOSCHEME = re.compile(r"%s(?:/%s*)*" % (SEG_NC, PCHAR))
# RFC 8089: file:///path, the path an RFC 3986 path-absolute
FILE_URI = re.compile(r"file://(/%s+(?:/%s*)*)" % (PCHAR, PCHAR))


def check_log(path, name):
    raw = open(path, "rb").read()
    raw.decode("utf-8")  # raises if the log is not UTF-8
    doc = json.loads(raw)
    want = name.encode("utf-8", "surrogateescape")
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"] for loc in r["locations"]}
    if not uris:
        return "no results"
    for u in uris:
        if want.startswith(b"/"):
            m = FILE_URI.fullmatch(u)
            if not m:
                return "%r is not an RFC 8089 file: URI" % u
            path = m.group(1)
        elif not PATH_NOSCHEME.fullmatch(u):
            return "%r is not an RFC 3986 relative reference" % u
        else:
            path = u
        if urllib.parse.unquote_to_bytes(path) != want:
            return "%r does not decode to the file's name" % u
    print(" ".join(sorted(uris)))
    return None


def check_multitool(path):
    doc = json.load(open(path))
    found = ["%s %s" % (r["ruleId"], r["message"].get("arguments"))
             for r in doc["runs"][0].get("results") or []]
    return "; ".join(found) if found else None


def main():
    if sys.argv[1] == "--multitool":
        why = check_multitool(sys.argv[2])
    else:
        why = check_log(sys.argv[1], sys.argv[2])
    if why:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
