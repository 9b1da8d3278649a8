#!/bin/bash
# The shell profile's workload (tests/profiles/run.sh): word frequencies of
# the text files in the input slot, by a pipeline of the usual tools, into
# the output slot.
set -euo pipefail
export LC_ALL=C

find /input/text -type f -name '*.txt' -print0 | sort -z | xargs -0 cat >/tmp/all.txt
tr -cs 'A-Za-z' '\n' </tmp/all.txt | tr 'A-Z' 'a-z' | grep -v '^$' >/tmp/words

sort /tmp/words | uniq -c | sort -k1,1nr -k2,2 | head -n 10 |
	awk '{ print $2, $1 }' >/output/top.txt
{
	echo "words $(wc -l </tmp/words)"
	echo "distinct $(sort -u /tmp/words | wc -l)"
	echo "lines $(wc -l </tmp/all.txt)"
	echo "longest $(awk '{ print length, $0 }' /tmp/words | sort -k1,1nr -k2,2 | head -n 1 | cut -d' ' -f2)"
} >/output/summary.txt
sed -n '1p' /output/top.txt | cut -d' ' -f1
