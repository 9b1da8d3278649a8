/* SPDX-License-Identifier: MIT */
/*
 * bench_parse.c: how fast the front end parses, and with how much memory.
 *
 *     bench_parse FILE [RUNS]
 *
 * Reads FILE once, then parses it RUNS times (default 7), each time from a
 * fresh source manager, and prints the median CPU time (and wall time),
 * lines per second of CPU, the peak resident set size and the bytes of the
 * tree's arena. Diagnostics go to /dev/null; the file must
 * parse without errors.
 */
#include "arena.h"
#include "diag.h"
#include "load.h"
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* CPU time is what counts: the machine may be shared, and a parse waits
 * for nothing. Wall time is printed beside it. */
static double now(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_parse FILE [RUNS]\n");
		return 2;
	}
	int runs = argc > 2 ? atoi(argv[2]) : 7;
	if (runs < 1 || runs > 1000)
		runs = 7;
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char buf[1 << 16];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(f);
	fclose(mem);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	FILE *null = fopen("/dev/null", "w");
	double *times = calloc((size_t)runs, sizeof(*times));
	double *walls = calloc((size_t)runs, sizeof(*walls));
	if (!null || !times || !walls)
		return 2;
	size_t stmts = 0, arena = 0;
	for (int r = 0; r < runs; r++) {
		char *copy = malloc(len + 1);
		if (!copy)
			return 2;
		memcpy(copy, text, len);
		double t0 = now(CLOCK_PROCESS_CPUTIME_ID);
		double w0 = now(CLOCK_MONOTONIC);
		struct ward_sources *src = ward_sources_new();
		struct ward_diags *d = ward_diags_new(src, null, WARD_DIAG_TEXT,
						      WARD_COLOR_NEVER, false);
		uint32_t id = ward_sources_add(
		    src, argv[1], copy, len, WARD_NO_FILE,
		    (struct ward_loc){WARD_NO_FILE, 0, 0, 0, 0});
		struct ward_file *wf = ward_parse(src, id, d);
		if (!wf || wf->nerrors) {
			fprintf(stderr, "bench_parse: %s does not parse\n",
				argv[1]);
			return 1;
		}
		stmts = wf->nstmts;
		arena = ward_arena_used(wf->arena);
		ward_file_free(wf);
		ward_diags_free(d);
		ward_sources_free(src);
		times[r] = now(CLOCK_PROCESS_CPUTIME_ID) - t0;
		walls[r] = now(CLOCK_MONOTONIC) - w0;
	}
	qsort(times, (size_t)runs, sizeof(*times), cmp_double);
	qsort(walls, (size_t)runs, sizeof(*walls), cmp_double);
	double median = times[runs / 2];
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf(
	    "lines=%zu bytes=%zu statements=%zu runs=%d median_ms=%.2f "
	    "min_ms=%.2f wall_median_ms=%.2f lines_per_s=%.0f peak_rss_kb=%ld "
	    "arena_bytes=%zu\n",
	    lines, len, stmts, runs, median * 1e3, times[0] * 1e3,
	    walls[runs / 2] * 1e3, (double)lines / median, ru.ru_maxrss, arena);
	free(times);
	free(walls);
	free(text);
	fclose(null);
	return 0;
}
