/*
 * testhook.h: a point where the kill-matrix tests can stop fsbench.
 *
 * FSBENCH_TEST_PAUSE=PHASE makes fsbench stop itself (SIGSTOP) when it
 * reaches PHASE, so that a test can deliver SIGKILL, SIGTERM or SIGINT at
 * exactly that moment and then check that `fsbench cleanup` leaves nothing
 * behind.  Phases: image, loop, mkfs, mount, workload, store, teardown.
 * FSBENCH_TEST_PAUSE=crash-PHASE makes it crash there instead (SIGSEGV),
 * as a bug would, to prove a crash leaves nothing behind.
 * Unset (always, outside tests) it costs one getenv per phase, never per
 * I/O.
 */
#ifndef FSB_TESTHOOK_H
#define FSB_TESTHOOK_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>

static inline void test_pause(const char *phase)
{
	const char *want = getenv("FSBENCH_TEST_PAUSE");

	if (!want)
		return;
	if (!strcmp(want, phase))
		raise(SIGSTOP);
	else if (!strncmp(want, "crash-", 6) && !strcmp(want + 6, phase))
		raise(SIGSEGV);
}

#endif
