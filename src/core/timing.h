/*
 * timing.h: the one clock fsbench measures with.
 *
 * CLOCK_MONOTONIC is served by the vDSO (no syscall); CLOCK_MONOTONIC_RAW is
 * not, and costs measurably per I/O in VMs, so it is never used.
 */
#ifndef FSB_TIMING_H
#define FSB_TIMING_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline double ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Wall-clock time for stored timestamps ("2026-11-30 09:12:44"). */
void wallclock_text(char *buf, unsigned len);

#endif
