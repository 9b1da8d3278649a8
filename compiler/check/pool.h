/* SPDX-License-Identifier: MIT */
/*
 * pool.h: a region allocator for the compiler's intermediate results. Every
 * allocation lives until the pool is freed; out of memory aborts, because
 * the compiler is a short-lived command-line tool with nothing to roll back.
 */
#ifndef WARD_POOL_H
#define WARD_POOL_H

#include <stddef.h>

struct ward_pool;

struct ward_pool *ward_pool_new(void);
void ward_pool_free(struct ward_pool *p);
/* Zeroed memory, aligned for any type. */
void *ward_pool_alloc(struct ward_pool *p, size_t size);
void *ward_pool_array(struct ward_pool *p, size_t n, size_t size);
char *ward_pool_strdup(struct ward_pool *p, const char *s);
char *ward_pool_printf(struct ward_pool *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A growable array of fixed-size items in the pool. */
struct ward_vec {
	void *items;
	size_t n, cap, size;
};
void *ward_vec_push(struct ward_pool *p, struct ward_vec *v, size_t size);

#endif
