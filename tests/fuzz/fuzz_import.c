/* fuzz_import.c: documents given to `fsbench import`, into an in-memory
 * store: refused with a message, or stored whole and loadable again; a
 * target's aging record, whatever it holds, gives the reports a line. */
#include "fuzz.h"
#include "aging/record.h"
#include "core/error.h"
#include "store/store.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store *s;
	struct result *r;
	int64_t id;
	int existed;

	if (store_open(":memory:", &s))
		abort();
	if (store_import(s, (const char *)data, size, &id, &existed) == 0) {
		FUZZ_ASSERT(id > 0 && !existed);
		FUZZ_ASSERT(store_load_run(s, id, &r) == 0);
		FUZZ_ASSERT(r->ntargets >= 1);
		for (int i = 0; i < r->ntargets; i++) {
			char line[512];
			int rc = age_record_summary(r->targets[i].aging, line, sizeof(line));
			FUZZ_ASSERT((rc == 0 || rc == -1) && line[0] && strlen(line) < sizeof(line));
		}
		for (int k = 0; k < r->ntests; k++)
			FUZZ_ASSERT(r->tests[k].nmetrics >= 1);
		result_free(r);
		/* the same document again: found, not stored twice */
		int64_t again;
		FUZZ_ASSERT(store_import(s, (const char *)data, size, &again, &existed) == 0);
		FUZZ_ASSERT(existed && again == id);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	store_close(s);
	return 0;
}
