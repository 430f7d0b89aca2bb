/*
 * paths.c: where an I/O job may write: the one rule behind `fsbench io`,
 * `run --fio`, `run io:...` and suites, so that the paths cannot drift apart.
 *
 * fsbench runs as root, and one typo in a job file (filename=../../etc/x,
 * directory=/) must not cost a user's data.  The rule has two parts:
 *
 *  - A job writes only files it made: each is created exclusively
 *    (O_CREAT|O_EXCL, never through a symbolic link planted at its name),
 *    and a file that was there before the job is only read, never
 *    written, extended, truncated or removed.  Nothing is made in "/".
 *  - Within a run (`run --fio`, `run io:...`, suites) a job never leaves
 *    its target: directory=, filename= and the names made from the job's
 *    name are relative to the run's scratch, with no ".." component and no
 *    symbolic link on the way.  `fsbench io` writes where it is told, as
 *    fio does (directory=/mnt/ssd), under the first part; a relative path
 *    of its own still may not pass through a symbolic link.
 *
 * allow_existing_write=1 lifts both for that one job of `fsbench io` (the
 * user said what is there may be lost); `run` never writes outside its
 * target.
 *
 * The CLIs check at parse time (io_where_check, io_existing_check) so that a
 * refusal comes before any I/O with exit 2; the core checks again where it
 * opens each file (io_open_beneath, filesetup.c's lay_out), which a file
 * planted between the check and the use cannot get past.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Why path p would leave the directory it is taken from, or NULL. */
static const char *leaves(const char *p)
{
	if (p[0] == '/')
		return "is an absolute path";
	for (const char *c = p; *c;) {
		const char *e = strchrnul(c, '/');
		if (e - c == 2 && c[0] == '.' && c[1] == '.')
			return "has a '..' component";
		c = *e ? e + 1 : e;
	}
	return NULL;
}

/* The first symbolic link among the components of rel under base, if any
 * (a component that does not exist yet ends the walk: the job makes it). */
static int symlink_on_way(const char *base, const char *rel, char *link, size_t len)
{
	char path[4096];
	size_t at;
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", base, rel) >= sizeof(path))
		return 0;
	at = strlen(base) + 1;
	while (path[at]) {
		char *e = strchrnul(path + at, '/'), c = *e;
		*e = 0;
		if (lstat(path, &st)) {
			*e = c;
			return 0;
		}
		if (S_ISLNK(st.st_mode)) {
			str_copy(link, len, path);
			return 1;
		}
		*e = c;
		at = (size_t)(e - path) + (c ? 1 : 0);
	}
	return 0;
}

int io_where_check(const struct io_options *o, const char *base, bool run)
{
	const char *where = run ? "the target" : "the directory it runs in";
	char name[PARAM_STR_MAX + 64], rel[2 * PARAM_STR_MAX + 80], link[4096];
	const char *why;

	const struct io_engine_ops *e = engine_at(o->ioengine);

	if (run && e && (e->flags & ENGINE_RUNS_PROGRAM))
		return error_set("ioengine=%s starts a program, which a run does not do: use "
				 "`fsbench io` for it", e->name);
	if (!run && e && (e->flags & (ENGINE_SCSI | ENGINE_MTD)))
		return error_set("ioengine=%s drives a device itself, which fsbench io (files only) "
				 "does not open: run it as a test on a device fsbench checks and holds, "
				 "`fsbench run io:ioengine=%s,... %s`", e->name, e->name,
				 (e->flags & ENGINE_SCSI) ? "--fs raw --device DEV" : "--fs raw-mtd --vm");
	if (o->target_device[0])
		return 0;	/* the run's raw target: its device, not a file */

	if ((!run && o->allow_existing_write) || (e && (e->flags & ENGINE_NO_DATA)))
		return 0;	/* null touches no file (fio's diskless engine) */
	if (o->filename[0])
		str_copy(name, sizeof(name), o->filename);
	else if (io_file_name(o, 0, 0, name, sizeof(name)))
		return -1;
	if (!run) {
		/* out of the directory: io_files_check judges each file */
		if (leaves(o->directory) || leaves(name))
			return 0;
	} else if ((why = leaves(o->directory))) {
		return error_set("option 'directory': '%s' would leave %s (it %s): give a name "
				 "inside it", o->directory, where, why);
	} else if ((why = leaves(o->filename))) {
		return error_set("option 'filename': '%s' would leave %s (it %s): give a name "
				 "inside it", o->filename, where, why);
	} else if ((why = leaves(name))) {
		return error_set("the job's file name '%s' (from its name or filename_format) would "
				 "leave %s (it %s): give a name inside it", name, where, why);
	}
	snprintf(rel, sizeof(rel), "%s%s%s", o->directory, o->directory[0] ? "/" : "", name);
	if (base && symlink_on_way(base, rel, link, sizeof(link)))
		return error_set("%s is a symbolic link: fsbench does not write through one; %s",
				 link, run ? "give a path without one" : "give a path without one, or "
				 "allow_existing_write=1 to write there (what is there may be lost)");
	return 0;
}

bool io_job_modifies(const struct io_options *o)
{
	return io_has_writes(o) || io_has_trims(o) || o->overwrite;
}

int io_existing_check(const struct io_options *o, const char *path, const struct stat *st,
		      uint64_t need)
{
	if (o->allow_existing_write)
		return 0;
	if (S_ISLNK(st->st_mode))
		return error_set("%s is a symbolic link: fsbench does not follow one", path);
	if (S_ISBLK(st->st_mode))
		return error_set("%s is a block device: fsbench io works on files (to benchmark a "
				 "device, format it with `fsbench run --device`)", path);
	if (!S_ISREG(st->st_mode))
		return error_set("%s is there and is not a regular file: fsbench io works on files",
				 path);
	if (io_job_modifies(o))
		return error_set("%s was there before the job, which would write to it (%s%s): "
				 "fsbench writes only files it made; allow_existing_write=1 lets this "
				 "job overwrite it (its data is lost)", path, io_rw_title(o->rw),
				 o->overwrite && !io_has_writes(o) ? ", overwrite=1" : "");
	if ((uint64_t)st->st_size < need)
		return error_set("%s was there before the job and is %llu bytes, shorter than the "
				 "%llu the job reads: fsbench would have to write the rest; lower "
				 "size= or give allow_existing_write=1 (the file is then extended)",
				 path, (unsigned long long)st->st_size, (unsigned long long)need);
	return 0;
}

int io_job_path(const struct io_options *o, const char *dir, int thread, int file, char *buf,
		size_t len, int *rel)
{
	char sub[4096], name[PARAM_STR_MAX + 64];

	if (o->directory[0] == '/')
		str_copy(sub, sizeof(sub), o->directory);
	else if (o->directory[0])
		snprintf(sub, sizeof(sub), "%s/%s", dir, o->directory);
	else
		str_copy(sub, sizeof(sub), dir);
	if (o->filename[0] && o->nrfiles == 1)
		snprintf(name, sizeof(name), "%s", o->filename);
	else if (o->filename[0])
		snprintf(name, sizeof(name), "%s.%d", o->filename, file);
	else if (io_file_name(o, thread, file, name, sizeof(name)))
		return -1;
	if (name[0] == '/')
		str_copy(buf, len, name);
	else if ((size_t)snprintf(buf, len, "%s%s%s", sub, sub[0] && sub[strlen(sub) - 1] == '/' ?
				  "" : "/", name) >= len)
		return error_set("path too long: %s/%s", sub, name);
	/* beneath dir, unless the job was let out (allow_existing_write) */
	*rel = !leaves(name) && !leaves(o->directory) && !o->allow_existing_write
	       ? (int)strlen(dir) + 1 : -1;
	return 0;
}

bool io_in_root(const char *path)
{
	char parent[4096], real[PATH_MAX];
	char *slash;

	str_copy(parent, sizeof(parent), path);
	slash = strrchr(parent, '/');
	if (!slash)
		return false;
	slash[slash == parent ? 1 : 0] = '\0';
	return realpath(parent, real) && !strcmp(real, "/");
}

int io_files_check(const struct io_options *o, const char *dir)
{
	uint64_t min_bs, max_bs, per_file;
	char path[4096];
	int rel;

	const struct io_engine_ops *e = engine_at(o->ioengine);

	if (io_where_check(o, dir, false))
		return -1;
	if (e && (e->flags & ENGINE_NO_DATA))
		return 0;
	io_block_sizes(o, &min_bs, &max_bs);
	per_file = o->size / (uint64_t)(o->nrfiles > 0 ? o->nrfiles : 1);
	per_file -= min_bs ? per_file % min_bs : 0;
	for (int i = 0; i < (int)o->numjobs; i++) {
		if (i && o->filename[0] && !o->offset_increment)
			break;	/* one shared file */
		uint64_t need = sat_add(sat_add(o->offset, sat_mul(o->offset_increment, (uint64_t)i)),
					per_file);
		for (int k = 0; k < (int)o->nrfiles; k++) {
			struct stat st;
			if (io_job_path(o, dir, i, k, path, sizeof(path), &rel))
				return -1;
			if (!lstat(path, &st)) {
				if (io_existing_check(o, path, &st, need))
					return -1;
			} else if (!o->allow_existing_write && io_in_root(path)) {
				return error_set("%s would be made in /: fsbench io makes no files "
						 "there (directory=/?); give a directory for the job's "
						 "files", path);
			}
		}
	}
	return 0;
}

int io_open_beneath(const char *dir, const char *rel, int flags, mode_t mode)
{
	struct open_how how = { .flags = (uint64_t)flags, .mode = flags & O_CREAT ? mode : 0,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS };
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), fd, e;

	if (dfd < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
	e = errno;
	close(dfd);
	errno = e;
	return fd;
}
