/*
 * sqlitedb.h: what the two SQLite workloads share: opening a database
 * file on the target with the journal mode and synchronous setting under
 * test, and running SQL with errors returned as one line.
 */
#ifndef FSB_SQLITEDB_H
#define FSB_SQLITEDB_H

#include <sqlite3.h>
#include <stddef.h>

#define SQLITE_JOURNAL_CHOICES "delete|truncate|persist|memory|wal|off"
#define SQLITE_SYNC_CHOICES "off|normal|full|extra"
/* The two parameter rows both SQLite workloads share, for a struct with
 * int journal_mode and int synchronous. */
#define SQLITEDB_MODE_PARAMS(type)                                                        \
	{ "journal_mode", PT_ENUM, offsetof(type, journal_mode), "delete", 0, 0,           \
	  SQLITE_JOURNAL_CHOICES, "PRAGMA journal_mode" },                                 \
	{ "synchronous", PT_ENUM, offsetof(type, synchronous), "full", 0, 0,               \
	  SQLITE_SYNC_CHOICES, "PRAGMA synchronous" }

/* Open (creating) path with PRAGMA journal_mode and synchronous set from
 * the choice indexes above; the database is never SQLite's temp store. */
int sqlitedb_open(const char *path, int journal_mode, int synchronous, sqlite3 **out);
/* "Journal: DELETE - Synchronous: FULL", for chart subtitles. */
void sqlitedb_modes_text(int journal_mode, int synchronous, char *buf, size_t len);
/* Set and return the error for `what` from db's last failure (-1); a full
 * disk says to lower size= or enlarge the target. */
int sqlitedb_error(sqlite3 *db, const char *what);
/* Run SQL that returns no rows we need. */
int sqlitedb_exec(sqlite3 *db, const char *sql);
/* Prepare or fail with the statement in the message. */
int sqlitedb_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out);
/* Step a statement to its end (discarding rows) and reset it. */
int sqlitedb_run(sqlite3 *db, sqlite3_stmt *st);
/* Remove path and its -journal, -wal and -shm companions. */
void sqlitedb_remove(const char *path);

#endif
