/*
 * version.h: fsbench's version, "0.1.0-<git describe>", as the store,
 * reports and `fsbench -V` give it.  The Makefile generates its
 * definition (build/version.c) and rewrites it only when it changes, so a
 * new commit rebuilds one small object rather than leaving a stale string
 * in objects make did not know to rebuild.
 */
#ifndef FSB_VERSION_H
#define FSB_VERSION_H

extern const char fsbench_version[];

#endif
