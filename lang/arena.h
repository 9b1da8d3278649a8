/* SPDX-License-Identifier: MIT */
/*
 * arena.h: the memory of one parsed file.
 *
 * Every node of a file's syntax tree, every copied spelling and every name is
 * allocated from one arena and freed with it in one call. Chunks grow
 * geometrically, so a file of any size costs a handful of mallocs; names are
 * interned, so a name written a thousand times is stored once (and two
 * interned names are equal exactly when their pointers are).
 *
 * Allocation failure returns NULL; callers report it, nothing aborts.
 */
#ifndef WARD_ARENA_H
#define WARD_ARENA_H

#include <stddef.h>

struct ward_arena;

struct ward_arena *ward_arena_new(void);
void ward_arena_free(struct ward_arena *a);

/* size bytes, zeroed, aligned for any node of the tree. */
void *ward_arena_alloc(struct ward_arena *a, size_t size);
/* A copy of s[0..n) followed by a NUL byte (s may hold NULs). */
char *ward_arena_strndup(struct ward_arena *a, const char *s, size_t n);
/* The unique arena copy of s[0..n) (NUL-terminated). */
const char *ward_arena_intern(struct ward_arena *a, const char *s, size_t n);
/* Bytes handed out so far (for the benchmarks). */
size_t ward_arena_used(const struct ward_arena *a);

/* A growable array of pointers whose storage lives in the arena: the old
 * storage is abandoned when it grows, which at most doubles its cost. */
struct ward_list {
	void **items;
	size_t n, cap;
};

/* Append item; -1 when out of memory. */
int ward_list_push(struct ward_arena *a, struct ward_list *v, void *item);

#endif
