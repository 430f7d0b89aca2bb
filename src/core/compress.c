/*
 * compress.c: zstd-measured compressibility (see compress.h).
 */
#define _GNU_SOURCE
#include "compress.h"
#include "error.h"

#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

double compress_ratio(const void *buf, size_t len)
{
	size_t cap = ZSTD_compressBound(len), got;
	void *out;

	if (!len)
		return 1.0;
	out = malloc(cap);
	if (!out)
		return error_set("out of memory measuring compressibility"), -1;
	got = ZSTD_compress(out, cap, buf, len, 3);
	free(out);
	if (ZSTD_isError(got))
		return error_set("zstd: %s", ZSTD_getErrorName(got)), -1;
	return (double)got / (double)len;
}

double compress_ratio_file(int fd, uint64_t size, size_t chunk, int samples)
{
	unsigned char *buf;
	size_t have = 0;
	double ratio;

	if (size < chunk)
		chunk = (size_t)size;
	if (!chunk || samples < 1)
		return 1.0;
	if ((uint64_t)samples * chunk > size)
		samples = (int)(size / chunk);
	buf = malloc((size_t)samples * chunk);
	if (!buf)
		return error_set("out of memory measuring compressibility"), -1;
	for (int i = 0; i < samples; i++) {
		uint64_t off = size / (uint64_t)samples * (uint64_t)i;
		ssize_t n = pread(fd, buf + have, chunk, (off_t)(off - off % chunk));
		if (n < 0) {
			free(buf);
			return error_errno("reading back data to measure compressibility"), -1;
		}
		have += (size_t)n;
	}
	ratio = compress_ratio(buf, have);
	free(buf);
	return ratio;
}
