/* SPDX-License-Identifier: MIT */
/*
 * units.h: a size, a duration or a CPU share in the largest unit that
 * writes it exactly ("64 MiB", "12 s", "1.5 CPU"), as the checker's
 * messages, explain, diff, lint and the exporters print values. One place,
 * so that an error message and `wardc explain` never spell a value two
 * ways. Every function returns a string in the pool.
 */
#ifndef WARD_UNITS_H
#define WARD_UNITS_H

#include "pool.h"

#include <stdint.h>

const char *ward_size_str(struct ward_pool *p, uint64_t bytes);
const char *ward_duration_str(struct ward_pool *p, uint64_t ms);
const char *ward_cpu_str(struct ward_pool *p, uint64_t millis);

#endif
