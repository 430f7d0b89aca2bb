/*
 * test_io_data.c: what an I/O carries, before any file: the CRC32C that
 * verify stamps (core/crc32c.c), the block permutation random I/O walks
 * (io/offsets.c), the data patterns of fio's buffer options and their
 * measured compressibility (core/pattern.c, core/compress.c).  The other
 * parts of the I/O core: test_io_rules.c (options), test_io_offsets.c
 * (where each I/O goes), test_io_pace.c (when), test_io.c (the run and its
 * error paths).
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "run_workload.h"

#include "core/compress.h"
#include "core/crc32c.h"


static void test_crc32c_vectors(void **state)
{
	unsigned char buf[32];
	(void)state;

	/* RFC 3720 appendix B.4, and the classic check value. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(crc32c(0, buf, 32), 0x8a9136aa);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(crc32c(0, buf, 32), 0x62a8ab43);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(crc32c(0, buf, 32), 0x46dd794e);
	assert_int_equal(crc32c(0, "123456789", 9), 0xe3069283);
	/* Continuing over pieces gives the checksum of the whole. */
	assert_int_equal(crc32c(crc32c(0, "1234", 4), "56789", 5), 0xe3069283);
}

static void test_permutation_visits_each_block_once(void **state)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4099, 262147 };
	(void)state;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], in_order = 0;
		struct permutation p;
		uint8_t *seen = calloc(n, 1);

		assert_non_null(seen);
		perm_init(&p, n, 42 + s);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t x = perm_at(&p, i);
			assert_true(x < n);
			assert_int_equal(seen[x], 0);
			seen[x] = 1;
			in_order += x == i;
		}
		/* Not the identity: a random pass is not a sequential one. */
		if (n >= 64)
			assert_true(in_order < n / 8);
		free(seen);
	}
}

static void test_data_contents_and_compressibility(void **state)
{
	size_t len = 1 << 20;
	unsigned char *buf = malloc(len), *copy = malloc(len);
	struct data_spec d;
	struct rng r;
	double ratio;
	(void)state;

	assert_non_null(buf);
	assert_non_null(copy);
	rng_seed(&r, 1);
	memset(&d, 0, sizeof(d));
	d.kind = DATA_RANDOM;
	data_fill(&d, &r, buf, len);
	assert_true(compress_ratio(buf, len) > 0.99);
	/* A refreshed random buffer shares no run with its old self: the pair
	 * is still incompressible. */
	memcpy(copy, buf, len / 2);
	data_refresh(&d, &r, buf, len / 2);
	memcpy(copy + len / 2, buf, len / 2);
	assert_memory_not_equal(copy, copy + len / 2, len / 2);
	assert_true(compress_ratio(copy, len) > 0.99);

	/* fio's scramble: 24 bytes of every 512, the rest untouched */
	memcpy(copy, buf, 4096);
	data_scramble(buf, 4096, 1 << 20, 0x0123456789abcdefULL);
	size_t line = ((0x0123456789abcdefULL ^ (1 << 20)) & 7) * 64;
	for (size_t b = 0; b < 4096; b += 512) {
		uint64_t off, stamp;
		memcpy(&off, buf + b + line, 8);
		memcpy(&stamp, buf + b + 48, 8);
		assert_int_equal(off, (1 << 20) + b);
		assert_int_equal(stamp, 0x0123456789abcdefULL);
		size_t same = 0;
		for (size_t i = 0; i < 512; i++)
			same += buf[b + i] == copy[b + i];
		assert_true(same >= 512 - 24);
	}

	d.kind = DATA_ZERO;
	data_fill(&d, &r, buf, len);
	assert_true(compress_ratio(buf, len) < 0.01);

	for (int pct = 25; pct <= 75; pct += 25) {
		d.kind = DATA_COMPRESS;
		d.compress_pct = pct;
		data_fill(&d, &r, buf, len);
		data_refresh(&d, &r, buf, len);
		ratio = compress_ratio(buf, len);
		assert_true(ratio > (100 - pct) / 100.0 - 0.05);
		assert_true(ratio < (100 - pct) / 100.0 + 0.05);
	}

	assert_int_equal(data_pattern_parse("0xdeadbeef", &d), 0);
	assert_int_equal(d.pattern_len, 4);
	data_fill(&d, &r, buf, 10);
	assert_memory_equal(buf, "\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad", 10);
	assert_int_equal(data_pattern_parse("\"ab\"", &d), 0);
	data_fill(&d, &r, buf, 5);
	assert_memory_equal(buf, "ababa", 5);
	assert_int_equal(data_pattern_parse("258", &d), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 2);
	assert_int_equal(d.pattern[1], 1);
	/* an odd count of hex digits, as fio reads it (test_verify.c) */
	assert_int_equal(data_pattern_parse("0xabc", &d), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 0x0a);
	assert_int_equal(data_pattern_parse("nope", &d), -1);
	free(buf);
	free(copy);
}

/* Compressibility as a filesystem finds it: each 128 KiB piece on its own,
 * rounded up to 4 KiB and raw where that saves nothing.  The bug it
 * catches: one zstd stream over samples laid end to end, which counts the
 * repeats between pieces (fio's buffer repeats every block) as
 * compression: 1 MiB blocks repeating gave 2% where btrfs stores ~100%. */
static void test_compress_in_pieces(void **state)
{
	size_t len = 1 << 20, block = 64 << 10;
	unsigned char *buf = malloc(len);
	uint64_t stored;
	struct rng r;
	struct data_spec d = { .kind = DATA_RANDOM };
	char where[256], path[300];
	(void)state;

	assert_non_null(buf);
	rng_seed(&r, 7);
	data_fill(&d, &r, buf, block);
	for (size_t at = block; at < len; at += block)
		memcpy(buf + at, buf, block);
	assert_true(compress_ratio(buf, len) < 0.1);	/* one stream: the repeats */
	assert_int_equal(compress_pieces(buf, len, 128 << 10, &stored), 0);
	assert_true(stored > len * 45 / 100 && stored < len * 60 / 100);	/* two copies a piece */
	assert_int_equal(compress_pieces(buf, len, 64 << 10, &stored), 0);
	assert_int_equal(stored, len);	/* one copy a piece: stored raw */
	memset(buf, 0, 256 << 10);
	assert_int_equal(compress_pieces(buf, 256 << 10, 128 << 10, &stored), 0);
	assert_int_equal(stored, 2 * 4096);	/* a sector each */
	data_fill(&d, &r, buf, 200 << 10);
	assert_int_equal(compress_pieces(buf, 200 << 10, 128 << 10, &stored), 0);
	assert_int_equal(stored, 200 << 10);	/* the short last piece too */

	/* a file of 1 MiB blocks repeating, as fio's default buffer with
	 * bs=1m writes it: ~100% in pieces, whatever repeats between them */
	make_tmpdir(where, sizeof(where));
	made_dir(where);
	snprintf(path, sizeof(path), "%s/f", where);
	data_fill(&d, &r, buf, len);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pwrite(fd, buf, len, (off_t)i * (off_t)len), (ssize_t)len);
	const char *how;
	size_t unit = compress_unit(fd, &how);
	assert_true(unit >= 16 << 10 && unit <= 1 << 20);
	double ratio = compress_ratio_file(fd, 4 * (uint64_t)len, 128 << 10, COMPRESS_SAMPLES);
	assert_true(ratio > 0.99 && ratio <= 1.0);
	close(fd);
	undo(where);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_vectors),
		cmocka_unit_test(test_permutation_visits_each_block_once),
		cmocka_unit_test(test_data_contents_and_compressibility),
		cmocka_unit_test(test_compress_in_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
