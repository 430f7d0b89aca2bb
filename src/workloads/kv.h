/*
 * kv.h: the piece of the kv workload tests look at: db_bench's value pool.
 */
#ifndef FSB_KV_H
#define FSB_KV_H

#include <stddef.h>

/* Fill pool (at least 1 MiB + 100 bytes) with db_bench's 100-byte pieces of
 * 50 random printable characters written twice (Random(301)); *len is
 * how many bytes were made. */
void kv_value_pool(char *pool, size_t *len);
/* The same pool, built as db_bench's RandomGenerator builds it (heap strings,
 * a doubling string): malloc'ed, NULL when out of memory. */
char *kv_value_pool_grown(size_t *len);

#endif
