/* SPDX-License-Identifier: MIT */
/*
 * cmd_explain.c: `wardc explain BLOB|SRC`: what a compiled policy really
 * allows, read back from the blob with the launcher's own reader (a source
 * is compiled in memory first), with the seccomp program's figures found by
 * exploring the program itself.
 */
#include "answer_ranges.h"
#include "blob_read.h"
#include "bpf_info.h"
#include "commands.h"
#include "describe.h"
#include "doc.h"
#include "explain_budget.h"
#include "explain_hardening.h"
#include "explain_landlock.h"
#include "net_bpf_doc.h"
#include "rules_meaning.h"
#include "sha256.h"
#include "util.h"

#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>

struct explain {
	struct ward_pool *pool;
	const struct ward_blob *blob;
	const struct ward_policy *p;
	struct ward_bpf_stats *st;
	struct ward_budget *budget;	   /* explain_budget.c */
	const struct wardc_signature *sig; /* BLOB.sig (cmd_sign.c) */
};

static const char *const sig_status[] = {
    [WARDC_SIG_NONE] = "unsigned",
    [WARDC_SIG_SIGNED] = "signed",
    [WARDC_SIG_STALE] = "stale",
    [WARDC_SIG_BAD] = "bad",
};

static struct doc *signature_doc(struct explain *e)
{
	struct doc *d = doc_map(e->pool);

	doc_set_str(e->pool, d, "status", sig_status[e->sig->status]);
	if (e->sig->status == WARDC_SIG_NONE)
		return d;
	doc_set_str(e->pool, d, "file", e->sig->file);
	if (e->sig->key_id[0])
		doc_set_str(e->pool, d, "key_id", e->sig->key_id);
	if (e->sig->detail[0])
		doc_set_str(e->pool, d, "detail", e->sig->detail);
	return d;
}

/* Who signed, as far as the file says: the key id is checked only by ward
 * --trusted-key, which holds the public key. */
static void signature_text(const struct wardc_signature *s, FILE *out)
{
	switch (s->status) {
	case WARDC_SIG_NONE:
		fprintf(out, "  signed: no (unsigned: there is no %s)\n",
			s->file);
		break;
	case WARDC_SIG_SIGNED:
		fprintf(out,
			"  signed: by key %s (%s; ward --trusted-key "
			"verifies it)\n",
			s->key_id, s->file);
		break;
	case WARDC_SIG_STALE:
		fprintf(out,
			"  signed: no, %s (key %s) is for another blob: %s\n",
			s->file, s->key_id, s->detail);
		break;
	case WARDC_SIG_BAD:
		fprintf(out, "  signed: no, %s is not a signature: %s\n",
			s->file, s->detail);
		break;
	}
}

static const char *hex(struct ward_pool *pool, const uint8_t d[32])
{
	char *h = ward_pool_alloc(pool, 65);
	ward_hex(d, 32, h);
	return h;
}

static const char *bpf_action(struct ward_pool *pool, uint32_t ret)
{
	char buf[32];
	return ward_pool_strdup(pool,
				ward_bpf_action_name(ret, buf, sizeof(buf)));
}

/* ------------------------------------------------------------- document */

static struct doc *mounts_doc(struct explain *e)
{
	struct ward_pool *pl = e->pool;
	struct doc *list = doc_list(pl);
	for (uint32_t i = 0; i < e->p->nmounts; i++) {
		const struct ward_mount *m = &e->p->mounts[i];
		struct doc *d = doc_add(list, NULL, doc_map(pl));
		doc_set_str(pl, d, "destination", m->dst);
		doc_set_str(pl, d, "type", describe_mount_kind(m->kind));
		if (m->src)
			doc_set_str(pl, d,
				    m->kind == WARD_MNT_SLOT	  ? "slot"
				    : m->kind == WARD_MNT_SYMLINK ? "target"
								  : "source",
				    m->src);
		doc_set_bool(pl, d, "writable",
			     (m->flags & WARD_MNT_F_RW) && i != 0);
		doc_set_bool(pl, d, "exec", m->flags & WARD_MNT_F_EXEC);
		if (m->kind == WARD_MNT_TMPFS ||
		    (m->kind == WARD_MNT_SLOT && m->size))
			doc_set_uint(pl, d, "size_bytes", m->size);
		if (m->kind == WARD_MNT_TMPFS || m->kind == WARD_MNT_FILE ||
		    m->kind == WARD_MNT_DIR)
			doc_set_str(pl, d, "mode",
				    ward_pool_printf(pl, "%04o", m->mode));
		if (m->kind == WARD_MNT_FILE)
			doc_set_uint(pl, d, "content_bytes", m->data_len);
		if (m->flags & WARD_MNT_F_OPTIONAL)
			doc_set_bool(pl, d, "optional", true);
	}
	return list;
}

static struct doc *limits_doc(struct explain *e)
{
	static const char *const units[WARD_LIM_COUNT] = {
	    [WARD_LIM_MEMORY] = "bytes",    [WARD_LIM_SWAP] = "bytes",
	    [WARD_LIM_CPU] = "millicpu",    [WARD_LIM_WALL] = "ms",
	    [WARD_LIM_GRACE] = "ms",	    [WARD_LIM_CPUTIME] = "ms",
	    [WARD_LIM_FILESIZE] = "bytes",  [WARD_LIM_STACK] = "bytes",
	    [WARD_LIM_MEMLOCK] = "bytes",   [WARD_LIM_CORE] = "bytes",
	    [WARD_LIM_STDOUT] = "bytes",    [WARD_LIM_STDERR] = "bytes",
	    [WARD_LIM_OUTPUT] = "bytes",    [WARD_LIM_MSGQUEUE] = "bytes",
	    [WARD_LIM_SLOT_SIZE] = "bytes",
	};
	struct doc *m = doc_map(e->pool);
	for (int k = 0; k < WARD_LIM_COUNT; k++) {
		const char *key;

		if (!ward_limit_is_set(&e->p->limits, k))
			continue;
		key = units[k]
			  ? ward_pool_printf(e->pool, "%s_%s",
					     describe_limit_name(k), units[k])
			  : describe_limit_name(k);
		doc_set_uint(e->pool, m, key, e->p->limits.value[k]);
	}
	return m;
}

static struct doc *net_doc(struct explain *e)
{
	struct ward_pool *pl = e->pool;
	const struct ward_net *n = &e->p->net;
	struct doc *d = doc_map(pl);
	struct doc *hosts;
	struct doc *allow;

	doc_set_str(pl, d, "mode",
		    n->mode == WARD_NET_NONE ? "none" : "allowlist");
	if (n->mode == WARD_NET_NONE)
		return d;
	hosts = doc_add(d, "hosts", doc_list(pl));
	for (uint32_t i = 0; i < n->nhosts; i++) {
		struct doc *h = doc_add(hosts, NULL, doc_map(pl));
		doc_set_str(pl, h, "name", n->hosts[i].name);
		doc_set_str(
		    pl, h, "address",
		    describe_addr(pl, n->hosts[i].family, n->hosts[i].addr));
	}
	allow = doc_add(d, "allow", doc_list(pl));
	for (uint32_t i = 0; i < n->nrules; i++)
		doc_add(allow, NULL,
			doc_str(pl, describe_net_rule(pl, &n->rules[i])));
	if (n->nnames) {
		struct doc *names = doc_add(d, "names", doc_list(pl));

		doc_set_str(pl, d, "name_addresses",
			    "learned at run time: the answers of the "
			    "sandbox's DNS stub to these names");
		for (uint32_t i = 0; i < n->nnames; i++)
			doc_add(
			    names, NULL,
			    doc_str(pl, describe_net_name(pl, &n->names[i])));
		{
			struct ward_net_prefix o[64];
			size_t no = ward_answers_opened(n, o, 64);
			struct doc *op =
			    doc_add(d, "answers_opened", doc_list(pl));

			for (size_t i = 0; i < no && i < 64; i++)
				doc_add(op, NULL,
					doc_str(pl, ward_pool_printf(
							pl, "%s/%u",
							describe_addr(
							    pl, o[i].family,
							    o[i].addr),
							o[i].prefix)));
		}
		names = doc_add(d, "answers_refused", doc_list(pl));
		for (uint32_t i = 0; i < n->nrefused; i++)
			doc_add(names, NULL,
				doc_str(pl, ward_pool_printf(
						pl, "%s/%u",
						describe_addr(
						    pl, n->refused[i].family,
						    n->refused[i].addr),
						n->refused[i].prefix)));
	}
	ward_net_bpf_doc(pl, d, &n->bpf); /* net_bpf_doc.c */
	return d;
}

static struct doc *syscalls_doc(struct explain *e)
{
	struct ward_pool *pl = e->pool;
	const struct ward_rules *r = &e->p->rules;
	struct doc *d = doc_map(pl);
	struct doc *rules;

	doc_set_str(pl, d, "default", ward_action_name(pl, r->default_action));
	doc_set_uint(pl, d, "instructions", e->st->ninsns);
	if (e->st->longest_allow_nr >= 0) {
		struct doc *lp =
		    doc_add(d, "longest_allowed_path", doc_map(pl));
		doc_set_uint(pl, lp, "instructions", e->st->longest_allow);
		doc_set_uint(pl, lp, "nr", (uint64_t)e->st->longest_allow_nr);
		for (uint32_t i = 0; i < r->nsyscalls; i++)
			if (r->syscalls[i].nr == e->st->longest_allow_nr)
				doc_set_str(pl, lp, "syscall",
					    r->syscalls[i].name);
	}
	doc_set_uint(pl, d, "kernel_cached_allowed", e->st->n_const_allow);
	doc_set_uint(pl, d, "argument_checked", e->st->n_arg_checked);
	if (e->p->arch == WARD_ARCH_X86_64)
		doc_set_str(pl, d, "x32_abi",
			    bpf_action(pl, e->st->x32_action));
	doc_set_str(pl, d, "foreign_arch",
		    bpf_action(pl, e->st->badarch_action));
	rules = doc_add(d, "rules", doc_list(pl));
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &r->syscalls[i];
		struct doc *x = doc_add(rules, NULL, doc_map(pl));
		doc_set_str(pl, x, "syscall", s->name);
		doc_set_uint(pl, x, "nr", (uint64_t)s->nr);
		doc_set_str(
		    pl, x, "action",
		    describe_syscall(pl, e->p->arch, s, r->default_action));
		if (s->nr >= 0 && s->nr < WARD_BPF_NR_COUNT) {
			const struct ward_bpf_nr_stat *ns = &e->st->nr[s->nr];
			doc_set_bool(pl, x, "argument_checked",
				     ns->arg_checked);
			doc_set_bool(pl, x, "kernel_cached", ns->const_allow);
			doc_set_uint(pl, x, "path_instructions", ns->longest);
		}
	}
	return d;
}

static struct doc *explain_doc(struct explain *e)
{
	struct ward_pool *pl = e->pool;
	const struct ward_policy *p = e->p;
	struct doc *d = doc_map(pl);
	struct doc *req;
	const char *rs;
	struct doc *id;
	struct doc *caps;
	struct doc *env;

	doc_set_str(pl, d, "policy", p->meta.policy_name);
	doc_set_str(pl, d, "compiler", p->meta.compiler_version);
	doc_set_uint(pl, d, "blob_format", e->blob->format_version);
	doc_set_str(pl, d, "arch", describe_arch(p->arch));
	doc_set_str(pl, d, "blob_sha256", hex(pl, e->blob->file_digest));
	doc_set_str(pl, d, "source_sha256", hex(pl, p->meta.source_digest));
	doc_add(d, "signature", signature_doc(e));
	req = doc_add(d, "requires", doc_list(pl));
	rs = describe_requirements(pl, p->requirements);
	if (p->requirements) {
		char *copy = ward_pool_strdup(pl, rs);
		for (char *tok = strtok(copy, " "); tok;
		     tok = strtok(NULL, " "))
			doc_add(req, NULL, doc_str(pl, tok));
	}
	id = doc_add(d, "identity", doc_map(pl));
	doc_set_uint(pl, id, "uid", p->identity.uid);
	doc_set_uint(pl, id, "gid", p->identity.gid);
	doc_set_str(pl, id, "hostname", p->identity.hostname);
	caps = doc_add(id, "capabilities", doc_list(pl));
	for (int c = 0; c < 64; c++)
		if (p->identity.caps_keep & (1ull << c))
			doc_add(caps, NULL,
				doc_str(pl, ward_pool_printf(pl, "%d", c)));
	env = doc_add(d, "env", doc_list(pl));
	for (uint32_t i = 0; i < p->nenv; i++) {
		struct doc *v = doc_add(env, NULL, doc_map(pl));
		doc_set_str(pl, v, "name", p->env[i].name);
		if (p->env[i].value)
			doc_set_str(pl, v, "value", p->env[i].value);
		else
			doc_set_bool(pl, v, "inherit", true);
	}
	doc_add(d, "mounts", mounts_doc(e));
	ward_landlock_doc(d, pl, p);
	doc_add(d, "limits", limits_doc(e));
	doc_add(d, "network", net_doc(e));
	doc_add(d, "syscalls", syscalls_doc(e));
	ward_hardening_doc(d, pl, p);
	ward_budget_doc(d, pl, p, e->budget);
	return d;
}

/* ----------------------------------------------------------------- text */

static void text_syscalls(struct explain *e, FILE *out)
{
	struct ward_pool *pl = e->pool;
	const struct ward_rules *r = &e->p->rules;
	int col = 3;

	fprintf(out, "\nsyscalls\n  default: %s\n",
		ward_action_name(pl, r->default_action));
	fprintf(out, "  program: %u instructions", e->st->ninsns);
	if (e->st->longest_allow_nr >= 0) {
		const char *name = "?";
		for (uint32_t i = 0; i < r->nsyscalls; i++)
			if (r->syscalls[i].nr == e->st->longest_allow_nr)
				name = r->syscalls[i].name;
		fprintf(out, ", longest path to an allow: %u (%s)",
			e->st->longest_allow, name);
	}
	fprintf(out, "\n  x32 ABI: %s; other architectures: %s\n",
		e->p->arch == WARD_ARCH_X86_64
		    ? bpf_action(pl, e->st->x32_action)
		    : "n/a",
		bpf_action(pl, e->st->badarch_action));

	/* Allowed without conditions, which the kernel caches. */
	fprintf(out, "  allowed, cached by the kernel (%u):\n   ",
		e->st->n_const_allow);
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &r->syscalls[i];
		int w;

		if (s->nr < 0 || s->nr >= WARD_BPF_NR_COUNT ||
		    !e->st->nr[s->nr].const_allow)
			continue;
		w = (int)strlen(s->name) + 1;
		if (col + w > 78) {
			fputs("\n   ", out);
			col = 3;
		}
		fprintf(out, " %s", s->name);
		col += w;
	}
	fputc('\n', out);
	fprintf(out, "  argument-checked (%u, not cached by the kernel):\n",
		e->st->n_arg_checked);
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &r->syscalls[i];
		if (s->nr < 0 || s->nr >= WARD_BPF_NR_COUNT ||
		    !e->st->nr[s->nr].arg_checked)
			continue;
		fprintf(out, "    %-20s %s\n", s->name,
			describe_syscall(pl, e->p->arch, s, r->default_action));
	}
	fputs("  other rules:\n", out);
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &r->syscalls[i];
		bool shown = s->nr >= 0 && s->nr < WARD_BPF_NR_COUNT &&
			     (e->st->nr[s->nr].const_allow ||
			      e->st->nr[s->nr].arg_checked);
		if (shown)
			continue;
		fprintf(out, "    %-20s %s\n", s->name,
			describe_syscall(pl, e->p->arch, s, r->default_action));
	}
}

static void explain_text(struct explain *e, FILE *out)
{
	struct ward_pool *pl = e->pool;
	const struct ward_policy *p = e->p;
	bool any = false;

	fprintf(out, "policy %s  (%s, blob format %u, %s)\n",
		p->meta.policy_name, p->meta.compiler_version,
		e->blob->format_version, describe_arch(p->arch));
	fprintf(out, "  blob   sha256:%s\n", hex(pl, e->blob->file_digest));
	fprintf(out, "  source sha256:%s\n", hex(pl, p->meta.source_digest));
	signature_text(e->sig, out);
	fprintf(out, "  requires: %s\n",
		describe_requirements(pl, p->requirements));

	fprintf(out,
		"\nidentity\n  user %u, group %u, hostname \"%s\", "
		"capabilities: ",
		p->identity.uid, p->identity.gid, p->identity.hostname);
	if (!p->identity.caps_keep)
		fputs("none", out);
	for (int c = 0, first = 1; c < 64; c++)
		if (p->identity.caps_keep & (1ull << c)) {
			fprintf(out, "%s%d", first ? "" : ", ", c);
			first = 0;
		}
	fputs("\n  always: no_new_privs, no controlling terminal, never "
	      "host root\n",
	      out);

	fputs("\nenvironment (nothing else is inherited)\n", out);
	if (!p->nenv)
		fputs("  (empty)\n", out);
	for (uint32_t i = 0; i < p->nenv; i++) {
		if (p->env[i].value)
			fprintf(out, "  %s=%s\n", p->env[i].name,
				p->env[i].value);
		else
			fprintf(out, "  %s (the caller's, if set)\n",
				p->env[i].name);
	}

	fputs("\nmounts (in the order the launcher applies them)\n", out);
	for (uint32_t i = 0; i < p->nmounts; i++)
		fprintf(out, "  %2u  %-24s %s\n", i, p->mounts[i].dst,
			describe_mount(pl, &p->mounts[i]));
	ward_landlock_text(out, pl, p);

	fputs("\nlimits\n", out);
	for (int k = 0; k < WARD_LIM_COUNT; k++) {
		if (!ward_limit_is_set(&p->limits, k))
			continue;
		fprintf(out, "  %-9s %s\n", describe_limit_name(k),
			describe_limit_value(pl, k, p->limits.value[k]));
		any = true;
	}
	if (!any)
		fputs("  (none)\n", out);

	fputs("\nnetwork\n", out);
	if (p->net.mode == WARD_NET_NONE) {
		fputs("  none: a network namespace of its own, loopback "
		      "only\n",
		      out);
	} else {
		fputs("  egress allow-list (everything else is refused):\n",
		      out);
		for (uint32_t i = 0; i < p->net.nrules; i++)
			fprintf(out, "    allow %s\n",
				describe_net_rule(pl, &p->net.rules[i]));
		for (uint32_t i = 0; i < p->net.nhosts; i++)
			fprintf(out, "    host %s = %s\n", p->net.hosts[i].name,
				describe_addr(pl, p->net.hosts[i].family,
					      p->net.hosts[i].addr));
		if (p->net.nnames)
			fputs("  by name (their addresses are learned at run "
			      "time, from the answers\n  of the sandbox's DNS "
			      "stub; `*.` stands for one or more labels):\n",
			      out);
		for (uint32_t i = 0; i < p->net.nnames; i++)
			fprintf(out, "    allow %s\n",
				describe_net_name(pl, &p->net.names[i]));
		if (p->net.nnames) {
			struct ward_net_prefix o[64];
			size_t no = ward_answers_opened(&p->net, o, 64);

			fputs("  an answer's address is never learned in "
			      "loopback, link-local (the cloud\n  metadata "
			      "address), unspecified, multicast or broadcast "
			      "networks, nor\n  in the private ones (10/8, "
			      "100.64/10, 172.16/12, 192.168/16, fc00::/7)\n"
			      "  but for those `allow answers` opens:",
			      out);
			for (size_t i = 0; i < no && i < 64; i++)
				fprintf(
				    out, " %s/%u",
				    describe_addr(pl, o[i].family, o[i].addr),
				    o[i].prefix);
			fputs(no ? "\n" : " none\n", out);
		}
		ward_net_bpf_text(out, &p->net.bpf); /* net_bpf_doc.c */
	}
	text_syscalls(e, out);
	ward_hardening_text(out, pl, p);
	ward_budget_text(out, pl, p, e->budget);
}

int cmd_explain(struct wardc_args *a)
{
	const char *fmt;
	struct ward_budget budget;
	char why[160];
	struct ward_blob blob;
	ward_err err = {0};
	char msg[WARD_ERR_MSG_MAX + 128];
	size_t len = 0;
	int rc;
	struct ward_pool *pool;
	static struct wardc_signature sig;

	if (a->nfiles != 1) {
		fprintf(stderr, "wardc explain: give one blob or source\n");
		return WARDC_USAGE;
	}
	fmt = a->out_format;
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "yaml")) {
		fprintf(stderr,
			"wardc explain: unknown format `%s` (text, "
			"json or yaml)\n",
			fmt);
		return WARDC_USAGE;
	}
	if (ward_budget_options(a->retries, a->queue, &budget, why,
				sizeof(why)) < 0) {
		fprintf(stderr, "wardc explain: %s\n", why);
		return WARDC_USAGE;
	}
	_cleanup_free_ uint8_t *buf = NULL;
	rc = ward_driver_blob(a->files[0], &a->opts, &buf, &len);
	if (rc != WARDC_OK)
		return rc;
	if (ward_blob_read(buf, len, 0, &blob, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[0],
			ward_err_str(&err, msg, sizeof(msg)));
		return WARDC_POLICY_ERROR;
	}
	_cleanup_free_ struct ward_bpf_stats *st = calloc(1, sizeof(*st));
	pool = ward_pool_new();
	rc = WARDC_OK;
	if (!st || ward_bpf_stats(blob.policy.seccomp.insns,
				  blob.policy.seccomp.ninsns,
				  blob.policy.seccomp.arch, st, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[0],
			st ? ward_err_str(&err, msg, sizeof(msg))
			   : "out of memory");
		rc = WARDC_POLICY_ERROR;
	} else if (a->bpf) {
		ward_bpf_disasm(blob.policy.seccomp.insns,
				blob.policy.seccomp.ninsns, stdout);
	} else {
		struct explain e = {pool, &blob,   &blob.policy,
				    st,	  &budget, &sig};
		wardc_signature_of(a->files[0], blob.file_digest, &sig);
		ward_budget_compute(&blob.policy, &budget);
		if (!strcmp(fmt, "text"))
			explain_text(&e, stdout);
		else if (!strcmp(fmt, "json"))
			doc_print_json(explain_doc(&e), stdout);
		else
			doc_print_yaml(explain_doc(&e), stdout);
	}
	ward_pool_free(pool);
	ward_blob_release(&blob);
	if (fflush(stdout) != 0)
		return WARDC_USAGE;
	return rc;
}
