/*
 * record.c: an aging run's record and its summary line (record.h).
 *
 * The record keeps the inputs that fix the sequence (profile, seed,
 * capacity), the operations done, and what they left: fullness by
 * statvfs, files and FIEMAP extents, and the time and CPU it took, so a
 * reader can tell the ager's own cost from the kernel's.
 */
#include "record.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

char *age_record_json(const struct age_profile *p, uint64_t seed, uint64_t capacity,
		      const char *repo, const struct age_result *r)
{
	json_t *ops = json_object(), *o;
	char *text;

	if (!ops)
		return NULL;
	for (int i = 0; i < AGE_OPS; i++)
		json_object_set_new(ops, age_op_names[i], json_integer((json_int_t)r->ops[i]));
	o = json_pack("{s:s,s:I,s:I,s:f,s:f,s:o,s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:I,s:I,s:I,s:f,s:f}",
		      "profile", p->name, "seed", (json_int_t)seed, "capacity", (json_int_t)capacity,
		      "fill", p->fill, "churn", p->churn, "ops", ops,
		      "written", (json_int_t)r->written, "live_bytes", (json_int_t)r->live_bytes,
		      "live_files", (json_int_t)r->live_files, "enospc", (json_int_t)r->enospc,
		      "seconds", r->seconds, "user_s", r->user_s, "sys_s", r->sys_s,
		      "fullness", r->fullness, "files", (json_int_t)r->files,
		      "mapped_files", (json_int_t)r->mapped_files, "extents", (json_int_t)r->extents,
		      "fragmented_files", r->frag_files,
		      "extents_per_file", r->mapped_files ?
		      (double)r->extents / (double)r->mapped_files : 0.0);
	if (!o)
		return NULL;
	if (r->free_extents) {	/* where the filesystem says (freesp.c) */
		json_object_set_new(o, "free_extents", json_integer((json_int_t)r->free_extents));
		json_object_set_new(o, "free_extent_bytes", json_real(r->free_extent_bytes));
	}
	if (r->cleaner) {	/* NILFS2's: run by fsbench meanwhile (targets/cleaner.h) */
		json_object_set_new(o, "cleaner", json_string(r->cleaner));
		json_object_set_new(o, "cleaner_waits", json_integer((json_int_t)r->cleaner_waits));
		json_object_set_new(o, "cleaner_wait_s", json_real(r->cleaner_wait_s));
	}
	if (p->git) {	/* git-pull: the commits, and whose they were */
		json_object_set_new(o, "commits", json_integer((json_int_t)r->commits));
		json_object_set_new(o, "repo", json_string(repo ? repo : ""));
	}
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return text;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double age_record_value(const char *json, const char *key)
{
	json_t *o = json ? json_loads(json, 0, NULL) : NULL;
	double v = o ? num(o, key) : NAN;

	json_decref(o);
	return v;
}

int age_record_summary(const char *json, char *buf, size_t len)
{
	json_t *o = json ? json_loads(json, 0, NULL) : NULL;
	const char *name = o ? json_string_value(json_object_get(o, "profile")) : NULL;
	double cap = o ? num(o, "capacity") : NAN;

	if (!name || !isfinite(cap) || cap <= 0) {
		snprintf(buf, len, "aged (its record is unreadable)");
		json_decref(o);
		return -1;
	}
	int n = snprintf(buf, len, "aged with %s (seed %.0f): %.1f%% full, %.0f files",
			 name, num(o, "seed"), 100 * num(o, "fullness"), num(o, "files"));
	/* FIEMAP maps no file on tmpfs: no extents to speak of */
	if (n >= 0 && (size_t)n < len && num(o, "mapped_files") > 0)
		n += snprintf(buf + n, len - (size_t)n, ", %.2f extents per file, %.0f%% of files "
			      "in more than one", num(o, "extents_per_file"),
			      100 * num(o, "fragmented_files"));
	if (n >= 0 && (size_t)n < len && num(o, "free_extents") > 0)
		n += snprintf(buf + n, len - (size_t)n, ", free space in %.0f extents of %.0f KiB "
			      "on average", num(o, "free_extents"), num(o, "free_extent_bytes") / 1024);
	const char *repo = json_string_value(json_object_get(o, "repo"));
	if (n >= 0 && (size_t)n < len && repo)	/* git did the writing */
		n += snprintf(buf + n, len - (size_t)n, "; %.0f commits of %s checked out in %.0f s "
			      "(git %.1f s CPU, the kernel %.1f s)", num(o, "commits"), repo,
			      num(o, "seconds"), num(o, "user_s"), num(o, "sys_s"));
	else if (n >= 0 && (size_t)n < len) {
		/* the ager's own CPU per operation beside the kernel's for it */
		double ops = 0;
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(o, "ops"), k, v)
			ops += json_is_number(v) ? json_number_value(v) : 0;
		(void)k;
		n += snprintf(buf + n, len - (size_t)n, "; %.1fx its size written in %.0f s "
			      "(fsbench %.1f s CPU, the kernel %.1f s", num(o, "written") / cap,
			      num(o, "seconds"), num(o, "user_s"), num(o, "sys_s"));
		if (n >= 0 && (size_t)n < len && ops > 0)
			n += snprintf(buf + n, len - (size_t)n, ": %.1f and %.1f us an operation",
				      1e6 * num(o, "user_s") / ops, 1e6 * num(o, "sys_s") / ops);
		if (n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ")");
	}
	if (n >= 0 && (size_t)n < len && num(o, "enospc") > 0)
		n += snprintf(buf + n, len - (size_t)n, "; %.0f operations refused for want of space",
			      num(o, "enospc"));
	const char *cleaner = json_string_value(json_object_get(o, "cleaner"));
	if (n >= 0 && (size_t)n < len && cleaner)
		n += snprintf(buf + n, len - (size_t)n, "; %s reclaimed meanwhile (full %.0f times, "
			      "%.0f s waited for it)", cleaner, num(o, "cleaner_waits"),
			      num(o, "cleaner_wait_s"));
	const char *reused = json_string_value(json_object_get(o, "reused"));
	if (n >= 0 && (size_t)n < len && reused)	/* --keep-aged: paid once, earlier */
		snprintf(buf + n, len - (size_t)n, "; the image kept as %s, reused", reused);
	json_decref(o);
	return 0;
}
