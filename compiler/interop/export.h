/* SPDX-License-Identifier: MIT */
/*
 * export.h: a compiled policy in the formats of other tools (docs/export.md).
 *
 *   - the seccomp part as OCI runtimes and the Kubernetes Security Profiles
 *     Operator take it: entries of syscall names, one action and at most one
 *     comparison per argument, ANDed;
 *   - `wardc export --format oci`: a runtime-spec config.json;
 *   - `wardc export --format k8s`: a SeccompProfile, a Pod and a
 *     NetworkPolicy, as YAML.
 *
 * What the target format cannot say is collected as notes, one line each,
 * which the formats carry (an annotation, YAML comments) and wardc prints.
 */
#ifndef WARD_EXPORT_H
#define WARD_EXPORT_H

#include "doc.h"
#include "policy.h"
#include "pool.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The comparison operators of libseccomp (and of the OCI "op" field). */
enum ward_xop {
	WARD_XOP_EQ,
	WARD_XOP_NE,
	WARD_XOP_LT,
	WARD_XOP_LE,
	WARD_XOP_GT,
	WARD_XOP_GE,
	WARD_XOP_MASKED_EQ /* (arg & value) == value_two */
};

struct ward_xcmp {
	uint8_t arg; /* 0..5 */
	uint8_t op;  /* enum ward_xop */
	uint64_t value, value_two;
};

/* One entry: these syscalls, when every comparison holds, get action. */
struct ward_xentry {
	const char **names;
	uint32_t nnames;
	struct ward_action action;
	struct ward_xcmp cmps[6]; /* sorted by argument, one per argument */
	uint8_t ncmps;
};

struct ward_xseccomp {
	/* What the consumer does when no entry matches. */
	struct ward_action base;
	struct ward_xentry *entries;
	size_t nentries;
};

/*
 * The entries of rules (the policy's rule table, for arch) for a consumer
 * that applies `base` to every call no entry matches, under libseccomp's
 * rules: the entries of one syscall never overlap, so that how libseccomp
 * resolves overlapping rules (the shorter chain wins, an unconditional rule
 * silences conditional ones) never matters. A condition of the language is
 * split into such regions: the strictest rule takes its region first, the
 * next takes what is left of its own, and so on; comparisons libseccomp
 * lacks (masked !=, ranges with two bounds) become several entries.
 *
 * base is the policy's default action for OCI. When base differs from it
 * (the operator's profiles cannot carry an errno for the default), every
 * syscall of the target that the policy leaves to its default gets an
 * entry of its own. Fails on a table that would need more than a few
 * thousand entries for one syscall.
 */
int ward_export_seccomp(struct ward_pool *p, const struct ward_rules *rules,
			uint32_t arch, struct ward_action base,
			struct ward_xseccomp *out, ward_err *err);

/*
 * Build x with libseccomp as OCI runtimes do (crun's loop), in a child
 * process given a few seconds, and give the program's length in *ninsns.
 * Fails when libseccomp refuses the entries or does not finish (it loops
 * on some rule sets): a runtime would fail or hang the same way.
 */
int ward_xseccomp_load_size(const struct ward_xseccomp *x, uint32_t arch,
			    uint32_t *ninsns, ward_err *err);

/* The same, and fail unless the program fits the kernel's limit. */
int ward_xseccomp_check(const struct ward_xseccomp *x, uint32_t arch,
			ward_err *err);

/* Whether some argument vector satisfies both conjunctions (the import
 * checks entries of a profile for overlaps with it). */
bool ward_conj_overlap(const struct ward_cmp *a, uint32_t na,
		       const struct ward_cmp *b, uint32_t nb);

/* "SCMP_ACT_ERRNO" and the like, and libseccomp's name of an operator
 * and of an architecture ("SCMP_ARCH_X86_64"). */
const char *ward_xaction_name(struct ward_action a);
const char *ward_xop_name(uint8_t op);
const char *ward_xarch_name(uint32_t arch);

/*
 * The "seccomp" object of x: defaultAction (with defaultErrnoRet when
 * with_default_errno and the base is an errno), architectures, syscalls.
 */
struct doc *ward_xseccomp_doc(struct ward_pool *p,
			      const struct ward_xseccomp *x, uint32_t arch,
			      bool with_default_errno);

/* A note: something the target format cannot express. */
struct ward_notes {
	struct ward_pool *pool;
	const char **items;
	size_t n, cap;
};
void ward_note(struct ward_notes *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A note naming the syscalls of x that the libseccomp wardc links has no
 * name for on arch: a runtime linked with it skips their entries. */
void ward_xseccomp_runtime_notes(struct ward_pool *p,
				 const struct ward_xseccomp *x, uint32_t arch,
				 struct ward_notes *notes);

/* One note per rule and host of an egress allow-list, saying `instead`. */
void ward_net_notes(struct ward_pool *p, const struct ward_policy *pol,
		    struct ward_notes *notes, const char *instead);

/* The notes of what the launcher sets that neither format can: the
 * sandbox's user namespace limits (inotify, fanotify) and `memfd
 * noexec`. */
void ward_userns_notes(struct ward_pool *p, const struct ward_policy *pol,
		       struct ward_notes *notes);

/* The notes of `identity { groups keep; }` (groups: what the format's
 * container gets instead) and of `stdout text` / `stderr text`. */
void ward_identity_output_notes(const struct ward_policy *pol,
				struct ward_notes *notes, const char *groups);

/* One note per export rule (the output channel of docs/spec.md part 6),
 * which neither format has. */
void ward_export_rule_notes(const struct ward_policy *pol,
			    struct ward_notes *notes);

/* Make x's comparison values fit below 2^63, as the Security Profiles
 * Operator's CRD and crun's JSON reader need (export_values.c); notes what
 * it cannot say exactly, fails on what it cannot say at all. */
int ward_xseccomp_int63(struct ward_pool *p, struct ward_xseccomp *x,
			struct ward_notes *notes, ward_err *err);

/* What a config.json is for. All zero: a config alone, whose root.path
 * ("rootfs") and process.args (empty) are the caller's, slots as the
 * placeholders ${WARD_SLOT_NAME}. */
struct ward_oci_opts {
	const char *const *args; /* process.args */
	size_t nargs;
	/* A bundle: the slots' host paths (slot_paths[i] for the slot
	 * slot_names[i]; every slot of the policy has one), and optional
	 * binds whose source is missing left out; the policy's files,
	 * symlinks and dirs are in the bundle's rootfs (export_bundle.c). */
	bool bundle;
	const char *const *slot_names, *const *slot_paths;
	size_t nslots;
	/* Allow the syscalls runc's init makes after it loads the filter
	 * (RUNC_INIT_SYSCALLS in export_oci.c): a widening, noted. */
	bool runtime_init;
};

/* The host ids the container's users map to: the sandbox user's as ward's
 * launcher maps it when run as root, and container root's, which runc
 * requires a mapping for (it owns what runc creates); neither is host
 * root. */
#define WARD_OCI_HOST_ID      65534u
#define WARD_OCI_HOST_ROOT_ID 65533u

/* The config.json of policy. Returns NULL with err filled. */
struct doc *ward_export_oci(struct ward_pool *p, const struct ward_policy *pol,
			    const struct ward_oci_opts *o,
			    struct ward_notes *notes, ward_err *err);

/* `wardc export --format oci --bundle DIR`: DIR/config.json and DIR/rootfs
 * (every mount point the config needs, the policy's files, symlinks and
 * dirs), and DIR/slots/NAME for each slot not in slots ("NAME=PATH").
 * o gives args and runtime_init; its bundle fields are filled here.
 * Refuses a DIR that holds a bundle already. Returns 0, -1 when the policy
 * cannot be translated, -2 on a usage or I/O error (err says which). */
int ward_export_bundle(struct ward_pool *p, const struct ward_policy *pol,
		       const char *dir, struct ward_oci_opts *o,
		       const char *const *slots, size_t nslots,
		       struct ward_notes *notes, ward_err *err);

/* Where the Security Profiles Operator keeps a SeccompProfile. */
enum ward_spo_layout {
	/* v0.9.0 and later: cluster-scoped, security-profiles-operator
	 * .x-k8s.io/v1, installed on each node as operator/NAME.json */
	WARD_SPO_CLUSTER,
	/* before v0.9.0: namespaced, v1beta1, operator/NAMESPACE/NAME.json
	 * (written for the namespace `default`) */
	WARD_SPO_NAMESPACED,
};

/* The Kubernetes documents of policy, printed to out as YAML. */
int ward_export_k8s(struct ward_pool *p, const struct ward_policy *pol,
		    enum ward_spo_layout layout, struct ward_notes *notes,
		    FILE *out, ward_err *err);

#endif
