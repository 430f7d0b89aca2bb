/*
 * numa.c: fio's numa_cpu_nodes and numa_mem_policy, through libnuma.
 *
 * numa_cpu_nodes=0-1 runs each thread of the job on those nodes' CPUs
 * (after cpus_allowed, which it overrides, as in fio); numa_mem_policy=
 * MODE[:NODES] (default, prefer:N, bind:NODES, interleave[:NODES], local)
 * is the thread's memory policy, and its I/O buffers are moved under it:
 * fio allocates them in the job after setting the policy, where fsbench
 * allocated them before the thread ran.  fio checks both when the job
 * starts, against the machine's nodes, as io_numa_check does for a run;
 * its --parse-only checks neither.
 */
#include "io_internal.h"
#include "../core/error.h"

#include <numa.h>
#include <numaif.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { POL_DEFAULT, POL_PREFER, POL_BIND, POL_INTERLEAVE, POL_LOCAL };
static const char *const pol_names[] = { "default", "prefer", "bind", "interleave", "local" };

/* libnuma reports through these (weak symbols a program may replace): its
 * own lines on stderr become fsbench's error, said once by the caller. */
static __thread int numa_failed;
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
	numa_failed = 1;
}
void numa_error(char *where)
{
	(void)where;
	numa_failed = 1;
}

/* MODE[:NODES] into mode and its node text (NULL: none); -1 when malformed. */
static int policy(const char *text, int *mode, const char **nodes)
{
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text);

	*mode = -1;
	for (int i = 0; i < 5; i++)
		if (strlen(pol_names[i]) == n && !strncmp(text, pol_names[i], n))
			*mode = i;
	if (*mode < 0)
		return error_set("numa_mem_policy=%s: the mode is default, prefer, bind, interleave or "
				 "local (fio's)", text);
	*nodes = colon ? colon + 1 : NULL;
	if ((*mode == POL_DEFAULT || *mode == POL_LOCAL) && *nodes)
		return error_set("numa_mem_policy=%s: no node list with '%s' (fio's rule)", text,
				 pol_names[*mode]);
	if (*mode == POL_PREFER && (!*nodes || !**nodes || strspn(*nodes, "0123456789") !=
				    strlen(*nodes)))
		return error_set("numa_mem_policy=%s: 'prefer' takes one node (prefer:0)", text);
	if (*mode == POL_BIND && (!*nodes || !**nodes))
		return error_set("numa_mem_policy=%s: 'bind' takes a node list (bind:0-1)", text);
	if (*mode == POL_INTERLEAVE && !*nodes)
		*nodes = "all";	/* fio: the online nodes with memory */
	return 0;
}

/* A node list of this machine, or NULL with the error set. */
static struct bitmask *nodes_of(const char *option, const char *text)
{
	struct bitmask *m;

	numa_failed = 0;
	m = numa_parse_nodestring(text);
	if (!m)
		error_set("%s=%s: not nodes of this machine (libnuma reads 0-%d, 'all' or a list "
			  "such as 0,2)", option, text, numa_max_node());
	return m;
}

int io_numa_check(const struct io_options *o)
{
	int mode;
	const char *nodes;
	struct bitmask *m;

	if (!o->numa_cpu_nodes[0] && !o->numa_mem_policy[0])
		return 0;
	if (numa_available() < 0)
		return error_set("numa_cpu_nodes and numa_mem_policy: libnuma finds no NUMA support "
				 "in this kernel");
	if (o->numa_cpu_nodes[0]) {
		if (!(m = nodes_of("numa_cpu_nodes", o->numa_cpu_nodes)))
			return -1;
		numa_free_nodemask(m);
	}
	if (o->numa_mem_policy[0]) {
		if (policy(o->numa_mem_policy, &mode, &nodes))
			return -1;
		if (nodes && !(m = nodes_of("numa_mem_policy", nodes)))
			return -1;
		if (nodes)
			numa_free_nodemask(m);
	}
	return 0;
}

int io_numa_place(struct io_thread *t)
{
	const struct io_options *o = t->o;
	struct bitmask *m = NULL;
	int mode, rc = 0;
	const char *nodes;

	if (o->numa_cpu_nodes[0]) {
		if (!(m = nodes_of("numa_cpu_nodes", o->numa_cpu_nodes)))
			return -1;
		numa_failed = 0;
		if (numa_run_on_node_mask(m) || numa_failed)
			rc = error_errno("numa_cpu_nodes=%s: running on those nodes", o->numa_cpu_nodes);
		numa_free_nodemask(m);
		m = NULL;
		if (rc)
			return rc;
	}
	if (!o->numa_mem_policy[0])
		return 0;
	if (policy(o->numa_mem_policy, &mode, &nodes) ||
	    (nodes && !(m = nodes_of("numa_mem_policy", nodes))))
		return -1;
	numa_failed = 0;
	int kmode = MPOL_DEFAULT;
	switch (mode) {
	case POL_PREFER:
		numa_set_preferred(atoi(nodes));
		kmode = MPOL_PREFERRED;
		break;
	case POL_BIND:
		numa_set_membind(m);
		kmode = MPOL_BIND;
		break;
	case POL_INTERLEAVE:
		numa_set_interleave_mask(m);
		kmode = MPOL_INTERLEAVE;
		break;
	case POL_LOCAL:
		numa_set_localalloc();
		kmode = MPOL_LOCAL;
		break;
	default:
		break;
	}
	if (numa_failed)
		rc = error_set("numa_mem_policy=%s: libnuma could not set it", o->numa_mem_policy);
	/* the buffers were made before the thread ran: moved under its
	 * policy, as fio's are made under it */
	size_t len = t->buf_size * t->depth;
	if (!rc && t->bufmem && len && mode != POL_DEFAULT &&
	    mbind(t->bufmem, len, kmode, m && kmode != MPOL_LOCAL ? m->maskp : NULL,
		  m && kmode != MPOL_LOCAL ? m->size + 1 : 0, MPOL_MF_MOVE))
		rc = error_errno("numa_mem_policy=%s: moving the I/O buffers (mbind)",
				 o->numa_mem_policy);
	if (m)
		numa_free_nodemask(m);
	return rc;
}
