# test_medium.sh: the modelled flash medium (issue 71).  Its server first,
# on the host, through nbdkit with fsbench's plugin and libnbd's nbdcopy
# as the client (no guest, no nbd module): what is read is what was
# written; the counters file counts it; a timed request never completes
# before its model time (a lower bound, whatever the load); the image and
# the counters are never reached through a link or made over an existing
# file.  Then `run --medium`: refusals; ext4 and F2FS taking turns on the
# modelled usb3-key in fsbench's guest, the report saying it is modelled
# on every chart, the device table counting the medium's merges and wear;
# a SIGKILL of fsbench leaves no server behind.  probe-flash: probing a
# model gives back its page, unit and open units, written as a medium file
# the probe reads back the same; on a device it reads only, unless
# --write, which the device checks guard and which stays in its region.
. "$(dirname "$0")/lib.sh"

SO=$(cd "$TESTBIN/.." && pwd)/fsbench-flash.so
if ! command -v nbdkit >/dev/null || ! command -v nbdcopy >/dev/null || [ ! -f "$SO" ]; then
	skip "modelled medium" "needs nbdkit, nbdcopy (libnbd-bin) and the built plugin"
	finish
	exit 0
fi
export FSBENCH_STATE=$WORK/state
S=$WORK/srv
mkdir -p "$S"
# a small key: 64 MiB of 4 MiB units, 2 open, the usb3-key's costs
PARAMS=(capacity=67108864 page=16384 unit=4194304 open_units=2 mapped_units=1 cmd_ns=100000
	read_ns=120000 program_ns=500000 copy_ns=250000 erase_ns=2000000 bus_bps=400000000)
srv_pid=
stop_srv() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null && wait "$srv_pid" 2>/dev/null; srv_pid=; }
trap 'stop_srv; cleanup_work' EXIT
# serve NAME TIMED: nbdkit on $S/NAME.sock over $S/NAME.img
serve() {
	rm -f "$S/$1.sock"
	nbdkit -f --exit-with-parent -U "$S/$1.sock" "$SO" file="$S/$1.img" counters="$S/$1.cnt" \
		"${PARAMS[@]}" timed="$2" 2>"$S/$1.err" &
	srv_pid=$!
	for _ in $(seq 200); do [ -S "$S/$1.sock" ] && return 0; sleep 0.05; done
	return 1
}
uri() { echo "nbd+unix:///?socket=$S/$1.sock"; }
# counter N of a counters file: 8-byte fields after magic and seq (3: requests,
# 5: host bytes written, 7: pages programmed, 13: busy ns)
counter() { od -A n -t u8 -j $((8 * $2)) -N 8 "$1" | tr -d ' '; }

truncate -s 64M "$S/a.img"
head -c 24M /dev/urandom >"$WORK/data"
if serve a 0; then
	nbdcopy "$WORK/data" "$(uri a)"; rc1=$?
	nbdcopy "$(uri a)" "$WORK/back"; rc2=$?
	check "what is read back is what was written (nbdcopy rc $rc1/$rc2)" \
		sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && head -c 24M '$WORK/back' | cmp -s - '$WORK/data'"
	check "the image holds the data (the model stores nothing itself)" \
		sh -c "head -c 24M '$S/a.img' | cmp -s - '$WORK/data'"
	check "the counters file is the model's (magic fsbflsh1) and counts the 24 MiB written" \
		sh -c "[ \"\$(head -c 8 '$S/a.cnt')\" = fsbflsh1 ] && [ \"$(counter "$S/a.cnt" 5)\" -eq 25165824 ]"
	check "in whole 16 KiB pages (1536 programmed)" [ "$(counter "$S/a.cnt" 7)" -eq 1536 ]
	stop_srv
else
	not_ok "nbdkit serves the plugin" "$(cat "$S/a.err")"
fi

# Timed: each request ends no sooner than the model says, so the copy
# takes at least the model's busy time (more on a loaded machine, never
# less: the bug, a request answered before its time).
truncate -s 64M "$S/b.img"
if serve b 1; then
	t0=$(date +%s%N)
	nbdcopy "$WORK/data" "$(uri b)"
	t1=$(date +%s%N)
	busy=$(counter "$S/b.cnt" 13)
	check "a timed copy takes at least the model's busy time ($(( (t1 - t0) / 1000000 )) ms >= $((busy / 1000000)) ms)" \
		[ $((t1 - t0)) -ge "$busy" ]
	check "and that time is the medium's (24 MiB at 16 KiB per 500 us: over 0.7 s)" [ "$busy" -gt 700000000 ]
	stop_srv
else
	not_ok "nbdkit serves the plugin (timed)" "$(cat "$S/b.err")"
fi

# A volatile buffer of 8 MiB (issue 71): the writes that fit are
# acknowledged before the medium has done their work, which it still
# holds when the copy ends (counter 14: bytes buffered).  The bug: a
# buffer that never fills or never holds anything (test_flash has the
# figures).
truncate -s 64M "$S/e.img"
PARAMS+=(buffer=8388608)
if serve e 0; then
	nbdcopy "$WORK/data" "$(uri e)"
	held=$(counter "$S/e.cnt" 14)
	check "a buffered key still holds work when the copy ends ($held bytes, at most 8 MiB)" \
		sh -c "[ $held -gt 0 ] && [ $held -le 8388608 ]"
	stop_srv
else
	not_ok "nbdkit serves the plugin (buffered)" "$(cat "$S/e.err")"
fi
unset 'PARAMS[-1]'

# Never through a link, never over a file that exists.
ln -s "$S/a.img" "$S/c.img"
serve c 0; rc=$?
check "an image that is a symlink is refused (nbdkit does not start)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'not a regular file' '$S/c.err'"
stop_srv
truncate -s 64M "$S/d.img"
echo keep >"$S/d.cnt"
serve d 0; rc=$?
check "a counters file that exists is refused, and left as it was" \
	sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$S/d.cnt')\" = keep ]"
stop_srv

# run --medium: refusals before anything is made
FSB run fsmark --medium usb9-key --fs ext4 --db "$DB" >"$WORK/e1.txt" 2>&1; rc=$?
check "an unknown medium is refused, naming the profiles (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'usb2-key, usb3-key, sd-class4, sd-a1' '$WORK/e1.txt'"
FSB run fsmark --medium usb3-key --device /dev/null --fs ext4 --db "$DB" >"$WORK/e2.txt" 2>&1; rc=$?
check "--medium with --device is refused (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'one medium a run' '$WORK/e2.txt'"
printf '[medium]\nopen_units = 2\nunit = 5000\n' >"$WORK/bad.medium"
FSB run fsmark --medium "$WORK/bad.medium" --fs ext4 --db "$DB" >"$WORK/e3.txt" 2>&1; rc=$?
check "a medium file with a unit of no whole pages is refused, with its reason (rc $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'whole number of pages' '$WORK/e3.txt'"
printf '[medium]\nopen_units = 0\n' >"$WORK/bad2.medium"
FSB run fsmark --medium "$WORK/bad2.medium" --fs ext4 --db "$DB" >"$WORK/e4.txt" 2>&1; rc=$?
check "a bad value says its line (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'line 2' '$WORK/e4.txt'"
FSB run fsmark --medium usb3-key --fs ext4 --force-format --db "$DB" >"$WORK/e5.txt" 2>&1; rc=$?
check "--force-format with a model is refused (rc $rc)" [ "$rc" -eq 2 ]

# probe-flash: the round trip on the model (its own time), then a device
FSB probe-flash --model usb3-key -o "$WORK/probed.medium" >"$WORK/p1.txt" 2>&1; rc=$?
check "probing the modelled usb3-key finds its page, unit and open units (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'page 16 KiB, unit 4096 KiB, 4 open units: found' '$WORK/p1.txt'"
check "and writes them as a medium file" \
	sh -c "grep -q '^page = 16k' '$WORK/probed.medium' && grep -q '^unit = 4096k' '$WORK/probed.medium' &&
	       grep -q '^open_units = 4' '$WORK/probed.medium'"
FSB probe-flash --model "$WORK/probed.medium" >"$WORK/p2.txt" 2>&1; rc=$?
check "which run --medium takes, and probes to the same figures (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q ': found' '$WORK/p2.txt'"
FSB probe-flash --model usb3-key -o "$WORK/probed.medium" >"$WORK/p3.txt" 2>&1; rc=$?
check "--output never writes over a file (rc $rc)" sh -c "[ $rc -ne 0 ] && grep -q '^page = 16k' '$WORK/probed.medium'"
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ]; then
	truncate -s 700M "$WORK/key.img"
	dd if=/dev/urandom of="$WORK/key.img" bs=1M seek=608 count=92 conv=notrunc status=none
	K=$(losetup -f --show "$WORK/key.img")
	tail_sum() { dd if="$K" bs=1M skip=608 status=none | sha256sum | cut -d' ' -f1; }
	FSB probe-flash "$K" >"$WORK/p4.txt" 2>&1; rc=$?
	check "reading a device alone: its page and read rate, nothing written (rc $rc)" \
		sh -c "[ $rc -eq 0 ] && grep -q 'not measured (they need writes: --write)' '$WORK/p4.txt'"
	mkfs.ext4 -q -F "$K"
	before=$(tail_sum)	# (mkfs wrote the whole device: the probe is held to what follows)
	FSB probe-flash "$K" --write >"$WORK/p5.txt" 2>&1; rc=$?
	check "--write on a device that holds a filesystem is refused (rc $rc)" \
		sh -c "[ $rc -eq 2 ] && blkid -p '$K' | grep -q ext4"
	FSB probe-flash "$K" --write --force-format --region 608M >"$WORK/p6.txt" 2>&1; rc=$?
	check "--write --force-format probes within its region (rc $rc)" \
		sh -c "[ $rc -eq 0 ] && grep -q 'open units:' '$WORK/p6.txt'"
	check "nothing past the region was written (sha256 of the last 92 MiB)" [ "$(tail_sum)" = "$before" ]
	FSB probe-flash "$K" --write --force-format --region 1G >"$WORK/p7.txt" 2>&1; rc=$?
	check "a region past the device's end is refused (rc $rc)" [ "$rc" -eq 2 ]
	losetup -d "$K"
else
	skip "probe-flash on a device" "needs root and loop devices"
fi

# The model on this host (no guest: the host's kernel has ext4 and xfs):
# nbdkit, nbdfuse and a loop device with direct I/O.  The bugs: writes
# that the page cache took before the model saw them (no wear counted), a
# reset that never reached the model, or a FUSE mount, loop device, server
# or directory left behind, after the run or after a SIGKILL.
if [ "$(id -u)" -eq 0 ] && [ -e /dev/fuse ] && command -v nbdfuse >/dev/null; then
	H=$WORK/host
	mkdir -p "$H"
	nothing_here() {
		for _ in $(seq 100); do	# loop devices detach asynchronously
			! grep -q "$H" /proc/mounts && ! losetup -a | grep -q "$H" && break
			sleep 0.1
		done
		! grep -q "$H" /proc/mounts && ! losetup -a | grep -q "$H" &&
			! pgrep -f "[n]bd(kit|fuse).*$H" >/dev/null && [ -z "$(ls -A "$H")" ] &&
			[ "$(awk 'NR > 1' "$FSBENCH_STATE" | wc -l)" -eq 0 ]
	}
	FSB run "fsmark:files=100,size=64k" --fs ext4,xfs --medium usb3-key --device-size 320M \
		--device-settle 0 --runs 2 --image-dir "$H" --db "$DB" --json "$WORK/h.json" >"$WORK/h.txt" 2>&1
	rc=$?
	check "--medium on this host: ext4 and xfs run on the model, no guest (rc $rc)" \
		sh -c "[ $rc -eq 0 ] && ! grep -q 'goes to fsbench.s guest' '$WORK/h.txt'"
	check "... the system table says how it was served, and the region" \
		jqt '.system.Medium | test("^modelled medium: usb3-key") and test("to this host.s kernel through nbdfuse")
		     and test("the first 320M of 8G") and test("reset before each mkfs: discard;")' "$WORK/h.json"
	check "... the region's discard reached the model (it was not refused)" \
		sh -c "! grep -q 'takes no discard' '$WORK/h.txt'"
	check "... every write reached the model: its wear for both (medium write amplification >= 1)" \
		jqt '[.tests[0].device[] | select(.name == "medium_write_amp") | .results[] | .mean >= 1] == [true, true]' "$WORK/h.json"
	check "... and nothing of it is left (mount, loop devices, nbdkit, nbdfuse, files, state)" nothing_here
	"$FSBENCH" run "fsmark:files=2000,size=64k" --fs ext4 --medium usb3-key --device-size 256M \
		--runs 5 --image-dir "$H" --db "$DB" -q >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 300); do losetup -a | grep -q "$H.*/key" && break; sleep 0.1; done
	check "the model's loop device is there while the run is" sh -c "losetup -a | grep -q '$H.*/key'"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	FSB cleanup >"$WORK/hclean.txt" 2>&1
	check "SIGKILL, then cleanup: nothing of the model on this host is left" nothing_here
	# Aging on the modelled key (issue 71's "everything else works on it"):
	# the filesystem aged in the key's region after each mkfs, through the
	# model's timing, and the aging record stored (on this host, whose kernel
	# has ext4: the model comes here through nbdfuse).
	cp "${FSBENCH_FIXTURES:-$(dirname "$0")/../fixtures}/small.age" "$WORK/small.age"
	FSB run fsmark:files=20,size=16k --fs ext4 --medium usb3-key --device-size 64M --device-settle 0 \
		--age "$WORK/small.age" --runs 1 --image-dir "$H" --db "$DB" \
		--json "$WORK/age.json" >"$WORK/age.txt" 2>&1
	rc=$?
	check "aging on a modelled key runs (rc $rc)" [ "$rc" -eq 0 ]
	check "... the filesystem in the key's 64 MiB region was aged to its fill, and it is recorded" \
		jqt '.targets[0].aging.profile == "small" and .targets[0].aging.capacity == 67108864
		     and .targets[0].aging.fullness > 0.4 and .targets[0].aging.written > 0' "$WORK/age.json"
	check "... on the modelled medium, as the system table says" \
		jqt '.system.Medium | test("^modelled medium: usb3-key") and test("the first 64M of 8G")' "$WORK/age.json"
	check "... and nothing of it is left" nothing_here
else
	skip "the model on this host" "needs root, /dev/fuse and nbdfuse"
fi

need_guest "the modelled medium in the guest"
IMG=$WORK/img
mkdir -p "$IMG"
FSB run "fsmark:files=20,size=16k" --fs ext4,f2fs --medium usb3-key --device-size 256M \
	--device-settle 0 --vm-accel tcg --runs 2 --image-dir "$IMG" --db "$DB" \
	--json "$WORK/g.json" >"$WORK/g.txt" 2>&1
rc=$?
check "ext4 and F2FS on the modelled usb3-key exit 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/g.txt" | tail -20
check "the run said why it went to the guest (F2FS is not in this kernel)" \
	grep -q "f2fs.*the model is served to fsbench's guest as a USB key, and the run goes there" "$WORK/g.txt"
check "each has its 2 runs" jqt '[.tests[0].samples | group_by(.target)[] | length] == [2, 2]' "$WORK/g.json"
check "the system table says modelled, which medium, how it was served, the region and the discard" \
	jqt '.system.Medium | test("^modelled medium: usb3-key \\(not a device") and test("served by nbdkit")
		and test("the first 256M of 8G") and test("reset before each mkfs: discard;")' "$WORK/g.json"
check "every chart's subtitle says the medium is modelled" \
	jqt '[.tests[].subtitle | test("modelled medium: usb3-key")] | all' "$WORK/g.json"
check "the device table has the medium's write amplification (above 1) and merges for both" \
	jqt '[.tests[0].device[] | select(.name == "medium_write_amp") | .results[] | .mean > 1] == [true, true]
	     and ([.tests[0].device[] | select(.name == "medium_busy") | .results[] | .mean > 0] == [true, true])' "$WORK/g.json"
check "no nbdkit of this test survives, nothing left in the state file" \
	sh -c "[ -z \"\$(pgrep -f '[n]bdkit.*$IMG' || true)\" ] && [ \"\$(awk 'NR > 1' '$FSBENCH_STATE' | wc -l)\" -eq 0 ]"

# A power cut on a key with a volatile buffer (issue 71): the medium file's
# buffer reaches the guest's powercut by itself, which loses what fsync
# promised.  The bug: the model's buffer not handed to the guest, so the
# cut is the host's (flushes honoured) and nothing is lost.
printf '[medium]\ncapacity = 1g\nbuffer = 64k\n' >"$WORK/buffered.medium"
FSB run powercut:files=30,size=8k,points=4,device=64M --fs ext4 --medium "$WORK/buffered.medium" \
	--device-size 512M --device-settle 0 --vm-accel tcg --runs 1 --image-dir "$IMG" --db "$DB" \
	--json "$WORK/pc.json" >"$WORK/pc.txt" 2>&1
rc=$?
check "powercut on a modelled key with a 64 KiB buffer runs (rc $rc)" [ "$rc" -eq 0 ]
check "... its cuts lose the buffer, and with it files fsync promised" \
	jqt '(.tests[0].samples[0].detail | test("volatile buffer: its last 64k of writes lost"))
	     and ([.tests[0].metrics[] | select(.name == "promised_lost") | .results[0].mean][0] > 0)' "$WORK/pc.json"
check "... and the system table names the buffer" jqt '.system.Medium | test("64k volatile buffer")' "$WORK/pc.json"

# SIGKILL while the guest runs: the server ends with fsbench (it was
# started --exit-with-parent) and cleanup finds nothing of it to undo.
"$FSBENCH" run "fsmark:files=20,size=16k" --fs ext4 --medium usb3-key --device-size 256M \
	--vm --vm-accel tcg --runs 2 --image-dir "$IMG" --db "$DB" -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do pgrep -f "[n]bdkit.*$IMG" >/dev/null && break; sleep 0.1; done
check "the server runs while the run does" sh -c "pgrep -f '[n]bdkit.*$IMG' >/dev/null"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 100); do pgrep -f "[n]bdkit.*$IMG" >/dev/null || break; sleep 0.1; done
check "SIGKILL of fsbench: its server ends too" sh -c "! pgrep -f '[n]bdkit.*$IMG'"
FSB cleanup >"$WORK/clean.txt" 2>&1
check "cleanup leaves nothing of the run under the image directory" sh -c "[ -z \"\$(ls -A '$IMG')\" ]"
finish
