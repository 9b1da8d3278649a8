/* SPDX-License-Identifier: MIT */
/*
 * dnsname.h: domain names in allow rules (`allow tcp name "x" port 443;`):
 * their normal form, and the public suffix list that keeps a wildcard from
 * covering a whole registry (docs/spec.md 1.7.4).
 */
#ifndef WARD_DNSNAME_H
#define WARD_DNSNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "dnsname_match.h"

#define WARD_DNSNAME_MAX  253 /* RFC 1035: a name, without the root dot */
#define WARD_DNSLABEL_MAX 63  /* RFC 1035: a label */

/* Where wardc reads the list (Debian's publicsuffix package); the
 * environment variable WARDC_PUBLIC_SUFFIX_LIST names another file (the
 * tests use it to check the refusal when the list is missing). */
#define WARD_PSL_PATH "/usr/share/publicsuffix/public_suffix_list.dat"

/*
 * Normalise `in` (len bytes, as written) into out (at least
 * WARD_DNSNAME_MAX + 1 bytes): lower case, one trailing dot dropped.
 * Returns 0, or -1 with *why saying what is wrong in words and *help a fix
 * (or NULL). A leading "*." makes a wildcard; `*` anywhere else, an empty
 * label, a byte outside letters, digits and `-` (in particular any byte
 * of 0x80 and above: internationalised names are written in their
 * punycode form), a label that starts or ends with `-`, or a length past
 * RFC 1035's is refused.
 */
int ward_dnsname_normalise(const char *in, size_t len, char *out,
			   const char **why, const char **help);

/* The public suffix list, loaded once. */
struct ward_psl;

/* Load the list at path (NULL: $WARDC_PUBLIC_SUFFIX_LIST, else
 * WARD_PSL_PATH). NULL if it cannot be read. */
struct ward_psl *ward_psl_load(const char *path);
void ward_psl_free(struct ward_psl *);

/* Is the normalised name a public suffix (a rule of the list, a name a
 * wildcard rule covers and no exception rule excepts), or one of the TLDs
 * RFC 2606 and 6761 reserve (test, example, invalid, localhost)? */
bool ward_psl_is_suffix(const struct ward_psl *, const char *name);

#endif
