/* SPDX-License-Identifier: MIT */
/*
 * options.c: the command line against a command's option table
 * (options.h).
 */
#include "options.h"

#include "policy.h"

#include <stdbool.h>
#include <string.h>

#define HELP_COLUMN 24 /* where an option's description starts */

/* gcc's spelling (-fdiagnostics-format=json): one dash, several letters,
 * the value after `=` only. */
static bool gcc_style(const char *name)
{
	return name[1] != '-' && name[1] && name[2];
}

/* Does arg spell name, an option of o's kind? For one that takes a value,
 * *value is the value written in arg, or NULL when it is the next
 * argument. */
static bool spells(const struct wardc_option *o, const char *name,
		   const char *arg, const char **value)
{
	size_t n = strlen(name);
	bool one_letter = name[1] != '-' && name[1] && !name[2];

	*value = NULL;
	if (strncmp(arg, name, n) != 0)
		return false;
	if (!o->value || arg[n] == 0)
		return arg[n] == 0 && !(o->value && gcc_style(name));
	if (arg[n] == '=' && !one_letter) {
		*value = arg + n + 1;
		return true;
	}
	if (one_letter) {
		*value = arg + n; /* -IDIR */
		return true;
	}
	return false;
}

static const struct wardc_option *find(const struct wardc_option *table,
				       const char *arg, const char **value)
{
	for (const struct wardc_option *o = table; o->name; o++)
		if (spells(o, o->name, arg, value) ||
		    (o->alias && spells(o, o->alias, arg, value)))
			return o;
	return NULL;
}

/* "unknown option `--bpf` (an option of explain)": what was meant, when
 * another command takes it, or how a gcc-style option is written. */
static int unknown(const char *arg, ward_err *err)
{
	char others[128] = "";
	const char *value;
	size_t n = 0;
	int w;

	for (const struct wardc_command *c = wardc_commands; c->name; c++) {
		if (!find(c->options, arg, &value))
			continue;
		w = snprintf(others + n, sizeof(others) - n, "%s%s",
			     n ? ", " : "", c->name);
		if (w < 0 || (size_t)w >= sizeof(others) - n)
			break;
		n += (size_t)w;
	}
	for (const struct wardc_option *o = wardc_general_options; o->name; o++)
		if (o->value && gcc_style(o->name) && !strcmp(arg, o->name))
			return ward_fail(err, 0, "write `%s%s`", o->name,
					 o->value);
	if (n)
		return ward_fail(err, 0,
				 "unknown option `%s` (an option of %s)", arg,
				 others);
	return ward_fail(err, 0, "unknown option `%s`", arg);
}

static int set(struct wardc_args *a, const struct wardc_option *o,
	       const char *v, ward_err *err)
{
	switch (o->id) {
	case OPT_INCDIR:
		a->opts.incdirs[a->opts.nincdirs++] = v;
		break;
	case OPT_DEFINE:
		if (ward_define_check(v, err) < 0)
			return -1;
		a->opts.defines[a->opts.ndefines++] = v;
		break;
	case OPT_TARGET:
		if (!strcmp(v, "x86_64"))
			a->opts.arch = WARD_ARCH_X86_64;
		else if (!strcmp(v, "aarch64"))
			a->opts.arch = WARD_ARCH_AARCH64;
		else
			return ward_fail(err, 0,
					 "unknown target `%s` (x86_64 or "
					 "aarch64)",
					 v);
		break;
	case OPT_WERROR:
		a->opts.werror = true;
		break;
	case OPT_DIAG_FORMAT:
		if (!strcmp(v, "json"))
			a->opts.format = WARD_DIAG_JSON;
		else if (!strcmp(v, "text"))
			a->opts.format = WARD_DIAG_TEXT;
		else
			return ward_fail(err, 0,
					 "unknown diagnostics format `%s` "
					 "(text or json)",
					 v);
		break;
	case OPT_COLOR:
		if (!strcmp(v, "auto"))
			a->opts.color = WARD_COLOR_AUTO;
		else if (!strcmp(v, "always"))
			a->opts.color = WARD_COLOR_ALWAYS;
		else if (!strcmp(v, "never"))
			a->opts.color = WARD_COLOR_NEVER;
		else
			return ward_fail(err, 0,
					 "--color takes auto, always or never, "
					 "not `%s`",
					 v);
		break;
	case OPT_HELP:
		break;
	case OPT_OUTPUT:
		a->output = v;
		break;
	case OPT_FORMAT:
		a->out_format = v;
		break;
	case OPT_BPF:
		a->bpf = true;
		break;
	case OPT_RETRIES:
		a->retries = v;
		break;
	case OPT_QUEUE:
		a->queue = v;
		break;
	case OPT_WRITE:
		a->write = true;
		break;
	case OPT_CHECK:
		a->check = true;
		break;
	case OPT_THRESHOLD:
		a->threshold = v;
		break;
	case OPT_LIST_RULES:
		a->list_rules = true;
		break;
	case OPT_CAPABILITIES:
		a->capabilities = v;
		break;
	case OPT_BUNDLE:
		a->bundle = v;
		break;
	case OPT_SLOT:
		a->slots[a->nslots++] = v;
		break;
	case OPT_SPO_LAYOUT:
		a->spo_layout = v;
		break;
	case OPT_KEY:
		a->key = v;
		break;
	case OPT_RUNTIME_INIT:
		a->runtime_init = true;
		break;
	case OPT_RECORD:
		a->opts.record = true;
		break;
	case OPT_FROM:
		a->from = v;
		break;
	case OPT_WARD:
		a->ward = v;
		break;
	}
	return 0;
}

int wardc_parse(const struct wardc_command *cmd, int argc, char **argv,
		int first, struct wardc_args *a, ward_err *err)
{
	bool dashdash = false;

	for (int i = first; i < argc; i++) {
		const char *arg = argv[i], *v;
		const struct wardc_option *o;

		if (dashdash || arg[0] != '-' || !strcmp(arg, "-")) {
			a->files[a->nfiles++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			dashdash = true;
			a->has_dashdash = true;
			a->dashdash = a->nfiles;
			continue;
		}
		o = find(cmd->options, arg, &v);
		if (!o)
			o = find(wardc_general_options, arg, &v);
		if (!o)
			return unknown(arg, err);
		if (o->id == OPT_HELP)
			return 1;
		if (o->value && !v) {
			if (i + 1 >= argc)
				return ward_fail(
				    err, 0, "%s needs a value (%s)", o->name,
				    o->value + (o->value[0] == '='));
			v = argv[++i];
		}
		if (set(a, o, v, err) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ help */

static void help_line(FILE *out, const char *left, const char *text)
{
	if (strlen(left) + 2 < HELP_COLUMN)
		fprintf(out, "  %-*s%s\n", HELP_COLUMN - 2, left, text);
	else
		fprintf(out, "  %s\n%*s%s\n", left, HELP_COLUMN, "", text);
}

static void help_options(FILE *out, const struct wardc_option *table)
{
	for (const struct wardc_option *o = table; o->name; o++) {
		char left[64];
		if (o->alias)
			snprintf(left, sizeof(left), "%s, %s", o->alias,
				 o->name);
		else if (o->value)
			snprintf(left, sizeof(left), "%s%s%s", o->name,
				 o->value[0] == '=' ? "" : " ", o->value);
		else
			snprintf(left, sizeof(left), "%s", o->name);
		help_line(out, left, o->help);
	}
}

void wardc_help_command(FILE *out, const struct wardc_command *cmd)
{
	fprintf(out, "usage: wardc %s [OPTIONS] %s\n%s.\n", cmd->name,
		cmd->args, cmd->summary);
	if (cmd->options[0].name) {
		fputs("\nOptions:\n", out);
		help_options(out, cmd->options);
	}
	fputs("\nOptions of every command:\n", out);
	help_options(out, wardc_general_options);
}

void wardc_help(FILE *out)
{
	fputs("usage: wardc COMMAND [OPTIONS] ARGS...\n\nCommands:\n", out);
	for (const struct wardc_command *c = wardc_commands; c->name; c++) {
		char left[64];
		snprintf(left, sizeof(left), "%s %s", c->name, c->args);
		help_line(out, left, c->summary);
	}
	fputs("\nOptions of every command:\n", out);
	help_options(out, wardc_general_options);
	help_line(out, "-V, --version", "show the version");
	fputs("\n`wardc COMMAND --help` lists the options of a command.\n"
	      "\n"
	      "Exit status: 0 clean, 1 errors in a policy (or a difference, "
	      "for diff),\n"
	      "2 usage or I/O errors.\n",
	      out);
}
