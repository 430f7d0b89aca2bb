/* test_flash.c: the modelled flash medium's translation layer (media/flash.h)
 * and its profiles (media/model.h).  What each test catches is said above
 * it; the figures are exact, since the model is integer arithmetic. */
#include "testutil.h"
#include "core/error.h"
#include "media/flash.h"
#include "media/model.h"
#include "media/probe.h"

#include <stdio.h>

#define KIB 1024ULL
#define MIB (1024ULL * KIB)

static uint64_t transfer_ns(const struct flash_params *p, uint64_t bytes)
{
	return p->cmd_ns + bytes * 1000000000ULL / p->bus_bps;
}

static struct flash_params small(void)
{
	struct flash_params p = {
		.capacity = 64 * MIB, .page = 16 * KIB, .unit = 4 * MIB, .open_units = 2,
		.mapped_units = 1, .cmd_ns = 100000, .read_ns = 100000, .program_ns = 500000,
		.copy_ns = 250000, .erase_ns = 2000000, .bus_bps = 40000000,
	};
	return p;
}

/* Units written whole and in order close by switch merges: nothing copied,
 * one erase each, write amplification 1 (the bug: an in-order log taken
 * for a random one, or the fill not noticed). */
static void test_sequential_switches(void **state)
{
	(void)state;
	struct flash_params p = small();
	struct flash *f = flash_new(&p);
	struct flash_stats before;
	assert_non_null(f);
	before = *flash_stats(f);
	for (uint64_t off = 8 * MIB; off < 40 * MIB; off += 256 * KIB)
		flash_write(f, off, 256 * KIB);
	const struct flash_stats *s = flash_stats(f);
	assert_int_equal(s->switch_merges, 8);
	assert_int_equal(s->full_merges + s->partial_merges, 0);
	assert_int_equal(s->pages_copied, 0);
	assert_int_equal(s->erases, 8);
	assert_true(flash_write_amplification(&before, s, p.page) == 1.0);
	flash_free(f);
}

/* Time of writing 256 KiB chunks round-robin over k units, per MiB. */
static double round_robin(uint32_t k, uint32_t open)
{
	struct flash_params p = small();
	p.capacity = 256 * MIB;
	p.open_units = open;
	struct flash *f = flash_new(&p);
	uint64_t t = 0;
	assert_non_null(f);
	/* the units filled once, so a merge has pages to copy */
	for (uint64_t off = 0; off < p.capacity; off += MIB)
		flash_write(f, off, MIB);
	uint64_t start = flash_stats(f)->busy_ns;
	for (int pass = 0; pass < 4; pass++)
		for (uint32_t i = 0; i < 16; i++)
			for (uint32_t u = 0; u < k; u++)
				t += flash_write(f, (uint64_t)(8 + u) * p.unit + (uint64_t)i * 256 * KIB,
						 256 * KIB);
	assert_int_equal(flash_stats(f)->busy_ns - start, t);
	flash_free(f);
	return (double)t / (4.0 * k * 4);
}

/* flashbench's open-unit probe: as long as the units written in turn fit
 * the open ones the rate holds; one more and every turn is a full merge
 * (flashbench's example fell from 6.27 to 0.91 MB/s).  The bug: a log
 * that is closed though it fits, or an LRU that evicts the wrong log. */
static void test_open_units(void **state)
{
	(void)state;
	double two = round_robin(2, 2), three = round_robin(3, 2);
	double four_open = round_robin(3, 4);
	assert_true(three > 5 * two);
	assert_true(four_open < 1.01 * two && four_open > 0.99 * two);
}

/* Small scattered writes: a full merge nearly each, so a page costs far
 * more than in order, and the medium writes many pages per host page
 * (the wear a filesystem causes).  The bug: random writes as cheap as
 * sequential ones, the failure every plain image has. */
static void test_random_small_writes(void **state)
{
	(void)state;
	struct flash_params p = small();
	struct flash *f = flash_new(&p);
	uint64_t seq = 0, rnd = 0, x = 12345;
	struct flash_stats a;
	assert_non_null(f);
	for (uint64_t off = 4 * MIB; off < p.capacity; off += MIB)
		seq += flash_write(f, off, MIB);
	a = *flash_stats(f);
	for (int i = 0; i < 200; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t off = 4 * MIB + (x >> 33) % (p.capacity - 4 * MIB) / (4 * KIB) * (4 * KIB);
		rnd += flash_write(f, off, 4 * KIB);
	}
	const struct flash_stats *s = flash_stats(f);
	/* a unit's first write at page N pads its log with pages 0..N-1, so
	 * most close as partial merges, copying the rest: a unit either way */
	assert_true(s->full_merges + s->partial_merges - a.full_merges - a.partial_merges > 150);
	/* per byte: 4 KiB random against 1 MiB in order */
	assert_true((double)rnd / (200 * 4 * KIB) > 50 * (double)seq / (60 * MIB));
	assert_true(flash_write_amplification(&a, s, p.page) > 100);
	flash_free(f);
}

/* TRIM drops pages: merging a trimmed unit copies only what was written
 * since, merging the same unit untrimmed copies all its pages (the bug: a discard the model
 * ignores, so every filesystem pays for the one before). */
static void test_trim(void **state)
{
	(void)state;
	struct flash_params p = small();
	for (int trim = 0; trim < 2; trim++) {
		struct flash *f = flash_new(&p);
		assert_non_null(f);
		flash_write(f, 8 * MIB, 4 * MIB);
		if (trim)
			flash_trim(f, 8 * MIB, 4 * MIB);
		uint64_t copied = flash_stats(f)->pages_copied;
		/* one page rewritten out of order, then two other units: the log closes by a full merge */
		flash_write(f, 8 * MIB + 64 * KIB, 16 * KIB);
		flash_write(f, 8 * MIB, 16 * KIB);
		flash_write(f, 16 * MIB, 16 * KIB);
		flash_write(f, 24 * MIB, 16 * KIB);
		assert_int_equal(flash_stats(f)->full_merges, 1);
		copied = flash_stats(f)->pages_copied - copied;
		/* untrimmed: pages 0-3 padded into the log, then all 256 merged */
		assert_int_equal(copied, trim ? 2 : 260);
		flash_free(f);
	}
}

/* The mapped area (FAT's tables) takes scattered writes without merges;
 * a sub-page write costs a whole page, one across a page's edge two
 * (the bug: 4 KiB writes as cheap as a quarter page). */
static void test_mapped_and_pages(void **state)
{
	(void)state;
	struct flash_params p = small();
	struct flash *f = flash_new(&p);
	assert_non_null(f);
	for (int i = 0; i < 100; i++)
		flash_write(f, (uint64_t)(i * 37 % 256) * 16 * KIB, 512);
	assert_int_equal(flash_stats(f)->full_merges + flash_stats(f)->switch_merges, 0);
	assert_int_equal(flash_stats(f)->pages_programmed, 100);
	flash_write(f, 16 * KIB - 512, 1024);
	assert_int_equal(flash_stats(f)->pages_programmed, 102);
	flash_free(f);
}

/* A filesystem writing 4 KiB blocks one after the other through a unit
 * (four to a 16 KiB page) writes it in order: the controller gathers each
 * page and programs it once, and the unit closes by a switch.  A 4 KiB write
 * back into a page it did not end in is out of order.  (The bug: F2FS's
 * and ext4's in-order 4 KiB writes taken for random ones, a full merge of
 * every unit they touched: 104 full merges in one restore, 11 now.) */
static void test_small_writes_in_order(void **state)
{
	(void)state;
	struct flash_params p = small();
	struct flash *f = flash_new(&p);
	assert_non_null(f);
	for (uint64_t off = 8 * MIB; off < 12 * MIB; off += 4 * KIB)
		flash_write(f, off, 4 * KIB);
	assert_int_equal(flash_stats(f)->full_merges, 0);
	assert_int_equal(flash_stats(f)->switch_merges + flash_stats(f)->partial_merges, 1);
	/* the pages gathered: 256 programmed for 1024 writes */
	assert_int_equal(flash_stats(f)->pages_programmed, 256);
	/* back into the first page of a unit written on from there: out of order */
	flash_write(f, 16 * MIB, 8 * KIB);
	flash_write(f, 16 * MIB + 16 * KIB, 4 * KIB);
	flash_write(f, 16 * MIB + 4 * KIB, 4 * KIB);
	flash_write(f, 24 * MIB, 4 * KIB);
	flash_write(f, 32 * MIB, 4 * KIB);
	assert_int_equal(flash_stats(f)->full_merges, 1);
	flash_free(f);
}

/* The same requests give the same time and counters (the model's promise
 * of determinism: the bug, any state outside the model, a clock read). */
static void test_deterministic(void **state)
{
	(void)state;
	struct flash_params p = small();
	struct flash *a = flash_new(&p), *b = flash_new(&p);
	uint64_t x = 7;
	assert_non_null(a);
	assert_non_null(b);
	for (int i = 0; i < 5000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t off = (x >> 20) % p.capacity, len = 512 + (x >> 50) % (256 * KIB);
		int op = (int)((x >> 8) % 10);
		uint64_t ta = op < 6 ? flash_write(a, off, len) : op < 9 ? flash_read(a, off, len) : flash_trim(a, off, len);
		uint64_t tb = op < 6 ? flash_write(b, off, len) : op < 9 ? flash_read(b, off, len) : flash_trim(b, off, len);
		assert_int_equal(ta, tb);
	}
	assert_memory_equal(flash_stats(a), flash_stats(b), sizeof(struct flash_stats));
	flash_free(a);
	flash_free(b);
}

/* Parameters that cannot describe a medium are refused with a reason
 * (the bug: a division by zero or an overflow in the costs). */
/* The volatile buffer (issue 71): writes that fit return at the bus's
 * speed while the work they cause waits behind them; a write that finds
 * it full waits for room; idle time drains it; the medium's own work
 * (busy time, merges, wear) is what it is without a buffer.  Catches: a
 * buffer that never fills (random writes as fast as sequential ones for
 * ever), one that idle time does not drain, or one that hides wear. */
static void test_buffer(void **state)
{
	(void)state;
	struct flash_params p = small(), q = small();
	q.buffer = 1 * MIB;
	struct flash *plain = flash_new(&p), *buf = flash_new(&q);
	const uint64_t bus = 4 * KIB * 1000000000ULL / p.bus_bps + p.cmd_ns;
	uint64_t t_plain = 0, t_buf = 0, first = 0;
	int waited = 0;
	assert_non_null(plain);
	assert_non_null(buf);
	/* 4 KiB writes scattered over 8 units: merges on every unit change */
	for (int i = 0; i < 1024; i++) {
		uint64_t off = 8 * MIB + (uint64_t)(i % 8) * 4 * MIB + (uint64_t)(i / 8) * 16 * KIB;
		t_plain += flash_write(plain, off, 4 * KIB);
		uint64_t w = flash_write(buf, off, 4 * KIB);
		t_buf += w;
		if (i < 256)
			first += w;
		waited += w > bus;
	}
	/* the first 256 writes (1 MiB) fit: each costs the bus alone */
	assert_int_equal(first, 256 * bus);
	assert_true(waited > 0);
	assert_true(t_buf < t_plain);
	/* the medium did the same work, and wore the same */
	assert_int_equal(flash_stats(buf)->busy_ns, flash_stats(plain)->busy_ns);
	assert_int_equal(flash_stats(buf)->pages_copied, flash_stats(plain)->pages_copied);
	assert_int_equal(flash_stats(buf)->erases, flash_stats(plain)->erases);
	/* full now; what the buffer still holds is drained by idle time */
	assert_true(flash_stats(buf)->buffered > 0 && flash_stats(buf)->buffered <= q.buffer);
	flash_idle(buf, 1000 * 1000000000ULL);
	assert_int_equal(flash_stats(buf)->buffered, 0);
	assert_int_equal(flash_write(buf, 8 * MIB, 4 * KIB), bus);
	/* a flush does not empty it (the medium works on during its command) */
	assert_int_equal(flash_flush(buf), q.cmd_ns);
	assert_true(flash_stats(buf)->buffered > 0);
	/* a write larger than the buffer waits for part of its own work */
	flash_idle(buf, 1000 * 1000000000ULL);
	assert_true(flash_write(buf, 16 * MIB, 2 * MIB) > transfer_ns(&q, 2 * MIB));
	assert_true(flash_stats(buf)->buffered <= q.buffer);
	q.buffer = (1ULL << 30) + 1;
	assert_null(flash_new(&q));
	flash_free(plain);
	flash_free(buf);
}

static void test_params_refused(void **state)
{
	(void)state;
	struct flash_params p = small();
	char why[128];
	assert_int_equal(flash_params_check(&p, why, sizeof(why)), 0);
	p.unit = 3 * p.page + 1;
	assert_int_equal(flash_params_check(&p, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unit"));
	p = small();
	p.capacity += 1;
	assert_int_equal(flash_params_check(&p, why, sizeof(why)), -1);
	p = small();
	p.open_units = 0;
	assert_int_equal(flash_params_check(&p, why, sizeof(why)), -1);
	p = small();
	p.mapped_units = 16;
	assert_int_equal(flash_params_check(&p, why, sizeof(why)), -1);
	p = small();
	p.bus_bps = 0;
	assert_null(flash_new(&p));
}

/* Every named profile is a valid medium, a file sets what it names and
 * keeps the defaults otherwise, and bad files say their line (the bug: a
 * profile no one could run, a key silently ignored). */
static void test_profiles(void **state)
{
	(void)state;
	static const char *const names[] = { "usb2-key", "usb3-key", "sd-class4", "sd-a1" };
	struct model_spec m;
	struct flash_params p;
	char text[512];
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(model_lookup(names[i], &m), 0);
		assert_int_equal(model_params(&m, &p), 0);
		assert_string_equal(m.name, names[i]);
		assert_true(m.source[0]);
		model_text(&m, text, sizeof(text));
		assert_non_null(strstr(text, "modelled medium"));
	}
	assert_int_equal(model_lookup("usb9-key", &m), -1);
	assert_non_null(strstr(error_get(), "usb3-key"));
	assert_int_equal(model_parse("k.medium", "[medium]\nname = mine\nopen_units = 6\nunit = 8m\n", &m), 0);
	assert_string_equal(m.name, "mine");
	assert_int_equal(m.open_units, 6);
	assert_int_equal(m.unit, 8 * MIB);
	assert_int_equal(m.page, 16 * KIB);
	assert_int_equal(model_parse("k.medium", "open_units = 0\n", &m), -1);
	assert_non_null(strstr(error_get(), "line 1"));
	assert_int_equal(model_parse("k.medium", "colour = 3\n", &m), -1);
	assert_int_equal(model_parse("k.medium", "unit = 5000\n", &m), -1);
	assert_int_equal(model_parse("k.medium", "[disk]\n", &m), -1);
}

/* The probe round trip: probing a modelled medium of known parameters
 * gives its page, unit and open units back (the bug: a probe whose
 * patterns do not separate what they claim to, which no real key could
 * show us).  The probe writes past sd-a1's page-mapped area, where its 16
 * open units are. */
static void test_probe_round_trip(void **state)
{
	(void)state;
	/* the four profiles, and two media of other shapes (so no figure
	 * comes back by being the probe's guess) */
	static const char *const names[] = { "usb2-key", "usb3-key", "sd-class4", "sd-a1",
					     "page = 32k\nunit = 8m\nopen_units = 3\n",
					     "page = 8k\nunit = 1m\nopen_units = 5\nmapped_units = 8\n" };
	for (size_t i = 0; i < 6; i++) {
		struct model_spec m;
		struct flash_params p;
		struct probe_result r;
		if (i < 4)
			assert_int_equal(model_lookup(names[i], &m), 0);
		else
			assert_int_equal(model_parse("shape.medium", names[i], &m), 0);
		assert_int_equal(model_params(&m, &p), 0);
		struct flash *f = flash_new(&p);
		assert_non_null(f);
		struct probe_io io = probe_io_model(f);
		uint64_t base = p.capacity - probe_span();
		assert_int_equal(probe_flash(&io, base, probe_span(), 1, &r), 0);
		print_message("%s: page %u unit %u open %u read %.1f MB/s write %.1f MB/s\n", m.name,
			      r.page, r.unit, r.open_units, r.read_mbps, r.write_mbps);
		assert_int_equal(r.page, p.page);
		assert_int_equal(r.unit, p.unit);
		assert_int_equal(r.open_units, p.open_units);
		flash_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_switches),
		cmocka_unit_test(test_open_units),
		cmocka_unit_test(test_random_small_writes),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_mapped_and_pages),
		cmocka_unit_test(test_small_writes_in_order),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_buffer),
		cmocka_unit_test(test_params_refused),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_probe_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
