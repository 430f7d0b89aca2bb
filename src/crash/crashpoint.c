/*
 * crashpoint.c: the crash-point plan and the images it describes
 * (crashpoint.h).
 *
 * The candidates are every position right after a flush or a FUA write,
 * and the log's end; the stretches between consecutive candidates are
 * what a volatile cache held.  A plan draws from both with one seeded
 * generator, so it depends on the log, the budget and the seed only.
 */
#include "crashpoint.h"
#include "../core/error.h"
#include "../core/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAX 100000u

/* A stretch [begin, end) after a durable point begin: a torn point cuts it
 * at [begin + 1, last]. */
struct stretch {
	size_t begin, last;
};

static bool losable(const struct lw_entry *e)
{
	return !(e->flags & (LW_MARK | LW_FUA)) && e->nr_sectors;
}

static int cmp_point(const void *a, const void *b)
{
	const struct crash_point *x = a, *y = b;

	if (x->durable != y->durable)
		return x->durable < y->durable ? -1 : 1;
	if (x->cut != y->cut)
		return x->cut < y->cut ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->seed < y->seed ? -1 : x->seed > y->seed;
}

int crash_plan_make(const struct lw_log *log, size_t start, size_t budget, uint64_t seed,
		    struct crash_plan *out)
{
	size_t *cand = NULL, nc = 0, ns = 0, flush_cap, flush_n, torn_n, k = 0;
	struct stretch *st = NULL;
	struct rng r;
	size_t prev;

	memset(out, 0, sizeof(*out));
	if (start > log->n)
		return error_set("crash plan: start %zu is past the log's %zu entries", start, log->n);
	if (budget < 1 || budget > PLAN_MAX)
		return error_set("crash plan: %zu points (1 to %u)", budget, PLAN_MAX);
	/* at most one candidate per entry, plus the end */
	cand = malloc((log->n - start + 1) * sizeof(*cand));
	st = malloc((log->n - start + 1) * sizeof(*st));
	if (!cand || !st)
		goto oom;
	prev = start;
	for (size_t i = start; i <= log->n; i++) {
		size_t last;
		bool any = false;

		if (i < log->n && !(log->ent[i].flags & (LW_FLUSH | LW_FUA)))
			continue;
		/* the point after entry i (the end, when i == n) */
		size_t at = i < log->n ? i + 1 : log->n;
		if (nc && cand[nc - 1] == at)
			continue;
		if (at == start && i == log->n)
			break;	/* nothing after start at all */
		cand[nc++] = at;
		/* the stretch since the previous point, cut before its flush
		 * (a flush with no data of its own adds nothing to lose) */
		last = (at > prev && at - 1 < log->n && (log->ent[at - 1].flags & LW_FLUSH) &&
			!log->ent[at - 1].nr_sectors) ? at - 1 : at;
		for (size_t j = prev; j < last && !any; j++)
			any = losable(&log->ent[j]);
		if (any)
			st[ns++] = (struct stretch){ prev, last };
		prev = at;
	}
	out->flush_points = nc;
	out->torn_segments = ns;
	flush_cap = ns ? (budget + 1) / 2 : budget;
	flush_n = nc < flush_cap ? nc : flush_cap;
	torn_n = ns ? budget - flush_n : 0;
	out->p = calloc(flush_n + torn_n ? flush_n + torn_n : 1, sizeof(*out->p));
	if (!out->p)
		goto oom;
	rng_seed(&r, seed);
	if (flush_n) {
		/* the last always; the others a uniform sample (a partial
		 * Fisher-Yates shuffle of the rest) */
		out->p[k++] = (struct crash_point){ CRASH_FLUSH, cand[nc - 1], cand[nc - 1], 0 };
		for (size_t i = 0; i + 1 < flush_n; i++) {
			size_t j = i + (size_t)rng_below(&r, nc - 1 - i), t = cand[i];

			cand[i] = cand[j];
			cand[j] = t;
			out->p[k++] = (struct crash_point){ CRASH_FLUSH, cand[i], cand[i], 0 };
		}
	}
	for (size_t i = 0; i < torn_n; i++) {
		const struct stretch *s = &st[rng_below(&r, ns)];
		size_t cut = s->begin + 1 + (size_t)rng_below(&r, s->last - s->begin), j;

		/* a cut before the stretch's first write would lose nothing */
		for (j = s->begin; j < cut && !losable(&log->ent[j]); j++)
			;
		if (j == cut)
			for (; cut < s->last && !losable(&log->ent[cut - 1]); cut++)
				;
		out->p[k++] = (struct crash_point){ CRASH_TORN, s->begin, cut, rng_next(&r) };
	}
	qsort(out->p, k, sizeof(*out->p), cmp_point);
	out->n = k;
	free(cand);
	free(st);
	return 0;
oom:
	free(cand);
	free(st);
	crash_plan_free(out);
	return error_set("crash plan: out of memory for a log of %zu entries", log->n);
}

void crash_plan_set_unit(struct crash_plan *plan, uint32_t sectors)
{
	for (size_t i = 0; i < plan->n; i++)
		plan->p[i].unit = sectors;
}

size_t crash_point_end(const struct crash_point *p)
{
	return p->kind == CRASH_FLUSH ? p->durable : p->cut;
}

/* Data a buffer holds: a write (FUA too: the key ignores it), not a
 * discard, a mark or an empty flush. */
static bool buffered(const struct lw_entry *e)
{
	return !(e->flags & (LW_MARK | LW_DISCARD)) && e->nr_sectors;
}

void crash_plan_set_buffer(struct crash_plan *plan, const struct lw_log *log, size_t start,
			   uint64_t bytes)
{
	if (!bytes)
		return;
	for (size_t i = 0; i < plan->n; i++) {
		struct crash_point *p = &plan->p[i];
		size_t end = crash_point_end(p), j = end;
		uint64_t held = 0;

		if (end > log->n)
			end = j = log->n;
		/* back from the cut while the writes fit in the buffer */
		while (j > start) {
			const struct lw_entry *e = &log->ent[j - 1];
			uint64_t b = buffered(e) ? e->nr_sectors * log->sectorsize : 0;
			if (held + b > bytes)
				break;
			held += b;
			j--;
		}
		if (j == end)
			continue;	/* nothing written since: nothing held */
		*p = (struct crash_point){ CRASH_BUFFER, j, end, p->seed, p->unit };
	}
	/* j grows with the cut, so the order holds; sorted again for ties */
	qsort(plan->p, plan->n, sizeof(*plan->p), cmp_point);
}

void crash_plan_free(struct crash_plan *plan)
{
	free(plan->p);
	memset(plan, 0, sizeof(*plan));
}

uint64_t crash_keep(void *point, size_t i, const struct lw_entry *e)
{
	const struct crash_point *p = point;
	uint64_t d;

	if (i < p->durable)
		return e->nr_sectors;
	if (p->kind != CRASH_TORN || i >= p->cut)
		return 0;
	if (e->flags & LW_FUA)
		return e->nr_sectors;
	/* whole 1/2, lost 3/8, cut short 1/8 at a unit's boundary (a write of
	 * one unit or less cannot be) */
	uint64_t unit = p->unit ? p->unit : 1, units = (e->nr_sectors + unit - 1) / unit;
	d = mix64(p->seed ^ mix64(i));
	if ((d & 7) < 4)
		return e->nr_sectors;
	if ((d & 7) < 7)
		return 0;
	if (units < 2)
		return e->nr_sectors;
	return unit * (1 + (d >> 3) % (units - 1));
}

struct crash_torn_counts crash_torn_counts(const struct lw_log *log, const struct crash_point *p)
{
	struct crash_torn_counts c = { 0 };

	if (p->kind != CRASH_TORN)
		return c;
	for (size_t i = p->durable; i < p->cut && i < log->n; i++) {
		const struct lw_entry *e = &log->ent[i];
		uint64_t k;

		if (!losable(e))
			continue;
		k = crash_keep((void *)p, i, e);
		if (k == e->nr_sectors)
			c.whole++;
		else if (k == 0)
			c.lost++;
		else
			c.cut_short++;
	}
	return c;
}

int crash_advance(const struct lw_log *log, int logfd, int imgfd, size_t *at,
		  const struct crash_point *p)
{
	if (p->durable < *at)
		return error_set("crash replay: the image is at entry %zu, past point %zu", *at,
				 p->durable);
	if (lw_apply(log, logfd, imgfd, *at, p->durable, NULL, NULL))
		return -1;
	*at = p->durable;
	return 0;
}

int crash_apply_torn(const struct lw_log *log, int logfd, int imgfd, const struct crash_point *p)
{
	if (p->kind != CRASH_TORN)
		return 0;
	return lw_apply(log, logfd, imgfd, p->durable, p->cut, crash_keep, (void *)p);
}

void crash_describe(const struct lw_log *log, const struct crash_point *p, char *buf, size_t len)
{
	struct crash_torn_counts c;

	if (p->kind == CRASH_BUFFER) {
		uint64_t held = 0;
		for (size_t i = p->durable; i < p->cut && i < log->n; i++)
			held += buffered(&log->ent[i]) ? log->ent[i].nr_sectors * log->sectorsize : 0;
		snprintf(buf, len, "cut after entry %zu with the device's buffer holding entries "
			 "%zu-%zu (%llu KiB, lost by the device, flushes notwithstanding)", p->cut,
			 p->durable, p->cut,
			 (unsigned long long)(held >> 10));
		return;
	}
	if (p->kind == CRASH_FLUSH) {
		if (p->durable == log->n && !lw_durable_point(log, p->durable))
			snprintf(buf, len, "end of the log (entry %zu)", p->durable);
		else
			snprintf(buf, len, "flush at entry %zu", p->durable);
		return;
	}
	c = crash_torn_counts(log, p);
	snprintf(buf, len, "torn after entry %zu, %zu entries on: %zu whole, %zu lost, %zu cut short",
		 p->durable, p->cut - p->durable, c.whole, c.lost, c.cut_short);
}
