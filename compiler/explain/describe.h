/* SPDX-License-Identifier: MIT */
/*
 * describe.h: a compiled policy's parts in words, as a reviewer reads them;
 * shared by `wardc explain` and `wardc diff`. Every function returns a
 * string in the pool.
 */
#ifndef WARD_DESCRIBE_H
#define WARD_DESCRIBE_H

#include "policy.h"
#include "pool.h"

#include <stdbool.h>

const char *describe_arch(uint32_t arch);

/* The name of limit k as the language writes it ("memory"), and its value
 * with its unit. */
const char *describe_limit_name(enum ward_limit k);
const char *describe_limit_value(struct ward_pool *p, enum ward_limit k,
				 uint64_t v);
/* Is a larger value of k a wider policy? (All limits: yes.) */

const char *describe_mount_kind(uint32_t kind);
/* "ro,exec,nosuid,nodev" and the like. */
const char *describe_mount_flags(struct ward_pool *p,
				 const struct ward_mount *m);
/* Everything about a mount but its destination: "bind /usr ro,exec". */
const char *describe_mount(struct ward_pool *p, const struct ward_mount *m);

/* "arg0 (domain) == 0x1" */
const char *describe_cmp(struct ward_pool *p, const char *syscall,
			 uint32_t arch, const struct ward_cmp *c);
/* "allow if arg0 (domain) == 0x1; errno EPERM if ...; else allow" */
const char *describe_syscall(struct ward_pool *p, uint32_t arch,
			     const struct ward_syscall_rule *r,
			     struct ward_action def);

const char *describe_addr(struct ward_pool *p, uint8_t family,
			  const uint8_t addr[16]);
const char *describe_net_rule(struct ward_pool *p,
			      const struct ward_net_rule *r);
/* "tcp name *.files.example port 443" */
const char *describe_net_name(struct ward_pool *p,
			      const struct ward_net_name *n);
const char *describe_requirements(struct ward_pool *p, uint32_t req);

#endif
