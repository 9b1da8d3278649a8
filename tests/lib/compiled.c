/* SPDX-License-Identifier: MIT */
/* compiled.c: see compiled.h. */
#include "compiled.h"

#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ward_test_compile(const char *src, struct ward_test_compiled *c, char *msg,
		      size_t msgsize)
{
	static const char *inc[] = {"stdlib-policies"};
	struct ward_opts o = {.incdirs = inc,
			      .nincdirs = 1,
			      .arch = WARD_ARCH_X86_64,
			      .format = WARD_DIAG_TEXT,
			      .color = WARD_COLOR_NEVER,
			      .diag_out = stderr};
	ward_err err = {0};

	memset(c, 0, sizeof(*c));
	if (ward_driver_compile(src, &o, &c->buf, &c->len) != WARDC_OK) {
		snprintf(msg, msgsize, "%s does not compile", src);
		return -1;
	}
	if (ward_blob_read(c->buf, c->len, 0, &c->blob, &err) < 0) {
		ward_err_str(&err, msg, msgsize);
		return -1;
	}
	return 0;
}

void ward_test_compiled_release(struct ward_test_compiled *c)
{
	ward_blob_release(&c->blob);
	free(c->buf);
	c->buf = NULL;
}
