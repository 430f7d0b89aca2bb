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
check "io: each block once per job (the verify job's read-back counted as reads, as fio counts it)" \
	jqt '[.jobs[] | .read.total_ios + .write.total_ios] == [1024, 1024, 2048]' "$WORK/io.json"
check "io: verify read back every block" jqt '.jobs[2].fsbench.verified_blocks == 1024' "$WORK/io.json"
# fio's default buffers: random once, then 24 bytes of every 512 scrambled
# per write, so 8 buffers written 1024 times compress; refill_buffers=1
# gives every write new data
check "io: default buffers scrambled as fio's, not refilled (the file compresses)" \
	jqt '.jobs[1].fsbench.zstd_ratio < 0.8' "$WORK/io.json"
(cd "$T" && FSB io --name=refill --rw=write --bs=4k --size=4m --ioengine=io_uring --iodepth=8 \
	--refill_buffers=1 --output-format=json) >"$WORK/refill.json" 2>"$WORK/refill.err"
check "io: refill_buffers=1 writes incompressible data" \
	jqt '.jobs[0].fsbench.zstd_ratio > 0.95' "$WORK/refill.json"
check "io: files removed afterwards" [ -z "$(ls -A "$T")" ]

(cd "$T" && FSB io --rw=randread --bs=4k --size=2m --ioengine=io_uring --iodepth=4) >"$WORK/flags.out" 2>&1
check "io: fio-style flags, fio-shaped text" \
	grep -Eq "^  read: IOPS=[0-9.]+[kMG]?, BW=[0-9.]+[KMGT]?iB/s \([0-9.]+[kMGT]?B/s\)\([0-9.]+[KMGT]?iB/[0-9]+msec\)" \
	"$WORK/flags.out"
check "io: percentiles printed" grep -q "99.99th=" "$WORK/flags.out"

# null is diskless, as fio's: a read job makes, lays out and opens no file
(cd "$T" && FSB io --name=n --rw=randread --bs=4k --size=8m --ioengine=null --filename="$WORK/absent/n.dat" \
	--output-format=json) >"$WORK/null.json" 2>&1
check "io: null engine reads a file it never makes" jqt '.jobs[0].read.total_ios == 2048' "$WORK/null.json"
check "io: ...and leaves nothing" [ ! -e "$WORK/absent" ] && [ -z "$(ls -A "$T")" ]
# threads are one job, as with group_reporting: runtimes summed, so usr_cpu x job_runtime is all the CPU
(cd "$T" && FSB io --name=g --rw=write --bs=4k --size=1m --ioengine=psync --numjobs=3 --group_reporting \
	--runtime=1 --time_based --output-format=json) >"$WORK/group.json" 2>&1
check "io: numjobs=3 sums the job runtimes as fio's group_reporting" \
	jqt '.jobs[0] | .job_runtime >= 2.9 * .write.runtime and .job_runtime <= 3.1 * .write.runtime' "$WORK/group.json"

# without group_reporting fio reports each copy of a job on its own
(cd "$T" && FSB io --name=e --rw=read --bs=4k --size=1m --ioengine=psync --numjobs=3 \
	--output-format=json) >"$WORK/each.json" 2>&1
check "io: numjobs=3 without group_reporting is three entries of one thread, as fio's" \
	jqt '(.jobs | length) == 3 and ([.jobs[] | .jobname == "e" and .fsbench.numjobs == 1 and
	      .read.total_ios == 256] | all)' "$WORK/each.json"

printf '[a]\nrw=read\nsize=1m\nmem=malloc\n' > "$WORK/bad.fio"
(cd "$T" && FSB io "$WORK/bad.fio") >/dev/null 2>"$WORK/bad.err"; rc=$?
check "io: unsupported option is exit 2" [ $rc -eq 2 ]
check "io: ...naming the option and the line" grep -q "bad.fio:4: option 'mem' is not supported" "$WORK/bad.err"
check "io: ...on one line" [ "$(wc -l < "$WORK/bad.err")" -eq 1 ]
(cd "$T" && FSB io "$WORK/bad.fio" --ignore-unknown) >/dev/null 2>"$WORK/warn.err"; rc=$?
check "io: --ignore-unknown runs it" [ $rc -eq 0 ]
check "io: ...with a warning" grep -q "option 'mem' is not supported by fsbench io; ignored" "$WORK/warn.err"
(cd "$T" && FSB io --rw=read --size=1m --bs=1000 --direct=1) >/dev/null 2>"$WORK/direct.err"; rc=$?
check "io: refused O_DIRECT I/O is exit 1" [ $rc -eq 1 ]
check "io: ...and says what to do" grep -q "or use direct=0" "$WORK/direct.err"
check "io: ...and leaves no file" [ -z "$(ls -A "$T")" ]

# fio's sync= opens the files O_SYNC/O_DSYNC; overwrite=1 writes a write
# job's file whole before the clock, where fio otherwise allocates it.
if command -v strace >/dev/null; then
	(cd "$T" && strace -f -qq -e trace=openat,fallocate -o "$WORK/sync.st" "$FSBENCH" io --name=s \
		--rw=write --size=64k --sync=dsync) >/dev/null 2>&1
	check "io: sync=dsync opens the job's file O_DSYNC" grep -q 's\.0\.0", O_RDWR|O_DSYNC' "$WORK/sync.st"
	check "io: ...and a write job's file is allocated (fallocate)" grep -q '^[0-9]* *fallocate(' "$WORK/sync.st"
	(cd "$T" && strace -f -qq -e trace=openat,fallocate -o "$WORK/over.st" "$FSBENCH" io --name=s \
		--rw=write --size=64k --overwrite=1) >/dev/null 2>&1
	check "io: overwrite=1 writes it instead, and sync=none adds no flag" \
		sh -c "! grep -q 'fallocate(' '$WORK/over.st' && grep -q 's\.0\.0\", O_RDWR|O_NOFOLLOW' '$WORK/over.st'"
	# fio's falloc opens its files read-write only, whatever direct= and sync= say
	(cd "$T" && strace -f -qq -e trace=openat -o "$WORK/falloc.st" "$FSBENCH" io --name=p \
		--ioengine=falloc --rw=randtrim --size=64k --direct=1 --sync=1) >/dev/null 2>&1
	check "io: falloc's files opened without O_DIRECT or O_SYNC, as fio's falloc opens them" \
		sh -c "grep -q 'p\.0\.0\", O_RDWR|O_NOFOLLOW|O_CLOEXEC)' '$WORK/falloc.st' &&
		       ! grep 'p\.0\.0' '$WORK/falloc.st' | grep -q 'O_DIRECT\|O_SYNC'"
	# a job file's later group uses the file an earlier one laid out, as
	# fio's do (ssd-test.fio's writes overwrite what its read job wrote);
	# a file the job named is kept at the end, as fio keeps it
	printf '[global]\nfilename=shared.dat\nsize=256k\n[w]\nrw=write\noverwrite=1\n[r]\nstonewall\nrw=read\n' \
		> "$WORK/shared.fio"
	# (files are made with openat2, beneath the directory and never through a symlink)
	(cd "$T" && strace -f -qq -e trace=openat,openat2,unlink -o "$WORK/shared.st" "$FSBENCH" io \
		"$WORK/shared.fio") >/dev/null 2>&1
	check "io: a later group keeps the file an earlier group made (made once), and the named file stays, as fio's" \
		sh -c "[ \$(grep -c 'shared.dat\", {flags=O_RDWR|O_CREAT|O_EXCL.* = [0-9]' '$WORK/shared.st') -eq 1 ] &&
		       ! grep -q 'unlink(\".*shared.dat\")' '$WORK/shared.st' &&
		       [ \"\$(ls -A '$T')\" = shared.dat ] && [ \$(stat -c %s '$T/shared.dat') -eq 262144 ]"
	rm -f "$T/shared.dat"
	# the same job with its own default names: removed once, at the end
	printf '[global]\nsize=256k\n[w]\nrw=write\n[r]\nstonewall\nrw=read\n' > "$WORK/unnamed.fio"
	(cd "$T" && FSB io "$WORK/unnamed.fio") >/dev/null 2>&1
	check "io: files under fsbench's own names are removed when the job file is done" [ -z "$(ls -A "$T")" ]
	# unlink=1 removes even a named file, at its job's end
	(cd "$T" && FSB io --name=u --rw=write --bs=4k --size=64k --filename=u.dat --unlink=1) >/dev/null 2>&1
	check "io: unlink=1 removes a named file at the job's end, as fio does" [ ! -e "$T/u.dat" ]
else
	skip "io: sync= and overwrite= system calls" "strace is not installed"
	skip "io: a later group keeps the file an earlier group made" "strace is not installed"
	skip "io: falloc's files opened without O_DIRECT or O_SYNC" "strace is not installed"
fi

FSB run --fio "$WORK/two.fio" --target a="$T" --target b="$WORK" --runs 1 --db "$DB" \
	--json "$WORK/fio-run.json" >"$WORK/fio-run.out" 2>"$WORK/fio-run.err"
check "run --fio: each job a test on each target" jqt '[.tests[].name] == ["reader", "writer", "checked"] and ([.tests[].samples[]] | length == 6)' "$WORK/fio-run.json"
check "run --fio: the job's options are the test's parameters" jqt '.tests[1].parameters.ioengine == "io_uring" and .tests[1].parameters.iodepth == "8"' "$WORK/fio-run.json"
# the stored parameters reproduce the job exactly: values with commas
# (issue 38: the export said cpus_allowed "0" of "0,1")
printf '[c]\nrw=randread\nsize=256k\ncpus_allowed=0,1\nbssplit=4k/50:8k/50,16k\n' > "$WORK/commas.fio"
FSB run --fio "$WORK/commas.fio" --target a="$T" --runs 1 --db "$DB" --json "$WORK/commas.json" \
	>/dev/null 2>"$WORK/commas.err"
check "run --fio: values with commas stored and exported whole" \
	jqt '.tests[0].parameters | .cpus_allowed == "0,1" and .bssplit == "4k/50:8k/50,16k"' "$WORK/commas.json"
FSB run 'io:rw=read,size=256k,cpus_allowed=0,1' --target a="$T" --runs 1 --db "$DB" \
	--json "$WORK/commas2.json" >/dev/null 2>&1
check "run io:cpus_allowed=0,1: the list is one value, as fio reads it" \
	jqt '.tests[0].parameters.cpus_allowed == "0,1"' "$WORK/commas2.json"
# fio's own flags, as its test runner passes them (issue 44)
FSB io --version >"$WORK/ver" 2>&1; rc=$?
check "io --version: fsbench's version and the fio it follows (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^fsbench-.*follows fio-3.33' '$WORK/ver'"
(cd "$T" && FSB io --name=w --rw=write --size=64k --readonly) >/dev/null 2>"$WORK/ro.err"; rc=$?
check "io --readonly refuses a job that writes, before any I/O (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'readonly forbids writes' '$WORK/ro.err' && [ -z \"\$(ls -A '$T')\" ]"
(cd "$T" && FSB io --name=r --rw=read --size=64k --numjobs=4 --max-jobs=2) >/dev/null 2>"$WORK/mj.err"; rc=$?
check "io --max-jobs refuses more threads than it allows (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'max-jobs=2' '$WORK/mj.err'"
(cd "$T" && FSB io --name=p --rw=write --size=64k --parse-only --debug=parse) >"$WORK/po.out" 2>&1; rc=$?
check "io --parse-only checks the job and runs none (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && [ -z \"\$(ls -A '$T')\" ] && ! grep -q IOPS '$WORK/po.out'"
# as fio's: options alone parse without a size (steadystate_tests.py), and
# a bad value among them is still refused
(cd "$T" && FSB io --parse-only --debug=parse --ss_dur=10s --ss=iops:10 --ss_ramp=5) >"$WORK/po2.out" 2>&1; rc=$?
check "io --debug=parse says what ss= set, in fio's words" \
	grep -q 'set steady state IOPS threshold to 10.000000' "$WORK/po2.out"
(cd "$T" && FSB io --parse-only --ss_dur=10s --ss=iops:zz) >/dev/null 2>"$WORK/po.err"; rc2=$?
check "io --parse-only takes options with no size, and refuses a bad one (rc $rc, $rc2)" \
	sh -c "[ $rc -eq 0 ] && [ $rc2 -eq 2 ] && grep -q \"'zz' is not a limit\" '$WORK/po.err'"
# a job naming a device and no size (fio's examples: filename=/dev/sdb):
# fio's --parse-only never opens the file, and neither does this one
(cd "$T" && FSB io --parse-only --name=d --rw=write --filename=/dev/fsbench-no-such-disk) >/dev/null 2>"$WORK/po3.err"; rc=$?
check "io --parse-only of a job on a device it does not open takes it (rc $rc)" [ "$rc" -eq 0 ]
# fio's --parse-only runs its option parser only: an engine fsbench lacks
# (with that engine's own option) and a rule across options parse, said
# on stderr; the run refuses them.  The bug caught: parse-only refusing
# what fio's takes (fio's examples: 33 of 86 parsed, fio 67).
printf '[s]\nioengine=libiscsi\ninitiator=iqn.x\nrw=write\nsize=1m\n[t]\nrw=read\nsize=1m\nzonemode=strided\n' \
	> "$WORK/sg.fio"
(cd "$T" && FSB io --parse-only "$WORK/sg.fio") >/dev/null 2>"$WORK/sg.err"; rc=$?
(cd "$T" && FSB io "$WORK/sg.fio") >/dev/null 2>"$WORK/sg-run.err"; rc2=$?
check "io --parse-only takes fio's libiscsi engine and a cross-option rule, saying so; a run refuses (rc $rc, $rc2)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'job s parses; fsbench io would not run it: ioengine=libiscsi: fio' '$WORK/sg.err' &&
	grep -q 'job t parses; fsbench io would not run it: zonemode=strided needs zonesize=' '$WORK/sg.err' &&
	[ $rc2 -eq 2 ] && grep -q 'iSCSI target' '$WORK/sg-run.err' && [ -z \"\$(ls -A '$T')\" ]"
# the engines that drive a device itself are a run's, on a raw target
# fsbench checks and holds: fsbench io (files only) never opens one
for e in sg mtd; do
	(cd "$T" && FSB io --name=d --ioengine=$e --rw=read --size=1m) >/dev/null 2>"$WORK/$e.err"; rc=$?
	check "io refuses ioengine=$e, which drives a device (rc $rc)" \
		sh -c "[ $rc -eq 2 ] && grep -q 'drives a device itself' '$WORK/$e.err' && [ -z \"\$(ls -A '$T')\" ]"
done
(cd "$T" && FSB io --name=o --rw=randread --size=64k --output="$WORK/io-out.txt") >"$WORK/o.std" 2>&1; rc=$?
check "io --output writes the results to the file named (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'read: IOPS=' '$WORK/io-out.txt' && ! grep -q IOPS '$WORK/o.std'"
echo decoy > "$WORK/decoy"; ln -sf "$WORK/decoy" "$WORK/out-link"
(cd "$T" && FSB io --name=o --rw=randread --size=64k --output="$WORK/out-link") >/dev/null 2>&1; rc=$?
check "io --output never writes through a symbolic link (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$WORK/decoy')\" = decoy ]"
rm -f "$WORK/out-link"
# json+: fio's own fio_jsonplus_clat2csv reads the bins (fio-examples'
# script, where installed)
(cd "$T" && FSB io --name=jp --rw=randread --bs=4k --size=256k --output-format=json+) >"$WORK/jp.json" 2>/dev/null
check "io --output-format=json+: clat bins adding up to the I/Os" \
	jqt '.jobs[0].read.clat_ns | ([.bins[]] | add) == .N and .N == 64' "$WORK/jp.json"
if command -v fio_jsonplus_clat2csv >/dev/null; then
	(cd "$WORK" && fio_jsonplus_clat2csv jp.json jp-csv) >/dev/null 2>&1
	check "fio_jsonplus_clat2csv reads fsbench's json+ (a row per bin, 64 I/Os)" \
		sh -c "[ \"\$(tail -n +2 '$WORK/jp-csv_job0' | awk -F', ' '{ s += \$5 } END { print s }')\" = 64 ]"
else
	skip "fio_jsonplus_clat2csv on fsbench's json+" "fio-examples' script is not installed"
fi
# several formats at once, as fio: each entry in each, the JSON last
(cd "$T" && FSB io --name=mf --rw=read --bs=4k --size=64k --output-format=json,normal) >"$WORK/mf.out" 2>/dev/null
check "io --output-format=json,normal: fio's text, then its JSON document" \
	sh -c "grep -q '^mf: (groupid=0' '$WORK/mf.out' && sed -n '/^{/,\$p' '$WORK/mf.out' | jq -e '.jobs[0].read.total_ios == 16' >/dev/null"
# fio's other names and rwmixwrite on the command line, as in job files
FSB run 'io:rw=randrw,rwmixwrite=30,size=256k' 'io:readwrite=randread,blocksize=8k,size=256k' \
	--target a="$T" --runs 1 --db "$DB" --json "$WORK/alias.json" >/dev/null 2>&1
check "run io:rwmixwrite=30 and io:readwrite=: the same vocabulary as job files" \
	jqt '[.tests[].parameters | [.rw, .rwmixread, .bs]] == [["randrw", "70", "4k"], ["randread", "50", "8k"]]' "$WORK/alias.json"
printf '[x]\nfilename=/etc/passwd\n' > "$WORK/escape.fio"
FSB run --fio "$WORK/escape.fio" --target "$T" --db "$DB" >/dev/null 2>"$WORK/escape.err"; rc=$?
check "run --fio: a job that would leave the target is refused" [ $rc -eq 2 ]
check "...naming the job file and the job" grep -q "escape.fio: job x: option 'filename'" "$WORK/escape.err"

FSB run "fio-randread-4k-uring:size=16m,startdelay=0,ramp_time=200ms,runtime=1s" --target t="$T" --runs 1 \
	--db "$DB" --json "$WORK/run.json" >"$WORK/run.out" 2>"$WORK/run.err"
check "io: seed 000's fio test runs" jqt '.run.status == "complete"' "$WORK/run.json"
check "io: titled as seed 000" grep -q "^Type: Random Read - Engine: IO_uring - Buffered: Yes - Direct: No - Block Size: 4KB$" "$WORK/run.out"
check "io: IOPS, higher is better" grep -q "^IOPS > Higher Is Better" "$WORK/run.out"
check "io: latency percentiles stored" jqt '[.tests[0].metrics[].name] | index("clat_p99.99") != null' "$WORK/run.json"
check "io: fio-shaped detail kept" jqt '.tests[0].samples[0].detail | test("read: IOPS=")' "$WORK/run.json"
check "io: nothing left in the target" [ -z "$(ls -A "$T")" ]

# fio's JSON layout: the same keys as fio's own output for the same job
# (fsbench's additions live under "fsbench"); fio's terse version 3.
keys() {
	jq -r '[paths(scalars)] | map(map(tostring) | join(".")) | .[]' "$1" |
		sed -E 's/^jobs\.[0-9]+\./jobs[]./; s/^disk_util\.[0-9]+\./disk_util[]./' |
		grep -v '^jobs\[\]\.fsbench\.' | sort -u
}
JOB=(--name=k --rw=randrw --bs=4k --size=8m --ioengine=libaio --iodepth=4 --runtime=1)
(cd "$T" && FSB io "${JOB[@]}" --output-format=json) >"$WORK/k2.json" 2>/dev/null
check "io json: fio's top level and job fields" jqt '(."fio version" | startswith("fsbench-")) and
	(.jobs[0] | has("job options") and .read.clat_ns.percentile["99.990000"] > 0 and
	 .read.lat_ns.N == .read.total_ios and .latency_depth == 4)' "$WORK/k2.json"
# fio's timer placement: an async engine's slat is its submit call, and lat
# is slat and clat; a synchronous engine has no slat
check "io json: libaio's slat, clat and lat as fio's" jqt '.jobs[0].read as $r |
	$r.slat_ns.N == $r.total_ios and $r.slat_ns.mean > 0 and
	($r.lat_ns.mean - $r.slat_ns.mean - $r.clat_ns.mean | fabs) < 0.01 * $r.lat_ns.mean' "$WORK/k2.json"
(cd "$T" && FSB io --name=s --rw=randread --bs=4k --size=8m --output-format=json) >"$WORK/s2.json" 2>/dev/null
check "io json: psync has no slat" jqt '.jobs[0].read | .slat_ns.N == 0 and .lat_ns.N == .total_ios and
	.lat_ns.mean == .clat_ns.mean' "$WORK/s2.json"
# fio's group_reporting: jobs of one reporting group are one entry (the
# first's name, every thread counted); new_group keeps them apart
printf '[global]\nsize=1m\nrw=read\ngroup_reporting\n[a]\nnumjobs=2\n[b]\n' >"$WORK/g.fio"
(cd "$T" && FSB io "$WORK/g.fio" --output-format=json) >"$WORK/g.json" 2>/dev/null
check "io json: group_reporting pools a group's jobs" jqt '(.jobs | length) == 1 and
	.jobs[0].jobname == "a" and .jobs[0].read.total_ios == 768 and .jobs[0].fsbench.numjobs == 3 and
	.jobs[0].read.clat_ns.N == 768' "$WORK/g.json"
printf '[b]\nnew_group\n' >>"$WORK/g.fio"
(cd "$T" && FSB io "$WORK/g.fio" --output-format=json) >"$WORK/g.json" 2>/dev/null
check "io json: new_group is its own entry" jqt '(.jobs | length) == 2 and .jobs[1].groupid == 1 and
	.jobs[1].read.total_ios == 256' "$WORK/g.json"
check "io json: job options as given" jqt '.jobs[0]["job options"] | .rw == "randrw" and .name == "k" and .iodepth == "4"' "$WORK/k2.json"
check "io json: distributions sum to 100%" jqt '.jobs[0] | ([.iodepth_level[]] | add) > 99.9 and
	([.iodepth_submit[]] | add) > 99.9 and ([.latency_ns[], .latency_us[], .latency_ms[]] | add) > 99.9' "$WORK/k2.json"
if command -v fio >/dev/null; then
	(cd "$T" && fio "${JOB[@]}" --output-format=json >"$WORK/k1.json" 2>/dev/null; rm -f k.0.0)
	diff <(keys "$WORK/k1.json") <(keys "$WORK/k2.json") >"$WORK/keys.diff"
	check "io json: the same key set as fio $(fio --version)'s ($(wc -l < "$WORK/keys.diff") lines differ)" \
		[ ! -s "$WORK/keys.diff" ]
	(cd "$T" && fio "${JOB[@]}" --output-format=terse 2>/dev/null; rm -f k.0.0) > "$WORK/t1.txt"
else
	skip "io json: key set against fio" "fio is not installed (scripts/install-deps installs it)"
fi
(cd "$T" && FSB io "${JOB[@]}" --output-format=terse) >"$WORK/t2.txt" 2>/dev/null
n2=$(tr ';' '\n' < "$WORK/t2.txt" | wc -l)
check "io terse: version 3, 129 or 130 fields ($n2)" \
	sh -c "[ \"\$(cut -d';' -f1,3 '$WORK/t2.txt')\" = '3;k' ] && [ $n2 -ge 129 ] && [ $n2 -le 130 ]"
if [ -s "$WORK/t1.txt" ]; then
	n1=$(tr ';' '\n' < "$WORK/t1.txt" | wc -l)
	check "io terse: as many fields as fio's ($n1)" [ "$n1" -eq "$n2" ]
fi

# fio's job-file rules (issue 13): inline comments, no default size,
# rwmixwrite, verify=meta and do_verify, the read-back counted as reads,
# gtod_reduce accepted; numa_* as fio's (test_engines: the placement), a
# node the machine lacks refused with the reason.
printf '[c]\nrw=read ; a comment\nsize=1m # another\nbs=4k\nfilename=c.dat ; or use a full disk\n' > "$WORK/c.fio"
(cd "$T" && FSB io "$WORK/c.fio" --output-format=json) >"$WORK/c.json" 2>&1
check "io: inline ; and # comments are stripped, as fio strips them" \
	jqt '.jobs[0]["job options"] == {"rw":"read","size":"1m","bs":"4k","filename":"c.dat"} and .jobs[0].read.io_bytes == 1048576' "$WORK/c.json"
# lat_percentiles in a job file (fio 3.33's): lat's percentiles, from
# before the submit call, so none below clat's at the same rank
printf '[l]\nrw=randread\nsize=1m\nbs=4k\nioengine=libaio\niodepth=4\nlat_percentiles=1\n' > "$WORK/latp.fio"
(cd "$T" && FSB io "$WORK/latp.fio" --output-format=json) >"$WORK/latp.json" 2>"$WORK/latp.err"
check "io: lat_percentiles=1 in a job file gives lat's percentiles, each at least clat's" \
	jqt '.jobs[0].read | .lat_ns.percentile as $l | .clat_ns.percentile as $c
	     | ($l | length) == 17 and ([$l | keys[] | select($l[.] < $c[.])] | length) == 0' "$WORK/latp.json"
(cd "$T" && FSB io --name=n --rw=read --filename=nosuch.dat) >/dev/null 2>"$WORK/nosize.err"
check "io: no size and no file is an error, as in fio (exit 2)" \
	sh -c "[ $? -eq 2 ] && grep -q 'you need to specify size=' '$WORK/nosize.err' && [ ! -e '$T/nosuch.dat' ]"
if [ -b /dev/loop0 ]; then
	(cd "$T" && FSB io --name=n --rw=read --filename=/dev/loop0) >/dev/null 2>"$WORK/blk.err"
	check "io: a block device is refused with the reason" \
		sh -c "[ $? -eq 2 ] && grep -q 'is a block device: fsbench io works on files' '$WORK/blk.err'"
fi
head -c 2097152 /dev/zero > "$T/whole.dat"
(cd "$T" && FSB io --name=w --rw=read --bs=64k --filename=whole.dat --output-format=json) >"$WORK/whole.json" 2>/dev/null
check "io: without size=, an existing file is used whole" jqt '.jobs[0].read.io_bytes == 2097152' "$WORK/whole.json"
check "io: ...and left in place (it was not fsbench's)" [ -s "$T/whole.dat" ]
rm -f "$T/whole.dat"
(cd "$T" && FSB io --name=m --rw=randrw --rwmixwrite=30 --bs=4k --size=4m --output-format=json) >"$WORK/mix.json" 2>/dev/null
check "io: rwmixwrite=30 writes ~30% (25..35)" \
	jqt '.jobs[0] | (.write.total_ios * 100 / (.read.total_ios + .write.total_ios)) as $w | $w > 25 and $w < 35' "$WORK/mix.json"
(cd "$T" && FSB io --name=v --rw=write --bs=4k --size=1m --verify=meta --gtod_reduce=1 --output-format=json) >"$WORK/meta.json" 2>"$WORK/meta.err"
check "io: verify=meta reads back and checks every block; gtod_reduce is accepted" \
	jqt '.jobs[0].fsbench.verified_blocks == 256' "$WORK/meta.json"
check "io: the read-back counts as reads, as fio counts it" jqt '.jobs[0].read.total_ios == 256 and .jobs[0].write.total_ios == 256' "$WORK/meta.json"
(cd "$T" && FSB io --name=v --rw=randwrite --bs=4k --size=4m --ioengine=libaio --iodepth=16 --verify=crc32c \
	--output-format=json) >"$WORK/vq.json" 2>/dev/null
check "io: the read-back goes through the engine at the job's depth, as fio's (mean in flight > 12 of 16)" \
	jqt '.jobs[0] | .fsbench.verified_blocks == 1024 and .read.total_ios == 1024 and .fsbench.mean_inflight > 12' "$WORK/vq.json"
(cd "$T" && FSB io --name=v --rw=write --bs=4k --size=1m --verify=crc32c --do_verify=0 --output-format=json) >"$WORK/nov.json" 2>/dev/null
check "io: do_verify=0 stamps but reads nothing back" jqt '.jobs[0].read.total_ios == 0 and (.jobs[0].fsbench.verified_blocks // 0) == 0' "$WORK/nov.json"
printf '[n]\nrw=read\nsize=1m\nnuma_cpu_nodes=0\nnuma_mem_policy=local\n' > "$WORK/numa.fio"
printf '[m]\nrw=read\nsize=1m\nnuma_cpu_nodes=4095\n' > "$WORK/numa2.fio"
(cd "$T" && FSB io "$WORK/numa.fio") >/dev/null 2>"$WORK/numa.err"; rc=$?
(cd "$T" && FSB io "$WORK/numa2.fio") >/dev/null 2>"$WORK/numa2.err"; rc2=$?
check "io: numa_cpu_nodes=0 runs; a node the machine lacks is refused with the reason (rc $rc, $rc2)" \
	sh -c "[ $rc -eq 0 ] && [ $rc2 -eq 2 ] && grep -q 'numa_cpu_nodes=4095: not nodes of this machine' '$WORK/numa2.err'"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$WORK/small" && mount -t tmpfs -o size=8m fsbench-test "$WORK/small"
	(cd "$WORK/small" && FSB io --name=f --rw=write --bs=64k --fill_device=1 --output-format=json) >"$WORK/fill.json" 2>"$WORK/fill.err"
	rc=$?
	check "io: fill_device writes until the filesystem is full, then ends (rc $rc)" \
		sh -c "[ $rc -eq 0 ] && jq -e '.jobs[0].write.io_bytes >= 7 * 1048576 and .jobs[0].write.io_bytes <= 8388608' '$WORK/fill.json' >/dev/null"
	# Free space is checked before the file is laid out, not after: the
	# 5 MiB file is part of what the test needs, and fits in 8 MiB.
	rm -f "$WORK/small"/*
	FSB run "io:rw=read,bs=64k,size=5m" --target s="$WORK/small" --runs 3 --db "$WORK/small.db" \
		--json "$WORK/small.json" -q >/dev/null 2>"$WORK/small.err"
	check "io: a test that fits is not refused for the file it laid out itself" \
		jqt '.run.status == "complete" and (.tests[0].samples | length) == 3' "$WORK/small.json"
	umount "$WORK/small"
else
	skip "io: fill_device" "needs root to mount a small tmpfs"
fi

# Queue behaviour as fio's: iodepth requests kept in flight, a completion
# replaced at once (reap 1..1 by default); iodepth_low drains deeper.
# A fixed count of I/Os (16 MiB of 4 KiB, no time_based), so what is
# asserted is the queue the code kept, not how many I/Os a loaded machine
# let it do in a second: the first fill (depths 1 to 15) is 15 of 4096
# queued I/Os whatever the clock, where in a 1 s window it was 15 of as
# few as a few hundred (a stressed pass saw 15.4 in flight).  The bug
# caught: reaping the whole queue before refilling (mean 8.5).
for e in libaio io_uring; do
	(cd "$T" && FSB io --name=q --rw=randread --bs=4k --size=16m --ioengine=$e --iodepth=16 \
		--output-format=json) >"$WORK/q-$e.json" 2>/dev/null
	check "io $e: the queue stays full (mean in flight >= 15.5 of 16, >= 99% of I/Os at depth 16)" \
		jqt '.jobs[0] | .fsbench.mean_inflight >= 15.5 and .iodepth_level["16"] >= 99' "$WORK/q-$e.json"
	check "io $e: one completion per reap, as fio's default" jqt '.jobs[0].iodepth_complete["4"] >= 99' "$WORK/q-$e.json"
done
# Batched (iodepth=32, iodepth_batch=16, iodepth_batch_complete=16): fio
# submits 16, reaps 16 once all 32 are out, and refills 16, so every
# submit carries 16 and goes out at depth 32.  The bug caught: the queued
# ones counted twice (in flight and not yet submitted) stopped each refill
# at 24 in flight, submits of 8 to 16, a mean in flight of 16.5: the
# mean latency 0.6x fio's on a 1 MiB job where the IOPS agreed.
for e in libaio io_uring; do
	(cd "$T" && FSB io --name=b --rw=randread --bs=4k --size=32m --ioengine=$e --iodepth=32 \
		--iodepth_batch=16 --iodepth_batch_complete=16 --output-format=json) >"$WORK/b-$e.json" 2>/dev/null
	check "io $e: batched queue as fio's (every submit 16, at depth 32; mean in flight >= 24)" \
		jqt '.jobs[0] | .iodepth_submit["16"] >= 99 and .iodepth_level["32"] >= 99 and .fsbench.mean_inflight >= 24' \
		"$WORK/b-$e.json"
done
# (drained to 4 or below, whatever each reap returns: refills from 1..5
# to 16, a mean of 8.5 to 10.5)
(cd "$T" && FSB io --name=q --rw=randread --bs=4k --size=16m --ioengine=libaio --iodepth=16 --iodepth_low=4 \
	--iodepth_batch_complete_max=16 --output-format=json) >"$WORK/q-low.json" 2>/dev/null
check "io: iodepth_low=4 lets the queue drain to 4 before refilling" \
	jqt '.jobs[0] | .fsbench.mean_inflight < 14 and .fsbench.mean_inflight > 4' "$WORK/q-low.json"

# log_prio: the priority column is each I/O's ioprio value in hex (the
# job's own prio/prioclass, or cmdprio's), as fio 3.33 writes it; without
# it, 1 for a real-time I/O.  The bug caught: the column always 0.
(cd "$T" && FSB io --name=lp --rw=randread --bs=4k --size=256k --ioengine=psync --prio=5 --prioclass=2 \
	--write_lat_log=lp --log_prio=1) >/dev/null 2>&1
(cd "$T" && FSB io --name=lq --rw=randread --bs=4k --size=256k --ioengine=libaio --iodepth=2 \
	--cmdprio_percentage=100 --cmdprio_class=1 --cmdprio=3 --write_lat_log=lq) >/dev/null 2>&1
check "io logs: log_prio=1 gives 0x4005 for prioclass=2 prio=5; cmdprio's real-time I/Os are 1 without it" \
	sh -c "[ \"\$(grep -c ', 0x4005\$' '$T/lp_clat.1.log')\" -eq 64 ] && [ \"\$(grep -c ', 1\$' '$T/lq_clat.1.log')\" -eq 64 ]"
rm -f "$T"/*.log "$T"/lp.* "$T"/lq.*

# fio's logs: per window and per I/O, in fio's format
(cd "$T" && FSB io --name=l --rw=randrw --bs=4k --size=4m --ioengine=psync --runtime=1 --time_based \
	--write_lat_log=lt --write_bw_log=bw --write_iops_log=io --log_avg_msec=200) >/dev/null 2>&1
check "io logs: the five files" sh -c "cd '$T' && [ -s lt_lat.1.log ] && [ -s lt_clat.1.log ] && [ -e lt_slat.1.log ] &&
	[ -s bw_bw.1.log ] && [ -s io_iops.1.log ]"
check "io logs: fio's line format, a window each 200 ms, both directions" \
	sh -c "grep -Eq '^200, [0-9]+, 0, 0, 0\$' '$T/bw_bw.1.log' && grep -Eq '^400, [0-9]+, 1, 0, 0\$' '$T/io_iops.1.log' &&
	! grep -vEq '^[0-9]+, [0-9]+, [01], 0, 0\$' '$T/lt_lat.1.log'"
rm -f "$T"/*.log
(cd "$T" && FSB io --name=e --rw=randread --bs=4k --size=1m --ioengine=psync --write_lat_log=p) >/dev/null 2>&1
check "io logs: log_avg_msec=0 logs every I/O (256), with its block size" \
	sh -c "[ \"\$(grep -cE '^[0-9]+, [0-9]+, 0, 4096, 0\$' '$T/p_clat.1.log')\" -eq 256 ]"
rm -f "$T"/*.log
# a bare write_bw_log names the log after the job; log_offset adds each
# I/O's offset (a sequential read: 0, 4096, ...), as fio's
printf '[zl]\nrw=read\nbs=4k\nsize=1m\nioengine=psync\nwrite_bw_log\nlog_offset=1\n' > "$WORK/zl.fio"
(cd "$T" && FSB io "$WORK/zl.fio") >/dev/null 2>&1
check "io logs: bare write_bw_log is JOB_bw.N.log; log_offset=1 gives the offsets" \
	sh -c "[ -s '$T/zl_bw.1.log' ] && [ \"\$(awk -F', ' 'NF == 6 && \$5 == (NR - 1) * 4096' '$T/zl_bw.1.log' | wc -l)\" -eq 256 ]"
rm -f "$T"/*.log "$T"/zl*
# per_job_logs=0: every thread's entries in one file without a number,
# as fio's test jobs expect (t0005's test_bw.log); disable_slat: no slat log
(cd "$T" && FSB io --name=pj --rw=randread --bs=4k --size=1m --numjobs=2 --per_job_logs=0 \
	--write_lat_log=pj --disable_slat=1) >/dev/null 2>&1
check "io logs: per_job_logs=0 writes PREFIX_clat.log with both threads' I/Os; no slat log when disabled" \
	sh -c "[ \"\$(grep -c . '$T/pj_clat.log')\" -eq 512 ] && [ ! -e '$T/pj_clat.1.log' ] &&
	       [ ! -e '$T/pj_slat.log' ] && [ -s '$T/pj_lat.log' ]"
rm -f "$T"/*.log
finish
