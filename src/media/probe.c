/*
 * probe.c: the flashbench-style probe (see probe.h).  Every figure is the
 * least of a few tries, so a moment's noise on a real device does not
 * move a boundary.
 */
#include "probe.h"
#include "flash.h"
#include "../core/error.h"

#include <errno.h>
#include <string.h>

#define KIB 1024u
#define TRIES 3
/* A pattern that forces a merge at (nearly) every write costs this many
 * times the in-order rate at least (flashbench's example: 6.9x); one that
 * only runs a log out of order, under 2x. */
#define COLLAPSE 2.5

static int failed;

static uint64_t rd(const struct probe_io *io, uint64_t off, uint32_t len)
{
	uint64_t t = io->read(io->arg, off, len);
	if (!t)
		failed = errno ? errno : EIO;
	return t;
}

static uint64_t wr(const struct probe_io *io, uint64_t off, uint32_t len)
{
	uint64_t t = io->write(io->arg, off, len);
	if (!t)
		failed = errno ? errno : EIO;
	return t;
}

/* The least time of TRIES reads of 4 KiB at off. */
static uint64_t read4k(const struct probe_io *io, uint64_t off)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < TRIES && !failed; i++) {
		uint64_t t = rd(io, off, 4 * KIB);
		if (t < best)
			best = t;
	}
	return best;
}

/* Page: for each candidate, the mean extra cost of a 4 KiB read across
 * its boundaries (at 8 of them) over one inside; the page is the least
 * candidate at which that extra is (nearly) the largest seen. */
static void find_page(const struct probe_io *io, uint64_t base, struct probe_result *r)
{
	static const uint32_t cand[] = { 4 * KIB, 8 * KIB, 16 * KIB, 32 * KIB, 64 * KIB, 128 * KIB };
	double pen[6], best = 0;

	for (int c = 0; c < 6; c++) {
		double sum = 0;
		for (int k = 1; k <= 8; k++) {
			/* odd multiples: a boundary of this candidate that is no
			 * boundary of twice its size */
			uint64_t b = base + (uint64_t)(2 * k + 1) * cand[c];
			double across = (double)read4k(io, b - 2 * KIB);
			double inside = (double)read4k(io, b + 4 * KIB);
			sum += across - inside;
		}
		pen[c] = sum / 8;
		if (pen[c] > best)
			best = pen[c];
	}
	r->page_penalty = best;
	if (best <= 0)
		return;
	for (int c = 0; c < 6; c++)
		if (pen[c] >= 0.8 * best) {
			r->page = cand[c];
			return;
		}
}

/* Time of nstreams streams written in turn, stream i in order through
 * [start + i * region, ...), chunk bytes a write, bytes each. */
static uint64_t streams(const struct probe_io *io, uint64_t start, uint32_t nstreams,
			uint64_t region, uint32_t chunk, uint64_t bytes)
{
	uint64_t t = 0;

	/* twice over: a unit shared by two streams has its log run out of
	 * order and fill, which the first pass alone may stop short of */
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t at = 0; at < bytes && !failed; at += chunk)
			for (uint32_t i = 0; i < nstreams && !failed; i++)
				t += wr(io, start + i * region + at, chunk);
	return t;
}

/* Each try on fresh ground: the span's units are walked through, so no try
 * writes where the one before left open logs. */
struct ground {
	uint64_t base, span, next;
};

static uint64_t take(struct ground *g, uint64_t bytes)
{
	/* aligned to the largest unit, so a stream starts a unit */
	uint64_t at = (g->next + PROBE_MAX_UNIT - 1) / PROBE_MAX_UNIT * PROBE_MAX_UNIT;
	if (at + bytes > g->span)
		at = 0;
	g->next = at + bytes;
	return g->base + at;
}

/* Per byte, the least of TRIES runs of streams(). */
static double per_byte(const struct probe_io *io, struct ground *g, uint32_t n, uint64_t region,
		       uint32_t chunk, uint64_t bytes)
{
	double best = 0;

	for (int i = 0; i < TRIES && !failed; i++) {
		uint64_t start = take(g, n * region);
		double v = (double)streams(io, start, n, region, chunk, bytes) / (double)(2 * n * bytes);
		if (!i || v < best)
			best = v;
	}
	return best;
}

int probe_flash(const struct probe_io *io, uint64_t base, uint64_t span, int write,
		struct probe_result *r)
{
	memset(r, 0, sizeof(*r));
	failed = 0;
	find_page(io, base, r);
	/* reading in order, 1 MiB at a time */
	uint64_t t = 0;
	for (uint32_t i = 0; i < 16 && !failed; i++)
		t += rd(io, base + (uint64_t)i * (1u << 20), 1u << 20);
	if (t)
		r->read_mbps = 16.0 * (1u << 20) / 1e6 / ((double)t / 1e9);
	if (failed)
		return error_set("reading the device: %s", strerror(failed));
	if (!write)
		return 0;
	if (span < probe_span())
		return error_set("the probe's region is too small to write in (%llu MiB needed)",
				 (unsigned long long)(probe_span() >> 20));
	struct ground g = { base, span, 0 };
	uint32_t chunk = r->page ? r->page : 16 * KIB;
	if (chunk < 32 * KIB)
		chunk = 32 * KIB;	/* whole pages, whatever the page */
	/* in order: the reference every pattern is held to */
	double seq = per_byte(io, &g, 1, PROBE_MAX_UNIT, chunk, PROBE_MAX_UNIT);
	if (seq > 0)
		r->write_mbps = 1e3 / seq;
	/* open units: the most streams, each in order in a region of its
	 * own (16 MiB apart: a whole number of any unit up to that), that
	 * stay cheap; one more and every write forces a merge */
	uint32_t n;
	for (n = 2; n <= PROBE_MAX_OPEN + 1 && !failed; n++) {
		if (per_byte(io, &g, n, PROBE_MAX_UNIT, chunk, 1u << 20) > COLLAPSE * seq)
			break;
	}
	r->open_units = n - 1;
	/* the unit: N and N + 1 streams spaced by a candidate size; while
	 * the candidate is under the unit, streams share units and fit the
	 * open ones either way (slower, out of order, both alike); from the
	 * unit on, the one stream more collapses as above.  The least
	 * candidate at which it does is the unit. */
	for (uint32_t u = PROBE_MIN_UNIT; r->open_units <= PROBE_MAX_OPEN && u <= PROBE_MAX_UNIT &&
					  !failed; u *= 2) {
		uint64_t bytes = u < (1u << 20) ? u : (1u << 20);
		double fit = per_byte(io, &g, r->open_units, u, chunk, bytes);
		double over = per_byte(io, &g, r->open_units + 1, u, chunk, bytes);
		if (over > COLLAPSE * fit) {
			r->unit = u;
			break;
		}
	}
	if (failed)
		return error_set("writing the device: %s", strerror(failed));
	return 0;
}

static uint64_t model_read(void *arg, uint64_t off, uint32_t len)
{
	return flash_read(arg, off, len);
}

static uint64_t model_write(void *arg, uint64_t off, uint32_t len)
{
	return flash_write(arg, off, len);
}

struct probe_io probe_io_model(struct flash *f)
{
	struct probe_io io = { model_read, model_write, f };
	return io;
}

uint64_t probe_span(void)
{
	/* the largest try: PROBE_MAX_OPEN + 1 streams of the largest unit,
	 * twice over so fresh ground follows it */
	return 2ULL * (PROBE_MAX_OPEN + 1) * PROBE_MAX_UNIT;
}
