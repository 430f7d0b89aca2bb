# test_vm.sh: run --vm (issue 15): the filesystems this host's kernel lacks
# (f2fs with and without compression, exFAT, nilfs2, vfat, and UBIFS and
# JFFS2 on simulated NAND) made, mounted and measured inside a QEMU guest
# booted from fsbench's kernel cache; the results in the host's store;
# the TCG warning in text and HTML; a killed or overdue guest leaves
# nothing behind.
. "$(dirname "$0")/lib.sh"

need_guest "virtual machine"
IMG=$WORK/img
mkdir -p "$IMG"
export FSBENCH_STATE=$WORK/state

# list fs: every seed filesystem is usable in a guest; reiser4 says why not.
FSB list fs >"$WORK/list.txt"
vm_yes=$(awk 'NR > 1 && $1 != "" && /^[a-z]/ { print }' "$WORK/list.txt" | grep -c "  yes  *[-a-z]" || true)
nprof=$(awk 'NR > 1 && /^[a-z0-9]/ && !/^VM:/' "$WORK/list.txt" | wc -l)
check "list fs: 16 or more of $nprof profiles usable in a VM ($vm_yes)" [ "$vm_yes" -ge 16 ]
check "list fs: reiser4 is listed with the reason" grep -q "^reiser4 .*not in mainline Linux" "$WORK/list.txt"

# Mistakes are refused before anything boots.
FSB run fsmark --vm --target "$WORK" --db "$DB" >"$WORK/e1.txt" 2>&1
check "--vm with --target DIR is refused" grep -q "target DIR is for the host" "$WORK/e1.txt"
FSB run fsmark --fs ext4 --vm-mem 1G --db "$DB" >"$WORK/e2.txt" 2>&1
check "--vm-mem without --vm is refused" grep -q "applies only with --vm" "$WORK/e2.txt"

# One guest, seven filesystems, two tests, two runs each (A B ... A B).
fss=f2fs,f2fs-lz4,exfat,nilfs2,vfat,ubifs,jffs2
start=$(date +%s)
FSB run "fsmark:files=40,size=16k" "fileop:f=2" --fs "$fss" --vm --vm-accel tcg --fs-size 256M \
	--image-dir "$IMG" --runs 2 --db "$DB" --json "$WORK/r.json" --html "$WORK/r.html" \
	>"$WORK/out.txt" 2>&1
rc=$?
echo "# the guest run took $(( $(date +%s) - start )) s"
check "a guest run on $fss exits 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/out.txt" | tail -30
for fs in ${fss//,/ }; do
	for t in "fsmark:files=40,size=16k" "fileop:f=2"; do
		n=$(jq --arg t "$t" --arg g "$fs" '[.tests[] | select(.name == $t) | .metrics[0].results[] |
			select(.target == $g) | .n] | first // 0' "$WORK/r.json" 2>/dev/null)
		check "$fs: $t has 2 runs in the host's store ($n)" [ "${n:-0}" -eq 2 ]
	done
done
check "the system table names the guest: QEMU, TCG, its memory and kernel" \
	jqt '.system["Virtual Machine"] | test("QEMU .*TCG .*2048 MiB.*kernel ")' "$WORK/r.json"
kver=$(FSB kernel list | sed -n 's/^run --vm boots by default: \([^ ]*\) .*/\1/p')
check "the run's kernel is the guest's pinned one ($kver), not the host's ($(uname -r))" \
	jqt ".system.Kernel | startswith(\"$kver\")" "$WORK/r.json"
check "the text charts carry the TCG warning" grep -q "TCG: these numbers come from an emulated CPU" "$WORK/out.txt"
check "the HTML page carries it" grep -q "TCG: these numbers come from an emulated CPU" "$WORK/r.html"
check "f2fs-lz4 was mounted with compression" \
	jqt '.targets[] | select(.label == "f2fs-lz4") | .mount_options | test("compress_algorithm=lz4")' "$WORK/r.json"
# F2FS's compression figure, from its sysfs counters (seed 003 showed
# "Compressed -" for F2FS): fs_mark's zero-filled 16 KiB files are one
# 4-block cluster each, which lz4 stores in one block; f2fs without
# compression has no figure (the bug: no figure on either)
comp() { jq -r --arg g "$1" '[.tests[] | select(.name == "fsmark:files=40,size=16k") | .device[] |
	select(.name == "compression") | .results[] | select(.target == $g) | .mean] | first // "null"' "$WORK/r.json"; }
c=$(comp f2fs-lz4) c0=$(comp f2fs)
check "f2fs-lz4: a compression figure, above 2 for zero-filled files ($c; f2fs: $c0)" \
	sh -c "[ '$c' != null ] && [ '$c0' = null ] && awk 'BEGIN { exit !($c > 2) }'"
check "ubifs ran on a UBI volume" \
	jqt '.targets[] | select(.label == "ubifs") | .mkfs | test("mkfs.ubifs .*/dev/ubi")' "$WORK/r.json"
ec=$(jq -r '[.tests[] | select(.name == "fileop:f=2") | .device[] | select(.name == "flash_max_ec") |
	.results[] | select(.target == "ubifs") | .mean] | first // "null"' "$WORK/r.json")
check "ubifs: UBI's highest erase counter is reported ($ec)" [ "$ec" != null ]
er=$(jq -r '[.tests[] | select(.name == "fsmark:files=40,size=16k") | .device[] |
	select(.name == "flash_erases") | .results[] | select(.target == "ubifs") | .mean] | first // "null"' "$WORK/r.json")
echo "# ubifs: flash_erases per fs_mark run: $er"
FSB show last --db "$DB" >"$WORK/show.txt" 2>&1
check "show reads the imported run like any other" grep -q "jffs2" "$WORK/show.txt"
check "nothing of the guest is left in the image directory" [ -z "$(ls -A "$IMG")" ]

# A report merging a host run with the guest's says it mixes them.
mkdir -p "$WORK/d"
FSB run "fsmark:files=40,size=16k" --target "host=$WORK/d" --runs 2 --db "$DB" -q >/dev/null 2>&1
FSB report 1 2 --db "$DB" >"$WORK/merged.txt" 2>&1
check "a report of host and guest runs says it mixes them" grep -q "mix the host with a virtual machine" "$WORK/merged.txt"

# auto: KVM only when a boot proves it, else TCG, said on the terminal.
# The same guest ages its filesystems (--age, issue 42): a small profile,
# half full, the device written once over.
printf '[age]\nfill = 50%%\nchurn = 1\nfiles_per_dir = 16\ndepth = 2\n[sizes]\n60 = 1..16k\n40 = 16k..512k\n[ops]\ncreate = 30\nappend = 15\noverwrite = 15\ntruncate = 5\nrename = 5\ndelete = 30\n' \
	> "$WORK/small.age"
# The test comes from a suite in a directory of the test's own
# (FSBENCH_SUITES), which the guest's binary, started from its own path,
# would not look in.
mkdir -p "$WORK/suites"
printf '[suite]\nname = vmsmall\ndescription = one small test\nfilesystems = ext4\nbaseline = ext4\n[test fsmark-vmsmall]\ntest = fsmark\nfiles = 10\nsize = 4k\n' \
	>"$WORK/suites/vmsmall.suite"
FSBENCH_SUITES=$WORK/suites FSB run --suite vmsmall --fs ext4,vfat,nilfs2 --vm --fs-size 256M \
	--image-dir "$IMG" --runs 1 --age "$WORK/small.age" --db "$DB" --json "$WORK/auto.json" \
	>"$WORK/auto.txt" 2>&1
rc=$?
check "--vm-accel auto runs (rc $rc)" [ "$rc" -eq 0 ]
# Catches: the guest given the suite's name, which it looked up beside its
# own binary ("cannot read .../vmsmall.suite"), not the file the host read.
check "a suite from FSBENCH_SUITES runs in the guest" \
	jqt '[.tests[] | select(.name == "fsmark-vmsmall")] | length == 1' "$WORK/auto.json"
# Catches: the guest's capacity taken from statvfs (each filesystem its
# own), so that ext4 and vfat were aged by different sequences.
check "--age in the guest: both aged by the same sequence, to the disk's size" \
	jqt '[.targets[].aging | [.capacity, .ops]] | length == 3 and .[0] == .[1] and .[0][0] == 268435456' \
	"$WORK/auto.json"
# Catches: nilfs2 aged without its cleaner, full after one pass ("full
# though none of the aging's files is left", as before there was one),
# and a nilfs2 left with no room for the test after it.
check "--age on nilfs2: its cleaner ran, and the test ran after it" \
	jqt '([.targets[] | select(.label == "nilfs2") | .aging.cleaner] == ["nilfs_cleanerd"]) and
	     ([.tests[].metrics[] | select(.primary) | .results[] | select(.target == "nilfs2")
	       | .samples | length] == [1])' "$WORK/auto.json"
if jqt '.system["Virtual Machine"] | test("TCG")' "$WORK/auto.json"; then
	check "auto fell back to TCG and said why" grep -q "using TCG\|no usable /dev/kvm" "$WORK/auto.txt"
else
	check "auto ran under KVM" jqt '.system["Virtual Machine"] | test("KVM")' "$WORK/auto.json"
fi

# A guest past its deadline is killed; the error says so and shows the
# console; QEMU, images and the exchange directory are gone.
FSB run "fsmark:files=200000,size=4k" --fs ext4 --vm --vm-accel tcg --vm-timeout 10 --fs-size 2G \
	--image-dir "$IMG" --runs 1 --db "$DB" -q >"$WORK/late.txt" 2>&1
rc=$?
check "an overdue guest fails (rc $rc)" [ "$rc" -ne 0 ]
check "the error says it was killed at its deadline" grep -q "did not finish in time" "$WORK/late.txt"
check "the error shows the console's last lines" grep -q "console's last lines" "$WORK/late.txt"
check "no QEMU of this test survives" [ -z "$(pgrep -f "qemu-system-x86_64.*$IMG" || true)" ]
check "the image directory is empty again" [ -z "$(ls -A "$IMG")" ]

# SIGKILL to fsbench: QEMU dies with it; cleanup removes the rest.
"$FSBENCH" run "fsmark:files=200000,size=4k" --fs ext4 --vm --vm-accel tcg --fs-size 2G \
	--image-dir "$IMG" --runs 1 --db "$DB" -q >"$WORK/kill.txt" 2>&1 &
pid=$!
for i in $(seq 200); do
	pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null && break
	sleep 0.1
done
check "the guest started" sh -c "pgrep -f 'qemu-system-x86_64.*$IMG' >/dev/null"
grep -q "process /proc/" "$FSBENCH_STATE" && ok "the QEMU process is in the state file" ||
	not_ok "the QEMU process is in the state file"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for i in $(seq 50); do
	pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null || break
	sleep 0.1
done
check "QEMU died with fsbench" [ -z "$(pgrep -f "qemu-system-x86_64.*$IMG" || true)" ]
FSB cleanup >"$WORK/cleanup.txt" 2>&1
check "cleanup removes the images and the exchange directory" [ -z "$(ls -A "$IMG")" ]
check "and leaves no entry" [ "$(awk 'NR > 1' "$FSBENCH_STATE" | wc -l)" -eq 0 ]
# issue 69: the host keeps the guest's run from before the guest boots, so
# a host killed unseen leaves it in the store, and cleanup marks it.
kid=$(sq "$DB" "SELECT max(id) FROM run")
check "the killed host's guest run is in the store, marked abandoned by cleanup" \
	[ "$(sq "$DB" "SELECT status FROM run WHERE id=$kid")" = abandoned ]

# issue 69: a guest run stopped with SIGTERM was lost whole (the guest's
# run was imported at its end only).  The host records the run before the
# guest boots and fills it as the guest hands it over (at each repetition's
# start): the store shows it running with its samples while the guest
# runs; stopped, it is interrupted with them (exit 130); --resume boots a
# guest that continues it to its end, the samples of before counting.
VDB=$WORK/stop.db
args=("fsmark:files=200,size=64k" "fileop:f=3" --fs f2fs --vm --vm-accel tcg --fs-size 256M
	--image-dir "$IMG" --runs 4 --db "$VDB" -q)
"$FSBENCH" run "${args[@]}" >"$WORK/stop.out" 2>&1 &
pid=$!
n=0 st=
for i in $(seq 1200); do
	st=$(sq "$VDB" "SELECT status FROM run WHERE id=1")
	n=$(sq "$VDB" "SELECT count(*) FROM sample")
	[ "${n:-0}" -ge 3 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.5
done
check "while the guest runs, the host's store has its run, running, with $n samples" \
	[ "$st" = running -a "${n:-0}" -ge 3 ]
kill -TERM "$pid"
wait "$pid"; rc=$?
check "a stopped guest run exits 130 (rc $rc)" [ "$rc" -eq 130 ]
check "and says the run is kept and how to continue it" \
	grep -q "run 1 is stored interrupted .*--resume 1" "$WORK/stop.out"
"$FSBENCH" show 1 --db "$VDB" -f json >"$WORK/stop.json" 2>/dev/null
kept=$(jq '[.tests[].samples | length] | add' "$WORK/stop.json" 2>/dev/null)
check "the store has it, interrupted, with the guest's samples ($kept)" \
	jqt '.run.status == "interrupted" and ([.tests[].samples | length] | add) >= 3' "$WORK/stop.json"
FSB cleanup >/dev/null 2>&1
check "nothing left of the stopped guest" [ -z "$(ls -A "$IMG")" ]
resume_first "$VDB"
check "--resume continues the guest's run to its end (rc $rc)" [ "$rc" -eq 0 ]
check "into the same run, now complete, with 4 runs of each test (no more, no fewer)" \
	jqt '.run.status == "complete" and ([.tests[].samples | length] == [4, 4])' "$WORK/resumed.json"
check "and the store holds that one run" [ "$(sq "$VDB" "SELECT count(*) FROM run")" -eq 1 ]
check "nothing left of the resumed guest" [ -z "$(ls -A "$IMG")" ]
finish
