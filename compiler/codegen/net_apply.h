/* SPDX-License-Identifier: MIT */
/*
 * net_apply.h: what a `net` section implies for the rest of the policy,
 * added by code generation to the policy the checker laid out (docs/
 * spec.md part 5.1): socket() narrowed in the rule table to what the
 * network mode needs, /etc/hosts written from the pinned hosts, and the
 * allow-list's eBPF programs and map contents. The checker says what the
 * section means; this turns it into the rules, files and programs that
 * enforce it, as seccomp_gen.c turns the rule table into BPF.
 */
#ifndef WARD_NET_APPLY_H
#define WARD_NET_APPLY_H

#include "diag.h"
#include "sema.h"

/* Add them to c's policy (in c's pool, with their provenance in c->where).
 * c must have been checked without error: on a policy that is already
 * wrong the rule table may be incomplete. What cannot be done (socket()
 * rules too many to combine, an entry where /etc/hosts must go, an
 * allow-list too large for the maps) is reported in d. Returns 0, or -1
 * when it reported an error. */
int ward_net_apply(struct ward_checked *c, struct ward_diags *d);

#endif
