/*
 * rules.c: the rules of I/O options (what combines with what, block sizes,
 * space needed) and their titles (see iojob.h).
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

const char *io_rw_title(int rw)
{
	static const char *titles[] = {
		"Sequential Read", "Sequential Write", "Random Read", "Random Write",
		"Sequential Read/Write", "Sequential Read/Write", "Random Read/Write",
	};
	return rw >= 0 && rw <= RW_RANDRW ? titles[rw] : "?";
}

bool io_is_random(const struct io_options *o)
{
	return o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE || o->rw == RW_RANDRW;
}

/* fio gives the advice at every open of a file: FADV_RANDOM, the default
 * for a random job, turns the kernel's read-ahead off for that open file,
 * which decides what a buffered random read from a disk costs (1.7x the
 * IOPS without it, docs/workloads/io.md). */
int io_fadvise_advice(const struct io_options *o)
{
	switch (o->fadvise_hint) {
	case FADVISE_TYPE: return io_is_random(o) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case FADVISE_RANDOM: return POSIX_FADV_RANDOM;
	case FADVISE_SEQUENTIAL: return POSIX_FADV_SEQUENTIAL;
	case FADVISE_NOREUSE: return POSIX_FADV_NOREUSE;
	default: return -1;
	}
}

bool io_has_reads(const struct io_options *o)
{
	return o->rw != RW_WRITE && o->rw != RW_RANDWRITE;
}

bool io_has_writes(const struct io_options *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD;
}

bool io_is_direct(const struct io_options *o)
{
	return o->direct || !o->buffered;
}

/* bsrange "4k-64k" into min and max; an empty range is bs alone. */
int io_block_sizes(const struct io_options *o, uint64_t *min, uint64_t *max)
{
	char lo[64], *dash;

	*min = *max = o->bs;
	if (!o->bsrange[0])
		return 0;
	str_copy(lo, sizeof(lo), o->bsrange);
	dash = strchr(lo, '-');
	if (!dash)
		return error_set("option 'bsrange': '%s' is not MIN-MAX (e.g. 4k-64k)", o->bsrange);
	*dash = 0;
	if (parse_size(lo, min) || parse_size(dash + 1, max) || !*min || *min > *max)
		return error_set("option 'bsrange': '%s' is not MIN-MAX with 0 < MIN <= MAX", o->bsrange);
	if (*max % *min)
		return error_set("option 'bsrange': MAX must be a multiple of MIN in '%s'", o->bsrange);
	return 0;
}

int io_options_validate(const struct io_options *o)
{
	uint64_t min, max;

	if (io_block_sizes(o, &min, &max))
		return -1;
	if (max > (1u << 30))
		return error_set("option 'bs': at most 1g per I/O");
	if (o->time_based && o->runtime <= 0)
		return error_set("option 'time_based' needs runtime= (how long to run)");
	if (o->verify && o->bsrange[0])
		return error_set("option 'verify' needs one block size: drop bsrange");
	if (o->verify && min < sizeof(struct verify_hdr))
		return error_set("option 'verify': bs must be at least %zu bytes for the header",
				 sizeof(struct verify_hdr));
	if (o->buffer_pattern[0] && (o->zero_buffers || o->buffer_compress_percentage))
		return error_set("option 'buffer_pattern' cannot be combined with zero_buffers or "
				 "buffer_compress_percentage");
	if (o->zero_buffers && o->buffer_compress_percentage)
		return error_set("option 'zero_buffers' cannot be combined with buffer_compress_percentage");
	if (o->buffer_pattern[0]) {
		struct data_spec d;
		if (data_pattern_parse(o->buffer_pattern, &d))
			return -1;
	}
	if (strchr(o->filename, ':'))
		return error_set("option 'filename': lists (a:b) are not supported; use nrfiles=");
	return 0;
}

uint64_t io_options_space(const struct io_options *o)
{
	uint64_t files = o->filename[0] ? 1 : (uint64_t)o->numjobs;

	return sat_mul(sat_add(o->offset, o->size), files);
}

double io_dir_secs(const struct io_options *o, const struct io_result *r, int dir)
{
	uint64_t ns = dir == DIR_READ && r->verify_ns && !io_has_reads(o) ? r->verify_ns : r->elapsed_ns;

	return ns ? (double)ns / 1e9 : 1e-9;
}
