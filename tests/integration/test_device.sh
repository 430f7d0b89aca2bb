# test_device.sh: the device group (issue 16) on real filesystems (root):
# known cases of write amplification, btrfs compression read from its
# extent tree, and "n/a" with the reason where there is no block device;
# the group in JSON, text, Markdown and HTML.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "device group" "needs root (mkfs, loop devices, mount)"
	finish
	exit 0
fi

IMG=$WORK/img
mkdir -p "$IMG"
export FSBENCH_STATE=$WORK/state
fss=ext4,tmpfs
has_btrfs=0
if "$FSBENCH" list fs | grep -q "^btrfs-zstd .* yes "; then
	fss=ext4,btrfs-zstd,tmpfs
	has_btrfs=1
else
	skip "btrfs compression" "btrfs is not available on this machine"
fi

# O_DIRECT writes of 64 MiB; fs_mark's fsync per small file (zero data);
# io's random data (laid out by writing it, as a read job needs).
FSB run "io:rw=write,bs=1M,size=64M,direct=1" "fsmark:files=200,size=64k" \
	"io:rw=read,bs=64k,size=32M" "io:rw=randwrite,bs=4k,size=16M" --fs "$fss" --fs-size 1G --image-dir "$IMG" --runs 2 \
	--db "$DB" --json "$WORK/r.json" -q >"$WORK/out.txt" 2>&1
rc=$?
check "a run on ext4${has_btrfs:+, btrfs-zstd} and tmpfs exits 0 (rc $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/out.txt"

# value TEST TARGET METRIC: the mean of a device metric in the JSON
value() {
	jq -r --arg t "$1" --arg g "$2" --arg m "$3" '.tests[] | select(.name == $t) | .device[] |
		select(.name == $m) | .results[] | select(.target == $g) | .mean' "$WORK/r.json"
}
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "null" && v >= lo && v <= hi) }'; }

wa=$(value "io:rw=write,bs=1M,size=64M,direct=1" ext4 write_amp)
check "64 MiB O_DIRECT on ext4: write amplification near 1 (0.98..1.15, got $wa)" in_range "$wa" 0.98 1.15
w=$(value "io:rw=write,bs=1M,size=64M,direct=1" ext4 dev_written)
check "64 MiB O_DIRECT on ext4: the loop device wrote 64..74 MiB (got $w)" in_range "$w" 64 74
aw=$(value "io:rw=write,bs=1M,size=64M,direct=1" ext4 app_written)
check "the workload's own bytes: 64 MiB (got $aw)" in_range "$aw" 64 64
wa=$(value "fsmark:files=200,size=64k" ext4 write_amp)
check "fsync per 64 KiB file on ext4: write amplification above 1 (got $wa)" in_range "$wa" 1.01 100
sp=$(value "fsmark:files=200,size=64k" ext4 space_used)
check "fs_mark's files measured before it unlinks them: 12.5 MiB on ext4 (got $sp)" in_range "$sp" 12.4 13
fl=$(value "fsmark:files=200,size=64k" ext4 dev_flushes)
check "fsync per file sends flushes to the device (got $fl)" in_range "$fl" 100 100000
if [ "$has_btrfs" = 1 ]; then
	c=$(value "fsmark:files=200,size=64k" btrfs-zstd compression)
	check "btrfs compress=zstd on zero-filled files: compression above 10 (got $c)" in_range "$c" 10 1000
	c=$(value "io:rw=read,bs=64k,size=32M" btrfs-zstd compression)
	check "btrfs compress=zstd on fsbench's random data: compression ~1.0 (got $c)" in_range "$c" 0.97 1.03
	sp=$(value "io:rw=randwrite,bs=4k,size=16M" btrfs-zstd space_used)
	check "btrfs after 4k random overwrites: each disk extent counted once (16..40 MiB, got $sp)" \
		in_range "$sp" 16 40
	z=$(value "io:rw=read,bs=64k,size=32M" btrfs-zstd data_zstd)
	check "the random data's own zstd ratio ~1.0 (got $z)" in_range "$z" 0.97 1.03
fi
ra=$(value "io:rw=read,bs=64k,size=32M" ext4 read_amp)
check "reading 32 MiB after the cache was dropped: read amplification 0.98..1.5 (got $ra)" in_range "$ra" 0.98 1.5

check "tmpfs: no device figure" sh -c "[ \"\$(jq '[.tests[].device[] | select(.name | test(\"^dev_|_amp\$\")) | .results[] | select(.target == \"tmpfs\" and .n > 0)] | length' '$WORK/r.json')\" -eq 0 ]"
check "tmpfs: the reason is stored with the target" \
	jqt '.targets[] | select(.label == "tmpfs") | .device_note | test("memory: no block device")' "$WORK/r.json"
check "ext4: its loop device is named" \
	jqt '.targets[] | select(.label == "ext4") | .block_device | test("^loop[0-9]+$")' "$WORK/r.json"

# the device tables are detail: show --all, not the default view (issue 68)
FSB show last --db "$DB" > "$WORK/brief.txt" 2>&1
check "text: no device table by default" sh -c "! grep -q ': device, means per run' '$WORK/brief.txt'"
FSB show last --db "$DB" --all > "$WORK/show.txt" 2>&1
check "text: a device table per test" [ "$(grep -c ': device, means per run' "$WORK/show.txt")" -eq 4 ]
check "text: tmpfs says n/a and why" grep -q 'tmpfs: tmpfs keeps its data in memory: no block device' "$WORK/show.txt"
check "text: the device tables fit 80 columns" \
	sh -c "! awk '/: device, means per run/ { on = 1 } /^\$/ { on = 0 } on && length > 80' '$WORK/show.txt' | grep -q ."
FSB show last --db "$DB" -f markdown > "$WORK/show.md" 2>&1
check "Markdown: a device table per test" [ "$(grep -c '^| target | Written MiB |' "$WORK/show.md")" -eq 4 ]
FSB show last --db "$DB" -f html > "$WORK/show.html" 2>&1
check "HTML: a write amplification chart per test that wrote (3 of 4)" \
	[ "$(grep -o 'class="chart wide"[^>]*data-metric="write_amp"' "$WORK/show.html" | wc -l)" -eq 3 ]
check "HTML: well-formed" xmllint --noout "$WORK/show.html"
# a measure per row, a target per column (14 measures side by side made a
# page wider than a laptop's), tmpfs's n/a with its reason under the table
check "HTML: the device table has a row per measure, a column per target" \
	grep -q '<table class="device"><tr><th>measure</th><th>ext4</th>\(<th>[^<]*</th>\)*<th>tmpfs</th></tr>' "$WORK/show.html"
check "HTML: tmpfs n/a, and why, under the device table" \
	grep -q '<p class="sub">n/a on tmpfs: tmpfs keeps its data in memory' "$WORK/show.html"

check "nothing left mounted or attached" sh -c "! grep -q '$IMG' /proc/mounts && ! losetup -a | grep -q '$IMG'"
finish
