/* SPDX-License-Identifier: MIT */
/*
 * broker_facts.c: see broker_facts.h.
 */
#include "broker_facts.h"

#include <stddef.h>
#include <string.h>

/* The packed order: each segment's fixed fields [from, to), then the
 * array at to (entries of size, cap of them) cut to the uint32_t count at
 * count; the last segment has no array. */
#define AT(field) offsetof(struct ward_broker_facts, field)
#define NO_ARRAY  SIZE_MAX
static const struct {
	size_t from, to, count, size, cap;
} segs[] = {
    {AT(ran), AT(sys), AT(nsys), sizeof(struct ward_syscall_record),
     WARD_RECORD_SYSCALLS},
    {AT(nnet), AT(net), AT(nnet), sizeof(struct ward_net_record),
     WARD_RECORD_NET},
    {AT(ndns), AT(dns), AT(ndns), sizeof(struct ward_dns_record),
     WARD_RECORD_DNS},
    {AT(error), sizeof(struct ward_broker_facts), NO_ARRAY, 0, 0},
};
#define NSEGS (sizeof(segs) / sizeof(segs[0]))

_Static_assert(NSEGS * 2 - 1 == WARD_BROKER_FACTS_IOV,
	       "a fixed part and an array for each segment but the last");
_Static_assert(offsetof(struct ward_broker_facts, error) +
		       sizeof(((struct ward_broker_facts *)0)->error) ==
		   sizeof(struct ward_broker_facts),
	       "error is the struct's last field");

static uint32_t count_of(const void *base, size_t off)
{
	uint32_t n;

	memcpy(&n, (const char *)base + off, sizeof(n));
	return n;
}

/* The array after segment i: where it is in the struct. */
static size_t array_at(size_t i)
{
	return segs[i].to;
}

int ward_broker_facts_iov(const struct ward_broker_facts *f,
			  struct iovec iov[WARD_BROKER_FACTS_IOV])
{
	int n = 0;

	for (size_t i = 0; i < NSEGS; i++) {
		iov[n++] = (struct iovec){(char *)f + segs[i].from,
					  segs[i].to - segs[i].from};
		if (segs[i].count == NO_ARRAY)
			continue;
		uint32_t k = count_of(f, segs[i].count);

		if (k > segs[i].cap)
			k = (uint32_t)segs[i].cap;
		iov[n++] = (struct iovec){(char *)f + array_at(i),
					  (size_t)k * segs[i].size};
	}
	return n;
}

static void clear(struct ward_broker_facts *f)
{
	for (size_t i = 0; i < NSEGS; i++)
		memset((char *)f + segs[i].from, 0, segs[i].to - segs[i].from);
}

bool ward_broker_facts_take(const struct ward_broker_carried *c,
			    struct ward_broker_facts *f)
{
	const unsigned char *p = c->bytes;
	size_t left = c->records && c->len <= sizeof(c->bytes) ? c->len : 0;

	clear(f);
	if (!left)
		return false;
	for (size_t i = 0; i < NSEGS; i++) {
		size_t fixed = segs[i].to - segs[i].from, arr;

		if (left < fixed)
			goto bad;
		memcpy((char *)f + segs[i].from, p, fixed);
		p += fixed;
		left -= fixed;
		if (segs[i].count == NO_ARRAY)
			continue;
		uint32_t k = count_of(f, segs[i].count);

		arr = (size_t)k * segs[i].size;
		if (k > segs[i].cap || left < arr)
			goto bad;
		memcpy((char *)f + array_at(i), p, arr);
		p += arr;
		left -= arr;
	}
	if (left)
		goto bad;
	f->records = true;
	f->error[sizeof(f->error) - 1] = '\0';
	return true;
bad:
	clear(f);
	return false;
}
