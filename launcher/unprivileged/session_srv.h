/* SPDX-License-Identifier: MIT */
/*
 * session_srv.h: the session server's state (session_server.c: the loop
 * and the driver's side; session_conn.c: the callers' side;
 * session_record.c: the cells kept and the session report).
 */
#ifndef WARD_SESSION_SRV_H
#define WARD_SESSION_SRV_H

#include "session.h"
#include "session_proto.h"

#include "sha256.h"
#include "textsafe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#define REPORT_MAX    (8u << 20)
#define CELLS_KEPT    1000
#define CELLS_BYTES   (16u << 20)
#define ERR_TAIL      4096
#define STOP_GRACE_MS 2000

struct conn {
	int fd; /* -1: free */
	unsigned gen;
	uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len, out_off;
	uint64_t partial_since; /* ms; 0: no unfinished frame */
	bool dead;		/* closed once out is written, or now */
};

struct cell {
	uint64_t id;
	int conn;
	unsigned gen;
	uint32_t wall_ms, max_output;
	uint8_t *code;
	size_t code_len;
};

struct stream {
	uint64_t bytes, sent;
	struct ward_sha256 h;
	struct ward_textsafe ts; /* the policy's text mode: escaped */
};

/* The broker's refusals, by (nr, arch, errno), for the session. */
#define DENIAL_KEYS 64
struct sdenial {
	int32_t nr;
	uint32_t arch, errno_nr;
	uint64_t total;	  /* the broker's count, the session's */
	uint64_t base;	  /* total when the running cell started */
	uint64_t args[3]; /* the first of the running cell's */
	bool in_cell;
};

/* The broker's network refusals and refused DNS queries
 * (denial_event.h: struct ward_net_event), by (kind, the record's index),
 * each spelled once as it first came. */
#define NETDENIAL_KEYS 64
#define NETDENIAL_JSON 2048 /* a relay's server name escaped whole */
struct snetdenial {
	uint32_t kind, index;
	uint64_t total, base;
	char json[NETDENIAL_JSON]; /* the record's fields, without count */
};

struct sdenials {
	struct sdenial k[DENIAL_KEYS];
	size_t n;
	struct snetdenial net[NETDENIAL_KEYS];
	size_t nnet;
	uint64_t lost, lost_base;	/* events the broker could not send */
	uint64_t dropped, dropped_base; /* events of a key beyond DENIAL_KEYS */
	uint64_t garbage;
	bool eof; /* W's end is closed: nothing more comes */
	/* the courier's answer to the running cell's end: a JSON array */
	char *files;
	uint32_t files_kind;
	uint64_t files_cell;
	bool files_got;
};

struct srv {
	const struct ward_session_srv *cfg;
	struct conn conns[WARD_SESSION_CONNS];
	struct cell queue[WARD_SESSION_QUEUE];
	size_t qhead, qlen;
	struct cell cur;
	bool running, ready, ending, run_ended;
	struct stream st[2];
	char figures[WARD_SESSION_FIGURES * (WARD_SESSION_FIGNAME_MAX + 4)];
	size_t figures_len, nfigures;
	uint64_t t_start, deadline, grace_at, kill_at, last_activity;
	struct timespec started;
	const char *interrupting; /* NULL, "wall", "interrupt" */
	uint64_t next_id;
	char reason[64];
	int run_status;
	/* the driver's lines */
	char *line;
	size_t line_len;
	bool discarding;
	uint64_t garbage, requests, refused;
	/* to the driver */
	char *dout;
	size_t dout_len, dout_off;
	bool driver_closed;
	char err_tail[ERR_TAIL];
	size_t err_tail_len;
	/* the cells, for the session report */
	char **cells;
	size_t ncells, cells_bytes, cells_dropped;
	char *run_report;
	struct sdenials den;
};

/* A reply built on a memory stream. */
struct msg {
	FILE *f;
	char *buf;
	size_t len;
};

uint64_t ward_snow_ms(void);

/* the callers (session_conn.c) */
void ward_sconn_close(struct conn *c);
void ward_sconn_send(struct conn *c, const char *body, size_t len);
FILE *ward_smsg_open(struct msg *m);
void ward_smsg_close(struct msg *m, struct conn *c);
void ward_smsg_send(struct msg *m, struct conn *c);
void ward_serror(struct srv *s, struct conn *c, const char *code,
		 const char *text);
struct conn *ward_sowner(struct srv *s, const struct cell *cl);
ssize_t ward_sread_some(int fd, char *buf, size_t len);
void ward_sconn_flush(struct conn *c);
void ward_saccept(struct srv *s);
void ward_sconn_read(struct srv *s, int ci);

/* a whole request of a caller's (session_server.c) */
void ward_srequest(struct srv *s, int ci, const uint8_t *body, size_t len);

/* the broker's refusals (session_denials.c): read what came; the running
 * cell starts; its "denials" member, what came first read */
void ward_sdenials_read(struct srv *s);
void ward_sdenials_start(struct srv *s);
void ward_sdenials_json(struct srv *s, FILE *f);
/* the running cell's file diff (denial_event.h): ask the courier at the
 * cell's start (kind WARD_CELL_START) and end, waiting a bounded time;
 * then its "files" member */
void ward_sfiles_ask(struct srv *s, uint32_t kind);
void ward_sfiles_json(struct srv *s, FILE *f);

/* the record (session_record.c) */
void ward_sjson_field(FILE *f, const char *b64, size_t n, size_t cap,
		      bool text);
void ward_skeep_cell(struct srv *s, char *body);
void ward_sread_report(struct srv *s, int fd);
void ward_ssession_report(struct srv *s);

#endif
