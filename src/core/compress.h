/*
 * compress.h: how compressible the written data really was, measured as
 * a compressing filesystem would find it.
 *
 * After a write job fsbench reads back a sample of its files and
 * compresses it with zstd (level 3, what btrfs's compress=zstd uses by
 * default) piece by piece, each piece on its own, at the unit the
 * filesystem compresses in: btrfs 128 KiB, F2FS its cluster (16 KiB by
 * default), else 128 KiB.  One stream over concatenated samples would
 * count the repeats between pieces (fio's buffer repeats every block) as
 * compression that no filesystem gets.  Each piece's output is rounded up
 * to 4 KiB sectors and kept raw where that saves nothing, as btrfs stores
 * it, so the result can be set beside btrfs's own achieved ratio.
 */
#ifndef FSB_COMPRESS_H
#define FSB_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#define COMPRESS_UNIT (128 * 1024)	/* btrfs's, and the default */
#define COMPRESS_SAMPLES 64		/* pieces a file's sample reads */

/* compressed size / size of buf as one zstd stream (0.5 for half-
 * compressible data); -1 (error set) on failure. */
double compress_ratio(const void *buf, size_t len);
/* *stored: the bytes buf[0..len) takes compressed in independent pieces
 * of unit bytes (the last may be shorter), each rounded up to 4 KiB and
 * at most its own size; 0, or -1 with the error set. */
int compress_pieces(const void *buf, size_t len, size_t unit, uint64_t *stored);
/* The unit the filesystem of fd compresses in, and *what: how the text
 * says it ("as btrfs stores it"). */
size_t compress_unit(int fd, const char **what);
/* stored / read over up to `samples` pieces of `unit` bytes spread evenly
 * over [0, size) of an open file, each at a unit boundary; -1 (error set)
 * if it cannot be read. */
double compress_ratio_file(int fd, uint64_t size, size_t unit, int samples);

#endif
