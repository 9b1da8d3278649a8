#include <stdlib.h>
#include <string.h>

#include "sieve.h"

unsigned *sieve(unsigned n, size_t *count)
{
	unsigned char *composite = calloc(n + 1, 1);
	unsigned *primes = malloc(sizeof(*primes) * (n / 2 + 2));
	size_t k = 0;

	if (!composite || !primes) {
		free(composite);
		free(primes);
		return NULL;
	}
	for (unsigned i = 2; i < n; i++) {
		if (composite[i])
			continue;
		primes[k++] = i;
		for (unsigned long j = (unsigned long)i * i; j < n; j += i)
			composite[j] = 1;
	}
	free(composite);
	*count = k;
	return primes;
}
