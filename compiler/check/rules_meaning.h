/* SPDX-License-Identifier: MIT */
/*
 * rules_meaning.h: what the parts of a rule table (policy.h's struct
 * ward_rules) mean, written once for every phase that reasons about them.
 * The checker sorts conjunctions and ranks actions, code generation
 * narrows socket() and orders its decision lists, explain and the importer
 * and exporters name actions and negate comparisons. A second copy of any
 * of these is a place where two phases can drift apart, and a sort order
 * that differs between the checker and the network's narrowing is a
 * correctness bug, not a style one.
 */
#ifndef WARD_RULES_MEANING_H
#define WARD_RULES_MEANING_H

#include "policy.h"
#include "pool.h"

#include <stdint.h>

/* The canonical order of the comparisons of a conjunction: by argument,
 * then operator, mask and value. A conjunction is stored sorted this way,
 * so that two that say the same compare equal byte for byte. */
int ward_cmp_order(const struct ward_cmp *a, const struct ward_cmp *b);
/* ward_cmp_order for qsort(). */
int ward_cmp_qsort(const void *a, const void *b);

/* The operator (enum ward_cmp_op) that holds exactly when op does not. */
uint8_t ward_cmp_negate(uint8_t op);

/* The language's strictness order (spec 1.7.6): 1 if a is stricter than
 * b, -1 if b is, 0 if they are the same action. Of two errno actions the
 * lower number counts as the stricter, so that the order is total. */
int ward_action_cmp(const struct ward_action *a, const struct ward_action *b);

/* Whether comparison c holds for an argument of value v. */
bool ward_cmp_holds(const struct ward_cmp *c, uint64_t v);

/* An action as the language writes it: "allow", "kill", "errno EPERM"
 * ("errno 300" for a number without a name). In pool when it is made. */
const char *ward_action_name(struct ward_pool *pool, struct ward_action a);

#endif
