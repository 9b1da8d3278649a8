/* SPDX-License-Identifier: MIT */
/*
 * export_csv.h: CSV cells that a spreadsheet would run as formulas (CSV
 * injection, OWASP; CWE-1236). A cell that starts with `=`, `+`, `-` or
 * `@`, or with a tab or carriage return, is evaluated by Excel, LibreOffice
 * and Google Sheets when the file is opened, and a formula can fetch a URL
 * with the sheet's data or, through DDE, start a program. Such a CSV is
 * valid text and may be exactly the result the task asked for, so the
 * exporter flags it in the manifest (a warning), it does not refuse it.
 *
 * The scan streams with the copy: RFC 4180 quoting ("" inside quotes, line
 * breaks inside quotes), `,` and `;` separate cells of a .csv (Excel uses
 * `;` in many locales), a tab those of a .tsv. A cell is judged after its
 * quotes are taken off and after leading blanks (space, tab, CR) and stray
 * double quotes: `"=1"`, ` =1` and `\t=1` are all flagged. A number (`-3`,
 * `+1.5e3`, `-20%`) and a lone `-` are not formulas; a cell that starts with
 * `'` is text to a spreadsheet (the usual escape) and is not flagged.
 */
#ifndef WARD_EXPORT_CSV_H
#define WARD_EXPORT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes of a cell's start that are kept to judge it. */
#define WARD_CSV_CELL_HEAD 64

struct ward_csv_scan {
	bool tsv;	 /* only a tab separates cells */
	bool quoted;	 /* inside a quoted cell */
	bool quote_seen; /* quoted: a `"` that may be the first of `""` */
	bool after_cr;	 /* the last byte ended a row with CR */
	uint8_t head[WARD_CSV_CELL_HEAD];
	size_t hlen;	    /* bytes of the cell kept (at most HEAD) */
	bool long_cell;	    /* the cell is longer than that */
	bool cell_begun;    /* a byte of this cell was seen */
	uint64_t row, col;  /* of the current cell, from 1 */
	uint64_t formulas;  /* cells flagged */
	uint64_t first_row; /* the first of them */
	uint64_t first_col; /* (0 when none) */
	char first_trigger; /* its first character after the blanks */
};

/* Is a file of this name read as CSV (or TSV, *tsv set) by a spreadsheet?
 * By its extension, case-insensitively: .csv, .tsv. */
bool ward_csv_name(const char *name, bool *tsv);

void ward_csv_init(struct ward_csv_scan *s, bool tsv);
void ward_csv_feed(struct ward_csv_scan *s, const uint8_t *p, size_t n);
/* At the end of the file: the last cell, which no line break ended. */
void ward_csv_done(struct ward_csv_scan *s);

#endif
