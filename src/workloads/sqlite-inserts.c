/*
 * sqlite-inserts.c: N single-row INSERTs, each its own transaction, so
 * each pays SQLite's commit: journal writes and fsyncs (with the default
 * DELETE journal and synchronous=FULL, several per row).  That is the case
 * that separates filesystems, where a big transaction mostly measures the
 * CPU.  threads= connections insert into separate tables of the one
 * database file in the target's scratch directory, competing for its lock
 * as applications do (BEGIN IMMEDIATE, busy timeout 60 s).
 */
#include "workload.h"
#include "../core/checked.h"
#include "sqlitedb.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ins_params {
	int64_t n;
	int64_t threads;
	uint64_t row_size;
	int journal_mode;
	int synchronous;
};

#define P(f) offsetof(struct ins_params, f)
static const struct param_def ins_params[] = {
	{ "n", PT_INT, P(n), "1000", 1, 100000000, NULL,
	  "INSERTs per connection, each its own transaction", PF_SCALE },
	{ "threads", PT_INT, P(threads), "1", 1, 256, NULL,
	  "connections (threads), each inserting into its own table" },
	{ "row_size", PT_SIZE, P(row_size), "100", 1, 1 << 20, NULL, "bytes of text per row" },
	SQLITEDB_MODE_PARAMS(struct ins_params),
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct metric_def ins_metrics[] = {
	{ "seconds", "Seconds", LOWER_IS_BETTER, "Seconds", 1 },
	{ "inserts_per_sec", "Inserts/s", HIGHER_IS_BETTER, "Inserts/s", 0 },
};

struct inserter {
	const struct ins_params *p;
	const char *path;
	int id;
	int failed;
	char err[512];
};

static int insert_rows(struct inserter *w, sqlite3 *db)
{
	char sql[128], *text = malloc(w->p->row_size + 1);
	sqlite3_stmt *st = NULL, *begin = NULL, *commit = NULL;
	int rc = 0;

	if (!text)
		return error_set("out of memory");
	for (uint64_t i = 0; i < w->p->row_size; i++)
		text[i] = (char)('a' + (i * 7 + (uint64_t)w->id) % 26);
	text[w->p->row_size] = 0;
	/* BEGIN IMMEDIATE takes the write lock up front, so connections queue
	 * on the busy handler instead of deadlocking between SHARED and
	 * RESERVED (what SQLite answers with an immediate SQLITE_BUSY). */
	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS t%d(id INTEGER "
		 "PRIMARY KEY, v TEXT); COMMIT", w->id);
	if (sqlitedb_exec(db, sql)) {
		free(text);
		return -1;
	}
	snprintf(sql, sizeof(sql), "INSERT INTO t%d(v) VALUES(?1)", w->id);
	rc = sqlitedb_prepare(db, sql, &st) || sqlitedb_prepare(db, "BEGIN IMMEDIATE", &begin) ||
	     sqlitedb_prepare(db, "COMMIT", &commit);
	for (int64_t i = 0; i < w->p->n && !rc; i++) {
		if (workload_stopped()) {
			rc = error_set("interrupted");
			break;
		}
		text[i % (int64_t)w->p->row_size] ^= 1;	/* no two rows alike */
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
		rc = sqlitedb_run(db, begin) || sqlitedb_run(db, st) || sqlitedb_run(db, commit);
	}
	sqlite3_finalize(begin);
	sqlite3_finalize(commit);
	sqlite3_finalize(st);
	free(text);
	return rc;
}

static void *inserter_main(void *arg)
{
	struct inserter *w = arg;
	sqlite3 *db;

	if (sqlitedb_open(w->path, w->p->journal_mode, w->p->synchronous, &db) == 0) {
		if (insert_rows(w, db) == 0) {
			sqlite3_close(db);
			return NULL;
		}
		sqlite3_close(db);
	}
	w->failed = 1;
	str_copy(w->err, sizeof(w->err), error_get());
	return NULL;
}

static int ins_run(struct wl_ctx *ctx, double *v)
{
	const struct ins_params *p = ctx->params;
	struct inserter *w = calloc((size_t)p->threads, sizeof(*w));
	pthread_t *tid = calloc((size_t)p->threads, sizeof(*tid));
	char path[4200];
	uint64_t t0, ns;
	int started = 0, rc = 0;
	sqlite3 *db;

	if (!w || !tid) {
		free(w);
		free(tid);
		return error_set("out of memory");
	}
	snprintf(path, sizeof(path), "%s/inserts.db", ctx->dir);
	sqlitedb_remove(path);
	/* Create the file and fix the journal mode before the clock starts. */
	if (sqlitedb_open(path, p->journal_mode, p->synchronous, &db)) {
		free(w);
		free(tid);
		return -1;
	}
	sqlite3_close(db);
	t0 = now_ns();
	for (int i = 0; i < p->threads; i++) {
		w[i] = (struct inserter){ .p = p, .path = path, .id = i };
		if (pthread_create(&tid[i], NULL, inserter_main, &w[i])) {
			rc = error_set("cannot start SQLite thread %d", i);
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	ns = now_ns() - t0;
	for (int i = 0; i < started && !rc; i++)
		if (w[i].failed)
			rc = error_set("%s", w[i].err);
	/* The rows' payload is what the application wrote. */
	ctx->bytes_written = (int64_t)sat_mul3(sat_u(p->n), sat_u(p->threads), p->row_size);
	ctx->bytes_read = 0;
	if (!rc)
		workload_data_complete(ctx);	/* the clock has stopped */
	sqlitedb_remove(path);
	free(w);
	free(tid);
	if (rc)
		return -1;
	v[0] = (double)ns / 1e9;
	v[1] = (double)(p->n * p->threads) / v[0];
	if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX, "%lld INSERTs in %lld connection(s), one transaction "
			 "each: %.3f s, %.1f inserts/s\n", (long long)(p->n * p->threads),
			 (long long)p->threads, v[0], v[1]);
	return 0;
}

static uint64_t ins_space(const void *p)
{
	const struct ins_params *ip = p;

	return sat_add(sat_mul(sat_mul3(sat_u(ip->n), sat_u(ip->threads), sat_add(ip->row_size, 64)), 2),
		       16 << 20);
}

static void ins_describe(const void *p, char *buf, size_t len)
{
	const struct ins_params *ip = p;
	char modes[96];

	sqlitedb_modes_text(ip->journal_mode, ip->synchronous, modes, sizeof(modes));
	snprintf(buf, len, "%lld Single-Row Transactions x %lld Thread%s - %s", (long long)ip->n,
		 (long long)ip->threads, ip->threads > 1 ? "s" : "", modes);
}

const struct workload wl_sqlite_inserts = {
	.name = "sqlite-inserts",
	.summary = "SQLite single-row INSERT transactions (fsync-bound), database on the target",
	.title = "SQLite Inserts (fsbench)",
	.params = ins_params,
	.params_size = sizeof(struct ins_params),
	.metrics = ins_metrics,
	.nmetrics = 2,
	.space_needed = ins_space,
	.describe = ins_describe,
	.run = ins_run,
};
