/* SPDX-License-Identifier: MIT */
/*
 * evidence.c: see evidence.h.
 */
#include "evidence.h"

#include "json.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const char *find_slot(const struct ward_channel_arg *slots,
			     size_t nslots, const char *name)
{
	for (size_t i = 0; i < nslots; i++)
		if (slots[i].name && !strcmp(slots[i].name, name))
			return slots[i].path;
	return NULL;
}

void ward_evidence_init(struct ward_evidence *ev, bool wanted,
			const struct ward_channel_arg *inputs, size_t ninputs,
			const struct ward_channel_arg *slots, size_t nslots)
{
	ev->wanted = wanted;
	ev->program_fd = -1;
	for (size_t i = 0; i < ninputs && i < WARD_EV_INPUTS; i++) {
		struct ward_ev_input *in = &ev->inputs[ev->ninputs++];

		*in = (struct ward_ev_input){
		    .name = inputs[i].name,
		    .host_path = inputs[i].path,
		    .snapshot = find_slot(slots, nslots, inputs[i].name),
		    .done = !wanted,
		};
	}
}

void ward_evidence_program(struct ward_evidence *ev,
			   const struct ward_hand_program *m, int fd)
{
	if (ev->have_program || !ev->wanted) {
		if (fd >= 0)
			close(fd);
		return;
	}
	ev->have_program = true;
	memcpy(ev->program_path, m->path, sizeof(ev->program_path));
	ev->program_path[sizeof(ev->program_path) - 1] = '\0';
	if (fd < 0) {
		ev->program_done = true;
		snprintf(ev->program_error, sizeof(ev->program_error),
			 "not readable by the sandbox user: %s",
			 strerror(m->m.index ? (int)m->m.index : EBADF));
		return;
	}
	ev->program_fd = fd;
	ward_sha256x_init(&ev->h);
}

bool ward_evidence_pending(const struct ward_evidence *ev)
{
	/* The inputs once the sandbox is set up: a tree is one step, and
	 * init may be waiting for the courier to fill a read-write slot. */
	return (ev->have_program && !ev->program_done) ||
	       (ev->started && ev->next < ev->ninputs);
}

static void program_step(struct ward_evidence *ev)
{
	static uint8_t buf[65536];
	size_t done = 0;

	while (done < WARD_EV_STEP) {
		ssize_t n = read(ev->program_fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(ev->program_error, sizeof(ev->program_error),
				 "read: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			ward_sha256x_final(&ev->h, ev->program_sha256);
			ev->program_ok = true;
			break;
		}
		ward_sha256x_update(&ev->h, buf, (size_t)n);
		ev->program_bytes += (uint64_t)n;
		done += (size_t)n;
	}
	if (done >= WARD_EV_STEP)
		return;
	close(ev->program_fd);
	ev->program_fd = -1;
	ev->program_done = true;
}

static void input_step(struct ward_ev_input *in)
{
	_cleanup_close_ int fd = -1;
	ward_err err = {0};

	in->done = true;
	if (!in->snapshot) {
		snprintf(in->error, sizeof(in->error), "no snapshot");
		return;
	}
	fd =
	    open(in->snapshot, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		ward_fail(&err, errno, "open the snapshot");
	else if (ward_tree_digest_dir(fd, false, &in->d, &err) == 0)
		in->ok = true;
	if (!in->ok)
		ward_err_str(&err, in->error, sizeof(in->error));
}

void ward_evidence_step(struct ward_evidence *ev)
{
	if (ev->have_program && !ev->program_done)
		program_step(ev);
	else if (ev->started && ev->next < ev->ninputs)
		input_step(&ev->inputs[ev->next++]);
}

void ward_evidence_finish(struct ward_evidence *ev)
{
	ev->started = true;
	while (ward_evidence_pending(ev))
		ward_evidence_step(ev);
}

static void put_sha(FILE *f, bool ok, const uint8_t d[32])
{
	char hex[65];

	if (!ok) {
		fputs("null", f);
		return;
	}
	ward_hex(d, 32, hex);
	fprintf(f, "\"%s\"", hex);
}

void ward_evidence_put_program(FILE *f, const struct ward_evidence *ev,
			       bool execd)
{
	if (!ev || !ev->wanted || !ev->have_program || !execd) {
		fputs("null", f);
		return;
	}
	fputs("{\"path\": ", f);
	ward_json_str(f, ev->program_path);
	fputs(", \"opened\": \"by the target, just before its execve\", "
	      "\"sha256\": ",
	      f);
	put_sha(f, ev->program_ok, ev->program_sha256);
	fputs(", \"size\": ", f);
	ward_json_u64_or_null(f, ev->program_ok, ev->program_bytes);
	fputs(", \"error\": ", f);
	ward_json_str(f, ev->program_ok ? NULL : ev->program_error);
	fputc('}', f);
}

void ward_evidence_put_inputs(FILE *f, const struct ward_evidence *ev)
{
	fputc('[', f);
	for (size_t i = 0; ev && i < ev->ninputs; i++) {
		const struct ward_ev_input *in = &ev->inputs[i];

		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		ward_json_str(f, in->name);
		fputs(", \"host_path\": ", f);
		ward_json_str(f, in->host_path);
		fputs(", \"digest\": \"ward-tree-1\", \"sha256\": ", f);
		put_sha(f, in->ok, in->d.sha256);
		fputs(", \"entries\": ", f);
		ward_json_u64_or_null(f, in->ok, in->d.entries);
		fputs(", \"bytes\": ", f);
		ward_json_u64_or_null(f, in->ok, in->d.bytes);
		fputs(", \"error\": ", f);
		ward_json_str(f, in->ok ? NULL : in->error);
		fputc('}', f);
	}
	fputc(']', f);
}

/* The allow-list as the blob holds it, in a fixed encoding: each rule
 * (protocol, family, prefix, 16 address bytes, ports, big-endian), then
 * each host (name, NUL, family, 16 address bytes). */
void ward_evidence_put_network(FILE *f, const struct ward_policy *p)
{
	struct ward_sha256 h;
	uint8_t d[32];

	if (!p) {
		fputs("null", f);
		return;
	}
	fputs("{\"mode\": ", f);
	ward_json_str(f, p->net.mode == WARD_NET_ALLOWLIST ? "allow-list"
							   : "none");
	fprintf(f, ", \"rules\": %u, \"hosts\": %u, \"allow_list_sha256\": ",
		p->net.nrules, p->net.nhosts);
	if (p->net.mode != WARD_NET_ALLOWLIST) {
		fputs("null}", f);
		return;
	}
	ward_sha256_init(&h);
	ward_sha256_update(&h, "ward-net-1\n", 11);
	for (uint32_t i = 0; i < p->net.nrules; i++) {
		const struct ward_net_rule *r = &p->net.rules[i];
		uint8_t b[3 + 16 + 4] = {r->proto, r->family, r->prefix};

		memcpy(b + 3, r->addr, 16);
		b[19] = (uint8_t)(r->port_lo >> 8);
		b[20] = (uint8_t)r->port_lo;
		b[21] = (uint8_t)(r->port_hi >> 8);
		b[22] = (uint8_t)r->port_hi;
		ward_sha256_update(&h, b, sizeof(b));
	}
	for (uint32_t i = 0; i < p->net.nhosts; i++) {
		const struct ward_net_host *x = &p->net.hosts[i];
		const char *name = x->name ? x->name : "";

		ward_sha256_update(&h, name, strlen(name) + 1);
		ward_sha256_update(&h, &x->family, 1);
		ward_sha256_update(&h, x->addr, 16);
	}
	ward_sha256_final(&h, d);
	put_sha(f, true, d);
	fputc('}', f);
}
