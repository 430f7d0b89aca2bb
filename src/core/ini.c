/* ini.c: INI-shaped text (see ini.h). */
#include "ini.h"
#include "file.h"
#include "error.h"
#include "str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ini_parse(const char *name, const char *text, const struct ini_handler *h, void *arg)
{
	char *copy = strdup(text), *line, *next;
	int lineno = 0, rc = 0;

	if (!copy)
		return error_set("out of memory");
	for (line = copy; line && !rc; line = next) {
		char *s, *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strlen(line) > INI_LINE_MAX) {
			rc = error_set("%s:%d: line longer than %d characters", name, lineno,
				       INI_LINE_MAX);
			break;
		}
		if (h->inline_comments)
			line[strcspn(line, ";#")] = '\0';
		s = str_trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end || str_trim(end + 1)[0]) {
				rc = error_set("%s:%d: malformed section header '%s' (want [name])", name,
					       lineno, s);
				break;
			}
			*end = '\0';
			char *sec = str_trim(s + 1);
			if (!*sec) {
				rc = error_set("%s:%d: a section header without a name", name, lineno);
				break;
			}
			rc = h->section(arg, sec, lineno);
			continue;
		}
		eq = strchr(s, '=');
		if (eq) {
			*eq = '\0';
			char *key = str_trim(s);
			if (!*key) {
				rc = error_set("%s:%d: a value without a key", name, lineno);
				break;
			}
			rc = h->entry(arg, key, str_trim(eq + 1), lineno);
		} else {
			rc = h->entry(arg, s, NULL, lineno);
		}
	}
	free(copy);
	return rc;
}

int ini_load(const char *path, size_t max, const struct ini_handler *h, void *arg)
{
	size_t n;
	int rc;
	/* one reader for every input file: a regular file only, bounded */
	char *text = file_read_all(path, max, 0, &n);

	if (!text)
		return -1;
	if (memchr(text, '\0', n)) {
		free(text);
		return error_set("%s: a NUL byte: not a text file", path);
	}
	rc = ini_parse(path, text, h, arg);
	free(text);
	return rc;
}
