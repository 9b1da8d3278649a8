# SPDX-License-Identifier: MIT
"""`python3 -m ward_client --self-test`."""

import sys

from .cli import main

sys.exit(main())
