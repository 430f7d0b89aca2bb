/*
 * sqlite-speedtest.c: speedtest1's "main" test set (SQLite's
 * test/speedtest1.c, docs/workloads/sqlite.md), with the database file in
 * the target's scratch directory.
 *
 * Statement by statement what speedtest1 runs: the same tables, SQL,
 * bindings, generator (reset at each step), key permutation and English
 * number names, each row's columns read as text as speedtest1_run() reads
 * them.  size=N scales as --size: 500 x N rows in the z tables, 700 x N in
 * t5 and t6.  Each numbered step is timed on its own, its BEGIN and COMMIT
 * (and so the commit-time fsyncs) included; the result is the sum of the
 * steps, as speedtest1's TOTAL, and each step's time is kept in the
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
	sqlite3_stmt *st;	/* the step's prepared statement */
	int64_t nsize;		/* size= */
	int64_t sz;		/* rows of the step's table: 500 x size, then 700 x size */
	unsigned maxb;		/* all-ones bound of the key permutation */
	uint32_t x, y;		/* the generator, reset at each step */
	int rc;			/* the step's first error */
	char num[2000];		/* a number's English name */
	char result[3000];	/* the columns of the last row, as speedtest1 keeps them */
	char path[4200];
};

/* speedtest1's generator: a Galois LFSR xor an LCG, both 32-bit, from the
 * same seeds at every step, so every run does the same work. */
static uint32_t st_random(struct speed *s)
{
	s->x = (s->x >> 1) ^ ((1 + ~(s->x & 1)) & 0xd0000001u);
	s->y = s->y * 1103515245u + 12345u;
	return s->x ^ s->y;
}

/* A permutation of 1..limit for limit = 2^k - 1: the low k bits of in,
 * reversed.  Keys arrive neither sorted nor random. */
static unsigned swizzle(unsigned in, unsigned limit)
{
	unsigned out = 0;

	for (; limit; limit >>= 1, in >>= 1)
		out = (out << 1) | (in & 1);
	return out;
}

static unsigned all_ones(unsigned limit)
{
	unsigned m = 1;

	while (m < limit)
		m = (m << 1) + 1;
	return m;
}

/* Newton's integer square root, ten steps at most (step 320's bound). */
static int isqrt_est(int v)
{
	int r = v / 2;

	for (int k = 0; r > 0 && k < 10; k++) {
		int next = (r + v / r) / 2;
		if (next == r)
			break;
		r = next;
	}
	return r;
}

/* Append " word" (no space when first) at out + *at with sqlite3_snprintf,
 * bounded by len. */
static void add_word(char *out, size_t len, size_t *at, const char *word)
{
	if (*at && *at + 1 < len)
		out[(*at)++] = ' ';
	if (*at < len) {
		sqlite3_snprintf((int)(len - *at), out + *at, "%s", word);
		*at += strlen(out + *at);
	}
}

/* The English name of n ("one hundred twenty three"), the text column:
 * variable length, LIKE-searchable.  Returns its length.  It is made for
 * every inserted row, so its cost is part of the insert steps: it formats
 * with sqlite3_snprintf, word by word, as speedtest1 does (glibc's
 * snprintf made those steps 1.1-1.25x slower, plain copies 0.85x). */
static int number_name(unsigned n, char *out, size_t len)
{
	static const char *ones[] = { "zero", "one", "two", "three", "four", "five", "six",
				      "seven", "eight", "nine", "ten", "eleven", "twelve",
				      "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
				      "eighteen", "nineteen" };
	static const char *tens[] = { "", "ten", "twenty", "thirty", "forty", "fifty", "sixty",
				      "seventy", "eighty", "ninety" };
	static const struct { unsigned scale; const char *word; } big[] = {
		{ 1000000000, "billion" }, { 1000000, "million" }, { 1000, "thousand" },
	};
	size_t at = 0;

	if (!len)
		return 0;
	out[0] = 0;
	for (int i = 0; i < 3; i++) {
		if (n < big[i].scale)
			continue;
		if (at && at + 1 < len)
			out[at++] = ' ';
		at += (size_t)number_name(n / big[i].scale, out + at, len - at);
		if (at < len) {
			sqlite3_snprintf((int)(len - at), out + at, " %s", big[i].word);
			at += strlen(out + at);
		}
		n %= big[i].scale;
	}
	if (n >= 100) {
		if (at && at + 1 < len)
			out[at++] = ' ';
		if (at < len) {
			sqlite3_snprintf((int)(len - at), out + at, "%s hundred", ones[n / 100]);
			at += strlen(out + at);
		}
		n %= 100;
	}
	if (n >= 20) {
		add_word(out, len, &at, tens[n / 10]);
		n %= 10;
	}
	if (n > 0 || at == 0)
		add_word(out, len, &at, ones[n]);
	return (int)at;
}

/* ---- what a step does, in speedtest1's calls --------------------------- */

/* speedtest1_exec(): one statement or a script, rows not read. */
static void exec(struct speed *s, const char *sql)
{
	if (!s->rc && sqlitedb_exec(s->db, sql))
		s->rc = -1;
}

/* speedtest1_prepare(): the step's one statement. */
static void prepare(struct speed *s, const char *sql)
{
	if (s->rc)
		return;
	sqlite3_finalize(s->st);
	s->st = NULL;
	if (sqlitedb_prepare(s->db, sql, &s->st))
		s->rc = -1;
}

/* speedtest1_run(): step to the end, every column of every row read as
 * text and kept in a bounded buffer (that conversion is part of the work);
 * then reset. */
static void run(struct speed *s)
{
	int rc;

	if (s->rc)
		return;
	size_t used = 0;
	while ((rc = sqlite3_step(s->st)) == SQLITE_ROW) {
		int ncol = sqlite3_column_count(s->st);
		for (int i = 0; i < ncol; i++) {
			const char *z = (const char *)sqlite3_column_text(s->st, i);
			if (!z)
				z = "nil";
			size_t n = strlen(z);
			if (used + n < sizeof(s->result) - 2) {
				if (used)
					s->result[used++] = ' ';
				memcpy(s->result + used, z, n + 1);
				used += n;
			}
		}
	}
	sqlite3_reset(s->st);
	if (rc != SQLITE_DONE)
		s->rc = sqlitedb_error(s->db, sqlite3_sql(s->st));
}

static void bind_int(struct speed *s, int k, int64_t v)
{
	if (!s->rc)
		sqlite3_bind_int64(s->st, k, v);
}

static void bind_text(struct speed *s, int k, const char *z, int n)
{
	if (!s->rc)
		sqlite3_bind_text(s->st, k, z, n, SQLITE_STATIC);
}

/* What speedtest1 binds with sqlite3_bind_int: the value as a C int. */
#define I32(v) ((int64_t)(int)(v))

/* Steps 100-120: n rows, keys from the permutation, each named in English. */
static void fill(struct speed *s, const char *create, const char *insert, int key_col)
{
	exec(s, "BEGIN");
	exec(s, create);
	prepare(s, insert);
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		unsigned x1 = swizzle((unsigned)i, s->maxb);
		number_name(x1, s->num, sizeof(s->num));
		bind_int(s, key_col, (int64_t)x1);
		bind_int(s, key_col == 1 ? 2 : 1, I32(i));
		bind_text(s, 3, s->num, -1);
		run(s);
	}
	exec(s, "COMMIT");
}

static void s100(struct speed *s)
{
	fill(s, "CREATE TABLE z1(a INTEGER, b INTEGER, c TEXT)", "INSERT INTO z1 VALUES(?1,?2,?3)", 1);
}

static void s110(struct speed *s)
{
	fill(s, "CREATE TABLE z2(a INTEGER UNIQUE, b INTEGER, c TEXT)",
	     "INSERT INTO z2 VALUES(?1,?2,?3)", 2);
}

static void s120(struct speed *s)
{
	fill(s, "CREATE TABLE t3(a INTEGER UNIQUE, b INTEGER, c TEXT)",
	     "INSERT INTO t3 VALUES(?1,?2,?3)", 1);
}

/* n statements over a numeric range: [x1, x1 + sz/5000 + rand%10]. */
static void ranges(struct speed *s, const char *sql, int64_t n, unsigned base)
{
	exec(s, "BEGIN");
	prepare(s, sql);
	for (int64_t i = 1; i <= n && !s->rc; i++) {
		unsigned x1 = st_random(s) % s->maxb + base;
		unsigned x2 = st_random(s) % 10 + (unsigned)(s->sz / 5000) + x1;
		bind_int(s, 1, I32(x1));
		bind_int(s, 2, I32(x2));
		run(s);
	}
	exec(s, "COMMIT");
}

static void s130(struct speed *s)
{
	ranges(s, "SELECT count(*), avg(b), sum(length(c)), group_concat(c) FROM z1 "
		  "WHERE b BETWEEN ?1 AND ?2", 25, 0);
}

/* Steps 140-145: ten LIKE scans.  speedtest1 writes the name of i after a
 * '%' and then puts the closing '%' over the name's last letter: "%on%". */
static void likes(struct speed *s, const char *sql)
{
	exec(s, "BEGIN");
	prepare(s, sql);
	for (int i = 1; i <= 10 && !s->rc; i++) {
		st_random(s);	/* drawn and unused, as speedtest1 does */
		s->num[0] = '%';
		int len = number_name((unsigned)i, s->num + 1, sizeof(s->num) - 2);
		s->num[len] = '%';
		s->num[len + 1] = 0;
		bind_text(s, 1, s->num, len + 1);
		run(s);
	}
	exec(s, "COMMIT");
}

static void s140(struct speed *s)
{
	likes(s, "SELECT count(*), avg(b), sum(length(c)), group_concat(c) FROM z1 WHERE c LIKE ?1");
}

static void s142(struct speed *s)
{
	likes(s, "SELECT a, b, c FROM z1 WHERE c LIKE ?1 ORDER BY a");
}

static void s145(struct speed *s)
{
	likes(s, "SELECT a, b, c FROM z1 WHERE c LIKE ?1 ORDER BY a LIMIT 10");
}

static void s150(struct speed *s)
{
	exec(s, "BEGIN");
	exec(s, "CREATE UNIQUE INDEX t1b ON z1(b)");
	exec(s, "CREATE INDEX t1c ON z1(c)");
	exec(s, "CREATE UNIQUE INDEX t2b ON z2(b)");
	exec(s, "CREATE INDEX t2c ON z2(c DESC)");
	exec(s, "CREATE INDEX t3bc ON t3(b,c)");
	exec(s, "COMMIT");
}

static void s160(struct speed *s)
{
	ranges(s, "SELECT count(*), avg(b), sum(length(c)), group_concat(a) FROM z1 "
		  "WHERE b BETWEEN ?1 AND ?2", s->sz / 5, 0);
}

static void s161(struct speed *s)
{
	ranges(s, "SELECT count(*), avg(b), sum(length(c)), group_concat(a) FROM z2 "
		  "WHERE a BETWEEN ?1 AND ?2", s->sz / 5, 0);
}

static void s170(struct speed *s)
{
	exec(s, "BEGIN");
	prepare(s, "SELECT count(*), avg(b), sum(length(c)), group_concat(a) FROM z1 "
		   "WHERE c BETWEEN ?1 AND (?1||'~')");
	for (int64_t i = 1; i <= s->sz / 5 && !s->rc; i++) {
		int len = number_name(swizzle((unsigned)i, s->maxb), s->num, sizeof(s->num) - 1);
		bind_text(s, 1, s->num, len);
		run(s);
	}
	exec(s, "COMMIT");
}

static void s180(struct speed *s)
{
	exec(s, "BEGIN");
	exec(s, "CREATE TABLE t4(a INTEGER UNIQUE, b INTEGER, c TEXT)");
	exec(s, "CREATE INDEX t4b ON t4(b)");
	exec(s, "CREATE INDEX t4c ON t4(c)");
	exec(s, "INSERT INTO t4 SELECT * FROM z1");
	exec(s, "COMMIT");
}

static void s190(struct speed *s)	/* autocommit: each statement commits */
{
	exec(s, "DELETE FROM z2");
	exec(s, "INSERT INTO z2 SELECT * FROM z1");
}

static void s200(struct speed *s)
{
	exec(s, "VACUUM");
}

static void s210(struct speed *s)
{
	exec(s, "ALTER TABLE z2 ADD COLUMN d INT DEFAULT 123");
	exec(s, "SELECT sum(d) FROM z2");
}

static void s230(struct speed *s)
{
	ranges(s, "UPDATE z2 SET d=b*2 WHERE b BETWEEN ?1 AND ?2", s->sz / 5, 0);
}

/* n statements on one random row each, a in 1..sz. */
static void rows(struct speed *s, const char *sql)
{
	exec(s, "BEGIN");
	prepare(s, sql);
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		bind_int(s, 1, I32(st_random(s) % (unsigned)s->sz + 1));
		run(s);
	}
	exec(s, "COMMIT");
}

static void s240(struct speed *s)
{
	rows(s, "UPDATE z2 SET d=b*3 WHERE a=?1");
}

static void s250(struct speed *s)
{
	exec(s, "UPDATE z2 SET d=b*4");
}

static void s260(struct speed *s)
{
	exec(s, "SELECT sum(d) FROM z2");
}

static void s270(struct speed *s)
{
	ranges(s, "DELETE FROM z2 WHERE b BETWEEN ?1 AND ?2", s->sz / 5, 1);
}

static void s280(struct speed *s)
{
	rows(s, "DELETE FROM t3 WHERE a=?1");
}

static void s290(struct speed *s)
{
	exec(s, "REPLACE INTO z2(a,b,c) SELECT a,b,c FROM z1");
	exec(s, "REPLACE INTO t3(a,b,c) SELECT a,b,c FROM z1");
}

static void s300(struct speed *s)
{
	exec(s, "DELETE FROM z2");
	exec(s, "INSERT INTO z2(a,b,c) SELECT a,b,c FROM z1 WHERE (b&1)==(a&1)");
	exec(s, "INSERT INTO z2(a,b,c) SELECT a,b,c FROM z1 WHERE (b&1)<>(a&1)");
}

static void s310(struct speed *s)
{
	exec(s, "BEGIN");
	prepare(s, "SELECT z1.c FROM z1, z2, t3, t4 WHERE t4.a BETWEEN ?1 AND ?2 "
		   "AND t3.a=t4.b AND z2.a=t3.b AND z1.c=z2.c");
	for (int64_t i = 1; i <= s->sz / 5 && !s->rc; i++) {
		unsigned x1 = st_random(s) % (unsigned)s->sz + 1;
		unsigned x2 = st_random(s) % 10 + x1 + 4;
		bind_int(s, 1, I32(x1));
		bind_int(s, 2, I32(x2));
		run(s);
	}
	exec(s, "COMMIT");
}

static void s320(struct speed *s)	/* one statement, no transaction */
{
	prepare(s, "SELECT sum(a), max(c), avg((SELECT a FROM z2 WHERE 5+z2.b=z1.b) AND rowid<?1), "
		   "max(c) FROM z1 WHERE rowid<?1");
	bind_int(s, 1, I32(isqrt_est((int)s->nsize) * 50));
	run(s);
}

static void s400(struct speed *s)
{
	exec(s, "BEGIN");
	exec(s, "CREATE TABLE t5(a INTEGER PRIMARY KEY, b)");
	prepare(s, "REPLACE INTO t5 VALUES(?1,?2)");
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		number_name((unsigned)i, s->num, sizeof(s->num));
		bind_int(s, 1, (int64_t)swizzle((unsigned)i, s->maxb));
		bind_text(s, 2, s->num, -1);
		run(s);
	}
	exec(s, "COMMIT");
}

static void s410(struct speed *s)	/* no explicit transaction, as speedtest1 */
{
	prepare(s, "SELECT b FROM t5 WHERE a=?1");
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		bind_int(s, 1, (int64_t)swizzle((unsigned)i, s->maxb));
		run(s);
	}
}

static void s500(struct speed *s)
{
	exec(s, "BEGIN");
	exec(s, "CREATE TABLE t6(a TEXT PRIMARY KEY, b) WITHOUT ROWID");
	prepare(s, "REPLACE INTO t6 VALUES(?1,?2)");
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		number_name(swizzle((unsigned)i, s->maxb), s->num, sizeof(s->num));
		bind_int(s, 2, I32(i));
		bind_text(s, 1, s->num, -1);
		run(s);
	}
	exec(s, "COMMIT");
}

static void s510(struct speed *s)	/* no explicit transaction */
{
	prepare(s, "SELECT b FROM t6 WHERE a=?1");
	for (int64_t i = 1; i <= s->sz && !s->rc; i++) {
		number_name(swizzle((unsigned)i, s->maxb), s->num, sizeof(s->num));
		bind_text(s, 1, s->num, -1);
		run(s);
	}
}

static void s520(struct speed *s)
{
	exec(s, "SELECT DISTINCT b FROM t5");
	exec(s, "SELECT DISTINCT b FROM t6");
}

static void s980(struct speed *s)
{
	exec(s, "PRAGMA integrity_check");
}

static void s990(struct speed *s)
{
	exec(s, "ANALYZE");
}

/* The main test set, in speedtest1's order.  rows: 5 = 500 x size (the
 * z tables), 7 = 700 x size (t5, t6), from that step on; shown: the count
 * the title's %lld prints (0: none; 1: sz; 5: sz/5). */
struct step {
	int id;
	const char *name;
	void (*body)(struct speed *);
	int rows, shown;
};

static const struct step steps[] = {
	{ 100, "%lld INSERTs into table with no index", s100, 5, 1 },
	{ 110, "%lld ordered INSERTS with one index/PK", s110, 0, 1 },
	{ 120, "%lld unordered INSERTS with one index/PK", s120, 0, 1 },
	{ 130, "25 SELECTS, numeric BETWEEN, unindexed", s130, 0, 0 },
	{ 140, "10 SELECTS, LIKE, unindexed", s140, 0, 0 },
	{ 142, "10 SELECTS w/ORDER BY, unindexed", s142, 0, 0 },
	{ 145, "10 SELECTS w/ORDER BY and LIMIT, unindexed", s145, 0, 0 },
	{ 150, "CREATE INDEX five times", s150, 0, 0 },
	{ 160, "%lld SELECTS, numeric BETWEEN, indexed", s160, 0, 5 },
	{ 161, "%lld SELECTS, numeric BETWEEN, PK", s161, 0, 5 },
	{ 170, "%lld SELECTS, text BETWEEN, indexed", s170, 0, 5 },
	{ 180, "%lld INSERTS with three indexes", s180, 0, 1 },
	{ 190, "DELETE and REFILL one table", s190, 0, 0 },
	{ 200, "VACUUM", s200, 0, 0 },
	{ 210, "ALTER TABLE ADD COLUMN, and query", s210, 0, 0 },
	{ 230, "%lld UPDATES, numeric BETWEEN, indexed", s230, 0, 5 },
	{ 240, "%lld UPDATES of individual rows", s240, 0, 1 },
	{ 250, "One big UPDATE of the whole %lld-row table", s250, 0, 1 },
	{ 260, "Query added column after filling", s260, 0, 0 },
	{ 270, "%lld DELETEs, numeric BETWEEN, indexed", s270, 0, 5 },
	{ 280, "%lld DELETEs of individual rows", s280, 0, 1 },
	{ 290, "Refill two %lld-row tables using REPLACE", s290, 0, 1 },
	{ 300, "Refill a %lld-row table using (b&1)==(a&1)", s300, 0, 1 },
	{ 310, "%lld four-ways joins", s310, 0, 5 },
	{ 320, "subquery in result set", s320, 0, 0 },
	{ 400, "%lld REPLACE ops on an IPK", s400, 7, 1 },
	{ 410, "%lld SELECTS on an IPK", s410, 0, 1 },
	{ 500, "%lld REPLACE on TEXT PK", s500, 7, 1 },
	{ 510, "%lld SELECTS on a TEXT PK", s510, 0, 1 },
	{ 520, "%lld SELECT DISTINCT", s520, 0, 1 },
	{ 980, "PRAGMA integrity_check", s980, 0, 0 },
	{ 990, "ANALYZE", s990, 0, 0 },
};
#define NSTEPS (int)(sizeof(steps) / sizeof(steps[0]))

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
	s->rc = 0;
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
		if (st->rows) {
			s->sz = st->rows * 100 * p->size;
			s->maxb = all_ones((unsigned)(st->rows == 5 ? s->sz : s->sz / 3));
		}
		s->x = 0xad131d0b;
		s->y = 0x44f9eac8;
		t0 = now_ns();
		st->body(s);
		ns = now_ns() - t0;
		sqlite3_finalize(s->st);	/* after the clock, as end_test() */
		s->st = NULL;
		rc = s->rc;
		total += ns;
		snprintf(name, sizeof(name), st->name,
			 (long long)(st->shown == 5 ? s->sz / 5 : s->sz));
		if (ctx->detail && at < DETAIL_MAX)
			at += (size_t)snprintf(ctx->detail + at, DETAIL_MAX - at, "%4d - %-.60s%.*s %8.3fs\n",
					       st->id, name, (int)(60 - (strlen(name) < 60 ? strlen(name) : 60)),
					       "............................................................",
					       (double)ns / 1e9);
	}
	if (rc)	/* a failed step may leave its transaction open */
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
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
