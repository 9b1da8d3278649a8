#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ward_client.py: the ward client, run from the source tree.

    python3 examples/ward_client.py --self-test [--profile python] [--stream]

The client is the package in examples/python (docs/agents.md); this file
runs it without installing it. Installed (`pip install ./examples/python`),
the same command is `ward-client --self-test` or `python3 -m ward_client`.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "python"))

from ward_client.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
