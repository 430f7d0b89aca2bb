/*
 * probe.h: measuring a flash medium's page, allocation unit and open
 * units as flashbench does (issue 71): from the time its reads and writes
 * take, through an I/O interface that is a real device (cmd-probe.c) or
 * the model itself (flash.h), which is how the probe is proved: probing a
 * modelled medium of known parameters gives them back (test_flash).
 *
 *   page   reads of 4 KiB straddling boundaries of a candidate size cost
 *          more than reads inside, at every boundary once the candidate
 *          is a whole number of pages;
 *   open   N streams written in turn, each in order in a region of its
 *          own, stay cheap while N units can be open at once, and
 *          collapse at one more (every write forces a merge);
 *   unit   N + 1 such streams spaced by a candidate size collapse once
 *          the candidate is a whole unit (smaller, they share units and
 *          fit the open ones).
 * Writes (the unit and the open units) destroy what is there: the caller
 * asks for them explicitly, within the region it gives.
 */
#ifndef FSB_PROBE_H
#define FSB_PROBE_H

#include <stdint.h>

struct probe_io {
	/* Nanoseconds the request took; 0 with errno set on failure. */
	uint64_t (*read)(void *arg, uint64_t off, uint32_t len);
	uint64_t (*write)(void *arg, uint64_t off, uint32_t len);
	void *arg;
};

struct probe_result {
	uint32_t page;		/* 0: not found */
	uint32_t unit;		/* 0: not measured or not found */
	uint32_t open_units;	/* 0: not measured; PROBE_MAX_OPEN + 1: no limit found */
	double read_mbps, write_mbps;	/* in order, 1 MiB requests (write: 0 unmeasured) */
	double page_penalty;	/* what a read across a page boundary costs more, ns */
};

#define PROBE_MIN_UNIT (512u << 10)
#define PROBE_MAX_UNIT (16u << 20)
#define PROBE_MAX_OPEN 16u

struct flash;
/* The I/O of a modelled medium, by its own time (the round trip). */
struct probe_io probe_io_model(struct flash *f);

/* Probe [base, base + span) (span at least 2 x PROBE_MAX_UNIT x
 * (PROBE_MAX_OPEN + 1) bytes when writing); writes only if write.  0, or
 * -1 with the error set. */
int probe_flash(const struct probe_io *io, uint64_t base, uint64_t span, int write,
		struct probe_result *r);
/* The span a writing probe needs. */
uint64_t probe_span(void);

#endif
