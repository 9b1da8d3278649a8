/* The strict profile's workload (tests/profiles/run.sh), built statically
 * on the host: read integers, one a line, from stdin (the whole input into
 * one growing buffer: brk, then mmap and mremap) and print their count,
 * sum, minimum, maximum and the 64-bit FNV-1a hash of the bytes read. Only
 * read, write and memory calls: what the strict profile allows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	uint64_t hash = 0xcbf29ce484222325ULL;
	long long sum = 0, min = 0, max = 0, count = 0;

	if (!buf)
		return 1;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) { /* room for the terminating NUL */
			char *b = realloc(buf, cap * 2);

			if (!b)
				return 1;
			buf = b;
			cap *= 2;
		}
		n = read(0, buf + len, cap - len);
		if (n < 0)
			return 1;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	for (size_t i = 0; i < len;) {
		char *end;
		long long v = strtoll(buf + i, &end, 10);

		if (end == buf + i) {
			i++;
			continue;
		}
		if (count == 0 || v < min)
			min = v;
		if (count == 0 || v > max)
			max = v;
		sum += v;
		count++;
		i = (size_t)(end - buf);
	}
	for (size_t i = 0; i < len; i++) {
		hash ^= (unsigned char)buf[i];
		hash *= 0x100000001b3ULL;
	}
	printf("count %lld\nsum %lld\nmin %lld\nmax %lld\nfnv1a %016" PRIx64
	       "\n",
	       count, sum, min, max, hash);
	free(buf);
	return 0;
}
