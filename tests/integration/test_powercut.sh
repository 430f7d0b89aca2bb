# test_powercut.sh: the powercut workload (docs/workloads/powercut.md)
# end to end: refused where it cannot mean anything (a directory, tmpfs),
# refused with the way out on a host kernel without device-mapper, leaving
# nothing behind; and in fsbench's guest, where the kernel has
# dm-log-writes, a recorded ext4 with its crash points checked.
. "$(dirname "$0")/lib.sh"
export FSBENCH_STATE=$WORK/state

FSB run powercut --target "$WORK" --db "$DB" >"$WORK/dir.txt" 2>&1
rc=$?
check "a directory target is refused before anything runs (exit 2)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'powercut needs a filesystem fsbench makes (--fs)' '$WORK/dir.txt'"

if [ "$(id -u)" -ne 0 ]; then
	skip "powercut on provisioned filesystems" "needs root to make and mount them"
	finish
	exit 0
fi
FSB run powercut:points=2 --fs tmpfs --runs 1 --db "$DB" --image-dir "$WORK" >"$WORK/tmpfs.txt" 2>&1
check "tmpfs is refused: it keeps nothing across a power cut" \
	grep -q "tmpfs keeps nothing across a power cut" "$WORK/tmpfs.txt"

if [ ! -e /dev/mapper/control ]; then
	# no guest to go to (an empty kernel cache): the refusal stands
	mkdir "$WORK/img" "$WORK/nocache"
	XDG_CACHE_HOME=$WORK/nocache FSB run powercut:files=5,points=2,device=64M --fs ext4 --runs 1 \
		--db "$DB" --image-dir "$WORK/img" >"$WORK/host.txt" 2>&1
	rc=$?
	check "without device-mapper or a guest the run says so and names --vm" \
		grep -q "no device-mapper.*which fsbench's guest has (dm-log-writes): run it there with --vm" \
		"$WORK/host.txt"
	# the bug: refused only at the test's prepare, after a 4 GiB image
	# per filesystem had been made and formatted
	check "... as a usage error (exit $rc, want 2), before any image is made" \
		sh -c "[ $rc -eq 2 ] && [ -z \"\$(ls -A '$WORK/img')\" ]"
	check "... and leaves no loop device on its images" \
		sh -c "! losetup -a | grep -q '$WORK'"
	check "... and nothing in the state file" sh -c "[ ! -s '$FSBENCH_STATE' ] || [ \$(awk 'NR > 1' '$FSBENCH_STATE' | wc -l) -eq 0 ]"
fi

if ! command -v qemu-system-x86_64 >/dev/null || ! FSB kernel list | grep -q "^run --vm boots"; then
	skip "powercut in the guest" "no QEMU or no kernel in fsbench's cache"
	finish
	exit 0
fi
# One small recording, 6 points: ext4 must mount at every one of them with
# nothing promised lost (a finding here would be a kernel bug, or ours).
# Without device-mapper here, no --vm: the run goes to the guest by itself
# (it was refused, naming --vm, although the guest could run it).
vm=--vm
[ -e /dev/mapper/control ] || vm=
# The second test, the same on a USB key's volatile buffer of 64 KiB
# (issue 71): the buffer ignores the flushes, so fsync's promises are lost.
FSB run powercut:files=30,size=8k,points=6,device=64M \
	powercut:files=30,size=8k,points=6,device=64M,buffer=64k --fs ext4 $vm --vm-accel tcg --runs 1 \
	--image-dir "$WORK" --db "$DB" --json "$WORK/pc.json" >"$WORK/vm.txt" 2>&1
rc=$?
check "guest: the run completes (rc $rc)" [ "$rc" -eq 0 ]
if [ -z "$vm" ]; then
	check "guest: without --vm the run said it went to the guest" \
		grep -q "no device-mapper.*the run goes there, as with --vm" "$WORK/vm.txt"
fi
check "guest: 6 points checked" jqt '[.tests[0].metrics[] | select(.name == "points") | .results[0].mean] == [6]' "$WORK/pc.json"
check "guest: ext4 loses nothing it promised" \
	jqt '[.tests[0].metrics[] | select(.name == "promised_lost") | .results[0].mean] == [0]' "$WORK/pc.json"
check "guest: every point mounts" \
	jqt '[.tests[0].metrics[] | select(.name == "unmountable_pct") | .results[0].mean] == [0]' "$WORK/pc.json"
check "guest: the repetition's detail names the log and its promises" \
	jqt '.tests[0].samples[0].detail | test("log: [0-9]+ entries .* 30 promises")' "$WORK/pc.json"
check "guest: the outcome table is printed under the test" grep -q "^Power-cut outcome" "$WORK/vm.txt"
# the bug this catches: a buffer a flush empties, as the host's own cuts
# assume (a key could then never lose what fsync promised)
check "guest: on a 64 KiB volatile buffer ext4 loses files fsync promised" \
	jqt '[.tests[1].metrics[] | select(.name == "promised_lost") | .results[0].mean][0] > 0' "$WORK/pc.json"
check "guest: ... and the repetition says the buffer was lost at every cut" \
	jqt '.tests[1].samples[0].detail | test("volatile buffer: its last 64k of writes lost")' "$WORK/pc.json"
check "guest: ... and the subtitle names the buffer" grep -q "64k Volatile Buffer" "$WORK/vm.txt"

# UBIFS, cut by UBI's own emulation on its twin partition.  The tree shape
# (300 files, then one syncfs) puts the cut in writeback, whose flood of
# UBIFS errors pushed UBI's "emulating a power cut" out of the kernel's
# ring: the bug was a failed run ("syncfs: Read-only file system").
FSB run powercut:shape=tree,files=300,size=16k,points=3,device=64M --fs ubifs --vm --vm-accel tcg \
	--runs 1 --image-dir "$WORK" --db "$DB" --json "$WORK/ubi.json" >"$WORK/ubi.txt" 2>&1
rc=$?
check "guest: ubifs's tree shape completes (rc $rc)" [ "$rc" -eq 0 ]
check "guest: ubifs: points were cut by UBI's emulation" \
	jqt '([.tests[0].metrics[] | select(.name == "points") | .results[0].mean][0] // 0) >= 1 and
		(.tests[0].samples[0].detail | test("UBI.s power-cut emulation"))' "$WORK/ubi.json"
finish
