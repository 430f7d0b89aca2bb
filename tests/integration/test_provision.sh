# test_provision.sh: fsbench makes, mounts and removes real filesystems
# (root only): a tiny suite on every filesystem this machine offers, and
# afterwards nothing of fsbench's in `losetup -a`, /proc/mounts or the
# image directory -- also after SIGINT, and after SIGKILL + `fsbench
# cleanup`.  Plus the refusals: a device holding a filesystem, non-root,
# an unavailable filesystem, a failing mkfs, an image too large.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "provisioning" "needs root (mkfs, loop devices, mount)"
	finish
	exit 0
fi

IMG=$WORK/img
mkdir -p "$IMG"
export FSBENCH_STATE=$WORK/state
P=(--image-dir "$IMG" --fs-size 512M --db "$DB")

# Nothing of ours mounted, attached or left in the image directory.
no_leftovers() {
	local i
	for i in $(seq 200); do	# loop devices detach asynchronously (later on a busy machine)
		losetup -a | grep -q "$IMG" || break
		sleep 0.1
	done
	! losetup -a | grep -q "$IMG" && ! grep -q "$IMG" /proc/mounts &&
		[ -z "$(ls -A "$IMG")" ]
}

check "list fs exits 0" sh -c "\"$FSBENCH\" list fs >/dev/null"
if ! grep -qw f2fs /proc/filesystems; then
	check "list fs says why f2fs is missing" sh -c "\"$FSBENCH\" list fs | grep -q '^f2fs .*no: kernel has no f2fs'"
fi
check "list fs: ubifs needs flash" sh -c "\"$FSBENCH\" list fs | grep -q '^ubifs .*MTD'"

cat > "$WORK/tiny.suite" <<'EOF'
[suite]
name = tiny
runs = 2
[test fsmark-small]
workload = fsmark
files = 40
size = 16k
[test fsmark-threads]
workload = fsmark
files = 20
size = 4k
threads = 2
[test not-yet]
workload = nosuchworkload
EOF

want=()
for fs in ext4 xfs btrfs btrfs:compress=zstd exfat-fuse ext4-fuse tmpfs; do
	if "$FSBENCH" list fs | grep -q "^${fs%%:*} .* yes "; then
		want+=("$fs")
	else
		skip "provision $fs" "not available on this machine"
	fi
done
list=$(IFS=,; echo "${want[*]}")
"$FSBENCH" run --suite "$WORK/tiny.suite" --fs "$list" "${P[@]}" --runs 2 --json "$WORK/p.json" \
	>"$WORK/out" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "suite on $list exits 0"
else
	not_ok "suite on $list exits 0 (got $rc)" "fsbench said: $(grep -v '^$' "$WORK/err" | tail -5 | tr '\n' '|')"
fi
check "skipped test is named" grep -q "skipping not-yet" "$WORK/err"
check "nothing left after the run" no_leftovers
j=$WORK/p.json
check "every filesystem is a target" jqt "[.targets[].label] == $(printf '%s\n' "${want[@]}" | jq -R . | jq -sc .)" "$j"
check "2 samples per target per test" jqt '[.tests[].metrics[0].results[].samples | length] | all(. == 2)' "$j"
check "mkfs command recorded" jqt '.targets[] | select(.label == "ext4") | .mkfs | startswith("mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard /dev/loop")' "$j"
check "kernel fs type read back" jqt '.targets[] | select(.label == "xfs") | .fstype == "xfs"' "$j"
if printf '%s\n' "${want[@]}" | grep -q compress=zstd; then
	check "mount options read back" jqt '.targets[] | select(.label == "btrfs:compress=zstd") | .mount_options | test("compress=zstd")' "$j"
fi
if printf '%s\n' "${want[@]}" | grep -qx exfat-fuse; then
	check "FUSE block fs mounted" jqt '.targets[] | select(.label == "exfat-fuse") | .fstype == "fuseblk"' "$j"
fi
if printf '%s\n' "${want[@]}" | grep -qx ext4-fuse; then
	check "FUSE subtype named" jqt '.targets[] | select(.label == "ext4-fuse") | .fstype == "ext4 (FUSE)"' "$j"
fi
check "loop device uses direct I/O" jqt '.targets[] | select(.label == "ext4") | .disk | test("direct-io")' "$j"
# the medium said on the target's line, or once above them all when every
# target shares one alike; the loop device (gone after the run) left out
check "text report shows mkfs" sh -c "tr '\\n' ' ' < '$WORK/out' | tr -s ' ' |
	grep -Eq '(Each on [0-9.]+[KMGT]?B loop \\(direct-io.*)?xfs: xfs( on [0-9.]+[KMGT]?B loop \\(direct-io[^)]*\\))?, mkfs\\.xfs -q -f -K( [^/]|$)'"

# Interrupted runs leave nothing behind.
start_long() {
	"$FSBENCH" run fsmark:files=20000,size=16k,sync=0 --fs ext4,exfat-fuse "${P[@]}" \
		--runs 1 --no-drop-caches -q >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	for _ in $(seq 100); do
		[ -n "$(find "$IMG" -path '*/mnt/fsbench.*' -type f 2>/dev/null | head -1)" ] && break
		sleep 0.1
	done
}
start_long
kill -INT "$pid"; wait "$pid"; rc=$?
check "SIGINT: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "SIGINT: nothing left" no_leftovers

start_long
kill -KILL "$pid"; wait "$pid" 2>/dev/null
sleep 0.2
check "SIGKILL: mounts are left behind" grep -q "$IMG" /proc/mounts
"$FSBENCH" run fsmark:files=5 --target "$WORK" --runs 1 --db "$DB" -q 2>"$WORK/err" >/dev/null
check "next run warns about leftovers" grep -q "fsbench cleanup" "$WORK/err"
"$FSBENCH" cleanup >"$WORK/out" 2>&1; rc=$?
check "cleanup exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "cleanup says what it removed" grep -q "^removed mount" "$WORK/out"
check "SIGKILL + cleanup: nothing left" no_leftovers
check "cleanup again: nothing to do" sh -c "\"$FSBENCH\" cleanup | grep -q 'nothing to clean up'"

# A device that holds a filesystem is refused unless --force-format.
# (--device takes a region, not an image size: no --fs-size.)
D=(--image-dir "$IMG" --db "$DB" --device-settle 0)
truncate -s 256M "$WORK/dev.img"
mkfs.ext4 -q -F -L keepme "$WORK/dev.img"
dev=$(losetup -f --show "$WORK/dev.img")
"$FSBENCH" run fsmark:files=5 --fs ext4 --device "$dev" "${D[@]}" >"$WORK/out" 2>"$WORK/err"; rc=$?
check "device with ext4 refused (rc $rc)" [ "$rc" -ne 0 ]
check "refusal names what would be destroyed" grep -q "holds a ext4 filesystem labelled 'keepme'" "$WORK/err"
check "refusal says how to override" grep -q -- "--force-format" "$WORK/err"
check "device untouched" sh -c "blkid -o value -s LABEL '$dev' | grep -qx keepme"
mkdir -p "$WORK/m" && mount "$dev" "$WORK/m"
"$FSBENCH" run fsmark:files=5 --fs ext4 --device "$dev" --force-format "${D[@]}" 2>"$WORK/err" >/dev/null; rc=$?
check "mounted device refused even with --force-format" sh -c "[ $rc -ne 0 ] && grep -q 'is mounted on' '$WORK/err'"
umount "$WORK/m"
"$FSBENCH" run fsmark:files=5 --fs ext4 --device "$dev" --force-format --runs 1 "${D[@]}" -q 2>"$WORK/err"; rc=$?
check "--force-format formats and runs (rc $rc)" [ "$rc" -eq 0 ]
check "device was reformatted" sh -c "! blkid -o value -s LABEL '$dev' | grep -qx keepme"
losetup -d "$dev"
check "device run left nothing" no_leftovers

# Refusals that leave nothing behind.
expect_fail() {	# what, expected text, args...
	local what=$1 text=$2; shift 2
	"$@" >"$WORK/o" 2>"$WORK/e"; local rc=$?
	if [ "$rc" -ne 0 ] && grep -q -- "$text" "$WORK/e" && no_leftovers; then
		ok "$what"
	else
		not_ok "$what" "rc=$rc: $(cat "$WORK/e")"
	fi
}
if ! grep -qw f2fs /proc/filesystems; then
	expect_fail "unavailable filesystem" "kernel has no f2fs" "$FSBENCH" run fsmark --fs f2fs "${P[@]}"
fi
expect_fail "mkfs failure shows the tool's message" "mkfs.ext4 failed: Invalid filesystem option set: no_such_feature" \
	"$FSBENCH" run fsmark --fs "ext4:mkfs=-O no_such_feature" "${P[@]}"
expect_fail "image larger than free space" "does not fit" \
	"$FSBENCH" run fsmark --fs ext4 --image-dir "$IMG" --fs-size 900T --db "$DB"
expect_fail "unknown filesystem" "unknown filesystem 'zfsx'" "$FSBENCH" run fsmark --fs zfsx "${P[@]}"
expect_fail "--device that is no block device" "is not a block device" \
	"$FSBENCH" run fsmark --fs ext4,xfs --device /dev/null --image-dir "$IMG" --db "$DB"
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	# A copy of the binary in a directory nobody can enter, wherever the
	# checkout lives (a clone under a 0700 directory is not reachable).
	open=$(mktemp -d /tmp/fsbench-nobody.XXXXXX); chmod 777 "$open"
	cp "$FSBENCH" "$open/fsbench" && chmod 755 "$open/fsbench"
	expect_fail "non-root asking for mkfs" "needs root" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$open" \
		FSBENCH_STATE="$open/state" "$open/fsbench" run fsmark --fs ext4 --db "$open/r.db" --image-dir "$open"
	rm -rf "$open"
else
	skip "non-root refusal" "no setpriv or no user nobody"
fi

# --ram: the run is limited, says so, and its cgroup goes away.
"$FSBENCH" run fsmark:files=20,size=1M --fs ext4 --ram 128M --runs 1 "${P[@]}" >"$WORK/out" 2>"$WORK/err" &
ram_pid=$!
# its cgroup, as its state file names it while it runs (the whole run:
# mkfs, mount, the test), so that no other fsbench's is taken for it
cg=
while [ -z "$cg" ] && kill -0 $ram_pid 2>/dev/null; do
	cg=$(awk '$3 == "cgroup" { print $4 }' "$FSBENCH_STATE" 2>/dev/null)
	[ -n "$cg" ] || sleep 0.05
done
wait $ram_pid; rc=$?
if grep -q "no usable memory cgroup" "$WORK/err"; then
	check "--ram refuses without a memory cgroup" [ "$rc" -ne 0 ]
else
	check "--ram run exits 0 (rc $rc)" [ "$rc" -eq 0 ]
	check "--ram recorded in the system table" grep -q "Memory Limit: 128M (cgroup" "$WORK/out"
	# its own (fsbench.PID.RANDOM): another fsbench on the machine may
	# have one, and in a PID namespace of its own the same pid
	check "--ram cgroup named fsbench.PID.RANDOM ($cg)" \
		sh -c "case '$cg' in /sys/fs/cgroup/*/fsbench.$ram_pid.????????|/sys/fs/cgroup/fsbench.$ram_pid.????????) ;; *) exit 1 ;; esac"
	check "--ram cgroup removed" [ ! -e "$cg" ]
fi
check "--ram run left nothing" no_leftovers
# A copy of the mount in another mount namespace (a process started with
# unshare while the filesystem was mounted) keeps the filesystem alive
# after fsbench unmounts it for the next test's fresh one: fsbench says
# so, not mkfs's bare "apparently in use by the system" (issue 37's first
# bench failed 14 of 15 tests with that, beside a make test).  The copy
# is made while the run is stopped right after its first mount.
if command -v unshare >/dev/null && unshare --mount --propagation private true 2>/dev/null; then
	FSBENCH_TEST_PAUSE=mount "$FSBENCH" run fsmark:files=5,size=4k fsmark:files=6,size=4k --fs ext4 \
		--runs 1 "${P[@]}" >/dev/null 2>"$WORK/err" &
	pin_run=$!
	if wait_stopped $pin_run; then
		unshare --mount --propagation private sleep 60 &
		pinner=$!
		# the copy exists once the pinner runs sleep (its own mounts)
		for _ in $(seq 200); do
			[ "$(readlink /proc/$pinner/ns/mnt 2>/dev/null)" != "$(readlink /proc/self/ns/mnt)" ] &&
				grep -q " $IMG/" /proc/$pinner/mounts 2>/dev/null && break
			sleep 0.05
		done
		kill -CONT $pin_run
		wait $pin_run
		check "a copy of the mount elsewhere: the fresh filesystem is refused, saying why" \
			grep -q "still in use after its filesystem was unmounted.*another mount namespace" "$WORK/err"
		check "... not mkfs's bare refusal" sh -c "! grep -q 'apparently in use' '$WORK/err'"
		kill $pinner 2>/dev/null
		wait $pinner 2>/dev/null
		# (the loop device goes once the copy does: no_leftovers waits)
		check "... and once the copy is gone, nothing of the run is left" no_leftovers
	else
		wait $pin_run
		not_ok "pinned mount: the run never reached its first mount" "$(head -c 300 "$WORK/err")"
	fi
	# tests/sandbox, where every suite runs, lets go of such copies: a
	# suite started while another program's filesystem is mounted does not
	# keep it alive after that program unmounts it.
	pimg=$WORK/pin.img pm=$WORK/pinmnt
	truncate -s 64M "$pimg" && mkfs.ext4 -q -F "$pimg" && mkdir -p "$pm" &&
		ploop=$(losetup -f --show "$pimg") && mount "$ploop" "$pm"
	if mountpoint -q "$pm"; then
		FSBENCH_TEST_HOST_NS=$(readlink /proc/self/ns/mnt) unshare --mount --propagation private -- \
			"$(dirname "$0")/../sandbox" "$WORK/pin.left" \
			sh -c "touch '$WORK/pin.started'; while [ ! -e '$WORK/pin.done' ]; do sleep 0.1; done" &
		suite=$!
		for _ in $(seq 200); do [ -e "$WORK/pin.started" ] && break; sleep 0.05; done
		umount "$pm"
		check "a suite's sandbox does not pin another program's filesystem (mkfs after its unmount)" \
			mkfs.ext4 -q -F "$ploop"
		touch "$WORK/pin.done"
		wait $suite
	else
		not_ok "sandbox: could not mount a decoy filesystem"
	fi
	mountpoint -q "$pm" 2>/dev/null && umount "$pm"
	[ -n "${ploop:-}" ] && losetup -d "$ploop"
else
	skip "a copy of the mount in another namespace" "unshare --mount does not work here"
fi
finish
