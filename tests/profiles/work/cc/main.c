/* primes N OUT: the number, sum and last of the primes below N, written
 * to OUT. */
#include <stdio.h>
#include <stdlib.h>

#include "sieve.h"

int main(int argc, char **argv)
{
	unsigned long long sum = 0;
	size_t count;
	unsigned *p;
	FILE *out;

	if (argc != 3)
		return 2;
	p = sieve((unsigned)strtoul(argv[1], NULL, 10), &count);
	if (!p || count == 0)
		return 1;
	for (size_t i = 0; i < count; i++)
		sum += p[i];
	out = fopen(argv[2], "w");
	if (!out)
		return 1;
	fprintf(out, "count %zu\nsum %llu\nlast %u\n", count, sum,
		p[count - 1]);
	free(p);
	return fclose(out) ? 1 : 0;
}
