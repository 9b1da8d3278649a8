# SPDX-License-Identifier: MIT
"""`ward-client --self-test [--profile python]` (or `python3 -m
ward_client`, or `python3 examples/ward_client.py` in the source tree):
the example of docs/agents.md, run for real; one JSON object out."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import List, Optional

from . import example
from .client import Chunk, Ward, solve
from .locate import ProfileNotFound, find_profile, find_tool


def self_test(args: argparse.Namespace) -> int:
    ward = Ward(args.ward, args.wardc, args.include)
    try:
        source = find_profile(args.profile, args.wardc, args.include)
    except ProfileNotFound as e:
        print("ward-client: %s" % e, file=sys.stderr)
        return 2

    def stream(attempt: int, chunk: Chunk) -> None:
        for line in chunk.data.decode(errors="replace").splitlines():
            print("[attempt %d %s] %s" % (attempt, chunk.stream, line),
                  file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="ward-client-blob-") as tmp:
        blob = os.path.join(tmp, "profile.wardb")
        try:
            digest = ward.compile(source, blob)
            budget = ward.budget(blob, args.retries, args.queue)
        except (OSError, subprocess.CalledProcessError) as e:
            print("ward-client: cannot compile %s: %s" % (source, e),
                  file=sys.stderr)
            return 2
        log = solve(ward, blob, digest,
                    [example.files(c) for c in example.ATTEMPTS],
                    list(example.ARGV), example.revenue_is_right,
                    retries=args.retries,
                    on_output=stream if args.stream else None)
        result = {"profile": os.path.abspath(source),
                  "profile_digest": digest,
                  "budget_s": budget.worst_s,
                  "budget": {"retries": budget.retries,
                             "queue_s": budget.queue_s,
                             "run_s": budget.run_s,
                             "worst_s": budget.worst_s},
                  "attempts": log}
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0 if log and log[-1]["task"]["ok"] else 1


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="ward-client",
        description="Run the agents guide's loop under ward (docs/agents.md).")
    ap.add_argument("--self-test", action="store_true", required=True,
                    help="run the example: three attempts at one task")
    ap.add_argument("--ward", default=find_tool("ward"),
                    help="the launcher (default: on PATH, else this "
                    "source tree's build)")
    ap.add_argument("--wardc", default=find_tool("wardc"),
                    help="the compiler (default: on PATH, else this "
                    "source tree's build)")
    ap.add_argument("--profile", default="python",
                    help="a profile's source file, or its name, found on "
                    "wardc's search path: the -I directories, $WARD_PATH, "
                    "then wardc's stdlib (default: python)")
    ap.add_argument("-I", dest="include", action="append", default=[],
                    metavar="DIR",
                    help="add DIR to the search path, as wardc -I")
    ap.add_argument("--retries", type=int, default=3,
                    help="corrections after the first attempt, at most "
                    "(default: 3)")
    ap.add_argument("--queue", default="12s",
                    help="the budget's waiting and start-up time, as wardc "
                    "explain --queue takes it (default: 12s)")
    ap.add_argument("--stream", action="store_true",
                    help="print each attempt's stdout and stderr on "
                    "stderr as they arrive")
    return self_test(ap.parse_args(argv))
