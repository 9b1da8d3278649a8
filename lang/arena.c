/* SPDX-License-Identifier: MIT */
/* arena.c: chunked allocation and name interning for one parsed file. */
#include "arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ALIGN		 8u
#define FIRST_CHUNK	 (16u * 1024)
#define MAX_CHUNK	 (8u * 1024 * 1024)
#define INTERN_MIN_SLOTS 256u
/* Chunks this large are mapped on their own, in huge pages where the
 * kernel allows: a big file's tree then costs a few page faults, not
 * thousands. */
#define HUGE_PAGE (2u * 1024 * 1024)

struct chunk {
	struct chunk *next;
	size_t size, used;
	size_t mapped; /* bytes mapped (0: from malloc) */
	_Alignas(ALIGN) char data[];
};

struct intern_slot {
	const char *s; /* NULL: empty slot */
	uint32_t len, hash;
};

struct ward_arena {
	struct chunk *head;
	size_t next_size; /* of the next chunk: grows to MAX_CHUNK */
	size_t used;
	struct intern_slot *slots;
	size_t nslots, ninterned;
};

struct ward_arena *ward_arena_new(void)
{
	struct ward_arena *a = calloc(1, sizeof(*a));
	if (a)
		a->next_size = FIRST_CHUNK;
	return a;
}

static struct chunk *chunk_new(size_t size)
{
	size_t total = sizeof(struct chunk) + size;
	char *p;
	uintptr_t at;
	size_t head;
	struct chunk *c;

	if (total < HUGE_PAGE) {
		c = malloc(total);
		if (c)
			c->mapped = 0;
		return c;
	}
	total = (total + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	/* map one huge page more than needed and trim it to alignment */
	p = mmap(NULL, total + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	head = at - (uintptr_t)p;
	if (head)
		munmap(p, head);
	if (HUGE_PAGE - head)
		munmap((char *)at + total, HUGE_PAGE - head);
	madvise((void *)at, total, MADV_HUGEPAGE);
	c = (struct chunk *)at;
	c->mapped = total;
	return c;
}

static void chunk_free(struct chunk *c)
{
	if (c->mapped)
		munmap(c, c->mapped);
	else
		free(c);
}

void ward_arena_free(struct ward_arena *a)
{
	struct chunk *c;

	if (!a)
		return;
	c = a->head;
	while (c) {
		struct chunk *next = c->next;
		chunk_free(c);
		c = next;
	}
	free(a->slots);
	free(a);
}

/* Room for size bytes at the given alignment, not zeroed. */
static void *arena_take(struct ward_arena *a, size_t size, size_t align)
{
	struct chunk *c = a->head;
	size_t want;
	bool own;
	struct chunk *n;

	if (c) {
		size_t at = (c->used + align - 1) & ~(align - 1);
		if (at <= c->size && size <= c->size - at) {
			c->used = at + size;
			a->used += size;
			return c->data + at;
		}
	}
	/* A large request gets a chunk of its own, kept behind the current
	 * one so that the current chunk's free space is not wasted. */
	want = a->next_size;
	own = size > want / 4;
	if (own)
		want = size;
	n = chunk_new(want);
	if (!n)
		return NULL;
	n->size = want;
	n->used = size;
	if (own && c) {
		n->next = c->next;
		c->next = n;
	} else {
		n->next = c;
		a->head = n;
		if (a->next_size < MAX_CHUNK)
			a->next_size *= 2;
	}
	a->used += size;
	return n->data;
}

void *ward_arena_alloc(struct ward_arena *a, size_t size)
{
	void *p = arena_take(a, size ? size : 1, ALIGN);
	if (p)
		memset(p, 0, size);
	return p;
}

char *ward_arena_strndup(struct ward_arena *a, const char *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		return NULL;
	p = arena_take(a, n + 1, 1);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static int intern_grow(struct ward_arena *a)
{
	size_t nslots = a->nslots ? a->nslots * 2 : INTERN_MIN_SLOTS;
	struct intern_slot *slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t i = 0; i < a->nslots; i++) {
		const struct intern_slot *old = &a->slots[i];
		size_t j;

		if (!old->s)
			continue;
		j = old->hash & (nslots - 1);
		while (slots[j].s)
			j = (j + 1) & (nslots - 1);
		slots[j] = *old;
	}
	free(a->slots);
	a->slots = slots;
	a->nslots = nslots;
	return 0;
}

const char *ward_arena_intern(struct ward_arena *a, const char *s, size_t n)
{
	uint32_t h;
	size_t j;
	char *copy;

	if (n > UINT32_MAX)
		return NULL;
	if ((a->ninterned + 1) * 4 > a->nslots * 3 && intern_grow(a) < 0)
		return NULL;
	h = hash_bytes(s, n);
	j = h & (a->nslots - 1);
	for (; a->slots[j].s; j = (j + 1) & (a->nslots - 1)) {
		const struct intern_slot *e = &a->slots[j];
		if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
			return e->s;
	}
	copy = ward_arena_strndup(a, s, n);
	if (!copy)
		return NULL;
	a->slots[j] = (struct intern_slot){copy, (uint32_t)n, h};
	a->ninterned++;
	return copy;
}

size_t ward_arena_used(const struct ward_arena *a)
{
	return a->used;
}

int ward_list_push(struct ward_arena *a, struct ward_list *v, void *item)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4;
		void **items = arena_take(a, cap * sizeof(*items), ALIGN);
		if (!items)
			return -1;
		if (v->n)
			memcpy(items, v->items, v->n * sizeof(*items));
		v->items = items;
		v->cap = cap;
	}
	v->items[v->n++] = item;
	return 0;
}
