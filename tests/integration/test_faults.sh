# test_faults.sh: fault injection.  An LD_PRELOAD shim (tests/fault/fault.c)
# makes the Nth write, fsync, open, mkdir or rename under the target fail
# with ENOSPC, EIO, EDQUOT or EROFS, or makes a write short, for every
# workload.  Whenever a fault was injected and the workload could not go
# on: exit 1, one line on stderr, the run stored as failed with its reason,
# the samples of an earlier run intact (PRAGMA integrity_check), and no
# scratch file left.  Where the workload never made that call, or
# absorbed a short write as POSIX allows, the run succeeds: exit 0.
. "$(dirname "$0")/lib.sh"

SHIM=${TESTBIN:-$WORK}/fault.so
if ! cc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -o "$SHIM" \
	"$(dirname "$0")/../fault/fault.c" -ldl 2>"$WORK/cc.err"; then
	not_ok "build the fault shim" "$(cat "$WORK/cc.err")"
	finish
	exit 0
fi
export FSBENCH_STATE=$WORK/state
# A sanitizer build wants its runtime first; the shim comes before it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
T=$WORK/t
mkdir -p "$T"
tmpfs_dir cache fault-cache

workloads=(
	"fsmark:files=30,size=4k"
	"fsmark:files=20,size=8k,threads=2,sync=1"
	"fileop:l=2,u=2,s=4k"
	"postmark:number=40,transactions=100"
	"bonnie:size=4M,ram=0,n=1,seek_wait=0,seeks=50,byte_io=16k"
	"tree:files=30,size=512k,cache=$cache"
	"io:rw=randwrite,size=256k,bs=4k,ioengine=psync"
	"io:rw=write,size=256k,bs=4k,ioengine=sync,fsync=4"
	"sqlite-speedtest:size=1"
	"sqlite-inserts:n=50,threads=1"
	"kv:benchmark=fillsync,num=2000"
	"appstart:app=replay-xterm,readers=1,writers=1,file_size=1m,settle=50ms,launches=1"
	"ior:b=256k,t=64k,s=2"
	"mdtest:n=20,w=100,e=100"
)
faults=(write:ENOSPC:3 write:EIO:12 write:short:2 fsync:EIO:1 open:EDQUOT:2 mkdir:EROFS:1 rename:EROFS:2)
# rename #2: LevelDB ignores a failed rename of its info log (the first) by
# design; the second is CURRENT, which it must not ignore.

# An earlier run whose samples must survive every failure after it.
"$FSBENCH" run fsmark:files=10,size=4k --target "$T" --runs 2 --db "$DB" -q >/dev/null 2>&1
samples() { python3 -c "import sqlite3; print(sqlite3.connect('$DB').execute('select count(*) from sample join test on test.id = sample.test_id where test.run_id = 1').fetchone()[0])"; }
before=$(samples)

injected=0 bad=0
for w in "${workloads[@]}"; do
	for f in "${faults[@]}"; do
		IFS=: read -r call err n <<<"$f"
		rm -f "$WORK/fault.log"
		LD_PRELOAD=$SHIM FAULT_CALL=$call FAULT_N=$n FAULT_ERR=$err FAULT_DIR=$T FAULT_LOG=$WORK/fault.log \
			timeout 120 "$FSBENCH" run "$w" --target "$T" --runs 1 --db "$DB" -q \
			>/dev/null 2>"$WORK/err"
		rc=$?
		what="${w%%:*} $call $err #$n"
		why=""
		if [ -s "$WORK/fault.log" ]; then
			injected=$((injected + 1))
			status=$("$FSBENCH" list runs --db "$DB" | tail -1 | awk '{ print $4 }')
			if [ "$err" = short ] && [ "$rc" -eq 0 ]; then
				:	# absorbed: a short write is not an error
			elif [ "$rc" -ne 1 ]; then
				why="exit $rc, not 1"
			elif [ "$(wc -l < "$WORK/err")" -ne 1 ]; then
				why="$(wc -l < "$WORK/err") lines on stderr"
			elif [ "$status" != failed ]; then
				why="stored as '$status'"
			fi
		elif [ "$rc" -ne 0 ]; then
			why="no fault injected, yet exit $rc"
		fi
		[ -n "$(ls -A "$T")" ] && why="$why; left $(ls -A "$T" | head -3 | tr '\n' ' ')"
		if [ -n "$why" ]; then
			not_ok "fault $what" "$why: $(head -c 300 "$WORK/err")"
			bad=$((bad + 1))
			rm -rf "${T:?}"/*
		fi
	done
done
runs=$(( ${#workloads[@]} * ${#faults[@]} ))
echo "# fault injection: $runs runs, $injected faults injected, $bad misbehaved"
check "fault injection: $injected faults injected in $runs runs, every one handled" [ "$bad" -eq 0 ]
check "faults were injected into most runs ($injected of $runs)" [ "$injected" -ge $((runs / 2)) ]
integrity=$(python3 -c "import sqlite3; print(sqlite3.connect('$DB').execute('pragma integrity_check').fetchone()[0])")
check "the store passes PRAGMA integrity_check ($integrity)" [ "$integrity" = ok ]
check "the earlier run's samples are intact ($before)" [ "$(samples)" = "$before" ]
failures=$(python3 -c "import sqlite3; print(sqlite3.connect('$DB').execute(\"select count(*) from failure where message is null or message = ''\").fetchone()[0])")
check "every stored failure has its reason" [ "$failures" = 0 ]
# On a filesystem fsbench made: the failed run still unmounts, detaches
# and removes everything.
if [ "$(id -u)" -eq 0 ] && "$FSBENCH" list fs | grep -q '^ext4 .* yes '; then
	IMG=$WORK/img; mkdir -p "$IMG"
	for f in write:ENOSPC:3 fsync:EIO:1 mkdir:EROFS:1; do
		IFS=: read -r call err n <<<"$f"
		rm -f "$WORK/fault.log"
		LD_PRELOAD=$SHIM FAULT_CALL=$call FAULT_N=$n FAULT_ERR=$err FAULT_DIR=$IMG FAULT_LOG=$WORK/fault.log \
			"$FSBENCH" run fsmark:files=20,size=4k --fs ext4 --image-dir "$IMG" --fs-size 64M \
			--runs 1 --db "$DB" -q >/dev/null 2>"$WORK/err"
		rc=$?
		for _ in $(seq 200); do losetup -a | grep -q "$IMG" || break; sleep 0.1; done
		check "fault on --fs ext4 ($call $err): exit $rc, nothing mounted, attached or left" \
			sh -c "[ -s '$WORK/fault.log' ] && [ $rc -eq 1 ] && ! grep -q '$IMG' /proc/mounts &&
			       ! losetup -a | grep -q '$IMG' && [ -z \"\$(ls -A '$IMG')\" ]"
	done
else
	skip "faults on a provisioned filesystem" "needs root and ext4"
fi
check "no state entry left" [ "$(awk 'NR > 1' "$FSBENCH_STATE" 2>/dev/null | wc -l)" -eq 0 ]
finish
