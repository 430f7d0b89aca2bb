/*
 * comm.c: the MPI side of comm.h (OpenMPI), or a job of one when fsbench
 * is built without it (HAVE_MPI unset) or not launched by mpirun.
 */
#include "comm.h"
#include "error.h"
#include "histogram.h"
#include "str.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_MPI
#include <mpi.h>
#endif

static int rank, size = 1;
#ifdef HAVE_MPI
static int active;
#endif
static uint64_t zero;

/* mpirun (ORTE or PRRTE/PMIx) tells its children who they are. */
static bool launched_by_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

bool comm_available(void)
{
#ifdef HAVE_MPI
	return true;
#else
	return false;
#endif
}

int comm_init(int *argc, char ***argv)
{
	if (!launched_by_mpirun())
		return 0;
#ifdef HAVE_MPI
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Errors are returned and agreed on, not fatal in the library. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	active = 1;
	return 0;
#else
	(void)argc;
	(void)argv;
	return error_set("launched by mpirun, but this fsbench was built without OpenMPI: "
			 "install libopenmpi-dev (scripts/install-deps) and rebuild");
#endif
}

void comm_finalize(void)
{
#ifdef HAVE_MPI
	if (active)
		MPI_Finalize();
	active = 0;
#endif
}

int comm_rank(void)
{
	return rank;
}

int comm_size(void)
{
	return size;
}

#define MSG_LEN 1024

int comm_agree(bool failed)
{
#ifdef HAVE_MPI
	if (active) {
		int mine = failed ? rank : size, first;
		char msg[MSG_LEN] = "";

		MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (first == size)
			return 0;
		if (rank == first)
			str_copy(msg, sizeof(msg), error_get());
		MPI_Bcast(msg, MSG_LEN, MPI_CHAR, first, MPI_COMM_WORLD);
		return error_set("rank %d: %s", first, msg);
	}
#endif
	return failed ? -1 : 0;
}

void comm_sync(void)
{
#ifdef HAVE_MPI
	if (active)
		MPI_Barrier(MPI_COMM_WORLD);
#endif
	zero = now_ns();
}

uint64_t comm_now(void)
{
	return now_ns() - zero;
}

void comm_reduce(uint64_t *v, int n, enum comm_op op)
{
#ifdef HAVE_MPI
	static const MPI_Op ops[] = { [COMM_SUM] = MPI_SUM, [COMM_MIN] = MPI_MIN,
				      [COMM_MAX] = MPI_MAX };
	if (active)
		MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, ops[op], MPI_COMM_WORLD);
#else
	(void)v;
	(void)n;
	(void)op;
#endif
}

void comm_allgather(const uint64_t *mine, int n, uint64_t *all)
{
#ifdef HAVE_MPI
	if (active) {
		MPI_Allgather(mine, n, MPI_UINT64_T, all, n, MPI_UINT64_T, MPI_COMM_WORLD);
		return;
	}
#endif
	memcpy(all, mine, sizeof(*all) * (size_t)n);
}

void comm_bcast(char *buf, size_t len)
{
#ifdef HAVE_MPI
	if (active)
		MPI_Bcast(buf, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
#else
	(void)buf;
	(void)len;
#endif
}

void comm_merge_hist(struct histogram *h)
{
#ifdef HAVE_MPI
	if (active && size > 1) {
		/* Every rank's histogram to every rank, merged in rank order so
		 * the floating-point result is the same everywhere. */
		struct histogram *all = malloc(sizeof(*all) * (size_t)size);
		if (!all)
			return;
		MPI_Allgather(h, (int)sizeof(*h), MPI_BYTE, all, (int)sizeof(*h), MPI_BYTE,
			      MPI_COMM_WORLD);
		hist_init(h);
		for (int i = 0; i < size; i++)
			hist_merge(h, &all[i]);
		free(all);
	}
#else
	(void)h;
#endif
}

#define HOST_LEN 256

/* Every rank's host name, in rank order (one entry when alone). */
static char *all_hosts(void)
{
	char *names = calloc((size_t)size, HOST_LEN), me[HOST_LEN] = "";

	if (!names)
		return NULL;
	gethostname(me, sizeof(me) - 1);
#ifdef HAVE_MPI
	if (active) {
		MPI_Allgather(me, HOST_LEN, MPI_CHAR, names, HOST_LEN, MPI_CHAR, MPI_COMM_WORLD);
		return names;
	}
#endif
	memcpy(names, me, HOST_LEN);
	return names;
}

static const char *host_of(const char *names, int i)
{
	return names + (size_t)i * HOST_LEN;
}

/* Ranks on rank i's host; *first says whether i is the lowest of them. */
static int ranks_with_host_of(const char *names, int i, int *first)
{
	int count = 0;

	*first = 1;
	for (int k = 0; k < size; k++) {
		count += !strcmp(host_of(names, k), host_of(names, i));
		if (k < i && !strcmp(host_of(names, k), host_of(names, i)))
			*first = 0;
	}
	return count;
}

int comm_hosts(char *buf, size_t len)
{
	char *names = all_hosts();
	int nodes = 0, first;
	size_t at;

	if (!names)
		return snprintf(buf, len, "?"), 1;
	for (int i = 0; i < size; i++) {
		ranks_with_host_of(names, i, &first);
		nodes += first;
	}
	at = (size_t)snprintf(buf, len, "%d rank%s on %d node%s:", size, size == 1 ? "" : "s", nodes,
			      nodes == 1 ? "" : "s");
	for (int i = 0; i < size && at < len; i++) {
		int count = ranks_with_host_of(names, i, &first);
		if (first)
			at += (size_t)snprintf(buf + at, len - at, " %s (%d)", host_of(names, i), count);
	}
	free(names);
	return nodes;
}

int comm_ranks_on_first_node(void)
{
	char *names = all_hosts();
	int count, first;

	if (!names)
		return 1;
	count = ranks_with_host_of(names, 0, &first);
	free(names);
	return count;
}
