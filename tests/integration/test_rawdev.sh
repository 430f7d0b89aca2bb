# test_rawdev.sh: a raw target (issue 72): the io workload's jobs on the
# device itself, no filesystem.  On the host a loop device stands in for
# the user's key: a job on its region (--fs raw --device), nothing outside
# the region written, a job larger than the region refused, the engines
# and workloads that cannot run there refused before anything is written.
# In fsbench's guest: ioengine=sg (SCSI commands through SG_IO) on the key
# handed over as a USB mass-storage device, its writes read back and
# checked, nothing past the region touched; ioengine=mtd on the simulated
# NAND (--fs raw-mtd): whole erase blocks erased and written, pages
# written, read back and checked.  The bugs caught: a device engine that
# writes nothing (or elsewhere), a region crossed, a raw target taking a
# workload that needs a filesystem.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/loop-control ]; then
	skip "raw targets" "needs root and loop devices"
	finish
	exit 0
fi
export FSBENCH_STATE=$WORK/state
IMG=$WORK/img
mkdir -p "$IMG"
KEY=$WORK/key.img
# the key: 256 MiB, random throughout (what the user keeps there)
dd if=/dev/urandom of="$KEY" bs=1M count=256 status=none
K=$(losetup -f --show "$KEY")
trap '"$FSBENCH" cleanup >/dev/null 2>&1; losetup -d "$K" 2>/dev/null; cleanup_work' EXIT
head_sum() { dd if="$K" bs=1M count=64 status=none | sha256sum | cut -d' ' -f1; }
tail_sum() { dd if="$K" bs=1M skip=64 status=none | sha256sum | cut -d' ' -f1; }
head0=$(head_sum)
before=$(tail_sum)
P=(--fs raw --device "$K" --device-size 64M --device-settle 0 --force-format --image-dir "$IMG")

FSB run "io:rw=randwrite,bs=4k,size=32m,direct=1,runtime=1,time_based=1" "${P[@]}" --runs 2 \
	--db "$DB" --json "$WORK/r.json" >"$WORK/out.txt" 2>&1
rc=$?
check "a job on the raw region exits 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/out.txt" | tail -20
check "it has its 2 runs and IOPS" \
	jqt '(.tests[0].samples | length) == 2 and ([.tests[0].samples[].values.iops] | min) > 0' "$WORK/r.json"
check "the target is the region's device, with no filesystem" \
	jqt '.targets[0].fstype == "none (the device itself)" and (.targets[0].path | test("^/dev/loop[0-9]+$"))' \
	"$WORK/r.json"
check "the job wrote the region" [ "$(head_sum)" != "$head0" ]
check "nothing outside the region was written (sha256 of the last 192 MiB)" [ "$(tail_sum)" = "$before" ]

FSB run "io:rw=write,bs=64k,size=128m" "${P[@]}" --runs 1 --db "$DB" >"$WORK/e1.txt" 2>&1; rc=$?
check "a job past the region fails, saying so (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'past the 67108864 bytes' '$WORK/e1.txt'"
check "and nothing outside the region was written" [ "$(tail_sum)" = "$before" ]
FSB run "fsmark:files=10,size=4k" "${P[@]}" --db "$DB" >"$WORK/e2.txt" 2>&1; rc=$?
check "a workload that needs a filesystem is refused on a raw target (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'has no filesystem' '$WORK/e2.txt'"
FSB run "io:ioengine=mtd,rw=read,size=1m" "${P[@]}" --db "$DB" >"$WORK/e3.txt" 2>&1; rc=$?
check "ioengine=mtd on a block device's raw target is refused (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'ioengine=mtd drives raw NAND' '$WORK/e3.txt'"
FSB run "io:ioengine=sg,rw=read,size=1m" --fs ext4 --fs-size 256M --image-dir "$IMG" --db "$DB" \
	>"$WORK/e4.txt" 2>&1; rc=$?
check "ioengine=sg on a filesystem is refused (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'ioengine=sg sends SCSI commands to the disk itself' '$WORK/e4.txt'"
FSB run "io:ioengine=sg,rw=read,size=1m" "${P[@]}" --runs 1 --db "$DB" >"$WORK/e5.txt" 2>&1; rc=$?
check "ioengine=sg on a loop device (no SCSI) fails, saying why (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'takes no SCSI commands' '$WORK/e5.txt'"
FSB run "io:rw=read,size=1m" --fs raw:mount=noatime --image-dir "$IMG" --db "$DB" >"$WORK/e6.txt" 2>&1; rc=$?
check "mount options on raw are refused (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'is no filesystem' '$WORK/e6.txt'"
check "nothing is left attached to the key or in the state file" \
	sh -c "! losetup -a | grep -q '($K)' && [ \"\$(awk 'NR > 1' '$FSBENCH_STATE' | wc -l)\" -eq 0 ]"

need_guest "raw targets in the guest"
FSB run "io:ioengine=sg,rw=randrw,bs=4k,size=16m,runtime=1,time_based=1" \
	"io:ioengine=sg,rw=write,bs=64k,size=8m,verify=crc32c" "${P[@]}" --vm --vm-accel tcg \
	--vm-device-bus usb --runs 1 --db "$DB" --json "$WORK/g.json" >"$WORK/g.txt" 2>&1
rc=$?
check "ioengine=sg on the key in the guest exits 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/g.txt" | tail -20
check "both jobs ran through SCSI commands, in the guest" \
	jqt '([.tests[].samples[].values.iops] | min) > 0 and (.system["Virtual Machine"] | test("QEMU"))
	     and (.tests[0].subtitle | test("Engine: SG"))' "$WORK/g.json"
check "the verified job read its 128 blocks back through SCSI READs and checked them" \
	jqt '.tests[1].samples[0].detail | test("verify: crc32c, 128 blocks read back and checked")' \
	"$WORK/g.json"
check "nothing outside the region was written by the SCSI commands" [ "$(tail_sum)" = "$before" ]

FSB run "io:ioengine=mtd,rw=trimwrite,bs=128k,size=8m" "io:ioengine=mtd,rw=write,bs=2k,size=4m,verify=crc32c" \
	--fs raw-mtd --vm --vm-accel tcg --runs 1 --image-dir "$IMG" --db "$DB" --json "$WORK/m.json" \
	>"$WORK/m.txt" 2>&1
rc=$?
check "ioengine=mtd on the guest's NAND exits 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/m.txt" | tail -20
check "the trims erased whole blocks: 64 erases and 64 writes of 128 KiB" \
	jqt '.tests[0].samples[0].detail | test("issued rwts: total=0,64,64,0")' "$WORK/m.json"
check "the pages written were read back and checked" \
	jqt '.tests[1].samples[0].detail | test("verify: crc32c, 2048 blocks read back and checked")' \
	"$WORK/m.json"
check "the target is the simulated NAND, erased by flash_erase" \
	jqt '.targets[0].disk | test("NAND simulator")' "$WORK/m.json"
check "no QEMU of this test survives" [ -z "$(pgrep -f "qemu-system-x86_64.*$IMG" || true)" ]
finish
