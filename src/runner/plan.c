/*
 * plan.c: what a run request will take, before anything runs: the space
 * its tests need (and so the size of each image), and the time the store's
 * earlier samples say they take (`run --dry-run`, and the deadline of a
 * --vm guest).  Nothing here makes, mounts or runs anything.
 */
#include "request.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/file.h"
#include "../core/param.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

uint64_t runner_space_needed(const struct run_request *rq, const char **which)
{
	return runner_space_needed_on(rq, 0, which);
}

uint64_t runner_space_needed_on(const struct run_request *rq, int flash, const char **which)
{
	uint64_t need = 0;

	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		/* powercut's images live in the scratch of a block target; on
		 * flash it writes only its application's files, to its own
		 * partition */
		if (flash && (ts->wl->flags & WL_DEVICE_MAPPER))
			continue;
		uint64_t n = ts->wl->space_needed ? ts->wl->space_needed(ts->params) : 0;
		if (n > need) {
			need = n;
			*which = ts->name;
		}
	}
	return need;
}

/* Images are sparse: only what is written takes space; but all of them
 * must fit in the image directory at once, since no test's data shrinks
 * an image file. */
int runner_size_images(struct run_request *rq, struct provision_opts *prov)
{
	const char *which = NULL;
	uint64_t need = runner_space_needed(rq, &which), size, have, total = 0;
	int images = 0;

	if (!need)
		return 0;	/* no test says: the default size */
	size = sat_add(sat_add(need, need / 4), 512ULL << 20);
	/* --age keeps the filesystem at its fill of fsbench's bytes (2% above
	 * at most), and the filesystem's own overhead comes on top: btrfs's
	 * metadata took 12% of the device at desktop's 80%.  The tests get
	 * what is left, 8% of the device held back for that overhead. */
	if (rq->age_fill > 0) {
		double aged = (double)size / (1 - fmin(0.9, rq->age_fill * 1.02 + 0.08));
		size = aged >= 0x1p63 ? UINT64_MAX : (uint64_t)aged;
	}
	size = sat_mul((size + (1ULL << 30) - 1) >> 30, 1ULL << 30);
	if (size < (1ULL << 30))
		size = 1ULL << 30;
	prov->size = size;
	for (int i = 0; i < rq->ntargets; i++)
		if (target_set_image_size(&rq->targets[i], size)) {
			images++;
			total = sat_add(total, size);
		}
	if (!images)
		return 0;
	const char *dir = prov->image_dir ? prov->image_dir : "/var/tmp";
	char sz[32], nd[32], tot[32], hv[32];
	format_size(size, sz, sizeof(sz));
	format_size(need, nd, sizeof(nd));
	format_size(total, tot, sizeof(tot));
	if (free_space(dir, &have))
		return -1;
	format_size(have & ~((1ULL << 20) - 1), hv, sizeof(hv));
	if (have < total)
		return error_set("the images need %s (%d x %s, for %s's %s) but %s has %s free: give "
				 "--image-dir on a larger filesystem, a smaller --fs-size, or --scale",
				 tot, images, sz, which, nd, dir, hv);
	if (!rq->opts.quiet)
		fprintf(stderr, "fsbench: images of %s each (%s needs %s; --fs-size sets another "
			"size), %s of %s free in %s\n", sz, which, nd, tot, hv, dir);
	return 0;
}

void runner_print_plan(FILE *f, struct store *s, const struct run_request *rq, int vm)
{
	double total = 0;
	int unknown = 0;

	fprintf(f, "%d test%s on %d target%s:\n", rq->ntests, rq->ntests == 1 ? "" : "s",
		rq->ntargets, rq->ntargets == 1 ? "" : "s");
	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		int runs = rq->opts.runs ? rq->opts.runs : runner_min_runs(&rq->opts, ts);
		double mean = 0;
		int n = 0;
		if (s)
			store_mean_wall(s, ts->name, ts->params_text, &mean, &n);
		fprintf(f, "\n%s: %s\n  %s\n", ts->name, ts->subtitle, ts->params_text);
		for (int i = 0; i < rq->ntargets; i++) {
			if (n)
				fprintf(f, "  on %-20s %d run%s%s, about %.0f s (from %d earlier sample%s)\n",
					rq->targets[i].label, runs, runs == 1 ? "" : "s",
					rq->opts.runs ? "" : " or more", mean * runs, n,
					n == 1 ? "" : "s");
			else
				fprintf(f, "  on %-20s %d run%s%s, no estimate (never run with these "
					"parameters)\n", rq->targets[i].label, runs, runs == 1 ? "" : "s",
					rq->opts.runs ? "" : " or more");
		}
		if (n)
			total += mean * runs * rq->ntargets;
		else
			unknown++;
	}
	fprintf(f, "\nestimated: about %.0f s%s for the minimum runs", total,
		unknown ? ", plus the tests without an estimate," : "");
	if (rq->opts.runs)
		fprintf(f, " (fixed by --runs)");
	else if (rq->opts.time_budget > 0)
		fprintf(f, ", and runs past them while the whole run is under %.0f s (--time-budget)",
			rq->opts.time_budget);
	else if (rq->opts.verdicts && rq->ntargets > 1)
		fprintf(f, ", more until every pair of targets is decided, faster, slower or "
			"equivalent within +-%g%% (up to %d runs)", 100 * rq->opts.margin,
			runner_max_runs(&rq->opts));
	else
		fprintf(f, ", more while a test's 95%% interval is wider than +-%g%% (up to %d runs)",
			100 * rq->opts.precision, runner_max_runs(&rq->opts));
	fprintf(f, "; nothing was made or run (--dry-run)\n");
	/* The earlier samples are the host's (or an earlier guest's, which
	 * the store does not tell apart): a guest adds its boot and its
	 * images, and under TCG its emulated CPU runs the tests at 0.07 to
	 * 0.35 times this machine's speed (measured here, docs/vm.md). */
	if (!vm)
		return;
	fprintf(f, "--vm: plus the guest's boot (about 20 s under TCG) and its images; with KVM "
		"the tests take about the host's time, under TCG (an emulated CPU) 3 to 15 times "
		"it%s\n", total > 0 ? "" : " (no estimate to scale: none of these tests ran before)");
	if (total > 0)
		fprintf(f, "--vm: under TCG about %.0f to %.0f s%s\n", 20 + total / 0.35,
			20 + total / 0.07, unknown ? ", plus the tests without an estimate" : "");
}

/* Under a time budget a run makes its minimum runs, then the budget
 * decides; otherwise it may go to the most runs. */
double runner_work_seconds(struct store *s, const struct run_request *rq)
{
	int budgeted = !rq->opts.runs && rq->opts.time_budget > 0;
	double work = 0;

	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		int runs = rq->opts.runs ? rq->opts.runs : budgeted ? runner_min_runs(&rq->opts, ts)
			   : runner_max_runs(&rq->opts);
		double mean = 0;
		int n = 0;
		if (s)
			store_mean_wall(s, ts->name, ts->params_text, &mean, &n);
		work += (n ? mean : 120.0) * runs * rq->ntargets;
	}
	return work;
}
