/* SPDX-License-Identifier: MIT */
/*
 * doc.h: a small document tree (maps, lists, scalars) that the reports of
 * wardc (explain, diff, lint) build once and print as JSON or YAML.
 */
#ifndef WARD_DOC_H
#define WARD_DOC_H

#include "pool.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum doc_kind {
	DOC_NULL,
	DOC_BOOL,
	DOC_INT,
	DOC_UINT,
	DOC_STR,
	DOC_LIST,
	DOC_MAP,
	DOC_FIXED /* u / 10^i, printed with i decimals: 1.2 (lint's score) */
};

struct doc {
	enum doc_kind kind;
	const char *key; /* in a map */
	bool b;
	int64_t i;
	uint64_t u;
	const char *s;
	struct doc *first, *last, *next;
};

struct doc *doc_map(struct ward_pool *p);
struct doc *doc_list(struct ward_pool *p);
struct doc *doc_str(struct ward_pool *p, const char *s);
struct doc *doc_uint(struct ward_pool *p, uint64_t u);
struct doc *doc_int(struct ward_pool *p, int64_t i);
struct doc *doc_bool(struct ward_pool *p, bool b);
/* A number with a fixed count of decimals: doc_fixed(p, 12, 1) is 1.2. */
struct doc *doc_fixed(struct ward_pool *p, uint64_t units, unsigned decimals);

/* Add child to a list (key NULL) or a map; returns child. */
struct doc *doc_add(struct doc *parent, const char *key, struct doc *child);

/* Shorthands for maps. */
void doc_set_str(struct ward_pool *p, struct doc *m, const char *key,
		 const char *s);
void doc_set_uint(struct ward_pool *p, struct doc *m, const char *key,
		  uint64_t u);
void doc_set_bool(struct ward_pool *p, struct doc *m, const char *key, bool b);

/* Print; 0 or -1 (errno set). */
int doc_print_json(const struct doc *d, FILE *out);
int doc_print_yaml(const struct doc *d, FILE *out);

#endif
