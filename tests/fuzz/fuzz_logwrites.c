/* fuzz_logwrites.c: dm-log-writes logs as the powercut replay reads them
 * (crash/logwrites.c), then planned and replayed (crash/crashpoint.c): an
 * error with a message, or an index whose every entry's data lies inside
 * the log and whose every write ends inside the device bound; a plan whose
 * points lie inside the log, sorted; and a replay of each point onto an
 * image in memory that neither fails nor writes past the log's extent. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "core/error.h"
#include "crash/crashpoint.h"
#include "crash/logwrites.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_log(const struct lw_log *log, size_t size)
{
	FUZZ_ASSERT(log->n <= LW_MAX_ENTRIES && log->extent <= LW_MAX_DEVICE);
	for (size_t i = 0; i < log->n; i++) {
		const struct lw_entry *e = &log->ent[i];
		uint64_t bytes = (e->flags & (LW_DISCARD | LW_MARK)) ? 0 : e->nr_sectors * log->sectorsize;

		FUZZ_ASSERT(!(e->flags & ~LW_FLAGS));
		FUZZ_ASSERT(e->data <= size && bytes <= size - e->data);
		if (e->flags & LW_MARK)
			FUZZ_ASSERT(e->mark < log->marks_len);
		else
			FUZZ_ASSERT((e->sector + e->nr_sectors) * log->sectorsize <= LW_MAX_DEVICE);
	}
}

/* Every point replayed onto an image in memory, when the device is small. */
static void replay(const struct lw_log *log, const uint8_t *data, size_t size,
		   const struct crash_plan *plan)
{
	int logfd, base, work;
	size_t at = 0;
	struct stat st;

	if (log->extent > (1u << 20))
		return;
	logfd = memfd_create("log", 0);
	base = memfd_create("base", 0);
	work = memfd_create("work", 0);
	FUZZ_ASSERT(logfd >= 0 && base >= 0 && work >= 0);
	FUZZ_ASSERT(write(logfd, data, size) == (ssize_t)size);
	for (size_t i = 0; i < plan->n; i++) {
		FUZZ_ASSERT(crash_advance(log, logfd, base, &at, &plan->p[i]) == 0);
		FUZZ_ASSERT(ftruncate(work, 0) == 0);
		FUZZ_ASSERT(crash_apply_torn(log, logfd, work, &plan->p[i]) == 0);
		FUZZ_ASSERT(fstat(work, &st) == 0 && (uint64_t)st.st_size <= log->extent);
	}
	FUZZ_ASSERT(fstat(base, &st) == 0 && (uint64_t)st.st_size <= log->extent);
	close(logfd);
	close(base);
	close(work);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (unsigned flags = 0; flags <= LW_READ_PAST_SUPER; flags++) {
		struct lw_log log;
		struct crash_plan plan;

		if (lw_read_mem(data, size, flags, &log)) {
			FUZZ_ASSERT(error_get()[0]);
			continue;
		}
		check_log(&log, size);
		FUZZ_ASSERT(crash_plan_make(&log, 0, 16, size, &plan) == 0);
		for (size_t i = 0; i < plan.n; i++) {
			const struct crash_point *p = &plan.p[i];
			FUZZ_ASSERT(p->durable <= p->cut && p->cut <= log.n);
			FUZZ_ASSERT(!i || plan.p[i - 1].durable <= p->durable);
		}
		replay(&log, data, size, &plan);
		crash_plan_free(&plan);
		lw_free(&log);
	}
	return 0;
}
