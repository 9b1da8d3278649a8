/* SPDX-License-Identifier: MIT */
/*
 * landlock.c: the second file layer. The mount table makes a path
 * read-only or noexec from outside; the same intent, compiled into the
 * blob as Landlock rules, is enforced again from inside, so that a mistake
 * in one layer is caught by the other. Raw system calls: an older libc has
 * no wrappers, and its header may lack the later ABIs' fields.
 */
#include "landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset /* the same on every architecture */
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule	     445
#define __NR_landlock_restrict_self  446
#endif
#define LL_VERSION	1u /* LANDLOCK_CREATE_RULESET_VERSION */
#define LL_PATH_BENEATH 1  /* LANDLOCK_RULE_PATH_BENEATH */

struct ll_ruleset_attr { /* struct landlock_ruleset_attr, ABI 6 */
	uint64_t handled_access_fs, handled_access_net, scoped;
};

struct __attribute__((packed)) ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
};

int ward_landlock_abi(void)
{
	long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_VERSION);

	return abi < 0 ? -errno : (int)abi;
}

static const char *why_none(int e)
{
	return e == EOPNOTSUPP ? "Landlock is built in but not enabled (add "
				 "landlock to the boot's lsm= list)"
	       : e == ENOSYS   ? "this kernel has no Landlock"
			       : "Landlock cannot be queried";
}

int ward_landlock_check(const struct ward_landlock *ll, ward_err *err)
{
	int abi;

	if (ll->mode != WARD_LANDLOCK_REQUIRE)
		return 0;
	abi = ward_landlock_abi();
	if (abi < 0)
		return ward_fail(err, -abi,
				 "the policy requires Landlock (`landlock "
				 "require;`), but %s",
				 why_none(-abi));
	if ((uint32_t)abi < ll->abi)
		return ward_fail(err, 0,
				 "the policy requires Landlock ABI %u "
				 "(`landlock require;`), but this kernel has "
				 "ABI %d; `landlock prefer;` runs with what it "
				 "has",
				 ll->abi, abi);
	return 0;
}

uint64_t ward_landlock_fs_known(int abi)
{
	return abi >= 5 ? WARD_LL_FS_ALL
	       : abi >= 3
		   ? WARD_LL_FS_ABI1 | WARD_LL_FS_REFER | WARD_LL_FS_TRUNCATE
	       : abi >= 2 ? WARD_LL_FS_ABI1 | WARD_LL_FS_REFER
			  : WARD_LL_FS_ABI1;
}

static int add_rule(int ruleset, const struct ward_landlock_rule *r,
		    uint64_t handled, ward_err *err)
{
	struct open_how how = {
	    .flags = O_PATH | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct ll_path_beneath pb = {.allowed_access = r->access & handled};
	_cleanup_close_ int fd =
	    (int)syscall(SYS_openat2, AT_FDCWD, r->path, &how, sizeof(how));
	struct stat st;

	if (fd < 0 && errno == ENOENT && (r->flags & WARD_LL_R_OPTIONAL))
		return 0; /* the optional bind was skipped */
	if (fd < 0 || fstat(fd, &st) < 0)
		return ward_fail(err, errno, "landlock: open %s", r->path);
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= WARD_LL_FS_FILE;
	pb.parent_fd = fd;
	if (pb.allowed_access && syscall(__NR_landlock_add_rule, ruleset,
					 LL_PATH_BENEATH, &pb, 0) < 0)
		return ward_fail(err, errno, "landlock: add the rule for %s",
				 r->path);
	return 0;
}

int ward_landlock_apply(const struct ward_landlock *ll, int *abi, ward_err *err)
{
	_cleanup_close_ int ruleset = -1;
	struct ll_ruleset_attr attr;

	*abi = 0;
	if (ll->mode == WARD_LANDLOCK_OFF)
		return 0;
	*abi = ward_landlock_abi();
	if (*abi < 0) /* require was checked before the clone */
		return ll->mode == WARD_LANDLOCK_REQUIRE
			   ? ward_fail(err, -*abi, "landlock: %s",
				       why_none(-*abi))
			   : 0;
	attr = (struct ll_ruleset_attr){
	    .handled_access_fs = ll->handled_fs & ward_landlock_fs_known(*abi),
	    .scoped = *abi >= 6 ? ll->scoped : 0,
	};
	ruleset =
	    (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return ward_fail(err, errno, "landlock_create_ruleset");
	for (uint32_t i = 0; i < ll->nrules; i++)
		if (add_rule(ruleset, &ll->rules[i], attr.handled_access_fs,
			     err) < 0)
			return -1;
	if (syscall(__NR_landlock_restrict_self, ruleset, 0) < 0)
		return ward_fail(err, errno, "landlock_restrict_self");
	return 0;
}
