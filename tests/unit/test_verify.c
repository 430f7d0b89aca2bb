/*
 * test_verify.c: verify='s digests (md5, sha1, sha256, sha512, xxhash,
 * crc32 through core/digest.c), fio's fix-ups of verify_interval and of an
 * odd-length hex verify_pattern, the hashes fsbench refuses and why, sizes
 * that vary, crc32c catching a corrupted block, verify_interval with
 * verify_pattern, and verify_backlog's order.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"

#include "core/digest.h"
#include "core/error.h"
#include "core/param.h"
#include "core/pattern.h"
#include "io/iojob.h"
#include "io/io_internal.h"	/* io_block_sizes */

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>

static void hex(char *out, const unsigned char *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* Each kind gives its published value for "abc" (RFC 1321, FIPS 180-2,
 * xxHash's and zlib's own), fed whole or in two pieces: the bug it
 * catches is a kind wired to the wrong call, or state lost between
 * updates (a verify header covers two pieces). */
static void test_digest_vectors(void **state)
{
	static const struct { int kind; const char *want; } v[] = {
		{ DIGEST_MD5, "900150983cd24fb0d6963f7d28e17f72" },
		{ DIGEST_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ DIGEST_SHA256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ DIGEST_SHA512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
				 "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
		/* little-endian words as stored: XXH32("abc", 0) = 0x32d153ff,
		 * crc32("abc") = 0x352441c2 */
		{ DIGEST_XXH32, "ff53d132" },
		{ DIGEST_CRC32, "c2412435" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct digest_ctx c;
		unsigned char d[DIGEST_MAX];
		char got[2 * DIGEST_MAX + 1];

		assert_int_equal(2 * digest_len(v[i].kind), strlen(v[i].want));
		digest_init(&c, v[i].kind);
		digest_update(&c, "abc", 3);
		digest_final(&c, d);
		hex(got, d, digest_len(v[i].kind));
		assert_string_equal(got, v[i].want);
		digest_init(&c, v[i].kind);
		digest_update(&c, "a", 1);
		digest_update(&c, "bc", 2);
		digest_final(&c, d);
		hex(got, d, digest_len(v[i].kind));
		assert_string_equal(got, v[i].want);
	}
	assert_int_equal(digest_len(-1), 0);
	assert_int_equal(digest_len(DIGEST_KINDS), 0);
}

/* Every digest round-trips a write job's read-back and a later read job;
 * a flipped data byte and a flipped digest byte are each caught by the
 * read, and the message names the digest.  The bug it catches: a digest
 * not stored, or stored over the data it covers (a data flip then passes
 * or an intact file fails). */
static void test_verify_digests(void **state)
{
	static const char *const kinds[] = { "md5", "sha1", "sha256", "sha512", "xxhash", "crc32" };
	struct io_result *res = malloc(sizeof(*res));
	char path[512], opts[256];
	(void)state;

	assert_non_null(res);
	snprintf(path, sizeof(path), "%s/d.dat", dir);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct io_options o;

		snprintf(opts, sizeof(opts), "rw=randwrite,size=256k,bs=4k,filename=d.dat,verify=%s",
			 kinds[k]);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		assert_int_equal(res->verified_blocks, 64);
		snprintf(opts, sizeof(opts), "rw=read,size=256k,bs=4k,filename=d.dat,verify=%s",
			 kinds[k]);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		/* block 9: a data byte well past the header and digest */
		flip_byte(path, 9 * 4096 + 1000);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
		assert_non_null(strstr(error_get(), "d.dat offset 36864"));
		assert_non_null(strstr(error_get(), kinds[k]));
		flip_byte(path, 9 * 4096 + 1000);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		/* the digest's first byte, just after the 40-byte header */
		flip_byte(path, 3 * 4096 + 40);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
		assert_non_null(strstr(error_get(), "d.dat offset 12288"));
		unlink(path);
	}
	free(res);
}

/* fio's fix-ups, where fsbench used to refuse: verify_interval above the
 * block is the block (t0004's bs=512 with verify_interval=1M), one that
 * does not divide it is the block too; "0xaaa" is 0x0a 0xaa (fio reads an
 * odd first digit as a byte of its own).  What stays refused says why:
 * the hashes no Debian library gives, SHA-3, null, and a block too small
 * for an md5 header. */
static void test_verify_limits(void **state)
{
	struct io_options o;
	struct data_spec d;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	assert_non_null(res);
	job(&o, "rw=write,bs=512,verify=md5,verify_interval=1m");
	assert_int_equal(io_options_validate(&o), 0);
	assert_int_equal(io_verify_chunk(&o, 512, 512), 512);
	job(&o, "rw=write,bs=4k,verify=crc32c,verify_interval=3000");
	assert_int_equal(io_options_validate(&o), 0);
	assert_int_equal(io_verify_chunk(&o, 4096, 4096), 4096);
	job(&o, "rw=write,bs=1m,verify=md5,verify_interval=512");
	assert_int_equal(io_verify_chunk(&o, 1 << 20, 1 << 20), 512);
	/* and it runs: 512-byte chunks of 1 MiB blocks, each with its md5 */
	job(&o, "rw=write,size=2m,bs=1m,verify=md5,verify_interval=512,filename=v.dat");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->verified_blocks, 2);

	memset(&d, 0, sizeof(d));
	assert_int_equal(data_pattern_parse("0xaaa", &d), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 0x0a);
	assert_int_equal(d.pattern[1], 0xaa);
	assert_int_equal(data_pattern_parse("0xa", &d), 0);
	assert_int_equal(d.pattern_len, 1);
	assert_int_equal(d.pattern[0], 0x0a);
	assert_int_equal(data_pattern_parse("0xag", &d), -1);
	assert_int_equal(data_pattern_parse("0x", &d), -1);

	static const struct { const char *opts, *why; } no[] = {
		{ "verify=crc7", "no Debian library" },
		{ "verify=crc64", "no Debian library" },
		{ "verify=sha3-256", "EVP" },
		{ "verify=null", "pretends" },
		{ "verify=sha512,bs=64", "at least 104 bytes" },
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		char opts[128];
		snprintf(opts, sizeof(opts), "rw=write,bs=4k,%s", no[i].opts);
		job(&o, opts);
		assert_int_equal(io_options_validate(&o), -1);
		if (!strstr(error_get(), no[i].why))
			fail_msg("%s: %s", opts, error_get());
	}
	free(res);
}

/* Sizes that vary (bsrange, bssplit), as fio's t0002: every chunk of the
 * smallest size has its header, so a write job's read-back reads each
 * byte written once, in the writes' spans, and a read job of other sizes
 * checks every chunk it reads; a flipped byte is caught.  The bug it
 * catches: a read-back of the first block of each write only, or chunks
 * sized to the write, which a read of another size could not check. */
static void test_verify_sizes_vary(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char path[512];
	(void)state;

	assert_non_null(res);
	snprintf(path, sizeof(path), "%s/vs.dat", dir);
	job(&o, "rw=randwrite,bsrange=4k-64k,size=1m,filename=vs.dat,verify=md5");
	assert_int_equal(io_verify_chunk(&o, 4096, 65536), 4096);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->bytes[0], 1 << 20);	/* the read-back: every byte, once */
	assert_true(res->verified_blocks >= 16 && res->verified_blocks <= 256);
	job(&o, "rw=read,bssplit=4k/50:32k/50,size=1m,filename=vs.dat,verify=md5");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	flip_byte(path, 5 * 4096 + 700);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "vs.dat offset 20480"));
	unlink(path);
	/* fio's MIN:MAX, as t0002 writes it */
	job(&o, "rw=write,bsrange=512:64k,size=1m");
	uint64_t mn, mx;
	assert_int_equal(io_block_sizes(&o, &mn, &mx), 0);
	assert_true(mn == 512 && mx == 65536);
	/* t0002's shape, smaller: written without a read-back, then read */
	job(&o, "rw=write,bssplit=512/50:64k/50,size=2m,filename=vs.dat,verify=md5,do_verify=0");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->verified_blocks, 0);
	job(&o, "rw=read,bssplit=512/50:64k/50,size=2m,filename=vs.dat,verify=md5");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	job(&o, "rw=randwrite,bsrange=4k-64k,size=1m,verify=md5,verify_backlog=4");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "verify_backlog' with block sizes that vary"));
	free(res);
}

/* The order of the I/Os in the one per-I/O log dir/vb_clat.N.log ("W0 R0
 * ..." by 4 KiB block), then every dir/vb_* log removed. */
static void log_order(char *order, size_t len)
{
	char pattern[600];
	unsigned long long ms, v, bs, off, prio;
	unsigned d;
	size_t n = 0;
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/vb_clat.*.log", dir);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, 1);
	FILE *f = fopen(g.gl_pathv[0], "r");
	assert_non_null(f);
	order[0] = 0;
	while (fscanf(f, "%llu, %llu, %u, %llu, %llu, %llu\n", &ms, &v, &d, &bs, &off, &prio) == 6 &&
	       n + 24 < len)
		n += (size_t)snprintf(order + n, len - n, "%s%llu ", d ? "W" : "R", off / 4096);
	fclose(f);
	globfree(&g);
	snprintf(pattern, sizeof(pattern), "%s/vb_*.log", dir);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
}


/* verify_backlog: a write job reads back a batch of what it wrote every
 * verify_backlog blocks, oldest first, and what is left after the writes;
 * the order (from a per-I/O log with offsets) is fio 3.33's under strace
 * for the same options. */
static void test_verify_backlog(void **state)
{
	static const struct { const char *opts, *order; } cases[] = {
		{ "rw=write,verify_backlog=4",
		  "W0 W1 W2 W3 R0 R1 R2 R3 W4 W5 W6 W7 R4 R5 R6 R7 W8 W9 W10 W11 R8 R9 R10 R11 "
		  "W12 W13 W14 W15 R12 R13 R14 R15 " },
		{ "rw=write,verify_backlog=4,verify_backlog_batch=2",
		  "W0 W1 W2 W3 R0 R1 W4 W5 R2 R3 W6 W7 R4 R5 W8 W9 R6 R7 W10 W11 R8 R9 W12 W13 "
		  "R10 R11 W14 W15 R12 R13 R14 R15 " },
	};
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char opts[512], order[8192];
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		/* the cases after the first use the file it kept */
		snprintf(opts, sizeof(opts), "%s,bs=4k,size=64k,filename=vb.dat,verify=crc32c,"
			 "allow_existing_write=1,write_lat_log=%s/vb,log_offset=1", cases[c].opts, dir);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		assert_int_equal(res->ios[DIR_WRITE], 16);
		assert_int_equal(res->ios[DIR_READ], 16);
		assert_int_equal(res->verified_blocks, 16);
		log_order(order, sizeof(order));
		print_message("# %s: %s\n", cases[c].opts, order);
		assert_string_equal(order, cases[c].order);
	}
	/* at depth 4, a write still in flight lets the next write go first;
	 * the read-backs still come between the writes, and every block is
	 * read back once */
	snprintf(opts, sizeof(opts), "rw=randwrite,bs=4k,size=1m,filename=vb.dat,verify=crc32c,"
		 "allow_existing_write=1,verify_backlog=8,ioengine=libaio,iodepth=4,write_lat_log=%s/vb,log_offset=1", dir);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[DIR_READ], 256);
	assert_int_equal(res->verified_blocks, 256);
	log_order(order, sizeof(order));
	const char *first_read = strchr(order, 'R'), *last_write = strrchr(order, 'W');
	assert_non_null(first_read);
	assert_non_null(last_write);
	assert_true(first_read < last_write);
	job(&o, "rw=randwrite,bs=4k,size=1m,verify=crc32c,verify_backlog=8,norandommap=1");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "no random map"));
	snprintf(opts, sizeof(opts), "%s/vb.dat", dir);
	unlink(opts);
	free(res);
}


static void test_verify_catches_corruption(void **state)
{
	struct io_options w, r;
	struct io_result *res = malloc(sizeof(*res));
	char path[512];
	(void)state;

	job(&w, "rw=randwrite,size=1m,bs=4k,filename=v.dat,verify=crc32c,ioengine=io_uring,iodepth=4");
	snprintf(path, sizeof(path), "%s/v.dat", dir);
	if (io_group_run(&w, 1, dir, res, true)) {
		/* a machine without io_uring: the file the try laid out is
		 * not this job's, so it goes first (it was refused as there
		 * before, where io_uring is off) */
		if (engine_unavailable("io_uring"))
			job(&w, "rw=randwrite,size=1m,bs=4k,filename=v.dat,verify=crc32c");
		unlink(path);
		if (io_group_run(&w, 1, dir, res, true))
			fail_msg("%s", error_get());
	}
	assert_int_equal(res->verified_blocks, 256);
	/* Reading back intact data passes... */
	job(&r, "rw=read,size=1m,bs=4k,filename=v.dat,verify=crc32c");
	assert_int_equal(io_group_run(&r, 1, dir, res, true), 0);
	/* ...and one flipped byte in block 5's data fails, naming it. */
	flip_byte(path, 5 * 4096 + 100);
	assert_int_equal(io_group_run(&r, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "verify failed"));
	assert_non_null(strstr(error_get(), "v.dat offset 20480"));
	assert_non_null(strstr(error_get(), "crc32c stored"));
	/* A flipped header names what it expected and what it found. */
	flip_byte(path, 5 * 4096 + 100);
	flip_byte(path, 9 * 4096 + 8);
	job(&r, "rw=randread,size=1m,bs=4k,filename=v.dat,verify=crc32c,ioengine=psync");
	assert_int_equal(io_group_run(&r, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "offset 36864: expected header"));
	unlink(path);
	free(res);
}


/* fio's verify_interval and verify_pattern (its surface-scan.fio): a
 * header every 512 bytes and the pattern in the rest, checked on the
 * read-back; a pattern byte changed is caught with verify_pattern and not
 * by verify=meta alone, which checks headers; verify_pattern alone is
 * verify=pattern, with no header. */
static void test_verify_interval_and_pattern(void **state)
{
	static const char *const meta = "size=256k,bs=64k,filename=p.dat,verify=meta,"
					"verify_interval=512,verify_pattern=0xaa555aa5";
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char path[512], opts[256];
	(void)state;

	snprintf(path, sizeof(path), "%s/p.dat", dir);
	snprintf(opts, sizeof(opts), "rw=write,%s", meta);
	job(&o, opts);
	assert_int_equal(io_verify_mode(&o), VERIFY_META);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->verified_blocks, 4);
	snprintf(opts, sizeof(opts), "rw=read,%s", meta);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	/* byte 100 of chunk 3 of block 2: data, not header */
	flip_byte(path, 2 * 65536 + 3 * 512 + 100);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "p.dat offset 132608: byte 100 of the 512-byte chunk"));
	assert_non_null(strstr(error_get(), "verify_pattern has 0x"));
	job(&o, "rw=read,size=256k,bs=64k,filename=p.dat,verify=meta,verify_interval=512");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);	/* headers intact */
	/* a header every 512 bytes: one in the middle of a block is checked */
	flip_byte(path, 2 * 65536 + 3 * 512 + 100);
	flip_byte(path, 1 * 65536 + 7 * 512 + 8);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "offset 69120: expected header"));
	unlink(path);
	/* verify_pattern alone: verify=pattern, the whole chunk the pattern */
	job(&o, "rw=randwrite,size=64k,bs=4k,filename=p.dat,verify_pattern=\"ok\"");
	assert_int_equal(io_verify_mode(&o), VERIFY_PATTERN);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->verified_blocks, 16);
	flip_byte(path, 5 * 4096);
	job(&o, "rw=read,size=64k,bs=4k,filename=p.dat,verify=pattern,verify_pattern=\"ok\"");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "offset 20480: byte 0 of the 4096-byte chunk"));
	unlink(path);
	/* what cannot be: an interval too small for a header (one that does
	 * not divide bs is bs, as in fio: test_verify.c); verify=pattern
	 * without one; crc32c-intel is fio's name for crc32c */
	job(&o, "rw=write,bs=4k,verify=meta,verify_interval=16");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "for the header"));
	job(&o, "rw=write,bs=4k,verify=pattern");
	assert_int_equal(io_options_validate(&o), -1);
	job(&o, "rw=write,bs=4k,verify=crc32c-intel");
	assert_int_equal(io_verify_mode(&o), VERIFY_CRC32C);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_verify_backlog, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_verify_catches_corruption, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_verify_interval_and_pattern, setup_ram_dir, teardown_dir),
		cmocka_unit_test(test_digest_vectors),
		cmocka_unit_test_setup_teardown(test_verify_digests, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_verify_limits, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_verify_sizes_vary, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
