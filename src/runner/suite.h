/*
 * suite.h: suite files, the INI form of a comparison.
 *
 *   [suite]
 *   name = usb-key
 *   description = Seed 000: exFAT FUSE vs kernel vs ext4 vs F2FS on a USB key
 *   filesystems = exfat-fuse,ext4,f2fs     (used when no --fs/--target is given)
 *   runs = 3                                (optional)
 *   baseline = ext4                         (optional: what the ratios are to, when it
 *                                            is a target and --baseline names none)
 *
 *   [test fsmark-1000x1M]
 *   workload = fsmark                      (or: test = a named test)
 *   files = 1000                           (any other key is a parameter)
 *   size = 1M
 *   title = FS-Mark 3.3                    (optional chart title / subtitle)
 *   subtitle = Test: 1000 Files, 1MB Size
 *   runs = 3                               (optional, this test only)
 *
 * A test whose workload fsbench does not have (yet) is skipped by name.
 */
#ifndef FSB_SUITE_H
#define FSB_SUITE_H

#include "testspec.h"

struct suite {
	char name[64], description[256], filesystems[512], path[4096];
	char baseline[64];	/* baseline = : the ratios' reference, when it is a target */
	int runs;
	double time_budget;	/* time-budget = : the run's, unless --time-budget or --runs */
	struct test_spec *tests;
	int ntests;
	char (*skipped)[256];	/* "NAME: why" per skipped test */
	int nskipped;
};

/* NAME (searched in the suite directories) or a path to a .suite file. */
int suite_load(const char *name, double scale, struct suite *s);
void suite_free(struct suite *s);
/* The directory built-in suites are read from. */
const char *suite_dir(void);
/* The file `--suite NAME|FILE` names: FILE as given, NAME's file in
 * suite_dir(). */
void suite_path(const char *name, char *buf, size_t len);

#endif
