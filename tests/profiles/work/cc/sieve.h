#ifndef SIEVE_H
#define SIEVE_H
#include <stddef.h>

/* The primes below n, in a malloc'ed array of *count entries. */
unsigned *sieve(unsigned n, size_t *count);

#endif
