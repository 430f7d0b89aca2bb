/*
 * postmark.c: PostMark 1.51 (Jeffrey Katcher, NetApp), as specified in
 * docs/workloads/postmark.md, for seed 000's PostMark chart.
 *
 * A pool of `number` files of random sizes, then `transactions`
 * transactions, each a read or an append of a random existing file and a
 * create or a delete, then every remaining file is deleted.  The Mersenne
 * Twister (1999 genrand with the old sgenrand seeding) is drawn in
 * PostMark's exact order -- the source buffer first, then per create the
 * subdirectory and the size, per transaction the bias draws and the
 * file-slot draws -- so the same seed makes the same files and the same
 * choices as PostMark itself, byte for byte.
 *
 * PostMark times with time() (whole seconds, 0 counted as 1), which makes
 * short runs meaningless; fsbench reports the same rates from a nanosecond
 * clock, and keeps the report PostMark would have printed (from whole
 * seconds) as the sample's detail.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct postmark_params {
	int64_t size_low, size_high, number, transactions, subdirs;
	int64_t read_block, write_block, bias_read, bias_create, seed;
	bool buffering;
};

#define P(x) offsetof(struct postmark_params, x)
static const struct param_def postmark_params[] = {
	{ "size_low", PT_INT, P(size_low), "500", 1, 1 << 30, NULL, "smallest file, bytes (set size LOW HIGH)" },
	{ "size_high", PT_INT, P(size_high), "10000", 1, 1 << 30, NULL, "largest file, bytes" },
	/* Not scaled by --scale: the pool is a random walk of creates and
	 * deletes whose spread grows as the square root of the transactions,
	 * so a pool shrunk with them runs dry (500 files and 12500
	 * transactions do not; 25 and 12500 did). */
	{ "number", PT_INT, P(number), "500", 1, 10000000, NULL, "files in the pool (set number)" },
	{ "transactions", PT_INT, P(transactions), "500", 1, 2000000000, NULL,
	  "transactions (set transactions)", PF_SCALE },
	{ "subdirs", PT_INT, P(subdirs), "0", 0, 100000, NULL, "subdirectories s0.. (set subdirectories)" },
	{ "read_block", PT_INT, P(read_block), "512", 1, 1 << 26, NULL, "bytes per read (set read)" },
	{ "write_block", PT_INT, P(write_block), "512", 1, 1 << 26, NULL, "bytes per write (set write)" },
	{ "bias_read", PT_INT, P(bias_read), "5", -1, 10, NULL,
	  "read vs append, 0..10 in tenths; -1 = neither (set bias read)" },
	{ "bias_create", PT_INT, P(bias_create), "5", -1, 10, NULL,
	  "create vs delete, 0..10 in tenths; -1 = neither (set bias create)" },
	{ "buffering", PT_BOOL, P(buffering), "true", 0, 0, NULL, "stdio buffered I/O (set buffering)" },
	{ "seed", PT_INT, P(seed), "42", 1, 2147483647, NULL, "random number seed (set seed)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

enum { TPS, CREATED, READS, APPENDS, DELETED, READ_MB, WRITE_MB, NMETRICS };
static const struct metric_def postmark_metrics[] = {
	{ "transactions_per_sec", "TPS", HIGHER_IS_BETTER, "TPS", 1 },
	{ "created_per_sec", "files/s", HIGHER_IS_BETTER, "created", 0 },
	{ "read_per_sec", "files/s", HIGHER_IS_BETTER, "read", 0 },
	{ "appended_per_sec", "files/s", HIGHER_IS_BETTER, "appended", 0 },
	{ "deleted_per_sec", "files/s", HIGHER_IS_BETTER, "deleted", 0 },
	{ "read_mib_per_sec", "MiB/s", HIGHER_IS_BETTER, "data read", 0 },
	{ "written_mib_per_sec", "MiB/s", HIGHER_IS_BETTER, "data written", 0 },
};

static const struct preset postmark_presets[] = {
	{ "postmark-pts", "transactions=250000,size_low=5120,size_high=524288,number=500",
	  "Disk Transaction Performance" },
	{ NULL, NULL, NULL },
};

/* ---- MT19937, the 1999 reference version PostMark ships ------------ */

#define MT_N 624
#define MT_M 397

struct mt {
	uint32_t s[MT_N];
	int i;
};

/* The old seeding: two 69069 LCG steps per word, 16 bits from each. */
void postmark_sgenrand(struct mt *m, uint32_t seed)
{
	for (int i = 0; i < MT_N; i++) {
		m->s[i] = seed & 0xffff0000u;
		seed = 69069 * seed + 1;
		m->s[i] |= (seed & 0xffff0000u) >> 16;
		seed = 69069 * seed + 1;
	}
	m->i = MT_N;
}

uint32_t postmark_genrand(struct mt *m)
{
	static const uint32_t mag01[2] = { 0, 0x9908b0dfu };
	uint32_t y;

	if (m->i >= MT_N) {
		int k;
		for (k = 0; k < MT_N - MT_M; k++) {
			y = (m->s[k] & 0x80000000u) | (m->s[k + 1] & 0x7fffffffu);
			m->s[k] = m->s[k + MT_M] ^ (y >> 1) ^ mag01[y & 1];
		}
		for (; k < MT_N - 1; k++) {
			y = (m->s[k] & 0x80000000u) | (m->s[k + 1] & 0x7fffffffu);
			m->s[k] = m->s[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
		}
		y = (m->s[MT_N - 1] & 0x80000000u) | (m->s[0] & 0x7fffffffu);
		m->s[MT_N - 1] = m->s[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
		m->i = 0;
	}
	y = m->s[m->i++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* PostMark's RND(x): no draw at all when x <= 0. */
static uint32_t rnd(struct mt *m, int64_t x)
{
	return x > 0 ? (uint32_t)(postmark_genrand(m) % (uint64_t)x) : 0;
}

/* ---- the run ------------------------------------------------------- */

struct slot {
	int64_t size;		/* 0 = free */
	int64_t id;		/* its number: the file name */
	int sub;		/* subdirectory, -1 = none */
};

struct pm {
	const struct postmark_params *p;
	const char *dir;
	struct mt mt;
	char *source, *rbuf;
	struct slot *table;
	int64_t slots, allocated;
	int64_t created, deleted, reads, appends;
	double bytes_read, bytes_written;
	char home[4096];	/* the working directory to return to */
};

/* Names are relative to the scratch directory, the working directory
 * during the run, as in PTS's PostMark (no `set location`). */
static void path_of(const struct pm *pm, const struct slot *s, char *buf, size_t len)
{
	(void)pm;
	if (s->sub >= 0)
		snprintf(buf, len, "s%d/%lld", s->sub, (long long)s->id);
	else
		snprintf(buf, len, "%lld", (long long)s->id);
}

static int64_t find_free(struct pm *pm)
{
	if (pm->allocated < pm->slots && !pm->table[pm->allocated].size)
		return pm->allocated++;
	for (int64_t i = 0; i < pm->slots; i++)
		if (!pm->table[i].size) {
			pm->allocated = i;
			return pm->allocated++;
		}
	return -1;
}

static int64_t find_used(struct pm *pm)
{
	int64_t i;

	while (!pm->table[i = rnd(&pm->mt, pm->slots)].size)
		;
	return i;
}

/* Write `size` bytes from the source buffer in write_block pieces. */
static int write_data(struct pm *pm, FILE *fp, int fd, int64_t size)
{
	int64_t off = 0, left = size, blk = pm->p->write_block;

	for (; left >= 0; left -= blk, off += blk) {
		size_t n = (size_t)(left >= blk ? blk : left);
		if (n == 0)
			break;
		if (fp ? fwrite(pm->source + off, n, 1, fp) != 1
		       : write(fd, pm->source + off, n) != (ssize_t)n)
			return -1;
	}
	pm->bytes_written += (double)size;
	return 0;
}

static int create_file(struct pm *pm)
{
	const struct postmark_params *p = pm->p;
	char path[4200];
	int64_t i = find_free(pm);
	FILE *fp = NULL;
	int fd = -1, rc;

	if (i < 0)
		return 0;
	struct slot *s = &pm->table[i];
	s->sub = p->subdirs > 1 ? (int)rnd(&pm->mt, p->subdirs) : -1;
	s->id = ++pm->created;
	s->size = p->size_low + rnd(&pm->mt, p->size_high - p->size_low);
	path_of(pm, s, path, sizeof(path));
	if (p->buffering)
		fp = fopen(path, "w");
	else
		fd = open(path, O_RDWR | O_CREAT, 0644);
	if (!fp && fd < 0)
		return error_errno("postmark: cannot create %s", path);
	rc = write_data(pm, fp, fd, s->size);
	if (fp)
		rc |= fclose(fp) != 0;
	else
		rc |= close(fd) != 0;
	return rc ? error_errno("postmark: writing %s", path) : 0;
}

static int delete_file(struct pm *pm, int64_t i)
{
	char path[4200];

	if (!pm->table[i].size)
		return 0;
	path_of(pm, &pm->table[i], path, sizeof(path));
	if (remove(path))
		return error_errno("postmark: cannot delete %s", path);
	pm->table[i].size = 0;
	pm->deleted++;
	return 0;
}

static int read_file(struct pm *pm, int64_t i)
{
	const struct postmark_params *p = pm->p;
	char path[4200];
	int64_t left = pm->table[i].size;

	path_of(pm, &pm->table[i], path, sizeof(path));
	if (p->buffering) {
		FILE *fp = fopen(path, "r");
		if (!fp)
			return error_errno("postmark: cannot read %s", path);
		for (; left >= p->read_block; left -= p->read_block)
			if (fread(pm->rbuf, (size_t)p->read_block, 1, fp) != 1)
				break;
		if (left > 0 && left < p->read_block && fread(pm->rbuf, (size_t)left, 1, fp) != 1)
			left = -1;
		fclose(fp);
	} else {
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			return error_errno("postmark: cannot read %s", path);
		for (; left >= p->read_block; left -= p->read_block)
			if (read(fd, pm->rbuf, (size_t)p->read_block) != p->read_block)
				break;
		if (left > 0 && left < p->read_block && read(fd, pm->rbuf, (size_t)left) != left)
			left = -1;
		close(fd);
	}
	if (left < 0 || left >= p->read_block)
		return error_set("postmark: %s is shorter than the %lld bytes written", path,
				 (long long)pm->table[i].size);
	pm->bytes_read += (double)pm->table[i].size;
	pm->reads++;
	return 0;
}

static int append_file(struct pm *pm, int64_t i)
{
	const struct postmark_params *p = pm->p;
	struct slot *s = &pm->table[i];
	char path[4200];
	FILE *fp = NULL;
	int fd = -1, rc;

	if (s->size >= p->size_high)
		return 0;
	path_of(pm, s, path, sizeof(path));
	if (p->buffering)
		fp = fopen(path, "a");
	else
		fd = open(path, O_RDWR | O_APPEND, 0644);
	if (!fp && fd < 0)
		return error_errno("postmark: cannot append to %s", path);
	int64_t block = rnd(&pm->mt, p->size_high - s->size) + 1;
	rc = write_data(pm, fp, fd, block);
	rc |= fp ? fclose(fp) != 0 : close(fd) != 0;
	if (rc)
		return error_errno("postmark: appending to %s", path);
	s->size += block;
	pm->appends++;
	return 0;
}

static int transaction(struct pm *pm)
{
	const struct postmark_params *p = pm->p;

	if (p->bias_read != -1) {
		if (rnd(&pm->mt, 10) < (uint32_t)p->bias_read) {
			if (read_file(pm, find_used(pm)))
				return -1;
		} else if (append_file(pm, find_used(pm))) {
			return -1;
		}
	}
	if (p->bias_create != -1) {
		if (rnd(&pm->mt, 10) < (uint32_t)p->bias_create)
			return create_file(pm);
		return delete_file(pm, find_used(pm));
	}
	return 0;
}

static int postmark_validate(const void *v)
{
	const struct postmark_params *p = v;

	if (p->size_high < p->size_low)
		return error_set("parameter 'size_high': %lld is below size_low=%lld",
				 (long long)p->size_high, (long long)p->size_low);
	return 0;
}

static uint64_t postmark_space(const void *v)
{
	const struct postmark_params *p = v;

	return sat_mul(sat_u(p->number), sat_u(p->size_high));
}

static void postmark_describe(const void *v, char *buf, size_t len)
{
	const struct postmark_params *p = v;

	snprintf(buf, len, "%lld Transactions, %lld Files of %lld to %lld Bytes",
		 (long long)p->transactions, (long long)p->number, (long long)p->size_low,
		 (long long)p->size_high);
}

/* The whole-second report PostMark 1.51 would print (verbose form). */
static void postmark_report(char *out, const struct pm *pm, time_t start, time_t t_start,
			    time_t t_end, time_t end, int64_t deleted_alone)
{
	long el = end - start ? (long)(end - start) : 1;
	long tel = t_end - t_start ? (long)(t_end - t_start) : 1;
	long crea = t_start - start ? (long)(t_start - start) : 1;
	long del = end - t_end ? (long)(end - t_end) : 1;
	const struct postmark_params *p = pm->p;

	snprintf(out, DETAIL_MAX,
		 "Time:\n\t%ld seconds total\n\t%ld seconds of transactions (%ld per second)\n\n"
		 "Files:\n\t%lld created (%ld per second)\n"
		 "\t\tCreation alone: %lld files (%ld per second)\n"
		 "\t\tMixed with transactions: %lld files (%ld per second)\n"
		 "\t%lld read (%ld per second)\n\t%lld appended (%ld per second)\n"
		 "\t%lld deleted (%ld per second)\n"
		 "\t\tDeletion alone: %lld files (%ld per second)\n"
		 "\t\tMixed with transactions: %lld files (%ld per second)\n\n"
		 "Data:\n\t%.2f megabytes read (%.2f megabytes per second)\n"
		 "\t%.2f megabytes written (%.2f megabytes per second)\n",
		 el, tel, (long)(p->transactions / tel), (long long)pm->created,
		 (long)(pm->created / el), (long long)p->number, (long)(p->number / crea),
		 (long long)(pm->created - p->number), (long)((pm->created - p->number) / tel),
		 (long long)pm->reads, (long)(pm->reads / tel), (long long)pm->appends,
		 (long)(pm->appends / tel), (long long)pm->deleted, (long)(pm->deleted / el),
		 (long long)deleted_alone, (long)(deleted_alone / del),
		 (long long)(pm->deleted - deleted_alone), (long)((pm->deleted - deleted_alone) / tel),
		 pm->bytes_read / 1048576, pm->bytes_read / 1048576 / el,
		 pm->bytes_written / 1048576, pm->bytes_written / 1048576 / el);
}

static int postmark_run(struct wl_ctx *ctx, double *values)
{
	const struct postmark_params *p = ctx->params;
	struct pm *pm = calloc(1, sizeof(*pm));
	int rc = 0;
	int64_t done = 0, deleted_alone = 0;
	struct error_keep first;

	if (!pm)
		return error_set("out of memory");
	pm->p = p;
	pm->dir = ctx->dir;
	pm->slots = p->number * 2;
	pm->source = malloc((size_t)p->size_high * 2);
	pm->rbuf = malloc((size_t)p->read_block);
	pm->table = calloc((size_t)pm->slots, sizeof(*pm->table));
	if (!pm->source || !pm->rbuf || !pm->table) {
		rc = error_set("postmark: out of memory for %lld files", (long long)p->number);
		goto out;
	}
	if (!getcwd(pm->home, sizeof(pm->home)) || chdir(ctx->dir)) {
		rc = error_errno("postmark: cannot work in %s", ctx->dir);
		pm->home[0] = '\0';
		goto out;
	}
	postmark_sgenrand(&pm->mt, (uint32_t)p->seed);
	for (int64_t i = 0; i < p->size_high * 2; i++)
		pm->source[i] = (char)(32 + rnd(&pm->mt, 95));
	for (int64_t i = 0; i < p->subdirs && p->subdirs > 1; i++) {
		char sub[4200];
		snprintf(sub, sizeof(sub), "s%lld", (long long)i);
		if (mkdir(sub, 0700) && errno != EEXIST) {
			rc = error_errno("postmark: mkdir %s", sub);
			goto out;
		}
	}

	time_t start = time(NULL);
	uint64_t ns0 = now_ns();
	for (int64_t i = 0; i < p->number && !rc && !workload_stopped(); i++)
		rc = create_file(pm);
	time_t t_start = time(NULL);
	uint64_t ns1 = now_ns();
	for (; done < p->transactions && !rc && !workload_stopped(); done++) {
		if (pm->created == pm->deleted) {
			rc = error_set("postmark: out of files after %lld transactions: raise number or lower transactions",
				       (long long)done);
			break;
		}
		rc = transaction(pm);
	}
	time_t t_end = time(NULL);
	uint64_t ns2 = now_ns();
	int64_t before = pm->deleted;
	int rc2 = 0;
	error_keep(&first, rc);
	for (int64_t i = 0; i < pm->slots; i++)	/* always: never leave files behind */
		if (delete_file(pm, i))
			rc2 = -1;
	rc = error_kept(&first, rc2);
	deleted_alone = pm->deleted - before;
	time_t end = time(NULL);
	uint64_t ns3 = now_ns();
	for (int64_t i = 0; i < p->subdirs && p->subdirs > 1; i++) {
		char sub[4200];
		snprintf(sub, sizeof(sub), "s%lld", (long long)i);
		rmdir(sub);
	}
	if (!rc && workload_stopped())
		rc = error_set("postmark: interrupted");
	if (!rc) {
		double el = ns_to_s(ns3 - ns0), tel = ns_to_s(ns2 - ns1);
		values[TPS] = (double)done / tel;
		values[CREATED] = (double)pm->created / el;
		values[READS] = (double)pm->reads / tel;
		values[APPENDS] = (double)pm->appends / tel;
		values[DELETED] = (double)pm->deleted / el;
		values[READ_MB] = pm->bytes_read / 1048576 / el;
		values[WRITE_MB] = pm->bytes_written / 1048576 / el;
		/* No workload_data_complete(): PostMark's deletions are inside
		 * its total time, so no sync may come before them. */
		ctx->bytes_written = (int64_t)pm->bytes_written;
		ctx->bytes_read = (int64_t)pm->bytes_read;
		if (ctx->detail)
			postmark_report(ctx->detail, pm, start, t_start, t_end, end, deleted_alone);
	}
out:
	error_keep(&first, rc);
	if (pm->home[0] && chdir(pm->home))
		rc = error_errno("postmark: cannot return to %s", pm->home);
	rc = error_kept(&first, rc);
	free(pm->source);
	free(pm->rbuf);
	free(pm->table);
	free(pm);
	return rc;
}

const struct workload wl_postmark = {
	.name = "postmark",
	.summary = "PostMark 1.51: a pool of small files under create/delete/read/append transactions",
	.title = "PostMark 1.51",
	.params = postmark_params,
	.params_size = sizeof(struct postmark_params),
	.metrics = postmark_metrics,
	.nmetrics = NMETRICS,
	.presets = postmark_presets,
	.validate = postmark_validate,
	.space_needed = postmark_space,
	.describe = postmark_describe,
	.run = postmark_run,
};
