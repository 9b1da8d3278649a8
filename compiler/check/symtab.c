/* SPDX-License-Identifier: MIT */
/*
 * symtab.c: the checker's string-keyed tables (symtab.h): open addressing
 * with linear probing over FNV-1a, kept at most half full, plus the keys in
 * insertion order, which the checker walks to report in source order and
 * to suggest names. Keys and values are the caller's (in the same pool);
 * nothing is ever removed.
 */
#include "symtab.h"

#include <stdint.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

void ward_symtab_init(struct ward_symtab *t, struct ward_pool *pool)
{
	memset(t, 0, sizeof(*t));
	t->pool = pool;
}

static struct ward_sym *find(const struct ward_symtab *t, const char *key)
{
	if (!t->cap)
		return NULL;
	for (size_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct ward_sym *s = &t->slots[i];
		if (!s->key || strcmp(s->key, key) == 0)
			return s;
	}
}

static void grow(struct ward_symtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct ward_sym *old = t->slots;
	size_t oldcap = t->cap;
	t->slots = ward_pool_array(t->pool, cap, sizeof(*t->slots));
	t->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key)
			*find(t, old[i].key) = old[i];
}

void *ward_symtab_get(const struct ward_symtab *t, const char *key)
{
	const struct ward_sym *s = find(t, key);
	return s && s->key ? s->value : NULL;
}

void *ward_symtab_put(struct ward_symtab *t, const char *key, void *value)
{
	struct ward_sym *s;

	if ((t->n + 1) * 2 > t->cap)
		grow(t);
	s = find(t, key);
	if (s->key)
		return s->value;
	s->key = key;
	s->value = value;
	t->n++;
	if (t->norder == t->order_cap) {
		size_t cap = t->order_cap ? t->order_cap * 2 : 16;
		const char **order =
		    ward_pool_array(t->pool, cap, sizeof(*order));
		if (t->norder)
			memcpy(order, t->order, t->norder * sizeof(*order));
		t->order = order;
		t->order_cap = cap;
	}
	t->order[t->norder++] = key;
	return NULL;
}
