#!/bin/bash
# test_fuzz.sh: replay every fuzz harness's corpus (seeds and every crash
# found so far) under ASan+UBSan.  Seconds, not minutes; `make fuzz-long`
# does the long fuzzing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

corpus=$here/../fuzz/corpus
if [ -z "${FUZZBIN:-}" ] || ! ls "$FUZZBIN"/fuzz_* >/dev/null 2>&1; then
	skip "fuzz corpus replay" "no harnesses built (make fuzz)"
	finish
	exit 0
fi
for src in "$here"/../fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	h=${name#fuzz_}
	if [ ! -x "$FUZZBIN/$name" ]; then
		not_ok "fuzz $h: corpus replay" "$FUZZBIN/$name not built"
		continue
	fi
	n=$(find "$corpus/$h" -type f | wc -l)
	if [ "$n" -eq 0 ]; then
		not_ok "fuzz $h: corpus replay" "empty corpus $corpus/$h"
		continue
	fi
	# a crash leaves its input in $WORK, not in the checkout
	if "$FUZZBIN/$name" -runs=0 -artifact_prefix="$WORK/" "$corpus/$h" >"$WORK/$h.log" 2>&1 &&
	   ! grep -qE 'runtime error|ERROR: (Address|Leak|Undefined)' "$WORK/$h.log"; then
		ok "fuzz $h: $n inputs replay clean"
	else
		not_ok "fuzz $h: corpus replay" "$(grep -m3 -E 'ERROR|runtime error|Running' "$WORK/$h.log" | tr '\n' ' ')"
	fi
done
finish
