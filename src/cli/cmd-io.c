/*
 * cmd-io.c: `fsbench io [JOBFILE...] [--option=value...]`: run fio job
 * files or fio-style flags directly in a directory, fio's way (no target
 * provisioning, no repetitions), and print fio-shaped results or JSON.
 * Options are the io workload's table; files fsbench creates under its
 * own default names are removed afterwards unless --keep, those at a path
 * the job named are kept, as fio keeps them (io_help says so).
 */
#include "cli.h"
#include "../core/version.h"
#include "../core/error.h"
#include "../core/stop.h"
#include "../core/devstat.h"
#include "../core/timing.h"
#include "../io/jobfile.h"
#include "../workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The command's own options (cli.h); fio's job options are the words
 * CMD_PASS_LONG passes through. */
struct io_args {
	const char *output_format, *output, *debug, *inflate_log;
	int ignore_unknown, keep, max_jobs, readonly, parse_only, version;
};
#define A(f) offsetof(struct io_args, f)

static const struct cli_opt io_args[] = {
	{ "output-format", 1, 0, "normal|json|json+|terse", "how to print results (default normal): "
	  "json in fio's layout (json+ with its latency bins too), terse in fio's version 3; "
	  "several as fio takes them, json,normal", CLI_STRING, A(output_format) },
	{ "ignore-unknown", 0, 0, NULL, "warn about, rather than refuse, options fsbench lacks",
	  CLI_FLAG, A(ignore_unknown) },
	{ "keep", 0, 0, NULL, "keep the files fsbench created under its own names too (fio keeps them)",
	  CLI_FLAG, A(keep) },
	/* fio's own command-line flags, as its test runner gives them */
	{ "output", 1, 0, "FILE", "write the results to FILE rather than standard output (fio's)",
	  CLI_STRING, A(output) },
	{ "max-jobs", 1, 0, "N", "refuse a job file whose jobs start more than N threads (fio's)",
	  CLI_COUNT, A(max_jobs), 1, 1 << 30 },
	{ "readonly", 0, 0, NULL, "refuse any job that writes or trims (fio's read-only mode)",
	  CLI_FLAG, A(readonly) },
	{ "parse-only", 0, 0, NULL, "parse the jobs as fio's --parse-only does and run none; "
	  "what a run would refuse (an engine of fio's it lacks) is said", CLI_FLAG,
	  A(parse_only) },
	{ "debug", 1, 0, "WHAT", "accepted: fsbench has none of fio's debug output, and says so",
	  CLI_STRING, A(debug) },
	{ "version", 0, 0, NULL, "print fsbench's version and the fio version it follows", CLI_FLAG,
	  A(version) },
	{ "inflate-log", 1, 0, "FILE", "write FILE, a log written with log_store_compressed=1, "
	  "decompressed to standard output (fio's flag; fsbench's .fz is zlib of the text)",
	  CLI_STRING, A(inflate_log) },
	{ NULL, 0, 0, NULL, NULL },
};

/* The fio release whose options, job files and output fsbench io follows
 * (bench/vs-fio compares with it). */
#define FIO_FOLLOWED "fio-3.33"

struct io_cli {
	bool normal, json, json_plus, terse, ignore_unknown, keep, parse_only;
	bool debug_parse;	/* --debug=parse: ss='s parse, in fio's words */
	struct jobset set;
	int nfiles;
};

static void io_help(FILE *f)
{
	fprintf(f, "\nFiles: fio keeps every file a job lays out unless unlink=1.  fsbench io keeps\n"
		   "those at a path the job names (filename=, directory=), and removes those it\n"
		   "named itself in the working directory (JOB.THREAD.FILE, as fio names them)\n"
		   "when the job file is done, so a trial run leaves no gigabytes behind; --keep\n"
		   "keeps them too, unlink=1 removes every file at its job's end.  A file that\n"
		   "was there before is never removed, nor one replaced since fsbench made it.\n");
	fprintf(f, "\nJob options (fio's names; in job files as OPTION=VALUE):\n");
	for (const struct param_def *d = io_option_defs; d->name; d++) {
		char type[64];
		if (d->flags & PF_ALIAS)
			fprintf(f, "  --%-26s %s\n", d->name, d->help);
		else
			fprintf(f, "  --%-26s %s [%s; default %s]\n", d->name, d->help,
				param_type_text(d, type, sizeof(type)), d->def[0] ? d->def : "none");
	}
}

/* Flags given with a job file override that option in every job. */
static int override_jobs(struct jobset *set, int first, char **flags, int nflags)
{
	for (int i = 0; i < nflags; i++) {
		char key[128], *eq;
		strncpy(key, flags[i] + 2, sizeof(key) - 1);
		key[sizeof(key) - 1] = 0;
		eq = strchr(key, '=');
		if (eq)
			*eq = 0;
		for (int j = first; j < set->njobs; j++)
			if (jobfile_set(set, j, key, eq ? eq + 1 : "1"))
				return -1;
	}
	return 0;
}

/* fio has no default size: without size= a job works on its existing
 * file, whole, and with neither it is an error ("you need to specify
 * size=").  A block device is refused here with the reason: fsbench io
 * works on files, and formats devices only through `run --device`. */
static int size_as_fio(struct jobset *set, int j)
{
	struct io_options *o = &set->jobs[j];
	char path[2 * PARAM_STR_MAX + 2];
	struct stat st;

	if (o->filename[0]) {
		snprintf(path, sizeof(path), "%s%s%s", o->directory[0] && o->filename[0] != '/' ?
			 o->directory : "", o->directory[0] && o->filename[0] != '/' ? "/" : "",
			 o->filename);
		if (!stat(path, &st) && S_ISBLK(st.st_mode))
			return error_set("filename=%s is a block device: fsbench io works on files (to "
					 "benchmark a device, format it with `fsbench run --device`)", path);
	}
	const struct io_engine_ops *e = engine_at(o->ioengine);
	if (set->sized[j] || o->fill_device || (e && e->run))
		return 0;	/* an engine without I/O (exec) has no size, as in fio */
	if (!o->filename[0] || stat(path, &st))
		return error_set("you need to specify size= (no size and %s%s, as fio requires)",
				 o->filename[0] ? "no existing file " : "no filename=",
				 o->filename[0] ? path : "");
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return error_set("you need to specify size= (%s is not a regular file with data)", path);
	o->size = (uint64_t)st.st_size;	/* the whole existing file, as fio */
	return 0;
}

static int parse_args(struct io_cli *c, const struct cli_args *a)
{
	const struct io_args *o = a->opts;
	int npos = cli_npos(a), nflags = 0, rc = 0;
	char **flags = calloc((size_t)npos + 1, sizeof(char *));
	const char *fmt = o->output_format;

	if (!flags)
		return cli_fail(EXIT_FAIL, "out of memory");
	c->ignore_unknown = o->ignore_unknown;
	c->keep = o->keep;
	c->parse_only = o->parse_only;
	const char *debug = o->debug;
	c->debug_parse = debug && (strstr(debug, "parse") || strstr(debug, "all"));
	/* parse alone is what fsbench has of fio's debug output: said for
	 * any other, so that a user does not wait for lines that never come */
	if (debug && strcmp(debug, "parse"))
		fprintf(stderr, "io: --debug=%s: fsbench has none of fio's debug output%s\n", debug,
			c->debug_parse ? " but parse's line for each steady-state (ss=) setting" : "");
	/* fio's list of formats, "json,normal": each entry printed in every
	 * one named, the JSON document last, as fio prints it */
	for (const char *f = fmt ? fmt : "normal"; *f;) {
		size_t n = strcspn(f, ",");
		if (n == 6 && !strncmp(f, "normal", n))
			c->normal = true;
		else if (n == 5 && !strncmp(f, "terse", n))
			c->terse = true;
		else if (n == 4 && !strncmp(f, "json", n))
			c->json = true;
		else if (n == 5 && !strncmp(f, "json+", n))
			c->json = c->json_plus = true;
		else {
			free(flags);
			return cli_fail(EXIT_USAGE, "io: --output-format is normal, json, json+ or terse "
					"(or several, as json,normal), not '%s'", fmt);
		}
		f += n + (f[n] == ',');
	}
	/* job files, and fio's --key=value options (passed through by the
	 * template as positional words) */
	for (int i = 0; i < npos && !rc; i++) {
		const char *w = cli_pos(a, i);
		if (!strncmp(w, "--", 2))
			flags[nflags++] = (char *)w;
		else if (jobfile_load(w, c->ignore_unknown, &c->set))
			rc = cli_fail(EXIT_USAGE, "%s", error_get());
		else
			c->nfiles++;
	}
	if (!rc && c->nfiles && override_jobs(&c->set, 0, flags, nflags))
		rc = cli_fail(EXIT_USAGE, "%s", error_get());
	else if (!rc && !c->nfiles && jobfile_from_args(nflags, flags, c->ignore_unknown, &c->set))
		rc = cli_fail(EXIT_USAGE, "%s", error_get());
	free(flags);
	if (!rc && !c->set.njobs)
		rc = cli_fail(EXIT_USAGE, "io: no job: give a job file or options such as --rw=randread "
			      "--bs=4k --size=1g (see `fsbench io --help`)");
	/* read_iolog: the job's shape (files, sizes, directions) is the
	 * log's, before anything is judged on it (io/replay.c) */
	for (int j = 0; !rc && j < c->set.njobs; j++)
		if (io_replay_shape(&c->set.jobs[j]))
			rc = cli_fail(EXIT_USAGE, "io: job %s: %s", c->set.jobs[j].name, error_get());
	/* fio's --readonly and --max-jobs, over every job of the file */
	int64_t max_jobs = o->max_jobs ? o->max_jobs : -1, threads = 0;
	for (int j = 0; !rc && j < c->set.njobs; j++) {
		const struct io_options *jo = &c->set.jobs[j];
		threads += (int64_t)jo->numjobs;
		if (o->readonly && (io_has_writes(jo) || io_has_trims(jo)))
			rc = cli_fail(EXIT_USAGE, "io: job %s %s, and --readonly forbids writes and "
				      "trims (fio's read-only mode)", jo->name,
				      io_has_writes(jo) ? "writes" : "trims");
		else if (max_jobs > 0 && threads > max_jobs)
			rc = cli_fail(EXIT_USAGE, "io: the jobs start more than --max-jobs=%lld threads "
				      "(fio's limit)", (long long)max_jobs);
	}
	/* where each job may write (io/paths.c), before its size is taken
	 * from a file it names */
	for (int j = 0; !rc && !c->parse_only && j < c->set.njobs; j++)
		if (io_where_check(&c->set.jobs[j], ".", false))
			rc = cli_fail(EXIT_USAGE, "io: job %s: %s", c->set.jobs[j].name, error_get());
	/* --parse-only parses the options, as fio's --parse-only does (its
	 * option parser only: no engine loaded, no rule across options, no
	 * file opened): a value that does not parse is refused; what fsbench
	 * io would refuse to run (an engine it lacks, an option it cannot
	 * honour, a rule across options) is said, and the job taken.  A job
	 * with no size yet (fio's "you need to specify size=" comes when it
	 * sets up files) is judged as if it had one. */
	for (int j = 0; !rc && j < c->set.njobs; j++) {
		if (c->parse_only) {
			struct io_options *probe = malloc(sizeof(*probe));
			if (!probe) {
				rc = cli_fail(EXIT_FAIL, "out of memory");
				break;
			}
			*probe = c->set.jobs[j];
			if (!c->set.sized[j])
				probe->size = 1ULL << 30;
			/* where it would write said too: fio's parser opens nothing */
			if (io_where_check(probe, ".", false) || io_options_validate(probe))
				fprintf(stderr, "io: job %s parses; fsbench io would not run it: %s\n",
					probe->name, error_get());
			error_clear();
			free(probe);
			continue;
		}
		const struct io_options *jo = &c->set.jobs[j];
		/* what it cannot run said first, before what the job lacks */
		if (io_options_runnable(jo) || size_as_fio(&c->set, j) || io_options_validate(jo) || io_files_check(jo, "."))
			rc = cli_fail(EXIT_USAGE, "io: job %s: %s", c->set.jobs[j].name, error_get());
	}
	if (!rc && c->set.warnings[0])
		fputs(c->set.warnings, stderr);
	/* on stdout, before the report, as fio gives its informational lines
	 * (fio's tools skip such lines before its JSON) */
	if (!rc && c->set.notes[0])
		fputs(c->set.notes, stdout);
	/* fio's --debug=parse line for what its ss= parser set (its
	 * steadystate_tests.py looks for it) */
	for (int j = 0; !rc && c->debug_parse && j < c->set.njobs; j++) {
		const struct ss_spec ss = c->set.jobs[j].parsed.ss;
		if (!c->set.jobs[j].ss[0])
			continue;
		if (ss.pct)
			printf("parse: set steady state threshold to %f%%\n", ss.limit);
		else if (ss.measure == SS_IOPS)
			printf("parse: set steady state IOPS threshold to %f\n", ss.limit);
		else
			printf("parse: set steady state BW threshold to %lld\n", (long long)ss.limit);
	}
	for (int j = 0; !rc && j < c->set.njobs; j++) {	/* said once, for the first */
		const struct io_options *jo = &c->set.jobs[j];
		const struct io_engine_ops *e = engine_at(jo->ioengine);
		if (e && (e->flags & ENGINE_FILE_OP) && !jo->create_on_open) {
			fprintf(stderr, "io: job %s%s: ioengine=%s with create_on_open=0 (fio's "
				"default) makes each file's operation before the clock: its latency "
				"counts, but the IOPS and bandwidth are of the untimed I/Os after it; "
				"create_on_open=1 times the operations in the run\n", jo->name,
				c->set.njobs > 1 ? " (and any other job like it)" : "", e->name);
			break;
		}
	}
	return rc;
}

/* fio's disk_util: the device under the current directory, over a run. */
static void disk_delta(const char *name, const struct devstat *a, const struct devstat *b,
		       double secs, struct io_disk *d)
{
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->read_ios += b->rd_ios - a->rd_ios;
	d->write_ios += b->wr_ios - a->wr_ios;
	d->read_merges += b->rd_merges - a->rd_merges;
	d->write_merges += b->wr_merges - a->wr_merges;
	d->read_ticks += b->rd_ticks_ms - a->rd_ticks_ms;
	d->write_ticks += b->wr_ticks_ms - a->wr_ticks_ms;
	d->in_queue += b->in_queue_ms - a->in_queue_ms;
	double u = secs > 0 ? (double)(b->io_ticks_ms - a->io_ticks_ms) / (secs * 1e3) * 100 : 0;
	d->util = u > 100 ? 100 : u;
}

static json_t *disk_json(const struct io_disk *d)
{
	return json_pack("[{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f}]", "name", d->name,
			 "read_ios", (json_int_t)d->read_ios, "write_ios", (json_int_t)d->write_ios,
			 "read_merges", (json_int_t)d->read_merges, "write_merges",
			 (json_int_t)d->write_merges, "read_ticks", (json_int_t)d->read_ticks,
			 "write_ticks", (json_int_t)d->write_ticks, "in_queue", (json_int_t)d->in_queue,
			 "util", d->util);
}

/* One job's entry, as fio prints it in the format asked (g: its
 * reporting group's totals, for the normal text's per=). */
static void print_entry(const struct io_cli *c, json_t *jobs, int h, const struct io_result *r,
			const struct io_disk *disk, const struct io_group_stats *g)
{
	char text[DETAIL_MAX];

	if (c->json)
		json_array_append_new(jobs, (c->json_plus ? io_result_json_plus : io_result_json)(
						    &c->set.jobs[h], r, c->set.group[h], c->set.given[h]));
	if (c->terse) {
		io_result_terse(&c->set.jobs[h], r, c->set.group[h], disk, text, sizeof(text));
		fputs(text, stdout);
	}
	if (c->normal) {
		io_result_text(&c->set.jobs[h], r, c->set.group[h], g, text, sizeof(text));
		fputs(text, stdout);
	}
}

/* fio's --output: the results go to FILE, as the user named it (made
 * or replaced, never through a symbolic link). */
static int output_to(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return cli_fail(EXIT_USAGE, "io: --output %s: %s", path, strerror(errno));
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		close(fd);
		return cli_fail(EXIT_FAIL, "io: --output %s: %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

static int cmd_io(const struct cli_args *a)
{
	struct io_cli *c;
	struct io_result *res;
	json_t *jobs;
	int rc;

	const struct io_args *o = a->opts;

	if (o->version) {
		printf("fsbench-%s (fsbench io follows %s)\n", fsbench_version, FIO_FOLLOWED);
		return EXIT_OK;
	}
	if (o->inflate_log)
		return io_log_inflate(o->inflate_log, stdout)
		       ? cli_fail(EXIT_FAIL, "io: %s", error_get()) : EXIT_OK;
	c = calloc(1, sizeof(*c));
	jobs = json_array();
	if (!c || (rc = parse_args(c, a))) {
		free(c);
		json_decref(jobs);
		return c ? rc : cli_fail(EXIT_FAIL, "out of memory");
	}
	if (c->parse_only || (o->output && (rc = output_to(o->output)))) {
		rc = c->parse_only ? EXIT_OK : rc;
		free(c);
		json_decref(jobs);
		return rc;
	}
	res = calloc(JOBS_MAX, sizeof(*res));
	if (!res) {
		free(c);
		json_decref(jobs);
		return cli_fail(EXIT_FAIL, "out of memory");
	}
	stop_install_signals();
	rc = EXIT_OK;
	struct io_disk disk;
	char devname[64];
	int have_dev = !devstat_node_of(".", devname, sizeof(devname));
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	memset(&disk, 0, sizeof(disk));
	bool failed = false;
	struct io_made made = { .keep = c->keep };	/* removed when the last group is done */
	/* the printed entries of a run (a thread each, at most), and every
	 * reporting group's totals */
	struct { int h; const struct io_result *r; } *entries = NULL;
	struct io_group_stats *groups = calloc(JOBS_MAX, sizeof(*groups));
	int ngroups = 0, most = 0;
	for (int j = 0; j < c->set.njobs; j++)
		most += (int)c->set.jobs[j].numjobs;
	entries = calloc((size_t)most + 1, sizeof(*entries));
	if (!groups || !entries)
		rc = cli_fail(EXIT_FAIL, "out of memory");
	int threads = 0;
	for (int first = 0, last; first < c->set.njobs && rc == EXIT_OK; first = last) {
		struct devstat da, db;
		for (last = first; last < c->set.njobs && c->set.run[last] == c->set.run[first];)
			last++;
		int counted = have_dev && !devstat_read("", devname, &da);
		uint64_t t0 = now_ns();
		struct io_run run = { &c->set.jobs[first], &c->set.group[first], last - first, ".",
				      c->keep, &res[first], false, false, threads, &made, NULL };
		/* fio reports each copy of a job on its own unless group_reporting */
		int nthreads = 0;
		bool apart = false;
		for (int j = first; j < last; j++) {
			nthreads += (int)c->set.jobs[j].numjobs;
			apart |= c->set.jobs[j].numjobs > 1 && !c->set.jobs[j].group_reporting;
		}
		if (apart && !(run.each = calloc((size_t)nthreads, sizeof(*run.each)))) {
			rc = cli_fail(EXIT_FAIL, "out of memory");
			break;
		}
		threads += nthreads;
		if (io_run_jobs(&run) && !run.ran) {
			rc = workload_stopped() ? EXIT_INTERRUPTED : EXIT_FAIL;
			cli_fail(rc, "io: %s", error_get());
			free(run.each);
			break;
		}
		/* as fio: a failed job is said, every job reported, and the
		 * jobs after it still run; the exit status says it failed */
		for (int j = first; j < last; j++)
			if (res[j].error) {
				fprintf(stderr, "io: job %s: %s\n", c->set.jobs[j].name, res[j].errmsg);
				failed = true;
			}
		if (counted && !devstat_read("", devname, &db))
			disk_delta(devname, &da, &db, ns_to_s(now_ns() - t0), &disk);
		/* the entries as fio reports them, then each group's totals
		 * over them (its "Run status group" and every entry's per=) */
		int ne = 0;
		for (int j = first, at = 0; j < last; j++) {
			int h = j;	/* the entry printed */
			int h_at = at;	/* its first thread in run.each */
			at += (int)c->set.jobs[j].numjobs;
			/* fio's group_reporting: a job that has it joins the entry
			 * before it when both are in its reporting group */
			while (j + 1 < last && c->set.jobs[j + 1].group_reporting &&
			       c->set.group[j + 1] == c->set.group[h]) {
				io_result_merge(&res[h], &res[++j]);
				at += (int)c->set.jobs[j].numjobs;
			}
			bool each = run.each && h == j && !c->set.jobs[h].group_reporting &&
				    c->set.jobs[h].numjobs > 1;
			for (int k = 0; k < (each ? (int)c->set.jobs[h].numjobs : 1); k++) {
				entries[ne].h = h;
				entries[ne++].r = each ? &run.each[h_at + k] : &res[h];
			}
		}
		for (int e = 0; e < ne; e++) {
			int g = c->set.group[entries[e].h];
			io_group_add(&groups[g], &c->set.jobs[entries[e].h], entries[e].r);
			ngroups = g + 1 > ngroups ? g + 1 : ngroups;
		}
		for (int e = 0; e < ne; e++)
			print_entry(c, jobs, entries[e].h, entries[e].r, disk.name[0] ? &disk : NULL,
				    &groups[c->set.group[entries[e].h]]);
		free(run.each);
		if (run.exit_all && last < c->set.njobs) {	/* fio's runs no job after */
			fprintf(stderr, "io: exit_what=all ended the jobs: %s and those after it do "
				"not run\n", c->set.jobs[last].name);
			break;
		}
	}
	if (io_made_remove(&made)) {
		fprintf(stderr, "io: %s\n", error_get());
		failed = true;
	}
	if (c->normal && rc == EXIT_OK) {	/* fio's closing blocks */
		char text[4096];
		for (int g = 0; g < ngroups; g++) {
			io_group_text(&groups[g], g, text, sizeof(text));
			fputs(text, stdout);
		}
		if (disk.name[0]) {
			io_disk_text(&disk, text, sizeof(text));
			fputs(text, stdout);
		}
	}
	free(entries);
	free(groups);
	if (c->json && rc == EXIT_OK) {
		/* fio's layout, so fio's own tools read it; "fio version" says
		 * who wrote it */
		char version[96], when[64];
		struct tm tm;
		time_t now = wall.tv_sec;
		json_t *doc = json_object();
		snprintf(version, sizeof(version), "fsbench-%s", fsbench_version);
		localtime_r(&now, &tm);
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
		json_object_set_new(doc, "fio version", json_string(version));
		json_object_set_new(doc, "timestamp", json_integer((json_int_t)wall.tv_sec));
		json_object_set_new(doc, "timestamp_ms", json_integer((json_int_t)wall.tv_sec * 1000 +
								       wall.tv_nsec / 1000000));
		json_object_set_new(doc, "time", json_string(when));
		if (c->set.global_given[0])
			json_object_set_new(doc, "global options", io_given_json(c->set.global_given));
		json_object_set(doc, "jobs", jobs);
		if (disk.name[0])
			json_object_set_new(doc, "disk_util", disk_json(&disk));
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	}
	json_decref(jobs);
	free(res);
	free(c);
	return rc == EXIT_OK && failed ? EXIT_FAIL : rc;
}

const struct cmd_entry cmd_io_entry = {
	.name = "io",
	.usage = "[JOBFILE...] [--OPTION=VALUE...]",
	.summary = "run fio job files or fio-style options here",
	.about = "Runs fio job files, or fio-style options, in the current directory, fio's way.\n",
	.args = io_args,
	.opts_size = sizeof(struct io_args),
	.more_help = io_help,
	.flags = CMD_PASS_LONG,
	.exec = cmd_io,
};
