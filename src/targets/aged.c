/*
 * aged.c: a provisioned filesystem aged before its tests (aged.h).
 *
 * The directory is made here, never found: mkfs has just run, so a
 * directory of that name that is already there means the mount is not the
 * filesystem fsbench made, and aging stops.
 */
#define _GNU_SOURCE
#include "aged.h"
#include "../aging/ager.h"
#include "../aging/record.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

struct age_watch {
	const struct provision_opts *o;
	const char *label;
};

static void watch(void *arg, double done, double eta_s)
{
	struct age_watch *w = arg;

	w->o->age_progress(w->o->age_arg, w->label, done, eta_s);
}

int target_age(const char *label, const char *mnt, uint64_t capacity,
	       const struct provision_opts *o, char **record)
{
	char dir[PATH_MAX];
	struct age_result res;
	struct age_watch w = { o, label };
	struct age_opts ao = { .profile = o->age, .capacity = capacity, .seed = o->age_seed,
			       .repo = o->age_repo, .progress = o->age_progress ? watch : NULL,
			       .arg = &w };

	*record = NULL;
	if (str_join(dir, sizeof(dir), mnt, "/" AGED_DIR))
		return error_set("fs '%s': the aging directory's path is too long", label);
	if (mkdir(dir, 0755))
		return error_errno("fs '%s': making %s to age the filesystem in", label, dir);
	if (age_run(dir, &ao, &res) || age_measure(mnt, &res))
		return error_prefix("fs '%s'", label);
	if (o->age_progress)
		o->age_progress(o->age_arg, label, 1, 0);
	*record = age_record_json(o->age, o->age_seed, capacity, o->age_repo, &res);
	if (!*record)
		return error_set("out of memory");
	return 0;
}
