/* SPDX-License-Identifier: MIT */
#include "dnsname_match.h"

#include <string.h>

bool ward_dnsname_match(const char *pattern, const char *name)
{
	size_t pl, nl;

	if (strncmp(pattern, "*.", 2) != 0)
		return strcmp(pattern, name) == 0;
	pattern++; /* ".SUFFIX" */
	pl = strlen(pattern);
	nl = strlen(name);
	/* A label of at least one byte before ".SUFFIX". */
	return nl > pl && name[0] != '.' &&
	       strcmp(name + nl - pl, pattern) == 0;
}
