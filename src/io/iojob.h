/*
 * iojob.h: fsbench's fio-class I/O core.
 *
 * A job is a struct io_options (fio's option names and meanings, filled
 * from the io workload's parameter table, so the same table drives
 * `run io:...`, `fsbench io --opt=...` and fio job files).  A group is a
 * set of jobs that run at the same time; fio's stonewall starts a new one.
 * Every job runs numjobs threads.  Each thread owns its files, request
 * slots, buffers, PRNG and latency histograms, all allocated before the
 * first I/O, so the I/O loop does no malloc, takes no lock and prints
 * nothing; the results are merged exactly when the group ends.
 */
#ifndef FSB_IOJOB_H
#define FSB_IOJOB_H

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <sys/stat.h>

#include "dedupe.h"
#include "engine.h"
#include "../core/histogram.h"
#include "../core/timeline.h"
#include "../core/param.h"
#include "../core/pattern.h"

/* fio's rw=: trimwrite trims each block and then writes it (randtrimwrite
 * at random offsets, each write on the range its trim freed) */
enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_READWRITE, RW_RANDRW,
	       RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE };
#define RW_CHOICES "read|write|randread|randwrite|rw|readwrite|randrw|trim|randtrim|trimwrite|" \
	"randtrimwrite"
/* fio's verify= types.  From VERIFY_MD5 on, a digest follows the header
 * (verify.c); the last five fio has and fsbench refuses (rules.c). */
enum verify_mode { VERIFY_NONE, VERIFY_CRC32C, VERIFY_META, VERIFY_PATTERN, VERIFY_CRC32C_INTEL,
		   VERIFY_MD5, VERIFY_SHA1, VERIFY_SHA256, VERIFY_SHA512, VERIFY_XXHASH,
		   VERIFY_CRC32, VERIFY_CRC64, VERIFY_CRC16, VERIFY_CRC7, VERIFY_SHA3_224,
		   VERIFY_SHA3_256, VERIFY_SHA3_384, VERIFY_SHA3_512, VERIFY_NULL };
#define VERIFY_CHOICES "0|crc32c|meta|pattern|crc32c-intel|md5|sha1|sha256|sha512|xxhash|crc32|" \
	"crc64|crc16|crc7|sha3-224|sha3-256|sha3-384|sha3-512|null"
/* fio's io_submit_mode: the job's thread issues its I/O, or iodepth
 * workers do (offload.c) */
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };
#define SUBMIT_CHOICES "inline|offload"
/* fio's fadvise_hint, in the order of its choices */
enum fadvise_hint { FADVISE_NONE, FADVISE_TYPE, FADVISE_RANDOM, FADVISE_SEQUENTIAL, FADVISE_NOREUSE };
#define FADVISE_CHOICES "0|1|random|sequential|noreuse"
/* fio's sync: the open flag of every file of the job */
enum sync_mode { SYNC_NONE, SYNC_0, SYNC_SYNC, SYNC_1, SYNC_DSYNC };
#define SYNC_CHOICES "none|0|sync|1|dsync"
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };
/* filestat's stat_type */
enum stat_type { STAT_STAT, STAT_LSTAT, STAT_STATX };
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
/* fio's fallocate=, how a write job's missing bytes are made: native and
 * posix (and 1) allocate them, keep allocates without the size and then
 * truncates, truncate and none (and 0) only truncate (the file is sparse) */
enum fallocate_mode { FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE, FALLOC_NONE,
		      FALLOC_0, FALLOC_1 };
#define FALLOCATE_CHOICES "native|posix|keep|truncate|none|0|1"
/* fio's continue_on_error, in the order of its choices, and the error
 * types it and ignore_error name (fio's error_type_bit) */
#define CONTINUE_CHOICES "none|read|write|io|verify|all|0|1"
/* cmdprio_percentage, cmdprio_bssplit: a request is issued with the job's
 * priority ([0]) or one of at most three others */
#define IO_PRIOS 4
/* unified_rw_reporting: fio's names, then its numbers for them */
#define UNIFIED_CHOICES "none|mixed|both|0|1|2"
enum { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
enum { ERR_READ, ERR_WRITE, ERR_VERIFY, ERR_TYPES };
#define IGNORE_MAX 32
/* Which errors a job goes on after: a type in mask, an errno on its list
 * (fio's default list EIO and EILSEQ). */
struct io_errors {
	unsigned mask;
	unsigned n[ERR_TYPES];
	int err[ERR_TYPES][IGNORE_MAX];
};

/* fio's zonemode: strided keeps the I/O in one zone of a file at a time;
 * zbd is for zoned block devices, which fsbench io does not drive */
enum zone_mode { ZONEMODE_NONE, ZONEMODE_STRIDED, ZONEMODE_ZBD };
#define ZONEMODE_CHOICES "none|strided|zbd"

/* fio's bssplit for one direction: sizes with their percentages, in the
 * order fio looks them up (by percentage). */
#define BSSPLIT_MAX 64
struct bs_split {
	unsigned n;
	uint64_t bs[BSSPLIT_MAX];
	unsigned perc[BSSPLIT_MAX];
};

/* fio's cmdprio_bssplit, one direction: I/Os of size bs[i] are issued
 * with a priority of their own pct[i] percent of the time: class[i] and
 * level[i], or cmdprio_class/cmdprio's where class[i] is 0. */
struct prio_split {
	unsigned n;
	uint64_t bs[BSSPLIT_MAX];
	unsigned pct[BSSPLIT_MAX];
	uint8_t class[BSSPLIT_MAX], level[BSSPLIT_MAX];
};

/* fio's random_distribution: which blocks a random job's I/Os go to. */
enum rand_dist { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS };
#define ZONES_MAX 256
struct zone_split {
	unsigned n;
	unsigned access[ZONES_MAX];	/* percent of the I/Os */
	uint64_t size[ZONES_MAX];	/* zoned: percent of the blocks; zoned_abs: bytes */
};
struct dist_spec {
	enum rand_dist kind;
	double value, center;		/* theta, h or deviation; center -1: none */
	struct zone_split zones[IO_DIRS];	/* per direction */
};

/* One file's generator: fio's zipf and pareto (Gray et al.'s quick zipf;
 * ranks scattered over the file by a hash), normal (the mean of 12
 * uniform draws, spread by a deviation). */
struct dist_state {
	struct rng rng;
	uint64_t n;			/* blocks */
	double zetan, zeta2, pareto_pow;
	uint64_t off, stddev;
};

/* fio's steady state: which measure, judged how, against what. */
enum ss_measure { SS_IOPS, SS_BW };
struct ss_spec {
	enum ss_measure measure;
	bool slope;			/* the window's slope, else its largest deviation */
	bool pct;			/* limit in percent of the window's mean */
	double limit;
};
#define IO_SS_MAX 600			/* ss_dur at most 10 minutes of 1 s samples */
#define IO_PCTS_MAX 20			/* percentile_list's length, as fio's */
#define IO_CPUS_MAX 1024		/* the CPUs cpus_allowed can name (CPU_SETSIZE) */

/*
 * The compound options as typed values.  Each is parsed once, when its row
 * is set (compound.c: the row's set callback), and everything after (the
 * rules across options, the I/O path, the reports) reads these.  The row's
 * own text field keeps what was written, which is what the store keeps,
 * so that a stored test reads back exactly (parse(format(x)) == x).
 */
struct io_parsed {
	int64_t seq_add;			/* ddir_seq_add (rw=read:-8k): bytes */
	uint64_t bsrange_min, bsrange_max;	/* bsrange; 0: none given */
	struct bs_split split[IO_DIRS];		/* bssplit (n 0: none) */
	struct prio_split prio_split[IO_DIRS];	/* cmdprio_bssplit (n 0: none) */
	struct dist_spec dist;			/* random_distribution */
	/* cpus_allowed and cpumask: the CPUs each names, and the highest (-1:
	 * none); whether this machine has them is checked when the job is
	 * validated, not when it is parsed (a stored job reads back anywhere) */
	uint64_t cpus_allowed[IO_CPUS_MAX / 64], cpumask[IO_CPUS_MAX / 64];
	int cpus_allowed_top, cpumask_top;
	double lat_pct;				/* latency_percentile: (0, 100] */
	int npcts;				/* percentile_list (0: fio's own) */
	double pcts[IO_PCTS_MAX];
	/* rate=, rate_iops=, rate_min=, rate_iops_min=: per direction, 0 none */
	uint64_t rate[IO_DIRS], rate_iops[IO_DIRS], rate_min[IO_DIRS], rate_iops_min[IO_DIRS];
	struct ss_spec ss;			/* ss= */
	/* ignore_error's lists per type (n 0: none given, fio's EIO and EILSEQ) */
	unsigned ignore_n[ERR_TYPES];
	int ignore[ERR_TYPES][IGNORE_MAX];
	struct data_spec vpat, bpat;		/* verify_pattern, buffer_pattern (pattern_len 0: none) */
	/* bs=READ,WRITE,TRIM: the three sizes, and whether they differ (then
	 * bs wrote them as bssplit; options.c) */
	uint64_t bs_dir[IO_DIRS];
	bool bs_differ;
};

struct io_options {
	char name[PARAM_STR_MAX];
	char description[PARAM_STR_MAX];
	/* What the job file asked that parses as fio parses it but that
	 * fsbench io cannot run (foreign.h; jobfile.c's refused options):
	 * `--parse-only` takes the job and names it, a run refuses it
	 * (io_options_validate).  Not parameters: never set from a table. */
	char foreign_engine[64];	/* fio's ioengine= that fsbench lacks */
	char norun[384];		/* the first refused option, "FILE:LINE: why" */
	/* A run's raw target (--fs raw, raw-mtd): the device the job runs on
	 * (its filename), which fsbench checked, holds and made the region
	 * of, and its bytes.  Set only by the io workload, never from a
	 * table: `fsbench io` and job files name files. */
	char target_device[PATH_MAX];
	uint64_t target_device_bytes;
	int rw;
	int64_t ddir_seq_nr;		/* rw=randread:N */
	char ddir_seq_add[PARAM_STR_MAX];	/* rw=read:SIZE, negative backwards */
	int rw_sequencer;
	int64_t rwmixread;
	uint64_t bs;
	char bsrange[PARAM_STR_MAX];
	char bssplit[PARAM_STR_MAX];
	char random_distribution[PARAM_STR_MAX];
	uint64_t size;
	uint64_t offset;
	uint64_t offset_increment;
	char filename[PARAM_STR_MAX];
	int64_t nrfiles;
	int64_t openfiles;
	bool create_on_open;
	int stat_type;
	int fallocate;
	char cpus_allowed[PARAM_STR_MAX];
	/* fio's NUMA placement (numa.c): node lists and MODE[:NODES] */
	char numa_cpu_nodes[PARAM_STR_MAX], numa_mem_policy[PARAM_STR_MAX];
	char cpumask[PARAM_STR_MAX];
	int cpus_allowed_policy;
	int64_t nice, prio, prioclass;
	uint64_t io_size;
	double max_latency;
	double latency_target, latency_window;
	char latency_percentile[PARAM_STR_MAX];
	bool latency_run;
	char percentile_list[PARAM_STR_MAX];
	char directory[PARAM_STR_MAX];
	int64_t numjobs;
	int64_t iodepth;
	int64_t iodepth_batch_submit;
	int64_t iodepth_batch_complete_min;
	int64_t iodepth_batch_complete_max;
	int64_t iodepth_low;
	int64_t loops;
	double runtime;
	bool time_based;
	double ramp_time;
	double startdelay;
	int64_t fsync;
	int64_t fdatasync;
	bool end_fsync;
	bool fsync_on_close;
	int sync;
	double thinktime, thinktime_spin;
	int64_t thinktime_blocks;
	int thinktime_blocks_type;
	bool rate_ignore_thinktime;
	char rate[PARAM_STR_MAX];
	char rate_iops[PARAM_STR_MAX];
	int rate_process;
	char rate_min[PARAM_STR_MAX];
	char rate_iops_min[PARAM_STR_MAX];
	int64_t rate_cycle;
	int64_t number_ios;
	uint64_t ba;
	int random_generator;
	bool exitall;
	int exit_what;
	bool exitall_on_error;
	char wait_for[PARAM_STR_MAX];
	int64_t flow, flow_id;
	double flow_sleep;
	char ss[PARAM_STR_MAX];
	double ss_dur, ss_ramp;
	bool overwrite;
	bool allow_file_create;
	bool allow_existing_write;
	char filename_format[PARAM_STR_MAX];
	int continue_on_error;
	int unified_rw_reporting;	/* index into UNIFIED_CHOICES; io_unified() */
	int64_t cmdprio_percentage, cmdprio_class, cmdprio;
	char cmdprio_bssplit[PARAM_STR_MAX];
	char ignore_error[PARAM_STR_MAX];
	bool error_dump;
	int zonemode;
	uint64_t zonesize, zonerange, zoneskip;
	bool unlink;
	bool invalidate;
	int fadvise_hint;
	bool direct;
	bool buffered;
	bool norandommap;
	int64_t randseed;
	int ioengine;
	int verify;
	uint64_t verify_interval;
	int64_t verify_backlog, verify_backlog_batch;
	bool verify_dump, verify_fatal;
	char verify_pattern[PARAM_STR_MAX];
	bool zero_buffers;
	bool refill_buffers, scramble_buffers;
	int64_t buffer_compress_percentage;
	char buffer_pattern[PARAM_STR_MAX];
	/* fio's deduplicable buffers (dedupe.c) */
	int64_t dedupe_percentage, dedupe_working_set_percentage;
	int dedupe_mode;		/* enum dedupe_mode */
	bool dedupe_global;
	/* each engine's own options (its options rows), by its place in the
	 * list (engines.c): io_engine_opts */
	_Alignas(8) unsigned char engine_opts[ENGINES_MAX][ENGINE_OPTS_MAX];
	bool stonewall;
	bool new_group;
	bool wait_for_previous;
	bool thread;
	bool group_reporting;
	bool disk_util;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	bool disable_lat;
	bool disable_clat;
	bool disable_slat;
	bool do_verify;
	bool fill_device;
	bool create_serialize;
	bool gtod_reduce;
	bool disable_bw_measurement;
	char write_lat_log[PARAM_STR_MAX];
	char write_bw_log[PARAM_STR_MAX];
	char write_iops_log[PARAM_STR_MAX];
	char write_iolog[PARAM_STR_MAX];
	char read_iolog[PARAM_STR_MAX];
	bool replay_no_stall;
	int64_t replay_time_scale;	/* percent: 200 replays twice as fast */
	int io_submit_mode;		/* SUBMIT_* */
	bool serialize_overlap;
	int64_t log_avg_msec;
	bool log_offset;
	bool log_prio;		/* the logs' priority column: the ioprio value, not 1 for RT */
	bool per_job_logs;
	uint64_t log_compression;
	bool log_store_compressed;
	struct io_parsed parsed;	/* the compound rows' values, as parsed when set */
};

/* Activity over time (core/timeline.h): a window every IO_STAT_MS (fio's
 * bw_avg_time and iops_avg_time, 500 ms) or log_avg_msec, per thread. */
#define IO_STAT_MS 500
#define IO_WIN_CAP 4096	/* then windows merge in pairs, doubling the width */
/* fio's bandwidth and IOPS statistics over the full windows of each thread
 * (KiB/s and IO/s; samples = how many windows). */
struct io_rate_stats {
	double bw_min, bw_max, bw_mean, bw_dev;
	double iops_min, iops_max, iops_mean, iops_dev;
	uint64_t samples;
};
/* fio's distributions: I/Os by queue depth at submission, submit and reap
 * calls by how many they took (buckets 1 2 4 8 16 32 >=64; 0 4 8 16 32 64
 * >=64). */
#define IO_DEPTH_BUCKETS 7

/* The parameter table for struct io_options (options.c), with every
 * engine's own rows in it, made when the program loads. */
extern struct param_def io_option_defs[];
/* The job's engine's own options: its struct (engine.h's options). */
static inline const void *io_engine_opts(const struct io_options *o)
{
	return o->engine_opts[o->ioengine >= 0 && o->ioengine < ENGINES_MAX ? o->ioengine : 0];
}

/* fio's cpus_allowed ("0-3,6") or else cpumask (a bitmask, 0x prefix for
 * hex) as a CPU set, and how many CPUs it holds (0: neither given).  -1
 * with the error set for a CPU this machine does not have. */
int io_cpu_set(const struct io_options *o, cpu_set_t *set);

/* Which latencies' percentiles the job reports, as fio decides it: its
 * clat_percentiles, lat_percentiles and slat_percentiles, each off when
 * that latency is not recorded (disable_clat, _lat, _slat; gtod_reduce
 * turns all three off). */
struct io_pct_on { bool clat, lat, slat; };
struct io_pct_on io_pct_on(const struct io_options *o);

/* A job's file name without filename=: filename_format with fio's $jobname,
 * $jobnum (the copy, from 0), $filenum and $clientuid (empty here: fio's
 * client/server mode) in any case, or fio's NAME.COPY.FILE.  0, or -1
 * with the error set when it does not fit. */
int io_file_name(const struct io_options *o, int copy, int file, char *buf, size_t len);
/* fio's continue_on_error and ignore_error ("READ,WRITE,VERIFY", each a
 * ':' list of errno names or numbers; a list given makes its type go on).
 * 0, or -1 with the error set. */
int io_errors(const struct io_options *o, struct io_errors *e);

/* paths.c: where a job may write (the rule is said there).  Whether its
 * directory=, filename= and file names stay beneath the directory it runs
 * in (run: the target, always; io: unless allow_existing_write), and,
 * given base, no symbolic link is on the way.  0, or -1 with the error set. */
int io_where_check(const struct io_options *o, const char *base, bool run);
/* The job writes, trims or overwrites what it works on. */
bool io_job_modifies(const struct io_options *o);
/* Whether the job may use path, which was there before it (st its lstat):
 * read a regular file long enough (need bytes), nothing more without
 * allow_existing_write.  0, or -1 with the error set. */
int io_existing_check(const struct io_options *o, const char *path, const struct stat *st,
		      uint64_t need);
/* The path of copy thread's file-th file of a job run in dir; *rel is the
 * offset in buf of the part beneath dir (-1: not beneath it). */
int io_job_path(const struct io_options *o, const char *dir, int thread, int file, char *buf,
		size_t len, int *rel);
/* Every file of the job in dir, as it is now: io_where_check and, for each
 * that is there, io_existing_check: the refusal before any I/O. */
int io_files_check(const struct io_options *o, const char *dir);

/* Checks across options (bsrange syntax, verify with bsrange, ...); the
 * first is io_options_runnable. */
int io_options_validate(const struct io_options *o);
/* What the job file asked that parses but fsbench io cannot run (an
 * engine of fio's it lacks, an option it cannot honour): -1 with the
 * reason, which a run says first, before anything the job lacks. */
int io_options_runnable(const struct io_options *o);
/* Bytes the job's files occupy. */
uint64_t io_options_space(const struct io_options *o);
bool io_is_random(const struct io_options *o);
/* fio's rate= and rate_iops=: each thread's bytes per second in each
 * direction (0: no cap), rate= where given, else rate_iops= times the
 * smallest block.  0, or -1 with the error set when that overflows. */
int io_rate_bps(const struct io_options *o, uint64_t min_bs, uint64_t bps[IO_DIRS]);
/* A random job that keeps fio's random map (every block once a pass). */
bool io_uses_map(const struct io_options *o);
/* The verify a job does: verify=, or pattern when only verify_pattern= is given (fio). */
int io_verify_mode(const struct io_options *o);
/* The distinct I/O priorities cmdprio_percentage and cmdprio_bssplit give
 * (value[0] the job's own, 0): their count, or -1 (error set) when more
 * than IO_PRIOS; index[dir][i] is cmdprio_bssplit's i-th entry's. */
int io_prio_table(const struct io_options *o, uint16_t value[IO_PRIOS],
		  uint8_t index[IO_DIRS][BSSPLIT_MAX]);
/* unified_rw_reporting as UNIFIED_NONE, _MIXED or _BOTH */
int io_unified(const struct io_options *o);
/* verify='s name for mode m ("md5", "crc32c"). */
const char *io_verify_name(int m);
/* read_iolog=FILE: the job shaped to the log (replay.c): nrfiles its
 * files, size and bs to hold its furthest and shortest I/O, rw its
 * directions, offset 0.  0 without one; -1 with the error set. */
int io_replay_shape(struct io_options *o);
/* `fsbench io --inflate-log=FILE`: a log written with log_store_compressed
 * (logs.c), decompressed to out.  0, or -1 with the error set. */
int io_log_inflate(const char *path, FILE *out);
/* The bytes each verify header covers for block sizes min..max:
 * verify_interval as fio settles it. */
uint64_t io_verify_chunk(const struct io_options *o, uint64_t min, uint64_t max);
/* The posix_fadvise advice fio's fadvise_hint gives a job's files (-1: none). */
int io_fadvise_advice(const struct io_options *o);
bool io_has_reads(const struct io_options *o);
bool io_has_writes(const struct io_options *o);
bool io_has_trims(const struct io_options *o);
/* The job issues this direction (io_has_reads, _writes or _trims). */
bool io_has_dir(const struct io_options *o, int dir);

/* What one job did, all its threads merged. */
struct io_result {
	uint64_t ios[IO_DIRS], bytes[IO_DIRS];
	uint64_t elapsed_ns;		/* longest thread's measured time */
	uint64_t verify_ns;		/* longest read-back after a verified write job */
	/* fio's three latencies: clat from the I/O's issue (a synchronous
	 * call's start, or when the async submit call returned) to its
	 * completion, with percentiles; lat from before the submit call; slat
	 * the submit call itself (async engines only, as fio) */
	struct histogram clat;		/* all directions */
	struct histogram dir_clat[IO_DIRS];
	struct moments lat[IO_DIRS], slat[IO_DIRS];
	/* lat's and slat's percentiles, filled only where the job asked for
	 * them (io_pct_on): fio's lat_percentiles and slat_percentiles */
	struct histogram lat_hist[IO_DIRS], slat_hist[IO_DIRS];
	/* fsync=/fdatasync=: each call's time, as fio's "sync" section */
	struct histogram sync;
	/* cmdprio_percentage, cmdprio_bssplit: each direction's latencies by
	 * priority, [0] the job's own, the others prio_value's (ioprio:
	 * class << 13 | level; 0 for one not used); fio's "prios" */
	struct histogram prio_hist[IO_DIRS][IO_PRIOS];
	uint16_t prio_value[IO_PRIOS];
	uint64_t usr_ns, sys_ns;	/* the I/O threads' CPU from the measured start on */
	double compress_ratio;		/* zstd size / size of data written; -1 = none */
	size_t compress_unit;		/* the pieces it was compressed in (compress.h) */
	const char *compress_how;	/* "as btrfs stores it" (static text) */
	uint64_t verified_blocks;
	/* continue_on_error: the errors gone past, and the first one's errno */
	uint64_t total_err;
	int first_error;
	struct io_rate_stats rate[IO_DIRS];
	struct timeline series;
	uint64_t depth_level[IO_DEPTH_BUCKETS], depth_submit[IO_DEPTH_BUCKETS],
		 depth_complete[IO_DEPTH_BUCKETS];
	uint64_t ctx, majf, minf;	/* getrusage of the I/O threads */
	/* a thread's failure, as fio's err=: the errno (EIO for rate_min,
	 * EILSEQ for verify, as fio's), and what fsbench said of it */
	int error;
	char errmsg[512];
	uint64_t start_ns;		/* when measurement began (the first thread's) */
	/* end_fsync, fsync_on_close: how long after the start the last
	 * thread's final fsync returned (0: none), inside elapsed_ns as fio
	 * times it */
	uint64_t synced_ns;
	/* threads, and their time added up (each job's longest, with its
	 * read-back, times its threads): fio's jobs=, and what its CPU
	 * percentages and job_runtime are of */
	int nthreads;
	uint64_t runtime_ns;
	uint64_t depth_sum, depth_n;	/* requests in flight as each was queued */
	/* what the threads decided, whatever the clock showed: thinktime's
	 * stalls taken whole and their time; the rate's sleeps and the
	 * requests in flight at each (the queue drains first: 0) */
	uint64_t think_n, think_ns, rate_sleeps, rate_sleep_inflight;
	unsigned latency_depth;		/* latency_target: the depth found (fio's); else 0 */
	/* ss_dur: the steady-state window (fio's), oldest first */
	struct io_ss_result {
		bool on, attained;
		struct ss_spec spec;
		unsigned dur;			/* samples (seconds) */
		double criterion, deviation, slope;
		uint64_t iops[IO_SS_MAX], bw[IO_SS_MAX];
	} ss;
};

struct io_job;
struct io_iolog;
struct iolog_replay;

/* Seconds a direction ran: the read-back of a verified write job is its
 * own read phase, as fio times it; otherwise the job's measured time. */
double io_dir_secs(const struct io_options *o, const struct io_result *r, int dir);

/* One I/O thread: engines reach their state through engine_data. */
struct io_thread {
	const struct io_options *o;
	const struct io_engine_ops *ops;
	struct io_job *job;
	void *engine_data;
	int id;				/* in its job, from 0 */
	/* in the run, from 0, jobs in order (fio's thread_number less one):
	 * what its seeds derive from, so two jobs of a job file draw
	 * different offsets, as fio's do, though both have randseed's default */
	int seq;
	struct io_file *files;
	int nfiles;
	struct io_req *reqs;
	unsigned depth;
	unsigned char *bufmem;
	size_t buf_size;
	/* engine-visible scratch for queued requests awaiting commit */
	struct io_req **pending;
	unsigned npending;

	/* everything below belongs to the core */
	struct io_req **free_reqs;
	unsigned nfree;
	struct io_req *held;		/* queue() said busy: retry first */
	int fixed_dir;			/* DIR_READ, _WRITE, _TRIM, or -1 for a mix */
	/* trimwrite: each file's trim, then the write of the same block;
	 * randtrimwrite: the range of the trim whose write is next */
	bool trimwrite, trim_pending;
	struct io_file *trim_file;
	uint64_t trim_off, trim_len;
	bool random, use_map, verify;
	bool async;			/* the engine completes later: slat is measured */
	bool own_table;			/* unshare(CLONE_FILES) done: closed at its end */
	bool ops_at_open;		/* ENGINE_FILE_OP, create_on_open=0 (backend.c) */
	/* cpus_allowed/cpumask: the CPUs this thread may run on (its own one
	 * with cpus_allowed_policy=split); ncpus 0: any */
	cpu_set_t cpus;
	int ncpus;
	uint64_t max_lat_ns;		/* max_latency: an I/O's lat above it fails the job */
	/* latency_target: fio's search for the deepest queue that keeps
	 * latency_percentile of the I/Os within the target over a window:
	 * at most lat_qd in flight, bisected between low and high after
	 * each window; the depth found gets one last window, its statistics
	 * alone (lat_final), and ends the job.  A change of depth drains the
	 * queue first (lat_quiesce), as fio's io_u_quiesce.  Without a
	 * target lat_qd is the depth, the async loop's one limit. */
	bool lat_on, lat_final, lat_quiesce, lat_restart, lat_done;
	/* fio's disable_clat, disable_lat, disable_slat and
	 * disable_bw_measurement: that figure not kept.  gtod: gtod_reduce,
	 * or all but lat off (fio's gtod_reduce()): no I/O is timed and the
	 * loop reads the clock once every 64 I/Os (fio's ts_cache) */
	bool no_clat, no_lat, no_slat, no_bw, gtod;
	/* none of those, and no lat_h, slat_h or prio_h: each completion
	 * keeps every figure without reading a flag for each (backend.c) */
	bool plain;
	unsigned ts_cache_nr;
	uint64_t ts_cache;
	unsigned lat_qd, lat_qd_low, lat_qd_high, lat_stable;
	uint64_t lat_target_ns, lat_window_ns, lat_ts, lat_ios, lat_failed;
	double lat_pct;
	bool refill, scramble;	/* before each write: new data, or fio's small scramble */
	struct rng rng;
	struct io_dedupe dedupe;	/* dedupe_percentage's state (dedupe.c) */
	struct permutation perm;
	struct data_spec data;
	struct data_spec vpat;		/* verify_pattern (pattern_len 0: none) */
	uint32_t vchunk;		/* verify_interval: a header (or pattern check) each */
	unsigned char *vtemplate;	/* a chunk of verify_pattern, [vchunk] */
	/* verify with sizes that vary: per block, the longest write begun
	 * there (the read-back's spans); NULL with one size */
	uint32_t *wlen;
	int vmode;			/* io_verify_mode */
	uint64_t seed;
	uint64_t min_bs, max_bs;
	uint64_t unit;			/* the block: min_bs, or ba for random offsets */
	uint64_t blocks;		/* per file, in units */
	uint64_t total_blocks;		/* over all the thread's files */
	uint64_t pass_index;		/* random map: I/Os issued this pass */
	uint64_t pass, pass_bytes, pass_end;
	int next_file;
	uint64_t issued_bytes, target_bytes;
	uint64_t sync_every, writes_since_sync;
	unsigned batch_submit, batch_complete, batch_complete_max, depth_low;
	uint64_t depth_sum, depth_n;
	uint64_t stalls, stalls_ns, rate_sleeps, rate_sleep_inflight;	/* io_result's think_n, ... */
	struct io_file *sync_file;
	uint8_t *written;		/* verify: blocks written, 1 bit each */
	/* verify_backlog: the blocks written and not read back yet, in the
	 * order written (fio's io_hist list), HIST_FLIGHT set until the write
	 * completes (hist_at[request] is its entry); every verify_backlog of
	 * them, a batch of backlog_batch is read back, once the last I/O done
	 * was not a read (last_done) */
	uint64_t *hist, *hist_at;
	uint64_t hist_cap, hist_head, hist_len, backlog, backlog_batch, vbatch;
	int last_done;
	struct io_errors errs;		/* continue_on_error, ignore_error */
	uint64_t total_err;
	int first_error;
	struct bs_split split[IO_DIRS];	/* bssplit, per direction */
	uint64_t split_min[IO_DIRS];	/* each direction's smallest bssplit size */
	/* A random map of blocks, as fio's, where I/Os vary in size: an I/O
	 * starts at a free block (the permutation's, or the next free one
	 * after it) and is cut where a used one begins; a pass ends when
	 * every block is used. */
	uint64_t *map, mapped;
	/* random_distribution other than random (no random map, as fio):
	 * one generator per file, files in turn */
	struct dist_spec dist;
	struct dist_state *dstate;	/* [nfiles] */
	/* rate: fio's schedule, in ns from the epoch (the start, then the
	 * end of ramp_time): an I/O in a direction may go once its bytes so
	 * far fit the rate */
	bool rated, rate_waiting;	/* waiting: ahead, and the queue drains first */
	uint64_t rate_bps[IO_DIRS], rate_issued[IO_DIRS], rate_next[IO_DIRS], rate_epoch;
	uint64_t rate_wait;		/* the sleep decided before the drain */
	int rate_dir;
	struct rng rate_rng;		/* rate_process=poisson */
	/* rate_min, rate_iops_min: fio's check at completions, once a
	 * rate_cycle has passed since the last, after 2 s from the start */
	bool rmin_on;
	uint64_t rmin_bps[IO_DIRS], rmin_iops[IO_DIRS], rmin_cycle_ns, begin_ns;
	uint64_t rmin_at[IO_DIRS], rmin_bytes[IO_DIRS], rmin_ios[IO_DIRS];
	uint64_t max_ios;		/* number_ios times loops; 0: none */
	atomic_bool terminate;		/* exitall or steady state: end as at the runtime's end */
	/* steady state: what the check thread reads while this one runs */
	bool ss_on;
	uint64_t done_ios, done_bytes;	/* written and read with __atomic, relaxed */
	atomic_bool running;
	/* flow: the run's counter of this flow_id, and this thread's share */
	struct io_flow *flow;
	uint64_t flow_count, flow_sleep_ns;
	bool flow_wait;			/* ahead of its share: drain and sleep */
	/* thinktime: after thinktime_blocks I/Os (issued, or completed), the
	 * queue drains and the thread spins, then sleeps */
	uint64_t think_ns, think_spin_ns, think_last, issued_n, completed_n;
	bool think_due;
	int64_t seq_add;		/* rw=read:SIZE */
	uint64_t seq_left;		/* rw=randread:N: sequential I/Os before a new offset */
	struct io_file *last_file;
	/* zonemode=strided (fio's setup_strided_zone_mode): the zone at
	 * zone_off, zone_bytes done in it; a random offset is the zone's
	 * permutation's next (zone_draws so far), or any block with
	 * norandommap */
	bool zoned;
	uint64_t zone_size, zone_range, zone_skip, zone_off, zone_bytes, zone_draws, zone_n;
	struct permutation zone_perm;
	int last_dir;			/* the last I/O's, for rate_ignore_thinktime */
	bool stats_on;
	uint64_t ramp_end, deadline;
	uint64_t start_ns, end_ns, verify_ns;
	uint64_t synced_ns;		/* when its end_fsync returned (0: none) */
	uint64_t usr_start, sys_start, usr_ns, sys_ns;
	uint64_t ios[IO_DIRS], bytes[IO_DIRS];
	uint64_t verified;
	struct histogram clat[IO_DIRS];
	struct moments lat[IO_DIRS], slat[IO_DIRS];
	/* [IO_DIRS] each, only with lat_percentiles / slat_percentiles on an
	 * async engine (a synchronous call's lat is its clat): NULL otherwise,
	 * so a job that asks for neither adds nothing per I/O */
	struct histogram *lat_h, *slat_h;
	/* cmdprio_percentage: the share of requests given cmdprio_value (the
	 * ioprio, class << 13 | level), drawn from a generator of their own
	 * so that the offsets stay the job's; each priority's latencies (lat's
	 * with lat_percentiles, else clat's, as fio's), [dir][0 or 1] */
	unsigned cmdprio_pct;
	bool cmdprio_on;
	uint16_t prio_value[IO_PRIOS];	/* [0] the job's own (0) */
	uint16_t own_prio;	/* prio/prioclass as an ioprio value (0: none), for the logs */
	uint8_t prio_index[IO_DIRS][BSSPLIT_MAX];	/* cmdprio_bssplit's entries' */
	struct rng prio_rng;
	struct histogram (*prio_h)[IO_PRIOS];
	struct histogram sync_h;	/* fsync=/fdatasync= calls' times */
	/* activity windows and fio's distributions */
	struct winbuf wb;
	uint64_t depth_level[IO_DEPTH_BUCKETS], depth_submit[IO_DEPTH_BUCKETS],
		 depth_complete[IO_DEPTH_BUCKETS];
	uint64_t ctx_start, majf_start, minf_start, ctx, majf, minf;
	/* log_avg_msec=0 with a log asked: every I/O, in chunks allocated as
	 * they fill (never per I/O) */
	struct io_logent **chunks;
	unsigned nchunks, chunk_used;
	bool log_each;
	struct io_iolog *iolog;		/* write_iolog (iolog.c), NULL without */
	/* read_iolog (replay.c): the job's log, the next entry, the first
	 * I/O's stamp (pacing counts from it) */
	const struct iolog_replay *replay;
	size_t replay_at;
	uint64_t replay_us0;
	bool replay_started;
	int error;
	char errmsg[8192];
};

/* One logged I/O (log_avg_msec=0). */
struct io_logent {
	uint64_t t_ns, lat_ns, slat_ns, offset;
	uint32_t len;
	uint8_t dir;
	uint16_t prio;		/* the I/O's ioprio value (class << 13 | level) */
};
#define IO_LOG_CHUNK 65536

/* Run a group of jobs at once: all their threads start their I/O
 * together.  dir is where relative file names live.  results[i] receives
 * job i's merged result.  Returns 0, or -1 with the first failing
 * thread's error set.  Files fsbench created are removed unless keep. */
int io_group_run(const struct io_options *jobs, int njobs, const char *dir,
		 struct io_result *results, bool keep);

/* fio's group_reporting across jobs: src (a later job of dst's reporting
 * group) added into dst, as fio reports the group as one (its counts,
 * latencies, bandwidth statistics and CPU pooled; dst's name, options and
 * timeline). */
void io_result_merge(struct io_result *dst, const struct io_result *src);
/* An empty result: no I/O, every histogram empty. */
void io_result_init(struct io_result *r);
/* fio's unified_rw_reporting: r with every direction folded into the
 * first (counts, latencies, windows pooled as fio's sum_thread_stats),
 * the others empty; malloc'd (the caller frees it), NULL when out of
 * memory. */
struct io_result *io_result_mixed(const struct io_result *r);

/* Files a run made, for the caller to remove when it is done with them:
 * a job file's later groups use what an earlier one laid out, as fio's
 * jobs do (ssd-test.fio's write jobs overwrite the file its read job
 * wrote), so a group leaves them.  Each is removed only while its name
 * still leads to the same device and inode. */
struct io_made {
	int n, cap;
	/* named: at a path the job named (filename=, directory=), kept as
	 * fio keeps every file it lays out; only fsbench's own default names
	 * in the working directory are tidied away */
	struct io_made_file { char *path; uint64_t dev, ino; bool named; } *f;
	bool keep;	/* --keep: kept, listed only so later jobs may write them */
};
/* Remove them (unless keep, or named), empty the list; 0, or -1 with the
 * error set when one could not be removed (the rest still are). */
int io_made_remove(struct io_made *m);

/* The same with what crosses jobs in a job file: groups[i] is job i's
 * reporting group (fio's groupid, which exitall's exit_what=group ends
 * together; NULL: one group), wait_for is looked up among the run's jobs
 * (one that ran before is done), and exit_all comes back true when
 * exit_what=all ended the run, so no later run may start. */
struct io_run {
	const struct io_options *jobs;
	const int *groups;
	int njobs;
	const char *dir;
	bool keep;
	struct io_result *results;	/* [njobs] */
	bool exit_all;
	/* the jobs ran and results[] holds their figures, though a job may
	 * have failed (its error set; io_run_jobs then returns -1, as fio's
	 * run does, and still reports every job) */
	bool ran;
	/* threads of the job file's earlier runs (fio numbers its threads
	 * over the whole file, and seeds them from the number) */
	int first_thread;
	/* non-NULL: the files this run makes go on the list rather than
	 * being removed at its end (unless keep) */
	struct io_made *made;
	/* non-NULL: [every thread of the run, jobs in order] each thread's
	 * own result, for fio's entry per job copy without group_reporting */
	struct io_result *each;
};
int io_run_jobs(struct io_run *run);

/* The same as two steps, for a workload that repeats the timed part:
 * io_job_open lays the files out (not timed), io_job_run does the I/O,
 * io_job_close removes the files. */
int io_job_open(const struct io_options *o, const char *dir, struct io_job **out);
int io_job_run(struct io_job *job, struct io_result *res);
void io_job_close(struct io_job *job);

/* "Random Write", "Sequential Read", ... as PTS titles them. */
const char *io_rw_title(int rw);

/* A reporting group's totals for fio's "Run status group" lines and its
 * entries' "per=" (each entry added with io_group_add). */
struct io_group_stats {
	uint64_t bytes[IO_DIRS];
	double min_bw[IO_DIRS], max_bw[IO_DIRS];	/* bytes a second, over its entries */
	uint64_t min_run[IO_DIRS], max_run[IO_DIRS];	/* ms */
	unsigned n[IO_DIRS];
};
void io_group_add(struct io_group_stats *g, const struct io_options *o, const struct io_result *r);
void io_group_text(const struct io_group_stats *g, int group, char *buf, size_t len);

/* One job's result in fio's shape (iotext.c): the text fio prints, into
 * buf (g, its group's totals, or NULL: the entry as its own group); and
 * the same numbers as a JSON object. */
void io_result_text(const struct io_options *opt, const struct io_result *r, int group,
		    const struct io_group_stats *g, char *buf, size_t len);
/* fio's JSON layout for one job (`fsbench io --output-format=json`):
 * given = the options as given for it, "key=value" lines ("job options"). */
json_t *io_result_json(const struct io_options *opt, const struct io_result *r, int group,
		       const char *given);
/* The same with fio's json+ histogram "bins" beside each percentile list
 * (--output-format=json+, what fio_jsonplus_clat2csv reads). */
json_t *io_result_json_plus(const struct io_options *opt, const struct io_result *r, int group,
			    const char *given);
/* "key=value" lines as a JSON object of strings (fio's "job options"). */
json_t *io_given_json(const char *given);
/* The device under the job's files over a group's run, as fio's
 * disk_util reports it. */
struct io_disk {
	char name[64];
	uint64_t read_ios, write_ios, read_merges, write_merges, read_ticks, write_ticks, in_queue;
	double util;	/* % of the time with a request in flight */
};
/* fio's "Disk stats (read/write):" block, for the normal text. */
void io_disk_text(const struct io_disk *d, char *buf, size_t len);
/* fio's terse format, version 3: one line of 130 ';'-separated fields
 * (129 without a disk). */
void io_result_terse(const struct io_options *opt, const struct io_result *r, int group,
		     const struct io_disk *disk, char *buf, size_t len);

#endif
