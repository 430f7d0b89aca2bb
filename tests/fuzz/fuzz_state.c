/* fuzz_state.c: lines of the state file, the record that decides what
 * `fsbench cleanup` unmounts and deletes as root.  A line that parses
 * must format back to itself: no field can be cut or shifted. */
#include "fuzz.h"
#include "core/error.h"
#include "targets/state.h"

#include <limits.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	static struct state_entry e, back;
	static char line[6 * PATH_MAX + 256];

	if (state_parse_line(text, &e) == 0) {
		FUZZ_ASSERT(e.pid > 0 && e.arg[0] == '/');
		FUZZ_ASSERT(state_format_line(&e, line, sizeof(line)) > 0);
		FUZZ_ASSERT(state_parse_line(line, &back) == 0);
		FUZZ_ASSERT(back.pid == e.pid && back.start == e.start && back.dev == e.dev &&
			    back.ino == e.ino && !strcmp(back.kind, e.kind) &&
			    !strcmp(back.arg, e.arg) && !strcmp(back.arg2, e.arg2));
		/* seven fields: six blanks, one newline, at the end */
		int blanks = 0;
		for (const char *p = line; *p; p++)
			blanks += *p == ' ';
		FUZZ_ASSERT(blanks == 6 && strchr(line, '\n') == line + strlen(line) - 1);
	}
	/* Any bytes as a path: formatted, they parse back unchanged. */
	if (size && size < PATH_MAX) {
		memset(&e, 0, sizeof(e));
		e.pid = 1;
		strcpy(e.kind, "dir");
		e.arg[0] = '/';
		memcpy(e.arg + 1, text, strlen(text) < PATH_MAX - 2 ? strlen(text) : PATH_MAX - 2);
		FUZZ_ASSERT(state_format_line(&e, line, sizeof(line)) > 0);
		FUZZ_ASSERT(state_parse_line(line, &back) == 0 && !strcmp(back.arg, e.arg));
	}
	free(text);
	return 0;
}
