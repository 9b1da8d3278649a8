/* SPDX-License-Identifier: MIT */
/*
 * exec.c: the environment is exactly the policy's; the program is looked
 * up inside the sandbox, in the policy's PATH, never in the caller's.
 */
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ward_env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

char **ward_build_env(const struct ward_policy *p, char *const *caller_env,
		      ward_err *err)
{
	const char **val = calloc(p->nenv + 1, sizeof(*val));
	size_t bytes = (p->nenv + 1) * sizeof(char *), k = 0;
	char **env, *s;

	if (!val)
		return ward_fail(err, ENOMEM, "environment"), NULL;
	for (uint32_t i = 0; i < p->nenv; i++) {
		val[i] = p->env[i].value;
		if (!val[i])
			val[i] = ward_env_get(caller_env, p->env[i].name);
		if (val[i])
			bytes += strlen(p->env[i].name) + strlen(val[i]) + 2;
	}
	env = malloc(bytes);
	if (!env) {
		free(val);
		return ward_fail(err, ENOMEM, "environment"), NULL;
	}
	s = (char *)(env + p->nenv + 1);
	for (uint32_t i = 0; i < p->nenv; i++) {
		if (!val[i])
			continue;
		env[k++] = s;
		s = stpcpy(stpcpy(stpcpy(s, p->env[i].name), "="), val[i]) + 1;
	}
	env[k] = NULL;
	free(val);
	return env;
}

int ward_find_program(const char *prog, const char *path, char *out,
		      size_t outlen, ward_err *err)
{
	size_t plen = strlen(prog);
	bool denied = false;

	if (strchr(prog, '/')) {
		if (plen >= outlen)
			return ward_fail(err, ENAMETOOLONG, "%s", prog);
		memcpy(out, prog, plen + 1);
		return 0;
	}
	if (!path)
		return ward_fail(err, ENOENT,
				 "%s: not found inside the sandbox (the policy "
				 "sets no PATH: give an absolute path)",
				 prog);
	for (const char *d = path, *e;; d = e + 1) {
		struct stat st;
		size_t dlen;

		e = strchrnul(d, ':');
		dlen = (size_t)(e - d);
		/* An empty entry is the working directory, as for execvp. */
		if (dlen + plen + 2 <= outlen) {
			snprintf(out, outlen, "%.*s%s%s", (int)dlen, d,
				 dlen ? "/" : "", prog);
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
				if (faccessat(AT_FDCWD, out, X_OK,
					      AT_EACCESS) == 0)
					return 0;
				denied = true;
			}
		}
		if (!*e)
			break;
	}
	if (denied)
		return ward_fail(err, EACCES, "%s", prog);
	return ward_fail(err, ENOENT,
			 "%s: not found inside the sandbox (its PATH is %s)",
			 prog, path);
}
