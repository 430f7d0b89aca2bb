/*
 * flash.c: the log-block translation layer of a cheap flash medium (see
 * flash.h).  Per unit: a bitmap of its valid pages and, while it has one,
 * its open log; the open logs in LRU order by a counter.  Every cost is
 * integer nanoseconds, so the same requests give the same time.
 */
#include "flash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct log {
	uint32_t unit;		/* the unit it belongs to */
	uint32_t next;		/* in order: the next page it expects */
	uint64_t end;		/* the byte in the unit the last write ended at */
	uint32_t used;		/* pages programmed into it */
	int in_order;		/* written from page 0 in ascending order so far */
	uint64_t stamp;		/* last write, for LRU */
};

struct flash {
	struct flash_params p;
	uint32_t units, ppu;	/* units, pages per unit */
	uint64_t *valid;	/* per unit, ppu bits */
	size_t words;		/* 64-bit words per unit's bitmap */
	int32_t *log_of;	/* per unit: its open log's slot, or -1 */
	struct log logs[FLASH_MAX_OPEN];
	uint32_t nlogs;
	uint64_t clock;
	uint64_t pending_ns;	/* the buffer's programs and merges not done yet */
	struct flash_stats st;
};

int flash_params_check(const struct flash_params *p, char *why, size_t len)
{
	const char *bad = NULL;

	if (!p->page || p->page % 512)
		bad = "page must be a multiple of 512 bytes";
	else if (!p->unit || p->unit % p->page)
		bad = "unit must be a whole number of pages";
	else if (p->unit / p->page > (1u << 20))
		bad = "unit holds more than 2^20 pages";
	else if (!p->capacity || p->capacity % p->unit)
		bad = "capacity must be a whole number of units";
	else if (p->capacity / p->unit > (1u << 24))
		bad = "capacity holds more than 2^24 units";
	else if (p->capacity / p->page > (1ULL << 31))
		bad = "capacity holds more than 2^31 pages";
	else if (!p->open_units || p->open_units > FLASH_MAX_OPEN)
		bad = "open_units must be 1 to 64";
	else if (p->mapped_units >= p->capacity / p->unit)
		bad = "mapped_units must leave units to log";
	else if (!p->bus_bps)
		bad = "bus must be above 0";
	else if (p->buffer > (1ULL << 30))
		bad = "buffer above 1 GiB";
	/* the largest request (4 GiB) costed without overflow */
	else if (p->read_ns > 1000000000ULL || p->program_ns > 1000000000ULL ||
		 p->copy_ns > 1000000000ULL || p->erase_ns > 10000000000ULL ||
		 p->cmd_ns > 1000000000ULL)
		bad = "a cost above a second (10 s for an erase)";
	if (bad && why)
		snprintf(why, len, "%s", bad);
	return bad ? -1 : 0;
}

struct flash *flash_new(const struct flash_params *p)
{
	if (flash_params_check(p, NULL, 0))
		return NULL;
	struct flash *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->p = *p;
	f->units = (uint32_t)(p->capacity / p->unit);
	f->ppu = p->unit / p->page;
	f->words = (f->ppu + 63) / 64;
	f->valid = calloc((size_t)f->units * f->words, sizeof(uint64_t));
	f->log_of = malloc((size_t)f->units * sizeof(int32_t));
	if (!f->valid || !f->log_of) {
		flash_free(f);
		return NULL;
	}
	for (uint32_t u = 0; u < f->units; u++)
		f->log_of[u] = -1;
	return f;
}

void flash_free(struct flash *f)
{
	if (!f)
		return;
	free(f->valid);
	free(f->log_of);
	free(f);
}

const struct flash_stats *flash_stats(const struct flash *f)
{
	return &f->st;
}

double flash_write_amplification(const struct flash_stats *a, const struct flash_stats *b,
				 uint32_t page)
{
	uint64_t host = b->host_written - a->host_written;
	uint64_t flash = (b->pages_programmed - a->pages_programmed) +
			 (b->pages_copied - a->pages_copied);

	return host ? (double)flash * page / (double)host : 0;
}

/* ---- bitmaps ---- */

static uint64_t *bits(struct flash *f, uint32_t u)
{
	return f->valid + (size_t)u * f->words;
}

static void set_range(uint64_t *b, uint32_t from, uint32_t to, int on)
{
	for (uint32_t i = from; i < to; i++) {
		uint64_t m = 1ULL << (i % 64);
		if (on)
			b[i / 64] |= m;
		else
			b[i / 64] &= ~m;
	}
}

static uint32_t count_range(const uint64_t *b, uint32_t from, uint32_t to)
{
	uint32_t n = 0;

	for (uint32_t i = from; i < to; i++)
		n += (uint32_t)((b[i / 64] >> (i % 64)) & 1);
	return n;
}

/* ---- logs and merges ---- */

static uint64_t copy_cost(struct flash *f, uint32_t pages)
{
	f->st.pages_copied += pages;
	return (uint64_t)pages * f->p.copy_ns;
}

static uint64_t erase_cost(struct flash *f, uint32_t n)
{
	f->st.erases += n;
	return (uint64_t)n * f->p.erase_ns;
}

/* Close log slot s: the unit's data and its log become one unit again. */
static uint64_t close_log(struct flash *f, uint32_t s)
{
	struct log *l = &f->logs[s];
	uint64_t *b = bits(f, l->unit);
	uint64_t t;

	if (l->in_order) {
		/* the rest of the unit copied in behind the log, the old unit
		 * erased: a switch when nothing was left to copy */
		uint32_t rest = count_range(b, l->next, f->ppu);
		t = copy_cost(f, rest) + erase_cost(f, 1);
		if (rest)
			f->st.partial_merges++;
		else
			f->st.switch_merges++;
	} else {
		/* every valid page to a fresh unit, the old one and the log erased */
		t = copy_cost(f, count_range(b, 0, f->ppu)) + erase_cost(f, 2);
		f->st.full_merges++;
	}
	f->log_of[l->unit] = -1;
	f->logs[s] = f->logs[--f->nlogs];
	if (s < f->nlogs)
		f->log_of[f->logs[s].unit] = (int32_t)s;
	return t;
}

/* The open log of unit u, taking one (closing the least recently written
 * when all are taken); its cost added to *t. */
static struct log *log_for(struct flash *f, uint32_t u, uint64_t *t)
{
	if (f->log_of[u] >= 0)
		return &f->logs[f->log_of[u]];
	if (f->nlogs == f->p.open_units) {
		uint32_t lru = 0;
		for (uint32_t s = 1; s < f->nlogs; s++)
			if (f->logs[s].stamp < f->logs[lru].stamp)
				lru = s;
		*t += close_log(f, lru);
	}
	struct log *l = &f->logs[f->nlogs];
	memset(l, 0, sizeof(*l));
	l->unit = u;
	l->in_order = 1;
	f->log_of[u] = (int32_t)f->nlogs++;
	return l;
}

/* Pages [a, b) of logged unit u written, from byte `from` of the unit to
 * byte `to`.  A write that starts where the last one ended goes on in
 * order in the page that one ended in: the controller gathers a page
 * before it programs it, as it must for a filesystem writing 4 KiB blocks
 * one after the other, so that page is neither programmed again nor out
 * of order (*gathered = 1: the caller takes its program back). */
static uint64_t write_unit(struct flash *f, uint32_t u, uint32_t a, uint32_t b, uint64_t from,
			   uint64_t to, int *gathered)
{
	uint64_t t = 0;
	struct log *l = log_for(f, u, &t);
	uint32_t n = b - a;

	int goes_on = l->in_order && l->next && a == l->next - 1 && from == l->end;
	int in_order = l->in_order && (a >= l->next || goes_on);
	uint32_t pad = in_order && a > l->next ? a - l->next : 0;
	if (goes_on)
		n--;	/* the tail page was counted when it began */
	if (l->used + pad + n > f->ppu) {
		/* the log is full: merged, and a new one taken */
		t += close_log(f, (uint32_t)f->log_of[u]);
		l = log_for(f, u, &t);
		if (goes_on)
			n++;
		goes_on = 0;
		in_order = 1;
		pad = a;
	}
	*gathered = goes_on;
	if (in_order && pad) {
		/* a gap padded with the unit's pages, so the log stays in order */
		t += copy_cost(f, count_range(bits(f, u), l->next, a));
		l->used += pad;
	} else if (!in_order) {
		l->in_order = 0;
	}
	l->next = b;
	l->end = to;
	l->used += n;
	l->stamp = ++f->clock;
	set_range(bits(f, u), a, b, 1);
	/* filled in order to its last byte: switched now */
	if (l->in_order && l->next == f->ppu && l->end == f->p.unit)
		t += close_log(f, (uint32_t)f->log_of[u]);
	return t;
}

/* ---- requests ---- */

static int clip(const struct flash *f, uint64_t off, uint64_t *len)
{
	if (off >= f->p.capacity || !*len)
		return -1;
	if (*len > f->p.capacity - off)
		*len = f->p.capacity - off;
	return 0;
}

static uint64_t transfer(const struct flash *f, uint64_t bytes)
{
	/* bytes <= 2^32 here (nbd's requests), so bytes * 1e9 fits */
	return f->p.cmd_ns + bytes * 1000000000ULL / f->p.bus_bps;
}

static void drain(struct flash *f, uint64_t ns);

/* A request of t ns: the buffer drains while the medium serves it. */
static uint64_t done(struct flash *f, uint64_t t)
{
	drain(f, t);
	f->st.requests++;
	f->st.busy_ns += t;
	return t;
}

uint64_t flash_read(struct flash *f, uint64_t off, uint64_t len)
{
	if (clip(f, off, &len))
		return done(f, f->p.cmd_ns);
	uint64_t pages = (off + len - 1) / f->p.page - off / f->p.page + 1;
	f->st.host_read += len;
	return done(f, transfer(f, len) + pages * f->p.read_ns);
}

/* The buffer drained by ns of the medium's own work: its pending work
 * and the bytes it holds shrink together (the work is spread evenly over
 * the bytes, which are written back in order). */
static void drain(struct flash *f, uint64_t ns)
{
	if (!f->pending_ns) {
		f->st.buffered = 0;	/* what cost nothing to write back */
		return;
	}
	if (!ns)
		return;
	if (ns >= f->pending_ns) {
		f->pending_ns = 0;
		f->st.buffered = 0;
		return;
	}
	f->st.buffered = (uint64_t)((unsigned __int128)f->st.buffered * (f->pending_ns - ns) /
				    f->pending_ns);
	f->pending_ns -= ns;
}

void flash_idle(struct flash *f, uint64_t ns)
{
	drain(f, ns);
}

uint64_t flash_write(struct flash *f, uint64_t off, uint64_t len)
{
	if (clip(f, off, &len))
		return done(f, f->p.cmd_ns);
	uint64_t first = off / f->p.page, end = (off + len - 1) / f->p.page + 1;
	uint64_t bus = transfer(f, len), t = (end - first) * f->p.program_ns;

	f->st.host_written += len;
	f->st.pages_programmed += end - first;
	for (uint64_t pg = first; pg < end;) {
		uint32_t u = (uint32_t)(pg / f->ppu), a = (uint32_t)(pg % f->ppu);
		uint32_t b = end - pg < (uint64_t)(f->ppu - a) ? a + (uint32_t)(end - pg) : f->ppu;
		uint64_t ustart = (uint64_t)u * f->p.unit;
		uint64_t from = off > ustart ? off - ustart : 0;
		uint64_t to = off + len - ustart < f->p.unit ? off + len - ustart : f->p.unit;
		if (u < f->p.mapped_units)
			set_range(bits(f, u), a, b, 1);	/* mapped by page: the programs only */
		else {
			int gathered = 0;
			t += write_unit(f, u, a, b, from, to, &gathered);
			if (gathered) {
				t -= f->p.program_ns;
				f->st.pages_programmed--;
			}
		}
		pg += b - a;
	}
	if (!f->p.buffer)
		return done(f, bus + t);
	/* Buffered: the transfer, while the medium works on what it holds;
	 * then, if this write does not fit, the wait until it does.  A write
	 * larger than the whole buffer waits for it to empty and for the
	 * share of its own work that does not fit. */
	uint64_t wait = 0;
	drain(f, bus);
	if (len > f->p.buffer) {
		wait = f->pending_ns + (uint64_t)((unsigned __int128)t * (len - f->p.buffer) / len);
		f->pending_ns = t - (wait - f->pending_ns);
		f->st.buffered = f->p.buffer;
	} else {
		if (f->st.buffered + len > f->p.buffer) {
			uint64_t need = f->st.buffered + len - f->p.buffer;
			wait = (uint64_t)(((unsigned __int128)f->pending_ns * need + f->st.buffered - 1) /
					  f->st.buffered);
			drain(f, wait);
		}
		f->pending_ns += t;
		f->st.buffered += len;
	}
	f->st.requests++;
	f->st.busy_ns += bus + t;	/* the medium's work, whenever it is done */
	return bus + wait;
}

uint64_t flash_trim(struct flash *f, uint64_t off, uint64_t len)
{
	if (clip(f, off, &len))
		return done(f, f->p.cmd_ns);
	/* whole pages only: a page partly trimmed still holds data */
	uint64_t first = (off + f->p.page - 1) / f->p.page, end = (off + len) / f->p.page;
	f->st.trimmed += len;
	for (uint64_t pg = first; pg < end;) {
		uint32_t u = (uint32_t)(pg / f->ppu), a = (uint32_t)(pg % f->ppu);
		uint32_t b = end - pg < (uint64_t)(f->ppu - a) ? a + (uint32_t)(end - pg) : f->ppu;
		set_range(bits(f, u), a, b, 0);
		pg += b - a;
	}
	return done(f, f->p.cmd_ns);
}

uint64_t flash_flush(struct flash *f)
{
	return done(f, f->p.cmd_ns);
}
