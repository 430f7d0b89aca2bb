/*
 * counters.h: the modelled medium's counters, as its server keeps them in
 * a file for fsbench to read (between repetitions, on the host or in the
 * guest through the exchange directory): a fixed layout the server
 * updates in place (mmap) under a sequence number, odd while it writes.
 */
#ifndef FSB_COUNTERS_H
#define FSB_COUNTERS_H

#include <stdint.h>

#include "flash.h"

#define FLASH_COUNTERS_MAGIC "fsbflsh1"

struct flash_counters {
	char magic[8];
	uint64_t seq;		/* even: the counters are whole */
	uint64_t page;		/* the medium's page, for write amplification */
	struct flash_stats st;
};

/* A consistent snapshot of the file at path: 0, or -1 with the error set
 * (no such file, not the layout, or never quiet). */
int flash_counters_read(const char *path, struct flash_stats *st, uint32_t *page);

#endif
