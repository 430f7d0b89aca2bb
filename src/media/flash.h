/*
 * flash.h: a model of a cheap flash medium (a USB key, an SD card), the
 * translation layer that decides how fast a filesystem runs on one
 * (issue 71; docs/medium.md).
 *
 * A log-block layer over allocation units (AUs): the medium writes fast
 * into only a few open units at a time.  A write to a unit that has no
 * open log takes one, and when all are taken the least recently written
 * is closed: a log written in order from the unit's start closes with a
 * switch (the old unit erased; its pages past the log's end copied in
 * first: a partial merge), any other log with a full merge (every valid
 * page of the unit copied to a fresh unit, both old ones erased).  The
 * first units (where FAT keeps its tables, as sticks do) are mapped by
 * page and cost only their programs.  A write smaller than a page, or
 * across a page's edge, costs whole pages.  TRIM drops pages, so a merge
 * copies nothing of them.
 *
 * An optional volatile buffer takes writes at the bus's speed while it
 * has room; their programs and merges are done behind them, during later
 * requests and the idle time between them (flash_idle), and a write that
 * finds it full waits until enough has drained.  A flush does not empty
 * it: a USB key gets none from the kernel, and acknowledges a write once
 * buffered (what a power cut then loses: powercut's buffer).
 *
 * Deterministic: the same requests give the same device time (integer
 * nanoseconds) and the same counters.  No I/O: the server that stores the
 * data (nbdkit-flash.c) asks the model what each request costs.
 */
#ifndef FSB_FLASH_H
#define FSB_FLASH_H

#include <stddef.h>
#include <stdint.h>

#define FLASH_MAX_OPEN 64

struct flash_params {
	uint64_t capacity;	/* bytes, a whole number of units */
	uint32_t page;		/* bytes programmed at once (the effective page) */
	uint32_t unit;		/* allocation unit (erase unit) bytes, a multiple of page */
	uint32_t open_units;	/* logs open at once, 1..FLASH_MAX_OPEN */
	uint32_t mapped_units;	/* first units mapped by page (the FAT area) */
	/* costs, nanoseconds */
	uint64_t cmd_ns;	/* each request's fixed cost (the bus's command round trip) */
	uint64_t read_ns;	/* a page read */
	uint64_t program_ns;	/* a page programmed from the host */
	uint64_t copy_ns;	/* a page copied inside the medium by a merge */
	uint64_t erase_ns;	/* a unit erased */
	uint64_t bus_bps;	/* the bus's cap, bytes per second (USB 2: ~40e6) */
	uint64_t buffer;	/* volatile write buffer, bytes (0: none) */
};

/* Counters since the model was made (each a total; a reader takes
 * differences between two snapshots). */
struct flash_stats {
	uint64_t requests;
	uint64_t host_read, host_written;	/* bytes */
	uint64_t trimmed;			/* bytes dropped by TRIM */
	uint64_t pages_programmed;		/* from the host, whole pages */
	uint64_t pages_copied;			/* by merges and padding */
	uint64_t switch_merges, partial_merges, full_merges;
	uint64_t erases;
	uint64_t busy_ns;			/* the model's time, all requests */
	uint64_t buffered;			/* bytes in the volatile buffer now */
};

struct flash;

/* The parameters checked (sizes consistent, products without overflow):
 * 0, or -1 with a message in why. */
int flash_params_check(const struct flash_params *p, char *why, size_t len);
/* A medium in its erased state (NULL: out of memory or bad parameters). */
struct flash *flash_new(const struct flash_params *p);
void flash_free(struct flash *f);

/* What each request costs, in nanoseconds of device time; the model's
 * state and counters advance.  Ranges past the capacity are clipped (the
 * server refuses them before). */
uint64_t flash_read(struct flash *f, uint64_t off, uint64_t len);
uint64_t flash_write(struct flash *f, uint64_t off, uint64_t len);
uint64_t flash_trim(struct flash *f, uint64_t off, uint64_t len);
uint64_t flash_flush(struct flash *f);
/* ns of idle time passed since the last request ended: the buffer drains
 * meanwhile (nothing without one). */
void flash_idle(struct flash *f, uint64_t ns);

const struct flash_stats *flash_stats(const struct flash *f);
/* Flash pages written (host programs and copies) per page of host data:
 * the medium's own write amplification between two snapshots (0: no
 * writes). */
double flash_write_amplification(const struct flash_stats *a, const struct flash_stats *b,
				 uint32_t page);

#endif
