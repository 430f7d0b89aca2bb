/*
 * cmd-import.c: `fsbench import FILE...`: runs exported with `fsbench
 * export` (from this machine or another) into this store, each as a new
 * run with all its samples; a run already imported is found, not doubled.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct cli_opt import_args[] = {
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)" },
	{ NULL, 0, 0, NULL, NULL },
};

#define MAX_IMPORT (256u << 20)

static int cmd_import(const struct cli_args *a)
{
	struct store *s;
	int rc = EXIT_OK;

	if (!cli_npos(a))
		return cli_fail(EXIT_USAGE, "import: give the file(s) `fsbench export` wrote (- for stdin)");
	if (cli_open_store(cli_value(a, "db"), &s))
		return cli_fail(EXIT_FAIL, "%s", error_get());
	for (int i = 0; i < cli_npos(a); i++) {
		const char *file = cli_pos(a, i);
		size_t len = 0;
		int64_t id;
		int existed;
		char *text = file_read_all(file, MAX_IMPORT, 0, &len);
		if (!text) {
			rc = cli_fail(EXIT_USAGE, "import: %s", error_get());
			continue;
		}
		if (store_import(s, text, len, &id, &existed))
			rc = cli_fail(EXIT_USAGE, "%s: %s", file, error_get());
		else if (existed)
			printf("%s: already in the store as run %lld\n", file, (long long)id);
		else
			printf("%s: imported as run %lld\n", file, (long long)id);
		free(text);
	}
	store_close(s);
	return rc;
}

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.usage = "FILE... [--db FILE]",
	.summary = "add runs written by `fsbench export` to this store",
	.about = "Each file becomes a new run here, with every sample, target and test it\n"
		 "had; one imported before is found, not stored twice.  `show`, `report`,\n"
		 "`compare` then treat it like any run.\n",
	.args = import_args,
	.exec = cmd_import,
};
