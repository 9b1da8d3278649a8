/* SPDX-License-Identifier: MIT */
/*
 * units.c: values in the largest unit that writes them exactly (units.h).
 */
#include "units.h"

#include <stdio.h>

const char *ward_size_str(struct ward_pool *p, uint64_t b)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	int u = -1;
	uint64_t v;

	if (b < 1024 || b % 1024)
		return ward_pool_printf(p, "%llu B", (unsigned long long)b);
	v = b;
	while (u < 3 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	return ward_pool_printf(p, "%llu %s", (unsigned long long)v, units[u]);
}

const char *ward_duration_str(struct ward_pool *p, uint64_t ms)
{
	if (ms == 0)
		return "0 s";
	if (ms % 3600000 == 0)
		return ward_pool_printf(p, "%llu h",
					(unsigned long long)(ms / 3600000));
	if (ms % 60000 == 0)
		return ward_pool_printf(p, "%llu min",
					(unsigned long long)(ms / 60000));
	if (ms % 1000 == 0)
		return ward_pool_printf(p, "%llu s",
					(unsigned long long)(ms / 1000));
	return ward_pool_printf(p, "%llu ms", (unsigned long long)ms);
}

const char *ward_cpu_str(struct ward_pool *p, uint64_t m)
{
	char frac[8];

	if (m % 1000 == 0)
		return ward_pool_printf(p, "%llu CPU",
					(unsigned long long)(m / 1000));
	snprintf(frac, sizeof(frac), "%03llu", (unsigned long long)(m % 1000));
	for (int i = 2; i > 0 && frac[i] == '0'; i--)
		frac[i] = 0;
	return ward_pool_printf(p, "%llu.%s CPU",
				(unsigned long long)(m / 1000), frac);
}
