/*
 * options.c: every I/O option, declared once, with fio's names, fio's
 * other names (PARAM_ALIAS rows) and its special keys (rw=read:8k,
 * rwmixwrite) as rows of their own.  The io workload (`run io:...`,
 * suites), fio job files (jobfile.c, which adds only what a file has
 * beyond options: sections, $-variables, fio's options that are accepted
 * or refused with a reason, filesize's range) and `fsbench
 * io --key=value` all parse this table, and `fsbench list tests` and
 * `fsbench io --help` print it.  Compound values are parsed by their rows'
 * callbacks (compound.c); each engine's own rows come from its file and
 * join the table when the program loads.
 */
#include "compound.h"
#include "iojob.h"
#include "../core/error.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio's rw with an offset modifier: rw=randread:8 (a new random offset
 * every 8 I/Os), rw=write:4k (a 4k hole after each), rw=read:-8k
 * (backwards): the pattern, then ddir_seq_nr or ddir_seq_add. */
static int rw_set(const struct param_def *d, void *obj, const char *value)
{
	const char *colon = strchr(value, ':');
	char base[64];

	if (!colon)
		return param_set_value(d, obj, value);
	size_t n = (size_t)(colon - value);
	if (n >= sizeof(base))
		return error_set("option 'rw': '%s' is not a pattern", value);
	memcpy(base, value, n);
	base[n] = '\0';
	if (param_set_value(d, obj, base))
		return -1;
	const char *row = io_is_random(obj) ? "ddir_seq_nr" : "ddir_seq_add";
	if (params_set(io_option_defs, obj, row, colon + 1))
		return error_prefix("rw=%s", value);
	return 0;
}

/* fio's bs=READ[,WRITE[,TRIM]] (an empty field is the default).  Sizes
 * that agree are one size (bs=8k,8k,8k, as fio's own test jobs write it).
 * Sizes that differ become a bssplit of one size per direction (which is
 * what fio's per-direction sizes are), kept as bssplit's text so that the
 * stored parameters read back to the same job; bssplit given too wins, as
 * in fio.  Where the job then mixes directions whose sizes differ, the
 * rules refuse it (io_options_validate): fio ends a randrw job of 1 MiB
 * with bs=8k,32k after 488 KiB (13 reads of 8k, 12 writes of 32k), by
 * rules of its random map that fsbench does not follow, and a figure that
 * is not fio's is worse than none.  t0023's bs=4k,4k,8k with
 * randtrimwrite is fio's: every trim 8k and every write the trim's. */
static void bs_split_text(const uint64_t size[IO_DIRS], char *buf, size_t len)
{
	snprintf(buf, len, "%llu/100,%llu/100,%llu/100", (unsigned long long)size[0],
		 (unsigned long long)size[1], (unsigned long long)size[2]);
}

static int bs_set(const struct param_def *d, void *obj, const char *value)
{
	struct io_options *o = obj;
	uint64_t size[IO_DIRS];
	int n = 0;

	for (const char *p = value;; n++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char field[32];
		if (n == IO_DIRS || len >= sizeof(field))
			return error_set("option 'bs': '%s' is not SIZE[,SIZE[,SIZE]] (read, write, "
					 "trim)", value);
		memcpy(field, p, len);
		field[len] = '\0';
		if (param_set_value(d, obj, field[0] ? field : d->def))
			return -1;
		size[n] = o->bs;
		if (!comma)
			break;
		p = comma + 1;
	}
	/* fio: a direction not given takes the one before it */
	for (int k = n + 1; k < IO_DIRS; k++)
		size[k] = size[k - 1];
	/* a split this row wrote before goes with the sizes it was for */
	char split[96];
	bs_split_text(o->parsed.bs_dir, split, sizeof(split));
	if (o->parsed.bs_differ && !strcmp(o->bssplit, split) &&
	    params_set(io_option_defs, o, "bssplit", ""))
		return -1;
	o->bs = size[0];
	memcpy(o->parsed.bs_dir, size, sizeof(size));
	o->parsed.bs_differ = size[0] != size[1] || size[1] != size[2];
	if (!o->parsed.bs_differ || o->bssplit[0])
		return 0;
	bs_split_text(size, split, sizeof(split));
	return params_set(io_option_defs, o, "bssplit", split);
}

/* A fio option whose every value fsbench does the same for: only the
 * value's form is checked. */
static int any_bool(const struct param_def *d, void *obj, const char *value)
{
	bool b;

	(void)obj;
	if (parse_bool(value, &b))
		return error_set("option '%s': '%s' is not 0 or 1", d->name, value);
	return 0;
}

/* fio's rwmixwrite: the write share of a mix, kept as rwmixread */
static int rwmixwrite_set(const struct param_def *d, void *obj, const char *value)
{
	char *end, mixed[16];
	long w = strtol(value, &end, 10);

	(void)d;
	if (end == value || *end || w < 0 || w > 100)
		return error_set("option 'rwmixwrite': '%s' is not a percentage from 0 to 100", value);
	snprintf(mixed, sizeof(mixed), "%ld", 100 - w);
	return param_set_value(param_find(io_option_defs, "rwmixread"), obj, mixed);
}

#define P(f) offsetof(struct io_options, f)
/* fio's other names are rows of their own (PARAM_ALIAS) after the option
 * they name: every path that reads this table reads them. */
static const struct param_def rows_before_engines[] = {
	PARAM_STRING("name", struct io_options, name, "job",
		     "job name; files are NAME.THREAD.FILE unless filename= is given"),
	PARAM_STRING("description", struct io_options, description, "",
		     "free text kept with the job"),
	{ "rw", PT_ENUM, P(rw), "read", 0, 0, RW_CHOICES,
	  "I/O pattern (rw and readwrite are the sequential mix; trims punch holes, with "
	  "ioengine=falloc; trimwrite trims each block, then writes it); PATTERN:N or :SIZE "
	  "sets ddir_seq_nr or ddir_seq_add, as fio's rw=randread:8", 0, rw_set },
	PARAM_ALIAS("readwrite", "rw"),
	{ "ddir_seq_nr", PT_INT, P(ddir_seq_nr), "1", 1, 1 << 30, NULL,
	  "random jobs: a new random offset every N I/Os, sequential in between (fio's rw=randread:N)" },
	PARAM_COMPOUND("ddir_seq_add", struct io_options, ddir_seq_add, "0",
		     "sequential jobs: skip this many bytes after each I/O, backwards if negative (fio's "
		     "rw=write:4k, rw=read:-8k)", io_set_seq_add),
	{ "rw_sequencer", PT_ENUM, P(rw_sequencer), "sequential", 0, 0, "sequential|identical",
	  "with ddir_seq_nr: the I/Os between random offsets follow on (sequential) or repeat the "
	  "offset (identical)" },
	{ "rwmixread", PT_INT, P(rwmixread), "50", 0, 100, NULL,
	  "percentage of reads in a mixed pattern" },
	{ "rwmixwrite", PT_INT, 0, "", 0, 100, NULL,
	  "percentage of writes in a mixed pattern (sets rwmixread to 100 minus it)", PF_DERIVED,
	  rwmixwrite_set },
	{ "bs", PT_SIZE, P(bs), "4k", 1, 1 << 30, NULL,
	  "block size of each I/O (fio's READ,WRITE,TRIM form too: bs=4k,4k,8k)",
	  0, bs_set },
	PARAM_ALIAS("blocksize", "bs"),
	PARAM_COMPOUND("bsrange", struct io_options, bsrange, "",
		     "MIN-MAX: each I/O a random multiple of MIN up to MAX (overrides bs)", io_set_bsrange),
	PARAM_ALIAS("blocksize_range", "bsrange"),
	PARAM_COMPOUND("random_distribution", struct io_options, random_distribution, "random",
		     "where random I/Os go: random, zipf[:THETA[:CENTER]] (1.1), pareto[:H] (0.2), "
		     "normal[:DEV%], zoned:ACCESS%/SIZE%:..., zoned_abs:ACCESS%/SIZE:... (not uniform: "
		     "no random map, as fio)", io_set_distribution),
	PARAM_COMPOUND("bssplit", struct io_options, bssplit, "",
		     "SIZE/PCT:SIZE/PCT...: each I/O's size drawn with these weights (a size without a "
		     "percentage shares what is left); lists after commas for writes and trims, "
		     "as fio's READ[,WRITE[,TRIM]] (overrides bs and bsrange)", io_set_bssplit),
	{ "size", PT_SIZE, P(size), "1g", 1, 1ULL << 50, NULL,
	  "bytes of I/O per thread per pass, split over nrfiles files", PF_SCALE },
	{ "offset", PT_SIZE, P(offset), "0", 0, 0, NULL, "byte offset where the I/O region starts" },
	PARAM_ALIAS("fileoffset", "offset"),
	{ "offset_increment", PT_SIZE, P(offset_increment), "0", 0, 0, NULL,
	  "each thread's region starts this much further: offset + N times it for the job's N-th "
	  "thread (disjoint regions of one shared file)" },
	PARAM_STRING("filename", struct io_options, filename, "",
		     "file to use, shared by all threads (default: one file per thread)"),
	PARAM_STRING("filename_format", struct io_options, filename_format, "",
		     "without filename=, each file's name: $jobname, $jobnum (the copy, from 0) and "
		     "$filenum replaced (empty: $jobname.$jobnum.$filenum, fio's)"),
	{ "nrfiles", PT_INT, P(nrfiles), "1", 1, 100000, NULL, "files per thread" },
	PARAM_ALIAS("nr_files", "nrfiles"),
	{ "openfiles", PT_INT, P(openfiles), "0", 0, 100000, NULL,
	  "fio's limit of files open at once (0 = nrfiles): fsbench holds every file open, so "
	  "a limit below nrfiles is refused (fio would open and close files in the run), but for "
	  "the file-operation engines, which hold none" },
	{ "create_on_open", PT_BOOL, P(create_on_open), "0", 0, 0, NULL,
	  "filecreate, filestat, filedelete: each file's operation in the run, on the clock, at "
	  "its first I/O; 0 (fio's default): when the job starts, off the clock, its latency "
	  "still counted (other engines: accepted; fsbench opens files before the clock)" },
	PARAM_COMPOUND("cpus_allowed", struct io_options, cpus_allowed, "",
		     "the CPUs the job's threads run on, as fio's list: 0-3,6 (empty: any)", io_set_cpus_allowed),
	PARAM_STRING("numa_cpu_nodes", struct io_options, numa_cpu_nodes, "",
		     "run the job's threads on these NUMA nodes' CPUs, as fio's: 0, 0-1, all (libnuma)"),
	PARAM_STRING("numa_mem_policy", struct io_options, numa_mem_policy, "",
		     "the threads' memory policy and their buffers': default, prefer:N, bind:NODES, "
		     "interleave[:NODES] or local, as fio's (libnuma)"),
	PARAM_COMPOUND("cpumask", struct io_options, cpumask, "",
		     "the same as a bitmask of CPUs, 0x3 for CPUs 0 and 1 (cpus_allowed wins)", io_set_cpumask),
	{ "cpus_allowed_policy", PT_ENUM, P(cpus_allowed_policy), "shared", 0, 0, "shared|split",
	  "shared: every thread may run on every CPU of the set; split: each thread on one CPU of "
	  "it, in turn" },
	{ "nice", PT_INT, P(nice), "0", -20, 19, NULL, "the job's threads' nice value" },
	{ "prio", PT_INT, P(prio), "-1", -1, 7, NULL,
	  "I/O priority within its class, 0 (highest) to 7 (-1: the default, as fio)" },
	{ "prioclass", PT_INT, P(prioclass), "0", 0, 3, NULL,
	  "I/O priority class: 1 real-time, 2 best-effort (with prio=, if not given), 3 idle" },
	{ "io_size", PT_SIZE, P(io_size), "0", 0, 1ULL << 50, NULL,
	  "bytes of I/O per thread per loop, over the region size= sets, around again when it is "
	  "done (0 = size)" },
	PARAM_ALIAS("io_limit", "io_size"),
	{ "max_latency", PT_DURATION, P(max_latency), "0", 0, 3600, NULL,
	  "fail the job (ETIMEDOUT, as fio) when an I/O's latency from before its submission is "
	  "above this (a number alone is us; 0 = none)", PF_USEC },
	{ "latency_target", PT_DURATION, P(latency_target), "0", 0, 3600, NULL,
	  "fio's queue-depth search: the deepest queue (up to iodepth) at which latency_percentile "
	  "of the I/Os over each latency_window stay within this latency (a number alone is us; "
	  "0 = none); the job then runs one window at that depth and ends", PF_USEC },
	{ "latency_window", PT_DURATION, P(latency_window), "0", 0, 3600, NULL,
	  "latency_target: how long each depth is judged over (a number alone is us)", PF_USEC },
	PARAM_COMPOUND("latency_percentile", struct io_options, latency_percentile, "100",
		     "latency_target: the percent of I/Os that must be within it (100: any I/O above "
		     "it steps the depth down at once)", io_set_latency_percentile),
	{ "latency_run", PT_BOOL, P(latency_run), "0", 0, 0, NULL,
	  "latency_target: keep searching to the runtime's end instead of ending at the depth found" },
	PARAM_COMPOUND("percentile_list", struct io_options, percentile_list, "",
		     "the completion latency percentiles reported, P:P:... (at most 20; empty: fio's "
		     "list)", io_set_percentile_list),
	{ "stat_type", PT_ENUM, P(stat_type), "stat", 0, 0, "stat|lstat|statx",
	  "filestat: the call that looks each file up (statx of the absolute path, as fio)" },
	{ "fallocate", PT_ENUM, P(fallocate), "native", 0, 0, FALLOCATE_CHOICES,
	  "how a write job's missing bytes are made before the clock: allocated (native, posix, "
	  "1), allocated without the size then extended (keep), or only extended (truncate, "
	  "none, 0: a sparse file)" },
	PARAM_STRING("directory", struct io_options, directory, "",
		     "directory for the files, relative to the target"),
	{ "numjobs", PT_INT, P(numjobs), "1", 1, 1024, NULL, "threads running this job" },
	{ "iodepth", PT_INT, P(iodepth), "1", 1, 65536, NULL,
	  "requests in flight per thread (io_uring, libaio)" },
	{ "iodepth_batch_submit", PT_INT, P(iodepth_batch_submit), "1", 0, 65536, NULL,
	  "submit requests this many at a time (0 = a full queue at once)" },
	PARAM_ALIAS("iodepth_batch", "iodepth_batch_submit"),
	{ "iodepth_batch_complete_min", PT_INT, P(iodepth_batch_complete_min), "1", 0, 65536, NULL,
	  "when waiting, wait for at least this many completions" },
	PARAM_ALIAS("iodepth_batch_complete", "iodepth_batch_complete_min"),
	{ "iodepth_batch_complete_max", PT_INT, P(iodepth_batch_complete_max), "0", 0, 65536, NULL,
	  "take at most this many completions at once (0 = iodepth_batch_complete_min, as fio)" },
	{ "iodepth_low", PT_INT, P(iodepth_low), "0", 0, 65536, NULL,
	  "once the queue was full, reap until this few are in flight (0 = iodepth, as fio)" },
	{ "loops", PT_INT, P(loops), "1", 1, 1000000, NULL, "passes over the region" },
	{ "runtime", PT_DURATION, P(runtime), "0", 0, 0, NULL,
	  "stop after this long (0 = when size is done)" },
	PARAM_ALIAS("timeout", "runtime"),
	{ "time_based", PT_BOOL, P(time_based), "0", 0, 0, NULL,
	  "keep going over the region until runtime is over" },
	{ "ramp_time", PT_DURATION, P(ramp_time), "0", 0, 0, NULL,
	  "run this long before recording anything" },
	{ "startdelay", PT_DURATION, P(startdelay), "0", 0, 0, NULL,
	  "sleep this long before starting" },
	{ "fsync", PT_INT, P(fsync), "0", 0, 1 << 30, NULL, "fsync after every N writes (0 = never)" },
	{ "fdatasync", PT_INT, P(fdatasync), "0", 0, 1 << 30, NULL,
	  "fdatasync after every N writes (0 = never)" },
	{ "end_fsync", PT_BOOL, P(end_fsync), "0", 0, 0, NULL, "fsync the files when the job ends" },
	{ "fsync_on_close", PT_BOOL, P(fsync_on_close), "0", 0, 0, NULL,
	  "fsync the files at the end of every pass" },
	{ "sync", PT_ENUM, P(sync), "none", 0, 0, SYNC_CHOICES,
	  "open the files O_SYNC (sync or 1) or O_DSYNC (dsync): every write waits for the device" },
	{ "thinktime", PT_DURATION, P(thinktime), "0", 0, 3600, NULL,
	  "stall this long after thinktime_blocks I/Os (a number alone is in us, as in fio)", PF_USEC },
	{ "thinktime_spin", PT_DURATION, P(thinktime_spin), "0", 0, 3600, NULL,
	  "of the stall, spin the CPU this long first, then sleep the rest (at most the stall)",
	  PF_USEC },
	{ "thinktime_blocks", PT_INT, P(thinktime_blocks), "1", 1, 1 << 30, NULL,
	  "I/Os between stalls (the queue drains before each)" },
	{ "thinktime_blocks_type", PT_ENUM, P(thinktime_blocks_type), "complete", 0, 0,
	  "complete|issue", "count the I/Os between stalls as completed or as issued" },
	{ "rate_ignore_thinktime", PT_BOOL, P(rate_ignore_thinktime), "0", 0, 0, NULL,
	  "with rate=, count a stall's time as time the rate was kept (catch up after it)" },
	PARAM_COMPOUND("rate", struct io_options, rate, "",
		     "cap each thread's bandwidth: READ[,WRITE[,TRIM]] bytes/s (500k, 1m; one value for "
		     "all; empty = no cap; READ:WRITE in a run io: list)", io_set_rate),
	PARAM_COMPOUND("rate_iops", struct io_options, rate_iops, "",
		     "cap each thread's I/Os per second: READ[,WRITE[,TRIM]] (rate= wins where both are "
		     "given)", io_set_rate),
	{ "rate_process", PT_ENUM, P(rate_process), "linear", 0, 0, "linear|poisson",
	  "linear: I/Os evenly spaced; poisson: exponential gaps with the same mean" },
	PARAM_COMPOUND("rate_min", struct io_options, rate_min, "",
		     "the job fails if a thread's bandwidth over a rate_cycle falls below READ[,WRITE] "
		     "bytes/s (checked at completions, after 2 s, as fio)", io_set_rate),
	PARAM_ALIAS("ratemin", "rate_min"),
	PARAM_COMPOUND("rate_iops_min", struct io_options, rate_iops_min, "",
		     "the same as I/Os per second (rate_min= wins where both are given)", io_set_rate),
	{ "rate_cycle", PT_INT, P(rate_cycle), "1000", 1, 3600000, NULL,
	  "ms: the window rate_min and rate_iops_min are measured over" },
	PARAM_ALIAS("ratecycle", "rate_cycle"),
	{ "number_ios", PT_INT, P(number_ios), "0", 0, 1LL << 50, NULL,
	  "end each thread after this many I/Os (times loops; 0 = no limit; size and runtime "
	  "still end it sooner)" },
	{ "ba", PT_SIZE, P(ba), "0", 0, 1 << 30, NULL,
	  "random offsets are multiples of this (0 = the smallest block size, as fio); not with "
	  "a random map or verify, where fio's own blocks disagree with it" },
	PARAM_ALIAS("blockalign", "ba"),
	{ "random_generator", PT_ENUM, P(random_generator), "tausworthe", 0, 0,
	  "tausworthe|lfsr|tausworthe64",
	  "lfsr: every block once a pass without a random map, even with norandommap (I/Os of "
	  "varying size may overlap), as fio's; the tausworthes: fsbench's own generator (the "
	  "offsets are not fio's with any of them)" },
	{ "exitall", PT_BOOL, P(exitall), "0", 0, 0, NULL,
	  "job files: when a thread of any job ends, end others as exit_what says (in any job, "
	  "it holds for all, as in fio)" },
	{ "exit_what", PT_ENUM, P(exit_what), "group", 0, 0, "group|stonewall|all",
	  "with exitall, what a thread's end ends: its reporting group (group), every job "
	  "running (stonewall), or everything, later groups too (all)" },
	{ "exitall_on_error", PT_BOOL, P(exitall_on_error), "0", 0, 0, NULL,
	  "job files: exitall, only when a thread ends with an error" },
	{ "flow", PT_INT, P(flow), "0", 0, 1000, NULL,
	  "job files: this job's weight in its flow: the jobs of a flow_id issue I/Os in the "
	  "ratio of their weights (0 = not in a flow)" },
	{ "flow_id", PT_INT, P(flow_id), "0", 0, 1 << 30, NULL, "the flow this job's weight counts in" },
	{ "flow_sleep", PT_DURATION, P(flow_sleep), "0", 0, 3600, NULL,
	  "a job ahead of its share drains its queue and sleeps this long (a number alone is us); "
	  "0: it spins, reaping nothing, as fio's", PF_USEC },
	PARAM_COMPOUND("ss", struct io_options, ss, "iops_slope:0.01%",
		     "with ss_dur: steady when, over the last ss_dur of 1 s samples, the IOPS (iops) or "
		     "bandwidth (bw) deviate from their mean by less than LIMIT, or their slope "
		     "(iops_slope, bw_slope) is below it; LIMIT in % of the mean, or IOPS, or bytes/s", io_set_ss),
	PARAM_ALIAS("steadystate", "ss"),
	{ "ss_dur", PT_DURATION, P(ss_dur), "0", 0, IO_SS_MAX, NULL,
	  "end the job once it is steady over this long (whole seconds, at least 2; 0 = off): "
	  "fio's steady-state detection" },
	PARAM_ALIAS("steadystate_duration", "ss_dur"),
	{ "ss_ramp", PT_DURATION, P(ss_ramp), "0", 0, 0, NULL,
	  "take the steady-state samples from this long (and one second) after the start" },
	PARAM_ALIAS("steadystate_ramp_time", "ss_ramp"),
	PARAM_STRING("wait_for", struct io_options, wait_for, "",
		     "job files: start only when every thread of this earlier job has ended"),
	{ "overwrite", PT_BOOL, P(overwrite), "0", 0, 0, NULL,
	  "a write job's missing file is written whole before the clock, not only allocated" },
	{ "unified_rw_reporting", PT_ENUM, P(unified_rw_reporting), "none", 0, 0, UNIFIED_CHOICES,
	  "fsbench io's reports: mixed (or 1) gives the directions as one, fio's \"mixed\"; "
	  "both (or 2) gives each and then that" },
	{ "cmdprio_percentage", PT_INT, P(cmdprio_percentage), "0", 0, 100, NULL,
	  "libaio, io_uring: this share of I/Os is issued with cmdprio_class/cmdprio's priority "
	  "(the others with the job's), each priority's latencies reported apart (fio's "
	  "\"prios\")" },
	PARAM_COMPOUND("cmdprio_bssplit", struct io_options, cmdprio_bssplit, "",
		     "libaio, io_uring: SIZE/PCT[/CLASS/LEVEL]:...[,WRITES]: that share of I/Os of "
		     "that size issued with that priority (cmdprio_class/cmdprio's without one), "
		     "each priority's latencies reported apart; at most three priorities",
		     io_set_cmdprio_bssplit),
	{ "cmdprio_class", PT_INT, P(cmdprio_class), "1", 1, 3, NULL,
	  "cmdprio_percentage's I/O priority class: 1 realtime (fio's default), 2 best-effort, "
	  "3 idle" },
	{ "cmdprio", PT_INT, P(cmdprio), "0", 0, 7, NULL,
	  "cmdprio_percentage's priority level within its class (0 highest)" },
	{ "continue_on_error", PT_ENUM, P(continue_on_error), "none", 0, 0, CONTINUE_CHOICES,
	  "go on after an error of this kind (io: reads and writes; 1 = all) that is on its "
	  "ignore_error list (EIO and EILSEQ unless given), counted in total_err and "
	  "first_error, as fio; the I/O that failed counts in total_ios, not in bytes or "
	  "latency" },
	PARAM_COMPOUND("ignore_error", struct io_options, ignore_error, "",
		     "READ,WRITE,VERIFY lists of errors (ENOSPC:EIO or numbers) continue_on_error "
		     "goes on after; a list given turns it on for its kind, as fio", io_set_ignore_error),
	{ "error_dump", PT_BOOL, P(error_dump), "1", 0, 0, NULL,
	  "accepted for fio compatibility: fsbench names the first error that ends a job, and "
	  "counts the ones continue_on_error goes past" },
	{ "allow_file_create", PT_BOOL, P(allow_file_create), "1", 0, 0, NULL,
	  "0: a missing file is an error, as fio's (the job uses only files already there)" },
	{ "allow_existing_write", PT_BOOL, P(allow_existing_write), "0", 0, 0, NULL,
	  "RISK OF DATA LOSS: 1 lets this job write to, extend or trim files that were there "
	  "before it, through a symbolic link, and in /; without it fsbench writes only files it "
	  "made, and refuses the job before any I/O (fsbench io only: a run never leaves its "
	  "target)" },
	{ "zonemode", PT_ENUM, P(zonemode), "none", 0, 0, ZONEMODE_CHOICES,
	  "strided: the I/O stays in a zone of zonerange bytes until zonesize bytes went there, "
	  "then skips zoneskip bytes to the next zone, back to the start past the end (fio's; "
	  "with one file, else none); zbd (zoned block devices) is refused" },
	{ "zonesize", PT_SIZE, P(zonesize), "0", 0, 1ULL << 50, NULL,
	  "zonemode=strided: bytes of I/O in a zone before the next" },
	{ "zonerange", PT_SIZE, P(zonerange), "0", 0, 1ULL << 50, NULL,
	  "zonemode=strided: the zone's size (0 = zonesize); a smaller zonesize does part of "
	  "each zone, a larger one goes over the zone again" },
	{ "zoneskip", PT_SIZE, P(zoneskip), "0", 0, 1ULL << 50, NULL,
	  "zonemode=strided: bytes skipped after a zone's range" },
	{ "unlink", PT_BOOL, P(unlink), "0", 0, 0, NULL,
	  "remove the files the job made when it ends, as fio (without it, when the job file's "
	  "last group is done: later groups use them); fsbench removes only files it made, and "
	  "none with --keep" },
	{ "invalidate", PT_BOOL, P(invalidate), "1", 0, 0, NULL,
	  "drop the files' cached pages at the start of every pass (fio's default)" },
	{ "fadvise_hint", PT_ENUM, P(fadvise_hint), "1", 0, 0, FADVISE_CHOICES,
	  "posix_fadvise every file when it is opened: 1 = RANDOM for a random job (no "
	  "read-ahead), SEQUENTIAL otherwise (fio's default); 0 = no advice" },
	{ "direct", PT_BOOL, P(direct), "0", 0, 0, NULL, "O_DIRECT: bypass the page cache" },
	{ "buffered", PT_BOOL, P(buffered), "1", 0, 0, NULL, "buffered I/O (buffered=0 is direct=1)" },
	{ "norandommap", PT_BOOL, P(norandommap), "0", 0, 0, NULL,
	  "random offsets with repeats, instead of every block once per pass" },
	{ "randseed", PT_INT, P(randseed), "0x89", 0, 0, NULL, "seed for offsets and data" },
	{ "ioengine", PT_ENUM, P(ioengine), "psync", 0, 0, engine_choices, "I/O engine" },
	PARAM_ALIAS("io_engine", "ioengine"),
	{ "verify", PT_ENUM, P(verify), "0", 0, 0, VERIFY_CHOICES,
	  "crc32c (or crc32c-intel): header and data checksum in every block, checked on "
	  "read-back; meta: the header (offset, length, seed) only; pattern: verify_pattern alone" },
	{ "verify_interval", PT_SIZE, P(verify_interval), "0", 0, 1 << 30, NULL,
	  "a verify header every this many bytes of a block (0 = one per block)" },
	{ "verify_backlog", PT_INT, P(verify_backlog), "0", 0, 1LL << 40, NULL,
	  "with verify, a write job reads back its blocks during the run, a batch every this "
	  "many written (fio's; 0: only after the writes)" },
	{ "verify_backlog_batch", PT_INT, P(verify_backlog_batch), "0", 0, 1LL << 40, NULL,
	  "blocks read back in each verify_backlog batch (0 = verify_backlog)" },
	{ "verify_fatal", PT_BOOL, P(verify_fatal), "0", 0, 0, NULL,
	  "a failed verify ends the job even where continue_on_error would go past it" },
	{ "verify_dump", PT_BOOL, P(verify_dump), "0", 0, 0, NULL,
	  "accepted for fio compatibility: fsbench writes no dump files; its error names the "
	  "block, what was expected and what was found" },
	PARAM_COMPOUND("verify_pattern", struct io_options, verify_pattern, "",
		     "the data of verified writes: 0xHEX, \"text\" or a number, checked on read-back "
		     "(alone it means verify=pattern)", io_set_pattern),
	{ "zero_buffers", PT_BOOL, P(zero_buffers), "0", 0, 0, NULL, "write zeros" },
	{ "refill_buffers", PT_BOOL, P(refill_buffers), "0", 0, 0, NULL,
	  "new random data in the whole buffer before every write (always with verify or a "
	  "compression percentage)" },
	{ "scramble_buffers", PT_BOOL, P(scramble_buffers), "1", 0, 0, NULL,
	  "without refill_buffers, rewrite 24 bytes of every 512 before each write, as fio does, "
	  "so no two writes are alike" },
	{ "buffer_compress_percentage", PT_INT, P(buffer_compress_percentage), "0", 0, 100, NULL,
	  "make written data N% compressible (0 = random)" },
	PARAM_COMPOUND("buffer_pattern", struct io_options, buffer_pattern, "",
		     "write this repeating pattern: 0xHEX, \"text\" or a number", io_set_pattern),
	{ "dedupe_percentage", PT_INT, P(dedupe_percentage), "0", 0, 100, NULL,
	  "N% of the writes repeat a buffer written before, byte for byte (new random data in "
	  "the others, as with refill_buffers)" },
	{ "dedupe_mode", PT_ENUM, P(dedupe_mode), "repeat", 0, 0, "repeat|working_set",
	  "what a repeated write repeats: the last new buffer, or any page of a working set" },
	{ "dedupe_working_set_percentage", PT_INT, P(dedupe_working_set_percentage), "5", 0, 100,
	  NULL, "dedupe_mode=working_set: the set is this % of size, in the smallest write size" },
	{ "dedupe_global", PT_BOOL, P(dedupe_global), "0", 0, 0, NULL,
	  "dedupe_mode=working_set: the set is shared by every job's threads, each a share" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

/* Every engine's own rows go here, in the order of the list (engines.c),
 * then the rows below. */
static const struct param_def rows_after_engines[] = {
	{ "stonewall", PT_BOOL, P(stonewall), "0", 0, 0, NULL,
	  "job files: wait for the jobs before this one to finish" },
	{ "new_group", PT_BOOL, P(new_group), "0", 0, 0, NULL,
	  "job files: start a new reporting group (groupid; exitall's group), not waiting" },
	{ "wait_for_previous", PT_BOOL, P(wait_for_previous), "0", 0, 0, NULL,
	  "job files: same as stonewall" },
	{ "thread", PT_BOOL, P(thread), "0", 0, 0, NULL,
	  "the job's threads share one file table, as fio's threads do; without it (fio's "
	  "default, processes) each has its own and opens its files itself (fsbench always runs "
	  "threads)" },
	{ "group_reporting", PT_BOOL, P(group_reporting), "0", 0, 0, NULL,
	  "fsbench io: a job with it is reported with the job before it in its reporting group, "
	  "as one (a job's own threads always are)" },
	{ "disk_util", PT_BOOL, P(disk_util), "1", 0, 0, NULL, "accepted for fio compatibility" },
	{ "clat_percentiles", PT_BOOL, P(clat_percentiles), "1", 0, 0, NULL,
	  "report completion latency percentiles (fio's default)" },
	{ "lat_percentiles", PT_BOOL, P(lat_percentiles), "0", 0, 0, NULL,
	  "report total latency percentiles (from before the submit call to completion)" },
	{ "slat_percentiles", PT_BOOL, P(slat_percentiles), "0", 0, 0, NULL,
	  "report submission latency percentiles (async engines: libaio, io_uring)" },
	{ "disable_lat", PT_BOOL, P(disable_lat), "0", 0, 0, NULL,
	  "keep no total latency (lat): no max_latency or latency_target check either, as fio" },
	{ "disable_clat", PT_BOOL, P(disable_clat), "0", 0, 0, NULL,
	  "keep no completion latency (clat) and no clat percentiles" },
	{ "disable_slat", PT_BOOL, P(disable_slat), "0", 0, 0, NULL,
	  "keep no submission latency (slat)" },
	{ "disable_bw_measurement", PT_BOOL, P(disable_bw_measurement), "0", 0, 0, NULL,
	  "keep no bandwidth and IOPS statistics over time (bw_min, iops_mean, ...: 0, as fio)" },
	{ "do_verify", PT_BOOL, P(do_verify), "1", 0, 0, NULL,
	  "with verify, read back what a write job wrote (0: only stamp it)" },
	{ "fill_device", PT_BOOL, P(fill_device), "0", 0, 0, NULL,
	  "write until the filesystem is full (size= becomes the free space)" },
	PARAM_ALIAS("fill_fs", "fill_device"),
	{ "create_serialize", PT_BOOL, P(create_serialize), "1", 0, 0, NULL,
	  "accepted for fio compatibility: fsbench always lays files out one at a time" },
	{ "gtod_reduce", PT_BOOL, P(gtod_reduce), "0", 0, 0, NULL,
	  "time no I/O (disable_clat, _lat, _slat and _bw_measurement all on): the clock is "
	  "read once every 64 I/Os, as fio's, and only IOPS and bandwidth are reported" },
	PARAM_STRING("write_lat_log", struct io_options, write_lat_log, "",
		     "fsbench io: write PREFIX_lat.N.log and PREFIX_clat.N.log (and PREFIX_slat.N.log "
		     "for libaio and io_uring, whose submit call is timed) in fio's log format"),
	PARAM_STRING("write_bw_log", struct io_options, write_bw_log, "",
		     "fsbench io: write PREFIX_bw.N.log (KiB/s)"),
	PARAM_STRING("write_iops_log", struct io_options, write_iops_log, "",
		     "fsbench io: write PREFIX_iops.N.log"),
	PARAM_STRING("write_iolog", struct io_options, write_iolog, "",
		     "fsbench io: append the I/O each thread queues to FILE in fio's iolog format "
		     "(version 3), which fio's read_iolog replays"),
	PARAM_STRING("read_iolog", struct io_options, read_iolog, "",
		     "fsbench io: replay FILE, an iolog in fio's format (version 2 or 3), onto the "
		     "job's own files: the log's k-th file is the job's k-th"),
	{ "replay_no_stall", PT_BOOL, P(replay_no_stall), "0", 0, 0, NULL,
	  "replay the log's I/O as fast as it goes, not at its stamps' pace" },
	{ "replay_time_scale", PT_INT, P(replay_time_scale), "100", 1, 1000000, NULL,
	  "percent: the log's pace times this over 100 (200: twice as fast)" },
	{ "log_avg_msec", PT_INT, P(log_avg_msec), "0", 0, 3600000, NULL,
	  "log the mean over windows of this many ms instead of every I/O" },
	{ "log_offset", PT_BOOL, P(log_offset), "0", 0, 0, NULL,
	  "the logs' lines carry each I/O's offset after its block size (0 in window means), as "
	  "fio's" },
	{ "log_prio", PT_BOOL, P(log_prio), "0", 0, 0, NULL,
	  "the logs' last column is each I/O's priority value in hex (0x2003: class 1, level 3), "
	  "not 1 for a real-time one and 0 otherwise, as fio's" },
	{ "per_job_logs", PT_BOOL, P(per_job_logs), "1", 0, 0, NULL,
	  "each thread's logs in files of its own, PREFIX_bw.N.log (fio's default); 0: every "
	  "thread's in one file, PREFIX_bw.log, appended to, as fio writes it" },
	{ "log_compression", PT_SIZE, P(log_compression), "0", 0, 1ULL << 40, NULL,
	  "taken: fio compresses its logs in memory in chunks of this many bytes; fsbench keeps "
	  "them as binary entries in memory either way, and the file is the same" },
	{ "log_store_compressed", PT_BOOL, P(log_store_compressed), "0", 0, 0, NULL,
	  "write each log compressed, FILE.log.fz (zlib of its text; `fsbench io --inflate-log` "
	  "reads it back)" },
	{ "io_submit_mode", PT_ENUM, P(io_submit_mode), "inline", 0, 0, SUBMIT_CHOICES,
	  "inline: each job's thread issues its I/O; offload: iodepth worker threads per job "
	  "issue it, one call each, as fio's work queue (psync, pvsync and null)" },
	{ "serialize_overlap", PT_BOOL, P(serialize_overlap), "0", 0, 0, NULL,
	  "never issue an I/O that overlaps one of the job's in flight: wait for that one first" },
	/* fio's, where every value comes to what fsbench does */
	{ "experimental_verify", PT_BOOL, 0, "0", 0, 0, NULL,
	  "either value: the read-back checks every block the job wrote, which is what fio's "
	  "experimental_verify=1 reaches by replaying its offsets rather than logging them "
	  "(fsbench reads them back in offset order)", PF_DERIVED, any_bool },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

/* The table: the rows above with each engine's own between them, made
 * before main (as engines.c fills the ioengine choices), so that an
 * engine's file alone declares its options and every path that reads the
 * table (run io:..., job files, fsbench io, help, the stored parameters)
 * takes them.  An engine row's offset becomes one into that engine's area
 * of the job (io_engine_opts).  A table that does not fit, or an engine
 * whose options overflow its area, leaves its rows out: the option table's
 * test (test_param) finds every engine's rows, so that cannot go unseen. */
#define IO_OPTION_ROWS 320
struct param_def io_option_defs[IO_OPTION_ROWS];

static size_t add_rows(size_t n, const struct param_def *rows, size_t shift)
{
	for (; rows->name && n + 1 < IO_OPTION_ROWS; rows++, n++) {
		io_option_defs[n] = *rows;
		io_option_defs[n].offset += shift;
	}
	return n;
}

__attribute__((constructor)) static void build_table(void)
{
	size_t n = add_rows(0, rows_before_engines, 0);

	for (int i = 0; i < ENGINES_MAX && engine_at(i); i++) {
		const struct io_engine_ops *e = engine_at(i);
		if (e->options && e->options_size <= ENGINE_OPTS_MAX)
			n = add_rows(n, e->options, offsetof(struct io_options, engine_opts) +
				     (size_t)i * ENGINE_OPTS_MAX);
	}
	n = add_rows(n, rows_after_engines, 0);
	memset(&io_option_defs[n], 0, sizeof(io_option_defs[n]));
}
