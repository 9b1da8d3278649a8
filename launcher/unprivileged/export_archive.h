/* SPDX-License-Identifier: MIT */
/*
 * export_archive.h: what an archive that leaves through the exporter would
 * do to whoever unpacks it (docs/spec.md 6.4, "Archives"). The exporter
 * refuses symlinks, `..` and devices in the slot; an archive carries the
 * same things one level down, for `unzip` or `tar x` to create on the
 * caller's side (zip slip), and sizes for a decompressor to believe (a
 * decompression bomb). So a zip, tar or gzip file is read, defensively and
 * within bounds, before it may leave: an entry with an absolute path, a
 * `..`, a name the exporter would refuse, a link, a device or FIFO, a
 * setuid bit, a size past the rule's caps or a compression ratio past
 * WARD_ARCHIVE_RATIO_MAX refuses the file, and so does a structure that two
 * readers could read differently.
 *
 * zip and tar are judged by their headers, nothing is decompressed; a gzip
 * file is inflated (zlib, raw deflate), never past the caps: its own header
 * says nothing reliable about what it holds (its size field is modulo 4 GiB
 * and describes only the last member), and a .tar.gz hides its entries.
 */
#ifndef WARD_EXPORT_ARCHIVE_H
#define WARD_EXPORT_ARCHIVE_H

#include <stdint.h>

/* A compression ratio past this (unpacked : packed) is a bomb... */
#define WARD_ARCHIVE_RATIO_MAX 100
/* ...once there is this much to unpack (a tiny file of zeros compresses
 * past 100:1 and harms no one; the bound of Apache POI's ZipSecureFile). */
#define WARD_ARCHIVE_RATIO_GRACE (100 * 1024)
/* Entries of one archive: more is a bomb of another kind. */
#define WARD_ARCHIVE_ENTRIES_MAX 10000
/* A tar's long name or pax header; a gzip's stored name and comment. */
#define WARD_ARCHIVE_META_MAX 65536

/* What is wrong with an archive: a manifest reason each (exporter.c). */
enum ward_archive_problem {
	WARD_AP_NONE = 0,
	WARD_AP_PATH,	   /* absolute, `..`, or a name the exporter refuses */
	WARD_AP_LINK,	   /* a symbolic or a hard link */
	WARD_AP_SPECIAL,   /* device, FIFO, socket, setuid/setgid, xattrs */
	WARD_AP_BOMB,	   /* unpacks past the rule's caps, or the ratio */
	WARD_AP_MALFORMED, /* broken, or readable two ways */
	WARD_AP_UNSUPPORTED, /* valid, but not inspected here (ZIP64...) */
};

struct ward_archive_limits {
	uint64_t per_file; /* one entry; what a plain gzip unpacks to */
	uint64_t total;	   /* all the entries together */
};

struct ward_archive_result {
	enum ward_archive_problem problem;
	char detail[120];  /* words for people; "" when fine */
	uint64_t entries;  /* entries looked at */
	uint64_t unpacked; /* bytes they unpack to (zip: as declared) */
};

/*
 * Inspect the file fd (size bytes, read with pread: its offset is not
 * used) whose content type is `type` (WARD_EXPORT_T_ZIP, _TAR or _GZIP;
 * any other type is fine as it is). Returns 0 with res filled (problem
 * NONE: nothing found), or -1 with errno set when the file cannot be read.
 */
int ward_archive_check(int fd, uint64_t size, uint32_t type,
		       const struct ward_archive_limits *lim,
		       struct ward_archive_result *res);

#endif
