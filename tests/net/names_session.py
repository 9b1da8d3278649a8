# SPDX-License-Identifier: MIT
"""tests/net/names_session.py WARD BLOB TOOLS: a relayed connection's
refusal is a denial of the cell that made it (docs/spec.md 5.11, 7.6).

Run by tests/net/names.sh inside its namespace, as root or as uid 65534:
one session under the names policy (the shell driver), cells 1 and 3 doing
nothing, cell 2 a TLS connection to index.test's address with server name
other.test (fronting, refused by the relay). Prints one line: "ok", or
what was wrong."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../examples/python"))
from ward_client.session import Session  # noqa: E402

ward, blob, tools = sys.argv[1:4]
with open(os.path.join(HERE, "../../launcher/session/python_driver.py")) as f:
    driver = ["python3", "-c", f.read(), "--shell"]
s = Session.start(blob, run_args=["--slot", "tools=" + tools], ward=ward,
                  driver=driver)
tls = "/usr/bin/python3 /tools/tlsprobe.py /tools/ca.pem index.test 443 other.test"
es = [s.run(c, timeout=20) for c in ("true", tls, "true")]
rep = s.stop()


def relays(e):
    return [d["relay"] for d in (e.raw.get("denials") or {}).get("network") or []
            if d.get("relay")]


want = {"server_name": "other.test", "sent": 0, "received": 0,
        "ended": "refused: another name's server"}
got = [relays(e) for e in es]
if got == [[], [want], []] and es[1].stdout.startswith(b"refused"):
    print("ok")
else:
    print("cells' relay denials %s; cell 2: %s" % (json.dumps(got), json.dumps(es[1].raw)[:300] + " " + json.dumps({k: (rep.get("run") or {}).get(k) for k in ("reason", "error", "denials", "exit_code", "signal")})[:900]))
