/*
 * iolog.h: fio's iolog format, versions 2 and 3.  write_iolog writes
 * version 3 (iolog.c); read_iolog replays either (replay.c):
 *
 *   fio version 3 iolog
 *   USEC NAME add|open|close
 *   USEC NAME read|write|trim|sync|datasync OFFSET LENGTH
 *
 * Version 2 has no USEC and one more action, "NAME wait USEC 0" (a pause).
 * The parser is the one place the text is read, so the fuzz harness
 * (tests/fuzz/fuzz_iolog.c) covers every path into a replay.
 */
#ifndef FSB_IOLOG_H
#define FSB_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { IOLOG_READ, IOLOG_WRITE, IOLOG_TRIM, IOLOG_SYNC, IOLOG_DATASYNC, IOLOG_ADD, IOLOG_OPEN,
       IOLOG_CLOSE, IOLOG_WAIT };

/* Bounds of what a replay takes: more is refused, never cut. */
#define IOLOG_MAX_ENTRIES (16u << 20)
#define IOLOG_MAX_FILES 4096
#define IOLOG_MAX_LEN (64u << 20)	/* bytes of one I/O */
#define IOLOG_MAX_EXTENT (1ULL << 50)	/* the furthest byte of a file */

/* One I/O, sync or pause of a log, in its order.  us: version 3's stamp
 * (from the log's start), or version 2's wait; file: into names[]. */
struct iolog_entry {
	uint64_t us, offset;
	uint32_t len;
	uint32_t file;
	uint8_t act;		/* IOLOG_READ .. IOLOG_DATASYNC, IOLOG_WAIT */
};

struct iolog_replay {
	int version;
	struct iolog_entry *ent;
	size_t n;
	char **names;		/* the log's files, in the order added */
	unsigned nfiles;
	uint64_t extent;	/* the furthest byte any I/O reaches, over the files */
	uint32_t min_len, max_len;
	bool reads, writes, trims;
};

/* Parse a log's text (len bytes; it need not end in a NUL); name is for
 * messages.  0 with out filled (iolog_free it), or -1 with the error set
 * and nothing to free.  Refused: another header, a malformed line, an
 * I/O on a file not added, an I/O of no bytes or over IOLOG_MAX_LEN, an
 * offset whose end overflows or passes IOLOG_MAX_EXTENT, a log with no
 * I/O, and one past the bounds. */
int iolog_parse(const char *name, const char *text, size_t len, struct iolog_replay *out);
void iolog_free(struct iolog_replay *r);
/* Read and parse the file at path (at most IOLOG_MAX_ENTRIES lines' worth,
 * opened without following a symbolic link). */
int iolog_load(const char *path, struct iolog_replay *out);

#endif
