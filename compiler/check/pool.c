/* SPDX-License-Identifier: MIT */
/*
 * pool.c: the compiler's region allocator (pool.h). Memory comes from
 * 64 KiB chunks (a larger allocation gets a chunk of its own) and is only
 * released with the whole pool, so that the checker and the code
 * generation can share pointers into one another's results freely and
 * free nothing on their error paths. Out of memory aborts: wardc is a
 * short-lived command with nothing to roll back.
 */
#include "pool.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL_CHUNK (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct ward_pool {
	struct chunk *head;
};

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fputs("wardc: out of memory\n", stderr);
		abort();
	}
	return p;
}

struct ward_pool *ward_pool_new(void)
{
	return xmalloc(sizeof(struct ward_pool));
}

void ward_pool_free(struct ward_pool *p)
{
	if (!p)
		return;
	for (struct chunk *c = p->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(p);
}

void *ward_pool_alloc(struct ward_pool *p, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct chunk *c;
	void *mem;

	size = (size + align - 1) & ~(align - 1);
	if (size == 0)
		size = align;
	c = p->head;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > POOL_CHUNK ? size : POOL_CHUNK;
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->next = p->head;
		p->head = c;
	}
	mem = (char *)c->data + c->used;
	c->used += size;
	return mem;
}

void *ward_pool_array(struct ward_pool *p, size_t n, size_t size)
{
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		fputs("wardc: out of memory\n", stderr);
		abort();
	}
	return ward_pool_alloc(p, total);
}

char *ward_pool_strdup(struct ward_pool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = ward_pool_alloc(p, n);
	memcpy(d, s, n);
	return d;
}

char *ward_pool_printf(struct ward_pool *p, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = ward_pool_alloc(p, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void *ward_vec_push(struct ward_pool *p, struct ward_vec *v, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void *items = ward_pool_array(p, cap, size);
		if (v->n)
			memcpy(items, v->items, v->n * size);
		v->items = items;
		v->cap = cap;
	}
	v->size = size;
	return (char *)v->items + v->n++ * size;
}
