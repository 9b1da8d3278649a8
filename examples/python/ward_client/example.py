# SPDX-License-Identifier: MIT
"""The example of docs/agents.md: one task (revenue per region from a
CSV), three attempts at it: one that exits 0 with a wrong answer, one
that tries to escape, one that is right; and the task's own predicate."""

from __future__ import annotations

import json

from .client import Run

SALES = (b"region,units,price\nnorth,12,3.50\nsouth,7,4.25\n"
         b"north,3,3.50\neast,20,2.75\nsouth,11,4.25\n")
EXPECTED = {"east": 55.0, "north": 52.5, "south": 76.5}

# Exits 0 and writes a plausible but wrong answer (units, not revenue).
WRONG = b"""
import csv, json
rows = list(csv.DictReader(open("/input/sales.csv")))
out = {}
for r in rows:
    out[r["region"]] = out.get(r["region"], 0) + int(r["units"])
json.dump(out, open("/output/revenue.json", "w"))
"""

# Reads a host secret, phones home, plants an exported symlink.
HOSTILE = b"""
import os, socket, json
found = {}
try:
    found["shadow"] = open("/etc/shadow").read()[:20]
except OSError as e:
    found["shadow"] = str(e)
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(("127.0.0.1", 22))
    found["net"] = "connected"
except OSError as e:
    found["net"] = str(e)
os.symlink("/etc/passwd", "/output/passwd.txt")
json.dump(found, open("/output/revenue.json", "w"))
print(json.dumps(found))
"""

RIGHT = b"""
import csv, json
rows = list(csv.DictReader(open("/input/sales.csv")))
out = {}
for r in rows:
    out[r["region"]] = out.get(r["region"], 0) + int(r["units"]) * float(r["price"])
json.dump({k: round(v, 2) for k, v in out.items()}, open("/output/revenue.json", "w"))
"""

ATTEMPTS = (WRONG, HOSTILE, RIGHT)
ARGV = ("/usr/bin/python3", "/input/main.py")


def files(code: bytes) -> dict[str, bytes]:
    """The input slot of one attempt."""
    return {"sales.csv": SALES, "main.py": code}


def revenue_is_right(run: Run) -> bool:
    """The task's own predicate: the exported file has the right numbers
    (never the exit code)."""
    data = run.exported.get("revenue.json")
    if data is None:
        return False
    try:
        return bool(json.loads(data) == EXPECTED)
    except ValueError:
        return False
