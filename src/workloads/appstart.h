/*
 * appstart.h: the pieces of the appstart workload that tests look at: the
 * replay traces' shapes and generator, and how exec: finds a program's
 * shared libraries.
 */
#ifndef FSB_APPSTART_H
#define FSB_APPSTART_H

#include <limits.h>
#include <stdint.h>

struct trace_shape {
	const char *name;	/* "xterm" */
	const char *title;	/* "xterm", "GNOME Terminal" */
	int threads;
	int requests;
	uint64_t bytes;
};

struct trace_req {
	int thread;
	uint64_t offset;	/* in that thread's file */
	uint32_t len;
};

const struct trace_shape *trace_shape_find(const char *name);
/* The synthetic trace for a shape; *file_size is the per-thread file size
 * the offsets need.  Caller frees *out. */
int trace_build(const struct trace_shape *shape, struct trace_req **out, int *nout,
		uint64_t *file_size);
/* The loader (paths[0]) and every library it maps for program; returns
 * the number of paths, or -1 with the error set. */
int app_libraries(const char *program, char paths[][PATH_MAX], int max);

#endif
