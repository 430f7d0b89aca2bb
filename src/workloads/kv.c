/*
 * kv.c: LevelDB through its C API with db_bench's semantics
 * (docs/workloads/kv.md), the database in the target's
 * scratch directory (PTS's db_bench wrote to /tmp instead).
 *
 * Keys are "%016d"; values 100 bytes sliced in turn from a 1 MiB pool of
 * half-compressible pieces (50 random printable characters written
 * twice), built from Park-Miller Random(301) exactly as db_bench builds
 * it: by each writing thread, inside its clock (db_bench's DoWrite makes
 * its RandomGenerator there).  Each write is one WriteBatch, cleared and
 * reused, as db_bench writes.  Each thread draws keys from its own
 * Random(1000 + thread).  The DB
 * is destroyed before every run (untimed), as db_bench does at start,
 * with db_bench's options: 4 MiB write buffer, 2 MiB files, 4 KiB blocks,
 * Snappy, 1000 open files.  fillsync does num/1000 synced puts per thread;
 * overwrite and fillrandom num random puts, fillseq num in order;
 * readrandom num random gets from a DB that fillseq filled, untimed.
 * micros/op = sum of the threads' times / operations; MB/s = operations x
 * (16 + value_size) bytes / 2^20 / (last finish - first start).
 */
#include "workload.h"
#include "../core/checked.h"
#include "kv.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <leveldb/c.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum kv_bench { KV_FILLSYNC, KV_OVERWRITE, KV_FILLSEQ, KV_FILLRANDOM, KV_READRANDOM };

struct kv_params {
	int benchmark;
	int64_t num;
	int64_t threads;
	int64_t value_size;
	bool use_existing_db;
};

#define P(f) offsetof(struct kv_params, f)
static const struct param_def kv_params[] = {
	{ "benchmark", PT_ENUM, P(benchmark), "fillsync", 0, 0,
	  "fillsync|overwrite|fillseq|fillrandom|readrandom", "db_bench --benchmarks" },
	{ "num", PT_INT, P(num), "1000000", 1, 1000000000, NULL,
	  "db_bench --num: key space, and operations per thread (fillsync: num/1000)", PF_SCALE },
	{ "threads", PT_INT, P(threads), "1", 0, 256, NULL,
	  "db_bench --threads; 0 = one per CPU (what PTS passes)" },
	{ "value_size", PT_INT, P(value_size), "100", 1, 1 << 20, NULL, "db_bench --value_size" },
	{ "use_existing_db", PT_BOOL, P(use_existing_db), "0", 0, 0, NULL,
	  "keep the DB between runs instead of destroying it first" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct metric_def kv_metrics[] = {
	{ "micros_per_op", "Microseconds Per Op", LOWER_IS_BETTER, "us/op", 1 },
	{ "mb_per_sec", "MB/s", HIGHER_IS_BETTER, "MB/s", 0 },
};

/* Seed 000's charts; PTS passes threads = the CPU count. */
static const struct preset kv_presets[] = {
	{ "leveldb-overwrite", "benchmark=overwrite,num=100000,threads=0", NULL },
	{ "leveldb-fillsync", "benchmark=fillsync,num=1000000,threads=0", NULL },
	{ NULL, NULL, NULL },
};

/* --- db_bench's value generator -------------------------------------- */

struct pm_random {
	uint32_t seed;
};

static void pm_init(struct pm_random *r, uint32_t s)
{
	r->seed = s & 0x7fffffffu;
	if (r->seed == 0 || r->seed == 2147483647u)
		r->seed = 1;
}

static uint32_t pm_next(struct pm_random *r)
{
	const uint32_t M = 2147483647u;
	uint64_t product = (uint64_t)r->seed * 16807;

	r->seed = (uint32_t)((product >> 31) + (product & M));
	if (r->seed > M)
		r->seed -= M;
	return r->seed;
}

#define POOL_SIZE 1048576

/* One piece: characters ' ' + Uniform(95), 50 of them written twice
 * (compression ratio 0.5). */
static void pool_piece(struct pm_random *r, char *raw, char *piece)
{
	for (int i = 0; i < 50; i++)
		raw[i] = (char)(' ' + pm_next(r) % 95);
	memcpy(piece, raw, 50);
	memcpy(piece + 50, raw, 50);
}

void kv_value_pool(char *pool, size_t *len)
{
	struct pm_random r;
	size_t n = 0;
	char raw[50];

	pm_init(&r, 301);
	for (; n < POOL_SIZE; n += 100)
		pool_piece(&r, raw, pool + n);
	*len = n;
}

/* The same pool, built the way db_bench's RandomGenerator builds it inside
 * each writing thread's clock: every piece's characters and its copy are
 * heap strings, appended to a string that doubles as it grows.  That work
 * (about 1 ms; 20000 allocations, 2 MiB copied) is part of db_bench's
 * figure, a quarter of a 1000-operation fillsync on tmpfs.  NULL when out
 * of memory. */
char *kv_value_pool_grown(size_t *len)
{
	struct pm_random r;
	char *pool = NULL;
	size_t n = 0, cap = 15;	/* an empty std::string holds 15 */

	pm_init(&r, 301);
	while (n < POOL_SIZE) {
		char *raw = malloc(51), *piece = malloc(101);
		bool ok = raw && piece;
		if (ok && n + 100 > cap) {	/* the string doubles: a new copy */
			size_t want = cap * 2 > n + 100 ? cap * 2 : n + 100;
			char *grown = malloc(want + 1);
			if ((ok = grown != NULL)) {
				if (n)
					memcpy(grown, pool, n);
				free(pool);
				pool = grown;
				cap = want;
			}
		}
		if (ok) {
			pool_piece(&r, raw, piece);
			memcpy(pool + n, piece, 100);
			n += 100;
		}
		free(raw);
		free(piece);
		if (!ok) {
			free(pool);
			return NULL;
		}
	}
	*len = n;
	return pool;
}

/* --- running ------------------------------------------------------------ */

struct kv_state {
	char path[4200];
	char *pool;
	size_t pool_len;
	leveldb_options_t *opts;
	int64_t threads;
};

struct kv_worker {
	const struct kv_params *p;
	struct kv_state *s;
	leveldb_t *db;
	int id;
	int64_t ops, found;
	uint64_t start_ns, end_ns;
	char err[512];
};

static int64_t cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

static int64_t threads_of(const struct kv_params *p)
{
	return p->threads ? p->threads : cpu_count();
}

static const char *const bench_names[] = { "fillsync", "overwrite", "fillseq", "fillrandom",
					   "readrandom" };

static int64_t ops_per_thread(const struct kv_params *p)
{
	if (p->benchmark == KV_FILLSYNC)
		return p->num / 1000 > 0 ? p->num / 1000 : 1;
	return p->num;
}

static void *kv_worker_main(void *arg)
{
	struct kv_worker *w = arg;
	const struct kv_params *p = w->p;
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	leveldb_readoptions_t *ro = leveldb_readoptions_create();
	leveldb_writebatch_t *batch = leveldb_writebatch_create();
	char *pool = NULL;
	struct pm_random r;
	size_t pos = 0, pool_len = 0;
	int64_t n = ops_per_thread(p);
	char key[32], *err = NULL;

	pm_init(&r, 1000u + (uint32_t)w->id);
	leveldb_writeoptions_set_sync(wo, p->benchmark == KV_FILLSYNC);
	w->start_ns = now_ns();
	if (p->benchmark != KV_READRANDOM && !(pool = kv_value_pool_grown(&pool_len))) {
		str_copy(w->err, sizeof(w->err), "out of memory for the value pool");
		n = 0;
	}
	for (int64_t i = 0; i < n && !err && !workload_stopped(); i++) {
		int64_t k = p->benchmark == KV_FILLSEQ ? i : (int64_t)(pm_next(&r) % (uint64_t)p->num);
		snprintf(key, sizeof(key), "%016lld", (long long)k);
		if (p->benchmark == KV_READRANDOM) {
			size_t vlen;
			char *v = leveldb_get(w->db, ro, key, 16, &vlen, &err);
			if (v) {
				w->found++;
				leveldb_free(v);
			}
		} else {
			if (pos + (size_t)p->value_size > pool_len)
				pos = 0;
			leveldb_writebatch_clear(batch);
			leveldb_writebatch_put(batch, key, 16, pool + pos, (size_t)p->value_size);
			leveldb_write(w->db, wo, batch, &err);
			pos += (size_t)p->value_size;
		}
		w->ops++;
	}
	w->end_ns = now_ns();
	if (err) {
		str_copy(w->err, sizeof(w->err), err);
		leveldb_free(err);
	}
	leveldb_writebatch_destroy(batch);
	leveldb_writeoptions_destroy(wo);
	leveldb_readoptions_destroy(ro);
	free(pool);
	return NULL;
}

static int kv_fail(const char *what, char *err)
{
	int full = err && (strstr(err, "No space") || strstr(err, "ENOSPC"));

	error_set("leveldb: %s: %s%s", what, err ? err : "unknown error",
		  full ? " (the target is full: lower num=)" : "");
	leveldb_free(err);
	return -1;
}

static int kv_prepare(struct wl_ctx *ctx)
{
	struct kv_state *s = calloc(1, sizeof(*s));

	if (!s || !(s->pool = malloc(POOL_SIZE + 100))) {
		free(s);
		return error_set("out of memory");
	}
	ctx->state = s;
	snprintf(s->path, sizeof(s->path), "%s/dbbench", ctx->dir);
	kv_value_pool(s->pool, &s->pool_len);
	s->opts = leveldb_options_create();
	leveldb_options_set_create_if_missing(s->opts, 1);
	leveldb_options_set_write_buffer_size(s->opts, 4 << 20);
	leveldb_options_set_max_file_size(s->opts, 2 << 20);
	leveldb_options_set_block_size(s->opts, 4096);
	leveldb_options_set_max_open_files(s->opts, 1000);
	leveldb_options_set_compression(s->opts, leveldb_snappy_compression);
	return 0;
}

/* readrandom needs something to find: fillseq, untimed. */
static int kv_prefill(leveldb_t *db, const struct kv_params *p, struct kv_state *s)
{
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	char key[32], *err = NULL;
	size_t pos = 0;

	for (int64_t i = 0; i < p->num && !err; i++) {
		snprintf(key, sizeof(key), "%016lld", (long long)i);
		if (pos + (size_t)p->value_size > s->pool_len)
			pos = 0;
		leveldb_put(db, wo, key, 16, s->pool + pos, (size_t)p->value_size, &err);
		pos += (size_t)p->value_size;
	}
	leveldb_writeoptions_destroy(wo);
	return err ? kv_fail("filling the DB for readrandom", err) : 0;
}

static int kv_run(struct wl_ctx *ctx, double *v)
{
	const struct kv_params *p = ctx->params;
	struct kv_state *s = ctx->state;
	int64_t nthreads = threads_of(p);
	struct kv_worker *w = calloc((size_t)nthreads, sizeof(*w));
	pthread_t *tid = calloc((size_t)nthreads, sizeof(*tid));
	char *err = NULL;
	leveldb_t *db;
	uint64_t first = UINT64_MAX, last = 0, sum_ns = 0;
	int64_t ops = 0;
	int started = 0, rc = 0;

	if (!w || !tid) {
		free(w);
		free(tid);
		return error_set("out of memory");
	}
	if (!p->use_existing_db) {
		leveldb_destroy_db(s->opts, s->path, &err);
		if (err) {
			free(w);
			free(tid);
			return kv_fail("destroying the previous DB", err);
		}
	}
	db = leveldb_open(s->opts, s->path, &err);
	if (!db) {
		free(w);
		free(tid);
		return kv_fail("opening the DB", err);
	}
	if (p->benchmark == KV_READRANDOM && !p->use_existing_db && kv_prefill(db, p, s))
		rc = -1;
	for (int i = 0; !rc && i < nthreads; i++) {
		w[i] = (struct kv_worker){ .p = p, .s = s, .db = db, .id = i };
		if (pthread_create(&tid[i], NULL, kv_worker_main, &w[i])) {
			rc = error_set("cannot start LevelDB thread %d", i);
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	leveldb_close(db);
	for (int i = 0; i < started && !rc; i++) {
		if (w[i].err[0])
			rc = error_set("leveldb: %s", w[i].err);
		if (w[i].start_ns < first)
			first = w[i].start_ns;
		if (w[i].end_ns > last)
			last = w[i].end_ns;
		sum_ns += w[i].end_ns - w[i].start_ns;
		ops += w[i].ops;
	}
	free(w);
	free(tid);
	if (!rc && workload_stopped())
		rc = error_set("interrupted");
	if (rc)
		return -1;
	/* As db_bench counts bytes: key and value per operation. */
	int64_t rec = 16 + p->value_size, prefill = p->benchmark == KV_READRANDOM &&
					  !p->use_existing_db ? p->num : 0;
	ctx->bytes_written = p->benchmark == KV_READRANDOM ? prefill * rec : ops * rec;
	ctx->bytes_read = p->benchmark == KV_READRANDOM ? ops * rec : 0;
	v[0] = (double)sum_ns / 1e3 / (double)(ops ? ops : 1);
	v[1] = (double)ops * (double)(16 + p->value_size) / 1048576.0 /
	       ((double)(last - first) / 1e9);
	if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX, "%-12s : %11.3f micros/op; %6.1f MB/s (%lld ops)\n",
			 bench_names[p->benchmark],
			 v[0], v[1], (long long)ops);
	return 0;
}

static void kv_cleanup(struct wl_ctx *ctx)
{
	struct kv_state *s = ctx->state;
	char *err = NULL;

	if (!s)
		return;
	leveldb_destroy_db(s->opts, s->path, &err);
	leveldb_free(err);
	leveldb_options_destroy(s->opts);
	free(s->pool);
	free(s);
	ctx->state = NULL;
}

static uint64_t kv_space(const void *p)
{
	const struct kv_params *kp = p;
	uint64_t threads = (uint64_t)threads_of(kp);
	uint64_t ops = sat_mul(sat_u(ops_per_thread(kp)), threads);

	/* The log plus the tables before compaction: about twice the data. */
	return sat_add(sat_mul3(ops, sat_add(sat_u(kp->value_size), 48), 2), 32 << 20);
}

static void kv_describe(const void *p, char *buf, size_t len)
{
	static const char *const names[] = { "Fill Sync", "Overwrite", "Sequential Fill",
					     "Random Fill", "Random Read" };
	const struct kv_params *kp = p;

	/* db_bench's terms: --num, and what ran.  fillsync does num/1000
	 * synced writes, so a title of "100000 Keys" would claim 1000x the
	 * work; say both. */
	if (kp->benchmark == KV_FILLSYNC)
		snprintf(buf, len, "Benchmark: %s - num %lld: %lld Synced Writes per Thread, "
			 "%lld Thread%s%s", names[kp->benchmark], (long long)kp->num,
			 (long long)ops_per_thread(kp), (long long)threads_of(kp),
			 threads_of(kp) == 1 ? "" : "s", kp->threads ? "" : " (one per CPU)");
	else
		snprintf(buf, len, "Benchmark: %s - %lld Keys, %lld Thread%s%s", names[kp->benchmark],
			 (long long)kp->num, (long long)threads_of(kp),
			 threads_of(kp) == 1 ? "" : "s", kp->threads ? "" : " (one per CPU)");
}

const struct workload wl_kv = {
	.name = "kv",
	.summary = "LevelDB (C API) with db_bench's keys, values and benchmarks, DB on the target",
	.title = "LevelDB (fsbench kv)",
	.params = kv_params,
	.params_size = sizeof(struct kv_params),
	.metrics = kv_metrics,
	.nmetrics = 2,
	.presets = kv_presets,
	.space_needed = kv_space,
	.describe = kv_describe,
	.prepare = kv_prepare,
	.run = kv_run,
	.cleanup = kv_cleanup,
};
