# test_mpi.sh: ior and mdtest as 4 MPI ranks on this machine (mpirun
# --oversubscribe), on tmpfs and on a disk directory: aggregate bytes,
# bandwidth from the global window, reordered reads of another rank's
# data checked word by word, mdtest's counts, and a failing rank that ends
# the job with its own error and no leftovers.
. "$(dirname "$0")/lib.sh"

if ! command -v mpirun >/dev/null; then
	skip "mpi" "mpirun missing (openmpi-bin)"; finish; exit 0
fi
if ! FSB --version | grep -q "with MPI"; then
	skip "mpi" "fsbench built without OpenMPI"; finish; exit 0
fi
# OpenMPI's own allocations outlive MPI_Finalize (in its dlopen'ed
# plugins, which LeakSanitizer cannot even name): under `make test-asan`
# leak checking is off for the ranks, the other checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPI="timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4"
tmpfs_dir SHM mpi
# OpenMPI's shared-memory segments in a directory of this test's own: by
# default they are /dev/shm/vader_segment.HOST.JOBID.RANK, the job id from
# mpirun's pid, which is the same in every suite's PID namespace, so two
# test runs at once wrote into one another's segments (both jobs crashed,
# rc 139, or hung until the timeout).
tmpfs_dir VADER mpi-segments
export OMPI_MCA_btl_vader_backing_directory=$VADER

for where in "tmpfs:$SHM" "disk:$WORK/disk"; do
	name=${where%%:*} T=${where#*:}
	mkdir -p "$T"
	$MPI "$FSBENCH" run "ior:b=2m,t=64k,s=3,C=1,R=1,e=1" --target "$T" --runs 2 --db "$DB" \
		--json "$WORK/ior-$name.json" >"$WORK/ior-$name.out" 2>"$WORK/ior-$name.err"
	check "$name: ior with 4 ranks completes" jqt '.run.status == "complete"' "$WORK/ior-$name.json"
	# one rank's worth of output: the chart heading once, not once per rank
	check "$name: only rank 0 printed" [ "$(grep -c '^IOR (fsbench)' "$WORK/ior-$name.out")" -eq 1 ]
	check "$name: ranks and node recorded" jqt '.tests[0].samples[0].detail | test("^4 ranks on 1 node: ")' "$WORK/ior-$name.json"
	check "$name: every rank's transfer latencies in the sample's series (384 writes, 384 reads)" \
		jqt '.tests[0].samples[0].series.hist.counts | map(add) == [384, 384]' "$WORK/ior-$name.json"
	# aggregate = ranks x segments x block
	check "$name: aggregate bytes = 4 ranks x 3 x 2 MiB" \
		jqt '.tests[0].samples[0].detail | test("write [0-9.]+ MiB/s, 25165824 bytes") and test("read [0-9.]+ MiB/s, 25165824 bytes")' "$WORK/ior-$name.json"
	# bandwidth = bytes / (last close - first open), from every rank's stamps
	want=$(jq -r '.tests[0].samples[0].detail | capture("write per rank [^:]*: (?<r>[^\n]*)").r' "$WORK/ior-$name.json" |
		tr ' ' '\n' | sed 's/.*@//' | awk -F- 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $2 > hi { hi = $2 }
			END { printf "%.6f", 25165824 / 1048576 / (hi - lo) }')
	got=$(jq '.tests[0].samples[0].values.write_bw' "$WORK/ior-$name.json")
	check "$name: bandwidth from the global window ($got MiB/s)" awk -v a="$want" -v b="$got" 'BEGIN { d = (a - b) / b; exit !(b > 0 && d < 1e-4 && d > -1e-4) }'
	check "$name: every rank's transfer latencies merged (4 x 3 x 32 calls)" \
		jqt '.tests[0].samples[0].detail | test("384 transfers timed")' "$WORK/ior-$name.json"
	check "$name: C reads the next rank's data" \
		jqt '.tests[0].samples[0].detail | test("read per rank [^:]*: 0<-1@[^ ]* 1<-2@[^ ]* 2<-3@[^ ]* 3<-0@")' "$WORK/ior-$name.json"
	check "$name: ...checked word by word" jqt '.tests[0].samples[0].detail | test("every word checked against its writer")' "$WORK/ior-$name.json"

	$MPI "$FSBENCH" run "mdtest:n=150,w=100,e=100,N=1" --target "$T" --runs 1 --db "$DB" \
		--json "$WORK/md-$name.json" >/dev/null 2>&1
	check "$name: mdtest completes" jqt '.run.status == "complete"' "$WORK/md-$name.json"
	check "$name: mdtest counts 600 items in every phase" \
		jqt '[.tests[0].samples[0].detail | scan("(?m)^[A-Z][a-z]+ [a-z]+ +[0-9.]+ +([0-9]+)") | .[0]] | unique == ["600"]' "$WORK/md-$name.json"
	check "$name: nothing left in the target" [ -z "$(ls -A "$T")" ]
done

# Rank 3 cannot write more than one block: it fails, the job ends with its
# error on rank 0's output, and every rank's files are gone.
T=$WORK/fail
mkdir -p "$T"
timeout 120 mpirun --allow-run-as-root --oversubscribe \
	-np 3 "$FSBENCH" run "ior:b=4m,t=64k,F=1" --target "$T" --runs 1 --db "$DB" : \
	-np 1 sh -c 'ulimit -f 2048; trap "" XFSZ; exec "$0" "$@"' "$FSBENCH" run "ior:b=4m,t=64k,F=1" --target "$T" --runs 1 --db "$DB" \
	>"$WORK/fail.out" 2>"$WORK/fail.err"; rc=$?
check "failing rank: the job ends (no hang)" [ $rc -ne 124 ]
check "failing rank: exit status says it failed" [ $rc -ne 0 ]
check "failing rank: rank 0 prints rank 3's error" grep -q "rank 3: writing .*testFile.00000003: File too large" "$WORK/fail.err" "$WORK/fail.out"
check "failing rank: no files left" [ -z "$(ls -A "$T")" ]

$MPI "$FSBENCH" run fsmark --target "$T" --db "$DB" >/dev/null 2>"$WORK/nompi.err"; rc=$?
check "under mpirun, other workloads are refused" [ $rc -eq 2 ]
check "...saying so" grep -q "under mpirun only ior and mdtest run" "$WORK/nompi.err"
finish
