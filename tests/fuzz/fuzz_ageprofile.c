/* fuzz_ageprofile.c: aging profiles (aging/profile.c): an error with a
 * message, or a profile the ager can run: a fill below 1, a churn at
 * least the fill, sizes 1 byte to 1 GiB with low <= high, weights finite
 * and positive, create and delete in the mix. */
#include "fuzz.h"
#include "aging/profile.h"
#include "core/error.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct age_profile p;

	if (age_profile_parse("fuzz.age", text, &p) == 0) {
		FUZZ_ASSERT(p.fill > 0 && p.fill < 1);
		if (!p.git) {
			FUZZ_ASSERT(p.churn >= p.fill && isfinite(p.churn));
			FUZZ_ASSERT(p.nsizes >= 1 && p.nsizes <= AGE_MAX_BUCKETS);
			for (int i = 0; i < p.nsizes; i++)
				FUZZ_ASSERT(p.sizes[i].lo >= 1 && p.sizes[i].lo <= p.sizes[i].hi &&
					    p.sizes[i].hi <= (1ULL << 30) && p.sizes[i].weight > 0 &&
					    isfinite(p.sizes[i].weight));
			FUZZ_ASSERT(p.ops[AGE_CREATE] > 0 && p.ops[AGE_DELETE] > 0);
			for (int i = 0; i < AGE_OPS; i++)
				FUZZ_ASSERT(p.ops[i] >= 0 && isfinite(p.ops[i]));
		}
		FUZZ_ASSERT(p.depth <= 8 && p.young >= 0 && p.young <= 1);
		FUZZ_ASSERT(p.commits >= 1 && p.commits <= 100000);
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
