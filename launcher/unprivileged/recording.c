/* SPDX-License-Identifier: MIT */
/*
 * recording.c: see recording.h.
 */
#include "recording.h"

#include "blob.h"
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#define SLOTS (WARD_REC_MAX * 2)

static uint32_t hash(int32_t nr, uint32_t arch, bool many, const uint64_t *args)
{
	uint64_t h = 1469598103934665603ull ^ (uint32_t)nr ^
		     ((uint64_t)arch << 32) ^ many;

	for (int i = 0; i < 6; i++)
		h = (h ^ args[i]) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 29)) % SLOTS;
}

/* The slot of the entry, or of the free place for it. */
static struct ward_rec_entry *slot(struct ward_recording *r, int32_t nr,
				   uint32_t arch, bool many,
				   const uint64_t *args)
{
	uint32_t i = hash(nr, arch, many, args);

	for (;;) {
		struct ward_rec_entry *e = &r->e[i];

		if (!e->used ||
		    (e->nr == nr && e->arch == arch && e->many == many &&
		     !memcmp(e->args, args, sizeof(e->args))))
			return e;
		i = (i + 1) % SLOTS; /* never full: n <= SLOTS / 2 */
	}
}

static uint32_t distinct(const struct ward_recording *r, int32_t nr,
			 uint32_t arch)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < SLOTS; i++)
		k += r->e[i].used && r->e[i].nr == nr && r->e[i].arch == arch &&
		     !r->e[i].many;
	return k;
}

static bool put(struct ward_recording *r, int32_t nr, uint32_t arch,
		uint32_t mask, bool many, const uint64_t *args)
{
	struct ward_rec_entry *e = slot(r, nr, arch, many, args);

	if (e->used) {
		e->count++;
		return true;
	}
	if (r->n == WARD_REC_MAX)
		return false;
	*e = (struct ward_rec_entry){.nr = nr,
				     .arch = arch,
				     .mask = many ? 0 : mask,
				     .many = many,
				     .used = true,
				     .count = 1};
	memcpy(e->args, args, sizeof(e->args));
	r->n++;
	return true;
}

void ward_rec_add(struct ward_recording *r, const struct seccomp_data *d,
		  uint32_t mask)
{
	static const uint64_t none[6];
	uint64_t args[6] = {0};
	struct ward_rec_entry *e;

	r->calls++;
	for (int i = 0; i < 6; i++)
		if (mask & (1u << i))
			args[i] = d->args[i];
	e = slot(r, d->nr, d->arch, false, args);
	/* A new set of arguments past the syscall's share: counted with
	 * the syscall's others (a scan only then, rare by design). */
	if (!e->used && mask &&
	    distinct(r, d->nr, d->arch) >= WARD_REC_PER_SYSCALL) {
		if (!put(r, d->nr, d->arch, 0, true, none))
			r->dropped++;
		return;
	}
	if (!put(r, d->nr, d->arch, mask, false, args))
		r->dropped++;
}

static void name_field(FILE *f, const char *key, int32_t nr,
		       const char *(*name)(int nr))
{
	const char *n = name(nr);

	fprintf(f, "\"%s\":", key);
	if (n)
		ward_json_str(f, n);
	else
		fprintf(f, "null");
	fprintf(f, ",\"nr\":%" PRId32, nr);
}

int ward_rec_write(FILE *f, const struct ward_recording *r,
		   const struct ward_policy *p,
		   const struct ward_broker_facts *facts,
		   const char *(*name)(int nr))
{
	fprintf(f, "{\"ward_record\":1,\"arch\":");
	ward_json_str(f, ward_arch_name(p->arch));
	fprintf(f, ",\"policy\":");
	ward_json_str(f, p->meta.policy_name ? p->meta.policy_name : "");
	fprintf(f, ",\"source_digest\":\"");
	for (int i = 0; i < 32; i++)
		fprintf(f, "%02x", p->meta.source_digest[i]);
	fprintf(f, "\"}\n");
	for (uint32_t i = 0; i < SLOTS; i++) {
		const struct ward_rec_entry *e = &r->e[i];

		if (!e->used)
			continue;
		fprintf(f, "{");
		name_field(f, "syscall", e->nr, name);
		fprintf(f, ",\"count\":%" PRIu64, e->count);
		if (e->arch != p->arch)
			fprintf(f, ",\"foreign_arch\":%" PRIu32, e->arch);
		if (e->many) {
			fprintf(f, ",\"args\":\"many\"");
		} else if (e->mask) {
			const char *sep = "";

			fprintf(f, ",\"args\":{");
			for (int k = 0; k < 6; k++)
				if (e->mask & (1u << k)) {
					fprintf(f, "%s\"%d\":%" PRIu64, sep, k,
						e->args[k]);
					sep = ",";
				}
			fprintf(f, "}");
		}
		fprintf(f, "}\n");
	}
	for (uint32_t i = 0; i < facts->nsys; i++) {
		const struct ward_syscall_record *s = &facts->sys[i];

		fprintf(f, "{");
		name_field(f, "refused", s->nr, name);
		fprintf(f, ",\"errno\":%" PRIu32 ",\"count\":%" PRIu64 "}\n",
			s->errno_nr, s->count);
	}
	fprintf(f,
		"{\"end\":{\"calls\":%" PRIu64 ",\"entries\":%" PRIu32
		",\"dropped\":%" PRIu64 ",\"refused_dropped\":%" PRIu64
		",\"throttled\":%" PRIu64 "}}\n",
		r->calls, r->n, r->dropped, facts->sys_dropped,
		facts->throttled);
	if (fflush(f) != 0 || ferror(f))
		return -1;
	return 0;
}
