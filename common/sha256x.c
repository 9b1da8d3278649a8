/* SPDX-License-Identifier: MIT */
/*
 * sha256x.c: see sha256x.h. The SHA-NI rounds follow Intel's reference
 * (the sha256rnds2/msg1/msg2 schedule of "Intel SHA Extensions", 2013):
 * four rounds per group, the message schedule computed three groups
 * ahead.
 */
#include "sha256x.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define NI __attribute__((target("sha,sse4.1,ssse3")))

/* Blocks of 64 bytes into state. */
NI static void blocks(uint32_t state[8], const uint8_t *p, size_t n)
{
	const __m128i mask =
	    _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i s0, s1, t, msg, m[4], abef, cdgh;

	t = _mm_loadu_si128((const __m128i *)&state[0]);
	s1 = _mm_loadu_si128((const __m128i *)&state[4]);
	t = _mm_shuffle_epi32(t, 0xB1);	   /* CDAB */
	s1 = _mm_shuffle_epi32(s1, 0x1B);  /* EFGH */
	s0 = _mm_alignr_epi8(t, s1, 8);	   /* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xF0); /* CDGH */
	for (; n >= 64; n -= 64, p += 64) {
		abef = s0;
		cdgh = s1;
		for (int g = 0; g < 16; g++) {
			__m128i *cur = &m[g & 3], *next = &m[(g + 1) & 3],
				*prev = &m[(g + 3) & 3];

			if (g < 4)
				*cur = _mm_shuffle_epi8(
				    _mm_loadu_si128(
					(const __m128i *)(p + 16 * g)),
				    mask);
			msg = _mm_add_epi32(
			    *cur, _mm_loadu_si128((const __m128i *)&K[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, msg);
			if (g >= 3 && g <= 14) {
				/* the schedule of group g + 1 */
				t = _mm_alignr_epi8(*cur, *prev, 4);
				*next = _mm_add_epi32(*next, t);
				*next = _mm_sha256msg2_epu32(*next, *cur);
			}
			msg = _mm_shuffle_epi32(msg, 0x0E);
			s0 = _mm_sha256rnds2_epu32(s0, s1, msg);
			if (g >= 1 && g <= 12) /* its first half, g + 3's */
				*prev = _mm_sha256msg1_epu32(*prev, *cur);
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1B);   /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xB1);  /* DCHG */
	s0 = _mm_blend_epi16(t, s1, 0xF0); /* DCBA */
	s1 = _mm_alignr_epi8(s1, t, 8);	   /* ABEF */
	_mm_storeu_si128((__m128i *)&state[0], s0);
	_mm_storeu_si128((__m128i *)&state[4], s1);
}

/* Asked of cpuid itself, not __builtin_cpu_supports: clang 14 (the fuzz
 * build's compiler) knows no "sha" feature string. */
bool ward_sha256x_ni(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) ||
	    !(c & bit_SSSE3))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#else
static void blocks(uint32_t state[8], const uint8_t *p, size_t n)
{
	(void)state;
	(void)p;
	(void)n;
}

bool ward_sha256x_ni(void)
{
	return false;
}
#endif

void ward_sha256x_init(struct ward_sha256x *h)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};

	memset(h, 0, sizeof(*h));
	h->ni = ward_sha256x_ni();
	if (!h->ni) {
		ward_sha256_init(&h->soft);
		return;
	}
	memcpy(h->state, iv, sizeof(iv));
}

void ward_sha256x_update(struct ward_sha256x *h, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!h->ni) {
		ward_sha256_update(&h->soft, data, len);
		return;
	}
	h->total += len;
	if (h->nbuf) {
		size_t k = 64 - h->nbuf < len ? 64 - h->nbuf : len;

		memcpy(h->buf + h->nbuf, p, k);
		h->nbuf += k;
		p += k;
		len -= k;
		if (h->nbuf < 64)
			return;
		blocks(h->state, h->buf, 64);
		h->nbuf = 0;
	}
	blocks(h->state, p, len & ~(size_t)63);
	p += len & ~(size_t)63;
	len &= 63;
	memcpy(h->buf, p, len);
	h->nbuf = len;
}

void ward_sha256x_final(struct ward_sha256x *h, uint8_t out[32])
{
	uint64_t bits = h->total * 8;
	uint8_t pad[72] = {0x80};
	size_t npad = (h->nbuf < 56 ? 56 : 120) - h->nbuf;

	if (!h->ni) {
		ward_sha256_final(&h->soft, out);
		return;
	}
	for (int i = 0; i < 8; i++)
		pad[npad + i] = (uint8_t)(bits >> (56 - 8 * i));
	ward_sha256x_update(h, pad, npad + 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(h->state[i] >> 24);
		out[4 * i + 1] = (uint8_t)(h->state[i] >> 16);
		out[4 * i + 2] = (uint8_t)(h->state[i] >> 8);
		out[4 * i + 3] = (uint8_t)h->state[i];
	}
}
