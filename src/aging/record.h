/*
 * record.h: what an aging run did to a target (issue 42), as the JSON
 * text the store keeps with the target (target.aging) and the one line
 * every report's system table shows for it.  The store and the reports
 * never see an age_result: this is the one place its fields are named
 * outside the ager.
 */
#ifndef FSB_AGE_RECORD_H
#define FSB_AGE_RECORD_H

#include "ager.h"

#include <stddef.h>
#include <stdint.h>

/* The record (malloc'd JSON text), or NULL when out of memory; repo: a
 * git profile's repository. */
char *age_record_json(const struct age_profile *p, uint64_t seed, uint64_t capacity,
		      const char *repo, const struct age_result *r);
/* "desktop (seed 1): 80.4% full, ..." from a record; -1 when json is not
 * one (buf then says so). */
int age_record_summary(const char *json, char *buf, size_t len);
/* A record's figure by its key (fullness, seconds, extents_per_file...),
 * or NAN. */
double age_record_value(const char *json, const char *key);

#endif
