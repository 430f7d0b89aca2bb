/*
 * store_internal.h: what the store's files share (store.c opens, makes and
 * writes the store; load.c reads runs back).  Not for outside store/.
 */
#ifndef FSB_STORE_INTERNAL_H
#define FSB_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>

#include "store.h"

struct store {
	sqlite3 *db;
	char path[4096];
	bool made;	/* store_open made the file and has not finished setting it up */
};

/* The error of the last SQLite call on s, as "what: message": -1. */
int store_db_error(struct store *s, const char *what);
/* A statement (-1 with the error set). */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st);
/* Bind text that may be NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v);

#endif
