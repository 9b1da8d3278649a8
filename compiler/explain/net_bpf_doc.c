/* SPDX-License-Identifier: MIT */
/*
 * net_bpf_doc.c: the allow-list's kernel programs and maps as `wardc
 * explain` shows them (net_bpf_doc.h). Read from the compiled policy, as
 * the launcher will load it; the names are the blob contract's
 * (common/net_layout.h).
 */
#include "net_bpf_doc.h"

#include "net_layout.h"

void ward_net_bpf_doc(struct ward_pool *pool, struct doc *net,
		      const struct ward_net_bpf *b)
{
	struct doc *progs = doc_add(net, "programs", doc_list(pool));
	struct doc *maps = doc_add(net, "maps", doc_map(pool));

	for (uint32_t i = 0; i < b->nprogs; i++) {
		struct doc *p = doc_add(progs, NULL, doc_map(pool));
		doc_set_str(pool, p, "hook",
			    ward_net_prog_name(b->progs[i].type,
					       b->progs[i].attach_type));
		doc_set_uint(pool, p, "instructions", b->progs[i].ninsns);
	}
	for (uint32_t i = 0; i < b->nmaps; i++) {
		const struct ward_net_map *m = &b->maps[i];
		struct doc *d =
		    doc_add(maps, ward_net_map_name(m->role), doc_map(pool));
		if (m->role == WARD_NET_MAP_DENIED) {
			doc_set_uint(pool, d, "destinations",
				     m->max_entries - 1);
			continue;
		}
		doc_set_uint(pool, d, "networks", m->nentries);
	}
}

void ward_net_bpf_text(FILE *out, const struct ward_net_bpf *b)
{
	fputs("  kernel programs on the run's cgroup (instructions):\n   ",
	      out);
	for (uint32_t i = 0; i < b->nprogs; i++)
		fprintf(out, " %s %u",
			ward_net_prog_name(b->progs[i].type,
					   b->progs[i].attach_type),
			b->progs[i].ninsns);
	fputs("\n  maps:", out);
	for (uint32_t i = 0; i < b->nmaps; i++) {
		const struct ward_net_map *m = &b->maps[i];
		if (m->role == WARD_NET_MAP_DENIED)
			fprintf(out,
				"%s denials of up to %u destinations, then "
				"one overflow counter",
				i ? ";" : "", m->max_entries - 1);
		else
			fprintf(out, "%s %s %u network%s", i ? ";" : "",
				ward_net_map_name(m->role), m->nentries,
				m->nentries == 1 ? "" : "s");
	}
	fputs("\n", out);
}
