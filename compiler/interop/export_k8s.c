/* SPDX-License-Identifier: MIT */
/*
 * export_k8s.c: `wardc export --format k8s`: a policy as Kubernetes
 * documents, in one YAML stream:
 *
 *   1. a SeccompProfile of the Security Profiles Operator, which installs
 *      it on every node as operator/NAME.json (cluster-scoped, API v1,
 *      since the operator's v0.9.0) or, for older operators,
 *      operator/NAMESPACE/NAME.json (namespaced, v1beta1);
 *   2. a Pod skeleton whose securityContext, resources, env and volumes
 *      carry the rest of the policy (the image is the caller's);
 *   3. a NetworkPolicy for the pod: no ingress, and egress only to what the
 *      policy's allow-list names (none for `net none`).
 *
 * YAML comments say what could not be expressed; libyaml cannot write
 * comments, so they are printed between the documents.
 */
#include "export.h"

#include "consts.h"
#include "describe.h"
#include "sha256.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#define SPO_API_V1	"security-profiles-operator.x-k8s.io/v1"
#define SPO_API_V1BETA1 "security-profiles-operator.x-k8s.io/v1beta1"
#define SPO_NAMESPACE	"default" /* the namespaced layout's */
#define LABEL		"ward-policy"

/* The profile's path under the kubelet's seccomp directory, as the
 * operator writes it (its GetProfilePath: the namespace, none for a
 * cluster-scoped profile, then NAME.json). */
static const char *spo_path(struct ward_pool *p, enum ward_spo_layout layout,
			    const char *name)
{
	if (layout == WARD_SPO_NAMESPACED)
		return ward_pool_printf(p, "operator/%s/%s.json", SPO_NAMESPACE,
					name);
	return ward_pool_printf(p, "operator/%s.json", name);
}

/* A DNS-1123 name: lower case, digits and '-', starting and ending with an
 * alphanumeric. Policy names differ only by case and '_'. */
static const char *k8s_name(struct ward_pool *p, const char *name)
{
	char *s = ward_pool_strdup(p, name);
	size_t n;

	for (char *c = s; *c; c++)
		*c = isalnum((unsigned char)*c)
			 ? (char)tolower((unsigned char)*c)
			 : '-';
	while (*s == '-')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == '-')
		s[--n] = 0;
	return n ? s : "ward";
}

/* A quantity in the largest binary unit that divides it. */
static const char *bytes_quantity(struct ward_pool *p, uint64_t b)
{
	static const char *const units[] = {"Ki", "Mi", "Gi", "Ti"};
	int u = -1;
	while (u < 3 && b >= 1024 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	return ward_pool_printf(p, "%llu%s", (unsigned long long)b,
				u < 0 ? "" : units[u]);
}

static const char *cpu_quantity(struct ward_pool *p, uint64_t millis)
{
	if (millis % 1000 == 0)
		return ward_pool_printf(p, "%llu",
					(unsigned long long)(millis / 1000));
	return ward_pool_printf(p, "%llum", (unsigned long long)millis);
}

static uint64_t seconds_up(uint64_t ms)
{
	return (ms + 999) / 1000;
}

/* ------------------------------------------------------- SeccompProfile */

static struct doc *profile_doc(struct ward_pool *p,
			       const struct ward_policy *pol, const char *name,
			       enum ward_spo_layout layout,
			       struct ward_notes *notes, ward_err *err)
{
	/* The operator's profiles have no defaultErrnoRet: a runtime then
	 * answers EPERM. Any other errno is given to each syscall by name. */
	struct ward_action dflt = pol->rules.default_action, base = dflt;
	struct ward_xseccomp x;
	struct doc *d;
	struct doc *meta;

	if (dflt.kind == WARD_ACT_ERRNO && dflt.errno_nr != 1) {
		const char *e;

		base = (struct ward_action){WARD_ACT_ERRNO, 1, 0};
		e = ward_errno_name((int)dflt.errno_nr);
		ward_note(notes,
			  "seccomp: SeccompProfile has no defaultErrnoRet: "
			  "every syscall of ward's table (the kernel's, "
			  "common/syscalls.tsv) gets errno %s by name, and "
			  "syscalls newer than it get EPERM",
			  e ? e : ward_pool_printf(p, "%u", dflt.errno_nr));
	}
	if (ward_export_seccomp(p, &pol->rules, pol->arch, base, &x, err) < 0 ||
	    ward_xseccomp_int63(p, &x, notes, err) < 0 ||
	    ward_xseccomp_check(&x, pol->arch, err) < 0)
		return NULL;
	d = doc_map(p);
	doc_set_str(p, d, "apiVersion",
		    layout == WARD_SPO_NAMESPACED ? SPO_API_V1BETA1
						  : SPO_API_V1);
	doc_set_str(p, d, "kind", "SeccompProfile");
	meta = doc_add(d, "metadata", doc_map(p));
	doc_set_str(p, meta, "name", name);
	if (layout == WARD_SPO_NAMESPACED)
		doc_set_str(p, meta, "namespace", SPO_NAMESPACE);
	doc_add(d, "spec", ward_xseccomp_doc(p, &x, pol->arch, false));
	ward_xseccomp_runtime_notes(p, &x, pol->arch, notes);
	ward_note(notes,
		  "seccomp: other architectures and the x32 ABI get the "
		  "runtime's bad-architecture action (the thread is killed) "
		  "where ward kills the process");
	return d;
}

/* ------------------------------------------------------------------ Pod */

static struct doc *container_security(struct ward_pool *p,
				      const struct ward_policy *pol)
{
	struct doc *sc = doc_map(p);
	struct doc *caps;
	uint64_t keep;

	doc_set_bool(p, sc, "allowPrivilegeEscalation", false);
	doc_set_bool(p, sc, "privileged", false);
	doc_set_bool(p, sc, "readOnlyRootFilesystem", true);
	caps = doc_add(sc, "capabilities", doc_map(p));
	doc_add(doc_add(caps, "drop", doc_list(p)), NULL, doc_str(p, "ALL"));
	keep = pol->identity.caps_keep;
	if (keep) {
		struct doc *add = doc_add(caps, "add", doc_list(p));
		for (int c = 0; c < 64; c++) {
			const char *n;

			if (!((keep >> c) & 1))
				continue;
			n = ward_cap_name(c);
			/* Kubernetes writes them without the prefix */
			if (n && !strncmp(n, "CAP_", 4))
				n += 4;
			doc_add(
			    add, NULL,
			    doc_str(p, n ? n : ward_pool_printf(p, "%d", c)));
		}
	}
	return sc;
}

static void mount_notes(struct ward_pool *p, const struct ward_mount *m,
			struct ward_notes *notes)
{
	switch (m->kind) {
	case WARD_MNT_BIND:
		ward_note(notes,
			  "fs: `bind %s at %s`: not emitted (a hostPath would "
			  "tie the pod to a node): the image provides it",
			  m->src, m->dst);
		break;
	case WARD_MNT_SLOT:
		if (m->flags & WARD_MNT_F_RW)
			/* what bounds it as ward's tmpfs does: the size */
			ward_note(notes,
				  "fs: slot `%s` at %s (rw): mount a volume "
				  "of yours there; ward's is a tmpfs of %s "
				  "(an emptyDir of medium Memory and that "
				  "sizeLimit bounds it the same way), copied "
				  "back to the host after the run",
				  m->src, m->dst, ward_size_str(p, m->size));
		else
			ward_note(notes,
				  "fs: slot `%s` at %s (readOnly): mount a "
				  "volume of yours there",
				  m->src, m->dst);
		break;
	case WARD_MNT_FILE:
		ward_note(notes,
			  "fs: `file %s` (%llu bytes): in the image, or a "
			  "ConfigMap volume with subPath",
			  m->dst, (unsigned long long)m->data_len);
		break;
	case WARD_MNT_SYMLINK:
		ward_note(notes, "fs: `symlink %s -> %s`: in the image", m->dst,
			  m->src);
		break;
	case WARD_MNT_DIR:
		ward_note(notes, "fs: `dir %s`: in the image", m->dst);
		break;
	case WARD_MNT_DEV:
	case WARD_MNT_PROC:
		if (strcmp(m->dst, m->kind == WARD_MNT_DEV ? "/dev" : "/proc"))
			ward_note(notes,
				  "fs: `%s %s`: the runtime mounts it at %s "
				  "only",
				  describe_mount_kind(m->kind), m->dst,
				  m->kind == WARD_MNT_DEV ? "/dev" : "/proc");
		break;
	}
}

/* tmpfs entries become memory-backed emptyDir volumes. */
static void volumes(struct ward_pool *p, const struct ward_policy *pol,
		    struct doc *spec, struct doc *ctr, struct ward_notes *notes)
{
	struct doc *vols = NULL, *mounts = NULL;
	unsigned k = 0;
	for (uint32_t i = 1; i < pol->nmounts; i++) {
		const struct ward_mount *m = &pol->mounts[i];
		const char *vname;
		struct doc *vm;
		struct doc *v;
		struct doc *ed;

		if (m->kind != WARD_MNT_TMPFS) {
			mount_notes(p, m, notes);
			continue;
		}
		if (!vols) {
			mounts = doc_add(ctr, "volumeMounts", doc_list(p));
			vols = doc_add(spec, "volumes", doc_list(p));
		}
		vname = ward_pool_printf(p, "tmpfs-%u", k++);
		vm = doc_add(mounts, NULL, doc_map(p));
		doc_set_str(p, vm, "name", vname);
		doc_set_str(p, vm, "mountPath", m->dst);
		v = doc_add(vols, NULL, doc_map(p));
		doc_set_str(p, v, "name", vname);
		ed = doc_add(v, "emptyDir", doc_map(p));
		doc_set_str(p, ed, "medium", "Memory");
		doc_set_str(p, ed, "sizeLimit", bytes_quantity(p, m->size));
		ward_note(
		    notes,
		    "fs: `tmpfs %s`: an emptyDir has no mode (%04o in the "
		    "policy) and is not noexec",
		    m->dst, m->mode);
	}
}

static void limits_notes(struct ward_pool *p, const struct ward_policy *pol,
			 struct ward_notes *notes)
{
	static const struct {
		enum ward_limit k;
		const char *why;
	} lost[] = {
	    {WARD_LIM_SWAP, "swap is a node setting"},
	    {WARD_LIM_PIDS, "pid limits are the kubelet's podPidsLimit"},
	    {WARD_LIM_CPUTIME, "no rlimits in a Pod"},
	    {WARD_LIM_NOFILE, "no rlimits in a Pod"},
	    {WARD_LIM_NPROC, "no rlimits in a Pod"},
	    {WARD_LIM_FILESIZE, "no rlimits in a Pod"},
	    {WARD_LIM_STACK, "no rlimits in a Pod"},
	    {WARD_LIM_MEMLOCK, "no rlimits in a Pod"},
	    {WARD_LIM_CORE, "no rlimits in a Pod"},
	    {WARD_LIM_SIGPENDING, "no rlimits in a Pod"},
	    {WARD_LIM_MSGQUEUE, "no rlimits in a Pod"},
	    {WARD_LIM_STDOUT, "log rotation is not a cap"},
	    {WARD_LIM_STDERR, "log rotation is not a cap"},
	    {WARD_LIM_OUTPUT, "log rotation is not a cap"},
	};
	const struct ward_limits *l = &pol->limits;
	for (size_t i = 0; i < ARRAY_LEN(lost); i++)
		if (ward_limit_is_set(l, lost[i].k))
			ward_note(notes, "limits: `%s %s`: not expressed (%s)",
				  describe_limit_name(lost[i].k),
				  describe_limit_value(p, lost[i].k,
						       l->value[lost[i].k]),
				  lost[i].why);
	ward_userns_notes(p, pol, notes);
	ward_identity_output_notes(
	    pol, notes,
	    "a Pod's container has the supplementalGroups "
	    "of its securityContext (none here)");
	/* The kubelet sets memory.oom.group on cgroup v2 (Kubernetes 1.28)
	 * unless the node asks otherwise: ward's default. */
	if (ward_oom_process(l))
		ward_note(notes,
			  "limits: `oom process`: not expressed (a node "
			  "setting, the kubelet's singleProcessOOMKill); on "
			  "cgroup v2 an OOM kill ends the whole container");
	if (ward_limit_is_set(l, WARD_LIM_WALL))
		ward_note(notes,
			  "limits: `wall` is activeDeadlineSeconds, counted "
			  "from when the kubelet takes the pod (image pull "
			  "included), rounded up to seconds");
}

static struct doc *pod_doc(struct ward_pool *p, const struct ward_policy *pol,
			   const char *name, enum ward_spo_layout layout,
			   struct ward_notes *notes)
{
	const struct ward_identity *id = &pol->identity;
	const struct ward_limits *l = &pol->limits;
	struct doc *d = doc_map(p);
	struct doc *meta;
	struct doc *spec;
	const char *host;
	const char *label;
	struct doc *psc;
	struct doc *sp;
	struct doc *ctr;
	struct doc *env = NULL;

	doc_set_str(p, d, "apiVersion", "v1");
	doc_set_str(p, d, "kind", "Pod");
	meta = doc_add(d, "metadata", doc_map(p));
	doc_set_str(p, meta, "name", name);
	doc_set_str(p, doc_add(meta, "labels", doc_map(p)), LABEL, name);

	spec = doc_add(d, "spec", doc_map(p));
	/* a Pod's hostname is one DNS label: lower case, no dots */
	host = id->hostname[0] ? id->hostname : "ward";
	label = k8s_name(p, host);
	if (strcmp(label, host))
		ward_note(notes,
			  "identity: hostname \"%s\" is \"%s\" in a Pod (one "
			  "DNS label)",
			  host, label);
	doc_set_str(p, spec, "hostname", label);
	/* The sandbox sees no control plane: no token, no service env. */
	doc_set_bool(p, spec, "automountServiceAccountToken", false);
	doc_set_bool(p, spec, "enableServiceLinks", false);
	doc_set_str(p, spec, "restartPolicy", "Never");
	if (ward_limit_is_set(l, WARD_LIM_WALL))
		doc_set_uint(p, spec, "activeDeadlineSeconds",
			     seconds_up(l->value[WARD_LIM_WALL]));
	if (ward_limit_is_set(l, WARD_LIM_GRACE))
		doc_set_uint(p, spec, "terminationGracePeriodSeconds",
			     seconds_up(l->value[WARD_LIM_GRACE]));
	if (pol->net.nhosts) {
		struct doc *ha = doc_add(spec, "hostAliases", doc_list(p));
		for (uint32_t i = 0; i < pol->net.nhosts; i++) {
			const struct ward_net_host *h = &pol->net.hosts[i];
			struct doc *a = doc_add(ha, NULL, doc_map(p));
			doc_set_str(p, a, "ip",
				    describe_addr(p, h->family, h->addr));
			doc_add(doc_add(a, "hostnames", doc_list(p)), NULL,
				doc_str(p, h->name));
		}
	}
	psc = doc_add(spec, "securityContext", doc_map(p));
	doc_set_bool(p, psc, "runAsNonRoot", id->uid != 0);
	if (id->uid == 0)
		ward_note(notes, "identity: `user 0` is root in the container; "
				 "ward maps it to an unprivileged host user");
	doc_set_uint(p, psc, "runAsUser", id->uid);
	doc_set_uint(p, psc, "runAsGroup", id->gid);
	sp = doc_add(psc, "seccompProfile", doc_map(p));
	doc_set_str(p, sp, "type", "Localhost");
	doc_set_str(p, sp, "localhostProfile", spo_path(p, layout, name));

	ctr =
	    doc_add(doc_add(spec, "containers", doc_list(p)), NULL, doc_map(p));
	doc_set_str(p, ctr, "name", name);
	doc_set_str(p, ctr, "image", "IMAGE");
	if (id->workdir)
		doc_set_str(p, ctr, "workingDir", id->workdir);
	for (uint32_t i = 0; i < pol->nenv; i++) {
		const struct ward_env_var *v = &pol->env[i];
		struct doc *e;

		if (!v->value) {
			ward_note(notes,
				  "env: `inherit %s`: a Pod is fixed: set its "
				  "value in the container's env",
				  v->name);
			continue;
		}
		if (!env)
			env = doc_add(ctr, "env", doc_list(p));
		e = doc_add(env, NULL, doc_map(p));
		doc_set_str(p, e, "name", v->name);
		doc_set_str(p, e, "value", v->value);
	}
	doc_add(ctr, "securityContext", container_security(p, pol));
	if (ward_limit_is_set(l, WARD_LIM_CPU) ||
	    ward_limit_is_set(l, WARD_LIM_MEMORY)) {
		struct doc *lim = doc_add(doc_add(ctr, "resources", doc_map(p)),
					  "limits", doc_map(p));
		if (ward_limit_is_set(l, WARD_LIM_CPU))
			doc_set_str(p, lim, "cpu",
				    cpu_quantity(p, l->value[WARD_LIM_CPU]));
		if (ward_limit_is_set(l, WARD_LIM_MEMORY))
			doc_set_str(
			    p, lim, "memory",
			    bytes_quantity(p, l->value[WARD_LIM_MEMORY]));
	}
	volumes(p, pol, spec, ctr, notes);
	limits_notes(p, pol, notes);
	ward_export_rule_notes(pol, notes);
	return d;
}

/* -------------------------------------------------------- NetworkPolicy */

static struct doc *netpol_doc(struct ward_pool *p,
			      const struct ward_policy *pol, const char *name)
{
	struct doc *d = doc_map(p);
	struct doc *spec;
	struct doc *sel;
	struct doc *types;
	struct doc *egress;

	doc_set_str(p, d, "apiVersion", "networking.k8s.io/v1");
	doc_set_str(p, d, "kind", "NetworkPolicy");
	doc_set_str(p, doc_add(d, "metadata", doc_map(p)), "name", name);
	spec = doc_add(d, "spec", doc_map(p));
	sel = doc_add(spec, "podSelector", doc_map(p));
	doc_set_str(p, doc_add(sel, "matchLabels", doc_map(p)), LABEL, name);
	types = doc_add(spec, "policyTypes", doc_list(p));
	doc_add(types, NULL, doc_str(p, "Ingress"));
	doc_add(types, NULL, doc_str(p, "Egress"));
	doc_add(spec, "ingress", doc_list(p));
	egress = doc_add(spec, "egress", doc_list(p));
	if (pol->net.mode != WARD_NET_ALLOWLIST)
		return d;
	for (uint32_t i = 0; i < pol->net.nrules; i++) {
		const struct ward_net_rule *r = &pol->net.rules[i];
		struct doc *e = doc_add(egress, NULL, doc_map(p));
		struct doc *to =
		    doc_add(doc_add(e, "to", doc_list(p)), NULL, doc_map(p));
		struct doc *port;

		doc_set_str(
		    p, doc_add(to, "ipBlock", doc_map(p)), "cidr",
		    ward_pool_printf(p, "%s/%u",
				     describe_addr(p, r->family, r->addr),
				     r->prefix));
		port =
		    doc_add(doc_add(e, "ports", doc_list(p)), NULL, doc_map(p));
		doc_set_str(p, port, "protocol",
			    r->proto == IPPROTO_UDP ? "UDP" : "TCP");
		doc_set_uint(p, port, "port", r->port_lo);
		if (r->port_hi != r->port_lo)
			doc_set_uint(p, port, "endPort", r->port_hi);
	}
	return d;
}

/* --------------------------------------------------------------- stream */

static void comment(FILE *out, const char *text)
{
	fputs("# ", out);
	for (const char *c = text; *c; c++) {
		fputc(*c, out);
		if (*c == '\n' && c[1])
			fputs("# ", out);
	}
	fputc('\n', out);
}

static int document(FILE *out, const struct doc *d, const char *about)
{
	/* doc_print_yaml starts the document with its own "---" */
	fputc('\n', out);
	comment(out, about);
	return doc_print_yaml(d, out);
}

int ward_export_k8s(struct ward_pool *p, const struct ward_policy *pol,
		    enum ward_spo_layout layout, struct ward_notes *notes,
		    FILE *out, ward_err *err)
{
	const char *name = k8s_name(p, pol->meta.policy_name);
	struct doc *prof = profile_doc(p, pol, name, layout, notes, err);
	struct doc *pod;
	struct doc *net;
	char hex[65];

	if (!prof)
		return -1;
	pod = pod_doc(p, pol, name, layout, notes);
	net = netpol_doc(p, pol, name);
	ward_net_notes(p, pol, notes,
		       "in the NetworkPolicy, which a CNI plugin must enforce");
	if (strcmp(name, pol->meta.policy_name))
		ward_note(notes, "the policy `%s` is named `%s` here",
			  pol->meta.policy_name, name);

	ward_hex(pol->meta.source_digest, 32, hex);
	fprintf(out,
		"# Kubernetes documents of the ward policy `%s`\n"
		"# (source sha256:%s), written by wardc export.\n",
		pol->meta.policy_name, hex);
	if (layout == WARD_SPO_NAMESPACED)
		fputs(
		    "# For a Security Profiles Operator older than v0.9.0 "
		    "(namespaced profiles):\n"
		    "# apply the SeccompProfile in the pod's namespace, change "
		    "its namespace and\n"
		    "# \"operator/" SPO_NAMESPACE "/\" in the Pod to that "
		    "namespace; set the image.\n",
		    out);
	else
		fputs("# For the Security Profiles Operator v0.9.0 and later "
		      "(cluster-scoped\n"
		      "# profiles, API v1); set the image.\n",
		      out);
	if (notes->n) {
		fputs("#\n# Not expressed, or expressed differently:\n", out);
		for (size_t i = 0; i < notes->n; i++)
			fprintf(out, "#   - %s\n", notes->items[i]);
	}
	if (document(out, prof,
		     "The syscall filter, for the Security Profiles Operator. "
		     "Entries of one syscall never\noverlap, so libseccomp's "
		     "order of rules does not matter.") < 0 ||
	    document(out, pod,
		     "The sandbox: identity, capabilities, limits, "
		     "environment and tmpfs volumes.") < 0 ||
	    document(out, net,
		     pol->net.mode == WARD_NET_ALLOWLIST
			 ? "No ingress; egress only to the policy's "
			   "allow-list (pinned hosts are hostAliases)."
			 : "`net none`: no ingress and no egress.") < 0)
		return ward_fail(err, errno, "write YAML");
	return 0;
}
