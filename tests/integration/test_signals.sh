# test_signals.sh: SIGINT and SIGTERM stop a run: exit 130, the run is
# stored as interrupted, and no scratch file is left behind.
. "$(dirname "$0")/lib.sh"

T=$WORK/t
mkdir -p "$T"
for sig in INT TERM; do
	"$FSBENCH" run fsmark:files=200000,size=4k,threads=2,sync=0 --target t="$T" --runs 1 \
		--db "$DB" --no-drop-caches >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	# Wait until the workers are writing, then interrupt.
	for _ in $(seq 100); do
		[ -n "$(find "$T" -mindepth 2 -type f 2>/dev/null | head -1)" ] && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"; rc=$?
	check "SIG$sig: exit 130 (got $rc)" [ "$rc" -eq 130 ]
	check "SIG$sig: says it was interrupted" grep -q "interrupted" "$WORK/err"
	check "SIG$sig: scratch directory removed" [ -z "$(ls -A "$T")" ]
	check "SIG$sig: no worker left running" [ -z "$(pgrep -f "run fsmark:files=200000" 2>/dev/null)" ]
	last=$("$FSBENCH" list runs --db "$DB" | tail -1)
	check "SIG$sig: run stored as interrupted" grep -q interrupted <<<"$last"
done
finish
