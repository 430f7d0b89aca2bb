/*
 * resume.c: what `run --resume` needs of a stored run.  A run is stored
 * with its arguments (a JSON array of the words after `run`); an
 * interrupted one is resumed by parsing them again and running into the
 * same run, whose samples count (runner.c checks that its tests are the
 * same).  Parsing the words is the command line's; these only store and
 * give them back.
 */
#include "request.h"
#include "../core/error.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

char *runner_args_json(int argc, char **argv)
{
	json_t *arr = json_array();
	char *out;

	for (int i = 0; arr && i < argc; i++)
		json_array_append_new(arr, json_string(argv[i]));
	out = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	return out;
}

int runner_resume_args(const struct result *r, int64_t id, char ***argv, int *argc)
{
	json_error_t jerr;
	json_t *arr;
	size_t n;
	char **words;

	*argv = NULL;
	*argc = 0;
	if (strcmp(r->status, "interrupted") && strcmp(r->status, "running") &&
	    strcmp(r->status, "abandoned"))
		return error_set("run %lld is %s: only an interrupted run can be resumed",
				 (long long)id, r->status);
	arr = r->argv ? json_loads(r->argv, 0, &jerr) : NULL;
	/* a guest's run stored with the guest's arguments (an older fsbench
	 * imported the guest's run whole): on the host they would run other
	 * filesystems into it.  The host now keeps a guest's run with its own
	 * arguments, which send it to a guest again. */
	int guests = 0;
	for (size_t i = 0; json_is_array(arr) && i < json_array_size(arr); i++) {
		const char *w = json_string_value(json_array_get(arr, i));
		guests |= w && !strncmp(w, "--db=/run/fsbench-guest/", 24);
	}
	if (guests) {
		json_decref(arr);
		return error_set("run %lld was stored with its guest's arguments (by an older "
				 "fsbench): it is run again, not resumed (its samples stay stored)",
				 (long long)id);
	}
	if (!json_is_array(arr)) {
		json_decref(arr);
		return error_set("run %lld was stored without its arguments (an older fsbench): it "
				 "cannot be resumed", (long long)id);
	}
	n = json_array_size(arr);
	words = calloc(n + 2, sizeof(*words));
	if (!words || !(words[0] = strdup("run"))) {
		free(words);
		json_decref(arr);
		return error_set("out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const char *w = json_string_value(json_array_get(arr, i));
		if (!(words[i + 1] = strdup(w ? w : ""))) {
			runner_resume_args_free(words, (int)i + 1);
			json_decref(arr);
			return error_set("out of memory");
		}
	}
	json_decref(arr);
	*argv = words;
	*argc = (int)n + 1;
	return 0;
}

void runner_resume_args_free(char **argv, int argc)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
}
