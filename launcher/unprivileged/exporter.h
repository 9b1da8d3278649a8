/* SPDX-License-Identifier: MIT */
/*
 * exporter.h: copy what a run left in a writable slot to the caller's
 * export directory, under the policy's export rule (docs/spec.md part 6),
 * once the sandbox is gone.
 *
 * The slot is hostile. The exporter walks it fd-relative with no-follow
 * opens (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | ...), looks at
 * every entry's type before it opens anything (a FIFO is never opened),
 * refuses symlinks, hard links, devices, FIFOs, sockets, setuid and setgid
 * files and names that would fool a person or a tool, and counts files and
 * bytes while it copies, from what it reads (never from a size read
 * earlier). Content types are checked by their bytes; an archive (zip,
 * tar, gzip) is inspected for what it would unpack (export_archive.h), a
 * CSV for cells that start a formula (export_csv.h: flagged, not refused).
 * Files are written in
 * a private staging directory inside the export directory, fsync'ed, and
 * renamed into place only at the end: nothing half-written is ever visible,
 * and with `on-violation refuse` (the default) one violation exports
 * nothing: all or nothing.
 *
 * The result is a manifest: every entry looked at, with its size, SHA-256,
 * detected type, and whether it was exported or why not.
 */
#ifndef WARD_EXPORTER_H
#define WARD_EXPORTER_H

#include "policy.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Directories below the slot that are looked into. */
#define WARD_EXPORT_DEPTH_MAX 16
/* Entries looked at before the walk stops (a slot of a million empty
 * files must not cost a million of anything). */
#define WARD_EXPORT_SCAN_MAX 100000
/* Refused entries the manifest lists one by one; the others are counted
 * by reason. */
#define WARD_EXPORT_LIST_MAX 1000

/* Why an entry was not exported. The names are the manifest's. */
enum ward_xreason {
	WARD_XR_NONE = 0,
	WARD_XR_SYMLINK,
	WARD_XR_HARDLINK,
	WARD_XR_FIFO,
	WARD_XR_SOCKET,
	WARD_XR_DEVICE,
	WARD_XR_OTHER_TYPE,
	WARD_XR_SETUID,
	WARD_XR_BAD_NAME,
	WARD_XR_NAME,	  /* no `names` pattern matches */
	WARD_XR_TYPE,	  /* a type the rule does not allow */
	WARD_XR_UNKNOWN,  /* none of the known types */
	WARD_XR_MISMATCH, /* the bytes are not what the name claims */
	WARD_XR_PER_FILE, /* larger than `per-file` */
	WARD_XR_TOTAL,	  /* would take the export past `total` */
	WARD_XR_FILES,	  /* more files than `files` */
	WARD_XR_DEPTH,	  /* a directory deeper than WARD_EXPORT_DEPTH_MAX */
	WARD_XR_SCAN,	  /* the walk stopped at WARD_EXPORT_SCAN_MAX */
	WARD_XR_UNREADABLE,
	WARD_XR_CHANGED, /* replaced between its stat and its open */
	WARD_XR_EXISTS,	 /* the export directory has that name already */
	/* an archive that would unpack (export_archive.h)... */
	WARD_XR_ARCHIVE_PATH,	     /* ...outside, or to a bad name */
	WARD_XR_ARCHIVE_LINK,	     /* ...a link */
	WARD_XR_ARCHIVE_SPECIAL,     /* ...a device, FIFO, setuid file */
	WARD_XR_ARCHIVE_BOMB,	     /* ...past the caps or the ratio */
	WARD_XR_ARCHIVE_MALFORMED,   /* cannot be read, or two ways */
	WARD_XR_ARCHIVE_UNSUPPORTED, /* uses what is not inspected */
	WARD_XR_COUNT
};

const char *ward_xreason_name(enum ward_xreason r);

enum ward_xverdict {
	WARD_XV_EXPORTED = 0,
	WARD_XV_REFUSED,  /* this entry broke the rule */
	WARD_XV_WITHHELD, /* fine, but the export was refused as a whole */
};

/* What an export came to: the manifest's "status". The zero value is
 * REFUSED, so that a result nobody filled in (the slot was missing) says
 * that nothing was published. */
enum ward_xstatus {
	WARD_XS_REFUSED = 0, /* nothing published: a violation under
				`refuse`, a failure, or (`skip`) every file
				left out */
	WARD_XS_PARTIAL,     /* `skip`: some files left out, the others
				published */
	WARD_XS_COMPLETE,    /* every file looked at was published */
};

const char *ward_xstatus_name(enum ward_xstatus s);

struct ward_export_entry {
	char *path;	  /* relative to the slot: raw bytes, as named */
	const char *kind; /* "file", "dir", "symlink", "fifo", "socket",
			     "device", "other" */
	bool has_size;
	uint64_t size; /* a file: bytes read (at most the cap + 1) */
	bool has_digest;
	uint8_t sha256[32]; /* of the bytes read (exported: the file) */
	uint32_t type;	    /* WARD_EXPORT_T_* detected; 0: none known */
	bool sniffed;	    /* the content was read and typed */
	enum ward_xverdict verdict;
	enum ward_xreason reason;
	char detail[120]; /* words for people, "" when none */
	/* An archive that was inspected: its entries, what they unpack to. */
	bool archive;
	uint64_t archive_entries, archive_unpacked;
	/* A CSV's cells that start a formula (a warning), and the first. */
	uint64_t formulas, formula_row, formula_col;
	char formula_trigger;
};

struct ward_export_result {
	const struct ward_export_rule *rule;
	struct ward_export_entry *entries; /* in walk order (sorted names) */
	size_t n, cap;
	uint64_t files, bytes; /* exported */
	uint64_t examined;     /* entries looked at */
	uint64_t nrefused;     /* entries refused, listed or not */
	uint64_t flagged;      /* entries listed with a warning */
	enum ward_xstatus status;
	bool exported;	/* status == WARD_XS_COMPLETE: the whole result, and
			   only then */
	bool truncated; /* the walk stopped at WARD_EXPORT_SCAN_MAX */
	/* The violation that refused the export (refuse), or NONE. */
	enum ward_xreason refusal;
	char *refusal_path;
	uint64_t omitted[WARD_XR_COUNT]; /* refused, not listed */
	char error[WARD_ERR_MSG_MAX];	 /* "" unless the export failed */
};

/* Tests only: called after every chunk copied from a file (with the slot
 * directory's descriptor for the file's directory and its name), so that a
 * test can grow the file under the exporter's feet, deterministically. */
struct ward_export_hook {
	void (*after_chunk)(void *arg, int dirfd, const char *name,
			    uint64_t copied);
	/* after each top-level entry is renamed into the export directory:
	 * the moment a crash would leave half a result */
	void (*after_rename)(void *arg, const char *name);
	void *arg;
};

/*
 * Export from the slot directory slot_fd into the directory dest_fd under
 * rule. Both descriptors stay the caller's. Returns 0 when the export ran
 * to its end, whatever it decided (res->status says what was published),
 * or -1 with err filled when it could not (the export directory is full or
 * unwritable, or holds an interrupted publication...): nothing is
 * published then either.
 * res is filled in both cases; free it with ward_export_result_free.
 */
int ward_export(const struct ward_export_rule *rule, int slot_fd, int dest_fd,
		const struct ward_export_hook *hook,
		struct ward_export_result *res, ward_err *err);
void ward_export_result_free(struct ward_export_result *res);

/* The manifest: one JSON object (docs/spec.md part 6), no newline. */
void ward_export_manifest(FILE *f, const struct ward_export_result *res);

#endif
