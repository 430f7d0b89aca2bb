/*
 * powercut-shapes.c: what the powercut workload does to the filesystem
 * while it is recorded, and how a crashed copy is checked (powercut.h).
 *
 * The shapes are the applications seed 001's author cared about: files
 * that must survive because the program waited for them (fs_mark's
 * create, write, fsync), a tree restored from an archive and then synced
 * (his tar restore), and a database committing one row at a time.  Each
 * promise the system makes is passed to the hooks the moment it is made,
 * before anything else is written.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* syncfs */
#endif
#include "powercut.h"
#include "workload.h"
#include "sqlitedb.h"
#include "../core/error.h"
#include "../core/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define DIR_FILES 100	/* fsync: files per directory, as fs_mark's default -D 1 -N 100 */
#define TREE_FANOUT 32
#define DB_NAME "pc.db"

/* Item i's bytes: random, from the seed and i alone. */
static void content(void *buf, size_t len, uint64_t seed, uint64_t i)
{
	struct rng r;
	unsigned char *p = buf;
	size_t k = 0;

	rng_seed(&r, seed ^ mix64(i));
	for (; k + 8 <= len; k += 8) {
		uint64_t v = rng_next(&r);
		memcpy(p + k, &v, 8);
	}
	if (k < len) {
		uint64_t v = rng_next(&r);
		memcpy(p + k, &v, len - k);
	}
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int fsync_path(int at, const char *path)
{
	int fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return error_errno("open %s", path);
	rc = fsync(fd) ? error_errno("fsync %s", path) : 0;
	close(fd);
	return rc;
}

/* Create path under at (O_EXCL: the shape's own name) with the bytes of
 * item i, fsync it when asked; into the manifest. */
static int put_file(int at, const char *path, uint64_t size, uint64_t seed, uint64_t i,
		    int sync, char *buf, struct manifest *m)
{
	int fd = openat(at, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return error_errno("create %s", path);
	content(buf, (size_t)size, seed, i);
	if (write_full(fd, buf, (size_t)size) || (sync && fsync(fd))) {
		error_errno("write %s", path);
		close(fd);
		return -1;
	}
	if (close(fd))
		return error_errno("close %s", path);
	return manifest_add(m, path, size, XXH3_64bits(buf, (size_t)size));
}

static int promise(struct manifest *m, const struct pc_hooks *h, uint32_t *acks)
{
	uint32_t n = manifest_ack(m);

	*acks = n + 1;
	return h && h->ack ? h->ack(h->ctx, n) : 0;
}

/* fs_mark's shape: each file created, written, fsync'd, closed, then its
 * directory fsync'd (the name is durable only then), one promise each. */
static int shape_fsync(int root, const struct pc_shape_params *p, struct manifest *m,
		       const struct pc_hooks *h, uint32_t *acks, char *buf)
{
	char d[32], path[64];

	for (int64_t i = 0; i < p->files; i++) {
		snprintf(d, sizeof(d), "d%03lld", (long long)(i / DIR_FILES));
		if (i % DIR_FILES == 0) {
			if (mkdirat(root, d, 0755))
				return error_errno("mkdir %s", d);
			if (p->honest && fsync(root))
				return error_errno("fsync of the root");
		}
		snprintf(path, sizeof(path), "%s/f%06lld", d, (long long)i);
		if (put_file(root, path, p->size, p->seed, (uint64_t)i, p->honest, buf, m) ||
		    (p->honest && fsync_path(root, d)) || promise(m, h, acks))
			return -1;
		if (workload_stopped())
			return error_set("interrupted");
	}
	return 0;
}

/* A tree's file sizes: four in five up to the mean, the rest up to eight
 * times it (a source tree or a thumbnail cache: many small, a few large). */
static uint64_t tree_size(const struct pc_shape_params *p, uint64_t i)
{
	uint64_t d = mix64(p->seed ^ mix64(i) ^ 0x7472656555ull), mean = p->size ? p->size : 1;

	if (d % 5)
		return 1 + (d >> 8) % mean;
	return mean + (d >> 8) % (7 * mean + 1);
}

/* seed 001's restore: the whole tree written with no fsync, then sync
 * (syncfs of this filesystem), one promise at the end. */
static int shape_tree(int root, const struct pc_shape_params *p, struct manifest *m,
		      const struct pc_hooks *h, uint32_t *acks, char *buf)
{
	char d1[24], d2[48], path[80];

	for (int64_t i = 0; i < p->files; i++) {
		int64_t leaf = i / TREE_FANOUT;

		snprintf(d1, sizeof(d1), "t%02lld", (long long)(leaf / TREE_FANOUT));
		snprintf(d2, sizeof(d2), "%s/s%02lld", d1, (long long)(leaf % TREE_FANOUT));
		if (i % (TREE_FANOUT * TREE_FANOUT) == 0 && mkdirat(root, d1, 0755))
			return error_errno("mkdir %s", d1);
		if (i % TREE_FANOUT == 0 && mkdirat(root, d2, 0755))
			return error_errno("mkdir %s", d2);
		snprintf(path, sizeof(path), "%s/f%04lld", d2, (long long)(i % TREE_FANOUT));
		if (put_file(root, path, tree_size(p, (uint64_t)i), p->seed, (uint64_t)i, 0, buf, m))
			return -1;
		if (workload_stopped())
			return error_set("interrupted");
	}
	if (syncfs(root))
		return error_errno("syncfs");
	return promise(m, h, acks);
}

static int db_path(const char *dir, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/" DB_NAME, dir) >= len)
		return error_set("powercut: path too long under %s", dir);
	return 0;
}

/* One row per transaction; the schema's own commit is promise 0, row
 * k's is promise k.  WAL with synchronous=FULL syncs the log at each
 * commit.  The rollback journal needs EXTRA: with FULL, SQLite deletes
 * the journal (the commit) without syncing its directory, so a power cut
 * may bring the journal back and roll the last commit back, by SQLite's
 * own documented design; a test with FULL would blame the filesystem for
 * a promise SQLite does not make. */
static int shape_sqlite(const char *dir, const struct pc_shape_params *p, struct manifest *m,
			const struct pc_hooks *h, uint32_t *acks, char *buf)
{
	char path[4096];
	sqlite3 *db = NULL;
	sqlite3_stmt *ins = NULL;
	/* SQLITE_JOURNAL_CHOICES: delete=0, wal=4; SQLITE_SYNC_CHOICES: full=2, extra=3 */
	int rc = -1, wal = p->shape == PC_SQLITE_WAL;

	if (db_path(dir, path, sizeof(path)) || sqlitedb_open(path, wal ? 4 : 0, wal ? 2 : 3, &db))
		goto out;
	if (sqlitedb_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB NOT NULL)") ||
	    promise(m, h, acks) || sqlitedb_prepare(db, "INSERT INTO t(id, v) VALUES(?1, ?2)", &ins))
		goto out;
	for (int64_t k = 1; k <= p->files; k++) {
		content(buf, (size_t)p->size, p->seed, (uint64_t)k);
		if (sqlite3_bind_int64(ins, 1, k) != SQLITE_OK ||
		    sqlite3_bind_blob(ins, 2, buf, (int)p->size, SQLITE_STATIC) != SQLITE_OK) {
			sqlitedb_error(db, "bind");
			goto out;
		}
		/* autocommit: the INSERT is its own transaction, durable when it returns */
		if (sqlitedb_run(db, ins) || promise(m, h, acks))
			goto out;
		if (workload_stopped()) {
			error_set("interrupted");
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(ins);
	if (db)
		sqlite3_close(db);
	return rc;
}

int pc_shape_run(const char *dir, const struct pc_shape_params *p, struct manifest *m,
		 const struct pc_hooks *h, uint32_t *acks)
{
	uint64_t biggest = p->shape == PC_TREE ? 8 * p->size + 1 : p->size;
	char *buf;
	int root, rc;

	*acks = 0;
	if (p->files < 1 || p->size < 1 || biggest > (64u << 20))
		return error_set("powercut: %lld items of %llu bytes: 1 or more, at most 64 MiB each",
				 (long long)p->files, (unsigned long long)p->size);
	buf = malloc((size_t)biggest);
	if (!buf)
		return error_set("powercut: out of memory");
	if (p->shape == PC_SQLITE_WAL || p->shape == PC_SQLITE_ROLLBACK) {
		rc = shape_sqlite(dir, p, m, h, acks, buf);
		free(buf);
		return rc;
	}
	root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0) {
		free(buf);
		return error_errno("open %s", dir);
	}
	rc = p->shape == PC_TREE ? shape_tree(root, p, m, h, acks, buf)
				 : shape_fsync(root, p, m, h, acks, buf);
	close(root);
	free(buf);
	return rc;
}

int pc_sqlite_check(const char *dir, const struct pc_shape_params *p, uint32_t acked,
		    struct pc_sqlite_outcome *o)
{
	char path[4096];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *want = NULL;
	int64_t promised_rows = acked > 1 ? (int64_t)acked - 1 : 0, kept = 0;
	struct stat sb;
	int rc;

	memset(o, 0, sizeof(*o));
	o->promised = promised_rows;
	o->promised_lost = promised_rows;	/* until rows are found */
	if (db_path(dir, path, sizeof(path)))
		return -1;
	if (lstat(path, &sb) || !S_ISREG(sb.st_mode))
		return 0;	/* no database at all */
	/* read-write: opening replays a hot journal or the WAL, as the
	 * application's next start would (the image is a replay's copy) */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return 0;
	}
	o->opened = 1;
	rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		o->intact = r && !strcmp(r, "ok");
		if (!o->intact)
			snprintf(o->integrity, sizeof(o->integrity), "%s", r ? r : "?");
	} else {
		snprintf(o->integrity, sizeof(o->integrity), "%s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	st = NULL;
	want = malloc((size_t)p->size);
	if (!want) {
		sqlite3_close(db);
		return error_set("powercut: out of memory");
	}
	if (sqlite3_prepare_v2(db, "SELECT id, v FROM t ORDER BY id", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t id = sqlite3_column_int64(st, 0);
			const void *v = sqlite3_column_blob(st, 1);
			int n = sqlite3_column_bytes(st, 1);

			if (id < 1 || id > p->files || n != (int)p->size)
				continue;
			content(want, (size_t)p->size, p->seed, (uint64_t)id);
			if (!v || memcmp(v, want, (size_t)p->size))
				continue;
			if (id <= promised_rows)
				kept++;
			else
				o->unpromised_kept++;
		}
	}
	o->promised_lost = promised_rows - kept;
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(want);
	return 0;
}
