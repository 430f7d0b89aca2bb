/*
 * aged.c: a provisioned filesystem aged before its tests (aged.h).
 *
 * The directory is made here, never found: mkfs has just run, so a
 * directory of that name that is already there means the mount is not the
 * filesystem fsbench made, and aging stops.
 */
#define _GNU_SOURCE
#include "aged.h"
#include "cleaner.h"
#include "../aging/ager.h"
#include "../aging/record.h"
#include "../core/error.h"
#include "../core/file.h"
#include "../core/str.h"
#include "../core/testhook.h"
#include "../core/stop.h"
#include "state.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

struct age_watch {
	const struct provision_opts *o;
	const char *label;
};

static void watch(void *arg, double done, double eta_s)
{
	struct age_watch *w = arg;

	w->o->age_progress(w->o->age_arg, w->label, done, eta_s);
}

int target_age(const char *label, const char *mnt, uint64_t capacity,
	       const struct provision_opts *o, const struct age_gc *gc, char **record)
{
	char dir[PATH_MAX];
	struct age_result res;
	struct age_watch w = { o, label };
	struct fs_cleaner cl = { .root = -1 };
	struct age_opts ao = { .profile = o->age, .capacity = capacity, .seed = o->age_seed,
			       .repo = o->age_repo, .progress = o->age_progress ? watch : NULL,
			       .arg = &w };
	int rc;

	*record = NULL;
	test_pause("age");
	if (str_join(dir, sizeof(dir), mnt, "/" AGED_DIR))
		return error_set("fs '%s': the aging directory's path is too long", label);
	if (mkdir(dir, 0755))
		return error_errno("fs '%s': making %s to age the filesystem in", label, dir);
	/* a git profile writes what a checkout takes: no cleaner needed */
	if (gc && gc->program && !o->age->git) {
		if (cleaner_start(&cl, gc->program, gc->workdir, gc->dev, mnt))
			return error_prefix("fs '%s'", label);
		ao.reclaim = cleaner_reclaim;
		ao.reclaim_arg = &cl;
	}
	rc = age_run(dir, &ao, &res);
	if (cl.root >= 0 && !rc)
		rc = cleaner_drain(&cl);
	if (cl.root >= 0) {
		cleaner_stop(&cl);
		res.cleaner = gc->program;
		res.cleaner_waits = cl.waits;
		res.cleaner_wait_s = cl.wait_s;
	}
	if (rc || age_measure(mnt, &res))
		return error_prefix("fs '%s'", label);
	if (o->age_progress)
		o->age_progress(o->age_arg, label, 1, 0);
	*record = age_record_json(o->age, o->age_seed, capacity, o->age_repo, &res);
	if (!*record)
		return error_set("out of memory");
	return 0;
}

/* The key: every input of the aging, in one canonical line. */
int aged_keep_name(const char *fsname, const char *spec, uint64_t size,
		   const struct provision_opts *o, struct aged_keep *k)
{
	const struct age_profile *p = o->age;
	char line[4096];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "fsbench-aged 1|%s|%llu|%s|%.17g|%.17g|%u|%u|%.17g|"
			     "%d|%d|%u|%llu|%s", spec, (unsigned long long)size, p->name, p->fill,
			     p->churn, p->files_per_dir, p->depth, p->young, p->fsync, p->git,
			     p->commits, (unsigned long long)o->age_seed,
			     o->age_repo ? o->age_repo : "");
	for (int i = 0; i < p->nsizes && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "|%.17g:%llu-%llu",
				      p->sizes[i].weight, (unsigned long long)p->sizes[i].lo,
				      (unsigned long long)p->sizes[i].hi);
	for (int i = 0; i < AGE_OPS && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "|%.17g", p->ops[i]);
	if (n >= sizeof(line))
		return error_set("--keep-aged: the aging's description is too long");
	snprintf(k->key, sizeof(k->key), "%016llx", (unsigned long long)XXH3_64bits(line, n));
	if ((size_t)snprintf(k->img, sizeof(k->img), "%s/%s-%s-%s.img", o->age_keep, fsname,
			     p->name, k->key) >= sizeof(k->img) ||
	    (size_t)snprintf(k->meta, sizeof(k->meta), "%s/%s-%s-%s.json", o->age_keep, fsname,
			     p->name, k->key) >= sizeof(k->meta))
		return error_set("--keep-aged %s: path too long", o->age_keep);
	return 0;
}

int aged_keep_find(const struct aged_keep *k, uint64_t size, char **record, char *mkfs,
		   size_t mkfs_len)
{
	struct stat st;
	json_error_t jerr;
	json_t *meta;
	int fd;

	*record = NULL;
	if (lstat(k->img, &st) && errno == ENOENT && lstat(k->meta, &st) && errno == ENOENT)
		return 0;
	if (lstat(k->img, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != size)
		return error_set("--keep-aged: %s (or its .json) is there, but not as an image of %llu "
				 "bytes that fsbench kept: move it away", k->img,
				 (unsigned long long)size);
	/* never blocking on what was planted there (a FIFO held a loop
	 * device in open() forever, issue 69) */
	fd = file_open_input(k->meta, FILE_NOFOLLOW);
	meta = fd >= 0 ? json_loadfd(fd, 0, &jerr) : NULL;
	if (fd >= 0)
		close(fd);
	const char *key = meta ? json_string_value(json_object_get(meta, "key")) : NULL;
	const char *line = meta ? json_string_value(json_object_get(meta, "mkfs")) : NULL;
	json_t *rec = meta ? json_object_get(meta, "record") : NULL;
	if (!key || strcmp(key, k->key) || !line || !json_is_object(rec)) {
		json_decref(meta);
		return error_set("--keep-aged: %s does not say it was kept for this aging (key %s): "
				 "move it away", k->meta, k->key);
	}
	json_object_set_new(rec, "reused", json_string(k->img));
	*record = json_dumps(rec, JSON_COMPACT);
	snprintf(mkfs, mkfs_len, "%s", line);
	json_decref(meta);
	return *record ? 1 : error_set("out of memory");
}

/* From offset off on, by read and write: copy_file_range refuses two
 * filesystems (EXDEV), as the kept directory and the image directory
 * may be. */
static int copy_rw(int from, int to, uint64_t off, uint64_t size, const char *what)
{
	const size_t chunk = 4u << 20;
	char *buf = malloc(chunk);

	if (!buf)
		return error_set("out of memory");
	while (off < size) {
		size_t want = size - off > chunk ? chunk : (size_t)(size - off);
		ssize_t got = pread(from, buf, want, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || pwrite(to, buf, (size_t)got, (off_t)off) != got) {
			free(buf);
			return got == 0 ? error_set("--keep-aged: %s ended early", what) :
					  error_errno("--keep-aged: copying %s", what);
		}
		off += (uint64_t)got;
	}
	free(buf);
	return 0;
}

/* Copy all of from into to (both open), size bytes: in the kernel where
 * it can (a reflink on btrfs or xfs), else by read and write. */
static int copy_all(int from, int to, uint64_t size, const char *what)
{
	loff_t in = 0, out = 0;

	while ((uint64_t)in < size) {
		size_t want = size - (uint64_t)in > (1u << 30) ? (1u << 30) : (size_t)(size - (uint64_t)in);
		ssize_t got = copy_file_range(from, &in, to, &out, want, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EXDEV || errno == EOPNOTSUPP || errno == ENOSYS ||
				errno == EINVAL))
			return copy_rw(from, to, (uint64_t)in, size, what);
		if (got <= 0)
			return got < 0 ? error_errno("--keep-aged: copying %s", what) :
					 error_set("--keep-aged: %s ended early", what);
	}
	return 0;
}

int aged_keep_restore(const struct aged_keep *k, const char *image)
{
	int from = open(k->img, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int to = open(image, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat a, b;
	int rc = -1;

	if (from < 0 || to < 0) {
		error_errno("--keep-aged: opening %s", from < 0 ? k->img : image);
	} else if (fstat(from, &a) || fstat(to, &b) || !S_ISREG(a.st_mode) || a.st_size != b.st_size) {
		error_set("--keep-aged: %s is not an image the size of %s", k->img, image);
	} else if (!copy_all(from, to, (uint64_t)a.st_size, k->img)) {
		rc = fdatasync(to) ? error_errno("--keep-aged: %s", image) : 0;
	}
	if (from >= 0)
		close(from);
	if (to >= 0)
		close(to);
	return rc;
}

/* A file under a temporary name in the kept directory, made new and
 * recorded before it is made (so `fsbench cleanup` removes it after a
 * kill); a leftover of the same name is a dead run's, as a live one
 * would hold the directory's lock (aged_keep_lock), and is replaced.
 * The descriptor, or -1 with the error set. */
static int make_partial(const char *path)
{
	struct stat st;
	int fd;

	if (state_add(STATE_FILE, path, "", 0, 0))
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && !lstat(path, &st) && S_ISREG(st.st_mode) && !unlink(path))
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || fstat(fd, &st)) {
		error_errno("--keep-aged: making %s", path);
		if (fd >= 0)
			close(fd);
		state_remove(STATE_FILE, path);
		return -1;
	}
	state_set_id(STATE_FILE, path, st.st_dev, st.st_ino);
	return fd;
}

static void drop_partial(const char *path, int unlink_it)
{
	if (unlink_it)
		unlink(path);
	state_remove(STATE_FILE, path);
}

int aged_keep_lock(const struct aged_keep *k)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, said = 0;

	str_copy(dir, sizeof(dir), k->img);
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("--keep-aged: opening %s", dir);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK) {
			int e = errno;
			close(fd);
			errno = e;
			return error_errno("--keep-aged: locking %s", dir);
		}
		if (!said++)
			fprintf(stderr, "fsbench: --keep-aged: %s is in use by another run; waiting\n", dir);
		if (stop_requested()) {
			close(fd);
			return error_set("--keep-aged: interrupted while waiting for %s", dir);
		}
		usleep(200 * 1000);
	}
	return fd;
}

int aged_keep_save(const struct aged_keep *k, const char *image, const char *record,
		   const char *mkfs)
{
	char tmp[PATH_MAX + 16], mtmp[PATH_MAX + 16];
	json_t *rec = json_loads(record, 0, NULL);
	json_t *meta = json_pack("{s:s,s:s,s:o}", "key", k->key, "mkfs", mkfs,
				 "record", rec ? rec : json_object());
	int from = -1, to = -1, rc = -1;
	struct stat st;

	snprintf(tmp, sizeof(tmp), "%s.partial", k->img);
	snprintf(mtmp, sizeof(mtmp), "%s.partial", k->meta);
	from = open(image, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (!meta || from < 0 || fstat(from, &st)) {
		error_errno("--keep-aged: reading %s", image);
		goto out;
	}
	to = make_partial(tmp);
	if (to < 0)
		goto out;
	test_pause("keep-copy");
	if (copy_all(from, to, (uint64_t)st.st_size, image) ||
	    (fsync(to) && error_errno("--keep-aged: %s", tmp))) {
		drop_partial(tmp, 1);
		goto out;
	}
	int mfd = make_partial(mtmp);
	if (mfd < 0 || json_dumpfd(meta, mfd, JSON_INDENT(1)) || fsync(mfd)) {
		if (mfd >= 0) {
			error_errno("--keep-aged: writing %s", mtmp);
			close(mfd);
			drop_partial(mtmp, 1);
		}
		drop_partial(tmp, 1);
		goto out;
	}
	close(mfd);
	/* into place, never over something there (another run's) */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, k->img, RENAME_NOREPLACE)) {
		error_errno("--keep-aged: keeping %s", k->img);
		drop_partial(tmp, 1);
		drop_partial(mtmp, 1);
		goto out;
	}
	drop_partial(tmp, 0);	/* it is the kept image now */
	if (renameat2(AT_FDCWD, mtmp, AT_FDCWD, k->meta, RENAME_NOREPLACE)) {
		error_errno("--keep-aged: keeping %s", k->meta);
		unlink(k->img);
		drop_partial(mtmp, 1);
		goto out;
	}
	drop_partial(mtmp, 0);
	rc = 0;
out:
	if (from >= 0)
		close(from);
	if (to >= 0)
		close(to);
	json_decref(meta);
	return rc;
}
