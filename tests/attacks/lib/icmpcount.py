#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Count ICMP and ICMPv6 echo requests arriving in the network namespace
it runs in (the test hosts of tests/attacks), since tests/net/testhost.py
logs only TCP and UDP.

    icmpcount.py LOG READY

LOG gets one line per echo request, flushed at once:
    icmp SRC DST            an IPv4 echo request
    icmp6 SRC               an IPv6 echo request
READY is created once both sockets are open.
"""
import select
import socket
import sys

log = open(sys.argv[1], "a")
v4 = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
v6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
open(sys.argv[2], "w").close()
while True:
    for s in select.select([v4, v6], [], [])[0]:
        data, peer = s.recvfrom(65535)
        if s is v4:
            ihl = (data[0] & 15) * 4
            if len(data) > ihl and data[ihl] == 8:  # echo request
                dst = socket.inet_ntop(socket.AF_INET, data[16:20])
                log.write("icmp %s %s\n" % (peer[0], dst))
        elif data and data[0] == 128:  # ICMPv6 echo request
            log.write("icmp6 %s\n" % peer[0])
        log.flush()
