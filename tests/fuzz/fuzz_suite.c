/* fuzz_suite.c: suite files, read from a temporary file as `fsbench run
 * --suite FILE` and `fsbench list suites` read them. */
#include "fuzz.h"
#include "core/error.h"
#include "runner/suite.h"

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct suite s;
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fsbench-fuzz-suite.%d.suite", (int)getpid());
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (suite_load(path, 1, &s) == 0) {
		FUZZ_ASSERT(s.ntests >= 0 && s.nskipped >= 0);
		for (int i = 0; i < s.ntests; i++)
			FUZZ_ASSERT(s.tests[i].wl && s.tests[i].params);
		suite_free(&s);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	unlink(path);
	return 0;
}
