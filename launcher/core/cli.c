/* SPDX-License-Identifier: MIT */
/*
 * cli.c: ward's command line. Strict: options come before POLICY, and
 * "--" must separate POLICY from PROGRAM, so that no program name or
 * argument is ever taken for an option of ward's.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_SLOT = 256,
	OPT_REPORT,
	OPT_DIGEST,
	OPT_STDIN,
	OPT_HUID,
	OPT_HGID,
	OPT_STDOUT,
	OPT_STDERR,
	OPT_CGBASE,
	OPT_INPUT,
	OPT_EXPORT,
	OPT_MANIFEST,
	OPT_WSBASE,
	OPT_KEEPWS,
	OPT_REPLACE,
	OPT_MAXSB,
	OPT_QTIMEOUT,
	OPT_QDIR,
	OPT_TRUSTED,
	OPT_RECORD,
	OPT_EVENTS,
	OPT_UPROXY
};

static const struct option options[] = {
    {"slot", required_argument, NULL, OPT_SLOT},
    {"report", required_argument, NULL, OPT_REPORT},
    {"expect-digest", required_argument, NULL, OPT_DIGEST},
    {"stdin", required_argument, NULL, OPT_STDIN},
    {"host-uid", required_argument, NULL, OPT_HUID},
    {"host-gid", required_argument, NULL, OPT_HGID},
    {"stdout", required_argument, NULL, OPT_STDOUT},
    {"stderr", required_argument, NULL, OPT_STDERR},
    {"cgroup-base", required_argument, NULL, OPT_CGBASE},
    {"input", required_argument, NULL, OPT_INPUT},
    {"export-dir", required_argument, NULL, OPT_EXPORT},
    {"manifest", required_argument, NULL, OPT_MANIFEST},
    {"workspace-base", required_argument, NULL, OPT_WSBASE},
    {"keep-workspace", no_argument, NULL, OPT_KEEPWS},
    {"replace", no_argument, NULL, OPT_REPLACE},
    {"max-sandboxes", required_argument, NULL, OPT_MAXSB},
    {"queue-timeout", required_argument, NULL, OPT_QTIMEOUT},
    {"queue-dir", required_argument, NULL, OPT_QDIR},
    {"trusted-key", required_argument, NULL, OPT_TRUSTED},
    {"record", required_argument, NULL, OPT_RECORD},
    {"session-events", required_argument, NULL, OPT_EVENTS},
    {"upstream-proxy", required_argument, NULL, OPT_UPROXY},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

void ward_cli_usage(FILE *f)
{
	fputs(
	    "Usage: ward [OPTIONS] POLICY.wardb -- PROGRAM [ARGS...]\n"
	    "Run PROGRAM in the sandbox that the compiled policy describes.\n"
	    "\n"
	    "  --slot NAME=HOSTPATH   bind HOSTPATH at the policy's slot NAME\n"
	    "                         (a read-write slot without one gets a "
	    "fresh\n"
	    "                         directory in the run's workspace)\n"
	    "  --input NAME=HOSTPATH  copy a file or tree into a fresh "
	    "directory\n"
	    "                         for slot NAME instead (a snapshot)\n"
	    "  --export-dir DIR       after the run, export what the policy's\n"
	    "                         `export` rules allow into DIR (DIR/SLOT "
	    "with\n"
	    "                         several rules); the report lists it\n"
	    "  --manifest FILE        also write the export manifests to FILE\n"
	    "  --workspace-base DIR   where workspaces are made (default:\n"
	    "                         /run/ward; rootless: "
	    "$XDG_RUNTIME_DIR/ward\n"
	    "                         or /tmp/ward-UID)\n"
	    "  --keep-workspace       do not remove the workspace (debugging)\n"
	    "  --report FILE          write the run report (JSON) to FILE\n"
	    "  --record FILE          with a blob of `wardc compile "
	    "--record`:\n"
	    "                         log its syscalls to FILE (JSON lines),\n"
	    "                         for `wardc suggest`\n"
	    "  --replace              remove an existing --report, --stdout,\n"
	    "                         --stderr or --manifest file of yours "
	    "first\n"
	    "                         (without it ward refuses to reuse one)\n"
	    "  --expect-digest SHA256 refuse a blob whose SHA-256 differs\n"
	    "  --trusted-key PUBKEY   run only a blob signed (POLICY.sig, "
	    "wardc sign)\n"
	    "                         by this key or another --trusted-key\n"
	    "  --stdin FILE|-         the program's stdin (default /dev/null;\n"
	    "                         - passes ward's own)\n"
	    "  --stdout FILE, --stderr FILE\n"
	    "                         write what the program keeps of each "
	    "stream\n"
	    "                         (its caps) to FILE instead of ward's "
	    "own\n"
	    "  --cgroup-base CGPATH   the cgroup below which runs get theirs, "
	    "in\n"
	    "                         every hierarchy (default: ward's own "
	    "cgroup\n"
	    "                         /ward; rootless: a base delegated to "
	    "you)\n"
	    "  --upstream-proxy ADDR:PORT\n"
	    "                         open the connections of name rules "
	    "with\n"
	    "                         `CONNECT name:port` through this HTTP "
	    "proxy\n"
	    "                         (an IPv4 address, or [IPv6]; the report "
	    "says)\n"
	    "  --host-uid N, --host-gid N\n"
	    "                         root only: the unprivileged host ids "
	    "the\n"
	    "                         sandbox user maps to (default: a pair "
	    "of\n"
	    "                         ward's own that no other run holds)\n"
	    "  --max-sandboxes N      at most N sandboxes of this queue at "
	    "once\n"
	    "                         (default $WARD_MAX_SANDBOXES, else "
	    "1.5 x\n"
	    "                         online CPUs; 0: no ceiling); runs "
	    "wait in\n"
	    "                         turn for a slot\n"
	    "  --queue-timeout DURATION\n"
	    "                         give up waiting after DURATION (12s, "
	    "500ms;\n"
	    "                         default $WARD_QUEUE_TIMEOUT, else "
	    "12s):\n"
	    "                         exit status 124\n"
	    "  --queue-dir DIR        the queue's directory (default:\n"
	    "                         /run/ward/admission, the host's; "
	    "rootless\n"
	    "                         a queue of your own where that one "
	    "cannot\n"
	    "                         be read)\n"
	    "  -v, --verbose          a summary of the run on stderr\n"
	    "  -h, --help             this text\n"
	    "  -V, --version          ward's version\n"
	    "\n"
	    "Exit status: the program's own; 128+N if it was killed by signal\n"
	    "N (137 when ward killed the sandbox: wall time, output, out of\n"
	    "memory; 159 for a seccomp kill rule; 128+N when ward got signal\n"
	    "N); 124 if no sandbox slot came free within the queue timeout;\n"
	    "125 if ward refused or failed to set up the sandbox; 126 if\n"
	    "the program cannot be executed; 127 if it is not found. The run\n"
	    "report (--report) says why a run ended.\n",
	    f);
}

static int parse_id(const char *opt, const char *s, int64_t *out, ward_err *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!isdigit((unsigned char)s[0]) || *end || errno || v >= 0xffffffffu)
		return ward_fail(err, 0, "%s: not a uid/gid: \"%s\"", opt, s);
	*out = (int64_t)v;
	return 0;
}

static int add_slot(struct ward_cli *cli, char *arg, ward_err *err)
{
	char *eq = strchr(arg, '=');
	struct ward_slot_arg *v;

	if (!eq || eq == arg || !eq[1])
		return ward_fail(err, 0, "--slot %s: expected NAME=HOSTPATH",
				 arg);
	*eq = '\0';
	for (size_t i = 0; i < cli->nslots; i++)
		if (!strcmp(cli->slots[i].name, arg))
			return ward_fail(err, 0, "--slot %s given twice", arg);
	v = realloc(cli->slots, (cli->nslots + 1) * sizeof(*v));
	if (!v)
		return ward_fail(err, ENOMEM, "--slot");
	cli->slots = v;
	v[cli->nslots++] = (struct ward_slot_arg){arg, eq + 1};
	return 0;
}

static int add_input(struct ward_cli *cli, char *arg, ward_err *err)
{
	char *eq = strchr(arg, '=');
	struct ward_slot_arg *v;

	if (!eq || eq == arg || !eq[1])
		return ward_fail(err, 0, "--input %s: expected NAME=HOSTPATH",
				 arg);
	*eq = '\0';
	for (size_t i = 0; i < cli->ninputs; i++)
		if (!strcmp(cli->inputs[i].name, arg))
			return ward_fail(err, 0, "--input %s given twice", arg);
	v = realloc(cli->inputs, (cli->ninputs + 1) * sizeof(*v));
	if (!v)
		return ward_fail(err, ENOMEM, "--input");
	cli->inputs = v;
	v[cli->ninputs++] = (struct ward_slot_arg){arg, eq + 1};
	return 0;
}

static int set_digest(struct ward_cli *cli, const char *s, ward_err *err)
{
	size_t n = strlen(s);

	if (n != 64 || strspn(s, "0123456789abcdefABCDEF") != 64)
		return ward_fail(err, 0,
				 "--expect-digest: expected 64 hex digits "
				 "(a SHA-256), got \"%s\"",
				 s);
	for (size_t i = 0; i < n; i++)
		cli->expect_digest[i] = (char)tolower((unsigned char)s[i]);
	cli->expect_digest[n] = '\0';
	return 0;
}

static int parse_option(struct ward_cli *cli, int c, char **argv, int argc,
			ward_err *err)
{
	switch (c) {
	case 'h':
		cli->help = true;
		return 0;
	case 'V':
		cli->version = true;
		return 0;
	case 'v':
		cli->verbose = true;
		return 0;
	case OPT_STDOUT:
		cli->stdout_path = optarg;
		return 0;
	case OPT_STDERR:
		cli->stderr_path = optarg;
		return 0;
	case OPT_CGBASE:
		cli->cgroup_base = optarg;
		return 0;
	case OPT_UPROXY: /* read by relay.c: ward_relay_proxy_set */
		cli->upstream_proxy = optarg;
		return 0;
	case OPT_SLOT:
		return add_slot(cli, optarg, err);
	case OPT_INPUT:
		return add_input(cli, optarg, err);
	case OPT_EXPORT:
		cli->export_dir = optarg;
		return 0;
	case OPT_MANIFEST:
		cli->manifest_path = optarg;
		return 0;
	case OPT_WSBASE:
		cli->workspace_base = optarg;
		return 0;
	case OPT_KEEPWS:
		cli->keep_workspace = true;
		return 0;
	case OPT_REPLACE:
		cli->replace = true;
		return 0;
	case OPT_REPORT:
		cli->report_path = optarg;
		return 0;
	case OPT_RECORD:
		cli->record_path = optarg;
		return 0;
	case OPT_EVENTS: /* ward session's own: the broker's, unread here */
		cli->events_fd = (int)strtol(optarg, NULL, 10);
		return cli->events_fd > 2
			   ? 0
			   : ward_fail(err, EINVAL, "%s", optarg);
	case OPT_MAXSB:
		cli->max_sandboxes = optarg;
		return 0;
	case OPT_QTIMEOUT:
		cli->queue_timeout = optarg;
		return 0;
	case OPT_QDIR:
		cli->queue_dir = optarg;
		return 0;
	case OPT_DIGEST:
		return set_digest(cli, optarg, err);
	case OPT_TRUSTED:
		if (cli->ntrusted == WARD_SIG_TRUSTED_MAX)
			return ward_fail(err, 0,
					 "--trusted-key: at most %d keys",
					 WARD_SIG_TRUSTED_MAX);
		cli->trusted_keys[cli->ntrusted++] = optarg;
		return 0;
	case OPT_STDIN:
		cli->stdin_path = optarg;
		return 0;
	case OPT_HUID:
		return parse_id("--host-uid", optarg, &cli->host_uid, err);
	case OPT_HGID:
		return parse_id("--host-gid", optarg, &cli->host_gid, err);
	case ':':
		return ward_fail(err, 0, "%s needs an argument",
				 argv[optind - 1]);
	}
	return ward_fail(err, 0, "unknown option %s",
			 optind - 1 < argc ? argv[optind - 1] : "");
}

int ward_cli_parse(int argc, char **argv, struct ward_cli *cli, ward_err *err)
{
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->host_uid = cli->host_gid = -1;
	cli->events_fd = -1;
	opterr = 0;
	optind = 1;
	/* '+': stop at the first non-option (POLICY). */
	while ((c = getopt_long(argc, argv, "+:hVv", options, NULL)) != -1)
		if (parse_option(cli, c, argv, argc, err) < 0)
			return -1;
	if (cli->help || cli->version)
		return 0;
	if (optind >= argc)
		return ward_fail(err, 0, "no POLICY given (see ward --help)");
	cli->blob_path = argv[optind++];
	if (optind >= argc || strcmp(argv[optind], "--"))
		return ward_fail(err, 0,
				 "expected -- after POLICY, then PROGRAM "
				 "(options go before POLICY)");
	optind++;
	if (optind >= argc || !argv[optind][0])
		return ward_fail(err, 0, "no PROGRAM given after --");
	cli->argv = argv + optind;
	return 0;
}

void ward_cli_free(struct ward_cli *cli)
{
	free(cli->slots);
	cli->slots = NULL;
	cli->nslots = 0;
	free(cli->inputs);
	cli->inputs = NULL;
	cli->ninputs = 0;
}
