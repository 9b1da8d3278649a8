/* SPDX-License-Identifier: MIT */
/*
 * fuzz_archive.c: libFuzzer target for the exporter's archive inspection
 * (launcher/unprivileged/export_archive.c), the code that reads what a
 * sandbox wrote before it leaves: every input is judged as a zip, a tar
 * and a gzip, under small caps (so that a bomb is stopped early and the
 * runs stay fast). Besides memory errors, one property: the answer is a
 * verdict, never a read error on a file that can be read.
 *
 * fuzz-sources: export core
 */
#include "export_archive.h"
#include "policy.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t types[] = {WARD_EXPORT_T_ZIP, WARD_EXPORT_T_TAR,
					 WARD_EXPORT_T_GZIP};
	struct ward_archive_limits lim = {.per_file = 1 << 20,
					  .total = 4 << 20};
	struct ward_archive_result res;
	int fd = memfd_create("archive", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	for (size_t off = 0; off < size;) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (ward_archive_check(fd, size, types[i], &lim, &res) < 0)
			abort();
	close(fd);
	return 0;
}
