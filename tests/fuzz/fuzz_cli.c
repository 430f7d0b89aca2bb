/* fuzz_cli.c: command lines as every command's template parses them (the
 * words one per line, the first the command's name): typed options land
 * in the command's struct within their bounds, or the line is refused
 * with a message.  Nothing is run. */
#include "fuzz.h"
#include "cli/cli.h"
#include "core/error.h"

#include <math.h>

extern const struct cmd_entry cmd_run_entry, cmd_list_entry, cmd_show_entry,
	cmd_report_entry, cmd_compare_entry, cmd_io_entry, cmd_export_entry, cmd_import_entry,
	cmd_kernel_entry;

static const struct cmd_entry *const cmds[] = {
	&cmd_run_entry, &cmd_list_entry, &cmd_show_entry, &cmd_report_entry, &cmd_compare_entry,
	&cmd_io_entry, &cmd_export_entry, &cmd_import_entry, &cmd_kernel_entry, NULL,
};

/* Each typed value within what its row allows (0: not given). */
static void check_values(const struct cmd_entry *cmd, const void *opts)
{
	for (const struct cli_opt *o = cmd->args; o && o->name; o++) {
		const char *field = (const char *)opts + o->offset;
		double d;
		switch (o->type) {
		case CLI_COUNT: {
			int n = *(const int *)field;
			FUZZ_ASSERT(n == 0 || (n >= o->min && n <= o->max));
			break;
		}
		case CLI_SIZE: {
			uint64_t v = *(const uint64_t *)field;
			FUZZ_ASSERT(v == 0 || (v >= o->min && (o->max <= 0 || v <= o->max)));
			break;
		}
		case CLI_PERCENT:
		case CLI_NUMBER:
		case CLI_DURATION:
			d = *(const double *)field;
			FUZZ_ASSERT(isfinite(d));
			break;
		default:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *argv[64], *save = NULL;
	int argc = 0;

	for (char *w = strtok_r(text, "\n", &save); w && argc < 64; w = strtok_r(NULL, "\n", &save))
		argv[argc++] = w;
	for (int c = 0; argc && cmds[c]; c++) {
		struct cli_args a;
		if (strcmp(argv[0], cmds[c]->name))
			continue;
		if (cli_parse(cmds[c], argc, argv, &a) == 0) {
			FUZZ_ASSERT(a.n <= argc);
			FUZZ_ASSERT(!cmds[c]->opts_size || a.opts);
			if (a.opts)
				check_values(cmds[c], a.opts);
		} else {
			FUZZ_ASSERT(error_get()[0]);
		}
		cli_args_free(&a);
	}
	free(text);
	return 0;
}
