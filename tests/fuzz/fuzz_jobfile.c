/* fuzz_jobfile.c: fio job files as `fsbench io FILE` and `run --fio` read
 * them, then each job turned into a test as the runner does. */
#include "fuzz.h"
#include "core/error.h"
#include "io/iojob.h"
#include "io/jobfile.h"
#include "runner/testspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	static struct jobset set;

	memset(&set, 0, sizeof(set));
	if (jobfile_parse("fuzz.fio", text, size & 1, &set) == 0) {
		FUZZ_ASSERT(set.njobs > 0 && set.njobs <= JOBS_MAX);
		for (int j = 0; j < set.njobs; j++) {
			struct test_spec ts;
			if (io_options_validate(&set.jobs[j]))	/* every option's own parser */
				FUZZ_ASSERT(error_get()[0]);
			if (test_spec_from_params(workload_find("io"), &set.jobs[j], set.jobs[j].name,
						  &ts) == 0)
				test_spec_free(&ts);
		}
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
