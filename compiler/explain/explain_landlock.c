/* SPDX-License-Identifier: MIT */
/*
 * explain_landlock.c: the Landlock layer as explain shows it (see the
 * header).
 */
#include "explain_landlock.h"

#include "landlock_rules.h"
#include "util.h"

#include <string.h>

const char *ward_landlock_mode_name(uint32_t mode)
{
	static const char *const names[] = {"off", "prefer", "require"};

	return mode < ARRAY_LEN(names) ? names[mode] : "?";
}

/* The words, each for a group of rights that the language's mount
 * options grant together. */
static const struct {
	uint64_t bits;
	const char *word;
} words[] = {
    {WARD_LL_FS_READ_FILE | WARD_LL_FS_READ_DIR, "read"},
    {WARD_LL_FS_WRITE_FILE, "write"},
    {WARD_LL_FS_TRUNCATE, "truncate"},
    {WARD_LL_FS_MAKE_DIR | WARD_LL_FS_MAKE_REG | WARD_LL_FS_MAKE_SOCK |
	 WARD_LL_FS_MAKE_FIFO | WARD_LL_FS_MAKE_SYM,
     "create"},
    {WARD_LL_FS_REMOVE_DIR | WARD_LL_FS_REMOVE_FILE, "remove"},
    {WARD_LL_FS_REFER, "rename"},
    {WARD_LL_FS_EXECUTE, "exec"},
    {WARD_LL_FS_IOCTL_DEV, "ioctl-dev"},
    {WARD_LL_FS_MAKE_CHAR | WARD_LL_FS_MAKE_BLOCK, "mknod"},
};

const char *ward_landlock_rights(struct ward_pool *pool, uint64_t access)
{
	char buf[128] = "";

	for (size_t i = 0; i < ARRAY_LEN(words); i++)
		if (access & words[i].bits)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%s", buf[0] ? " " : "", words[i].word);
	return ward_pool_strdup(pool, buf[0] ? buf : "none");
}

static const char *const mode_text[] = {
    "off (`landlock off;`): the mount table alone is the file boundary",
    "prefer: applied with what the kernel's ABI knows, or not at all on "
    "a\n            kernel without Landlock; the report says which ABI",
    "require: the launcher refuses to run on a kernel below this ABI",
};

void ward_landlock_text(FILE *out, struct ward_pool *pool,
			const struct ward_policy *p)
{
	const struct ward_landlock *ll = &p->landlock;

	fputs("\nlandlock (the mount table's intent again, from inside)\n",
	      out);
	fprintf(out, "  mode      %s\n", mode_text[ll->mode]);
	if (ll->mode == WARD_LANDLOCK_OFF)
		return;
	fprintf(out,
		"  abi       %u for all of it; refused unless a rule allows: "
		"%s\n",
		ll->abi, ward_landlock_rights(pool, ll->handled_fs));
	if (ll->scoped)
		fprintf(out, "  scoped    %s%s%s (ABI 6)\n",
			ll->scoped & WARD_LL_SCOPE_SIGNAL ? "signals" : "",
			ll->scoped == WARD_LL_SCOPE_ALL ? ", " : "",
			ll->scoped & WARD_LL_SCOPE_ABSTRACT_UNIX
			    ? "abstract unix sockets"
			    : "");
	for (uint32_t i = 0; i < ll->nrules; i++) {
		const struct ward_landlock_rule *r = &ll->rules[i];
		uint32_t above = 0;
		uint64_t more = ward_landlock_wider(ll, i, &above);

		fprintf(out, "  %-24s %s%s\n", r->path,
			ward_landlock_rights(pool, r->access),
			r->flags & WARD_LL_R_OPTIONAL ? " (if mounted)" : "");
		if (more)
			fprintf(out,
				"  %-24s   not narrowed: %s's rule adds %s\n",
				"", ll->rules[above].path,
				ward_landlock_rights(pool, more));
	}
}

void ward_landlock_doc(struct doc *d, struct ward_pool *pool,
		       const struct ward_policy *p)
{
	const struct ward_landlock *ll = &p->landlock;
	struct doc *m = doc_add(d, "landlock", doc_map(pool)), *rules;

	doc_set_str(pool, m, "mode", ward_landlock_mode_name(ll->mode));
	if (ll->mode == WARD_LANDLOCK_OFF)
		return;
	doc_set_uint(pool, m, "abi", ll->abi);
	doc_set_str(pool, m, "handled",
		    ward_landlock_rights(pool, ll->handled_fs));
	doc_set_bool(pool, m, "scope_signals",
		     ll->scoped & WARD_LL_SCOPE_SIGNAL);
	doc_set_bool(pool, m, "scope_abstract_unix",
		     ll->scoped & WARD_LL_SCOPE_ABSTRACT_UNIX);
	rules = doc_add(m, "rules", doc_list(pool));
	for (uint32_t i = 0; i < ll->nrules; i++) {
		struct doc *x = doc_add(rules, NULL, doc_map(pool));
		uint32_t above = 0;
		uint64_t more = ward_landlock_wider(ll, i, &above);

		doc_set_str(pool, x, "path", ll->rules[i].path);
		doc_set_str(pool, x, "allow",
			    ward_landlock_rights(pool, ll->rules[i].access));
		doc_set_bool(pool, x, "optional",
			     ll->rules[i].flags & WARD_LL_R_OPTIONAL);
		if (more)
			doc_set_str(pool, x, "widened_by",
				    ll->rules[above].path);
	}
}
