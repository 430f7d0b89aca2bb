/* cpu.c: workload and machine CPU accounting (see cpu.h). */
#include "cpu.h"

#include <math.h>
#include "timing.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

double cpu_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int cpu_parse_stat(const char *text, uint64_t *busy, uint64_t *total)
{
	uint64_t v[10] = { 0 };
	int n;

	if (strncmp(text, "cpu ", 4))
		return -1;
	n = sscanf(text + 4, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -1;
	/* user nice system idle iowait irq softirq steal; guest time is
	 * already inside user/nice. Steal is time we did not get. */
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4] - v[7];
	return 0;
}

static void read_proc_stat(uint64_t *busy, uint64_t *total)
{
	char line[512];
	FILE *f = fopen("/proc/stat", "r");

	*busy = *total = 0;
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		cpu_parse_stat(line, busy, total);
	fclose(f);
}

void cpu_snapshot(struct cpu_snap *s)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->user = cpu_seconds(&self.ru_utime) + cpu_seconds(&kids.ru_utime);
	s->sys = cpu_seconds(&self.ru_stime) + cpu_seconds(&kids.ru_stime);
	read_proc_stat(&s->busy_ticks, &s->total_ticks);
	s->wall_ns = now_ns();
}

void cpu_between(const struct cpu_snap *a, const struct cpu_snap *b,
		 struct cpu_usage *u)
{
	double hz = (double)sysconf(_SC_CLK_TCK);

	u->wall = ns_to_s(b->wall_ns - a->wall_ns);
	u->user = b->user - a->user;
	u->sys = b->sys - a->sys;
	u->cpu_pct = u->wall > 0 ? (u->user + u->sys) / u->wall * 100 : 0;
	/* /proc/stat counts whole ticks per CPU: over a window of a few
	 * ticks that quantisation is the figure (724% on 2 cores for a 5 ms
	 * sample).  Below CPU_MIN_TICKS ticks of all CPUs there is no figure;
	 * above, busy / total ticks of the window, in CPUs x 100, which cannot
	 * exceed the machine. */
	u->machine_pct = NAN;
	(void)hz;
	if (b->total_ticks >= a->total_ticks + CPU_MIN_TICKS && b->busy_ticks >= a->busy_ticks) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		u->machine_pct = (double)(b->busy_ticks - a->busy_ticks) /
				 (double)(b->total_ticks - a->total_ticks) * 100 * (ncpu > 0 ? ncpu : 1);
	}
}
