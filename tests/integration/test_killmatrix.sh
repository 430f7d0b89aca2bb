# test_killmatrix.sh: SIGKILL, SIGTERM and SIGINT at every phase of a
# --fs run (image, loop, mkfs, mount, workload, store, teardown) and of a
# --target run (workload, store).  fsbench stops itself at the phase
# (FSBENCH_TEST_PAUSE, core/testhook.h) so the signal lands exactly there.
# Afterwards `fsbench cleanup` leaves nothing of fsbench's, and decoys with
# similar names beside it (a loop device, mounts, directories) survive.
# The image directory has a space in its name and a mount sits where a
# path cut at that space would point.  Then cleanup is shown a mount point
# and a loop device that someone else now uses under the recorded names:
# it names them and leaves them alone.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/loop-control ] || ! command -v mkfs.ext4 >/dev/null; then
	skip "kill matrix" "needs root, loop devices and mkfs.ext4"
	finish
	exit 0
fi
export FSBENCH_STATE=$WORK/state
IMG="$WORK/x y"			# cut at the space: $WORK/x
mkdir -p "$IMG" "$WORK/x" "$WORK/t"
P=(--image-dir "$IMG" --fs-size 64M --db "$DB" --runs 1 -q)
KEEP="$WORK/keep"		# --keep-aged's directory of the aged cases
mkdir -p "$KEEP"
TEST=fsmark:files=20,size=4k

# Decoys: a loop device over an image of ours, mounted where the cut path
# points; a directory and a mount named like fsbench's in the image dir.
truncate -s 32M "$WORK/decoy.img" && mkfs.ext4 -q -F "$WORK/decoy.img"
DLOOP=$(losetup -f --show "$WORK/decoy.img")
mount "$DLOOP" "$WORK/x" && echo decoy > "$WORK/x/keep"
mkdir -p "$IMG/fsbench.decoy0/mnt" && echo decoy > "$IMG/fsbench.decoy0/keep"
mount -t tmpfs -o size=1m fsbench-decoy "$IMG/fsbench.decoy0/mnt" && echo decoy > "$IMG/fsbench.decoy0/mnt/keep"
undecoy() {
	umount "$IMG/fsbench.decoy0/mnt" 2>/dev/null
	umount "$WORK/x" 2>/dev/null
	losetup -d "$DLOOP" 2>/dev/null
}
trap 'undecoy; cleanup_work' EXIT

decoys_ok() {
	[ "$(cat "$WORK/x/keep" 2>/dev/null)" = decoy ] &&
	[ "$(cat "$IMG/fsbench.decoy0/keep" 2>/dev/null)" = decoy ] &&
	[ "$(cat "$IMG/fsbench.decoy0/mnt/keep" 2>/dev/null)" = decoy ] &&
	losetup "$DLOOP" 2>/dev/null | grep -q decoy.img
}
# Nothing of fsbench's: no loop over an image in $IMG, no mount under it
# but the decoy's, nothing in it but the decoy, no state entry left.
nothing_left() {
	local i
	for i in $(seq 200); do	# loop devices clear themselves asynchronously
		losetup -a | grep -q "$IMG/fsbench\.[^d]" || break
		sleep 0.1
	done
	! losetup -a | grep -q "$IMG/fsbench\.[^d]" &&
	[ "$(grep -c "$(printf '%s' "$IMG" | sed 's/ /\\\\040/')/" /proc/self/mounts)" -eq 1 ] &&
	[ "$(ls -A "$IMG")" = fsbench.decoy0 ] &&
	[ -z "$(ls -A "$WORK/t")" ] &&
	[ "$(awk 'NR > 1' "$FSBENCH_STATE" 2>/dev/null | wc -l)" -eq 0 ]
}

kills=0 left=0
# one KIND PHASE SIG: a run stopped at PHASE, sent SIG.
# KIND: fs (--fs ext4), target (--target DIR) or aged (--fs ext4 aged and
# kept: --age, --keep-aged $KEEP).
one() {
	local kind=$1 phase=$2 sig=$3 rc
	local -a how=(--fs ext4)
	[ "$kind" = target ] && how=(--target "$WORK/t")
	[ "$kind" = aged ] && how=(--fs ext4 --age "$WORK/tiny.age" --keep-aged "$KEEP")
	FSBENCH_TEST_PAUSE=$phase "$FSBENCH" run "$TEST" "${how[@]}" "${P[@]}" >/dev/null 2>"$WORK/err" &
	local pid=$!
	if ! wait_stopped "$pid"; then
		wait "$pid"
		not_ok "$kind $phase SIG$sig: never reached the phase" "$(head -c 300 "$WORK/err")"
		return
	fi
	kill -"$sig" "$pid"
	[ "$sig" != KILL ] && kill -CONT "$pid"
	wait "$pid"; rc=$?
	kills=$((kills + 1))
	if [ "$sig" != KILL ]; then
		# An interrupted run undoes everything itself and exits 130; at
		# teardown the run was already complete and stored (exit 0).
		if { [ "$rc" -eq 130 ] || { [ "$phase" = teardown ] && [ "$rc" -eq 0 ]; }; } && nothing_left; then
			ok "$kind $phase SIG$sig: exits $rc and leaves nothing"
		else
			not_ok "$kind $phase SIG$sig: exits $rc and leaves nothing" \
				"$(losetup -a | grep fsbench) $(ls -A "$IMG" "$WORK/t") $(cat "$WORK/err")"
			left=$((left + 1))
		fi
	fi
	"$FSBENCH" cleanup >"$WORK/clean" 2>&1; rc=$?
	# a kept copy stopped by SIGTERM or SIGINT may finish and be kept
	# (the aging was whole); a .partial is never left
	if [ "$rc" -eq 0 ] && nothing_left && decoys_ok && ! ls -A "$KEEP" | grep -q partial; then
		ok "$kind $phase SIG$sig: cleanup (rc $rc) leaves nothing, decoys intact"
	else
		not_ok "$kind $phase SIG$sig: cleanup (rc $rc) leaves nothing, decoys intact" \
			"$(cat "$WORK/clean") | $(losetup -a | grep -v decoy) | $(ls -A "$IMG" "$KEEP") | $(cat "$FSBENCH_STATE")"
		left=$((left + 1))
	fi
	rm -f "$KEEP"/*	# an aged case ages again
}

for phase in image loop mkfs mount workload store teardown; do
	for sig in KILL TERM INT; do
		one fs "$phase" "$sig"
	done
done
for phase in workload store; do
	for sig in KILL TERM INT; do
		one target "$phase" "$sig"
	done
done
# issue 69: the aging (SIGTERM exited 1, "aging: interrupted", not 130)
# and --keep-aged's copy (SIGKILL left a .partial that cleanup did not
# know and every later run failed on, "File exists"), on a profile small
# enough for a 64M image.
cp "${FSBENCH_FIXTURES:-$(dirname "$0")/../fixtures}/small.age" "$WORK/tiny.age"
for sig in KILL TERM INT; do
	one aged age "$sig"
	one aged keep-copy "$sig"
done
# after all that, the kept directory works: the first run keeps, the
# second reuses what it kept
"$FSBENCH" run "$TEST" --fs ext4 --age "$WORK/tiny.age" --keep-aged "$KEEP" "${P[@]}" \
	>/dev/null 2>"$WORK/err"; rc1=$?
"$FSBENCH" run "$TEST" --fs ext4 --age "$WORK/tiny.age" --keep-aged "$KEEP" "${P[@]}" \
	--json "$WORK/k2.json" >/dev/null 2>>"$WORK/err"; rc2=$?
check "--keep-aged after the kills: kept, then reused (rc $rc1 $rc2)" \
	sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ \$(ls '$KEEP' | grep -c '\.img\$') -eq 1 ] &&
	       ! ls '$KEEP' | grep -q partial"
# two runs sharing one kept directory at once: the second waits, then
# reuses the first's image (it aged too, then failed on the first's
# .partial, issue 69)
rm -f "$KEEP"/*
"$FSBENCH" run "$TEST" --fs ext4 --age "$WORK/tiny.age" --keep-aged "$KEEP" "${P[@]}" \
	>/dev/null 2>"$WORK/k1.err" &
kp=$!
"$FSBENCH" run "$TEST" --fs ext4 --age "$WORK/tiny.age" --keep-aged "$KEEP" "${P[@]}" \
	>/dev/null 2>"$WORK/k2.err"; rc2=$?
wait "$kp"; rc1=$?
check "two runs sharing --keep-aged at once: both run, one image kept (rc $rc1 $rc2)" \
	sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ \$(ls '$KEEP' | grep -c '\.img\$') -eq 1 ] &&
	       ! ls '$KEEP' | grep -q partial"
rm -rf "$KEEP"

# A crash of fsbench itself (SIGSEGV, as a bug would cause) at a phase
# where it holds a mount and a loop device: the crash handler's child runs
# `fsbench cleanup` once the crashed process is gone -- nothing is left,
# without anyone running cleanup by hand.
for phase in mount workload store teardown; do
	FSBENCH_TEST_PAUSE=crash-$phase "$FSBENCH" run "$TEST" --fs ext4 "${P[@]}" >/dev/null 2>"$WORK/err"
	rc=$?
	kills=$((kills + 1))
	gone=0
	for _ in $(seq 100); do
		nothing_left && { gone=1; break; }
		sleep 0.1
	done
	if [ "$rc" -ge 128 ] && [ "$gone" -eq 1 ] && decoys_ok; then
		ok "crash at $phase (exit $rc): the crash handler's cleanup leaves nothing, decoys intact"
	else
		not_ok "crash at $phase (exit $rc): nothing left" \
			"$(losetup -a | grep -v decoy) | $(ls -A "$IMG") | $(cat "$FSBENCH_STATE")"
		left=$((left + 1))
		"$FSBENCH" cleanup >/dev/null 2>&1
	fi
done

echo "# kill matrix: $kills kills, $left left something behind"
check "kill matrix: $kills kills, nothing left behind" [ "$left" -eq 0 ]

# The recorded mount point now holds someone else's mount: left alone.
FSBENCH_TEST_PAUSE=mount "$FSBENCH" run "$TEST" --fs ext4 "${P[@]}" >/dev/null 2>&1 &
pid=$!
if wait_stopped "$pid"; then
	mnt=$(awk '$3 == "mount" { print $4 }' "$FSBENCH_STATE" | sed 's/%20/ /g')
	loop=$(awk '$3 == "loop" { print $4 }' "$FSBENCH_STATE")
	kill -KILL "$pid"; wait "$pid" 2>/dev/null
	umount "$mnt"
	for _ in $(seq 200); do losetup "$loop" >/dev/null 2>&1 || break; sleep 0.1; done
	mount -t tmpfs -o size=1m someone-else "$mnt" && echo theirs > "$mnt/keep"
	truncate -s 8M "$WORK/other.img"
	losetup "$loop" "$WORK/other.img" 2>/dev/null; reused=$?
	"$FSBENCH" cleanup >"$WORK/clean" 2>&1
	check "a foreign mount at a recorded mount point is left alone and named" \
		sh -c "grep -q 'LEFT ALONE mount .*mounted from someone-else' '$WORK/clean' &&
		       [ \"\$(cat '$mnt/keep')\" = theirs ]"
	if [ "$reused" -eq 0 ]; then
		check "a recorded loop device now backed by another file is left alone and named" \
			sh -c "grep -q 'LEFT ALONE loop $loop' '$WORK/clean' && losetup '$loop' | grep -q other.img"
		losetup -d "$loop"
	else
		skip "reused loop device" "$loop was taken by someone else first"
	fi
	umount "$mnt"
	"$FSBENCH" cleanup >"$WORK/clean" 2>&1; rc=$?
	check "once they are gone, cleanup finishes (rc $rc)" sh -c "[ $rc -eq 0 ] && $(declare -f nothing_left); IMG='$IMG' WORK='$WORK' FSBENCH_STATE='$FSBENCH_STATE' nothing_left"
else
	not_ok "foreign mount at a recorded mount point" "run never reached the mount phase"
fi
check "decoys intact at the end" decoys_ok
finish
