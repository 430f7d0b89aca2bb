/* fuzz_testspec.c: test names with parameters, "fsmark:files=10,size=4k",
 * as `fsbench run` and suite files take them, for every workload; what
 * is stored of a parsed test parses back to the same parameters. */
#include "fuzz.h"
#include "core/error.h"
#include "core/param.h"
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
		/* the stored text gives back exactly these parameters */
		void *again = calloc(1, ts.wl->params_size);
		static char text2[sizeof(ts.params_text)];
		FUZZ_ASSERT(again);
		FUZZ_ASSERT(!params_defaults(ts.wl->params, again));
		FUZZ_ASSERT(!params_apply(ts.wl->params, again, ts.params_text));
		FUZZ_ASSERT(!params_format(ts.wl->params, again, text2, sizeof(text2)));
		FUZZ_ASSERT(!strcmp(text2, ts.params_text));
		free(again);
		if (test_spec_scale(&ts, 0.5))
			FUZZ_ASSERT(error_get()[0]);
		test_spec_free(&ts);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
