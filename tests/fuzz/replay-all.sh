#!/bin/sh
# The fuzz suite of `make check`: every target's corpus replayed under
# ASan/UBSan (no libFuzzer needed).
exec sh "$(dirname "$0")/run.sh" fuzz-replay
