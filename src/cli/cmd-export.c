/*
 * cmd-export.c: `fsbench export RUN [-o FILE]`: a stored run as one JSON
 * document (schema fsbench.result, described by docs/result.schema.json)
 * that `fsbench import` on another machine merges into its own store --
 * how a team collects results from several machines.
 */
#include "cli.h"
#include "../core/error.h"
#include "../report/report.h"

struct export_args {
	const char *output, *label, *db;
};
#define A(f) offsetof(struct export_args, f)

static const struct cli_opt export_args[] = {
	{ "output", 1, 'o', "FILE", "write the document to FILE (default: stdout)", CLI_STRING,
	  A(output) },
	{ "label", 1, 'l', "LABEL", "the newest run with this label instead of RUN", CLI_STRING,
	  A(label) },
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, A(db) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_export(const struct cli_args *a)
{
	const struct export_args *o = a->opts;
	const char *label = o->label, *out = o->output ? o->output : "-";
	struct store *s;
	struct result *r;
	int64_t id;

	if (cli_npos(a) + (label != NULL) != 1)
		return cli_fail(EXIT_USAGE, "export: give one run (a number, last, or --label LABEL)");
	if (cli_output_check("--output", out))
		return cli_fail(EXIT_USAGE, "export: %s", error_get());
	int opened = cli_open_store_readonly(o->db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	int code = cli_load_run(s, label ? label : cli_pos(a, 0), label != NULL, &r, &id);
	store_close(s);
	if (code)
		return cli_fail(code, "export: %s", error_get());
	FILE *f = cli_output_open(out);
	int rc = !f || cli_output_close(f, out, report_json_exact(f, r, NULL, 1) ? -1 : 0);
	result_free(r);
	return rc ? cli_fail(EXIT_FAIL, "export: %s", error_get()) : EXIT_OK;
}

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "RUN [-o FILE]",
	.summary = "write a stored run as one JSON document for `fsbench import`",
	.about = "The document is the run's JSON report (docs/result.schema.json): every\n"
		 "sample, target and setting, so nothing is lost on the way.\n",
	.args = export_args,
	.opts_size = sizeof(struct export_args),
	.exec = cmd_export,
};
