/*
 * compress.h: how compressible the written data really was.
 *
 * After a write job fsbench reads back a sample of each file and
 * compresses it with zstd (level 3, what btrfs's compress=zstd uses by
 * default), so the result can say "data 100% random (zstd 1.00)" and a
 * compressing filesystem's numbers can be read for what they are.
 */
#ifndef FSB_COMPRESS_H
#define FSB_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* compressed size / size of buf, e.g. 0.5 for half-compressible data. */
double compress_ratio(const void *buf, size_t len);
/* The same over up to `samples` chunks of `chunk` bytes spread evenly over
 * [0, size) of an open file; -1 (error set) if it cannot be read. */
double compress_ratio_file(int fd, uint64_t size, size_t chunk, int samples);

#endif
