/*
 * bonnie.c: bonnie++ (Russell Coker), as specified in
 * docs/workloads/bonnie.md: seed 003's throughput and CPU%
 * per column.
 *
 * Sequential I/O on one file of `size` bytes in `chunk` pieces: per-char
 * output, block output, rewrite, per-char input, block input; random
 * seeks by seekers fed tickets through a pipe (bonnie-seeks.c); then the
 * file tests (sequential and random create, stat+read, delete of
 * `n` x 1024 files).  Every phase reports its rate and its CPU% (CPU /
 * elapsed, bonnie's %CP); a phase shorter than 0.5 s has no figure
 * (bonnie's "+++++").
 *
 * semantics=1.04 is the bonnie++ seed 003 used: stdio putc/getc over the
 * whole file, no fsync inside the timers, 3 seekers, 5 s before the seek
 * tickets.  semantics=2.00 is Debian's: one syscall per byte over byte_io
 * (3 MiB), fsync before every close, sync() at the end of the create and
 * delete phases, 5 seekers, 3 s.  bonnie++'s own CSV line (in its version's
 * column layout) is kept as the sample detail, so bon_csv2html still works.
 * 1.04 keeps its data in 1 GiB files (Bonnie.<pid>.000, .001, ...), 2.00
 * in one.  2.00's seekers are threads of one process (1.04 forks them), and
 * 2.00 times every call (a byte chunk, a block, a seek, a file) for the
 * CSV's latency columns: the longest one per phase, as bonnie++ prints it.
 * Not reproduced: the hard/symbolic link file tests (max -1/-2) are refused.
 */
#define _GNU_SOURCE
#include "bonnie.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define P(x) offsetof(struct bonnie_params, x)
static const struct param_def bonnie_params[] = {
	{ "size", PT_SIZE, P(size), "0", 0, 1ULL << 44, NULL,
	  "data file size (-s); 0 = max(300M, 2 x ram), whole GiB above 512M", PF_SCALE },
	{ "chunk", PT_SIZE, P(chunk), "8192", 256, 1 << 20, NULL, "I/O chunk, a power of two (-s size:chunk)" },
	/* --scale shrinks ram (so the file sized from it) and n's count; a
	 * run on a machine with more RAM than the scaled figure then says
	 * its page cache may hold the file (bonnie_memory_note) */
	{ "ram", PT_INT, P(ram), "-1", -1, 1 << 24, NULL,
	  "RAM in MiB for the size rule (-r); -1 = this machine's, 0 = no check", PF_SCALE },
	{ "n", PT_STRING, P(n), "16", 0, (double)sizeof(((struct bonnie_params *)0)->n), NULL,
	  "file tests: number (x1024)[:max[:min[:dirs]]] (-n); 0 = none", PF_SCALE },
	{ "semantics", PT_ENUM, P(semantics), "2.00", 0, 0, "1.04|2.00",
	  "bonnie++ version to follow: 1.04 (seed 003) or 2.00 (Debian)" },
	{ "byte_io", PT_SIZE, P(byte_io), "3M", 0, 1ULL << 40, NULL,
	  "2.00: bytes of per-char I/O (-f N)" },
	{ "putc", PT_BOOL, P(putc), "1", 0, 0, NULL, "run the per-char tests (-f skips them)" },
	{ "seeks", PT_INT, P(seeks), "8192", 1, 100000000, NULL, "random seeks in all" },
	{ "seekers", PT_INT, P(seekers), "0", 0, 64, NULL, "seeker processes; 0 = 3 (1.04) or 5 (2.00)" },
	{ "seek_wait", PT_INT, P(seek_wait), "-1", -1, 60000, NULL,
	  "ms of pause before the seek tickets; -1 = 5000 (1.04) or 3000 (2.00)" },
	{ "sync_all", PT_BOOL, P(sync_all), "0", 0, 0, NULL, "fsync after every write (-b)" },
	{ "precise", PT_BOOL, P(precise), "0", 0, 0, NULL,
	  "show the measured figure of a phase under 0.5 s instead of bonnie's +++++ "
	  "(marked in the title; bonnie's own CSV line keeps +++++)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

#define COL(name, unit, label, prim)                                              \
	{ name, unit, HIGHER_IS_BETTER, label, prim },                            \
	{ name "_cpu", "%CPU", LOWER_IS_BETTER, label " CPU", 0 }
static const struct metric_def bonnie_metrics[] = {
	COL("putc", "K/s", "char out", 0), COL("put_block", "K/s", "block out", 1),
	COL("rewrite", "K/s", "rewrite", 0), COL("getc", "K/s", "char in", 0),
	COL("get_block", "K/s", "block in", 0), COL("seeks", "seeks/s", "seeks", 0),
	COL("seq_create", "files/s", "seq create", 0), COL("seq_stat", "files/s", "seq read", 0),
	COL("seq_del", "files/s", "seq delete", 0), COL("ran_create", "files/s", "rand create", 0),
	COL("ran_stat", "files/s", "rand read", 0), COL("ran_del", "files/s", "rand delete", 0),
};

static const struct preset bonnie_presets[] = {
	{ "bonnie-seed003", "semantics=1.04,ram=1024", "bonnie++ 1.04, -r 1024 (seed 003)" },
	{ NULL, NULL, NULL },
};

static int parse_n(const char *s, struct ftest *ft)
{
	long v[4] = { 0, 0, 0, 0 };
	int k = 0;
	char *end;

	if (!*s)
		return error_set("parameter 'n': empty (use number[:max[:min[:dirs]]])");
	/* number x1024 files, sizes in bytes, dirs: bounds far beyond any
	 * real run, well inside every product made of them. */
	static const long most[4] = { 1L << 20, 1L << 30, 1L << 30, 1L << 20 };

	for (const char *p = s; k < 4; k++) {
		errno = 0;
		v[k] = strtol(p, &end, 10);
		if (end == p || errno || v[k] < (k == 1 ? -2 : 0) || v[k] > most[k])
			return error_set("parameter 'n': bad value '%s' (number[:max[:min[:dirs]]], "
					 "number up to %ld)", s, most[0]);
		if (!*end)
			break;
		if (*end != ':')
			return error_set("parameter 'n': bad value '%s' (number[:max[:min[:dirs]]])", s);
		p = end + 1;
	}
	ft->number = v[0] * 1024;
	ft->max = v[1];
	ft->min = v[2];
	ft->dirs = v[3];
	if (ft->max < 0)
		return error_set("parameter 'n': hard and symbolic link tests (max -1/-2) are not supported");
	if (ft->max && ft->min > ft->max)
		return error_set("parameter 'n': min %ld is above max %ld", ft->min, ft->max);
	return 0;
}

static uint64_t ram_mib(const struct bonnie_params *p)
{
	if (p->ram >= 0)
		return (uint64_t)p->ram;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz >> 20 : 0;
}

/* bonnie's size rule, in bytes. */
static uint64_t file_size(const struct bonnie_params *p)
{
	if (p->size)
		return p->size;
	uint64_t mib = 2 * ram_mib(p);
	if (mib < 300)
		mib = 300;
	if (mib % 1024 > 512)
		mib = (mib / 1024 + 1) * 1024;
	return mib << 20;
}

static int bonnie_validate(const void *v)
{
	const struct bonnie_params *p = v;
	struct ftest ft;

	if (p->chunk & (p->chunk - 1))
		return error_set("parameter 'chunk': %llu is not a power of two",
				 (unsigned long long)p->chunk);
	if (parse_n(p->n, &ft))
		return -1;
	uint64_t ram = ram_mib(p);
	if (p->size && p->ram != 0 && (p->size >> 20) < 2 * ram)
		return error_set("parameter 'size': %llu MiB is under twice the RAM (%llu MiB), so the page cache "
				 "would be measured, and bonnie++ refuses that: give ram=0 to run anyway",
				 (unsigned long long)(p->size >> 20), (unsigned long long)ram);
	return 0;
}

/* bonnie++ sizes its file at twice the RAM so that the page cache cannot
 * hold it; -r (ram=) turns that rule into a number, and seed 003's -r 1024
 * made sense on its 2 GiB machine only.  On a bigger one the reads come
 * from memory, and the figures say so. */
static int bonnie_memory_note(const void *v, uint64_t ram, char *buf, size_t len)
{
	uint64_t size = file_size(v), ram_mib = ram >> 20;

	if (!ram_mib || size >> 20 >= 2 * ram_mib)
		return 0;
	snprintf(buf, len, "! the %llu MiB file is under twice the %llu MiB of memory here: "
		 "the page cache serves much of it", (unsigned long long)(size >> 20),
		 (unsigned long long)ram_mib);
	return 1;
}

static uint64_t bonnie_space(const void *v)
{
	const struct bonnie_params *p = v;
	struct ftest ft = { 0, 0, 0, 0 };

	parse_n(p->n, &ft);
	return sat_add(file_size(p), sat_mul((uint64_t)ft.number, sat_add((uint64_t)ft.max, 4096)));
}

static void bonnie_describe(const void *v, char *buf, size_t len)
{
	const struct bonnie_params *p = v;

	snprintf(buf, len, "bonnie++ %s, %llu MiB file, -n %s%s", p->semantics ? "2.00" : "1.04",
		 (unsigned long long)(file_size(p) >> 20), p->n,
		 p->precise ? " (precise: no +++++)" : "");
}

/* ---- timing ---------------------------------------------------------- */

double bonnie_self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void bonnie_mark(struct clock_mark *m)
{
	m->t = now_ns();
	m->cpu = bonnie_self_cpu();
}


/* Close a phase: the rate is `amount` per second, as bonnie computes it. */
void bonnie_finish(struct bon *b, enum col c, const struct clock_mark *m0, double amount,
		   double extra_cpu)
{
	double el = ns_to_s(now_ns() - m0->t), cpu = bonnie_self_cpu() - m0->cpu + extra_cpu;

	b->ran[c] = true;
	b->csv_rate[c] = el < 0.5 ? NAN : amount / el;
	if ((el < 0.5 && !b->p->precise) || el <= 0) {	/* bonnie's MinTime: "+++++" */
		b->rate[c] = b->cpu[c] = NAN;
		return;
	}
	b->rate[c] = amount / el;
	b->cpu[c] = cpu / el * 100;
}

static int close_file(struct bon *b, int fd, const char *path)
{
	if (b->p->semantics == 1 && fsync(fd))	/* 2.00: Close() always fsyncs */
		return error_errno("bonnie: fsync %s", path);
	return close(fd) ? error_errno("bonnie: close %s", path) : 0;
}


void bonnie_piece_path(const struct bon *b, unsigned k, char *out, size_t len)
{
	if (b->pieces > 1 || b->p->semantics == 0)
		snprintf(out, len, "%s.%03u", b->file, k);
	else
		snprintf(out, len, "%s", b->file);
}

static uint64_t piece_bytes(const struct bon *b, unsigned k)
{
	uint64_t left = b->size - (uint64_t)k * PIECE;

	return b->p->semantics == 0 && left > PIECE ? PIECE : left;
}

static void unlink_pieces(const struct bon *b)
{
	char path[4500];

	for (unsigned k = 0; k < b->pieces; k++) {
		bonnie_piece_path(b, k, path, sizeof(path));
		unlink(path);
	}
}

/* ---- sequential I/O -------------------------------------------------- */

static int put_char(struct bon *b)
{
	struct clock_mark m;
	char path[4500];

	unlink_pieces(b);
	if (b->p->semantics == 0) {
		uint64_t i = 0;
		bonnie_mark(&m);
		for (unsigned k = 0; k < b->pieces; k++) {
			bonnie_piece_path(b, k, path, sizeof(path));
			FILE *f = fopen(path, "w+");
			if (!f)
				return error_errno("bonnie: create %s", path);
			for (uint64_t end = i + piece_bytes(b, k); i < end; i++)
				if (putc((int)(i & 0x7f), f) == EOF) {
					fclose(f);
					return error_errno("bonnie: putc %s", path);
				}
			if (fflush(f) || (b->p->sync_all && fsync(fileno(f))) || fclose(f))
				return error_errno("bonnie: writing %s", path);
		}
		bonnie_finish(b, PUTC, &m, (double)b->size / 1024, 0);
	} else {
		bonnie_piece_path(b, 0, path, sizeof(path));
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return error_errno("bonnie: create %s", path);
		bonnie_mark(&m);
		/* per chunk, each byte i of it i & 0x7f, as write_block_byte() */
		for (uint64_t done = 0; done < b->p->byte_io; done += b->p->chunk) {
			uint64_t t0 = call_start(b);
			for (uint64_t i = 0; i < b->p->chunk && done + i < b->p->byte_io; i++) {
				char c = (char)(i & 0x7f);
				if (write(fd, &c, 1) != 1) {
					close(fd);
					return error_errno("bonnie: write %s", path);
				}
			}
			call_stop(b, t0, &b->lat[PUTC]);
		}
		if (close_file(b, fd, path))
			return -1;
		bonnie_finish(b, PUTC, &m, (double)b->p->byte_io / 1024, 0);
	}
	return 0;
}

/* One pass over every piece, chunk by chunk: write, rewrite or read.
 * 2.00 opens its one file read-write whatever the pass (Close() fsyncs it)
 * and starts the clock after the open; 1.04's clock runs from before. */
enum pass { WRITE_PASS, REWRITE_PASS, READ_PASS };

static int block_pass(struct bon *b, enum pass how, struct clock_mark *m, uint64_t *longest)
{
	ssize_t ch = (ssize_t)b->p->chunk;
	char path[4500];
	uint64_t i = 0;
	int v2 = b->p->semantics == 1;

	for (unsigned k = 0; k < b->pieces && !workload_stopped(); k++) {
		int fd;
		bonnie_piece_path(b, k, path, sizeof(path));
		if (how == WRITE_PASS) {
			unlink(path);
			fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		} else {
			fd = open(path, how == READ_PASS && !v2 ? O_RDONLY : O_RDWR);
		}
		if (fd < 0)
			return error_errno("bonnie: open %s", path);
		if (v2 && k == 0)
			bonnie_mark(m);
		for (uint64_t end = i + piece_bytes(b, k) / b->p->chunk; i < end && !workload_stopped(); i++) {
			int bad = 0;
			uint64_t t0 = call_start(b);
			if (how == WRITE_PASS) {
				b->buf[i % b->p->chunk]++;	/* one byte changes per chunk */
				bad = write(fd, b->buf, (size_t)ch) != ch;
				if (!bad && b->p->sync_all)
					fsync(fd);
			} else if (how == READ_PASS) {
				bad = read(fd, b->buf, (size_t)ch) != ch;
			} else {
				bad = read(fd, b->buf, (size_t)ch) != ch;
				b->buf[i % b->p->chunk]--;
				bad = bad || lseek(fd, -ch, SEEK_CUR) < 0 || write(fd, b->buf, (size_t)ch) != ch;
			}
			call_stop(b, t0, longest);
			if (bad) {
				close(fd);
				return error_errno("bonnie: %s %s", how == READ_PASS ? "block read" :
						   how == WRITE_PASS ? "block write" : "rewrite", path);
			}
		}
		if (how == READ_PASS && !v2 ? close(fd) != 0 : close_file(b, fd, path) != 0)
			return error_errno("bonnie: close %s", path);
	}
	return 0;
}

/* Block output, rewrite and block input: one timed pass each. */
static int timed_pass(struct bon *b, enum pass how, enum col c)
{
	struct clock_mark m;

	if (how == WRITE_PASS) {
		unlink_pieces(b);
		memset(b->buf, 0, (size_t)b->p->chunk);
	}
	bonnie_mark(&m);	/* 2.00: again after the open */
	if (block_pass(b, how, &m, &b->lat[c]))
		return -1;
	bonnie_finish(b, c, &m, (double)b->size / 1024, 0);
	return 0;
}

static int get_char(struct bon *b)
{
	struct clock_mark m;
	char path[4500];

	if (b->p->semantics == 0) {
		bonnie_mark(&m);
		for (unsigned k = 0; k < b->pieces; k++) {
			bonnie_piece_path(b, k, path, sizeof(path));
			FILE *f = fopen(path, "r+");
			if (!f)
				return error_errno("bonnie: open %s", path);
			for (uint64_t i = piece_bytes(b, k); i > 0; i--)
				if (getc(f) == EOF) {
					fclose(f);
					return error_set("bonnie: %s ended early", path);
				}
			fclose(f);
		}
		bonnie_finish(b, GETC, &m, (double)b->size / 1024, 0);
	} else {
		bonnie_piece_path(b, 0, path, sizeof(path));
		int fd = open(path, O_RDWR);	/* reopen(false), fsynced at Close() */
		char c;
		if (fd < 0)
			return error_errno("bonnie: open %s", path);
		bonnie_mark(&m);
		for (uint64_t done = 0; done < b->p->byte_io; done += b->p->chunk) {
			uint64_t t0 = call_start(b);
			for (uint64_t i = 0; i < b->p->chunk && done + i < b->p->byte_io; i++)
				if (read(fd, &c, 1) != 1) {
					close(fd);
					return error_set("bonnie: %s ended early", path);
				}
			call_stop(b, t0, &b->lat[GETC]);
		}
		if (close_file(b, fd, path))
			return -1;
		bonnie_finish(b, GETC, &m, (double)b->p->byte_io / 1024, 0);
	}
	return 0;
}

/* ---- file tests ------------------------------------------------------- */

/* bonnie's names, relative to the test directory it works in: 0..12
 * random characters after the number (sequential) or before it (random);
 * directories filled one after another. */
static void file_name(struct bon *b, long i, int random_first, char *out, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char rnd[16], num[24];
	int nr = rand() % 13;
	long per_dir = b->ft.dirs > 1 ? b->ft.number / b->ft.dirs : 0;

	for (int k = 0; k < nr; k++)
		rnd[k] = chars[rand() % 62];
	rnd[nr] = '\0';
	snprintf(num, sizeof(num), b->p->semantics ? "%010lx" : "%07lx", i);
	out[0] = '\0';
	if (b->ft.dirs > 1) {
		long d = i / (per_dir + 1);
		snprintf(out, len, "%05ld/", d < b->ft.dirs ? d : b->ft.dirs - 1);
	}
	size_t n = strlen(out);
	snprintf(out + n, len - n, "%s%s", random_first ? rnd : num, random_first ? num : rnd);
}

static long file_bytes(struct bon *b)
{
	if (b->ft.max == b->ft.min)
		return b->ft.max;
	return b->ft.min + rand() % (b->ft.max - b->ft.min + 1);
}

/* The names are made before the clock starts (make_names()). */
static void make_names(struct bon *b, char (*names)[64], int random_first)
{
	for (long i = 0; i < b->ft.number; i++)
		file_name(b, i, random_first, names[i], 64);
}

/* 2.00 creates with O_CREAT|O_EXCL (1.04 with creat()); each file, its
 * write and close are one timed call. */
static int create_files(struct bon *b, char (*names)[64], enum col c)
{
	for (long i = 0; i < b->ft.number && !workload_stopped(); i++) {
		const char *path = names[i];
		uint64_t t0 = call_start(b);
		int fd = b->p->semantics ? open(path, O_CREAT | O_EXCL | O_WRONLY, S_IRUSR | S_IWUSR)
					 : creat(path, S_IRUSR | S_IWUSR);
		if (fd < 0)
			return error_errno("bonnie: create %s", path);
		for (long left = file_bytes(b); left > 0; left -= (long)b->p->chunk) {
			size_t w = left < (long)b->p->chunk ? (size_t)left : (size_t)b->p->chunk;
			if (write(fd, b->buf, w) != (ssize_t)w) {
				close(fd);
				return error_errno("bonnie: write %s", path);
			}
			b->wrote += w;
		}
		if (b->p->sync_all)
			fsync(fd);
		close(fd);
		call_stop(b, t0, &b->lat[c]);
	}
	if (b->p->semantics)
		sync();	/* 2.00: inside the timer */
	return workload_stopped() ? error_set("bonnie: interrupted") : 0;
}

static int stat_read(struct bon *b, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return error_errno("bonnie: stat %s", path);
	if (st.st_size > 0) {
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			return error_errno("bonnie: open %s", path);
		ssize_t n;
		while ((n = read(fd, b->buf, (size_t)b->p->chunk)) > 0)
			b->got += (uint64_t)n;
		close(fd);
	}
	return 0;
}

/* Visit every file in readdir order (sequential tests); a timed call is one
 * readdir() and what is done to its entry. */
static int walk_dirs(struct bon *b, int del)
{
	long ndirs = b->ft.dirs > 1 ? b->ft.dirs : 1;
	uint64_t *longest = &b->lat[del ? SDEL : SSTA];

	for (long d = 0; d < ndirs; d++) {
		char dir[24], path[600];
		if (b->ft.dirs > 1)
			snprintf(dir, sizeof(dir), "%05ld", d);
		else
			snprintf(dir, sizeof(dir), ".");
		DIR *dh = opendir(dir);
		struct dirent *de;
		if (!dh)
			return error_errno("bonnie: opendir %s", dir);
		for (uint64_t t0 = call_start(b); (de = readdir(dh)); t0 = call_start(b)) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (del ? unlink(path) : stat_read(b, path)) {
				closedir(dh);
				return del ? error_errno("bonnie: unlink %s", path) : -1;
			}
			call_stop(b, t0, longest);
		}
		closedir(dh);
	}
	return 0;
}

/* The test directory and its subdirectories; bonnie then works inside it. */
static int make_dirs(struct bon *b)
{
	if (mkdir(b->dir, 0700))
		return error_errno("bonnie: mkdir %s", b->dir);
	if (chdir(b->dir))
		return error_errno("bonnie: chdir %s", b->dir);
	for (long d = 0; b->ft.dirs > 1 && d < b->ft.dirs; d++) {
		char sub[24];
		snprintf(sub, sizeof(sub), "%05ld", d);
		if (mkdir(sub, 0700))
			return error_errno("bonnie: mkdir %s", sub);
	}
	return 0;
}

static int remove_dirs(struct bon *b)
{
	for (long d = 0; b->ft.dirs > 1 && d < b->ft.dirs; d++) {
		char sub[24];
		snprintf(sub, sizeof(sub), "%05ld", d);
		rmdir(sub);
	}
	if (chdir(b->home))
		return error_errno("bonnie: chdir %s", b->home);
	return rmdir(b->dir) ? error_errno("bonnie: rmdir %s", b->dir) : 0;
}

/* One pass of swaps, each i with rand() % n (random_sort()), before each of
 * the random stat and delete phases. */
static void shuffle(struct bon *b, char (*names)[64])
{
	for (long i = 0; i < b->ft.number; i++) {
		long j = rand() % b->ft.number;
		char t[64];
		memcpy(t, names[i], 64);
		memcpy(names[i], names[j], 64);
		memcpy(names[j], t, 64);
	}
}

static int file_tests(struct bon *b)
{
	char (*names)[64] = calloc((size_t)b->ft.number, 64);
	struct clock_mark m;
	double n = (double)b->ft.number;
	int rc = 0;

	if (!names)
		return error_set("bonnie: out of memory for %ld names", b->ft.number);
	/* sequential: create in order, stat+read and delete in readdir order */
	make_names(b, names, 0);
	if (!(rc = make_dirs(b))) {
		bonnie_mark(&m);
		if (!(rc = create_files(b, names, SCRE)))
			bonnie_finish(b, SCRE, &m, n, 0);
	}
	if (!rc) {
		bonnie_mark(&m);
		if (!(rc = walk_dirs(b, 0)))
			bonnie_finish(b, SSTA, &m, n, 0);
	}
	if (!rc) {
		bonnie_mark(&m);
		rc = walk_dirs(b, 1) || remove_dirs(b);
		if (!rc) {
			if (b->p->semantics)
				sync();
			bonnie_finish(b, SDEL, &m, n, 0);
		}
	}
	/* random: random-first names, then stat+read and delete in a shuffled order */
	if (!rc) {
		make_names(b, names, 1);
		if (!(rc = make_dirs(b))) {
			bonnie_mark(&m);
			if (!(rc = create_files(b, names, RCRE)))
				bonnie_finish(b, RCRE, &m, n, 0);
		}
	}
	for (int pass = 0; pass < 2 && !rc; pass++) {
		enum col c = pass ? RDEL : RSTA;
		shuffle(b, names);
		bonnie_mark(&m);
		for (long i = 0; i < b->ft.number && !rc; i++) {
			const char *path = names[i];
			uint64_t t0 = call_start(b);
			if (pass == 0)
				rc = stat_read(b, path);
			else if (unlink(path))
				rc = error_errno("bonnie: unlink %s", path);
			call_stop(b, t0, &b->lat[c]);
		}
		if (!rc && pass == 1)
			rc = remove_dirs(b);
		if (!rc) {
			if (pass == 1 && b->p->semantics)
				sync();
			bonnie_finish(b, c, &m, n, 0);
		}
	}
	free(names);
	if (chdir(b->home) && !rc)	/* also after a failure inside the test dir */
		rc = error_errno("bonnie: chdir %s", b->home);
	return rc;
}

/* ---- the CSV line of the chosen version ------------------------------- */

static void csv_cell(char *out, size_t len, const struct bon *b, enum col c)
{
	size_t u = strlen(out);

	if (!b->ran[c])
		snprintf(out + u, len - u, ",,");
	else if (isnan(b->csv_rate[c]))	/* bonnie++'s own line, whatever precise says */
		snprintf(out + u, len - u, ",+++++,+++");
	else if (c == SEEK)
		snprintf(out + u, len - u, ",%.1f,%d", b->rate[c], (int)b->cpu[c]);
	else
		snprintf(out + u, len - u, ",%d,%d", (int)b->rate[c], (int)b->cpu[c]);
}

/* print_latency(): whole s from 100 s, ms from 0.1 s, us below; blank
 * when the phase did not run. */
static void csv_latency(char *out, size_t len, uint64_t ns)
{
	size_t u = strlen(out);
	double s = ns_to_s(ns);

	if (!ns)
		snprintf(out + u, len - u, ",");
	else if (s > 99.999999)
		snprintf(out + u, len - u, ",%ds", (int)s);
	else if (s > 0.099999)
		snprintf(out + u, len - u, ",%dms", (int)(s * 1000.0));
	else
		snprintf(out + u, len - u, ",%dus", (int)(s * 1000000.0));
}

static void csv_line(char *out, size_t len, const struct bon *b)
{
	char host[64] = "fsbench", size[32], files[64];

	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	uint64_t mib = b->size >> 20;
	if (mib % 1024 == 0)
		snprintf(size, sizeof(size), "%lluG", (unsigned long long)(mib / 1024));
	else
		snprintf(size, sizeof(size), "%lluM", (unsigned long long)mib);
	if (b->p->semantics) {
		char chunk[32] = "";	/* blank when it is the default */
		if (b->p->chunk != 8192)
			snprintf(chunk, sizeof(chunk), "%llu", (unsigned long long)b->p->chunk);
		snprintf(out, len, "1.98,2.00a,%s,1,%ld,%s,%s,%lld,%lld", host, (long)b->seed, size,
			 chunk, (long long)b->p->seeks, (long long)(b->p->seekers ? b->p->seekers : 5));
		for (int c = PUTC; c <= SEEK; c++)
			csv_cell(out, len, b, (enum col)c);
		size_t u = strlen(out);
		char mx[24] = "", mn[24] = "", dr[24] = "";	/* blank when unset, as bonnie++ */
		if (b->ft.max)
			snprintf(mx, sizeof(mx), "%ld", b->ft.max);
		if (b->ft.min)
			snprintf(mn, sizeof(mn), "%ld", b->ft.min);
		if (b->ft.dirs)
			snprintf(dr, sizeof(dr), "%ld", b->ft.dirs);
		snprintf(out + u, len - u, ",%ld,%s,%s,%s,", b->ft.number / 1024, mx, mn, dr);
		for (int c = SCRE; c < NCOLS; c++)
			csv_cell(out, len, b, (enum col)c);
		for (int c = PUTC; c < NCOLS; c++)
			csv_latency(out, len, b->lat[c]);
	} else {
		if (b->ft.max || b->ft.min || b->ft.dirs)
			snprintf(files, sizeof(files), "%ld:%ld:%ld/%ld", b->ft.number / 1024, b->ft.max,
				 b->ft.min, b->ft.dirs);
		else
			snprintf(files, sizeof(files), "%ld", b->ft.number / 1024);
		snprintf(out, len, "%s,%s", host, size);
		for (int c = PUTC; c <= SEEK; c++)
			csv_cell(out, len, b, (enum col)c);
		size_t u = strlen(out);
		snprintf(out + u, len - u, ",%s", b->ft.number ? files : "");
		for (int c = SCRE; c < NCOLS; c++)
			csv_cell(out, len, b, (enum col)c);
	}
	strncat(out, "\n", len - strlen(out) - 1);
}

static int bonnie_run(struct wl_ctx *ctx, double *values)
{
	const struct bonnie_params *p = ctx->params;
	struct bon *b = calloc(1, sizeof(*b));
	int rc = 0;

	if (!b)
		return error_set("out of memory");
	b->p = p;
	parse_n(p->n, &b->ft);
	b->size = file_size(p);
	b->nchunks = b->size / p->chunk;
	b->pieces = p->semantics ? 1 : (unsigned)((b->size + PIECE - 1) / PIECE);
	b->buf = aligned_alloc(4096, (size_t)(p->chunk > 4096 ? p->chunk : 4096));
	snprintf(b->file, sizeof(b->file), "%s/Bonnie.%d", ctx->dir, (int)getpid());
	snprintf(b->dir, sizeof(b->dir), "%s/Bonnie.%d.d", ctx->dir, (int)getpid());
	for (int c = 0; c < NCOLS; c++)
		b->rate[c] = b->cpu[c] = b->csv_rate[c] = NAN;
	if (!b->buf || !getcwd(b->home, sizeof(b->home))) {
		free(b->buf);
		free(b);
		return error_set("bonnie: out of memory or no working directory");
	}
	b->seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	srand(b->seed);	/* 2.00's tickets and both versions' file names */
	if (p->putc)
		rc = put_char(b);
	if (!rc)
		rc = timed_pass(b, WRITE_PASS, PUTB);
	if (!rc)
		rc = timed_pass(b, REWRITE_PASS, REWR);
	if (!rc && p->putc)
		rc = get_char(b);
	if (!rc)
		rc = timed_pass(b, READ_PASS, GETB);
	/* Between phases, outside every timer: the big file is complete.  2.00's
	 * seekers delete it, so its space is measured before them; 1.04's file
	 * may still be dirty here, and a sync would change its seek phase. */
	bool seekers_unlink = p->semantics == 1;
	if (!rc && seekers_unlink && !workload_stopped())
		workload_data_complete(ctx);
	if (!rc && !workload_stopped())
		rc = bonnie_seeks(b);
	/* The big file's passes, as a whole: each writes or reads it once. */
	uint64_t per_char = p->semantics ? (uint64_t)p->byte_io : b->size;	/* 2.00: its own file */
	b->wrote += b->size * (unsigned)(b->ran[PUTB] + b->ran[REWR]) + per_char * b->ran[PUTC];
	b->got += b->size * (unsigned)(b->ran[REWR] + b->ran[GETB]) + per_char * b->ran[GETC];
	if (!rc && !seekers_unlink && !workload_stopped())
		workload_data_complete(ctx);
	unlink_pieces(b);
	if (!rc && b->ft.number && !workload_stopped())
		rc = file_tests(b);
	if (!rc && workload_stopped())
		rc = error_set("bonnie: interrupted");
	for (int c = 0; c < NCOLS; c++) {
		values[2 * c] = b->rate[c];
		values[2 * c + 1] = b->cpu[c];
	}
	if (!rc && ctx->detail)
		csv_line(ctx->detail, DETAIL_MAX, b);
	ctx->bytes_written = (int64_t)b->wrote;
	ctx->bytes_read = (int64_t)b->got;
	free(b->buf);
	free(b);
	return rc;
}

const struct workload wl_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++ 1.04 / 2.00: per-char, block, rewrite, seeks and file tests; K/s and %CPU",
	.title = "Bonnie++",
	.params = bonnie_params,
	.params_size = sizeof(struct bonnie_params),
	.metrics = bonnie_metrics,
	.nmetrics = 2 * NCOLS,
	.presets = bonnie_presets,
	.validate = bonnie_validate,
	.space_needed = bonnie_space,
	.memory_note = bonnie_memory_note,
	.describe = bonnie_describe,
	.run = bonnie_run,
};
