/*
 * load.c: reading runs back from the store: a whole run as a struct result
 * (store_load_run, what every report and `show` read), and the lookups
 * the command line makes (the last run, a label, whether a run exists,
 * the mean time of a test, the list of runs).  Nothing here writes.
 */
#include "store_internal.h"
#include "../core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN
							 : sqlite3_column_double(st, i);
}

static int count_rows(struct store *s, const char *sql, int64_t id, int *n)
{
	sqlite3_stmt *st;

	if (store_prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	*n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

static int load_header(struct store *s, int64_t id, struct result *r)
{
	sqlite3_stmt *st;
	int rc;

	if (store_prepare(s, "SELECT started,finished,label,cmdline,version,status,baseline,note,argv"
		       " FROM run WHERE id=?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->started = col_dup(st, 0);
		r->finished = col_dup(st, 1);
		r->label = col_dup(st, 2);
		r->cmdline = col_dup(st, 3);
		r->version = col_dup(st, 4);
		r->status = col_dup(st, 5);
		r->baseline = col_dup(st, 6);
		r->note = col_dup(st, 7);
		r->argv = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : col_dup(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error_set("no run %lld in %s (see `fsbench list runs`)",
				 (long long)id, s->path);
	return 0;
}

/* The rows of a per-run (or per-test) table, in `ord` order, into a new
 * array of *n elements of `size` bytes, each filled from its row by fill:
 * the one shape of every loader below.  `table` and `cols` are fixed
 * strings of this file, never user input. */
static int load_rows(struct store *s, const char *table, const char *key, const char *cols,
		     int64_t id, size_t size, void **out, int *n,
		     void (*fill)(sqlite3_stmt *st, void *elem))
{
	char sql[512];
	sqlite3_stmt *st;
	char *arr;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE %s=?", table, key);
	if (count_rows(s, sql, id, n))
		return -1;
	arr = calloc((size_t)*n + 1, size);
	*out = arr;
	if (!arr)
		return error_set("out of memory");
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s WHERE %s=? ORDER BY ord", cols, table, key);
	if (store_prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	for (int i = 0; i < *n && sqlite3_step(st) == SQLITE_ROW; i++)
		fill(st, arr + (size_t)i * size);
	sqlite3_finalize(st);
	return 0;
}

static void fill_sys(sqlite3_stmt *st, void *elem)
{
	struct r_field *f = elem;

	f->name = col_dup(st, 0);
	f->value = col_dup(st, 1);
}

static int load_sys(struct store *s, int64_t id, struct result *r)
{
	return load_rows(s, "sysinfo", "run_id", "name,value", id, sizeof(*r->sys),
			 (void **)&r->sys, &r->nsys, fill_sys);
}

static void fill_target(sqlite3_stmt *st, void *elem)
{
	struct r_target *t = elem;

	t->id = sqlite3_column_int64(st, 0);
	t->label = col_dup(st, 1);
	t->path = col_dup(st, 2);
	t->kind = col_dup(st, 3);
	t->fstype = col_dup(st, 4);
	t->mount_point = col_dup(st, 5);
	t->mount_source = col_dup(st, 6);
	t->mount_opts = col_dup(st, 7);
	t->disk = col_dup(st, 8);
	t->scheduler = col_dup(st, 9);
	t->spec = col_dup(st, 10);
	t->mkfs = col_dup(st, 11);
	t->blockdev = sqlite3_column_type(st, 12) == SQLITE_NULL ? NULL : col_dup(st, 12);
	t->blockdev_note = sqlite3_column_type(st, 13) == SQLITE_NULL ? NULL : col_dup(st, 13);
	t->aging = sqlite3_column_type(st, 14) == SQLITE_NULL ? NULL : col_dup(st, 14);
}

static int load_targets(struct store *s, int64_t id, struct result *r)
{
	return load_rows(s, "target", "run_id", "id,label,path,kind,fstype,mount_point,"
			 "mount_source,mount_opts,disk,scheduler,spec,mkfs,blockdev,blockdev_note,aging", id, sizeof(*r->targets),
			 (void **)&r->targets, &r->ntargets, fill_target);
}

static int target_index(const struct result *r, int64_t target_id)
{
	for (int i = 0; i < r->ntargets; i++)
		if (r->targets[i].id == target_id)
			return i;
	return -1;
}

static void fill_metric(sqlite3_stmt *st, void *elem)
{
	struct r_metric *m = elem;

	m->name = col_dup(st, 0);
	m->unit = col_dup(st, 1);
	m->label = col_dup(st, 2);
	m->direction = sqlite3_column_int(st, 3);
	m->primary = sqlite3_column_int(st, 4);
	m->device = sqlite3_column_type(st, 5) != SQLITE_NULL &&
		    !strcmp((const char *)sqlite3_column_text(st, 5), "device");
}

static int load_metrics(struct store *s, struct r_test *t)
{
	int n = 0;

	if (load_rows(s, "metric", "test_id", "name,unit,label,direction,is_primary,grp", t->id,
		      sizeof(*t->metrics), (void **)&t->metrics, &n, fill_metric))
		return -1;
	/* The device group is stored after the workload's metrics. */
	t->nmetrics = n;
	t->ndevice = 0;
	while (t->nmetrics > 0 && t->metrics[t->nmetrics - 1].device) {
		t->nmetrics--;
		t->ndevice++;
	}
	return 0;
}

static int load_samples(struct store *s, const struct result *r, struct r_test *t)
{
	sqlite3_stmt *st, *vs;

	if (store_prepare(s, "SELECT id,target_id,rep,wall,cpu_user,cpu_sys,cpu_pct,"
		       "machine_cpu_pct,detail,series FROM sample WHERE test_id=? ORDER BY id", &st))
		return -1;
	if (store_prepare(s, "SELECT metric_ord,value FROM value WHERE sample_id=?", &vs)) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_int64(st, 1, t->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ti = target_index(r, sqlite3_column_int64(st, 1));
		if (ti < 0)
			continue;
		struct r_cell *c = &t->cells[ti];
		struct r_sample *ns = realloc(c->samples, sizeof(*ns) * (size_t)(c->nsamples + 1));
		if (!ns)
			break;
		c->samples = ns;
		struct r_sample *sm = &c->samples[c->nsamples++];
		sm->rep = sqlite3_column_int(st, 2);
		sm->wall = col_real(st, 3);
		sm->cpu_user = col_real(st, 4);
		sm->cpu_sys = col_real(st, 5);
		sm->cpu_pct = col_real(st, 6);
		sm->machine_cpu_pct = col_real(st, 7);
		sm->detail = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : col_dup(st, 8);
		sm->series = sqlite3_column_type(st, 9) == SQLITE_NULL ? NULL : col_dup(st, 9);
		int nv = t->nmetrics + t->ndevice;
		sm->values = malloc(sizeof(double) * (size_t)(nv + 1));
		if (!sm->values) {
			c->nsamples--;
			break;
		}
		for (int i = 0; i < nv; i++)
			sm->values[i] = NAN;
		sqlite3_reset(vs);
		sqlite3_bind_int64(vs, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(vs) == SQLITE_ROW) {
			int m = sqlite3_column_int(vs, 0);
			if (m >= 0 && m < nv)
				sm->values[m] = col_real(vs, 1);
		}
	}
	sqlite3_finalize(vs);
	sqlite3_finalize(st);

	if (store_prepare(s, "SELECT target_id,message FROM failure WHERE test_id=?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ti = target_index(r, sqlite3_column_int64(st, 0));
		if (ti >= 0 && !t->cells[ti].failure)
			t->cells[ti].failure = col_dup(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}

static void fill_test(sqlite3_stmt *st, void *elem)
{
	struct r_test *t = elem;

	t->id = sqlite3_column_int64(st, 0);
	t->name = col_dup(st, 1);
	t->workload = col_dup(st, 2);
	t->params = col_dup(st, 3);
	t->title = col_dup(st, 4);
	t->subtitle = col_dup(st, 5);
	t->precision = sqlite3_column_type(st, 6) == SQLITE_NULL ? 0 : sqlite3_column_double(st, 6);
	t->margin = sqlite3_column_type(st, 7) == SQLITE_NULL ? 0 : sqlite3_column_double(st, 7);
	t->looks = sqlite3_column_type(st, 8) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 8);
	t->show = col_dup(st, 9);
}

static int load_tests(struct store *s, int64_t id, struct result *r)
{
	int rc = load_rows(s, "test", "run_id", "id,name,workload,params,title,subtitle,precision,margin,looks,show", id,
			   sizeof(*r->tests), (void **)&r->tests, &r->ntests, fill_test);

	for (int i = 0; i < r->ntests && !rc; i++) {
		r->tests[i].cells = calloc((size_t)r->ntargets + 1, sizeof(*r->tests[i].cells));
		rc = !r->tests[i].cells ? error_set("out of memory")
			: load_metrics(s, &r->tests[i]) || load_samples(s, r, &r->tests[i]);
	}
	return rc ? -1 : 0;
}

int store_load_run(struct store *s, int64_t run_id, struct result **out)
{
	struct result *r = calloc(1, sizeof(*r));

	if (!r)
		return error_set("out of memory");
	r->id = run_id;
	if (load_header(s, run_id, r) || load_sys(s, run_id, r) ||
	    load_targets(s, run_id, r) || load_tests(s, run_id, r)) {
		result_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int store_last_run(struct store *s, int64_t *run_id)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "SELECT max(id) FROM run", &st))
		return -1;
	*run_id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

int store_mean_wall(struct store *s, const char *test, const char *params, double *mean, int *n)
{
	sqlite3_stmt *st;

	*mean = 0;
	*n = 0;
	if (store_prepare(s, "SELECT avg(sample.wall), count(*) FROM sample JOIN test"
		       " ON test.id = sample.test_id WHERE test.name=? AND test.params=?", &st))
		return -1;
	store_bind_text(st, 1, test);
	store_bind_text(st, 2, params);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*mean = sqlite3_column_double(st, 0);
		*n = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}

int store_run_exists(struct store *s, int64_t run_id, int *exists)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "SELECT 1 FROM run WHERE id=?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	*exists = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return 0;
}

int store_find_label(struct store *s, const char *label, int64_t *run_id)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "SELECT max(id) FROM run WHERE label=?", &st))
		return -1;
	store_bind_text(st, 1, label);
	*run_id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

int store_list_runs(struct store *s, int (*fn)(const struct run_row *, void *),
		    void *arg)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (store_prepare(s, "SELECT r.id, r.started, coalesce(r.label,''), r.status,"
		       " (SELECT group_concat(label, ', ') FROM (SELECT label FROM target"
		       "   WHERE run_id=r.id ORDER BY ord)),"
		       " (SELECT group_concat(name, ', ') FROM (SELECT name FROM test"
		       "   WHERE run_id=r.id ORDER BY ord))"
		       " FROM run r ORDER BY r.id", &st))
		return -1;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		struct run_row row;
		memset(&row, 0, sizeof(row));
		row.id = sqlite3_column_int64(st, 0);
#define COPY(field, i) snprintf(row.field, sizeof(row.field), "%s", \
	sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "")
		COPY(started, 1);
		COPY(label, 2);
		COPY(status, 3);
		COPY(targets, 4);
		COPY(tests, 5);
#undef COPY
		rc = fn(&row, arg);
	}
	sqlite3_finalize(st);
	return rc;
}
