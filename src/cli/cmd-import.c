/*
 * cmd-import.c: `fsbench import FILE...`: runs exported with `fsbench
 * export` (from this machine or another) into this store, each as a new
 * run with all its samples; a run already imported is found, not doubled.
 */
#include "cli.h"
#include "../core/error.h"

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

/* The whole file (- = stdin), at most MAX_IMPORT bytes. */
static char *slurp(const char *path, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) : STDIN_FILENO;
	size_t cap = 1 << 16, used = 0;
	char *buf = NULL;

	if (fd < 0) {
		error_errno("cannot open %s", path);
		return NULL;
	}
	for (;;) {
		if (used + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > MAX_IMPORT + 2)
				cap = MAX_IMPORT + 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				error_set("out of memory reading %s", path);
				goto fail;
			}
			buf = nb;
		}
		if (used + 1 >= cap) {
			error_set("%s is larger than %u MiB: not a run document", path, MAX_IMPORT >> 20);
			goto fail;
		}
		ssize_t n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("reading %s", path);
			goto fail;
		}
		if (!n)
			break;
		used += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	free(buf);
	return NULL;
}

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
		char *text = slurp(file, &len);
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
