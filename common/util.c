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

int ward_parse_duration_ms(const char *s, uint64_t *ms)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
	uint64_t whole = 0, frac = 0, scale = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -1;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1000)
				return -1; /* at most three decimals */
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(units); i++) {
		uint64_t v, f;
		if (strcmp(p, units[i].unit))
			continue;
		/* frac / scale of a unit must be a whole number of ms */
		if ((frac * units[i].ms) % scale)
			return -1;
		f = frac * units[i].ms / scale;
		if (__builtin_mul_overflow(whole, units[i].ms, &v) ||
		    __builtin_add_overflow(v, f, &v))
			return -1;
		*ms = v;
		return 0;
	}
	return -1;
}
