/*
 * cpu.h: CPU accounting for one sample.
 *
 * Two views over the same interval: the workload's own CPU (getrusage of
 * fsbench and its reaped children: user and system seconds), and the whole
 * machine's busy CPU from /proc/stat, which also counts a FUSE daemon or a
 * kernel writeback thread working on the workload's behalf.  CPU% is CPU
 * seconds / wall seconds x 100, as bonnie++ reports it (may exceed 100 on
 * several cores).
 */
#ifndef FSB_CPU_H
#define FSB_CPU_H

#include <stdint.h>

struct timeval;
/* A getrusage time in seconds. */
double cpu_seconds(const struct timeval *tv);

struct cpu_snap {
	uint64_t wall_ns;
	double user, sys;		/* self + children, seconds */
	uint64_t busy_ticks, total_ticks;	/* /proc/stat "cpu" line */
};

/* Ticks of /proc/stat (all CPUs) below which the machine's CPU% is not
 * measurable: 100 keeps the tick quantisation near 2% on 2 CPUs. */
#define CPU_MIN_TICKS 100

struct cpu_usage {
	double wall;		/* seconds */
	double user, sys;	/* workload CPU seconds */
	double cpu_pct;		/* (user + sys) / wall x 100 */
	double machine_pct;	/* machine busy CPU seconds / wall x 100; NAN when the
				 * window is under CPU_MIN_TICKS ticks of all CPUs */
};

void cpu_snapshot(struct cpu_snap *s);
void cpu_between(const struct cpu_snap *a, const struct cpu_snap *b,
		 struct cpu_usage *u);
/* Parse the aggregate "cpu" line of a /proc/stat text. */
int cpu_parse_stat(const char *text, uint64_t *busy, uint64_t *total);

#endif
