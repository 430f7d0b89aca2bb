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

struct import_args {
	const char *db;
};

static const struct cli_opt import_args[] = {
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, offsetof(struct import_args, db) },
	{ NULL, 0, 0, NULL, NULL },
};

#define MAX_IMPORT (256u << 20)

static int cmd_import(const struct cli_args *a)
{
	struct store *s = NULL;
	int rc = EXIT_OK, n = cli_npos(a);
	int64_t id;
	int existed;

	if (!n)
		return cli_fail(EXIT_USAGE, "import: give the file(s) `fsbench export` wrote (- for stdin)");
	/* Every document read and checked first: a bad one is refused
	 * before the store is made or opened. */
	char **texts = calloc((size_t)n, sizeof(*texts));
	size_t *lens = calloc((size_t)n, sizeof(*lens));
	if (!texts || !lens) {
		free(texts);
		free(lens);
		return cli_fail(EXIT_FAIL, "out of memory");
	}
	for (int i = 0; i < n && rc == EXIT_OK; i++) {
		const char *file = cli_pos(a, i);
		texts[i] = file_read_all(file, MAX_IMPORT, 0, &lens[i]);
		if (!texts[i])
			rc = cli_fail(EXIT_USAGE, "import: %s", error_get());
		else if (store_import(NULL, texts[i], lens[i], &id, &existed))
			rc = cli_fail(EXIT_USAGE, "%s: %s", file, error_get());
	}
	int opened = rc == EXIT_OK ? cli_open_store(((const struct import_args *)a->opts)->db, &s) : 0;
	if (opened) {
		s = NULL;
		rc = cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	}
	for (int i = 0; i < n && rc == EXIT_OK; i++) {
		const char *file = cli_pos(a, i);
		if (store_import(s, texts[i], lens[i], &id, &existed))
			rc = cli_fail(EXIT_FAIL, "%s: %s", file, error_get());
		else if (existed)
			printf("%s: already in the store as run %lld\n", file, (long long)id);
		else
			printf("%s: imported as run %lld\n", file, (long long)id);
	}
	store_close(s);
	for (int i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	free(lens);
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
	.opts_size = sizeof(struct import_args),
	.exec = cmd_import,
};
