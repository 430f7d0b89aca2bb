# test_io.sh: `fsbench io` (fio job files, flags, JSON, errors) and the io
# workload's seed-000 named test through `fsbench run`.
. "$(dirname "$0")/lib.sh"

T=$WORK/t
mkdir -p "$T"
cat > "$WORK/two.fio" <<'JOB'
; two groups: a reader and a writer together, then a verified writer
[global]
size=4m
bs=4k
ioengine=psync

[reader]
rw=randread

[writer]
rw=write
ioengine=io_uring
iodepth=8

[checked]
stonewall
rw=randwrite
verify=crc32c
JOB
(cd "$T" && FSB io "$WORK/two.fio" --output-format=json) >"$WORK/io.json" 2>"$WORK/io.err"; rc=$?
check "io: job file runs" [ $rc -eq 0 ]
check "io: three jobs in two groups" jqt '[.jobs[].groupid] == [0, 0, 1]' "$WORK/io.json"
check "io: each block once per job" jqt '[.jobs[] | .read.total_ios + .write.total_ios] == [1024, 1024, 1024]' "$WORK/io.json"
check "io: verify read back every block" jqt '.jobs[2].verified_blocks == 1024' "$WORK/io.json"
check "io: random data measured incompressible" jqt '.jobs[1].zstd_ratio > 0.95' "$WORK/io.json"
check "io: files removed afterwards" [ -z "$(ls -A "$T")" ]

(cd "$T" && FSB io --rw=randread --bs=4k --size=2m --ioengine=io_uring --iodepth=4) >"$WORK/flags.out" 2>&1
check "io: fio-style flags, fio-shaped text" grep -q "^  read: IOPS=.*, BW=.*MiB/s (.*MB/s)" "$WORK/flags.out"
check "io: percentiles printed" grep -q "99.99th=" "$WORK/flags.out"

printf '[a]\nrw=read\nsize=1m\nrate=10m\n' > "$WORK/bad.fio"
(cd "$T" && FSB io "$WORK/bad.fio") >/dev/null 2>"$WORK/bad.err"; rc=$?
check "io: unsupported option is exit 2" [ $rc -eq 2 ]
check "io: ...naming the option and the line" grep -q "bad.fio:4: option 'rate' is not supported" "$WORK/bad.err"
check "io: ...on one line" [ "$(wc -l < "$WORK/bad.err")" -eq 1 ]
(cd "$T" && FSB io "$WORK/bad.fio" --ignore-unknown) >/dev/null 2>"$WORK/warn.err"; rc=$?
check "io: --ignore-unknown runs it" [ $rc -eq 0 ]
check "io: ...with a warning" grep -q "option 'rate' is not supported by fsbench io; ignored" "$WORK/warn.err"
(cd "$T" && FSB io --rw=read --size=1m --bs=1000 --direct=1) >/dev/null 2>"$WORK/direct.err"; rc=$?
check "io: refused O_DIRECT I/O is exit 1" [ $rc -eq 1 ]
check "io: ...and says what to do" grep -q "or use direct=0" "$WORK/direct.err"
check "io: ...and leaves no file" [ -z "$(ls -A "$T")" ]

FSB run --fio "$WORK/two.fio" --target a="$T" --target b="$WORK" --runs 1 --db "$DB" \
	--json "$WORK/fio-run.json" >"$WORK/fio-run.out" 2>"$WORK/fio-run.err"
check "run --fio: each job a test on each target" jqt '[.tests[].name] == ["reader", "writer", "checked"] and ([.tests[].samples[]] | length == 6)' "$WORK/fio-run.json"
check "run --fio: the job's options are the test's parameters" jqt '.tests[1].parameters.ioengine == "io_uring" and .tests[1].parameters.iodepth == "8"' "$WORK/fio-run.json"
printf '[x]\nfilename=/etc/passwd\n' > "$WORK/escape.fio"
FSB run --fio "$WORK/escape.fio" --target "$T" --db "$DB" >/dev/null 2>"$WORK/escape.err"; rc=$?
check "run --fio: a job that would leave the target is refused" [ $rc -eq 2 ]
check "...naming the job file and the job" grep -q "escape.fio: job x: parameter 'filename'" "$WORK/escape.err"

FSB run "fio-randread-4k-uring:size=16m,startdelay=0,ramp_time=200ms,runtime=1s" --target t="$T" --runs 1 \
	--db "$DB" --json "$WORK/run.json" >"$WORK/run.out" 2>"$WORK/run.err"
check "io: seed 000's fio test runs" jqt '.run.status == "complete"' "$WORK/run.json"
check "io: titled as seed 000" grep -q "^Type: Random Read - Engine: IO_uring - Buffered: Yes - Direct: No - Block Size: 4KB$" "$WORK/run.out"
check "io: IOPS, higher is better" grep -q "^IOPS > Higher Is Better" "$WORK/run.out"
check "io: latency percentiles stored" jqt '[.tests[0].metrics[].name] | index("clat_p99.99") != null' "$WORK/run.json"
check "io: fio-shaped detail kept" jqt '.tests[0].samples[0].detail | test("read: IOPS=")' "$WORK/run.json"
check "io: nothing left in the target" [ -z "$(ls -A "$T")" ]
finish
