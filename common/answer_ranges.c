/* SPDX-License-Identifier: MIT */
/* answer_ranges.c: see answer_ranges.h. */
#include "answer_ranges.h"

#include <string.h>

#define V4(a, b, c, d, len)                                                    \
	{                                                                      \
		4, len,                                                        \
		{                                                              \
			a, b, c, d                                             \
		}                                                              \
	}

const struct ward_net_prefix ward_answers_fixed[] = {
    V4(0, 0, 0, 0, 8),	   V4(127, 0, 0, 0, 8), V4(169, 254, 0, 0, 16),
    V4(224, 0, 0, 0, 3),   {6, 96, {0}}, /* ::/96: ::, ::1, ::a.b.c.d */
    {6, 10, {0xfe, 0x80}},		 /* fe80::/10 */
    {6, 8, {0xff}},			 /* ff00::/8 */
};
const size_t ward_answers_nfixed =
    sizeof(ward_answers_fixed) / sizeof(ward_answers_fixed[0]);

const struct ward_net_prefix ward_answers_private[] = {
    V4(10, 0, 0, 0, 8),	    V4(100, 64, 0, 0, 10), V4(172, 16, 0, 0, 12),
    V4(192, 168, 0, 0, 16), {6, 7, {0xfc}}, /* fc00::/7 */
};
const size_t ward_answers_nprivate =
    sizeof(ward_answers_private) / sizeof(ward_answers_private[0]);

size_t ward_prefix_embed(const struct ward_net_prefix *v4,
			 struct ward_net_prefix out[WARD_ANSWERS_EMBED])
{
	static const struct {
		uint8_t at, head[12]; /* the v4 address's byte offset */
	} forms[WARD_ANSWERS_EMBED] = {
	    {12, {[10] = 0xff, [11] = 0xff}}, /* ::ffff:a.b.c.d */
	    {12, {0x00, 0x64, 0xff, 0x9b}},   /* 64:ff9b::a.b.c.d */
	    {2, {0x20, 0x02}},		      /* 2002:AABB:CCDD:: */
	};

	for (size_t i = 0; i < WARD_ANSWERS_EMBED; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].family = 6;
		memcpy(out[i].addr, forms[i].head, forms[i].at);
		memcpy(out[i].addr + forms[i].at, v4->addr, 4);
		out[i].prefix = (uint8_t)(forms[i].at * 8 + v4->prefix);
	}
	return WARD_ANSWERS_EMBED;
}

bool ward_prefix_is_embedded(const struct ward_net_prefix *p)
{
	static const struct ward_net_prefix v4 = {4, 0, {0}};
	struct ward_net_prefix e[WARD_ANSWERS_EMBED];
	size_t n = ward_prefix_embed(&v4, e);

	for (size_t i = 0; i < n; i++)
		if (ward_prefix_covers(&e[i], p))
			return true;
	return false;
}

bool ward_prefix_has(const struct ward_net_prefix *p, uint8_t family,
		     const uint8_t addr[16])
{
	unsigned full = p->prefix / 8, rest = p->prefix % 8;

	if (p->family != family || memcmp(p->addr, addr, full) != 0)
		return false;
	return !rest ||
	       ((p->addr[full] ^ addr[full]) & (uint8_t)(0xff00 >> rest)) == 0;
}

bool ward_prefix_covers(const struct ward_net_prefix *outer,
			const struct ward_net_prefix *inner)
{
	return outer->prefix <= inner->prefix &&
	       ward_prefix_has(outer, inner->family, inner->addr);
}

bool ward_answer_refused(const struct ward_net *net, uint8_t family,
			 const uint8_t addr[16])
{
	for (uint32_t i = 0; i < net->nrefused; i++)
		if (ward_prefix_has(&net->refused[i], family, addr))
			return true;
	return false;
}

size_t ward_prefix_subtract(const struct ward_net_prefix *p,
			    const struct ward_net_prefix *holes, size_t nholes,
			    struct ward_net_prefix *out, size_t max)
{
	bool touches = false;
	struct ward_net_prefix half[2];
	size_t n;

	for (size_t i = 0; i < nholes; i++) {
		if (ward_prefix_covers(&holes[i], p))
			return 0;
		if (ward_prefix_covers(p, &holes[i]))
			touches = true;
	}
	if (!touches) {
		if (max)
			out[0] = *p;
		return 1;
	}
	half[0] = half[1] = *p;
	half[0].prefix = half[1].prefix = (uint8_t)(p->prefix + 1);
	half[1].addr[p->prefix / 8] |= (uint8_t)(0x80 >> (p->prefix % 8));
	n = ward_prefix_subtract(&half[0], holes, nholes, out, max);
	return n + ward_prefix_subtract(&half[1], holes, nholes,
					out + (n < max ? n : max),
					max > n ? max - n : 0);
}

size_t ward_answers_opened(const struct ward_net *net,
			   struct ward_net_prefix *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ward_answers_nprivate; i++)
		n += ward_prefix_subtract(
		    &ward_answers_private[i], net->refused, net->nrefused,
		    out + (n < max ? n : max), max > n ? max - n : 0);
	return n;
}
