/* SPDX-License-Identifier: MIT */
/*
 * record_gen.c: see record_gen.h.
 */
#include "record_gen.h"

#include "danger.h"
#include "syscall_args.h"
#include "syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The arguments that decide what a call does, so that a policy conditions
 * on them (docs/spec.md 4.9): families, flags, requests, options. The
 * others are descriptors, pointers and sizes, which no policy can
 * condition on usefully. */
static const struct {
	const char *syscall;
	const char *args[3];
} logged[] = {
    {"arch_prctl", {"code"}},
    {"clone", {"flags"}},
    {"fcntl", {"cmd"}},
    {"getsockopt", {"level", "optname"}},
    {"ioctl", {"request"}},
    {"personality", {"persona"}},
    {"prctl", {"option"}},
    {"setsockopt", {"level", "optname"}},
    {"socket", {"domain", "type", "protocol"}},
    {"socketpair", {"domain", "type", "protocol"}},
};

uint32_t ward_record_arg_mask(const char *syscall, uint32_t arch)
{
	uint32_t mask = 0;

	for (size_t i = 0; i < ARRAY_LEN(logged); i++) {
		if (strcmp(logged[i].syscall, syscall))
			continue;
		for (size_t k = 0; k < 3 && logged[i].args[k]; k++) {
			int idx = ward_syscall_arg_index(
			    syscall, logged[i].args[k], arch);
			if (idx >= 0)
				mask |= 1u << idx;
		}
	}
	return mask;
}

static int by_nr(const void *a, const void *b)
{
	const struct ward_syscall_rule *x = a, *y = b;

	return (x->nr > y->nr) - (x->nr < y->nr);
}

int ward_record_rules(struct ward_pool *pool, uint32_t arch,
		      struct ward_rules *rules, ward_err *err)
{
	const struct ward_action refuse = {WARD_ACT_ERRNO, EPERM,
					   WARD_VIA_RECORD};
	size_t n = ward_sys_count(), k = 0;
	struct ward_syscall_rule *out = ward_pool_array(pool, n, sizeof(*out));

	if (!out)
		return ward_fail(err, ENOMEM, "record: the rule table");
	for (size_t i = 0; i < n; i++) {
		const char *name = ward_sys_name_at(i);
		int32_t nr = ward_sys_nr(arch, name);
		struct ward_syscall_rule *r;

		if (nr < 0)
			continue;
		r = &out[k++];
		*r = (struct ward_syscall_rule){
		    .nr = nr, .name = name, .has_fallback = true};
		if (!strcmp(name, "clone3")) {
			r->fallback = (struct ward_action){
			    WARD_ACT_ERRNO, ENOSYS, WARD_VIA_RECORD};
		} else if (ward_danger_syscall(name)) {
			r->fallback = refuse;
		} else if (!strcmp(name, "execve")) {
			/* The target's own execve comes before the broker has
			 * the listener (init hands it over once the target
			 * has exec'd): allowed without a word. Every record
			 * holds it all the same (`wardc suggest`). */
			r->fallback = (struct ward_action){WARD_ACT_ALLOW, 0,
							   WARD_VIA_NONE};
		} else {
			r->fallback = (struct ward_action){
			    WARD_ACT_ALLOW, ward_record_arg_mask(name, arch),
			    WARD_VIA_OBSERVE};
		}
		if (!strcmp(name, "clone")) {
			struct ward_cmp *c = ward_pool_alloc(pool, sizeof(*c));
			struct ward_cond_rule *cr =
			    ward_pool_alloc(pool, sizeof(*cr));
			if (!c || !cr)
				return ward_fail(err, ENOMEM,
						 "record: the rule table");
			/* flags is argument 0 on both targets. */
			*c = (struct ward_cmp){
			    .arg = 0,
			    .op = WARD_CMP_MASKED_NE,
			    .mask = WARD_DANGER_CLONE_NS,
			    .value = 0,
			};
			*cr = (struct ward_cond_rule){c, 1, refuse};
			r->conds = cr;
			r->nconds = 1;
		}
	}
	qsort(out, k, sizeof(*out), by_nr);
	/* Two spellings of one number (an alias): the first one's rule. */
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (!m || out[i].nr != out[m - 1].nr)
			out[m++] = out[i];
	rules->syscalls = out;
	rules->nsyscalls = (uint32_t)m;
	return 0;
}
