#!/bin/sh
# The agents suite: docs/agents.md's loop through examples/ward_client.py,
# as root (the python profile has cgroup limits).
set -u
cd "$(dirname "$0")/../.." || exit 2
if [ "$(id -u)" != 0 ]; then
	echo "SKIP agents: needs root (cgroup limits)"
	exit 0
fi
exec timeout 600 python3 tests/agents/check.py
