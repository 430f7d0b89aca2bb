/*
 * cache.h: emptying the page cache between measurements: sync, then (as
 * root) echo 3 > /proc/sys/vm/drop_caches.  Used by the runner before each
 * repetition and by workloads that read cold inside a repetition.
 */
#ifndef FSB_CACHE_H
#define FSB_CACHE_H

/* Sync, and drop the page cache when `drop` and allowed; 1 if dropped. */
int cache_flush(int drop);
/* Drop the clean page cache without a sync first (dirty pages stay), as
 * `echo 3 > /proc/sys/vm/drop_caches` alone does; 1 if dropped. */
int cache_drop(void);

#endif
