/*
 * ini.h: the one reader of INI-shaped text, for suite files and fio job
 * files alike.
 *
 * Lines are trimmed; empty lines and lines starting with ';' or '#' are
 * comments; "[NAME]" starts a section; "key = value" and a bare "key" (fio's
 * boolean set) are entries.  The reader owns the syntax and its errors
 * ("FILE:LINE: ..."); what a section or key means is the caller's, through
 * two callbacks that return 0 or -1 with the error set.
 */
#ifndef FSB_INI_H
#define FSB_INI_H

#include <stddef.h>

/* Longest line accepted, so a line can never be cut in two silently. */
#define INI_LINE_MAX 4094

struct ini_handler {
	/* fio's rule: ';' or '#' anywhere on a line starts a comment (fio
	 * keeps "filename=data ; or a disk" as "data").  Suite files keep
	 * them in values. */
	int inline_comments;
	/* "[name]": name trimmed, never empty. */
	int (*section)(void *arg, const char *name, int line);
	/* value is NULL for a bare key; key is never empty. */
	int (*entry)(void *arg, const char *key, const char *value, int line);
};

/* Parse text (name is the file name used in messages). */
int ini_parse(const char *name, const char *text, const struct ini_handler *h, void *arg);
/* Read a file of at most max bytes whole, then parse it. */
int ini_load(const char *path, size_t max, const struct ini_handler *h, void *arg);

#endif
