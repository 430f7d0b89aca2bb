/*
 * sqlitedb.c: shared SQLite helpers for sqlite-speedtest and sqlite-inserts.
 */
#include "sqlitedb.h"
#include "../core/error.h"

#include <ctype.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

static const char *const journal[] = { "delete", "truncate", "persist", "memory", "wal", "off" };
static const char *const sync_modes[] = { "off", "normal", "full", "extra" };

static void upper(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		out[i] = (char)toupper((unsigned char)s[i]);
	out[i] = '\0';
}

void sqlitedb_modes_text(int journal_mode, int synchronous, char *buf, size_t len)
{
	char j[16], y[16];

	upper(journal[journal_mode], j, sizeof(j));
	upper(sync_modes[synchronous], y, sizeof(y));
	snprintf(buf, len, "Journal: %s - Synchronous: %s", j, y);
}

int sqlitedb_error(sqlite3 *db, const char *what)
{
	int code = sqlite3_extended_errcode(db);

	if ((code & 0xff) == SQLITE_FULL)
		return error_set("sqlite: %s: database or disk is full: use a smaller size= or a "
				 "bigger target", what);
	return error_set("sqlite: %s: %s", what, sqlite3_errmsg(db));
}

/* Sort files, temporary tables and VACUUM's copy would otherwise go to
 * /var/tmp or /tmp: point SQLite's (process-wide) temp directory at the
 * database's own directory, on the target. */
static int point_temp_files_at(const char *path)
{
	/* One global shared by every connection: sqlite-inserts' threads
	 * open at once, so it is changed under a lock, and only when it
	 * differs (they all share one directory; freeing it under another
	 * thread's feet was a double free). */
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? sqlite3_mprintf("%.*s", (int)(slash - path), path)
			  : sqlite3_mprintf(".");

	if (!dir)
		return error_set("out of memory");
	pthread_mutex_lock(&lock);
	if (sqlite3_temp_directory && !strcmp(sqlite3_temp_directory, dir)) {
		sqlite3_free(dir);
	} else {
		sqlite3_free(sqlite3_temp_directory);
		sqlite3_temp_directory = dir;
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

int sqlitedb_open(const char *path, int journal_mode, int synchronous, sqlite3 **out)
{
	char sql[128];
	sqlite3 *db;

	*out = NULL;
	if (point_temp_files_at(path))
		return -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		error_set("sqlite: cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	/* Other connections (sqlite-inserts' threads) may hold the lock. */
	sqlite3_busy_timeout(db, 60000);
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s; "
		 "PRAGMA synchronous=%s;", journal[journal_mode], sync_modes[synchronous]);
	if (sqlitedb_exec(db, sql)) {
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int sqlitedb_exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	return sqlitedb_error(db, sql);
}

int sqlitedb_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
	if (sqlite3_prepare_v2(db, sql, -1, out, NULL) == SQLITE_OK)
		return 0;
	return sqlitedb_error(db, sql);
}

int sqlitedb_run(sqlite3 *db, sqlite3_stmt *st)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	return sqlitedb_error(db, sqlite3_sql(st));
}

void sqlitedb_remove(const char *path)
{
	static const char *const suffix[] = { "", "-journal", "-wal", "-shm" };
	char p[4200];

	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s%s", path, suffix[i]);
		unlink(p);
	}
}
