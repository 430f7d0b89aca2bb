/* fuzz_iolog.c: fio iologs as read_iolog replays them (io/replay.c's
 * parser): an error with a message, or a log whose every I/O names a file
 * it added, with a length in bounds and an end that does not overflow. */
#include "fuzz.h"
#include "core/error.h"
#include "io/iolog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iolog_replay r;

	/* the raw bytes, NULs and all: the parser takes a length */
	if (iolog_parse("fuzz.log", (const char *)data, size, &r) == 0) {
		FUZZ_ASSERT(r.version == 2 || r.version == 3);
		FUZZ_ASSERT(r.n > 0 && r.n <= IOLOG_MAX_ENTRIES && r.nfiles <= IOLOG_MAX_FILES);
		FUZZ_ASSERT(r.reads || r.writes || r.trims);
		for (size_t i = 0; i < r.n; i++) {
			const struct iolog_entry *e = &r.ent[i];
			if (e->act == IOLOG_WAIT)
				continue;
			FUZZ_ASSERT(e->act <= IOLOG_DATASYNC && e->file < r.nfiles);
			if (e->act <= IOLOG_TRIM)
				FUZZ_ASSERT(e->len >= 1 && e->len <= IOLOG_MAX_LEN &&
					    e->offset + e->len <= r.extent && e->offset + e->len > e->offset);
		}
		iolog_free(&r);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	return 0;
}
