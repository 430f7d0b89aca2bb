# test_onedevice.sh: every filesystem on one device, interleaved (issue 70).
# A loop device over an image stands in for the user's USB key.  ext4 and
# btrfs take turns on its first 256 MiB in one run, each repetition on a
# filesystem made afresh after the same reset; rounds interleave (it was
# refused: "--device holds one filesystem at a time").  Nothing outside the
# region is written (its checksum before and after), the device is held
# exclusively while the run goes, the medium is in the system table, and a
# SIGKILL then `fsbench cleanup` leaves nothing attached to it.  Then in
# fsbench's guest: ext4 and F2FS (which this kernel lacks: the run and the
# device go there by themselves) on the same key, handed over as a USB
# mass-storage device throttled to a USB 2 key's 20/8 MB/s, the report
# saying the medium is modelled.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/loop-control ] || ! command -v mkfs.btrfs >/dev/null ||
   ! "$FSBENCH" list fs | grep -q "^btrfs  *kernel  *yes "; then
	skip "one device" "needs root, loop devices, ext4 and btrfs"
	finish
	exit 0
fi
export FSBENCH_STATE=$WORK/state
IMG=$WORK/img
mkdir -p "$IMG"
KEY=$WORK/key.img
# the key: 768 MiB, its last 512 MiB random (what the user keeps there)
truncate -s 768M "$KEY"
dd if=/dev/urandom of="$KEY" bs=1M seek=256 count=512 conv=notrunc status=none
K=$(losetup -f --show "$KEY")
trap 'umount_ours; losetup -d "$K" 2>/dev/null; cleanup_work' EXIT
umount_ours() { "$FSBENCH" cleanup >/dev/null 2>&1; }
tail_sum() { dd if="$K" bs=1M skip=256 status=none | sha256sum | cut -d' ' -f1; }
before=$(tail_sum)
held_over_key() { losetup -a | grep -q "($K)"; }

P=(--device "$K" --device-size 256M --device-settle 0 --image-dir "$IMG")
FSB run "fsmark:files=50,size=64k" --fs ext4,btrfs "${P[@]}" --device-reset zero --runs 3 \
	--db "$DB" --json "$WORK/r.json" >"$WORK/out.txt" 2>&1
rc=$?
check "ext4 and btrfs on one device in one run exit 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/out.txt" | tail -20
check "each has its 3 runs" \
	jqt '[.tests[0].samples | group_by(.target)[] | length] == [3, 3]' "$WORK/r.json"
# interleaved: every round runs both before the next begins (by the order
# the samples were stored in: 1 1 2 2 3 3, never 1 2 3 1 2 3)
reps=$(sq "$DB" "SELECT group_concat(rep, ' ') FROM (SELECT rep FROM sample ORDER BY id)")
check "the rounds interleave the filesystems (reps in stored order: $reps)" [ "$reps" = "1 1 2 2 3 3" ]
check "the answer block has their verdicts" grep -q "^Answer: speed against ext4" "$WORK/out.txt"
check "the system table names the medium, its region and its reset" \
	jqt '.system.Medium | test("loop device over .*key.img") and test("the first 256M of 768M")
		and test("zeroed") and test("idle 0 s after each mount")' "$WORK/r.json"
check "the text says it (its lines wrapped)" sh -c "tr -d '\n\t' < '$WORK/out.txt' | grep -q 'Medium: loop[0-9]*: a loop device over *[^ ]*key.img'"
check "both filesystems were made on the region's loop device, not on the key itself" \
	jqt '[.targets[].mkfs | test("/dev/loop[0-9]+$")] == [true, true] and
	     ([.targets[].mkfs | test("'"$K"'$")] | any | not)' "$WORK/r.json"
check "nothing outside the region was written (sha256 of the last 512 MiB)" [ "$(tail_sum)" = "$before" ]
check "nothing is left attached to the key or mounted" \
	sh -c "! losetup -a | grep -q '($K)' && ! grep -q '$IMG' /proc/mounts"
blkid -p "$K" >"$WORK/blkid.txt" 2>&1
check "the key holds the last filesystem made (as docs/usage.md says)" \
	grep -q 'TYPE="\(ext4\|btrfs\)"' "$WORK/blkid.txt"

# Refusals, before anything is written.
FSB run fsmark --fs ext4,tmpfs --device "$K" --db "$DB" >"$WORK/e1.txt" 2>&1; rc=$?
check "--device with tmpfs is refused (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'does not use a block device' '$WORK/e1.txt'"
FSB run fsmark --fs ext4 --device "$K" --fs-size 1G --db "$DB" >"$WORK/e2.txt" 2>&1; rc=$?
check "--fs-size with --device is refused (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'device-size' '$WORK/e2.txt'"
FSB run fsmark --fs ext4 --device "$K" --device-reset trim --db "$DB" >"$WORK/e3.txt" 2>&1; rc=$?
check "a bad --device-reset is refused (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'discard, zero or none' '$WORK/e3.txt'"
FSB run fsmark --fs ext4 --device-size 64M --db "$DB" >"$WORK/e4.txt" 2>&1; rc=$?
check "--device-size without --device is refused (rc $rc)" [ "$rc" -eq 2 ]
FSB run fsmark --fs ext4,btrfs --device "$K" --device-size 1G --force-format --db "$DB" \
	--image-dir "$IMG" >"$WORK/e5.txt" 2>&1; rc=$?
check "a region larger than the device is refused (rc $rc)" grep -q "no region of 1G" "$WORK/e5.txt"
check "and nothing outside the region was written" [ "$(tail_sum)" = "$before" ]

# Held while the run goes: paused at its workload, the key cannot be
# opened exclusively (mkfs, mount) by anyone else; SIGKILL, then cleanup:
# nothing attached to it.
FSBENCH_TEST_PAUSE=workload "$FSBENCH" run "fsmark:files=50,size=64k" --fs ext4,btrfs "${P[@]}" \
	--force-format --runs 2 --db "$DB" -q >/dev/null 2>"$WORK/err" &
pid=$!
if wait_stopped "$pid"; then
	python3 -c "import os,sys
try:
    os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
except OSError:
    sys.exit(0)
sys.exit(1)" "$K"; held=$?
	check "while the run holds the key, no one else can open it exclusively" [ "$held" -eq 0 ]
	check "its region is a loop device over the key, in the state file" \
		sh -c "held_over_key() { losetup -a | grep -q '($K)'; }; held_over_key && grep -q '$K' '$FSBENCH_STATE'"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	FSB cleanup >"$WORK/clean.txt" 2>&1; rc=$?
	for _ in $(seq 100); do held_over_key || break; sleep 0.1; done
	check "SIGKILL, then cleanup (rc $rc): nothing attached to the key, nothing mounted" \
		sh -c "! losetup -a | grep -q '($K)' && ! grep -q '$IMG' /proc/mounts && [ -z \"\$(ls -A '$IMG')\" ]"
	check "and the region's bounds held: the last 512 MiB unchanged" [ "$(tail_sum)" = "$before" ]
else
	not_ok "the paused run reached its workload" "$(cat "$WORK/err")"
fi
# SIGTERM at the same moment: the run undoes everything itself (exit 130)
FSBENCH_TEST_PAUSE=workload "$FSBENCH" run "fsmark:files=50,size=64k" --fs ext4,btrfs "${P[@]}" \
	--force-format --runs 2 --db "$DB" -q >/dev/null 2>"$WORK/err" &
pid=$!
if wait_stopped "$pid"; then
	kill -TERM "$pid"
	kill -CONT "$pid"
	wait "$pid"; rc=$?
	for _ in $(seq 100); do held_over_key || break; sleep 0.1; done
	check "SIGTERM (rc $rc): exits 130, nothing attached to the key, nothing mounted, no cleanup needed" \
		sh -c "[ $rc -eq 130 ] && ! losetup -a | grep -q '($K)' && ! grep -q '$IMG' /proc/mounts &&
		       [ \"\$(awk 'NR > 1' '$FSBENCH_STATE' | wc -l)\" -eq 0 ]"
else
	not_ok "the paused run reached its workload (SIGTERM)" "$(cat "$WORK/err")"
fi

need_guest "one device in the guest"
vm=()	# where the host has F2FS, --vm says it; where not, the run goes by itself
"$FSBENCH" list fs | grep -q "^f2fs  *kernel  *yes " && vm=(--vm)
FSB run "fsmark:files=20,size=16k" --fs ext4,f2fs "${vm[@]}" --device "$K" --device-size 128M \
	--device-settle 0 --force-format --vm-accel tcg --vm-device-bus usb --vm-device-throttle 20,8 \
	--runs 2 --image-dir "$IMG" --db "$DB" --json "$WORK/g.json" >"$WORK/g.txt" 2>&1
rc=$?
check "ext4 and F2FS on the key in the guest exit 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/g.txt" | tail -20
[ "${#vm[@]}" -eq 0 ] && check "the run said it went to the guest with the device" \
	grep -q "fs 'f2fs' is not available here .*go to fsbench's guest" "$WORK/g.txt"
check "each has its 2 runs, in the guest" \
	jqt '[.tests[0].samples | group_by(.target)[] | length] == [2, 2] and
	     (.system["Virtual Machine"] | test("QEMU"))' "$WORK/g.json"
check "the Medium line names the key, says it is modelled, how it was handed over" \
	jqt '.system.Medium | test("^MODELLED") and test("key.img") and test("USB mass-storage")
		and test("20 MB/s read, 8 MB/s write")' "$WORK/g.json"
check "the guest's key took no discard, as a USB key, and the report says so" \
	jqt '.system.Medium | test("refused by the device")' "$WORK/g.json"
check "nothing outside the region was written" [ "$(tail_sum)" = "$before" ]
check "nothing is left attached to the key" sh -c "! losetup -a | grep -q '($K)'"
check "no QEMU of this test survives" [ -z "$(pgrep -f "qemu-system-x86_64.*$IMG" || true)" ]
finish
