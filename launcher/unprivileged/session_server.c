/* SPDX-License-Identifier: MIT */
/*
 * session_server.c: S, the session server (docs/spec.md 7.1-7.6). One
 * poll loop over the listening socket, at most WARD_SESSION_CONNS callers,
 * the driver's three pipes and P's socket. Nothing in it blocks on a peer:
 * every descriptor is non-blocking, every buffer bounded; a caller that
 * sends too much is told so and dropped, a driver that says garbage is
 * counted and ignored. It takes no policy decision: the run (W) enforces
 * the policy, S only narrows it per cell (a cell's wall and output cap).
 */
#include "session_srv.h"

#include "denial_event.h"
#include "fdpass.h"
#include "json.h"
#include "sha256.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* ------------------------------------------------------------ callers */

/* ------------------------------------------------------------ driver */

static void driver_write(struct srv *s, const char *a, const char *b,
			 const char *c)
{
	size_t la = strlen(a), lb = b ? strlen(b) : 0, lc = c ? strlen(c) : 0;
	char *n;

	if (s->driver_closed)
		return;
	n = realloc(s->dout, s->dout_len + la + lb + lc + 3);
	if (!n)
		return;
	s->dout = n;
	memcpy(n + s->dout_len, a, la);
	s->dout_len += la;
	if (b) {
		n[s->dout_len++] = ' ';
		memcpy(n + s->dout_len, b, lb);
		s->dout_len += lb;
	}
	if (c) {
		n[s->dout_len++] = ' ';
		memcpy(n + s->dout_len, c, lc);
		s->dout_len += lc;
	}
	n[s->dout_len++] = '\n';
}

static void driver_close(struct srv *s)
{
	if (!s->driver_closed && s->cfg->to_driver >= 0)
		close(s->cfg->to_driver);
	s->driver_closed = true;
}

/* Ask P to end the run (SIGTERM to ward, which kills the sandbox). */
static void kill_run(struct srv *s)
{
	char k = 'k';

	if (write(s->cfg->parent, &k, 1) < 0) {
		/* P is gone: it took the run with it (PDEATHSIG). */
	}
	s->kill_at = 0;
}

static void end_session(struct srv *s, const char *reason, bool graceful)
{
	if (s->ending)
		return;
	s->ending = true;
	snprintf(s->reason, sizeof(s->reason), "%s", reason);
	driver_close(s);
	if (graceful)
		s->kill_at = ward_snow_ms() + STOP_GRACE_MS;
	else
		kill_run(s);
}

/* The next queued cell becomes the current one. */
static void pop_queued(struct srv *s)
{
	s->cur = s->queue[s->qhead];
	s->qhead = (s->qhead + 1) % WARD_SESSION_QUEUE;
	s->qlen--;
}

/* The cell's streams and clocks start from nothing. */
static void begin_streams(struct srv *s)
{
	for (int i = 0; i < 2; i++) {
		s->st[i].bytes = s->st[i].sent = 0;
		ward_sha256_init(&s->st[i].h);
		s->st[i].ts = (struct ward_textsafe){0};
	}
	s->t_start = ward_snow_ms();
	clock_gettime(CLOCK_REALTIME, &s->started);
}

static void start_next(struct srv *s)
{
	char idbuf[24], *b64;

	if (s->running || !s->ready || s->ending || !s->qlen)
		return;
	pop_queued(s);
	/* the slots as the cell finds them; what came before is no cell's */
	ward_sfiles_ask(s, WARD_CELL_START);
	ward_sdenials_start(s);
	s->running = true;
	s->interrupting = NULL;
	s->grace_at = 0;
	s->figures_len = s->nfigures = 0;
	begin_streams(s);
	s->deadline = s->cur.wall_ms ? s->t_start + s->cur.wall_ms : 0;
	snprintf(idbuf, sizeof(idbuf), "%llu", (unsigned long long)s->cur.id);
	b64 = ward_b64_encode(s->cur.code, s->cur.code_len);
	driver_write(s, "exec", idbuf, b64 && *b64 ? b64 : "-");
	free(b64);
	free(s->cur.code);
	s->cur.code = NULL;
}

static void interrupt_cell(struct srv *s, const char *why)
{
	char idbuf[24];

	if (!s->running || s->interrupting)
		return;
	s->interrupting = why;
	s->grace_at = ward_snow_ms() + WARD_SESSION_GRACE_MS;
	snprintf(idbuf, sizeof(idbuf), "%llu", (unsigned long long)s->cur.id);
	driver_write(s, "interrupt", idbuf, NULL);
}

static void json_stream(FILE *f, const char *name, struct stream *st,
			uint32_t cap, bool text)
{
	uint8_t d[32];
	char hex[65];

	ward_sha256_final(&st->h, d);
	ward_hex(d, sizeof(d), hex);
	fprintf(f,
		",\"%s\":{\"bytes\":%llu,\"sent\":%llu,\"truncated\":%s,"
		"\"mode\":\"%s\",\"escaped\":%llu,\"sha256\":\"%s\"}",
		name, (unsigned long long)st->bytes,
		(unsigned long long)st->sent,
		st->bytes > cap ? "true" : "false", text ? "text" : "raw",
		(unsigned long long)st->ts.escaped, hex);
}

/* n bytes of the running cell's stream to its caller: escaped under the
 * policy's text mode (the digest is of the bytes as they came, as a
 * run's); last: the end of the cell's stream. */
static void send_chunk(struct srv *s, int which, const uint8_t *b, size_t n,
		       bool last)
{
	struct conn *c = ward_sowner(s, &s->cur);
	uint8_t *esc = NULL;
	char *enc;
	struct msg m;

	if (s->cfg->text[which]) {
		esc = malloc(WARD_TEXT_GROWTH * (n + 3));
		if (!esc)
			return;
		n = ward_text_escape(&s->st[which].ts, b, n, esc, last);
		b = esc;
	}
	if (!c || !n) {
		free(esc);
		return;
	}
	enc = ward_b64_encode(b, n);
	if (enc && ward_smsg_open(&m)) {
		fprintf(m.f, "{\"type\":\"%s\",\"cell\":%llu,\"data\":\"%s\"}",
			which ? "stderr" : "stdout",
			(unsigned long long)s->cur.id, enc);
		ward_smsg_send(&m, c);
	}
	free(enc);
	free(esc);
}

/* The running cell's end: d is the driver's done, or NULL when the session
 * ended under it (status session_ended, the session's reason). */
static void finish_cell(struct srv *s, const struct ward_dline *d)
{
	struct timespec ended;
	char t0[40], t1[40];
	const char *status = d ? d->status : "session_ended";
	const char *reason = NULL;
	struct msg m;
	uint32_t cap = s->cur.max_output;

	/* what text mode held back (a character cut by a chunk) */
	for (int i = 0; i < 2; i++)
		if (s->cfg->text[i] && s->st[i].ts.ncarry)
			send_chunk(s, i, NULL, 0, true);
	clock_gettime(CLOCK_REALTIME, &ended);
	if (d)
		ward_sfiles_ask(s, WARD_CELL_END);
	ward_rfc3339(&s->started, t0, sizeof(t0));
	ward_rfc3339(&ended, t1, sizeof(t1));
	if (!d)
		reason = s->reason[0] ? s->reason : "ended";
	else if (!strcmp(status, "interrupted"))
		reason = s->interrupting ? s->interrupting : "driver";
	if (ward_smsg_open(&m)) {
		fprintf(m.f, "{\"type\":\"result\",\"cell\":%llu,\"status\":",
			(unsigned long long)s->cur.id);
		ward_json_str(m.f, status);
		fputs(",\"reason\":", m.f);
		ward_json_str(m.f, reason);
		fputs(",\"result\":", m.f);
		if (d)
			ward_sjson_field(m.f, d->field[0], d->field_len[0],
					 WARD_SESSION_RESULT_MAX,
					 s->cfg->text[0]);
		else
			fputs("null", m.f);
		fputs(",\"error\":", m.f);
		if (d && !strcmp(status, "error")) {
			fputs("{\"name\":", m.f);
			ward_sjson_field(m.f, d->field[1], d->field_len[1],
					 WARD_SESSION_NAME_MAX,
					 s->cfg->text[0]);
			fputs(",\"message\":", m.f);
			ward_sjson_field(m.f, d->field[2], d->field_len[2],
					 WARD_SESSION_MESSAGE_MAX,
					 s->cfg->text[0]);
			fputs(",\"traceback\":", m.f);
			ward_sjson_field(m.f, d->field[3], d->field_len[3],
					 WARD_SESSION_RESULT_MAX,
					 s->cfg->text[0]);
			fputs("}", m.f);
		} else
			fputs("null", m.f);
		json_stream(m.f, "stdout", &s->st[0], cap, s->cfg->text[0]);
		json_stream(m.f, "stderr", &s->st[1], cap, s->cfg->text[1]);
		fprintf(m.f, ",\"figures\":[%.*s]", (int)s->figures_len,
			s->figures);
		fprintf(m.f, ",\"duration_ms\":%llu",
			(unsigned long long)(ward_snow_ms() - s->t_start));
		if (d)
			fprintf(m.f,
				",\"driver_reported\":{\"cpu_ms\":%llu,"
				"\"max_rss_kib\":%llu}",
				(unsigned long long)(d->cpu_us / 1000),
				(unsigned long long)d->maxrss_kib);
		else
			fputs(",\"driver_reported\":null", m.f);
		ward_sdenials_json(s, m.f);
		ward_sfiles_json(s, m.f);
		fprintf(m.f, ",\"started\":\"%s\",\"ended\":\"%s\"}", t0, t1);
		ward_smsg_close(&m, ward_sowner(s, &s->cur));
		if (m.buf)
			ward_skeep_cell(s, m.buf);
	}
	s->running = false;
	s->interrupting = NULL;
	s->grace_at = s->deadline = 0;
	s->last_activity = ward_snow_ms();
}

/* A chunk of the running cell's stdout (0) or stderr (1). */
static void chunk(struct srv *s, int which, const struct ward_dline *d)
{
	uint8_t *b;
	size_t len, send;
	struct stream *st = &s->st[which];

	if (ward_b64_decode(d->field[0], d->field_len[0], &b, &len) < 0) {
		s->garbage++;
		return;
	}
	ward_sha256_update(&st->h, b, len);
	st->bytes += len;
	send = st->sent < s->cur.max_output ? s->cur.max_output - st->sent : 0;
	if (send > len)
		send = len;
	if (send)
		send_chunk(s, which, b, send, false);
	st->sent += send;
	free(b);
}

/* A figure the driver says it saved in the output slot: its name, if it
 * is a plain file name (what is really there, and whether it may leave,
 * is the exporter's to say, in the run report's manifest). */
static void figure(struct srv *s, const struct ward_dline *d)
{
	uint8_t *b;
	size_t len;
	bool ok;

	if (ward_b64_decode(d->field[0], d->field_len[0], &b, &len) < 0) {
		s->garbage++;
		return;
	}
	ok = len && len <= WARD_SESSION_FIGNAME_MAX &&
	     s->nfigures < WARD_SESSION_FIGURES && b[0] != '.';
	for (size_t i = 0; ok && i < len; i++)
		ok = (b[i] >= 'a' && b[i] <= 'z') ||
		     (b[i] >= 'A' && b[i] <= 'Z') ||
		     (b[i] >= '0' && b[i] <= '9') || b[i] == '.' ||
		     b[i] == '-' || b[i] == '_';
	if (!ok)
		s->garbage++;
	else
		s->figures_len += (size_t)snprintf(
		    s->figures + s->figures_len,
		    sizeof(s->figures) - s->figures_len, "%s\"%.*s\"",
		    s->nfigures++ ? "," : "", (int)len, (const char *)b);
	free(b);
}

static void driver_line(struct srv *s, const char *line, size_t len)
{
	struct ward_dline d;

	if (ward_dline_parse(line, len, &d) < 0) {
		s->garbage++;
		return;
	}
	switch (d.kind) {
	case WARD_DL_READY:
		if (s->ready) {
			s->garbage++;
			return;
		}
		s->ready = true;
		printf("socket %s\n", s->cfg->socket_path);
		fflush(stdout);
		start_next(s);
		return;
	case WARD_DL_OUT:
	case WARD_DL_ERR:
		if (!s->running || d.cell != s->cur.id) {
			s->garbage++;
			return;
		}
		chunk(s, d.kind == WARD_DL_ERR, &d);
		return;
	case WARD_DL_FIGURE:
		if (!s->running || d.cell != s->cur.id) {
			s->garbage++;
			return;
		}
		figure(s, &d);
		return;
	case WARD_DL_DONE:
		if (!s->running || d.cell != s->cur.id) {
			s->garbage++;
			return;
		}
		finish_cell(s, &d);
		start_next(s);
		return;
	}
}

/* take bytes of the driver's current line; a line past its cap is
 * discarded up to its newline. */
static void line_add(struct srv *s, const char *b, size_t take)
{
	char *l;

	if (s->discarding)
		return;
	if (s->line_len + take > WARD_SESSION_LINE_MAX) {
		s->discarding = true;
		s->garbage++;
		s->line_len = 0;
		return;
	}
	l = realloc(s->line, s->line_len + take + 1);
	if (!l) {
		s->discarding = true;
		s->line_len = 0;
		return;
	}
	s->line = l;
	memcpy(l + s->line_len, b, take);
	s->line_len += take;
}

/* Read what the driver said; whole lines only, each bounded. */
static void driver_read(struct srv *s, int fd, bool *eof)
{
	char buf[65536];
	ssize_t n;

	while ((n = ward_sread_some(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n;) {
			char *nl = memchr(buf + i, '\n', (size_t)(n - i));
			size_t take =
			    nl ? (size_t)(nl - (buf + i)) : (size_t)(n - i);

			line_add(s, buf + i, take);
			i += (ssize_t)take;
			if (nl) {
				i++;
				if (!s->discarding)
					driver_line(s, s->line, s->line_len);
				s->discarding = false;
				s->line_len = 0;
			}
		}
	}
	if (n < 0)
		*eof = true;
}

/* The driver's stderr outside its protocol: ward's own messages and what
 * the driver prints; the tail goes to the report. */
static void err_read(struct srv *s, int fd, bool *eof)
{
	char buf[8192];
	ssize_t n;

	while ((n = ward_sread_some(fd, buf, sizeof(buf))) > 0) {
		if ((size_t)n >= ERR_TAIL) {
			memcpy(s->err_tail, buf + n - ERR_TAIL, ERR_TAIL);
			s->err_tail_len = ERR_TAIL;
			continue;
		}
		if (s->err_tail_len + (size_t)n > ERR_TAIL) {
			size_t drop = s->err_tail_len + (size_t)n - ERR_TAIL;

			memmove(s->err_tail, s->err_tail + drop,
				s->err_tail_len - drop);
			s->err_tail_len -= drop;
		}
		memcpy(s->err_tail + s->err_tail_len, buf, (size_t)n);
		s->err_tail_len += (size_t)n;
	}
	if (n < 0)
		*eof = true;
}

/* ------------------------------------------------------------ requests */

static void status_reply(struct srv *s, struct conn *c)
{
	struct msg m;
	int nconn = 0;

	for (int i = 0; i < WARD_SESSION_CONNS; i++)
		nconn += s->conns[i].fd >= 0;
	if (!ward_smsg_open(&m))
		return;
	fprintf(m.f,
		"{\"type\":\"status\",\"state\":\"%s\",\"cells\":%llu,"
		"\"queued\":%zu,\"connections\":%d}",
		s->ending    ? "ending"
		: s->running ? "running"
			     : "idle",
		(unsigned long long)s->next_id, s->qlen, nconn);
	ward_smsg_send(&m, c);
}

void ward_srequest(struct srv *s, int ci, const uint8_t *body, size_t len)
{
	struct conn *c = &s->conns[ci];
	struct ward_sreq rq;
	const char *bad = ward_sreq_parse(body, len, &rq);
	struct msg m;

	s->requests++;
	s->last_activity = ward_snow_ms();
	if (bad) {
		ward_serror(s, c, bad, "the request is not one of part 7.3's");
		return;
	}
	if (rq.type == WARD_SQ_STATUS) {
		status_reply(s, c);
		return;
	}
	if (s->ending) {
		ward_serror(s, c, "session_ending", "the session is ending");
		return;
	}
	switch (rq.type) {
	case WARD_SQ_EXEC: {
		struct cell *cl;

		if (s->qlen >= WARD_SESSION_QUEUE) {
			ward_serror(s, c, "queue_full",
				    "too many cells wait already");
			return;
		}
		cl = &s->queue[(s->qhead + s->qlen) % WARD_SESSION_QUEUE];
		*cl = (struct cell){
		    .id = ++s->next_id,
		    .conn = ci,
		    .gen = c->gen,
		    .wall_ms = rq.wall_ms,
		    .max_output =
			rq.max_output ? rq.max_output : WARD_SESSION_OUTPUT_DEF,
		    .code = malloc(rq.code_len + 1),
		    .code_len = rq.code_len,
		};
		if (!cl->code) {
			s->next_id--;
			ward_serror(s, c, "queue_full", "no memory");
			return;
		}
		memcpy(cl->code, rq.code, rq.code_len);
		s->qlen++;
		if (ward_smsg_open(&m)) {
			fprintf(m.f,
				"{\"type\":\"accepted\",\"cell\":%llu,"
				"\"position\":%zu}",
				(unsigned long long)cl->id,
				s->qlen - 1 + (s->running ? 1 : 0));
			ward_smsg_send(&m, c);
		}
		start_next(s);
		return;
	}
	case WARD_SQ_INTERRUPT:
		if (!s->running || (rq.cell && rq.cell != s->cur.id)) {
			ward_serror(s, c, "no_such_cell",
				    "no such cell is running");
			return;
		}
		if (ward_smsg_open(&m)) {
			fprintf(m.f,
				"{\"type\":\"interrupting\",\"cell\":%llu}",
				(unsigned long long)s->cur.id);
			ward_smsg_send(&m, c);
		}
		interrupt_cell(s, "interrupt");
		return;
	case WARD_SQ_STOP:
		if (ward_smsg_open(&m)) {
			fputs("{\"type\":\"stopping\"}", m.f);
			ward_smsg_send(&m, c);
		}
		end_session(s, "stop", true);
		return;
	}
}

/* ------------------------------------------------------------ the end */

static void finish_all(struct srv *s)
{
	struct msg m;

	if (s->running)
		finish_cell(s, NULL);
	while (s->qlen) {
		pop_queued(s);
		free(s->cur.code);
		s->cur.code = NULL;
		begin_streams(s);
		s->running = true;
		finish_cell(s, NULL);
	}
	for (int i = 0; i < WARD_SESSION_CONNS; i++) {
		struct conn *c = &s->conns[i];
		uint64_t until = ward_snow_ms() + 1000;

		if (c->fd < 0)
			continue;
		if (ward_smsg_open(&m)) {
			fputs("{\"type\":\"ended\",\"reason\":", m.f);
			ward_json_str(m.f, s->reason[0] ? s->reason : NULL);
			fputs("}", m.f);
			ward_smsg_send(&m, c);
		}
		/* A last, bounded, try to deliver what is pending. */
		while (!c->dead && c->out_off < c->out_len &&
		       ward_snow_ms() < until) {
			struct pollfd p = {c->fd, POLLOUT, 0};

			if (poll(&p, 1, 100) > 0)
				ward_sconn_flush(c);
		}
		ward_sconn_close(c);
	}
}

static void parent_msg(struct srv *s, bool *eof)
{
	struct ward_session_pmsg pm = {0};
	int fd = -1;
	ssize_t n = ward_recv_msg(s->cfg->parent, &pm, sizeof(pm), &fd);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		*eof = true;
		return;
	}
	if (n != (ssize_t)sizeof(pm)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (pm.kind == 2) {
		end_session(s, "caller_signal", false);
	} else if (pm.kind == 1) {
		s->run_ended = true;
		s->run_status = pm.status;
		if (fd >= 0)
			ward_sread_report(s, fd);
	}
	if (fd >= 0)
		close(fd);
}

/* ------------------------------------------------------------ the loop */

static int timeout_for(struct srv *s, uint64_t now)
{
	uint64_t next = UINT64_MAX;

#define AT(t)                                                                  \
	do {                                                                   \
		if ((t) && (t) < next)                                         \
			next = (t);                                            \
	} while (0)
	AT(s->deadline);
	AT(s->grace_at);
	AT(s->kill_at);
	if (!s->ending && s->cfg->idle_ms)
		AT(s->last_activity + s->cfg->idle_ms);
	for (int i = 0; i < WARD_SESSION_CONNS; i++)
		if (s->conns[i].fd >= 0 && s->conns[i].partial_since)
			AT(s->conns[i].partial_since + WARD_SESSION_PARTIAL_MS);
#undef AT
	if (next == UINT64_MAX)
		return 1000;
	return next <= now ? 0 : (int)(next - now > 1000 ? 1000 : next - now);
}

static void timers(struct srv *s)
{
	uint64_t now = ward_snow_ms();

	if (s->running && s->deadline && now >= s->deadline) {
		s->deadline = 0;
		interrupt_cell(s, "wall");
	}
	if (s->running && s->grace_at && now >= s->grace_at) {
		s->grace_at = 0;
		end_session(s, "interrupt_ignored", false);
	}
	if (s->kill_at && now >= s->kill_at)
		kill_run(s);
	if (!s->ending && s->cfg->idle_ms && !s->running && !s->qlen &&
	    now >= s->last_activity + s->cfg->idle_ms)
		end_session(s, "idle", false);
	for (int i = 0; i < WARD_SESSION_CONNS; i++) {
		struct conn *c = &s->conns[i];

		if (c->fd >= 0 && c->partial_since &&
		    now >= c->partial_since + WARD_SESSION_PARTIAL_MS)
			ward_sconn_close(c);
	}
}

static void driver_flush(struct srv *s)
{
	while (!s->driver_closed && s->dout_off < s->dout_len) {
		ssize_t n = write(s->cfg->to_driver, s->dout + s->dout_off,
				  s->dout_len - s->dout_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			driver_close(s);
			break;
		}
		s->dout_off += (size_t)n;
	}
	if (s->dout_off == s->dout_len)
		s->dout_off = s->dout_len = 0;
}

int ward_session_serve(const struct ward_session_srv *cfg)
{
	static struct srv s;
	bool out_eof = false, err_eof = false, p_eof = false;

	s.cfg = cfg;
	s.last_activity = ward_snow_ms();
	for (int i = 0; i < WARD_SESSION_CONNS; i++)
		s.conns[i].fd = -1;
	nonblock(cfg->listen_fd);
	nonblock(cfg->to_driver);
	nonblock(cfg->from_driver);
	nonblock(cfg->driver_err);
	signal(SIGPIPE, SIG_IGN);
	/* Until the run is gone and its pipes are drained. */
	while (!(s.run_ended && out_eof && err_eof) && !p_eof) {
		struct pollfd p[WARD_SESSION_CONNS + 6];
		int map[WARD_SESSION_CONNS + 6];
		nfds_t n = 0;

		if (!s.ending && !s.run_ended) {
			p[n] = (struct pollfd){cfg->listen_fd, POLLIN, 0};
			map[n++] = -1;
		}
		if (!out_eof) {
			p[n] = (struct pollfd){cfg->from_driver, POLLIN, 0};
			map[n++] = -2;
		}
		if (!err_eof) {
			p[n] = (struct pollfd){cfg->driver_err, POLLIN, 0};
			map[n++] = -3;
		}
		p[n] = (struct pollfd){cfg->parent, POLLIN, 0};
		map[n++] = -4;
		if (!s.driver_closed && s.dout_len) {
			p[n] = (struct pollfd){cfg->to_driver, POLLOUT, 0};
			map[n++] = -5;
		}
		if (cfg->events >= 0 && !s.den.eof) {
			p[n] = (struct pollfd){cfg->events, POLLIN, 0};
			map[n++] = -6;
		}
		for (int i = 0; i < WARD_SESSION_CONNS; i++) {
			struct conn *c = &s.conns[i];

			if (c->fd < 0)
				continue;
			p[n] = (struct pollfd){
			    c->fd,
			    (short)((c->dead ? 0 : POLLIN) |
				    (c->out_off < c->out_len ? POLLOUT : 0)),
			    0};
			map[n++] = i;
		}
		bool want_accept = false;

		if (poll(p, n, timeout_for(&s, ward_snow_ms())) < 0 &&
		    errno != EINTR)
			break;
		for (nfds_t i = 0; i < n; i++) {
			if (!p[i].revents)
				continue;
			switch (map[i]) {
			case -1:
				/* after the callers' own events: a caller
				 * that just left frees its place first */
				want_accept = true;
				break;
			case -2:
				driver_read(&s, cfg->from_driver, &out_eof);
				break;
			case -3:
				err_read(&s, cfg->driver_err, &err_eof);
				break;
			case -4:
				parent_msg(&s, &p_eof);
				break;
			case -5:
				driver_flush(&s);
				break;
			case -6:
				ward_sdenials_read(&s);
				break;
			default: {
				struct conn *c = &s.conns[map[i]];

				if (c->fd < 0)
					break;
				if (p[i].revents & POLLOUT)
					ward_sconn_flush(c);
				if (!c->dead && (p[i].revents &
						 (POLLIN | POLLHUP | POLLERR)))
					ward_sconn_read(&s, map[i]);
			}
			}
		}
		for (int i = 0; i < WARD_SESSION_CONNS; i++) {
			struct conn *c = &s.conns[i];

			if (c->fd < 0)
				continue;
			ward_sconn_flush(c);
			if (c->dead && c->out_off >= c->out_len)
				ward_sconn_close(c);
		}
		if (want_accept)
			ward_saccept(&s);
		driver_flush(&s);
		timers(&s);
		/* The run ended by itself (OOM, wall, the driver's exit). */
		if ((out_eof || s.run_ended) && !s.ending) {
			s.ending = true;
			driver_close(&s);
		}
	}
	if (!s.reason[0] && !s.ready)
		snprintf(s.reason, sizeof(s.reason), "not_started");
	finish_all(&s);
	if (!s.ready) {
		char safe[ERR_TAIL + 1];

		for (size_t i = 0; i < s.err_tail_len; i++) {
			char ch = s.err_tail[i];

			safe[i] =
			    (ch == '\n' || (ch >= ' ' && ch < 127)) ? ch : '?';
		}
		safe[s.err_tail_len] = '\0';
		fprintf(stderr,
			"ward session: the run ended before the driver was "
			"ready:\n%s",
			safe);
	}
	ward_ssession_report(&s);
	return 0;
}
