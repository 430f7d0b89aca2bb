/*
 * comm.h: many fsbench processes acting as one (MPI), or just this one.
 *
 * Under `mpirun` (OpenMPI), fsbench is one rank of a job: every rank runs
 * the same command, the ior and mdtest workloads do their share and meet
 * at the phases' barriers, and only rank 0 stores and prints.  Without
 * mpirun (or in a build without OpenMPI) this is a job of one and every
 * call is trivial, so the workloads have a single code path.
 *
 * Failure never hangs a job: a phase ends with comm_agree(), a barrier
 * that also tells every rank whether any rank failed, and brings the
 * first failing rank's message to all ranks.
 */
#ifndef FSB_COMM_H
#define FSB_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct histogram;

/* Join the MPI job when launched by mpirun; -1 (error set) when launched
 * by mpirun but built without MPI. */
int comm_init(int *argc, char ***argv);
void comm_finalize(void);
bool comm_available(void);	/* built with MPI */
int comm_rank(void);
int comm_size(void);

/* Barrier + agreement: every rank says whether it failed (its message in
 * error_get()); returns 0 when none did, otherwise -1 on every rank with
 * "rank N: message" of the lowest failing rank set as the error. */
int comm_agree(bool failed);
/* Barrier, then this rank's clock restarts at 0: times taken with
 * comm_now() after the same comm_sync() compare across nodes to within
 * the barrier's release skew. */
void comm_sync(void);
uint64_t comm_now(void);

/* In-place all-reduce, element by element: every rank ends with the
 * result. */
enum comm_op { COMM_SUM, COMM_MIN, COMM_MAX };
void comm_reduce(uint64_t *v, int n, enum comm_op op);
/* Every rank's n values, in rank order, to every rank: all[rank*n + i]. */
void comm_allgather(const uint64_t *mine, int n, uint64_t *all);
/* Rank 0's string to every rank. */
void comm_bcast(char *buf, size_t len);
/* Merge every rank's histogram into every rank's (buckets summed, min,
 * max, mean and variance combined exactly). */
void comm_merge_hist(struct histogram *h);
/* "2 nodes: a (2 ranks), b (2 ranks)"; returns the number of nodes. */
int comm_hosts(char *buf, size_t len);
/* How many ranks share rank 0's host (block placement detection). */
int comm_ranks_on_first_node(void);

#endif
