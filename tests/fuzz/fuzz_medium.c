/* fuzz_medium.c: medium files (`--medium FILE`, media/model.c): an error
 * with a message, or a medium the model accepts (its parameters pass
 * flash_params_check, so no division by zero or overflow in the costs)
 * and can be made and run a few requests on when it is small. */
#include "fuzz.h"
#include "core/error.h"
#include "media/flash.h"
#include "media/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct model_spec m;
	struct flash_params p;

	if (model_parse("fuzz.medium", text, &m) == 0) {
		FUZZ_ASSERT(model_params(&m, &p) == 0);
		FUZZ_ASSERT(flash_params_check(&p, NULL, 0) == 0);
		FUZZ_ASSERT(p.page && p.unit % p.page == 0 && p.capacity % p.unit == 0);
		FUZZ_ASSERT(m.name[0] && m.name[sizeof(m.name) - 1] == '\0');
		if (p.capacity <= (256u << 20)) {
			struct flash *f = flash_new(&p);
			FUZZ_ASSERT(f != NULL);
			flash_write(f, 0, 4096);
			flash_write(f, p.capacity - 1, 1);
			flash_trim(f, 0, p.capacity);
			flash_read(f, p.capacity / 2, 65536);
			flash_free(f);
		}
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	free(text);
	return 0;
}
