/*
 * test_crash.c: the dm-log-writes reader (crash/logwrites.h) and the
 * crash-point plan and replay (crash/crashpoint.h), on logs this test
 * builds byte by byte in the format's layout, so that what each entry
 * holds is known; and the manifest of what a crash workload was promised
 * (crash/manifest.h), checked against files the test lays out as a
 * crashed filesystem could leave them.  What each test catches is said
 * above it; the replay is checked against a model that applies the same
 * entries to memory.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include "core/error.h"
#include "crash/crashpoint.h"
#include "crash/logwrites.h"
#include "crash/manifest.h"

#include <endian.h>
#include <fcntl.h>
#include <xxhash.h>

#define SS 512u
#define DEV_SECTORS 64u

/* A log under construction, in memory. */
struct lb {
	unsigned char *buf;
	size_t len, cap;
	uint64_t entries;
};

static void lb_put(struct lb *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->buf = realloc(b->buf, b->cap);
		assert_non_null(b->buf);
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void lb_u64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/* The super, with this count (lb_done sets the real one). */
static void lb_super(struct lb *b, uint64_t count)
{
	unsigned char s[SS] = { 0 };
	uint32_t ss = htole32(SS);

	lb_u64(s, LW_MAGIC);
	lb_u64(s + 8, LW_VERSION);
	lb_u64(s + 16, count);
	memcpy(s + 24, &ss, 4);
	if (b->len == 0)
		lb_put(b, s, SS);
	else
		memcpy(b->buf, s, SS);
}

static void lb_init(struct lb *b)
{
	memset(b, 0, sizeof(*b));
	lb_super(b, 0);
}

/* One entry; a write's data is its sectors filled with byte fill + k for
 * its k-th sector, so a copy from the wrong offset shows. */
static void lb_entry(struct lb *b, uint64_t sector, uint64_t nr, uint64_t flags, const char *mark,
		     int fill)
{
	unsigned char h[SS] = { 0 };

	lb_u64(h, sector);
	lb_u64(h + 8, nr);
	lb_u64(h + 16, flags);
	if (mark) {
		lb_u64(h + 24, strlen(mark));
		memcpy(h + 32, mark, strlen(mark));
	}
	lb_put(b, h, SS);
	if (!(flags & (LW_DISCARD | LW_MARK)))
		for (uint64_t k = 0; k < nr; k++) {
			unsigned char d[SS];
			memset(d, (fill + (int)k) & 0xff, SS);
			lb_put(b, d, SS);
		}
	b->entries++;
}

static void lb_write(struct lb *b, uint64_t sector, uint64_t nr, int fill)
{
	lb_entry(b, sector, nr, 0, NULL, fill);
}

static void lb_flush(struct lb *b)
{
	lb_entry(b, 0, 0, LW_FLUSH, NULL, 0);
}

static void lb_done(struct lb *b)
{
	lb_super(b, b->entries);
}

static void lb_free(struct lb *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* A log of every kind of entry:
 *  0 write 0..7 (0x10..)   1 flush   2 mark "mkfs"   3 write 8..11 FUA (0x40..)
 *  4 discard 2..3          5 write 16..17 (0x80..)   6 mark "fsb-ack:1"   7 flush */
static void sample(struct lb *b)
{
	lb_init(b);
	lb_write(b, 0, 8, 0x10);
	lb_flush(b);
	lb_entry(b, 0, 0, LW_MARK, "mkfs", 0);
	lb_entry(b, 8, 4, LW_FUA, NULL, 0x40);
	lb_entry(b, 2, 2, LW_DISCARD, NULL, 0);
	lb_write(b, 16, 2, 0x80);
	lb_entry(b, 0, 0, LW_MARK, "fsb-ack:1", 0);
	lb_flush(b);
	lb_done(b);
}

/* Every field of every kind of entry read back where the layout puts it.
 * Catches: a data offset off by the header sector, a discard read as if
 * its range's data followed it (every later entry then misread), a mark's
 * text or count lost, the extent taken from a discard's length wrongly. */
static void test_read_every_kind(void **state)
{
	struct lb b;
	struct lw_log log;

	(void)state;
	sample(&b);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(log.n, 8);
	assert_int_equal(log.declared, 8);
	assert_int_equal(log.sectorsize, SS);
	assert_int_equal(log.ent[0].sector, 0);
	assert_int_equal(log.ent[0].nr_sectors, 8);
	assert_int_equal(log.ent[0].data, 2 * SS);	/* super, header, then data */
	assert_int_equal(log.ent[3].flags, LW_FUA);
	assert_int_equal(log.ent[3].sector, 8);
	/* super + (1 + 8) + 1 + 1 + header of entry 3 */
	assert_int_equal(log.ent[3].data, (1 + 9 + 1 + 1 + 1) * SS);
	assert_int_equal(log.ent[4].flags, LW_DISCARD);
	/* the discard has no data: entry 5's header follows entry 4's at once */
	assert_int_equal(log.ent[5].data, log.ent[3].data + 4 * SS + 2 * SS);
	assert_int_equal(b.buf[log.ent[5].data], 0x80);
	assert_string_equal(lw_mark_text(&log, 2), "mkfs");
	assert_string_equal(lw_mark_text(&log, 6), "fsb-ack:1");
	assert_string_equal(lw_mark_text(&log, 5), "");
	assert_int_equal(lw_find_mark(&log, "fsb-ack:1", 0), 6);
	assert_int_equal(lw_find_mark(&log, "mkfs", 3), log.n);
	assert_int_equal(log.writes, 3);
	assert_int_equal(log.flushes, 2);
	assert_int_equal(log.fuas, 1);
	assert_int_equal(log.discards, 1);
	assert_int_equal(log.nmarks, 2);
	assert_int_equal(log.extent, 18 * SS);
	/* durable: after a flush or a FUA, a mark in between not counting */
	assert_true(lw_durable_point(&log, 0));
	assert_false(lw_durable_point(&log, 1));
	assert_true(lw_durable_point(&log, 2));
	assert_true(lw_durable_point(&log, 3));	/* entry 2 is a mark after a flush */
	assert_true(lw_durable_point(&log, 4));	/* after the FUA write */
	assert_false(lw_durable_point(&log, 6));
	assert_false(lw_durable_point(&log, 7));
	assert_true(lw_durable_point(&log, 8));
	lw_free(&log);
	lb_free(&b);
}

static void expect_refused(const unsigned char *buf, size_t len, const char *what)
{
	struct lw_log log;

	assert_int_equal(lw_read_mem(buf, len, 0, &log), -1);
	if (!strstr(error_get(), what))
		fail_msg("error \"%s\" does not say \"%s\"", error_get(), what);
	assert_null(log.ent);
}

/* A damaged log is refused with a message that says what is wrong, before
 * anything reads past its end.  Catches: a count, a length or a flag used
 * unchecked (the fuzz harness covers what these cases do not). */
static void test_refuses_damage(void **state)
{
	struct lb b;
	unsigned char *c;

	(void)state;
	sample(&b);
	c = malloc(b.len);
	assert_non_null(c);

	memcpy(c, b.buf, b.len);
	c[0] ^= 1;
	expect_refused(c, b.len, "not a dm-log-writes log");

	memcpy(c, b.buf, b.len);
	lb_u64(c + 8, 2);
	expect_refused(c, b.len, "version 2");

	memcpy(c, b.buf, b.len);
	c[24] = 0xe8, c[25] = 0x03;	/* 1000 */
	expect_refused(c, b.len, "sector size 1000");

	/* the super counts more entries than the log holds */
	memcpy(c, b.buf, b.len);
	lb_u64(c + 16, 9);
	expect_refused(c, b.len, "counts 9 entries");

	/* cut inside entry 0's data */
	expect_refused(b.buf, 5 * SS, "past its end");

	/* unknown flags on entry 1 (the flush: at sector 1 + 9) */
	memcpy(c, b.buf, b.len);
	lb_u64(c + 10 * SS + 16, 1u << 9);
	expect_refused(c, b.len, "unknown flags");

	/* a mark whose text would run past its sector */
	memcpy(c, b.buf, b.len);
	lb_u64(c + 11 * SS + 24, SS);
	expect_refused(c, b.len, "bytes of text");

	/* inline data on a write (the DAX variant) */
	memcpy(c, b.buf, b.len);
	lb_u64(c + 1 * SS + 24, 100);
	expect_refused(c, b.len, "inline");

	/* a write that reaches past 16 TiB of device */
	memcpy(c, b.buf, b.len);
	lb_u64(c + 1 * SS, UINT64_MAX - 2);
	expect_refused(c, b.len, "reaches past");

	/* too short for a super */
	expect_refused(b.buf, 20, "too short");

	free(c);
	lb_free(&b);
}

/* QEMU updates the count at flushes and the kernel at FUA writes and
 * marks, so a recorder stopped without its end leaves entries after it.
 * Catches: those writes silently dropped when asked for (the last
 * stretch's crash points would then never be tested), or the zeros after
 * the last entry read as entries. */
static void test_read_past_super(void **state)
{
	struct lb b;
	struct lw_log log;
	unsigned char zeros[4 * SS] = { 0 };

	(void)state;
	lb_init(&b);
	lb_write(&b, 0, 2, 1);
	lb_flush(&b);
	lb_super(&b, 2);	/* the count as of that flush */
	lb_write(&b, 4, 1, 2);
	lb_write(&b, 5, 3, 3);
	lb_put(&b, zeros, sizeof(zeros));	/* a preallocated log's tail */

	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(log.n, 2);
	lw_free(&log);
	assert_int_equal(lw_read_mem(b.buf, b.len, LW_READ_PAST_SUPER, &log), 0);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.declared, 2);
	assert_int_equal(log.ent[3].sector, 5);
	assert_int_equal(log.ent[3].nr_sectors, 3);
	lw_free(&log);
	lb_free(&b);
}

/* The log written to a file of the test's own scratch; fd open for reads. */
static int log_file(const struct lb *b, const char *name, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b->buf, b->len), (ssize_t)b->len);
	return fd;
}

static int image(const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, DEV_SECTORS * SS), 0);
	return fd;
}

static void read_image(int fd, unsigned char *buf)
{
	assert_int_equal(pread(fd, buf, DEV_SECTORS * SS, 0), (ssize_t)(DEV_SECTORS * SS));
}

static uint64_t keep_three(void *ctx, size_t i, const struct lw_entry *e)
{
	(void)ctx;
	return i == 5 ? 1 : e->nr_sectors;	/* entry 5 torn after its first sector */
}

/* A replay puts each write's data where its sector says and zeroes a
 * discard's range, and keep cuts a write short.  Catches: data copied
 * from the header instead of after it, a discard that leaves old data,
 * a cut-short write that writes all of it (or none). */
static void test_apply(void **state)
{
	struct lb b;
	struct lw_log log;
	char path[512];
	unsigned char img[DEV_SECTORS * SS];
	int logfd, imgfd;

	(void)state;
	sample(&b);
	logfd = log_file(&b, "sample.log", path, sizeof(path));
	close(logfd);
	assert_int_equal(lw_read_file(path, 0, &log, &logfd), 0);
	imgfd = image("a.img");
	assert_int_equal(lw_apply(&log, logfd, imgfd, 0, log.n, keep_three, NULL), 0);
	read_image(imgfd, img);
	for (unsigned s = 0; s < 8; s++)
		assert_int_equal(img[s * SS + 7], s == 2 || s == 3 ? 0 : 0x10 + s);
	for (unsigned s = 8; s < 12; s++)
		assert_int_equal(img[s * SS + 300], 0x40 + s - 8);
	assert_int_equal(img[16 * SS], 0x80);
	assert_int_equal(img[17 * SS + 5], 0);	/* cut after the first sector */
	assert_int_equal(lw_apply(&log, logfd, imgfd, 3, 2, NULL, NULL), -1);
	assert_int_equal(lw_apply(&log, logfd, imgfd, 0, log.n + 1, NULL, NULL), -1);
	close(imgfd);
	close(logfd);
	lw_free(&log);
	lb_free(&b);
}

/* A workload-shaped log: `rounds` stretches of 1 to 4 writes (some of
 * several sectors, some rewriting earlier sectors) each ending in a flush,
 * an occasional FUA write, and a last stretch that never got its flush. */
static void workload_log(struct lb *b, int rounds)
{
	uint64_t x = 12345;

	lb_init(b);
	for (int r = 0; r < rounds; r++) {
		int writes = 1 + r % 4;
		for (int w = 0; w < writes; w++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			lb_write(b, (x >> 33) % (DEV_SECTORS - 4), 1 + (x >> 20) % 4, r * 16 + w);
		}
		if (r % 5 == 3)
			lb_entry(b, 60, 2, LW_FUA, NULL, 0xf0 + r);
		lb_flush(b);
	}
	lb_write(b, 1, 3, 0xaa);
	lb_write(b, 40, 1, 0xbb);
	lb_done(b);
}

/* The plan: the size asked for, reproducible from its seed, each point
 * where its kind says (a flush point right after a flush or FUA, a torn
 * point's durable part at such a point and its cut before the next, with
 * a write in between), sorted, the last flush point always in it; and
 * with a budget above the candidates, every flush point.  Catches: a
 * plan that depends on something besides log, budget and seed (a finding
 * could not be reproduced), torn points that cross a flush (they would
 * lose data the device had promised), a sample that misses the end. */
static void test_plan(void **state)
{
	struct lb b;
	struct lw_log log;
	struct crash_plan p, q, all;
	size_t flushes = 0, torn = 0;

	(void)state;
	workload_log(&b, 40);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(crash_plan_make(&log, 0, 20, 7, &p), 0);
	assert_int_equal(p.n, 20);
	assert_int_equal(p.flush_points, 40 + 8 + 1);	/* 40 flushes, 8 FUAs, the end */
	/* a FUA's stretch to its flush holds nothing to lose: 40 rounds, the end */
	assert_int_equal(p.torn_segments, 40 + 1);
	for (size_t i = 0; i < p.n; i++) {
		const struct crash_point *c = &p.p[i];
		if (i)
			assert_true(c[-1].durable < c->durable ||
				    (c[-1].durable == c->durable && c[-1].cut <= c->cut));
		if (c->kind == CRASH_FLUSH) {
			flushes++;
			assert_int_equal(c->cut, c->durable);
			assert_true(lw_durable_point(&log, c->durable) || c->durable == log.n);
			continue;
		}
		torn++;
		assert_true(lw_durable_point(&log, c->durable));
		assert_true(c->cut > c->durable && c->cut <= log.n);
		for (size_t j = c->durable; j < c->cut; j++)
			assert_false(log.ent[j].flags & LW_FLUSH);
		assert_true(crash_torn_counts(&log, c).whole + crash_torn_counts(&log, c).lost +
			    crash_torn_counts(&log, c).cut_short > 0);
	}
	assert_int_equal(flushes, 10);
	assert_int_equal(torn, 10);
	{
		bool end = false;
		for (size_t i = 0; i < p.n; i++)
			end |= p.p[i].kind == CRASH_FLUSH && p.p[i].durable == log.n;
		assert_true(end);
	}
	assert_int_equal(crash_plan_make(&log, 0, 20, 7, &q), 0);
	assert_int_equal(q.n, p.n);
	assert_memory_equal(q.p, p.p, p.n * sizeof(*p.p));
	crash_plan_free(&q);
	assert_int_equal(crash_plan_make(&log, 0, 20, 8, &q), 0);
	assert_true(memcmp(q.p, p.p, p.n * sizeof(*p.p)) != 0);
	crash_plan_free(&q);

	assert_int_equal(crash_plan_make(&log, 0, 1000, 7, &all), 0);
	flushes = 0;
	for (size_t i = 0; i < all.n; i++)
		flushes += all.p[i].kind == CRASH_FLUSH;
	assert_int_equal(flushes, all.flush_points);
	assert_int_equal(all.n, 1000);
	crash_plan_free(&all);

	/* start after the first 10 stretches: no point before it */
	{
		size_t start = 0, seen = 0;
		for (; start < log.n && seen < 10; start++)
			seen += !!(log.ent[start].flags & LW_FLUSH);
		assert_int_equal(crash_plan_make(&log, start, 50, 3, &q), 0);
		for (size_t i = 0; i < q.n; i++)
			assert_true(q.p[i].durable >= start);
		crash_plan_free(&q);
	}
	assert_int_equal(crash_plan_make(&log, log.n + 1, 5, 1, &q), -1);
	assert_int_equal(crash_plan_make(&log, 0, 0, 1, &q), -1);
	crash_plan_free(&p);
	lw_free(&log);
	lb_free(&b);
}

/* What a torn point loses: over its stretch, writes kept whole, lost and
 * cut short all occur, a FUA write before the cut always stays, nothing at
 * or after the cut and everything before the durable part is applied.
 * Catches: a torn point that never loses a write (the detector could not
 * see a filesystem that relies on one), or one that loses a FUA write (it
 * would blame the filesystem for what the device had promised). */
static void test_torn_losses(void **state)
{
	struct lb b;
	struct lw_log log;
	struct crash_plan p;
	struct crash_torn_counts sum = { 0 };

	(void)state;
	workload_log(&b, 40);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(crash_plan_make(&log, 0, 400, 11, &p), 0);
	for (size_t i = 0; i < p.n; i++) {
		struct crash_point *c = &p.p[i];
		struct crash_torn_counts t = crash_torn_counts(&log, c);

		sum.whole += t.whole, sum.lost += t.lost, sum.cut_short += t.cut_short;
		for (size_t j = 0; j < log.n; j++) {
			uint64_t k = crash_keep(c, j, &log.ent[j]);
			if (j < c->durable)
				assert_int_equal(k, log.ent[j].nr_sectors);
			else if (j >= c->cut)
				assert_int_equal(k, 0);
			else if (log.ent[j].flags & LW_FUA)
				assert_int_equal(k, log.ent[j].nr_sectors);
			assert_true(k <= log.ent[j].nr_sectors);
		}
	}
	assert_true(sum.whole > 0);
	assert_true(sum.lost > 0);
	assert_true(sum.cut_short > 0);
	/* a device writing 2 sectors whole: a write is cut only at an even
	 * sector, and one of 2 sectors or less never (the bug: tearing
	 * inside the unit, which no device of that unit does) */
	crash_plan_set_unit(&p, 2);
	sum.cut_short = 0;
	for (size_t i = 0; i < p.n; i++)
		for (size_t j = p.p[i].durable; j < p.p[i].cut; j++) {
			uint64_t k = crash_keep(&p.p[i], j, &log.ent[j]);
			if (k && k < log.ent[j].nr_sectors) {
				assert_int_equal(k % 2, 0);
				assert_true(log.ent[j].nr_sectors > 2);
				sum.cut_short++;
			}
		}
	assert_true(sum.cut_short > 0);
	crash_plan_free(&p);
	lw_free(&log);
	lb_free(&b);
}

/* A key with a volatile buffer that flushes do not empty (issue 71): at
 * each point, the media hold a prefix of the log that ends where the
 * buffer's last `bytes` began, the writes since lost whole, flushes and
 * FUA notwithstanding, never before the start; the point's cut (how far
 * the workload had come, what it had been promised) stays.  Catches: a
 * buffer that a flush empties (a key could not lose what fsync
 * promised, which is the finding), one that loses more than it holds, or
 * a plan left unsorted (the forward replay would refuse it). */
static void test_buffer_plan(void **state)
{
	struct lb b;
	struct lw_log log;
	struct crash_plan p, q;
	const uint64_t bytes = 6 * SS;
	size_t start = 0, seen = 0, across = 0;

	(void)state;
	workload_log(&b, 40);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	for (; start < log.n && seen < 3; start++)
		seen += !!(log.ent[start].flags & LW_FLUSH);
	assert_int_equal(crash_plan_make(&log, start, 60, 5, &p), 0);
	assert_int_equal(crash_plan_make(&log, start, 60, 5, &q), 0);
	crash_plan_set_buffer(&q, &log, start, bytes);
	assert_int_equal(q.n, p.n);
	for (size_t i = 0; i < q.n; i++) {
		const struct crash_point *c = &q.p[i];
		uint64_t held = 0, next;
		if (i)
			assert_true(c[-1].durable <= c->durable);
		assert_true(c->durable >= start);
		if (c->kind != CRASH_BUFFER)
			continue;
		for (size_t j = c->durable; j < c->cut; j++) {
			const struct lw_entry *e = &log.ent[j];
			if (!(e->flags & (LW_MARK | LW_DISCARD)))
				held += e->nr_sectors * SS;
			assert_int_equal(crash_keep((void *)c, j, e), 0);
			across += !!(e->flags & (LW_FLUSH | LW_FUA)) && e->nr_sectors;
			across += !!(e->flags & LW_FLUSH);
		}
		for (size_t j = 0; j < c->durable; j++)
			assert_int_equal(crash_keep((void *)c, j, &log.ent[j]), log.ent[j].nr_sectors);
		/* no more than the buffer, and as much as it holds: the write
		 * before the kept prefix would not have fitted */
		assert_true(held > 0 && held <= bytes);
		if (c->durable > start) {
			next = log.ent[c->durable - 1].flags & (LW_MARK | LW_DISCARD) ? 0 :
			       log.ent[c->durable - 1].nr_sectors * SS;
			assert_true(held + next > bytes);
		}
		assert_int_equal(crash_apply_torn(&log, -1, -1, c), 0);	/* nothing torn: no I/O */
	}
	assert_true(across > 0);	/* some buffered point reaches past a flush */
	crash_plan_free(&q);
	/* a buffer of nothing changes nothing */
	assert_int_equal(crash_plan_make(&log, start, 60, 5, &q), 0);
	crash_plan_set_buffer(&q, &log, start, 0);
	assert_memory_equal(q.p, p.p, p.n * sizeof(*p.p));
	crash_plan_free(&q);
	{
		char what[160];
		struct crash_point c = { CRASH_BUFFER, start, start + 4, 0, 0 };
		crash_describe(&log, &c, what, sizeof(what));
		assert_non_null(strstr(what, "buffer holding entries"));
		assert_non_null(strstr(what, "lost by the device"));
	}
	crash_plan_free(&p);
	lw_free(&log);
	lb_free(&b);
}

/* The model: entries [0, n) applied to memory by crash_keep. */
static void model(const struct lw_log *log, const unsigned char *logbuf,
		  const struct crash_point *c, unsigned char *img)
{
	memset(img, 0, DEV_SECTORS * SS);
	for (size_t i = 0; i < log->n; i++) {
		const struct lw_entry *e = &log->ent[i];
		uint64_t k = crash_keep((void *)c, i, e);

		if (e->flags & LW_MARK || !k)
			continue;
		if (e->flags & LW_DISCARD)
			memset(img + e->sector * SS, 0, k * SS);
		else
			memcpy(img + e->sector * SS, logbuf + e->data, k * SS);
	}
}

/* A replay that moves forward once through the log (one image advanced
 * to each point's durable part, a copy of it given the torn part) gives,
 * at every point, the image the model gives.  Catches: an advance that
 * applies one entry too many or too few at a boundary, a torn part
 * applied to the advancing image itself (every later point would then
 * hold writes a crash had lost). */
static void test_replay_matches_model(void **state)
{
	struct lb b;
	struct lw_log log;
	struct crash_plan p;
	char path[512];
	unsigned char got[DEV_SECTORS * SS], want[DEV_SECTORS * SS];
	int logfd, base;
	size_t at = 0;

	(void)state;
	workload_log(&b, 30);
	logfd = log_file(&b, "w.log", path, sizeof(path));
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(crash_plan_make(&log, 0, 60, 5, &p), 0);
	base = image("base.img");
	for (size_t i = 0; i < p.n; i++) {
		const struct crash_point *c = &p.p[i];
		char name[32];
		int work;

		assert_int_equal(crash_advance(&log, logfd, base, &at, c), 0);
		snprintf(name, sizeof(name), "p%zu.img", i);
		work = image(name);
		read_image(base, got);
		assert_int_equal(pwrite(work, got, sizeof(got), 0), (ssize_t)sizeof(got));
		assert_int_equal(crash_apply_torn(&log, logfd, work, c), 0);
		read_image(work, got);
		model(&log, b.buf, c, want);
		if (memcmp(got, want, sizeof(got))) {
			char what[160];
			crash_describe(&log, c, what, sizeof(what));
			fail_msg("point %zu (%s): the replayed image is not the model's", i, what);
		}
		close(work);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		unlink(path);
	}
	/* backwards is refused: the image cannot un-apply */
	{
		struct crash_point back = { CRASH_FLUSH, 0, 0, 0 };
		if (at > 0)
			assert_int_equal(crash_advance(&log, logfd, base, &at, &back), -1);
	}
	close(base);
	close(logfd);
	crash_plan_free(&p);
	lw_free(&log);
	lb_free(&b);
}

static void test_describe(void **state)
{
	struct lb b;
	struct lw_log log;
	char buf[160];
	struct crash_point f = { CRASH_FLUSH, 2, 2, 0 }, end = { CRASH_FLUSH, 0, 0, 0 };

	(void)state;
	workload_log(&b, 3);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	crash_describe(&log, &f, buf, sizeof(buf));
	assert_string_equal(buf, "flush at entry 2");
	end.durable = end.cut = log.n;
	crash_describe(&log, &end, buf, sizeof(buf));
	assert_string_equal(buf, "end of the log (entry 11)");
	lw_free(&log);
	lb_free(&b);
}

/* Paths a manifest takes: relative ones inside the filesystem only.
 * Catches: a workload's path (or a damaged manifest's) that would make
 * the check read outside the replayed filesystem. */
static void test_manifest_paths(void **state)
{
	struct manifest m = { 0 };
	const char *bad[] = { "", "/etc/passwd", "a/../b", "..", "./a", "a//b", "a/", "a/." };

	(void)state;
	assert_int_equal(manifest_add(&m, "d/f", 1, 2), 0);
	assert_int_equal(manifest_add(&m, "..x/y..", 1, 2), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (manifest_add(&m, bad[i], 1, 2) != -1)
			fail_msg("\"%s\" was taken", bad[i]);
	assert_int_equal(m.n, 2);
	manifest_free(&m);
}

/* The acknowledgements made before a point come from the marks before
 * it.  Catches: an acknowledgement counted before its mark (the check
 * would demand data nobody had promised yet), marks of another kind
 * counted, or a log whose marks are out of order taken as this
 * workload's. */
static void test_manifest_acked(void **state)
{
	struct lb b;
	struct lw_log log;
	char mark[32];

	(void)state;
	lb_init(&b);
	lb_entry(&b, 0, 0, LW_MARK, "mkfs", 0);
	lb_write(&b, 0, 1, 1);
	lb_flush(&b);
	manifest_mark(0, mark, sizeof(mark));
	assert_string_equal(mark, "fsb-ack:0");
	lb_entry(&b, 0, 0, LW_MARK, mark, 0);	/* entry 3 */
	lb_write(&b, 1, 1, 2);
	lb_entry(&b, 0, 0, LW_MARK, "fsb-ack:x", 0);
	lb_flush(&b);
	manifest_mark(1, mark, sizeof(mark));
	lb_entry(&b, 0, 0, LW_MARK, mark, 0);	/* entry 7 */
	lb_done(&b);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(manifest_acked(&log, 0), 0);
	assert_int_equal(manifest_acked(&log, 3), 0);
	assert_int_equal(manifest_acked(&log, 4), 1);
	assert_int_equal(manifest_acked(&log, 7), 1);
	assert_int_equal(manifest_acked(&log, 8), 2);
	assert_int_equal(manifest_acked(&log, 100), 2);
	lw_free(&log);
	lb_free(&b);

	lb_init(&b);
	lb_entry(&b, 0, 0, LW_MARK, "fsb-ack:0", 0);
	lb_entry(&b, 0, 0, LW_MARK, "fsb-ack:2", 0);
	lb_done(&b);
	assert_int_equal(lw_read_mem(b.buf, b.len, 0, &log), 0);
	assert_int_equal(manifest_acked(&log, 1), 1);
	assert_int_equal(manifest_acked(&log, 2), -1);
	assert_non_null(strstr(error_get(), "fsb-ack:1 was due"));
	lw_free(&log);
	lb_free(&b);
}

static uint64_t put(const char *name, const char *content)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return XXH3_64bits(content, strlen(content));
}

static uint64_t hash_of(const char *content)
{
	return XXH3_64bits(content, strlen(content));
}

/* A replay's files against the promises: kept only with the exact size
 * and content, a promised file missing, cut short, changed, replaced by a
 * symbolic link or by a FIFO counted as lost with its bytes, a file not
 * yet promised counted apart, and a rewritten path kept with either the
 * promised content or the later one.  Catches: a check that counts a file
 * by its name alone (a filesystem that keeps the name and loses the data
 * would come out clean), one that follows a link in a crashed filesystem
 * to data that is not the file's, one that blocks on a FIFO, and losses
 * that were allowed reported as the filesystem's fault. */
static void test_manifest_check(void **state)
{
	struct manifest m = { 0 };
	struct mf_outcome o;
	char path[512], target[512];

	(void)state;
	assert_int_equal(mkdir(strcat(strcpy(path, dir), "/d"), 0700), 0);
	assert_int_equal(manifest_add(&m, "d/kept", 5, put("d/kept", "hello")), 0);
	put("short", "hel");
	assert_int_equal(manifest_add(&m, "short", 5, hash_of("hello")), 0);
	put("changed", "HELLO");
	assert_int_equal(manifest_add(&m, "changed", 5, hash_of("hello")), 0);
	assert_int_equal(manifest_add(&m, "missing", 5, hash_of("hello")), 0);
	/* a link to a file with the right content: still lost */
	snprintf(path, sizeof(path), "%s/link", dir);
	snprintf(target, sizeof(target), "%s/d/kept", dir);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(manifest_add(&m, "link", 5, hash_of("hello")), 0);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(manifest_add(&m, "fifo", 5, hash_of("hello")), 0);
	/* "r" written, promised, rewritten: the file holds the rewrite */
	assert_int_equal(manifest_add(&m, "r", 3, hash_of("one")), 0);
	assert_int_equal(manifest_ack(&m), 0);
	assert_int_equal(manifest_add(&m, "r", 5, put("r", "three")), 0);
	assert_int_equal(manifest_add(&m, "late", 4, put("late", "late")), 0);
	assert_int_equal(manifest_add(&m, "late-missing", 4, hash_of("late")), 0);

	assert_int_equal(manifest_check(&m, dir, 1, &o), 0);
	assert_int_equal(o.promised, 7);	/* d/kept short changed missing link fifo r */
	assert_int_equal(o.promised_lost, 5);
	assert_int_equal(o.promised_bytes, 5 * 6 + 3);
	assert_int_equal(o.promised_bytes_lost, 25);
	assert_string_equal(o.first_loss, "changed (wrong content)");
	assert_int_equal(o.unpromised, 2);
	assert_int_equal(o.unpromised_lost, 1);
	assert_int_equal(o.unpromised_bytes, 8);
	assert_int_equal(o.unpromised_bytes_lost, 4);

	/* "r" holding the promised first content: kept too; garbage: lost */
	put("r", "one");
	assert_int_equal(manifest_check(&m, dir, 1, &o), 0);
	assert_int_equal(o.promised_lost, 5);
	put("r", "two");
	assert_int_equal(manifest_check(&m, dir, 1, &o), 0);
	assert_int_equal(o.promised_lost, 6);

	/* no acknowledgement made yet: nothing was promised */
	assert_int_equal(manifest_check(&m, dir, 0, &o), 0);
	assert_int_equal(o.promised, 0);
	assert_int_equal(o.promised_lost, 0);
	assert_int_equal(o.unpromised, 9);
	assert_string_equal(o.first_loss, "");

	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(manifest_check(&m, path, 1, &o), -1);
	manifest_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_every_kind),
		cmocka_unit_test(test_refuses_damage),
		cmocka_unit_test(test_read_past_super),
		cmocka_unit_test_setup_teardown(test_apply, setup_dir, teardown_dir),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_torn_losses),
		cmocka_unit_test(test_buffer_plan),
		cmocka_unit_test_setup_teardown(test_replay_matches_model, setup_dir, teardown_dir),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_manifest_paths),
		cmocka_unit_test(test_manifest_acked),
		cmocka_unit_test_setup_teardown(test_manifest_check, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
