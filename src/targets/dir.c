/*
 * dir.c: a target that is an existing directory (`--target [LABEL=]DIR`).
 * Setup only checks that the directory exists and is writable; there is
 * nothing to tear down.
 */
#include "target.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int dir_setup(struct target *t)
{
	struct stat st;
	char real[PATH_MAX];

	if (stat(t->spec, &st))
		return error_errno("target '%s': %s", t->label, t->spec);
	if (!S_ISDIR(st.st_mode))
		return error_set("target '%s': %s is not a directory", t->label, t->spec);
	if (access(t->spec, W_OK | X_OK))
		return error_errno("target '%s': cannot write to %s", t->label, t->spec);
	if (!realpath(t->spec, real))
		return error_errno("target '%s': %s", t->label, t->spec);
	snprintf(t->path, sizeof(t->path), "%s", real);
	return 0;
}

static void dir_teardown(struct target *t)
{
	(void)t;
}

static const struct target_ops dir_ops = {
	.kind = "dir",
	.setup = dir_setup,
	.teardown = dir_teardown,
};

int target_parse(const char *arg, struct target *t)
{
	const char *eq = strchr(arg, '=');
	const char *dir = eq ? eq + 1 : arg;

	memset(t, 0, sizeof(*t));
	t->ops = &dir_ops;
	if (!*dir)
		return error_set("--target '%s': no directory given (use --target [LABEL=]DIR)", arg);
	if (eq) {
		size_t n = (size_t)(eq - arg);
		if (n == 0 || n >= sizeof(t->label))
			return error_set("--target '%s': label must be 1 to %zu characters",
					 arg, sizeof(t->label) - 1);
		memcpy(t->label, arg, n);
		if (str_has_control(t->label))
			return error_set("--target: a label may not hold control characters");
	} else {
		/* a label is display text: a path's control characters escaped */
		str_escape(t->label, sizeof(t->label), dir);
	}
	if (strlen(dir) >= sizeof(t->spec))
		return error_set("--target '%s': path too long", arg);
	snprintf(t->spec, sizeof(t->spec), "%s", dir);
	return 0;
}
