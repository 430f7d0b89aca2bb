/*
 * sqlite-speedtest.c: fsbench's own SQLite speed test in the spirit of
 * speedtest1's "main" test set (docs/workloads/sqlite.md),
 * with the database file in the target's scratch directory.
 *
 * size=N scales like speedtest1's --size: the main tables get 500 x N rows
 * (size 1000 = 500,000).  Each numbered step is timed on its own, BEGIN and
 * COMMIT (and so the commit-time fsyncs) included, from a PRNG reset at the
 * step's start so every run does the same work; the result is the sum of
 * the steps, as speedtest1's TOTAL.  Each step's time is kept in the
 * sample's detail in speedtest1's line format.  journal_mode and
 * synchronous default to SQLite's own (DELETE, FULL).  SQLite's temporary
 * files go to the target too.
 */
#include "workload.h"

#include <sys/stat.h>
#include "../core/checked.h"
#include "sqlitedb.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct speed_params {
	int64_t size;
	int journal_mode;
	int synchronous;
};

#define P(f) offsetof(struct speed_params, f)
static const struct param_def speed_params[] = {
	{ "size", PT_INT, P(size), "100", 1, 100000, NULL,
	  "scale as speedtest1 --size: 500 x size rows in the main tables", PF_SCALE },
	SQLITEDB_MODE_PARAMS(struct speed_params),
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct metric_def speed_metrics[] = {
	{ "seconds", "Seconds", LOWER_IS_BETTER, "Seconds", 1 },
};

static const struct preset speed_presets[] = {
	{ "sqlite-speedtest-1000", "size=1000", NULL },
	{ NULL, NULL, NULL },
};

struct speed {
	sqlite3 *db;
	int64_t sz;		/* rows in the main tables */
	int64_t nsize;		/* size= */
	uint64_t rnd;		/* PRNG state, reset per step */
	char path[4200];
};

/* Deterministic PRNG (64-bit LCG), reset at each step's start. */
static uint32_t next_rand(struct speed *s)
{
	s->rnd = s->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(s->rnd >> 33);
}

/* The English name of n ("one thousand two hundred three"), speedtest1's
 * text column: realistic, variable-length, LIKE-searchable. */
static void number_name(unsigned n, char *out, size_t len)
{
	static const char *ones[] = { "zero", "one", "two", "three", "four", "five", "six",
				      "seven", "eight", "nine", "ten", "eleven", "twelve",
				      "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
				      "eighteen", "nineteen" };
	static const char *tens[] = { "", "", "twenty", "thirty", "forty", "fifty", "sixty",
				      "seventy", "eighty", "ninety" };
	static const struct { unsigned scale; const char *word; } big[] = {
		{ 1000000000, "billion" }, { 1000000, "million" }, { 1000, "thousand" },
	};
	size_t at = 0;

	out[0] = 0;
#define ADD(...) at += (size_t)snprintf(out + at, at < len ? len - at : 0, __VA_ARGS__)
	for (int i = 0; i < 3; i++) {
		if (n < big[i].scale)
			continue;
		ADD("%s", at ? " " : "");
		number_name(n / big[i].scale, out + at, len - at);
		at = strlen(out);
		ADD(" %s", big[i].word);
		n %= big[i].scale;
	}
	if (n >= 100) {
		ADD("%s%s hundred", at ? " " : "", ones[n / 100]);
		n %= 100;
	}
	if (n >= 20) {
		ADD("%s%s", at ? " " : "", tens[n / 10]);
		n %= 10;
	}
	if (n > 0 || at == 0)
		ADD("%s%s", at ? " " : "", ones[n]);
#undef ADD
}

/* Spread 1..n over an order that is neither sorted nor random. */
static int64_t swizzle(int64_t i, int64_t n)
{
	return (i * 7919) % n + 1;
}

static int run_sql(struct speed *s, const char *sql)
{
	return sqlitedb_exec(s->db, sql);
}

/* Repeat a prepared statement n times with up to three random bindings
 * drawn in [0, range); kind selects what is bound. */
enum bind { B_INT, B_RANGE, B_TEXT_RANGE, B_LIKE, B_ROW, B_NAME };

static int repeat(struct speed *s, const char *sql, int64_t n, enum bind kind, int64_t range)
{
	sqlite3_stmt *st;
	char a[128], b[160];
	int rc = 0;

	if (sqlitedb_prepare(s->db, sql, &st))
		return -1;
	for (int64_t i = 0; i < n && !rc; i++) {
		int64_t x = (int64_t)(next_rand(s) % (uint64_t)range);
		switch (kind) {
		case B_INT:
			sqlite3_bind_int64(st, 1, x + 1);
			break;
		case B_RANGE:
			sqlite3_bind_int64(st, 1, x);
			sqlite3_bind_int64(st, 2, x + range / 5000 + 10);
			break;
		case B_TEXT_RANGE:
			number_name((unsigned)x, a, sizeof(a));
			number_name((unsigned)(x + range / 5000 + 10), b, sizeof(b));
			sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
			break;
		case B_LIKE:
			number_name((unsigned)(x % 1000), a, sizeof(a));
			snprintf(b, sizeof(b), "%%%s%%", a);
			sqlite3_bind_text(st, 1, b, -1, SQLITE_TRANSIENT);
			break;
		case B_NAME:
			number_name((unsigned)(x + 1), a, sizeof(a));
			sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
			break;
		case B_ROW: {
			int64_t k = swizzle(i, n), v = next_rand(s) % 1000000;
			number_name((unsigned)v, a, sizeof(a));
			sqlite3_bind_int64(st, 1, k);
			sqlite3_bind_int64(st, 2, v);
			sqlite3_bind_text(st, 3, a, -1, SQLITE_TRANSIENT);
			break;
		}
		}
		rc = sqlitedb_run(s->db, st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* INSERT n rows (a, b, c) into table with a in `order`. */
static int fill(struct speed *s, const char *table, int64_t n, bool ordered, bool text_key)
{
	char sql[128], name[128], key[160];
	sqlite3_stmt *st;
	int rc = 0;

	snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES(?1,?2,?3)", table);
	if (sqlitedb_prepare(s->db, sql, &st))
		return -1;
	for (int64_t i = 1; i <= n && !rc; i++) {
		int64_t a = ordered ? i : swizzle(i, n), b = next_rand(s) % (uint64_t)(n * 2);
		number_name((unsigned)b, name, sizeof(name));
		if (text_key) {
			number_name((unsigned)a, key, sizeof(key));
			sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		} else {
			sqlite3_bind_int64(st, 1, a);
		}
		sqlite3_bind_int64(st, 2, b);
		sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
		rc = sqlitedb_run(s->db, st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int in_txn(struct speed *s, int (*body)(struct speed *))
{
	if (run_sql(s, "BEGIN"))
		return -1;
	if (body(s)) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return run_sql(s, "COMMIT");
}

#define N5 (s->sz / 5 > 0 ? s->sz / 5 : 1)
#define NPK (700 * s->nsize)

static int b100(struct speed *s)
{
	return run_sql(s, "CREATE TABLE z1(a INTEGER, b INTEGER, c TEXT)") ||
	       fill(s, "z1", s->sz, false, false);
}
static int b110(struct speed *s)
{
	return run_sql(s, "CREATE TABLE z2(a INTEGER PRIMARY KEY, b INTEGER, c TEXT)") ||
	       fill(s, "z2", s->sz, true, false);
}
static int b120(struct speed *s)
{
	return run_sql(s, "CREATE TABLE t3(a INTEGER, b INTEGER, c TEXT); "
			  "CREATE INDEX t3a ON t3(a)") ||
	       fill(s, "t3", s->sz, false, false);
}
static int b130(struct speed *s)
{
	return repeat(s, "SELECT count(*), avg(b), sum(length(c)) FROM z1 WHERE b BETWEEN ?1 AND ?2",
		      25, B_RANGE, s->sz * 2);
}
static int b140(struct speed *s)
{
	return repeat(s, "SELECT count(*), avg(b), sum(length(c)) FROM z1 WHERE c LIKE ?1", 10,
		      B_LIKE, 1000);
}
static int b142(struct speed *s)
{
	return repeat(s, "SELECT a, b, c FROM z1 WHERE c LIKE ?1 ORDER BY a", 10, B_LIKE, 1000);
}
static int b145(struct speed *s)
{
	return repeat(s, "SELECT a, b, c FROM z1 WHERE c LIKE ?1 ORDER BY a LIMIT 10", 10, B_LIKE,
		      1000);
}
static int b150(struct speed *s)
{
	return run_sql(s, "CREATE UNIQUE INDEX z1a ON z1(a); CREATE INDEX z1b ON z1(b); "
			  "CREATE INDEX z1c ON z1(c); CREATE INDEX z2b ON z2(b); "
			  "CREATE INDEX z2c ON z2(c)");
}
static int b160(struct speed *s)
{
	return repeat(s, "SELECT count(*), avg(b), sum(length(c)) FROM z1 WHERE b BETWEEN ?1 AND ?2",
		      N5, B_RANGE, s->sz * 2);
}
static int b161(struct speed *s)
{
	return repeat(s, "SELECT count(*), avg(b), sum(length(c)) FROM z2 WHERE a BETWEEN ?1 AND ?2",
		      N5, B_RANGE, s->sz);
}
static int b170(struct speed *s)
{
	return repeat(s, "SELECT count(*), avg(b), sum(length(c)) FROM z1 WHERE c BETWEEN ?1 AND ?2",
		      N5, B_TEXT_RANGE, s->sz);
}
static int b180(struct speed *s)
{
	return run_sql(s, "CREATE TABLE t4(a INTEGER, b INTEGER, c TEXT); "
			  "CREATE INDEX t4a ON t4(a); CREATE INDEX t4b ON t4(b); "
			  "CREATE INDEX t4c ON t4(c); INSERT INTO t4 SELECT * FROM z1");
}
static int b190(struct speed *s)	/* autocommit: each statement commits */
{
	return run_sql(s, "DELETE FROM z2") || run_sql(s, "INSERT INTO z2 SELECT * FROM z1");
}
static int b200(struct speed *s)
{
	return run_sql(s, "VACUUM");
}
static int b210(struct speed *s)
{
	return run_sql(s, "ALTER TABLE z2 ADD COLUMN d INT DEFAULT 123") ||
	       run_sql(s, "SELECT sum(d) FROM z2");
}
static int b230(struct speed *s)
{
	return repeat(s, "UPDATE z2 SET d=b*2 WHERE b BETWEEN ?1 AND ?2", N5, B_RANGE, s->sz * 2);
}
static int b240(struct speed *s)
{
	return repeat(s, "UPDATE z2 SET d=b*3 WHERE a=?1", s->sz, B_INT, s->sz);
}
static int b250(struct speed *s)
{
	return run_sql(s, "UPDATE z2 SET d=d+b+1");
}
static int b260(struct speed *s)
{
	return run_sql(s, "SELECT sum(d) FROM z2");
}
static int b270(struct speed *s)
{
	return repeat(s, "DELETE FROM z2 WHERE b BETWEEN ?1 AND ?2", N5, B_RANGE, s->sz * 2);
}
static int b280(struct speed *s)
{
	return repeat(s, "DELETE FROM t3 WHERE a=?1", s->sz, B_INT, s->sz);
}
static int b290(struct speed *s)
{
	return run_sql(s, "REPLACE INTO z2(a,b,c) SELECT a,b,c FROM z1; "
			  "REPLACE INTO t3(a,b,c) SELECT a,b,c FROM z1");
}
static int b300(struct speed *s)
{
	return run_sql(s, "DELETE FROM z2 WHERE a%2=1; "
			  "INSERT INTO z2(a,b,c) SELECT a,b,c FROM z1 WHERE a%2=1");
}
static int b310(struct speed *s)
{
	return repeat(s, "SELECT t4.c, z1.c, z2.c, t3.c FROM t4, z1, z2, t3 "
			 "WHERE t4.a BETWEEN ?1 AND ?2 AND z1.a=t4.a AND z2.a=z1.a AND t3.a=z2.a",
		      N5, B_RANGE, s->sz);
}
static int b320(struct speed *s)
{
	return run_sql(s, "SELECT count(*) FROM z1 WHERE b IN (SELECT b FROM z2 WHERE a%10=0)");
}
static int b400(struct speed *s)
{
	return run_sql(s, "CREATE TABLE t5(a INTEGER PRIMARY KEY, b INTEGER, c TEXT)") ||
	       repeat(s, "REPLACE INTO t5 VALUES(?1,?2,?3)", NPK, B_ROW, 1);
}
static int b410(struct speed *s)	/* no explicit transaction, as speedtest1 */
{
	return repeat(s, "SELECT b, c FROM t5 WHERE a=?1", NPK, B_INT, NPK);
}
static int b500(struct speed *s)
{
	return run_sql(s, "CREATE TABLE t6(a TEXT PRIMARY KEY, b INTEGER, c TEXT) WITHOUT ROWID") ||
	       fill(s, "t6", NPK, false, true);
}
static int b510(struct speed *s)
{
	return repeat(s, "SELECT b, c FROM t6 WHERE a=?1", NPK, B_NAME, NPK);
}
static int b520(struct speed *s)
{
	return run_sql(s, "SELECT DISTINCT b FROM z1 ORDER BY b LIMIT 5");
}
static int b980(struct speed *s)
{
	return run_sql(s, "PRAGMA integrity_check");
}
static int b990(struct speed *s)
{
	return run_sql(s, "ANALYZE");
}

struct step {
	int id;
	const char *name;
	int (*body)(struct speed *);
	bool txn;
};

static const struct step steps[] = {
	{ 100, "%lld INSERTs into table with no index", b100, true },
	{ 110, "%lld ordered INSERTS with one index/PK", b110, true },
	{ 120, "%lld unordered INSERTS with one index", b120, true },
	{ 130, "25 SELECTS, numeric BETWEEN, unindexed", b130, true },
	{ 140, "10 SELECTS, LIKE, unindexed", b140, true },
	{ 142, "10 SELECTS w/ORDER BY, unindexed", b142, true },
	{ 145, "10 SELECTS w/ORDER BY and LIMIT, unindexed", b145, true },
	{ 150, "CREATE INDEX five times", b150, true },
	{ 160, "%lld SELECTS, numeric BETWEEN, indexed", b160, true },
	{ 161, "%lld SELECTS, numeric BETWEEN, PK", b161, true },
	{ 170, "%lld SELECTS, text BETWEEN, indexed", b170, true },
	{ 180, "INSERTS with three indexes", b180, true },
	{ 190, "DELETE and REFILL one table", b190, false },
	{ 200, "VACUUM", b200, false },
	{ 210, "ALTER TABLE ADD COLUMN, and query", b210, false },
	{ 230, "%lld UPDATES, numeric BETWEEN, indexed", b230, true },
	{ 240, "%lld UPDATES of individual rows", b240, true },
	{ 250, "One big UPDATE of the whole table", b250, true },
	{ 260, "Query added column after filling", b260, false },
	{ 270, "%lld DELETEs, numeric BETWEEN, indexed", b270, true },
	{ 280, "%lld DELETEs of individual rows", b280, true },
	{ 290, "Refill two tables using REPLACE", b290, true },
	{ 300, "Refill a table using (b&1)==(a&1)", b300, true },
	{ 310, "%lld four-ways joins", b310, true },
	{ 320, "subquery in result set", b320, true },
	{ 400, "%lld REPLACE ops on an IPK", b400, true },
	{ 410, "%lld SELECTS on an IPK", b410, false },
	{ 500, "%lld REPLACE on TEXT PK", b500, true },
	{ 510, "%lld SELECTS on a TEXT PK", b510, false },
	{ 520, "SELECT DISTINCT", b520, true },
	{ 980, "PRAGMA integrity_check", b980, false },
	{ 990, "ANALYZE", b990, false },
};
#define NSTEPS (int)(sizeof(steps) / sizeof(steps[0]))

static int64_t step_count(const struct speed *s, const struct step *st)
{
	if (st->id >= 400 && st->id < 520)
		return 700 * s->nsize;
	if (st->id == 100 || st->id == 110 || st->id == 120 || st->id == 240 || st->id == 280)
		return s->sz;
	return s->sz / 5 > 0 ? s->sz / 5 : 1;
}

static int speed_prepare(struct wl_ctx *ctx)
{
	struct speed *s = calloc(1, sizeof(*s));

	if (!s)
		return error_set("out of memory");
	snprintf(s->path, sizeof(s->path), "%s/speedtest1.db", ctx->dir);
	ctx->state = s;
	return 0;
}

static int speed_run(struct wl_ctx *ctx, double *v)
{
	const struct speed_params *p = ctx->params;
	struct speed *s = ctx->state;
	uint64_t total = 0;
	size_t at = 0;
	int rc = 0;

	sqlitedb_remove(s->path);	/* speedtest1 deletes the file first */
	s->nsize = p->size;
	s->sz = 500 * p->size;
	if (sqlitedb_open(s->path, p->journal_mode, p->synchronous, &s->db))
		return -1;
	for (int i = 0; i < NSTEPS && !rc; i++) {
		const struct step *st = &steps[i];
		char name[96];
		uint64_t t0, ns;

		if (workload_stopped()) {
			rc = error_set("interrupted");
			break;
		}
		s->rnd = 0x5eed0000ULL + (uint64_t)st->id;
		t0 = now_ns();
		rc = st->txn ? in_txn(s, st->body) : st->body(s);
		ns = now_ns() - t0;
		total += ns;
		snprintf(name, sizeof(name), st->name, (long long)step_count(s, st));
		if (ctx->detail && at < DETAIL_MAX)
			at += (size_t)snprintf(ctx->detail + at, DETAIL_MAX - at, "%4d - %-.60s%.*s %8.3fs\n",
					       st->id, name, (int)(60 - (strlen(name) < 60 ? strlen(name) : 60)),
					       "............................................................",
					       (double)ns / 1e9);
	}
	sqlite3_close(s->db);
	s->db = NULL;
	/* speedtest1's mix reads and rewrites its own tables: the database
	 * it leaves is the application's data; what it read is not counted. */
	struct stat dbst;
	if (!rc && !stat(s->path, &dbst))
		ctx->bytes_written = (int64_t)dbst.st_size;
	if (!rc)
		workload_data_complete(ctx);	/* every step's clock has stopped */
	sqlitedb_remove(s->path);
	if (rc)
		return -1;
	if (ctx->detail && at < DETAIL_MAX)
		snprintf(ctx->detail + at, DETAIL_MAX - at, "       TOTAL%.*s %8.3fs\n", 55,
			 "............................................................",
			 (double)total / 1e9);
	v[0] = (double)total / 1e9;
	return 0;
}

static void speed_cleanup(struct wl_ctx *ctx)
{
	struct speed *s = ctx->state;

	if (s) {
		sqlitedb_remove(s->path);
		free(s);
	}
	ctx->state = NULL;
}

static uint64_t speed_space(const void *p)
{
	const struct speed_params *sp = p;

	/* Measured: the database peaks near 360 KiB per unit of size (36 MB
	 * at size 100); twice that leaves room for VACUUM and journals. */
	return sat_add(sat_mul(sat_u(sp->size), 768 << 10), 32 << 20);
}

static void speed_describe(const void *p, char *buf, size_t len)
{
	const struct speed_params *sp = p;
	char size[32], modes[96];

	/* PTS writes "Size 1,000". */
	if (sp->size >= 1000)
		snprintf(size, sizeof(size), "%lld,%03lld", (long long)sp->size / 1000,
			 (long long)sp->size % 1000);
	else
		snprintf(size, sizeof(size), "%lld", (long long)sp->size);
	sqlitedb_modes_text(sp->journal_mode, sp->synchronous, modes, sizeof(modes));
	snprintf(buf, len, "Timed Time - Size %s - %s", size, modes);
}

const struct workload wl_sqlite_speedtest = {
	.name = "sqlite-speedtest",
	.summary = "SQLite speed test (speedtest1's main set), database on the target",
	.title = "SQLite Speedtest (fsbench)",
	.params = speed_params,
	.params_size = sizeof(struct speed_params),
	.metrics = speed_metrics,
	.nmetrics = 1,
	.presets = speed_presets,
	.space_needed = speed_space,
	.describe = speed_describe,
	.prepare = speed_prepare,
	.run = speed_run,
	.cleanup = speed_cleanup,
};
