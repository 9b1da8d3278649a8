/* SPDX-License-Identifier: MIT */
/*
 * net_bpf_doc.h: for `wardc explain`, what an allow-list's eBPF programs
 * and maps (compiler/codegen/net_bpf.h) hold: each program's hook and size,
 * and how many networks and denial counters the maps have room for.
 */
#ifndef WARD_NET_BPF_DOC_H
#define WARD_NET_BPF_DOC_H

#include "doc.h"
#include "policy.h"
#include "pool.h"

#include <stdio.h>

/* Under the network section of the document (net), and as text lines. */
void ward_net_bpf_doc(struct ward_pool *pool, struct doc *net,
		      const struct ward_net_bpf *b);
void ward_net_bpf_text(FILE *out, const struct ward_net_bpf *b);

#endif
