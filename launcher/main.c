/* SPDX-License-Identifier: MIT */
/* ward: the launcher (placeholder until the launcher lands). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("ward %s\n", WARD_VERSION);
		return 0;
	}
	fprintf(stderr, "ward: not implemented yet\n");
	return 125;
}
