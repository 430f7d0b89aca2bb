# test_vmkill.sh: the kill matrix of the guest's paths (issue 69): a --vm
# run and a power-cut run (which goes to the guest by itself where the
# host has no device-mapper), each stopped with SIGKILL and SIGTERM while
# the guest boots and while it measures.  Afterwards `fsbench cleanup`
# leaves no QEMU, image, exchange directory or state entry, and the run is
# in the store as it should be: interrupted (SIGTERM) or abandoned
# (SIGKILL, marked by cleanup), with every sample the guest had handed
# over.  Catches a guest run lost whole when stopped (it was imported only
# at its end) and a run left 'running' for ever.  Then the power-cut run
# stopped last is resumed to its end in a new guest.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "guest kill matrix" "needs root"
	finish
	exit 0
fi
need_guest "guest kill matrix"
IMG=$WORK/img
mkdir -p "$IMG"
export FSBENCH_STATE=$WORK/state

qemu_up() { pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; }
# Nothing of the guest's: no QEMU, nothing in the image directory, no
# state entry.
nothing_left() {
	local i
	for i in $(seq 50); do qemu_up || break; sleep 0.1; done
	! qemu_up && [ -z "$(ls -A "$IMG")" ] &&
	[ "$(awk 'NR > 1' "$FSBENCH_STATE" 2>/dev/null | wc -l)" -eq 0 ]
}

kills=0 left=0 n=0
# one KIND MOMENT SIG: a guest run of KIND (vm: fsmark with --vm;
# powercut: the power-cut test, to the guest by itself without
# device-mapper) sent SIG at MOMENT (boot: QEMU is up; measuring: the
# host's store holds a sample of the guest's).
one() {
	local kind=$1 moment=$2 sig=$3 rc db=$WORK/$1-$2-$3.db st samples
	local -a what=("fsmark:files=200,size=64k" --vm --runs 4 --fs-size 128M)
	[ "$kind" = powercut ] && what=("powercut:files=30,size=8k,points=3,device=64M" --runs 3)
	[ "$kind" = powercut ] && [ -e /dev/mapper/control ] && what+=(--vm)
	"$FSBENCH" run "${what[@]}" --fs ext4 --vm-accel tcg --image-dir "$IMG" \
		--db "$db" -q >"$WORK/out" 2>&1 &
	local pid=$!
	n=0
	for _ in $(seq 2400); do
		kill -0 "$pid" 2>/dev/null || break
		if [ "$moment" = boot ]; then
			qemu_up && break
		else
			n=$(sq "$db" "SELECT count(*) FROM sample")
			[ "${n:-0}" -ge 1 ] && break
		fi
		sleep 0.25
	done
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		not_ok "$kind $moment SIG$sig: the run ended before the moment" "$(tail -5 "$WORK/out")"
		left=$((left + 1))
		return
	fi
	kill -"$sig" "$pid"
	wait "$pid"; rc=$?
	kills=$((kills + 1))
	if [ "$sig" = TERM ] && [ "$rc" -ne 130 ]; then
		not_ok "$kind $moment SIG$sig: exits 130 (rc $rc)" "$(tail -5 "$WORK/out")"
		left=$((left + 1))
	fi
	"$FSBENCH" cleanup >"$WORK/clean" 2>&1; rc=$?
	st=$(sq "$db" "SELECT status FROM run WHERE id=1")
	samples=$(sq "$db" "SELECT count(*) FROM sample")
	local want=interrupted
	[ "$sig" = KILL ] && want=abandoned
	if [ "$rc" -eq 0 ] && nothing_left && [ "$st" = "$want" ] &&
	   { [ "$moment" = boot ] || [ "${samples:-0}" -ge 1 ]; }; then
		ok "$kind $moment SIG$sig: cleanup leaves nothing; the run is $st with $samples samples"
	else
		not_ok "$kind $moment SIG$sig: cleanup (rc $rc) leaves nothing; the run is $want with its samples" \
			"status '$st', $samples samples | $(cat "$WORK/clean") | $(ls -A "$IMG") | $(cat "$FSBENCH_STATE" 2>/dev/null)"
		left=$((left + 1))
	fi
}

for kind in vm powercut; do
	for moment in boot measuring; do
		for sig in KILL TERM; do
			one "$kind" "$moment" "$sig"
		done
	done
done
echo "# guest kill matrix: $kills kills, $left failed"
check "guest kill matrix: $kills kills, every run kept and nothing left behind" [ "$left" -eq 0 ]

# The power-cut run stopped while measuring continues to its end in a new
# guest, into the same run, its samples of before counting; one stopped as
# its guest booted (nothing handed over) is run whole into its run.
db=$WORK/powercut-measuring-TERM.db
before=$(sq "$db" "SELECT count(*) FROM sample")
resume_first "$db"
check "--resume of the stopped power-cut run exits 0 (rc $rc)" [ "$rc" -eq 0 ]
check "it is complete with its 3 runs ($before of them from before the stop)" \
	jqt '.run.status == "complete" and ([.tests[].samples | length] == [3])' "$WORK/resumed.json"
check "and nothing is left of its guest" nothing_left
db=$WORK/vm-boot-TERM.db
resume_first "$db"
check "--resume of a guest run stopped at boot runs it whole into its run (rc $rc)" \
	jqt '.run.status == "complete" and ([.tests[].samples | length] == [4])' "$WORK/resumed.json"
check "and nothing is left of its guest" nothing_left
finish
