/* fuzz_values.c: the value parsers behind every option and parameter
 * (sizes, durations, percentages, integers, run numbers, booleans, kernel
 * versions) and the escaping of what errors echo to the terminal. */
#include "fuzz.h"
#include "core/param.h"
#include "core/str.h"
#include "vm/kernel.h"

#include <ctype.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t sz;
	int64_t i;
	double d;
	bool b;
	char out[64], esc[256];

	if (parse_size(text, &sz) == 0) {
		format_size(sz, out, sizeof(out));
		uint64_t back;
		FUZZ_ASSERT(parse_size(out, &back) == 0 && back == sz);
	}
	if (parse_duration(text, &d) == 0)
		FUZZ_ASSERT(isfinite(d) && d >= 0 && d <= DURATION_MAX);
	if (parse_percent(text, &d) == 0)
		FUZZ_ASSERT(d > 0 && d < 1);
	(void)parse_int(text, &i);
	if (parse_decimal(text, &i) == 0) {	/* digits only, and the number they say */
		int64_t back;
		FUZZ_ASSERT(text[0] && !text[strspn(text, "0123456789")] && i >= 0);
		snprintf(out, sizeof(out), "%lld", (long long)i);
		FUZZ_ASSERT(parse_decimal(out, &back) == 0 && back == i);
	}
	if (vm_kernel_version_check(text) == 0)	/* it names a package and a directory */
		FUZZ_ASSERT(!strchr(text, '/') && !strchr(text, ' ') && isdigit((unsigned char)text[0]));
	(void)parse_bool(text, &b);
	str_escape(esc, sizeof(esc), text);
	FUZZ_ASSERT(strlen(esc) < sizeof(esc));
	for (const unsigned char *p = (const unsigned char *)esc; *p; p++)
		FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
	free(text);
	return 0;
}
