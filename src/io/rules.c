/*
 * rules.c: the rules of I/O options (what combines with what, block sizes,
 * space needed) and their titles (see iojob.h).
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "foreign.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../core/suggest.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *io_rw_title(int rw)
{
	static const char *titles[] = {
		"Sequential Read", "Sequential Write", "Random Read", "Random Write",
		"Sequential Read/Write", "Sequential Read/Write", "Random Read/Write",
		"Sequential Trim", "Random Trim", "Sequential Trim/Write", "Random Trim/Write",
	};
	return rw >= 0 && rw <= RW_RANDTRIMWRITE ? titles[rw] : "?";
}

bool io_is_random(const struct io_options *o)
{
	return o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE || o->rw == RW_RANDRW ||
	       o->rw == RW_RANDTRIM || o->rw == RW_RANDTRIMWRITE;
}

/* fio gives the advice at every open of a file: FADV_RANDOM, the default
 * for a random job, turns the kernel's read-ahead off for that open file,
 * which decides what a buffered random read from a disk costs (1.7x the
 * IOPS without it, docs/workloads/io.md). */
int io_fadvise_advice(const struct io_options *o)
{
	switch (o->fadvise_hint) {
	case FADVISE_TYPE: return io_is_random(o) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case FADVISE_RANDOM: return POSIX_FADV_RANDOM;
	case FADVISE_SEQUENTIAL: return POSIX_FADV_SEQUENTIAL;
	case FADVISE_NOREUSE: return POSIX_FADV_NOREUSE;
	default: return -1;
	}
}

int io_rate_bps(const struct io_options *o, uint64_t min_bs, uint64_t bps[IO_DIRS])
{
	const struct io_parsed *p = &o->parsed;

	for (int d = 0; d < IO_DIRS; d++) {
		/* fio: rate= where given, else rate_iops times the block size */
		if (p->rate[d])
			bps[d] = p->rate[d];
		else if (__builtin_mul_overflow(p->rate_iops[d], min_bs, &bps[d]))
			return error_set("option 'rate_iops': %llu I/Os of %llu bytes a second is too many",
					 (unsigned long long)p->rate_iops[d], (unsigned long long)min_bs);
	}
	return 0;
}

/* fio keeps a random map in blocks of the smallest size but draws
 * offsets in blocks of ba, so with both its map and ba disagree; a
 * sequential job's offsets follow the I/Os and ba does nothing. */
bool io_uses_map(const struct io_options *o)
{
	return io_is_random(o) && !o->norandommap && o->random_generator != RANDGEN_LFSR &&
	       o->parsed.dist.kind == DIST_RANDOM;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

uint64_t io_verify_chunk(const struct io_options *o, uint64_t min, uint64_t max)
{
	uint64_t vi = (uint64_t)o->verify_interval;

	/* fio's fix-up: sizes that vary get the smallest, so that every
	 * chunk of every write is alike; an interval above it is it; one
	 * that divides neither size is their gcd */
	if (!vi && max != min)
		vi = min;
	if (vi > min)
		vi = min;
	if (!vi || min % vi || max % vi)
		vi = gcd(min, max);
	return vi;
}

const char *io_verify_name(int m)
{
	static const char *const names[] = { "0", "crc32c", "meta", "pattern", "crc32c-intel",
		"md5", "sha1", "sha256", "sha512", "xxhash", "crc32", "crc64", "crc16", "crc7",
		"sha3-224", "sha3-256", "sha3-384", "sha3-512", "null" };
	_Static_assert(sizeof(names) / sizeof(names[0]) == VERIFY_NULL + 1, "a name per mode");

	return m >= 0 && m < (int)(sizeof(names) / sizeof(names[0])) ? names[m] : "?";
}

int io_verify_mode(const struct io_options *o)
{
	if (o->verify == VERIFY_NONE && o->verify_pattern[0])
		return VERIFY_PATTERN;
	return o->verify == VERIFY_CRC32C_INTEL ? VERIFY_CRC32C : o->verify;
}

bool io_has_reads(const struct io_options *o)
{
	return o->rw == RW_READ || o->rw == RW_RANDREAD || o->rw == RW_RW ||
	       o->rw == RW_READWRITE || o->rw == RW_RANDRW;
}

bool io_has_writes(const struct io_options *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD && o->rw != RW_TRIM &&
	       o->rw != RW_RANDTRIM;
}

bool io_has_trims(const struct io_options *o)
{
	return o->rw == RW_TRIM || o->rw == RW_RANDTRIM || o->rw == RW_TRIMWRITE ||
	       o->rw == RW_RANDTRIMWRITE;
}

bool io_has_dir(const struct io_options *o, int dir)
{
	return dir == DIR_READ ? io_has_reads(o) : dir == DIR_WRITE ? io_has_writes(o)
								    : io_has_trims(o);
}

static int prio_slot(uint16_t value[IO_PRIOS], int *n, uint16_t v)
{
	for (int i = 0; i < *n; i++)
		if (value[i] == v)
			return i;
	if (*n == IO_PRIOS)
		return error_set("cmdprio_bssplit: more than %d I/O priorities (the job's own "
				 "and %d others)", IO_PRIOS, IO_PRIOS - 1);
	value[*n] = v;
	return (*n)++;
}

int io_prio_table(const struct io_options *o, uint16_t value[IO_PRIOS],
		  uint8_t index[IO_DIRS][BSSPLIT_MAX])
{
	uint16_t own = (uint16_t)(o->cmdprio_class << 13 | o->cmdprio);
	int n = 1;

	memset(value, 0, IO_PRIOS * sizeof(*value));
	if (o->cmdprio_percentage && prio_slot(value, &n, own) < 0)
		return -1;
	for (int d = 0; d < IO_DIRS; d++) {
		const struct prio_split *s = &o->parsed.prio_split[d];
		for (unsigned i = 0; i < s->n; i++) {
			uint16_t v = s->class[i] ? (uint16_t)(s->class[i] << 13 | s->level[i]) : own;
			int k = prio_slot(value, &n, v);
			if (k < 0)
				return -1;
			index[d][i] = (uint8_t)k;
		}
	}
	return n;
}

int io_unified(const struct io_options *o)
{
	return o->unified_rw_reporting % 3;	/* none|mixed|both, then 0|1|2 */
}

bool io_is_direct(const struct io_options *o)
{
	return o->direct || !o->buffered;
}

/* bssplit's sizes, else bsrange's, else bs alone. */
int io_block_sizes(const struct io_options *o, uint64_t *min, uint64_t *max)
{
	const struct io_parsed *p = &o->parsed;

	*min = *max = o->bs;
	if (o->bssplit[0]) {
		*min = UINT64_MAX;
		*max = 0;
		for (int d = 0; d < IO_DIRS; d++)
			for (unsigned i = 0; i < p->split[d].n; i++) {
				*min = p->split[d].bs[i] < *min ? p->split[d].bs[i] : *min;
				*max = p->split[d].bs[i] > *max ? p->split[d].bs[i] : *max;
			}
		if (!*max)
			*min = *max = o->bs;
	} else if (p->bsrange_max) {
		*min = p->bsrange_min;
		*max = p->bsrange_max;
	}
	return 0;
}

struct io_pct_on io_pct_on(const struct io_options *o)
{
	bool off = o->gtod_reduce;	/* fio's str_gtod_reduce_cb */
	struct io_pct_on p = { o->clat_percentiles && !o->disable_clat && !off,
			       o->lat_percentiles && !o->disable_lat && !off,
			       o->slat_percentiles && !o->disable_slat && !off };

	return p;
}

int io_cpu_set(const struct io_options *o, cpu_set_t *set)
{
	const struct io_parsed *p = &o->parsed;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	bool list = o->cpus_allowed[0];
	const uint64_t *bits = list ? p->cpus_allowed : p->cpumask;
	int top = list ? p->cpus_allowed_top : o->cpumask[0] ? p->cpumask_top : -1;

	CPU_ZERO(set);
	if (top < 0)
		return 0;
	if (top >= ncpu || top >= CPU_SETSIZE)
		return error_set("option '%s': CPU %d: this machine has CPUs 0-%ld",
				 list ? "cpus_allowed" : "cpumask", top, ncpu - 1);
	for (int c = 0; c <= top; c++)
		if (bits[c / 64] >> (c % 64) & 1)
			CPU_SET(c, set);
	return CPU_COUNT(set);
}

int io_file_name(const struct io_options *o, int copy, int file, char *buf, size_t len)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	const char *name = o->name[0] ? o->name : "job";
	const char *p = o->filename_format;
	size_t n = 0;

	if (!*p) {
		if ((size_t)snprintf(buf, len, "%s.%d.%d", name, copy, file) >= len)
			return error_set("file name too long: %s.%d.%d", name, copy, file);
		return 0;
	}
	while (*p) {
		char val[PARAM_STR_MAX];
		int k = 0;
		while (k < 4 && strncasecmp(p, keys[k], strlen(keys[k])))
			k++;
		switch (k) {
		case 0: str_copy(val, sizeof(val), name); break;
		case 1: snprintf(val, sizeof(val), "%d", copy); break;
		case 2: snprintf(val, sizeof(val), "%d", file); break;
		case 3: val[0] = 0; break;	/* fio's client address: none here */
		default: val[0] = *p; val[1] = 0;	/* a character of the format */
		}
		size_t klen = k < 4 ? strlen(keys[k]) : 1, vlen = strlen(val);
		if (n + vlen >= len)
			return error_set("option 'filename_format': the name of file %d of copy %d is "
					 "longer than %zu bytes", file, copy, len - 1);
		memcpy(buf + n, val, vlen);
		n += vlen;
		p += klen;
	}
	buf[n] = 0;
	if (!n)
		return error_set("option 'filename_format' gives an empty file name");
	return 0;
}

int io_errors(const struct io_options *o, struct io_errors *e)
{
	static const unsigned masks[] = { 0, 1u << ERR_READ, 1u << ERR_WRITE,
					  1u << ERR_READ | 1u << ERR_WRITE, 1u << ERR_VERIFY, 7, 0, 7 };
	const struct io_parsed *p = &o->parsed;

	memset(e, 0, sizeof(*e));
	e->mask = masks[o->continue_on_error];
	for (int type = 0; type < ERR_TYPES; type++) {
		if (p->ignore_n[type]) {	/* fio: a list turns continue_on_error on for its type */
			memcpy(e->err[type], p->ignore[type], sizeof(e->err[type]));
			e->n[type] = p->ignore_n[type];
			e->mask |= 1u << type;
		} else {
			e->err[type][0] = EIO;
			e->err[type][1] = EILSEQ;
			e->n[type] = 2;
		}
	}
	return 0;
}

/* An engine's own option (engine.h) set in a job of another engine would
 * do nothing there: refused, naming whose it is. */
static int engine_options_check(const struct io_options *o, const struct io_engine_ops *eng)
{
	for (int i = 0; i < ENGINES_MAX && engine_at(i); i++) {
		const struct io_engine_ops *e = engine_at(i);
		unsigned char def[ENGINE_OPTS_MAX] __attribute__((aligned(8))) = { 0 };
		if (i == o->ioengine || !e->options || params_defaults(e->options, def))
			continue;
		for (const struct param_def *d = e->options; d->name; d++) {
			char now[64], was[64];
			param_value_text(d, o->engine_opts[i], now, sizeof(now));
			param_value_text(d, def, was, sizeof(was));
			if (strcmp(now, was))
				return error_set("option '%s' is ioengine=%s's: this job's ioengine=%s has "
						 "no such option here", d->name, e->name,
						 eng ? eng->name : "?");
		}
	}
	return 0;
}

/* fio's zonemode: zbd drives a zoned block device's zones by their
 * write pointers, which a file has not; strided is fsbench's for the
 * offsets fio's own code draws, and refused where it would need more. */
static int io_zone_check(const struct io_options *o, uint64_t min, uint64_t max)
{
	if (o->zonemode == ZONEMODE_ZBD)
		return error_set("zonemode=zbd is for zoned block devices (SMR disks, ZNS drives), "
				 "written at each zone's write pointer: fsbench io works on files");
	if (o->zonemode == ZONEMODE_NONE) {
		if (o->zonesize)	/* fio's own check */
			return error_set("option 'zonesize' needs zonemode=strided (fio: zonemode=none "
					 "and zonesize are not compatible)");
		return 0;
	}
	if (!o->zonesize)
		return error_set("zonemode=strided needs zonesize= (as fio)");
	uint64_t range = o->zonerange ? o->zonerange : o->zonesize;
	if (range < max)
		return error_set("zonemode=strided: a zone of %llu bytes is smaller than a block "
				 "(%llu)", (unsigned long long)range, (unsigned long long)max);
	if (io_has_trims(o) || io_verify_mode(o))
		return error_set("zonemode=strided with %s: not supported",
				 io_has_trims(o) ? "trims" : "verify");
	if (o->parsed.seq_add || o->ddir_seq_nr > 1)
		return error_set("zonemode=strided with rw=...:N: not supported");
	if (io_is_random(o) && (min != max || o->parsed.dist.kind != DIST_RANDOM))
		return error_set("zonemode=strided with random I/O: one block size and "
				 "random_distribution=random only");
	return 0;
}

int io_options_runnable(const struct io_options *o)
{
	if (o->foreign_engine[0]) {
		const struct io_foreign_engine *e = io_foreign_engine(o->foreign_engine);
		if (e)
			return error_set("ioengine=%s: fio's engine for %s, which fsbench io does not "
					 "have (see `fsbench io --help`)", o->foreign_engine, e->what);
		/* a typo of one of fsbench's: said, with the choices */
		const char *names[ENGINES_MAX];
		int n = 0;
		for (const struct io_engine_ops *x; n < ENGINES_MAX && (x = engine_at(n)); n++)
			names[n] = x->name;
		const char *near = suggest(o->foreign_engine, names, n);
		return error_set("ioengine=%s: neither fsbench io nor fio 3.33 has an engine of that "
				 "name%s%s%s (fsbench io's: %s)", o->foreign_engine,
				 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
				 engine_choices);
	}
	if (o->norun[0])
		return error_set("%s", o->norun);
	return 0;
}

int io_options_validate(const struct io_options *o)
{
	uint64_t min, max;

	if (io_options_runnable(o) || io_numa_check(o))
		return -1;

	if (io_block_sizes(o, &min, &max))
		return -1;
	if (max > (1u << 30))
		return error_set("option 'bs': at most 1g per I/O");
	if (o->time_based && o->runtime <= 0)
		return error_set("option 'time_based' needs runtime= (how long to run)");
	uint64_t last_base, end;
	if (__builtin_mul_overflow(o->offset_increment, (uint64_t)(o->numjobs - 1), &last_base) ||
	    __builtin_add_overflow(last_base, o->offset, &last_base) ||
	    __builtin_add_overflow(last_base, o->size, &end) || end > (uint64_t)INT64_MAX)
		return error_set("option 'offset_increment': the last thread's region would end past "
				 "the largest file offset");
	cpu_set_t cpus;
	if (io_cpu_set(o, &cpus) < 0)
		return -1;
	const struct io_engine_ops *eng = engine_at(o->ioengine);
	bool file_op = eng && (eng->flags & ENGINE_FILE_OP);
	if (o->openfiles && o->openfiles < o->nrfiles && !file_op)
		return error_set("option 'openfiles': %lld of %lld files open at once: fsbench holds "
				 "every file of a job open, where fio would open and close them in the "
				 "run; drop openfiles=", (long long)o->openfiles, (long long)o->nrfiles);
	if (eng && (eng->flags & ENGINE_MAKES_FILES) && o->filename[0] && o->numjobs > 1)
		return error_set("ioengine=%s with filename= and numjobs=%lld: the threads would "
				 "create one file", eng->name, (long long)o->numjobs);
	int vmode = io_verify_mode(o);
	if (o->read_iolog[0]) {
		/* a replay's I/O is the log's: what would choose it otherwise
		 * is refused rather than silently not acting */
		const char *why = vmode ? "verify (the log's writes have no headers to check)"
			: o->zonemode != ZONEMODE_NONE ? "zonemode (the log's offsets are the I/O)"
			: o->rate[0] || o->rate_iops[0] || o->rate_min[0] || o->rate_iops_min[0]
			? "a rate (the log's stamps pace a replay: replay_time_scale)"
			: eng && (eng->flags & ENGINE_FILE_OP) ? "a file-operation engine" : NULL;
		if (why)
			return error_set("read_iolog with %s: not supported", why);
	}
	if (o->io_submit_mode == SUBMIT_OFFLOAD && eng && eng->run)
		return error_set("io_submit_mode=offload with ioengine=%s: it makes no requests to "
				 "hand to workers", eng->name);
	if (o->io_submit_mode == SUBMIT_OFFLOAD && eng && (eng->flags & ENGINE_FILE_OP))
		return error_set("io_submit_mode=offload with ioengine=%s: a file-operation engine's "
				 "requests are its files' operations, made in the job's own thread",
				 eng->name);
	if (o->latency_target > 0) {
		if (eng && (eng->flags & ENGINE_SYNC))
			return error_set("option 'latency_target' searches for a queue depth: ioengine=%s "
					 "keeps one I/O in flight (use libaio or io_uring)", eng->name);
		if (o->latency_window <= 0)
			return error_set("option 'latency_target' needs latency_window= (how long each "
					 "queue depth is judged over)");
	}
	if (io_has_trims(o)) {
		static const char *const rw[] = { [RW_TRIM] = "trim", [RW_RANDTRIM] = "randtrim",
						  [RW_TRIMWRITE] = "trimwrite",
						  [RW_RANDTRIMWRITE] = "randtrimwrite" };
		bool trimwrite = o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE;
		if (eng && !(eng->flags & ENGINE_TRIMS))
			return error_set("rw=%s with ioengine=%s: fio's %s engine trims with "
					 "BLKDISCARD, which a regular file refuses, and fsbench io works "
					 "on files; ioengine=falloc trims a file (it punches holes)",
					 rw[o->rw], eng->name, eng->name);
		if (vmode)
			return error_set("rw=%s with verify: fsbench does not verify trims",
					 rw[o->rw]);
		if (trimwrite && (o->rate[0] || o->rate_iops[0] || o->rate_min[0] ||
				  o->rate_iops_min[0]))
			return error_set("rw=%s with a rate: not supported (rw=trim and randtrim "
					 "take one)", rw[o->rw]);
		if (o->rw == RW_RANDTRIMWRITE && o->ddir_seq_nr > 1)
			return error_set("rw=randtrimwrite:N: not supported");
	}
	const char *prio = o->cmdprio_bssplit[0] ? "cmdprio_bssplit" : "cmdprio_percentage";
	if ((o->cmdprio_percentage || o->cmdprio_bssplit[0]) && eng &&
	    !(eng->flags & ENGINE_CMDPRIO))
		return error_set("option '%s' with ioengine=%s: fio has it for its libaio and "
				 "io_uring engines, which give each I/O a priority of its own; "
				 "ioengine=%s has no such thing", prio, eng->name, eng->name);
	if (o->cmdprio_percentage && o->cmdprio_bssplit[0])
		return error_set("options 'cmdprio_percentage' and 'cmdprio_bssplit': one or the "
				 "other, as fio");
	uint16_t pv[IO_PRIOS];
	uint8_t pi[IO_DIRS][BSSPLIT_MAX];
	if (io_prio_table(o, pv, pi) < 0)
		return -1;
	/* bs=READ,WRITE,TRIM whose sizes differ between directions the job
	 * mixes (options.c's bs_set says why); randtrimwrite's writes take
	 * their trim's size, so there only the trim's counts */
	const uint64_t *bs = o->parsed.bs_dir;
	if (o->parsed.bs_differ &&
	    ((io_has_reads(o) && io_has_writes(o) && bs[DIR_READ] != bs[DIR_WRITE]) ||
	     (o->rw == RW_TRIMWRITE && bs[DIR_WRITE] != bs[DIR_TRIM])))
		return error_set("option 'bs': a size per direction where the job mixes those "
				 "directions is not supported (fio's random map ends such a job "
				 "early, by rules fsbench does not follow); one size, or a size per "
				 "direction for a job of one direction or rw=randtrimwrite");
	struct io_errors errs;
	char fname[PARAM_STR_MAX + 64];
	if (io_zone_check(o, min, max) || io_errors(o, &errs) ||
	    io_file_name(o, (int)o->numjobs - 1, (int)o->nrfiles - 1, fname, sizeof(fname)))
		return -1;
	if (o->verify_backlog && vmode && io_is_random(o) && !io_uses_map(o) && io_has_writes(o))
		return error_set("option 'verify_backlog' with random writes and no random map "
				 "(norandommap, random_generator=lfsr or a non-uniform distribution): not "
				 "supported (fio reads those back in offset order, a block once however "
				 "often it was written)");
	if (vmode >= VERIFY_CRC64 && vmode <= VERIFY_CRC7)
		return error_set("verify=%s: no Debian library gives it, and fsbench does not write "
				 "hashes of its own; use crc32c, crc32, md5, sha1, sha256, sha512 or "
				 "xxhash", vmode == VERIFY_CRC64 ? "crc64" : vmode == VERIFY_CRC16 ? "crc16"
				 : "crc7");
	if (vmode >= VERIFY_SHA3_224 && vmode <= VERIFY_SHA3_512)
		return error_set("verify=sha3-*: OpenSSL gives SHA-3 only through its EVP calls, "
				 "which allocate for every digest; use sha256 or sha512");
	if (vmode == VERIFY_NULL)
		return error_set("verify=null pretends to verify (fio's test of its own internals); "
				 "fsbench has no such mode: drop verify=");
	uint64_t chunk = io_verify_chunk(o, min, max);
	if (vmode && min != max && o->verify_backlog)
		return error_set("option 'verify_backlog' with block sizes that vary: not supported "
				 "(its list holds one size of block)");
	if (vmode && chunk < io_verify_hdr_len(vmode))
		return error_set("option 'verify': bs%s must be at least %u bytes for the header",
				 o->verify_interval ? " or verify_interval" : "", io_verify_hdr_len(vmode));
	if (vmode == VERIFY_PATTERN && !o->verify_pattern[0])
		return error_set("option 'verify=pattern' needs verify_pattern=");
	uint64_t bps[IO_DIRS];
	if (io_rate_bps(o, min, bps))
		return -1;
	if (o->buffer_pattern[0] && (o->zero_buffers || o->buffer_compress_percentage))
		return error_set("option 'buffer_pattern' cannot be combined with zero_buffers or "
				 "buffer_compress_percentage");
	if (o->zero_buffers && o->buffer_compress_percentage)
		return error_set("option 'zero_buffers' cannot be combined with buffer_compress_percentage");
	/* fio's init refuses these two (its working set is one file's pages,
	 * and the set's pages are new ones, not repeats) */
	if (o->dedupe_percentage && o->dedupe_mode == DEDUPE_WORKING_SET) {
		if (o->nrfiles != 1)
			return error_set("option 'dedupe_mode=working_set' takes one file per job, not "
					 "nrfiles=%lld", (long long)o->nrfiles);
		if (o->dedupe_working_set_percentage + o->dedupe_percentage > 100)
			return error_set("option 'dedupe_percentage=%lld': %lld%% of size is the working "
					 "set's own pages, so at most %lld%% can repeat them",
					 (long long)o->dedupe_percentage,
					 (long long)o->dedupe_working_set_percentage,
					 100 - (long long)o->dedupe_working_set_percentage);
	}
	static const char *const dirs[IO_DIRS] = { "reads", "writes", "trims" };
	const struct io_parsed *p = &o->parsed;
	for (int d = 0; d < IO_DIRS; d++)	/* fio refuses these */
		if ((p->rate[d] && p->rate[d] < p->rate_min[d]) ||
		    (p->rate_iops[d] && p->rate_iops[d] < p->rate_iops_min[d]))
			return error_set("option 'rate_min': the minimum for %s exceeds the rate",
					 dirs[d]);
	if (o->ba && o->ba != min && io_is_random(o) && (vmode || io_uses_map(o)))
		return error_set("option 'ba': %s with ba=%llu and blocks of %llu: fio's own offsets "
				 "and map disagree there; add norandommap, or use "
				 "random_generator=lfsr", vmode ? "verify" : "a random map",
				 (unsigned long long)o->ba, (unsigned long long)min);
	if (engine_options_check(o, eng))
		return -1;
	if (o->ss_dur > 0 && (o->ss_dur < 2 || o->ss_dur != floor(o->ss_dur)))
		return error_set("option 'ss_dur': whole seconds, at least 2 (fio checks every second "
				 "and needs more than one sample)");
	if (strchr(o->filename, ':'))
		return error_set("option 'filename': lists (a:b) are not supported; use nrfiles=");
	return 0;
}

uint64_t io_options_space(const struct io_options *o)
{
	uint64_t files = o->filename[0] ? 1 : (uint64_t)o->numjobs;

	return sat_mul(sat_add(o->offset, o->size), files);
}

double io_dir_secs(const struct io_options *o, const struct io_result *r, int dir)
{
	uint64_t ns = dir == DIR_READ && r->verify_ns && !io_has_reads(o) ? r->verify_ns : r->elapsed_ns;

	return ns ? (double)ns / 1e9 : 1e-9;
}
