/*
 * bonnie.h: what bonnie's files share (bonnie.c: the parameters, the
 * sequential I/O, the file tests and the CSV line; bonnie-seeks.c: the
 * random seeks).  Not for outside the workload.
 */
#ifndef FSB_WORKLOADS_BONNIE_H
#define FSB_WORKLOADS_BONNIE_H

#include <stdbool.h>
#include <stdint.h>

#include "workload.h"
#include "../core/timing.h"

struct bonnie_params {
	uint64_t size, chunk, byte_io;
	int64_t ram;		/* MiB, -1 = this machine's RAM, 0 = no check (-r) */
	char n[64];		/* number[:max[:min[:dirs]]] (-n) */
	int semantics;		/* 0: 1.04, 1: 2.00 */
	int64_t seeks, seekers;
	int64_t seek_wait;	/* ms before the tickets; -1 = version default */
	bool putc, sync_all;
	bool precise;		/* measured figures under MinTime, not +++++ */
};

enum col { PUTC, PUTB, REWR, GETC, GETB, SEEK, SCRE, SSTA, SDEL, RCRE, RSTA, RDEL, NCOLS };


struct ftest {
	long number, max, min, dirs;	/* number already x1024 */
};

struct clock_mark {
	uint64_t t;
	double cpu;
};

struct bon {
	const struct bonnie_params *p;
	struct ftest ft;
	char file[4400], dir[4400], home[4096];
	unsigned pieces;	/* data files: 1 GiB each in 1.04, one in 2.00 */
	uint64_t size, nchunks;
	char *buf;
	double rate[NCOLS], cpu[NCOLS];	/* NAN = not run or under 0.5 s */
	double csv_rate[NCOLS];		/* what bonnie++ itself prints: NAN = +++++ */
	uint64_t lat[NCOLS];		/* 2.00: the longest call of each phase, ns */
	bool ran[NCOLS];
	uint64_t wrote, got;	/* the application's bytes (the device group) */
	unsigned seed;		/* pid ^ time, as bonnie++ seeds its numbers */
};


/* bonnie++ 1.04 keeps its data in 1 GiB files Bonnie.<pid>.000, .001 ...;
 * 2.00 in one file Bonnie.<pid>. */
#define PIECE (1ULL << 30)

/* The process's CPU seconds, and a phase's start (clock and CPU). */
double bonnie_self_cpu(void);
void bonnie_mark(struct clock_mark *m);
/* Close a phase: the rate is `amount` per second, as bonnie computes it. */
void bonnie_finish(struct bon *b, enum col c, const struct clock_mark *m0, double amount,
		   double extra_cpu);
/* Data file k's path. */
void bonnie_piece_path(const struct bon *b, unsigned k, char *out, size_t len);
/* The random seeks phase (bonnie-seeks.c): 0, or -1 with the error set. */
int bonnie_seeks(struct bon *b);

/* 2.00's Duration around each call: a clock read before and after, the
 * longest kept.  1.04 has no latency columns and reads no clock per call. */
static inline uint64_t call_start(const struct bon *b)
{
	return b->p->semantics ? now_ns() : 0;
}

static inline void call_stop(const struct bon *b, uint64_t t0, uint64_t *longest)
{
	if (b->p->semantics) {
		uint64_t d = now_ns() - t0;
		if (d > *longest)
			*longest = d;
	}
}

#endif
