/* fuzz_testspec.c: test names with parameters, "fsmark:files=10,size=4k",
 * as `fsbench run` and suite files take them, for every workload. */
#include "fuzz.h"
#include "core/error.h"
#include "runner/testspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct test_spec ts;

	if (test_spec_parse(text, &ts) == 0) {
		/* A parsed test has a workload, parameters, and text that
		 * parses back to the same parameters. */
		FUZZ_ASSERT(ts.wl && ts.params);
		FUZZ_ASSERT(strlen(ts.params_text) < sizeof(ts.params_text));
		test_spec_scale(&ts, 0.5);
		test_spec_free(&ts);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
