/* SPDX-License-Identifier: MIT */
/* wardc: the ward policy compiler (placeholder until the front end lands). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("wardc %s\n", WARD_VERSION);
		return 0;
	}
	fprintf(stderr, "wardc: not implemented yet\n");
	return 2;
}
