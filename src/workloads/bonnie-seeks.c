/*
 * bonnie-seeks.c: bonnie++'s random seeks (docs/workloads/bonnie.md).
 * Seekers are handed tickets through a pipe; each ticket is one seek to
 * a random chunk of the data file, which is read, and every tenth
 * written back changed.  1.04 forks its seekers (their figures come back through
 * shared memory); 2.00 runs them as threads of the one process and times
 * every seek for the CSV's latency column.
 */
#define _GNU_SOURCE
#include "bonnie.h"
#include "../core/error.h"
#include "../core/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a seeker reports back (1.04: through shared memory). */
struct seeker_result {
	uint64_t start, stop;	/* after its first ticket; after its close */
	double cpu;
	int failed;
	uint64_t rd, wr;	/* bytes read and written back */
	uint64_t longest;	/* 2.00: its longest seek, ns */
};

/* The seekers taken together. */
struct seek_sum {
	uint64_t first, last, longest;
	double cpu;
};

static void seek_add(struct bon *b, struct seek_sum *sum, const struct seeker_result *r)
{
	if (r->start && (!sum->first || r->start < sum->first))
		sum->first = r->start;
	if (r->stop > sum->last)
		sum->last = r->stop;
	if (r->longest > sum->longest)
		sum->longest = r->longest;
	sum->cpu += r->cpu;
	b->got += r->rd;
	b->wrote += r->wr;
}

/* The seek phase's figures: from the first seeker's start to the last one's
 * stop, under bonnie's 0.5 s rule. */
static void seek_figures(struct bon *b, const struct seek_sum *sum)
{
	double el = ns_to_s(sum->last - sum->first), cpu = sum->cpu;
	int shown = el >= 0.5 || b->p->precise;

	b->ran[SEEK] = true;
	b->lat[SEEK] = sum->longest;
	b->csv_rate[SEEK] = el < 0.5 ? NAN : (double)b->p->seeks / el;
	b->rate[SEEK] = shown && el > 0 ? (double)b->p->seeks / el : NAN;
	b->cpu[SEEK] = shown && el > 0 ? cpu / el * 100 : NAN;
}

/* Tickets are ints through a pipe.  2.00's are random numbers, negative
 * when the number is 0 mod 10 (that seek writes its chunk back), the chunk
 * being the number mod the chunks.  1.04's only say "seek" (0): its
 * seekers draw their own chunks, every tenth written back.  END_TICKET
 * ends a seeker. */
#define END_TICKET INT_MIN

static void seeker(struct bon *b, int rfd, int idx, struct seeker_result *r)
{
	int ticket, n = 0, *fds = calloc(b->pieces, sizeof(int));
	ssize_t ch = (ssize_t)b->p->chunk;
	uint64_t per_piece = PIECE / b->p->chunk;
	char path[4500];

	srand((unsigned)(getpid() ^ time(NULL)));
	for (unsigned k = 0; fds && k < b->pieces; k++) {
		bonnie_piece_path(b, k, path, sizeof(path));
		if ((fds[k] = open(path, O_RDWR)) < 0)
			r->failed = 1;
	}
	if (!fds || r->failed) {
		r->failed = 1;
		return;
	}
	while (read(rfd, &ticket, sizeof(ticket)) == (ssize_t)sizeof(ticket) && ticket != END_TICKET) {
		if (!r->start)
			r->start = now_ns();
		int64_t c = (int64_t)(rand() % (int)b->nchunks);
		int w = n % 10 == 0;	/* every 10th, from the first */
		int fd = fds[b->pieces > 1 ? (uint64_t)c / per_piece : 0];
		if (b->pieces > 1)
			c %= (int64_t)per_piece;
		n++;
		if (lseek(fd, c * ch, SEEK_SET) < 0 || read(fd, b->buf, (size_t)ch) != ch) {
			r->failed = 1;
			break;
		}
		r->rd += (uint64_t)ch;
		if (w) {
			b->buf[idx % ch]++;
			if (lseek(fd, c * ch, SEEK_SET) < 0 || write(fd, b->buf, (size_t)ch) != ch) {
				r->failed = 1;
				break;
			}
			r->wr += (uint64_t)ch;
			if (b->p->sync_all)
				fsync(fd);
		}
	}
	for (unsigned k = 0; k < b->pieces; k++)
		close(fds[k]);
	free(fds);
	r->stop = now_ns();
	r->cpu = bonnie_self_cpu();
}

/* ---- 2.00: seeker threads ---------------------------------------------- */

struct seek_thread {
	struct bon *b;
	int rfd;
	char *buf;
	_Atomic int *opened;	/* seekers past their open */
	struct seeker_result r;
};

/* CFileOp::action(): open, clock from the first ticket, fsync and close
 * inside it.  Its CPU is the process's (RUSAGE_SELF) over its own span, and
 * bonnie++ adds these up: fsbench does the same to print the same %CP.
 * When action() returns, bonnie++ deletes the seeker's CFileOp, whose
 * destructor unlinks the file: the first seeker done unlinks it while the
 * others still have it open, and whichever closes last frees its blocks
 * inside its own clock (docs/workloads/bonnie.md, "Seeks"). */
static void *seek_thread_main(void *arg)
{
	struct seek_thread *t = arg;
	struct bon *b = t->b;
	ssize_t ch = (ssize_t)b->p->chunk;
	int ticket, fd = open(b->file, O_RDWR);

	atomic_fetch_add(t->opened, 1);
	if (fd < 0) {
		t->r.failed = 1;
		return NULL;
	}
	ssize_t n = read(t->rfd, &ticket, sizeof(ticket));
	double cpu0 = bonnie_self_cpu();
	t->r.start = now_ns();
	while (n == (ssize_t)sizeof(ticket) && ticket != END_TICKET) {
		int update = ticket < 0;
		uint64_t where = (uint64_t)(update ? -(int64_t)ticket : ticket) % b->nchunks;
		off_t off = (off_t)(where * (uint64_t)ch);
		uint64_t t0 = now_ns();
		if (lseek(fd, off, SEEK_SET) < 0 || read(fd, t->buf, (size_t)ch) != ch)
			break;
		t->r.rd += (uint64_t)ch;
		if (update) {
			t->buf[where % (uint64_t)ch]--;	/* touch a byte */
			if (lseek(fd, off, SEEK_SET) < 0 || write(fd, t->buf, (size_t)ch) != ch ||
			    (b->p->sync_all && fsync(fd)))
				break;
			t->r.wr += (uint64_t)ch;
		}
		uint64_t d = now_ns() - t0;
		if (d > t->r.longest)
			t->r.longest = d;
		n = read(t->rfd, &ticket, sizeof(ticket));
	}
	if (n != (ssize_t)sizeof(ticket) || ticket != END_TICKET)
		t->r.failed = 1;
	if (fsync(fd))
		t->r.failed = 1;
	close(fd);
	t->r.stop = now_ns();
	t->r.cpu = bonnie_self_cpu() - cpu0;
	unlink(b->file);	/* ~CFileOp(); the later seekers' unlinks find it gone */
	return NULL;
}

/* CFileOp::seek_test(): the parent opens the file too, starts the seekers,
 * waits, writes every ticket at once, then closes (fsyncs) its own handle
 * while they seek.  Buffers and tickets are allocated before any clock. */
static int seeks_threads(struct bon *b)
{
	int nthr = (int)(b->p->seekers ? b->p->seekers : 5), fds[2] = { -1, -1 }, rc = 0, started = 0;
	_Atomic int opened = 0;
	double wait = b->p->seek_wait >= 0 ? (double)b->p->seek_wait / 1000 : 3;
	size_t nt = (size_t)b->p->seeks + (size_t)nthr;
	int *tickets = malloc(nt * sizeof(int));	/* seeks <= 1e8: no overflow */
	struct seek_thread *t = calloc((size_t)nthr, sizeof(*t));
	pthread_t tid[64];
	int pfd = open(b->file, O_RDWR);

	if (!tickets || !t || pfd < 0 || pipe(fds)) {
		rc = pfd < 0 ? error_errno("bonnie: open %s", b->file) : error_set("bonnie: out of memory or pipes");
		goto out;
	}
	for (size_t i = 0; i < nt; i++) {
		int v = rand();
		tickets[i] = i >= (size_t)b->p->seeks ? END_TICKET : v % 10 == 0 ? -v : v;
	}
	for (; started < nthr; started++) {
		t[started] = (struct seek_thread){ .b = b, .rfd = fds[0], .opened = &opened };
		if (!(t[started].buf = aligned_alloc(4096, (size_t)(b->p->chunk > 4096 ? b->p->chunk : 4096))) ||
		    pthread_create(&tid[started], NULL, seek_thread_main, &t[started])) {
			free(t[started].buf);
			rc = error_set("bonnie: cannot start a seeker thread");
			break;
		}
	}
	/* bonnie++ sleeps 3 s so that every seeker has opened the file before
	 * the tickets go out; with a shorter seek_wait, the first seeker done
	 * could unlink it before a late one opened it.  Waiting for the opens
	 * keeps that so at any seek_wait; no clock is running yet. */
	while (atomic_load(&opened) < started)
		usleep(1000);
	if (!rc)
		workload_pause(wait);
	/* Interrupted: only the end tickets, so every seeker stops at once. */
	size_t from = rc || workload_stopped() ? (size_t)b->p->seeks : 0;
	for (const char *p = (const char *)(tickets + from), *e = (const char *)(tickets + nt); p < e;) {
		ssize_t w = write(fds[1], p, (size_t)(e - p));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = rc ? rc : error_errno("bonnie: tickets");
			break;
		}
		p += w;
	}
	if (fsync(pfd) && !rc)
		rc = error_errno("bonnie: fsync %s", b->file);
	close(pfd);
	pfd = -1;
	close(fds[1]);	/* a seeker still reading sees the end */
	fds[1] = -1;
	struct seek_sum sum = { 0, 0, 0, 0 };
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		free(t[i].buf);
		if (t[i].r.failed && !rc)
			rc = error_set("bonnie: a seeker failed on %s", b->file);
		seek_add(b, &sum, &t[i].r);
	}
	if (!rc && workload_stopped())
		rc = error_set("bonnie: interrupted");
	if (!rc && sum.first)
		seek_figures(b, &sum);
out:
	if (pfd >= 0)
		close(pfd);
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	free(tickets);
	free(t);
	return rc;
}

/* ---- 1.04: forked seekers --------------------------------------------- */

int bonnie_seeks(struct bon *b)
{
	if (b->p->semantics == 1)
		return seeks_threads(b);
	int nproc = (int)(b->p->seekers ? b->p->seekers : 3), fds[2];
	double wait = b->p->seek_wait >= 0 ? (double)b->p->seek_wait / 1000 : 5;
	size_t len = sizeof(struct seeker_result) * (size_t)nproc;
	struct seeker_result *res = mmap(NULL, len, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pids[64];
	int rc = 0, started = 0;

	if (res == MAP_FAILED)
		return error_errno("bonnie: mmap");
	memset(res, 0, len);
	if (pipe(fds)) {
		munmap(res, len);
		return error_errno("bonnie: pipe");
	}
	for (; started < nproc; started++) {
		pids[started] = fork_worker();
		if (pids[started] == 0) {
			close(fds[1]);
			seeker(b, fds[0], started, &res[started]);
			_exit(res[started].failed);
		}
		if (pids[started] < 0) {
			rc = error_errno("bonnie: fork");
			break;
		}
	}
	close(fds[0]);
	/* bonnie lets the seekers settle, then hands out every ticket at once. */
	if (!rc)
		workload_pause(wait);
	for (int64_t i = 0; !rc && i < b->p->seeks && !workload_stopped(); i++) {
		int go = 0;
		if (write(fds[1], &go, sizeof(go)) != (ssize_t)sizeof(go))
			rc = error_errno("bonnie: tickets");
	}
	for (int i = 0; i < started; i++)
		if (write(fds[1], &(int){ END_TICKET }, sizeof(int)) != (ssize_t)sizeof(int))
			break;
	close(fds[1]);
	struct seek_sum sum = { 0, 0, 0, 0 };
	for (int i = 0; i < started; i++) {
		int st;
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st)))
			rc = error_set("bonnie: a seeker failed on %s*", b->file);
		seek_add(b, &sum, &res[i]);
	}
	if (!rc && workload_stopped())
		rc = error_set("bonnie: interrupted");
	if (!rc && sum.first)
		seek_figures(b, &sum);
	munmap(res, len);
	return rc;
}

