/*
 * store.c: SQLite persistence of runs (see store.h for the guarantees).
 *
 * Statements are prepared per call: the store is touched once per sample,
 * never per I/O, so simplicity wins over caching.
 */
#include "store_internal.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char schema[] =
	"CREATE TABLE run(id INTEGER PRIMARY KEY, started TEXT NOT NULL,"
	" finished TEXT, label TEXT, cmdline TEXT, version TEXT,"
	" status TEXT NOT NULL, baseline TEXT, note TEXT, argv TEXT);"
	"CREATE TABLE sysinfo(run_id INTEGER NOT NULL REFERENCES run(id),"
	" ord INTEGER, name TEXT, value TEXT);"
	"CREATE TABLE target(id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES run(id), ord INTEGER, label TEXT,"
	" path TEXT, kind TEXT, fstype TEXT, mount_point TEXT, mount_source TEXT,"
	" mount_opts TEXT, disk TEXT, scheduler TEXT, spec TEXT, mkfs TEXT,"
	" blockdev TEXT, blockdev_note TEXT, aging TEXT);"
	"CREATE TABLE test(id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES run(id), ord INTEGER, name TEXT,"
	" workload TEXT, params TEXT, title TEXT, subtitle TEXT, precision REAL, margin REAL,"
	" looks INTEGER, show TEXT);"
	"CREATE TABLE metric(id INTEGER PRIMARY KEY,"
	" test_id INTEGER NOT NULL REFERENCES test(id), ord INTEGER, name TEXT,"
	" unit TEXT, label TEXT, direction INTEGER, is_primary INTEGER, grp TEXT);"
	"CREATE TABLE sample(id INTEGER PRIMARY KEY,"
	" test_id INTEGER NOT NULL REFERENCES test(id),"
	" target_id INTEGER NOT NULL REFERENCES target(id), rep INTEGER,"
	" wall REAL, cpu_user REAL, cpu_sys REAL, cpu_pct REAL,"
	" machine_cpu_pct REAL, detail TEXT, series TEXT);"
	"CREATE TABLE value(sample_id INTEGER NOT NULL REFERENCES sample(id),"
	" metric_ord INTEGER, value REAL);"
	"CREATE TABLE failure(test_id INTEGER NOT NULL, target_id INTEGER NOT NULL,"
	" message TEXT);"
	"CREATE INDEX sample_test ON sample(test_id, target_id);"
	"CREATE INDEX value_sample ON value(sample_id);";

int store_db_error(struct store *s, const char *what)
{
	return error_set("result store %s: %s: %s", s->path, what,
			 sqlite3_errmsg(s->db));
}

static int exec(struct store *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error_set("result store %s: %s", s->path, msg ? msg : "error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int store_default_path(char *buf, unsigned len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, len, "%s/fsbench/results.db", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/share/fsbench/results.db", home);
	else
		return error_set("no HOME or XDG_DATA_HOME: give the result store with --db FILE");
	return 0;
}

int store_findings_dir(const char *db, char *buf, unsigned len)
{
	char path[4096], *slash;

	if (db && !strcmp(db, ":memory:"))
		return error_set("a store in memory keeps no findings");
	if (db)
		str_copy(path, sizeof(path), db);
	else if (store_default_path(path, sizeof(path)))
		return -1;
	slash = strrchr(path, '/');
	if (slash)
		*slash = '\0';
	if ((unsigned)snprintf(buf, len, "%s/findings", slash ? path : ".") >= len)
		return error_set("the findings directory's path is too long");
	return 0;
}

static int user_version(struct store *s, int *v)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL))
		return store_db_error(s, "reading schema version");
	*v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* PRAGMA application_id, as SQLite recommends for an application's own
 * file format: "FSB1".  fsbench changes no database that lacks it, but an
 * empty one or one made by an fsbench from before it was set. */
#define STORE_APP_ID 0x46534231

static int pragma_int(struct store *s, const char *sql, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return store_db_error(s, "reading the database header");
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_error(s, "reading the database header");
}

/* 1: fsbench's, 0: empty, -1: someone else's (error set). */
static int whose(struct store *s)
{
	int app, ver, tables, ours;

	if (pragma_int(s, "PRAGMA application_id", &app) ||
	    pragma_int(s, "PRAGMA user_version", &ver) ||
	    pragma_int(s, "SELECT count(*) FROM sqlite_master", &tables))
		return -1;
	if (app == STORE_APP_ID)
		return 1;
	if (app == 0 && ver == 0 && tables == 0)
		return 0;
	/* fsbench before application_id: its schema and nothing else. */
	if (app == 0 && ver >= 1 && ver <= STORE_SCHEMA_VERSION &&
	    !pragma_int(s, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN "
			   "('run','sysinfo','target','test','metric','sample','value','failure')",
			&ours) && ours == 8 && tables <= 10)
		return 1;
	return error_set("%s is not an fsbench result store (another application's "
			 "database): fsbench leaves it untouched; choose another with --db FILE",
			 s->path), -2;
}

/* An existing path given as a store that cannot be one (a symlink, a
 * directory, an empty file, a file that is no SQLite database): -2 with
 * the error set, the user's mistake, refused before SQLite sees it. */
static int not_a_store(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat st;
	ssize_t n;
	int fd;

	if (lstat(path, &st))
		return error_errno("cannot open result store %s", path), -2;
	if (S_ISLNK(st.st_mode))
		return error_set("%s is a symbolic link: fsbench opens a store only by its own name; "
				 "choose another with --db FILE", path), -2;
	if (!S_ISREG(st.st_mode))
		return error_set("%s is a %s, not an fsbench result store: choose another with "
				 "--db FILE", path, S_ISDIR(st.st_mode) ? "directory" : "special file"),
		       -2;
	if (st.st_size == 0)
		return error_set("%s is an empty file, not an fsbench result store: fsbench leaves it "
				 "untouched (remove it if a killed fsbench left it); choose another "
				 "with --db FILE", path), -2;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open result store %s", path), -1;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, magic, sizeof(magic)))
		return error_set("%s is not an SQLite database, so not an fsbench result store: "
				 "fsbench leaves it untouched; choose another with --db FILE", path), -2;
	return 0;
}

static struct store *new_store(const char *path)
{
	struct store *s = calloc(1, sizeof(*s));

	if (!s) {
		error_set("out of memory");
		return NULL;
	}
	snprintf(s->path, sizeof(s->path), "%s", path);
	return s;
}

static int open_store(const char *path, struct store **out)
{
	struct store *s = new_store(path);
	int v = 0, kind, fd;

	if (!s)
		return -1;
	/* Made here, not by SQLite, so that it is 0600 like the state file
	 * (results name the machine's devices and paths) and never through
	 * a planted symlink; SQLite gives its -wal and -shm the same mode. */
	bool made = false;	/* made here: removed again if the store cannot be set up */
	fd = -2;
	if (strcmp(path, ":memory:")) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		made = fd >= 0;
		if (fd < 0 && errno == EEXIST) {
			int no = not_a_store(path);
			if (no) {
				store_close(s);
				return no;
			}
			fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		}
	}
	s->made = made;
	if (fd == -1) {
		error_errno("cannot open result store %s (choose another with --db FILE)", path);
		store_close(s);
		return -1;
	}
	if (fd >= 0)
		close(fd);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
			    (fd == -2 ? SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY : 0),
			    NULL) != SQLITE_OK) {
		error_set("cannot open result store %s: %s (choose another with --db FILE)",
			  path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, 5000);
	/* Whose it is before anything is written, WAL mode included. */
	kind = whose(s);
	if (kind == -2) {
		store_close(s);
		return -2;
	}
	if (kind < 0)
		goto fail;
	if (exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
		    " PRAGMA foreign_keys=ON;") || user_version(s, &v))
		goto fail;
	char sql[128];
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d; PRAGMA application_id=%d;",
		 STORE_SCHEMA_VERSION, STORE_APP_ID);
	if (v == 0) {
		if (exec(s, "BEGIN") || exec(s, schema) || exec(s, sql) || exec(s, "COMMIT"))
			goto fail;
	} else if (v < STORE_SCHEMA_VERSION) {
		/* 1 -> 2: targets record the --fs spec and the mkfs command;
		 * 2 -> 3: samples keep the workload's own text;
		 * 3 -> 4: the device group (metric.grp, target.blockdev), a
		 * run's note and its arguments (for --resume), a sample's
		 * timeline;
		 * 4 -> 5: a test's precision target (--precision);
		 * 5 -> 6: the verdict rule it stopped by (margin, looks);
		 * 6 -> 7: what --age did to a target (target.aging, JSON);
		 * 7 -> 8: what a suite asks the text view to show (test.show). */
		if (exec(s, "BEGIN") ||
		    (v < 2 && exec(s, "ALTER TABLE target ADD COLUMN spec TEXT;"
				      " ALTER TABLE target ADD COLUMN mkfs TEXT;")) ||
		    (v < 3 && exec(s, "ALTER TABLE sample ADD COLUMN detail TEXT;")) ||
		    (v < 4 && exec(s, "ALTER TABLE metric ADD COLUMN grp TEXT;"
				      " ALTER TABLE target ADD COLUMN blockdev TEXT;"
				      " ALTER TABLE target ADD COLUMN blockdev_note TEXT;"
				      " ALTER TABLE run ADD COLUMN note TEXT;"
				      " ALTER TABLE run ADD COLUMN argv TEXT;"
				      " ALTER TABLE sample ADD COLUMN series TEXT;")) ||
		    (v < 5 && exec(s, "ALTER TABLE test ADD COLUMN precision REAL;")) ||
		    (v < 6 && exec(s, "ALTER TABLE test ADD COLUMN margin REAL;"
				      " ALTER TABLE test ADD COLUMN looks INTEGER;")) ||
		    (v < 7 && exec(s, "ALTER TABLE target ADD COLUMN aging TEXT;")) ||
		    (v < 8 && exec(s, "ALTER TABLE test ADD COLUMN show TEXT;")) ||
		    exec(s, sql) || exec(s, "COMMIT"))
			goto fail;
	} else if (v > STORE_SCHEMA_VERSION) {
		error_set("result store %s has schema %d, newer than this fsbench (%d): upgrade fsbench or use --db",
			  path, v, STORE_SCHEMA_VERSION);
		goto fail;
	} else if (exec(s, sql)) {	/* an older fsbench's store: now marked */
		goto fail;
	}
	*out = s;
	s->made = false;
	return 0;
fail:
	store_close(s);
	return -1;
}

/* Two runs started together on a new store: the first makes the file
 * (empty for a moment) and then its schema; the second found the empty
 * file ("is an empty file") or made the schema again ("table run already
 * exists"): one failed in 9 of 10 tries (issue 69).  So opening is
 * serialized by an exclusive flock on the store's directory, held only
 * while the store is opened, made or migrated: never on the store file,
 * as closing any descriptor of it would drop SQLite's own locks.  A
 * directory that cannot be locked (or one held past 30 s) opens as before. */
static int lock_dir_of(const char *path)
{
	char dir[4096];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';	/* "/x.db": "/" */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		if (errno != EWOULDBLOCK || tries >= 300) {
			close(fd);
			return -1;
		}
		usleep(100 * 1000);
	}
	return fd;
}

int store_open(const char *path, struct store **out)
{
	int lock = strcmp(path, ":memory:") ? lock_dir_of(path) : -1;
	int rc = open_store(path, out);

	if (lock >= 0)
		close(lock);	/* the flock goes with it */
	return rc;
}

/* file:PATH?immutable=1 with PATH percent-encoded for a URI. */
static void immutable_uri(const char *path, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "file:");

	for (const unsigned char *p = (const unsigned char *)path; *p && used + 4 < len; p++) {
		if (isalnum(*p) || strchr("/._-~", *p))
			buf[used++] = (char)*p;
		else
			used += (size_t)snprintf(buf + used, len - used, "%%%02X", *p);
	}
	snprintf(buf + used, len - used, "?immutable=1");
}

int store_open_readonly(const char *path, struct store **out)
{
	struct store *s = new_store(path);
	int kind, v = 0;

	if (!s)
		return -1;
	if (access(path, F_OK) && errno == ENOENT) {
		error_errno("no result store %s (fsbench run creates it; or give --db FILE)", path);
		store_close(s);
		return -2;
	}
	if ((v = not_a_store(path))) {
		store_close(s);
		return v;
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL) ==
		    SQLITE_OK)
		kind = whose(s);
	else
		kind = -3;	/* try it as immutable below */
	if (kind == -2) {	/* another application's */
		store_close(s);
		return -2;
	}
	if (kind < 0) {
		/* A WAL database on a read-only file or mount cannot make its
		 * -shm file: read it as immutable, which needs none. */
		char uri[3 * 4096 + 32];
		sqlite3_close(s->db);
		s->db = NULL;
		immutable_uri(path, uri, sizeof(uri));
		if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
				    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
			error_set("cannot open result store %s: %s", path,
				  s->db ? sqlite3_errmsg(s->db) : "out of memory");
			goto fail;
		}
		kind = whose(s);
		if (kind == -2) {
			store_close(s);
			return -2;
		}
		if (kind < 0)
			goto fail;
	}
	sqlite3_busy_timeout(s->db, 5000);
	if (kind == 0) {
		error_set("result store %s is empty (fsbench run fills it)", path);
		store_close(s);
		return -2;
	}
	if (user_version(s, &v))
		goto fail;
	if (v != STORE_SCHEMA_VERSION) {
		error_set("result store %s has schema %d, this fsbench reads %d: %s", path, v,
			  STORE_SCHEMA_VERSION,
			  v < STORE_SCHEMA_VERSION ? "`fsbench run --db` on it upgrades it"
						   : "upgrade fsbench");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	if (s->made) {	/* a store that could not be set up leaves nothing */
		char side[4096 + 8];
		unlink(s->path);
		snprintf(side, sizeof(side), "%s-wal", s->path);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", s->path);
		unlink(side);
	}
	free(s);
}

/* Bind helpers: text may be NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return store_db_error(s, "preparing a statement");
	return 0;
}

static int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, what);
	return 0;
}

int store_begin_run(struct store *s, const struct run_begin *b, int64_t *run_id)
{
	sqlite3_stmt *st;
	char now[32];

	wallclock_text(now, sizeof(now));
	if (store_prepare(s, "INSERT INTO run(started,label,cmdline,version,status,baseline,note,argv)"
		       " VALUES(?,?,?,?,'running',?,?,?)", &st))
		return -1;
	store_bind_text(st, 1, now);
	store_bind_text(st, 2, b->label);
	store_bind_text(st, 3, b->cmdline);
	store_bind_text(st, 4, b->version);
	store_bind_text(st, 5, b->baseline);
	store_bind_text(st, 6, b->note && b->note[0] ? b->note : NULL);
	store_bind_text(st, 7, b->argv);
	if (step_done(s, st, "recording the run"))
		return -1;
	*run_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_transaction(struct store *s, int what)
{
	return exec(s, what > 0 ? "SAVEPOINT outer" : what == 0 ? "RELEASE outer"
						  : "ROLLBACK TO outer; RELEASE outer");
}

int store_find_run(struct store *s, const char *started, const char *cmdline,
		   const char *version, const char *label, int64_t *run_id)
{
	sqlite3_stmt *st;

	*run_id = 0;
	if (store_prepare(s, "SELECT min(id) FROM run WHERE started=? AND coalesce(cmdline,'')=?"
		       " AND coalesce(version,'')=? AND coalesce(label,'')=?", &st))
		return -1;
	store_bind_text(st, 1, started);
	store_bind_text(st, 2, cmdline);
	store_bind_text(st, 3, version);
	store_bind_text(st, 4, label);
	if (sqlite3_step(st) == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int store_set_times(struct store *s, int64_t run_id, const char *started, const char *finished,
		    const char *status)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "UPDATE run SET started=?, finished=?, status=? WHERE id=?", &st))
		return -1;
	store_bind_text(st, 1, started);
	store_bind_text(st, 2, finished);
	store_bind_text(st, 3, status);
	sqlite3_bind_int64(st, 4, run_id);
	return step_done(s, st, "recording the run's times");
}

/* Empty a run kept by the host for a guest: its rows go, the run row
 * (id, start, command line, arguments) stays, to be filled again. */
int store_empty_run(struct store *s, int64_t run)
{
	static const char *const sql[] = {
		("DELETE FROM value WHERE sample_id IN (SELECT s.id FROM sample s JOIN test t"
		 " ON s.test_id=t.id WHERE t.run_id=?)"),
		"DELETE FROM sample WHERE test_id IN (SELECT id FROM test WHERE run_id=?)",
		"DELETE FROM metric WHERE test_id IN (SELECT id FROM test WHERE run_id=?)",
		"DELETE FROM failure WHERE test_id IN (SELECT id FROM test WHERE run_id=?)",
		"DELETE FROM test WHERE run_id=?",
		"DELETE FROM target WHERE run_id=?",
		"DELETE FROM sysinfo WHERE run_id=?",
	};
	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		sqlite3_stmt *st;
		if (store_prepare(s, sql[i], &st))
			return -1;
		sqlite3_bind_int64(st, 1, run);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return store_db_error(s, "emptying the run");
	}
	return 0;
}

int store_resume_run(struct store *s, int64_t run_id)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "UPDATE run SET finished=NULL, status='running' WHERE id=?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return step_done(s, st, "resuming the run");
}

int store_finish_run(struct store *s, int64_t run_id, const char *status)
{
	sqlite3_stmt *st;
	char now[32];

	wallclock_text(now, sizeof(now));
	if (store_prepare(s, "UPDATE run SET finished=?, status=? WHERE id=?", &st))
		return -1;
	store_bind_text(st, 1, now);
	store_bind_text(st, 2, status);
	sqlite3_bind_int64(st, 3, run_id);
	return step_done(s, st, "finishing the run");
}

int store_abandon_run(struct store *s, int64_t run_id, int *changed)
{
	sqlite3_stmt *st;
	char now[32];

	*changed = 0;
	wallclock_text(now, sizeof(now));
	if (store_prepare(s, "UPDATE run SET finished=?, status='abandoned' WHERE id=? AND status='running'",
		    &st))
		return -1;
	store_bind_text(st, 1, now);
	sqlite3_bind_int64(st, 2, run_id);
	if (step_done(s, st, "marking the run abandoned"))
		return -1;
	*changed = sqlite3_changes(s->db) > 0;
	return 0;
}

const char *store_file(const struct store *s)
{
	return s->path;
}

int store_add_sysfield(struct store *s, int64_t run_id, int ord,
		       const char *name, const char *value)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "INSERT INTO sysinfo(run_id,ord,name,value) VALUES(?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, ord);
	store_bind_text(st, 3, name);
	store_bind_text(st, 4, value);
	return step_done(s, st, "recording the system table");
}

int store_add_target(struct store *s, int64_t run_id, int ord,
		     const struct r_target *t, int64_t *target_id)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "INSERT INTO target(run_id,ord,label,path,kind,fstype,"
		       "mount_point,mount_source,mount_opts,disk,scheduler,spec,mkfs,"
		       "blockdev,blockdev_note,aging) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, ord);
	store_bind_text(st, 3, t->label);
	store_bind_text(st, 4, t->path);
	store_bind_text(st, 5, t->kind);
	store_bind_text(st, 6, t->fstype);
	store_bind_text(st, 7, t->mount_point);
	store_bind_text(st, 8, t->mount_source);
	store_bind_text(st, 9, t->mount_opts);
	store_bind_text(st, 10, t->disk);
	store_bind_text(st, 11, t->scheduler);
	store_bind_text(st, 12, t->spec);
	store_bind_text(st, 13, t->mkfs);
	store_bind_text(st, 14, t->blockdev && t->blockdev[0] ? t->blockdev : NULL);
	store_bind_text(st, 15, t->blockdev_note && t->blockdev_note[0] ? t->blockdev_note : NULL);
	store_bind_text(st, 16, t->aging && t->aging[0] ? t->aging : NULL);
	if (step_done(s, st, "recording a target"))
		return -1;
	*target_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_add_test(struct store *s, int64_t run_id, int ord,
		   const struct r_test *t, int64_t *test_id)
{
	sqlite3_stmt *st;

	if (exec(s, "SAVEPOINT one"))
		return -1;
	if (store_prepare(s, "INSERT INTO test(run_id,ord,name,workload,params,title,subtitle,"
		       "precision,margin,looks,show) VALUES(?,?,?,?,?,?,?,?,?,?,?)", &st))
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, ord);
	store_bind_text(st, 3, t->name);
	store_bind_text(st, 4, t->workload);
	store_bind_text(st, 5, t->params);
	store_bind_text(st, 6, t->title);
	store_bind_text(st, 7, t->subtitle);
	if (t->precision > 0)
		sqlite3_bind_double(st, 8, t->precision);
	else
		sqlite3_bind_null(st, 8);
	if (t->looks > 0) {
		sqlite3_bind_double(st, 9, t->margin);
		sqlite3_bind_int(st, 10, t->looks);
	} else {
		sqlite3_bind_null(st, 9);
		sqlite3_bind_null(st, 10);
	}
	store_bind_text(st, 11, t->show ? t->show : "");
	if (step_done(s, st, "recording a test"))
		goto fail;
	*test_id = sqlite3_last_insert_rowid(s->db);
	for (int i = 0; i < t->nmetrics + t->ndevice; i++) {
		const struct r_metric *m = &t->metrics[i];
		if (store_prepare(s, "INSERT INTO metric(test_id,ord,name,unit,label,direction,is_primary,"
			       "grp) VALUES(?,?,?,?,?,?,?,?)", &st))
			goto fail;
		sqlite3_bind_int64(st, 1, *test_id);
		sqlite3_bind_int(st, 2, i);
		store_bind_text(st, 3, m->name);
		store_bind_text(st, 4, m->unit);
		store_bind_text(st, 5, m->label);
		sqlite3_bind_int(st, 6, m->direction);
		sqlite3_bind_int(st, 7, m->primary);
		store_bind_text(st, 8, m->device ? "device" : NULL);
		if (step_done(s, st, "recording a metric"))
			goto fail;
	}
	return exec(s, "RELEASE one");
fail:
	exec(s, "ROLLBACK TO one; RELEASE one");
	return -1;
}

int store_add_sample(struct store *s, int64_t test_id, int64_t target_id,
		     const struct r_sample *sm, int nvalues)
{
	sqlite3_stmt *st;
	int64_t sid;

	if (exec(s, "SAVEPOINT one"))
		return -1;
	if (store_prepare(s, "INSERT INTO sample(test_id,target_id,rep,wall,cpu_user,"
		       "cpu_sys,cpu_pct,machine_cpu_pct,detail,series) VALUES(?,?,?,?,?,?,?,?,?,?)", &st))
		goto fail;
	sqlite3_bind_int64(st, 1, test_id);
	sqlite3_bind_int64(st, 2, target_id);
	sqlite3_bind_int(st, 3, sm->rep);
	bind_real(st, 4, sm->wall);
	bind_real(st, 5, sm->cpu_user);
	bind_real(st, 6, sm->cpu_sys);
	bind_real(st, 7, sm->cpu_pct);
	bind_real(st, 8, sm->machine_cpu_pct);
	store_bind_text(st, 9, sm->detail && sm->detail[0] ? sm->detail : NULL);
	store_bind_text(st, 10, sm->series && sm->series[0] ? sm->series : NULL);
	if (step_done(s, st, "recording a sample"))
		goto fail;
	sid = sqlite3_last_insert_rowid(s->db);
	/* one statement for every value (a bonnie sample has 40 with the
	 * device group) */
	if (store_prepare(s, "INSERT INTO value(sample_id,metric_ord,value) VALUES(?,?,?)", &st))
		goto fail;
	for (int i = 0; i < nvalues; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, sid);
		sqlite3_bind_int(st, 2, i);
		bind_real(st, 3, sm->values[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			store_db_error(s, "recording a value");
			sqlite3_finalize(st);
			goto fail;
		}
	}
	sqlite3_finalize(st);
	return exec(s, "RELEASE one");
fail:
	exec(s, "ROLLBACK TO one; RELEASE one");
	return -1;
}

int store_add_failure(struct store *s, int64_t test_id, int64_t target_id,
		      const char *message)
{
	sqlite3_stmt *st;

	if (store_prepare(s, "INSERT INTO failure(test_id,target_id,message) VALUES(?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, test_id);
	sqlite3_bind_int64(st, 2, target_id);
	store_bind_text(st, 3, message);
	return step_done(s, st, "recording a failure");
}
