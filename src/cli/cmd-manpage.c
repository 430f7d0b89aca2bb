/*
 * cmd-manpage.c: `fsbench manpage` prints fsbench(1) in roff, generated
 * from the command list and each command's option template -- the same
 * tables `--help` prints -- so the manual cannot drift from the program.
 * `make man` writes build/fsbench.1 with it and `make install` installs
 * that; a test checks every option of every `--help` is in it and that
 * groff renders it without a warning.
 */
#include "cli.h"
#include "../core/version.h"
#include "../core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_opt manpage_args[] = {
	{ NULL, 0, 0, NULL, NULL },
};

/* Text into roff: backslashes and hyphens escaped, a leading dot or
 * quote neutralised, blank lines dropped. */
static void roff(const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", stdout);
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else if (*s == '\n' && bol)
			continue;
		else
			putchar(*s);
		bol = *s == '\n';
	}
	if (!bol)
		putchar('\n');
}

/* One line of text inside a roff line: escaped, no line breaks. */
static void inline_text(const char *s)
{
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else if (*s == '\n')
			putchar(' ');
		else
			putchar(*s);
}

/* The tag line of an option, as --help shows it: -t, --target [LABEL=]DIR */
static void option(const struct cli_opt *o)
{
	fputs(".TP\n", stdout);
	if (o->val)
		printf("\\fB\\-%c\\fR, ", o->val);
	fputs("\\fB\\-\\-", stdout);
	inline_text(o->name);
	fputs("\\fR", stdout);
	if (o->arg) {
		fputs(" \\fI", stdout);
		inline_text(o->arg);
		fputs("\\fR", stdout);
	}
	putchar('\n');
	roff(o->help);
}

static int cmd_manpage(const struct cli_args *a)
{
	const struct cmd_entry *const *cmds = cli_commands();

	if (cli_npos(a))
		return cli_fail(EXIT_USAGE, "manpage: takes no arguments");
	printf(".TH FSBENCH 1 \"\" \"fsbench %s\" \"User Commands\"\n", fsbench_version);
	fputs(".SH NAME\nfsbench \\- compare filesystems with faithful standard workloads\n"
	      ".SH SYNOPSIS\n.B fsbench\n.I COMMAND\n[\\fIARGS\\fR]\n.br\n"
	      ".B fsbench help\n.I COMMAND\n.br\n.B fsbench \\-V\n"
	      ".SH DESCRIPTION\nfsbench makes each filesystem to compare (mkfs and mount on an image "
	      "and a loop device, or a named device), runs the standard workloads as their original "
	      "tools do (fs_mark, fio, bonnie++, PostMark, iozone's fileop, tar and cp, SQLite, "
	      "LevelDB, IOR and mdtest), repeats until the statistics are sound, stores every "
	      "sample in SQLite and reports text charts, ratio tables, Markdown, JSON, CSV and an "
	      "HTML page.\nThis page is generated from the program's own option tables "
	      "(\\fBfsbench manpage\\fR).\n.SH COMMANDS\n", stdout);
	for (int i = 0; cmds[i]; i++) {
		const struct cmd_entry *c = cmds[i];
		printf(".SS \"fsbench %s ", c->name);
		for (const char *u = c->usage; *u; u++)
			if (*u == '"')
				fputs("\\(dq", stdout);
			else if (*u == '-')
				fputs("\\-", stdout);
			else if (*u == '\\')
				fputs("\\e", stdout);
			else
				putchar(*u);
		fputs("\"\n", stdout);
		roff(c->summary);
		if (c->about) {
			fputs(".PP\n", stdout);
			roff(c->about);
		}
		for (const struct cli_opt *o = c->args; o && o->name; o++)
			option(o);
		option(&(struct cli_opt){ "help", 0, 'h', NULL, "this command's options" });
		if (c->more_help) {	/* fsbench io: fio's options, as --help lists them */
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);
			if (m) {
				c->more_help(m);
				fclose(m);
				fputs(".PP\n.nf\n", stdout);
				for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
					nl = strchr(line, '\n');
					if (nl)
						*nl = '\0';
					if (line[0] == '.' || line[0] == '\'')
						fputs("\\&", stdout);
					inline_text(line);
					putchar('\n');
				}
				fputs(".fi\n", stdout);
				free(text);
			}
		}
	}
	fputs(".SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 1\na failure: a test failed, a "
	      "filesystem could not be made, the store could not be written, or compare "
	      "\\-\\-fail\\-on\\-regression found a regression beyond its threshold\n.TP\n.B 2\n"
	      "bad usage: an unknown option, test, parameter or run; a value out of range\n.TP\n"
	      ".B 3\ncompare: the runs share no test, metric and target\n.TP\n.B 130\n"
	      "interrupted (SIGINT or SIGTERM); what the run made is undone and the run is stored "
	      "as interrupted (\\fBfsbench run \\-\\-resume\\fR continues it)\n"
	      ".SH ENVIRONMENT\n.TP\n.B XDG_DATA_HOME\nthe result store is "
	      "\\fI$XDG_DATA_HOME/fsbench/results.db\\fR (default "
	      "\\fI~/.local/share/fsbench/results.db\\fR)\n.TP\n.B XDG_CACHE_HOME\nwhere the tree "
	      "workload keeps its corpus (default \\fI~/.cache/fsbench\\fR)\n.TP\n.B FSBENCH_SUITES\n"
	      "a directory of suite files instead of the installed ones\n.TP\n.B FSBENCH_STATE\n"
	      "the record of what fsbench made and must undo (default "
	      "\\fI/var/lib/fsbench/state\\fR as root, else "
	      "\\fI$XDG_STATE_HOME/fsbench/state\\fR or \\fI~/.local/state/fsbench/state\\fR)\n.TP\n.B NO_COLOR\nno colour in "
	      "the text tables\n.TP\n.B COLUMNS\nthe width of the text output\n"
	      ".SH FILES\n.TP\n.I PREFIX/share/fsbench/suites\nthe built-in suites\n.TP\n"
	      ".I PREFIX/share/doc/fsbench\nthe README and what each workload reproduces\n.TP\n"
	      ".I ~/.cache/fsbench/kernels\nthe pinned kernels that \\fBrun --vm\\fR boots "
	      "(\\fBfsbench kernel fetch\\fR; \\fI$XDG_CACHE_HOME\\fR is honoured)\n"
	      ".SH SEE ALSO\n.BR fio (1),\n.BR bonnie++ (8),\n.BR postmark (1),\n"
	      ".BR fs_mark (1),\n.BR mkfs (8),\n.BR mount (8),\n.BR losetup (8)\n", stdout);
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

const struct cmd_entry cmd_manpage_entry = {
	.name = "manpage",
	.usage = "",
	.summary = "print the fsbench(1) manual page (roff), generated from the option tables",
	.args = manpage_args,
	.exec = cmd_manpage,
};
