/* SPDX-License-Identifier: MIT */
#include "util.h"

#include <errno.h>
#include <string.h>

int ward_fail(ward_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return -1;
}

const char *ward_err_str(const ward_err *err, char *buf, size_t len)
{
	if (err->code)
		snprintf(buf, len, "%s: %s", err->msg, strerror(err->code));
	else
		snprintf(buf, len, "%s", err->msg);
	return buf;
}
