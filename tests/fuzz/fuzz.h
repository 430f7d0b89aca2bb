/*
 * fuzz.h: what every libFuzzer harness shares.
 *
 * Each harness feeds untrusted text to one parser of fsbench's and checks
 * what must hold whatever the input: no crash, no sanitizer report, and a
 * result that is either an error with a message or a well-formed value.
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined;
 * `make test` replays tests/fuzz/corpus/<harness>/ through each.
 */
#ifndef FSB_FUZZ_H
#define FSB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The input as a NUL-terminated string (bytes after a NUL are dropped, as
 * a C string parser would see them); free() it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A check that must hold: abort so libFuzzer records the input. */
#define FUZZ_ASSERT(cond) do { if (!(cond)) abort(); } while (0)

#endif
