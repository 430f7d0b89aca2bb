/* fuzz_fsspec.c: --fs lists ("ext4,btrfs:compress=zstd,label=z") and the
 * mkfs= safety rule: whatever parses never hands mkfs a path, nor mount an
 * option with a character no option has (a space, ';', a quote); and
 * --target [LABEL=]DIR. */
#include "fuzz.h"
#include "core/error.h"
#include "core/exec.h"
#include "targets/profiles.h"
#include "targets/target.h"
#include "vm/vm.h"

#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct fs_spec specs[8];
	int n = 0;

	if (fs_spec_split(text, specs, 8, &n) == 0) {
		FUZZ_ASSERT(n >= 0 && n <= 8);
		for (int i = 0; i < n; i++) {
			char copy[256], *argv[64];
			FUZZ_ASSERT(specs[i].profile);
			FUZZ_ASSERT(strlen(specs[i].mkfs_extra) < sizeof(specs[i].mkfs_extra));
			strcpy(copy, specs[i].mkfs_extra);
			int w = split_words(copy, argv, 64);
			for (int k = 0; k < w; k++)
				FUZZ_ASSERT(!strchr(argv[k], '/') && argv[k][0] != '.');
			size_t run = 0;
			for (const char *c = specs[i].options; *c; c++) {
				run = *c == ',' ? 0 : run + 1;
				FUZZ_ASSERT(run <= 255);
				FUZZ_ASSERT(isalnum((unsigned char)*c) || strchr(",_-.:+=/@%", *c));
			}
			/* flash: the nand_* options become module parameters */
			char params[512];
			if (specs[i].nand[0] &&
			    !vm_nand_params(specs[i].nand, 1 + (int)(size & 3), 0, params, sizeof(params)))
				FUZZ_ASSERT(strlen(params) < sizeof(params) && !strchr(params, '/'));
		}
	} else {
		FUZZ_ASSERT(error_get()[0]);
	}
	static struct target t;
	if (target_parse(text, &t) == 0)
		FUZZ_ASSERT(t.spec[0] && strlen(t.label) < sizeof(t.label));
	free(text);
	return 0;
}
