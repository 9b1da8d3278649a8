/* SPDX-License-Identifier: MIT */
/*
 * symtab.h: a string-keyed hash table in a pool, for the checker's names
 * (constants, groups, hosts, environment variables, mount destinations).
 * Policies can be large (the parser is benchmarked on 100,000 lines), so
 * lookups must not be linear.
 */
#ifndef WARD_SYMTAB_H
#define WARD_SYMTAB_H

#include "pool.h"

#include <stddef.h>

struct ward_symtab {
	struct ward_pool *pool;
	struct ward_sym *slots;
	size_t cap, n;
	const char **order; /* keys in insertion order, for suggestions */
	size_t norder, order_cap;
};

struct ward_sym {
	const char *key;
	void *value;
};

void ward_symtab_init(struct ward_symtab *t, struct ward_pool *pool);
void *ward_symtab_get(const struct ward_symtab *t, const char *key);
/* Insert key; if it is already present, return its value and change
 * nothing; otherwise return NULL. */
void *ward_symtab_put(struct ward_symtab *t, const char *key, void *value);

#endif
