/* fuzz_strace.c: S's start-up traces (appstart app=trace:PATH): whatever
 * parses has requests the replayer can issue (a known thread, 1 sector to
 * less than a file, the byte count their sum); the rest is an error with
 * a message. */
#include "fuzz.h"
#include "core/error.h"
#include "workloads/appstart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct s_trace t;

	if (s_trace_parse(text, &t) == 0) {
		uint64_t bytes = 0;
		FUZZ_ASSERT(t.n > 0 && t.threads > 0 && t.threads <= S_TRACE_THREADS);
		for (int k = 0; k < t.n; k++) {
			FUZZ_ASSERT(t.req[k].thread < t.threads);
			FUZZ_ASSERT(t.req[k].sectors >= 1 && t.req[k].sectors < S_TRACE_FILE / 512);
			bytes += (uint64_t)t.req[k].sectors * 512;
		}
		FUZZ_ASSERT(bytes == t.bytes);
		s_trace_free(&t);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
