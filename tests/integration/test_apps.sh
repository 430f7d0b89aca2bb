# test_apps.sh: the application workloads put every byte on the target:
# while each runs, its database or background files are seen under the
# target's scratch directory; afterwards the target is empty and nothing
# went to a temp directory (PTS's SQLite and LevelDB runs wrote to /tmp).
. "$(dirname "$0")/lib.sh"

T=$WORK/t
mkdir -p "$T"
# A decoy temp directory: SQLite (etilqs_*), LevelDB's test directory and
# the programs fsbench starts put their files where TMPDIR, SQLITE_TMPDIR
# and TEST_TMPDIR say unless told to use the target, so whatever strays
# lands here.  (This looked for new names in /tmp and /var/tmp, which
# every other program on the machine writes to as well.)
DECOY=$WORK/decoy-tmp
mkdir "$DECOY"
export TMPDIR=$DECOY SQLITE_TMPDIR=$DECOY TEST_TMPDIR=$DECOY
# Record every path seen under the target while a run goes on.
watch_run() {	# name spec...
	local name=$1; shift
	: > "$WORK/$name.seen"
	( while :; do find "$T" -mindepth 2 >> "$WORK/$name.seen" 2>/dev/null; sleep 0.02; done ) &
	local w=$!
	FSB run "$@" --target t="$T" --runs 1 --db "$DB" --json "$WORK/$name.json" >"$WORK/$name.out" 2>"$WORK/$name.err"
	local rc=$?
	kill $w; wait $w 2>/dev/null
	return $rc
}
seen() { grep -q "$2" "$WORK/$1.seen"; }

watch_run speed "sqlite-speedtest:size=10"
check "sqlite-speedtest runs" jqt '.run.status == "complete"' "$WORK/speed.json"
check "sqlite-speedtest: database on the target" seen speed '/speedtest1.db$'
check "sqlite-speedtest: each step kept" jqt '.tests[0].samples[0].detail | test(" 990 - ANALYZE")' "$WORK/speed.json"

watch_run inserts "sqlite-inserts:n=400,threads=2"
check "sqlite-inserts runs" jqt '.tests[0].metrics[1].name == "inserts_per_sec"' "$WORK/inserts.json"
check "sqlite-inserts: database and journal on the target" seen inserts '/inserts.db'

watch_run kv "kv:benchmark=fillrandom,num=300000"
check "kv runs" jqt '.run.status == "complete"' "$WORK/kv.json"
check "kv: LevelDB directory on the target" seen kv '/dbbench/CURRENT$'
check "kv: db_bench's line kept" jqt '.tests[0].samples[0].detail | test("micros/op; +[0-9.]+ MB/s")' "$WORK/kv.json"

if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/drop_caches ]; then
	# the sessions of fsbench's processes while it runs: fio's job
	# processes each lead one, and fsbench's background must too
	( while :; do p=$(pgrep -d, -f 'appstart:app=replay-xterm') &&
		echo $(ps -o sid= -p "$p" | sort -u | wc -l); sleep 0.05; done ) > "$WORK/app.sids" &
	sids=$!
	watch_run app "appstart:app=replay-xterm,readers=2,writers=1,file_size=8m,settle=300ms"
	kill $sids; wait $sids 2>/dev/null
	check "appstart runs" jqt '.run.status == "complete"' "$WORK/app.json"
	check "appstart: background files on the target" seen app '/bg_read1$'
	check "appstart: replay files on the target" seen app '/replay1$'
	check "appstart: background throughput and latency recorded" \
		jqt '[.tests[0].metrics[].name] == ["seconds","bg_read_mbs","bg_read_lat","bg_write_mbs","bg_write_lat"]' "$WORK/app.json"
	check "appstart: the background's requests timed during the launches" \
		jqt '.tests[0].samples[0].values.bg_read_lat > 0 and .tests[0].samples[0].values.bg_write_lat > 0' "$WORK/app.json"
	check "appstart: no background process left" [ -z "$(pgrep -f 'appstart:app=replay-xterm')" ]
	# catches the workers left in fsbench's session: where the scheduler
	# groups by session (autogroup), readers in one group left the loop
	# device's worker more CPU than S's fio job does, and start-ups were
	# shorter than S's (docs/workloads/appstart.md); 4 = fsbench + 3 workers
	check "appstart: each background worker leads a session, as fio's jobs" \
		[ "$(sort -n "$WORK/app.sids" | tail -1)" -ge 4 ]
	watch_run exec "appstart:app=exec:/usr/bin/python3,args=-c pass,readers=1,file_size=4m,settle=0,launches=1"
	check "appstart exec: program copied to the target" seen exec '/app/bin/python3$'
	check "appstart exec: its libc too" seen exec '/app/lib/libc.so.6$'
else
	skip "appstart" "needs root and a writable /proc/sys/vm/drop_caches for cold starts"
fi
check "nothing left in the target" [ -z "$(ls -A "$T")" ]
check "nothing went to the temp directory" [ -z "$(ls -A "$DECOY")" ]

FSB run "appstart:app=exec:/usr/bin/nope" --target t="$T" --db "$DB" >/dev/null 2>"$WORK/e"; rc=$?
check "appstart: a missing program is refused" [ $rc -ne 0 ]
check "appstart: ...in one line" [ "$(grep -c . "$WORK/e")" -eq 1 ]
check "appstart: ...naming it" grep -q "/usr/bin/nope" "$WORK/e"
check "nothing left in the target after errors" [ -z "$(ls -A "$T")" ]
finish
