/* SPDX-License-Identifier: MIT */
/*
 * report_net.h: the run report's record of what the sandbox tried
 * (docs/spec.md 4.8): the syscalls the broker refused and recorded, the
 * network attempts it saw, and which layers enforced the network.
 */
#ifndef WARD_REPORT_NET_H
#define WARD_REPORT_NET_H

#include "report.h"

#include <stdio.h>

/* The value of "denials": the kill, the recorded refusals, the refused
 * network attempts (the broker's and the cgroup programs'). */
void ward_report_denials(FILE *f, const struct ward_report *r);

/* The value of "network": its mode, its layers, every attempt the broker
 * saw; null when the blob was not read. */
void ward_report_network(FILE *f, const struct ward_report *r);

/* A relayed connection's object (docs/spec.md 5.11): its server name,
 * bytes each way and how it ended; null for a record not relayed. */
void ward_report_relay(FILE *f, const struct ward_net_record *n);

/* For `ward -v`: a line of what was refused, if anything was. */
void ward_report_denials_summary(FILE *f, const struct ward_report *r);

#endif
