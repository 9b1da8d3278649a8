/* SPDX-License-Identifier: MIT */
/*
 * test_parser.c: every construct of the grammar (spec 1.3) builds the tree
 * ast.h describes; every kind of syntax error gives its message at its
 * place; recovery reports every error of a file, and no follow-on errors.
 */
#include "ast_canon.h"
#include "fe_test.h"

/* ------------------------------------------------------------ top level */

static void test_top_level(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\n"
		     "policy python-3;\n"
		     "use base;\n"
		     "use net/agent;\n"
		     "include \"x/y.ward\";\n"
		     "const MASK = O_RDONLY | O_CLOEXEC | 0x10;\n"
		     "group @io { read, write, @fd, }\n"
		     "group @empty { }\n"
		     "net none;\n");
	assert_int_equal(p->file->nstmts, 9);
	const struct ward_stmt *s = stmt_at(p, 0);
	assert_int_equal(s->kind, WARD_S_VERSION);
	assert_int_equal(s->value->u, 1);
	assert_loc(s->loc, 1, 1, 1, 7);

	s = stmt_at(p, 1);
	assert_int_equal(s->kind, WARD_S_POLICY);
	assert_string_equal(s->name, "python-3");
	assert_loc(s->name_loc, 2, 8, 2, 15);
	assert_loc(s->kw_loc, 2, 1, 2, 6);

	assert_int_equal(stmt_at(p, 2)->kind, WARD_S_USE);
	assert_string_equal(stmt_at(p, 2)->name, "base");
	assert_string_equal(stmt_at(p, 3)->name, "net/agent");

	s = stmt_at(p, 4);
	assert_int_equal(s->kind, WARD_S_INCLUDE);
	assert_int_equal(s->value->kind, WARD_V_STRING);
	assert_string_equal(s->value->str, "x/y.ward");

	s = stmt_at(p, 5);
	assert_int_equal(s->kind, WARD_S_CONST);
	assert_string_equal(s->name, "MASK");
	assert_int_equal(s->value->kind, WARD_V_OR);
	assert_int_equal(s->value->nitems, 3);
	assert_int_equal(s->value->items[0]->kind, WARD_V_NAME);
	assert_string_equal(s->value->items[1]->str, "O_CLOEXEC");
	assert_int_equal(s->value->items[2]->kind, WARD_V_INT);
	assert_int_equal(s->value->items[2]->u, 16);
	assert_string_equal(s->value->text, "O_RDONLY | O_CLOEXEC | 0x10");
	assert_loc(s->value->loc, 6, 14, 6, 40);

	s = stmt_at(p, 6);
	assert_int_equal(s->kind, WARD_S_GROUP);
	assert_string_equal(s->name, "@io");
	assert_int_equal(s->ntargets, 3);
	assert_string_equal(s->targets[2]->name, "@fd");
	assert_true(s->targets[2]->is_group);
	assert_false(s->targets[0]->is_group);

	assert_int_equal(stmt_at(p, 7)->ntargets, 0);
	assert_int_equal(stmt_at(p, 8)->kind, WARD_S_NET_NONE);
	parsed_free(p);
}

static void test_identity_env(void **state)
{
	(void)state;
	struct parsed *p = parse_ok(
	    "ward 1;\n"
	    "identity { user 65534; group 100; hostname \"sandbox\"; "
	    "capabilities none; }\n"
	    "identity { capabilities CAP_NET_BIND_SERVICE, CAP_CHOWN; }\n"
	    "env { LANG = \"C.UTF-8\"; inherit TERM, COLUMNS; PATH = "
	    "\"/bin\"; }\n");
	const struct ward_stmt *id = stmt_at(p, 1);
	assert_int_equal(id->kind, WARD_S_IDENTITY);
	assert_int_equal(id->nbody, 4);
	assert_int_equal(id->body[0]->kind, WARD_S_ID_USER);
	assert_int_equal(id->body[0]->value->u, 65534);
	assert_int_equal(id->body[1]->kind, WARD_S_ID_GROUP);
	assert_int_equal(id->body[2]->kind, WARD_S_ID_HOSTNAME);
	assert_string_equal(id->body[2]->value->str, "sandbox");
	assert_int_equal(id->body[3]->kind, WARD_S_ID_CAPS);
	assert_true(id->body[3]->caps_none);
	assert_int_equal(id->body[3]->nnames, 0);

	const struct ward_stmt *caps = stmt_at(p, 2)->body[0];
	assert_false(caps->caps_none);
	assert_int_equal(caps->nnames, 2);
	assert_string_equal(caps->names[1], "CAP_CHOWN");
	assert_loc(caps->name_locs[1], 3, 47, 3, 55);

	const struct ward_stmt *env = stmt_at(p, 3);
	assert_int_equal(env->kind, WARD_S_ENV);
	assert_int_equal(env->nbody, 3);
	assert_int_equal(env->body[0]->kind, WARD_S_ENV_SET);
	assert_string_equal(env->body[0]->name, "LANG");
	assert_string_equal(env->body[0]->value->str, "C.UTF-8");
	assert_int_equal(env->body[1]->kind, WARD_S_ENV_INHERIT);
	assert_int_equal(env->body[1]->nnames, 2);
	assert_string_equal(env->body[1]->names[0], "TERM");
	assert_string_equal(env->body[1]->names[1], "COLUMNS");
	parsed_free(p);

	/* keywords as variable names, `inherit` among them */
	p = parse_ok("ward 1;\nenv { inherit = \"x\"; inherit inherit, user; "
		     "}\n");
	env = stmt_at(p, 1);
	assert_int_equal(env->body[0]->kind, WARD_S_ENV_SET);
	assert_string_equal(env->body[0]->name, "inherit");
	assert_int_equal(env->body[1]->kind, WARD_S_ENV_INHERIT);
	assert_string_equal(env->body[1]->names[0], "inherit");
	parsed_free(p);
}

static void test_fs(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nfs {\n"
		     "    bind /usr;\n"
		     "    bind /host/data at /data rw noexec optional;\n"
		     "    tmpfs /tmp size 100M mode 1777;\n"
		     "    tmpfs \"/work\" size 1G exec;\n"
		     "    proc;\n"
		     "    proc /p;\n"
		     "    dev;\n"
		     "    dev /d;\n"
		     "    file /etc/passwd \"root:x:0:0\\n\" mode 0o644;\n"
		     "    symlink /bin -> usr/bin;\n"
		     "    symlink /lib64 -> \"lib\";\n"
		     "    slot input at /input ro;\n"
		     "    dir /w mode 0700;\n"
		     "    dir /v;\n"
		     "}\n");
	const struct ward_stmt *fs = stmt_at(p, 1);
	assert_int_equal(fs->kind, WARD_S_FS);
	assert_int_equal(fs->nbody, 14);
	const struct ward_stmt *const *b =
	    (const struct ward_stmt *const *)fs->body;

	assert_int_equal(b[0]->kind, WARD_S_FS_BIND);
	assert_string_equal(b[0]->src->str, "/usr");
	assert_ptr_equal(b[0]->path, b[0]->src); /* no `at`: DST = SRC */
	assert_int_equal(b[0]->opts, 0);

	assert_string_equal(b[1]->src->str, "/host/data");
	assert_string_equal(b[1]->path->str, "/data");
	assert_int_equal(b[1]->opts,
			 WARD_OPT_RW | WARD_OPT_NOEXEC | WARD_OPT_OPTIONAL);
	assert_loc(b[1]->opts_loc, 4, 30, 4, 47);

	assert_int_equal(b[2]->kind, WARD_S_FS_TMPFS);
	assert_string_equal(b[2]->path->str, "/tmp");
	assert_int_equal(b[2]->size->u, 100u << 20);
	assert_int_equal(b[2]->mode->u, 01777); /* digits after mode: octal */
	assert_string_equal(b[2]->mode->text, "1777");

	assert_int_equal(b[3]->path->kind, WARD_V_STRING);
	assert_string_equal(b[3]->path->str, "/work");
	assert_null(b[3]->mode);
	assert_int_equal(b[3]->opts, WARD_OPT_EXEC);

	assert_int_equal(b[4]->kind, WARD_S_FS_PROC);
	assert_null(b[4]->path);
	assert_string_equal(b[5]->path->str, "/p");
	assert_int_equal(b[6]->kind, WARD_S_FS_DEV);
	assert_null(b[6]->path);
	assert_string_equal(b[7]->path->str, "/d");

	assert_int_equal(b[8]->kind, WARD_S_FS_FILE);
	assert_string_equal(b[8]->value->str, "root:x:0:0\n");
	assert_int_equal(b[8]->mode->u, 0644);

	assert_int_equal(b[9]->kind, WARD_S_FS_SYMLINK);
	assert_string_equal(b[9]->path->str, "/bin");
	assert_string_equal(b[9]->src->str, "usr/bin");
	assert_int_equal(b[10]->src->kind, WARD_V_STRING);

	assert_int_equal(b[11]->kind, WARD_S_FS_SLOT);
	assert_string_equal(b[11]->name, "input");
	assert_string_equal(b[11]->path->str, "/input");
	assert_int_equal(b[11]->opts, WARD_OPT_RO);

	assert_int_equal(b[12]->kind, WARD_S_FS_DIR);
	assert_int_equal(b[12]->mode->u, 0700);
	assert_null(b[13]->mode);
	parsed_free(p);
}

static void test_net(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nnet {\n"
		     "    host pypi.org = 151.101.0.223, 2a04:4e42::223;\n"
		     "    host mirror = 10.0.0.5;\n"
		     "    allow tcp pypi.org port 443;\n"
		     "    allow udp 10.0.0.0/8 port 53, 5000-5100;\n"
		     "    allow tcp mirror port HTTPS;\n"
		     "}\n");
	const struct ward_stmt *net = stmt_at(p, 1);
	assert_int_equal(net->kind, WARD_S_NET);
	assert_int_equal(net->nbody, 5);
	const struct ward_stmt *h = net->body[0];
	assert_int_equal(h->kind, WARD_S_NET_HOST);
	assert_string_equal(h->name, "pypi.org");
	assert_int_equal(h->nvalues, 2);
	assert_int_equal(h->values[0]->addr.family, 4);
	assert_int_equal(h->values[1]->addr.family, 6);
	assert_string_equal(net->body[1]->name, "mirror");

	const struct ward_stmt *a = net->body[2];
	assert_int_equal(a->kind, WARD_S_NET_ALLOW);
	assert_string_equal(a->proto, "tcp");
	assert_int_equal(a->dest->kind, WARD_V_NAME);
	assert_string_equal(a->dest->str, "pypi.org");
	assert_int_equal(a->nports, 1);
	assert_int_equal(a->ports[0].lo->u, 443);
	assert_null(a->ports[0].hi);

	a = net->body[3];
	assert_string_equal(a->proto, "udp");
	assert_int_equal(a->dest->kind, WARD_V_ADDR);
	assert_int_equal(a->dest->addr.prefix, 8);
	assert_int_equal(a->nports, 2);
	assert_int_equal(a->ports[1].lo->u, 5000);
	assert_int_equal(a->ports[1].hi->u, 5100);
	assert_loc(a->ports[1].loc, 6, 35, 6, 43);

	a = net->body[4];
	assert_int_equal(a->dest->kind, WARD_V_NAME);
	assert_string_equal(a->dest->str, "mirror");
	assert_int_equal(a->ports[0].lo->kind, WARD_V_NAME);
	parsed_free(p);
}

/* `allow tcp name` takes a quoted name or a string constant's name (a
 * NAME, not a keyword); either is a name rule, told apart from a rule for
 * a pinned host in the tree and in the canonical form (the digest). */
static void test_net_name_rules(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nnet {\n"
		     "    allow tcp name \"index.test\" port 443;\n"
		     "    allow tcp name idx port 443;\n"
		     "    allow tcp idx port 443;\n"
		     "    allow tcp name port 443;\n"
		     "}\n");
	const struct ward_stmt *net = stmt_at(p, 1);
	assert_int_equal(net->nbody, 4);
	assert_true(net->body[0]->by_name);
	assert_int_equal(net->body[0]->dest->kind, WARD_V_STRING);
	assert_true(net->body[1]->by_name);
	assert_int_equal(net->body[1]->dest->kind, WARD_V_NAME);
	assert_string_equal(net->body[1]->dest->str, "idx");
	assert_false(net->body[2]->by_name);
	assert_string_equal(net->body[2]->dest->str, "idx");
	/* a host called `name` */
	assert_false(net->body[3]->by_name);
	assert_string_equal(net->body[3]->dest->str, "name");
	parsed_free(p);

	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	struct parsed *pa =
	    parse_ok("ward 1;\nnet { allow tcp name idx port 443; }\n");
	struct parsed *pb =
	    parse_ok("ward 1;\nnet { allow tcp idx port 443; }\n");
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	ward_ast_canonical(pa->file, fa);
	ward_ast_canonical(pb->file, fb);
	fclose(fa);
	fclose(fb);
	assert_true(alen != blen || memcmp(a, b, alen) != 0);
	free(a);
	free(b);
	parsed_free(pa);
	parsed_free(pb);
}

static void test_limits(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nlimits { memory 512M; cpu 0.5; wall 30s; "
		     "pids 256; }\n");
	const struct ward_stmt *l = stmt_at(p, 1);
	assert_int_equal(l->kind, WARD_S_LIMITS);
	assert_int_equal(l->nbody, 4);
	assert_int_equal(l->body[0]->kind, WARD_S_LIMIT);
	assert_string_equal(l->body[0]->name, "memory");
	assert_int_equal(l->body[0]->value->kind, WARD_V_SIZE);
	assert_int_equal(l->body[1]->value->kind, WARD_V_DECIMAL);
	assert_int_equal(l->body[1]->value->u, 500);
	assert_int_equal(l->body[2]->value->kind, WARD_V_DURATION);
	assert_int_equal(l->body[3]->value->u, 256);
	parsed_free(p);
}

static void test_syscalls(void **state)
{
	(void)state;
	struct parsed *p = parse_ok(
	    "ward 1;\n"
	    "syscalls default errno ENOSYS {\n"
	    "    allow @system-service;\n"
	    "    allow socket if domain == AF_UNIX;\n"
	    "    allow ioctl(fd, request) if request == TCGETS || request == "
	    "FIONREAD;\n"
	    "    errno EPERM @privileged, @mount, ptrace;\n"
	    "    kill ioctl if arg1 == TIOCSTI;\n"
	    "    log getpid();\n"
	    "    trap kill, bind, symlink;\n"
	    "    errno 13 open;\n"
	    "}\n"
	    "syscalls { allow read; }\n");
	const struct ward_stmt *sc = stmt_at(p, 1);
	assert_int_equal(sc->kind, WARD_S_SYSCALLS);
	assert_int_equal(sc->action->word, WARD_A_ERRNO);
	assert_string_equal(sc->action->errno_value->str, "ENOSYS");
	assert_loc(sc->action->loc, 2, 18, 2, 29);
	assert_int_equal(sc->nbody, 8);

	const struct ward_stmt *r = sc->body[0];
	assert_int_equal(r->kind, WARD_S_RULE);
	assert_int_equal(r->action->word, WARD_A_ALLOW);
	assert_int_equal(r->ntargets, 1);
	assert_true(r->targets[0]->is_group);
	assert_string_equal(r->targets[0]->name, "@system-service");
	assert_null(r->cond);

	r = sc->body[1];
	assert_int_equal(r->cond->kind, WARD_C_CMP);
	assert_string_equal(r->cond->arg, "domain");
	assert_loc(r->cond->arg_loc, 4, 21, 4, 26);
	assert_int_equal(r->cond->op, WARD_OP_EQ);
	assert_string_equal(r->cond->value->str, "AF_UNIX");
	assert_null(r->cond->mask);

	r = sc->body[2];
	assert_true(r->targets[0]->has_parens);
	assert_int_equal(r->targets[0]->nparams, 2);
	assert_string_equal(r->targets[0]->params[0], "fd");
	assert_string_equal(r->targets[0]->params[1], "request");
	assert_loc(r->targets[0]->param_locs[1], 5, 21, 5, 27);
	assert_int_equal(r->cond->kind, WARD_C_OR);
	assert_string_equal(r->cond->rhs->value->str, "FIONREAD");

	r = sc->body[3];
	assert_int_equal(r->action->word, WARD_A_ERRNO);
	assert_string_equal(r->action->errno_value->str, "EPERM");
	assert_int_equal(r->ntargets, 3);
	assert_string_equal(r->targets[2]->name, "ptrace");

	assert_int_equal(sc->body[4]->action->word, WARD_A_KILL);
	r = sc->body[5];
	assert_int_equal(r->action->word, WARD_A_LOG);
	assert_true(r->targets[0]->has_parens);
	assert_int_equal(r->targets[0]->nparams, 0);
	r = sc->body[6];
	assert_int_equal(r->action->word, WARD_A_TRAP);
	assert_string_equal(r->targets[0]->name, "kill");
	assert_string_equal(r->targets[2]->name, "symlink");
	assert_int_equal(sc->body[7]->action->errno_value->u, 13);

	assert_null(stmt_at(p, 2)->action);
	parsed_free(p);
}

static void test_conditions(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nsyscalls {\n"
		     "    allow a if x == 1 || y == 2 && z == 3;\n"
		     "    allow b if (x == 1 || y == 2) && z == 3;\n"
		     "    allow c if arg2 & PROT_EXEC == 0;\n"
		     "    allow d if (arg2 & PROT_EXEC) != 0 && arg0 <= 4;\n"
		     "    allow e if x == 1 || y == 2 || z == 3;\n"
		     "}\n");
	const struct ward_stmt *sc = stmt_at(p, 1);
	/* && binds tighter: x || (y && z) */
	const struct ward_cond *c = sc->body[0]->cond;
	assert_int_equal(c->kind, WARD_C_OR);
	assert_int_equal(c->lhs->kind, WARD_C_CMP);
	assert_int_equal(c->rhs->kind, WARD_C_AND);
	assert_false(c->parenthesised);
	assert_loc(c->loc, 3, 16, 3, 41);

	c = sc->body[1]->cond;
	assert_int_equal(c->kind, WARD_C_AND);
	assert_int_equal(c->lhs->kind, WARD_C_OR);
	assert_true(c->lhs->parenthesised);
	assert_loc(c->lhs->loc, 4, 16, 4, 33);

	c = sc->body[2]->cond;
	assert_int_equal(c->kind, WARD_C_CMP);
	assert_string_equal(c->arg, "arg2");
	assert_string_equal(c->mask->str, "PROT_EXEC");
	assert_false(c->mask_parenthesised);
	assert_int_equal(c->value->u, 0);

	c = sc->body[3]->cond;
	assert_int_equal(c->kind, WARD_C_AND);
	assert_true(c->lhs->mask_parenthesised);
	assert_false(c->lhs->parenthesised);
	assert_int_equal(c->lhs->op, WARD_OP_NE);
	assert_int_equal(c->rhs->op, WARD_OP_LE);

	/* left-associative: (x || y) || z */
	c = sc->body[4]->cond;
	assert_int_equal(c->kind, WARD_C_OR);
	assert_int_equal(c->lhs->kind, WARD_C_OR);
	assert_string_equal(c->rhs->arg, "z");
	parsed_free(p);

	/* values have no parentheses: this one is an error */
	p = parse_text(
	    "ward 1;\nsyscalls { allow f if arg0 & (A | B) == 0; }\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:30: error: expected a value after `&`, "
			    "found `(`");
	parsed_free(p);
}

/* ----------------------------------------------------------- the errors */

/* The complete output for a text with exactly one error. */
static void check_output(const char *text, const char *expected)
{
	struct parsed *p = parse_text(text);
	if (strcmp(p->out ? p->out : "", expected) != 0)
		print_error("got:\n%s", p->out);
	assert_string_equal(p->out ? p->out : "", expected);
	assert_int_equal(p->file->nerrors, 1);
	parsed_free(p);
}

static void check_first(const char *text, const char *expected)
{
	struct parsed *p = parse_text(text);
	assert_true(p->file->nerrors > 0);
	assert_string_equal(first_line(p), expected);
	parsed_free(p);
}

static void test_version_pin(void **state)
{
	(void)state;
	check_output(
	    "policy x;\n",
	    "t.ward:1:1: error: a policy file must begin with `ward "
	    "1;`\n"
	    "    1 | policy x;\n"
	    "      | ^~~~~~\n"
	    "      = help: add `ward 1;` as the first line: it names the "
	    "version of the language the file is written in\n");
	check_output("",
		     "t.ward:1:1: error: a policy file must begin with `ward "
		     "1;`\n"
		     "    1 | \n"
		     "      | ^\n"
		     "      = help: the file holds no statement\n");
	check_output("# only a comment\n",
		     "t.ward:1:1: error: a policy file must begin with `ward "
		     "1;`\n"
		     "    1 | # only a comment\n"
		     "      | ^\n"
		     "      = help: the file holds no statement\n");
	check_output("ward 2;\n",
		     "t.ward:1:6: error: unsupported language version `2`: "
		     "this compiler understands version 1 only\n"
		     "    1 | ward 2;\n"
		     "      |      ^\n"
		     "      = help: write `ward 1;`\n");
	check_first("ward 1;\npolicy x;\nward 1;\n",
		    "t.ward:3:1: error: the version pin must be the first "
		    "statement of the file");
	check_first("ward 1.0;\n", "t.ward:1:6: error: expected an integer "
				   "after `ward`, found number `1.0`");
	check_first("ward 1\npolicy x;\n",
		    "t.ward:1:7: error: expected `;` after the version pin, "
		    "found `policy`");
}

static void test_missing_semicolon(void **state)
{
	(void)state;
	/* at the end of a line: shown after the value, where it belongs */
	check_output("ward 1;\nlimits {\n    memory 512M\n}\n",
		     "t.ward:3:16: error: expected `;` after the limit value, "
		     "found `}`\n"
		     "    3 |     memory 512M\n"
		     "      |                ^\n");
	/* on the same line: shown at what was found */
	check_output("ward 1;\nlimits { memory 512M cpu 1; }\n",
		     "t.ward:2:22: error: expected `;` after the limit value, "
		     "found name `cpu`\n"
		     "    2 | limits { memory 512M cpu 1; }\n"
		     "      |                      ^~~\n");
	check_first("ward 1;\nconst A = 1\nconst B = 2;\n",
		    "t.ward:2:12: error: expected `;` after the constant's "
		    "value, found `const`");
	check_first("ward 1;\nenv { A = \"x\" }\n",
		    "t.ward:2:15: error: expected `;` after the variable's "
		    "value, found `}`");
	check_first("ward 1;\nidentity { user 1 }\n",
		    "t.ward:2:19: error: expected `;` after the user id, found "
		    "`}`");
	check_first("ward 1;\nfs { tmpfs /t size 1M mode 755 }\n",
		    "t.ward:2:32: error: expected a mount option (`ro`, `rw`, "
		    "`exec`, `noexec`, `optional`) or `;` after `755`, found "
		    "`}`");
	check_first("ward 1;\nsyscalls { allow read }\n",
		    "t.ward:2:23: error: expected `if`, `,` or `;` after "
		    "`read`, found `}`");
	check_first("ward 1;\nsyscalls { allow read if a == 1 }\n",
		    "t.ward:2:33: error: expected `;` after the comparison, "
		    "found `}`");
	check_first(
	    "ward 1;\ninclude \"a\" \"b\"\n",
	    "t.ward:2:16: error: expected `;` after the file name, found "
	    "end of file");
}

static void test_unexpected_words(void **state)
{
	(void)state;
	check_output("ward 1;\nfoo { }\n",
		     "t.ward:2:1: error: unexpected name `foo`; expected a "
		     "statement (`policy`, `use`, `include`, `const`, `group`) "
		     "or a section (`identity`, `env`, `fs`, `net`, `limits`, "
		     "`syscalls`, `export`)\n"
		     "    2 | foo { }\n"
		     "      | ^~~\n");
	check_output("ward 1;\nlimit { memory 1M; }\n",
		     "t.ward:2:1: error: unexpected name `limit`; expected a "
		     "statement (`policy`, `use`, `include`, `const`, `group`) "
		     "or a section (`identity`, `env`, `fs`, `net`, `limits`, "
		     "`syscalls`, `export`)\n"
		     "    2 | limit { memory 1M; }\n"
		     "      | ^~~~~\n"
		     "      = help: did you mean `limits`?\n");
	check_output("ward 1;\nfs { bnd /x; }\n",
		     "t.ward:2:6: error: unexpected name `bnd`; expected an "
		     "`fs` entry (`bind`, `tmpfs`, `proc`, `dev`, `file`, "
		     "`symlink`, `slot`, `dir`, `memfd`, `landlock`) or `}`\n"
		     "    2 | fs { bnd /x; }\n"
		     "      |      ^~~\n"
		     "      = help: did you mean `bind`?\n");
	check_first("ward 1;\nsyscalls { allw read; }\n",
		    "t.ward:2:12: error: unexpected name `allw`; expected an "
		    "action (`allow`, `log`, `errno`, `trap`, `kill`) or `}`");
	check_first("ward 1;\nidentity { uid 1; }\n",
		    "t.ward:2:12: error: unexpected name `uid`; expected an "
		    "identity item (`user`, `group`, `groups`, `hostname`, "
		    "`capabilities`, `workdir`) or `}`");
	check_first("ward 1;\nnet { hots x = 1.2.3.4; }\n",
		    "t.ward:2:7: error: unexpected name `hots`; expected a "
		    "`host` or `allow` entry or `}`");
	check_first("ward 1;\nenv { 1 = \"x\"; }\n",
		    "t.ward:2:7: error: unexpected integer `1`; expected a "
		    "name or `}`");
	check_first("ward 1;\n}\n", "t.ward:2:1: error: unexpected `}`; "
				    "expected a statement (`policy`, `use`, "
				    "`include`, `const`, `group`) or a section "
				    "(`identity`, `env`, `fs`, `net`, "
				    "`limits`, `syscalls`, `export`)");
}

static void test_expected_things(void **state)
{
	(void)state;
	check_first("ward 1;\nfs { bind /a at; }\n",
		    "t.ward:2:16: error: expected a path after `at`, found "
		    "`;`");
	check_first("ward 1;\nfs { tmpfs /t; }\n",
		    "t.ward:2:14: error: expected `size` after `/t`, found "
		    "`;`");
	check_first("ward 1;\nfs { tmpfs /t size; }\n",
		    "t.ward:2:19: error: expected a value after `size`, found "
		    "`;`");
	check_first(
	    "ward 1;\nnet { allow icmp x port 1; }\n",
	    "t.ward:2:13: error: expected `tcp`, `udp` or `answers` after "
	    "`allow`, found name `icmp`");
	check_first("ward 1;\nnet { allow tcp x 1; }\n",
		    "t.ward:2:19: error: expected `port` after `x`, found "
		    "integer `1`");
	check_first("ward 1;\nnet some;\n",
		    "t.ward:2:5: error: expected `none` or `{` after `net`, "
		    "found name `some`");
	check_first("ward 1;\nsyscalls { allow read if x; }\n",
		    "t.ward:2:27: error: expected a comparison (`==`, `!=`, "
		    "`<`, `<=`, `>`, `>=`) or `&` after `x`, found `;`");
	check_first("ward 1;\nsyscalls { allow write(fd if fd == 1; }\n",
		    "t.ward:2:27: error: expected `)` or `,` after `fd`, found "
		    "`if`");
	check_first("ward 1;\nsyscalls default { }\n",
		    "t.ward:2:18: error: expected an action (`allow`, `log`, "
		    "`errno`, `trap`, `kill`) after `default`, found `{`");
	check_first("ward 1;\nconst = 1;\n",
		    "t.ward:2:7: error: expected a name after `const`, found "
		    "`=`");
	check_first("ward 1;\ngroup io { }\n",
		    "t.ward:2:7: error: expected a group such as `@basic-io` "
		    "after `group`, found name `io`");
	check_first("ward 1;\nuse \"base\";\n",
		    "t.ward:2:5: error: expected a name or a relative path "
		    "such as `net/agent` after `use`, found string "
		    "`\"base\"`");
}

static void test_symlink_target_help(void **state)
{
	(void)state;
	check_output(
	    "ward 1;\nfs { symlink /a -> python3; }\n",
	    "t.ward:2:20: error: expected a path or a relative path "
	    "such as `net/agent` after `->`, found name `python3`\n"
	    "    2 | fs { symlink /a -> python3; }\n"
	    "      |                    ^~~~~~~\n"
	    "      = help: a relative target of one part is written as "
	    "a string: `\"python3\"`\n");
}

static void test_masked_comparison(void **state)
{
	(void)state;
	check_output(
	    "ward 1;\nsyscalls { allow mmap if arg2 & PROT_EXEC > 0; "
	    "}\n",
	    "t.ward:2:43: error: a masked comparison takes `==` or "
	    "`!=` only\n"
	    "    2 | syscalls { allow mmap if arg2 & PROT_EXEC > 0; }\n"
	    "      |                                           ^\n"
	    "      = help: compare the masked bits for equality: "
	    "`arg2 & MASK == VALUE`\n");
	check_first("ward 1;\nsyscalls { allow m if (a & 1) <= 0; }\n",
		    "t.ward:2:31: error: a masked comparison takes `==` or "
		    "`!=` only");
}

static void test_section_errors(void **state)
{
	(void)state;
	/* end of file inside a section: a note at its `{` */
	check_output("ward 1;\nfs {\n    bind /a;\n",
		     "t.ward:4:1: error: unexpected end of file; expected an "
		     "`fs` entry (`bind`, `tmpfs`, `proc`, `dev`, `file`, "
		     "`symlink`, `slot`, `dir`, `memfd`, `landlock`) or `}`\n"
		     "    4 | \n"
		     "      | ^\n"
		     "t.ward:2:4: note: the `fs` section opened here is not "
		     "closed\n"
		     "    2 | fs {\n"
		     "      |    ^\n");
	/* a section word where an item goes: a `}` is missing */
	check_output("ward 1;\nfs {\n    bind /a\nlimits { memory 1M; }\n",
		     "t.ward:3:12: error: expected a mount option (`ro`, `rw`, "
		     "`exec`, `noexec`, `optional`), `at` or `;` after `/a`, "
		     "found `limits`\n"
		     "    3 |     bind /a\n"
		     "      |            ^\n"
		     "      = help: is a `}` missing before `limits`?\n"
		     "t.ward:2:4: note: the `fs` section opens here\n"
		     "    2 | fs {\n"
		     "      |    ^\n");
	check_first("ward 1;\nsyscalls default errno EPERM {\n allow a;\n",
		    "t.ward:4:1: error: unexpected end of file; expected an "
		    "action (`allow`, `log`, `errno`, `trap`, `kill`) or `}`");
}

static void test_mount_option_twice(void **state)
{
	(void)state;
	check_first("ward 1;\nfs { bind /a ro ro; }\n",
		    "t.ward:2:17: error: mount option `ro` is written twice");
}

static void test_mode_digits(void **state)
{
	(void)state;
	check_first("ward 1;\nfs { dir /a mode 0789; }\n",
		    "t.ward:2:18: error: a mode is written in octal: `8` is "
		    "not an octal digit");
	struct parsed *p = parse_ok("ward 1;\nfs { dir /a mode 0755; dir /b "
				    "mode 0x1ed; dir /c mode 0b111; }\n");
	assert_int_equal(stmt_at(p, 1)->body[0]->mode->u, 0755);
	assert_int_equal(stmt_at(p, 1)->body[1]->mode->u, 0755);
	assert_int_equal(stmt_at(p, 1)->body[2]->mode->u, 7);
	parsed_free(p);
}

/* ----------------------------------------------------------- recovery */

static void test_recovery_reports_every_error(void **state)
{
	(void)state;
	struct parsed *p = parse_text("ward 1;\n"
				      "limits {\n"
				      "    memory 512M cpu 1;\n"
				      "    pids = 3;\n"
				      "    wall 30s;\n"
				      "}\n"
				      "fs { bind at /x; tmpfs /t size 1M; }\n"
				      "syscalls {\n"
				      "    allow read if;\n"
				      "    alow write;\n"
				      "    kill ptrace;\n"
				      "}\n"
				      "policy p\n"
				      "use x;\n");
	assert_int_equal(p->file->nerrors, 6);
	static const char *const lines[] = {
	    "t.ward:3:17: error: expected `;` after the limit value, found "
	    "name `cpu`",
	    "t.ward:4:10: error: expected a value after `pids`, found `=`",
	    "t.ward:7:11: error: expected a path after `bind`, found `at`",
	    "t.ward:9:18: error: expected a name or `(` after `if`, found "
	    "`;`",
	    "t.ward:10:5: error: unexpected name `alow`; expected an action "
	    "(`allow`, `log`, `errno`, `trap`, `kill`) or `}`",
	    "t.ward:13:9: error: expected `;` after `p`, found `use`",
	};
	size_t found = 0;
	for (const char *s = p->out; s && *s; s = strchr(s, '\n') + 1) {
		if (strncmp(s, "t.ward:", 7) == 0) {
			assert_true(found < 6);
			size_t n = strcspn(s, "\n");
			if (strlen(lines[found]) != n ||
			    strncmp(s, lines[found], n) != 0)
				fail_msg("diagnostic %zu: %.*s", found, (int)n,
					 s);
			found++;
		}
		if (!strchr(s, '\n'))
			break;
	}
	assert_int_equal(found, 6);
	/* what was right is in the tree */
	const struct ward_stmt *lim = stmt_at(p, 1);
	assert_int_equal(lim->kind, WARD_S_LIMITS);
	assert_int_equal(lim->nbody, 1);
	assert_string_equal(lim->body[0]->name, "wall");
	const struct ward_stmt *fs = stmt_at(p, 2);
	assert_int_equal(fs->nbody, 1);
	assert_int_equal(fs->body[0]->kind, WARD_S_FS_TMPFS);
	const struct ward_stmt *sc = stmt_at(p, 3);
	assert_int_equal(sc->nbody, 1);
	assert_string_equal(sc->body[0]->targets[0]->name, "ptrace");
	parsed_free(p);
}

static void test_no_cascade(void **state)
{
	(void)state;
	/* a broken block at the top level is skipped to its `}` */
	struct parsed *p = parse_text("ward 1;\nfoo { a; b; c d; }\n"
				      "limits { memory 1M; }\n");
	assert_int_equal(p->file->nerrors, 1);
	assert_int_equal(p->file->nstmts, 2);
	assert_int_equal(stmt_at(p, 1)->kind, WARD_S_LIMITS);
	parsed_free(p);
	/* a broken group keeps the members before the error */
	p = parse_text("ward 1;\ngroup @g { a, b c, d }\nconst x = 1;\n");
	assert_int_equal(p->file->nerrors, 1);
	assert_string_equal(
	    first_line(p), "t.ward:2:17: error: expected `,` or `}` after `b`, "
			   "found name `c`");
	assert_int_equal(stmt_at(p, 1)->ntargets, 2);
	assert_int_equal(stmt_at(p, 2)->kind, WARD_S_CONST);
	parsed_free(p);
	/* a section broken before its end is closed at its `}` */
	p = parse_text("ward 1;\nlimits { memory }\nconst x = 1;\n");
	assert_int_equal(p->file->nerrors, 1);
	assert_int_equal(stmt_at(p, 2)->kind, WARD_S_CONST);
	parsed_free(p);
	/* after a `;` missing at the end of a line, the next line parses */
	p = parse_text("ward 1;\npolicy demo\nlimits {\n    memory 1M\n"
		       "    swap 0;\n}\n");
	assert_int_equal(p->file->nerrors, 2);
	assert_string_equal(first_line(p), "t.ward:2:12: error: expected `;` "
					   "after `demo`, found `limits`");
	assert_int_equal(p->file->nstmts, 2);
	assert_int_equal(stmt_at(p, 1)->kind, WARD_S_LIMITS);
	assert_int_equal(stmt_at(p, 1)->nbody, 1);
	assert_string_equal(stmt_at(p, 1)->body[0]->name, "swap");
	parsed_free(p);
	/* two errors on consecutive lines are both reported */
	p = parse_text("ward 1;\nsyscalls {\n allow a(;\n allow b(;\n}\n");
	assert_int_equal(p->file->nerrors, 2);
	parsed_free(p);
}

static void test_deep_nesting(void **state)
{
	(void)state;
	char text[8000];
	strcpy(text, "ward 1;\nsyscalls { allow a if ");
	size_t n = strlen(text);
	for (int i = 0; i < 1200; i++)
		text[n++] = '(';
	strcpy(text + n, "x == 1");
	n = strlen(text);
	for (int i = 0; i < 1200; i++)
		text[n++] = ')';
	strcpy(text + n, "; }\n");
	struct parsed *p = parse_text(text);
	assert_string_equal(
	    first_line(p),
	    "t.ward:2:1014: error: the file is nested too deeply "
	    "to be parsed (more than 1000 levels)");
	parsed_free(p);
	/* 100 levels are fine */
	strcpy(text, "ward 1;\nsyscalls { allow a if ");
	n = strlen(text);
	for (int i = 0; i < 100; i++)
		text[n++] = '(';
	strcpy(text + n, "x == 1");
	n = strlen(text);
	for (int i = 0; i < 100; i++)
		text[n++] = ')';
	strcpy(text + n, "; }\n");
	p = parse_ok(text);
	const struct ward_cond *c = stmt_at(p, 1)->body[0]->cond;
	assert_true(c->parenthesised);
	assert_int_equal(c->kind, WARD_C_CMP);
	parsed_free(p);
}

static void test_too_many_errors(void **state)
{
	(void)state;
	char text[4096] = "ward 1;\n";
	for (int i = 0; i < 80; i++)
		strcat(text, "const $ = 1;\n");
	struct parsed *p = parse_text(text);
	assert_int_equal(p->file->nerrors, 51);
	const char *last = strstr(p->out, "t.ward:52:7: error: too many errors "
					  "in this file (more than 50): "
					  "stopping here\n");
	assert_non_null(last);
	/* nothing after it */
	assert_null(strstr(last + 1, "t.ward:"));
	parsed_free(p);
	/* 50 errors are all reported, and nothing more */
	strcpy(text, "ward 1;\n");
	for (int i = 0; i < 50; i++)
		strcat(text, "const $ = 1;\n");
	p = parse_text(text);
	assert_int_equal(p->file->nerrors, 50);
	assert_null(strstr(p->out, "too many"));
	parsed_free(p);
}

static void test_json_syntax_error(void **state)
{
	(void)state;
	const char *text = "ward 1;\nlimit { }\n";
	struct parsed *p = parse_bytes(text, strlen(text), WARD_DIAG_JSON);
	assert_string_equal(
	    p->out,
	    "{\"file\":\"t.ward\",\"line\":2,\"column\":1,\"end_line\":2,"
	    "\"end_column\":5,\"severity\":\"error\",\"message\":\"unexpected "
	    "name `limit`; expected a statement (`policy`, `use`, `include`, "
	    "`const`, `group`) or a section (`identity`, `env`, `fs`, `net`, "
	    "`limits`, `syscalls`, `export`)\",\"help\":[\"did you mean "
	    "`limits`?\"],"
	    "\"notes\":[],\"include_chain\":[]}\n");
	parsed_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_top_level),
	    cmocka_unit_test(test_identity_env),
	    cmocka_unit_test(test_fs),
	    cmocka_unit_test(test_net),
	    cmocka_unit_test(test_net_name_rules),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_syscalls),
	    cmocka_unit_test(test_conditions),
	    cmocka_unit_test(test_version_pin),
	    cmocka_unit_test(test_missing_semicolon),
	    cmocka_unit_test(test_unexpected_words),
	    cmocka_unit_test(test_expected_things),
	    cmocka_unit_test(test_symlink_target_help),
	    cmocka_unit_test(test_masked_comparison),
	    cmocka_unit_test(test_section_errors),
	    cmocka_unit_test(test_mount_option_twice),
	    cmocka_unit_test(test_mode_digits),
	    cmocka_unit_test(test_recovery_reports_every_error),
	    cmocka_unit_test(test_no_cascade),
	    cmocka_unit_test(test_deep_nesting),
	    cmocka_unit_test(test_too_many_errors),
	    cmocka_unit_test(test_json_syntax_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
