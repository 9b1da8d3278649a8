/* SPDX-License-Identifier: MIT */
/*
 * replay_main.c: run a libFuzzer target on files, without libFuzzer, so
 * that a corpus can be replayed under a plain compiler with ASan and UBSan
 * (`make fuzz-replay`, and CI).
 *
 *     replay_TARGET PATH...   PATH: a file, or a directory of them (deep)
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *more = realloc(buf, cap);
			if (!more) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = more;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		if (n == 0)
			break;
		len += n;
	}
	fclose(f);
	/* an exact-size copy, so that ASan sees reads past the input */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	if (len)
		memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

static int replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = NULL;
		if (asprintf(&sub, "%s/%s", path, e->d_name) < 0) {
			rc = -1;
			break;
		}
		if (replay(sub) < 0)
			rc = -1;
		free(sub);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++)
		if (replay(argv[i]) < 0)
			rc = 1;
	printf("replayed %u inputs\n", replayed);
	return rc;
}
