# test_safety.sh: fsbench as a hostile or careless user would try it.  One
# regression test per defect of issue 12 (each failed before its fix), in
# a hostile environment: paths with spaces, quotes, newlines and non-ASCII;
# symlinks planted in world-writable directories; foreign and read-only
# databases; decoy mounts and loop devices beside fsbench's own.
. "$(dirname "$0")/lib.sh"

export FSBENCH_STATE=$WORK/state/state
root=0; [ "$(id -u)" -eq 0 ] && root=1

# refuse WHAT CODE TEXT CMD...: exits CODE, one line naming TEXT, no abort.
refuse() {
	local what=$1 code=$2 text=$3; shift 3
	"$@" >"$WORK/o" 2>"$WORK/e"; local rc=$?
	if [ "$rc" -eq "$code" ] && [ "$(wc -l < "$WORK/e")" -eq 1 ] && grep -qF -- "$text" "$WORK/e"; then
		ok "$what"
	else
		not_ok "$what" "rc=$rc (want $code): $(head -c 400 "$WORK/e")"
	fi
}
ones=$(printf '1%.0s' $(seq 200))
T=$WORK/target
mkdir -p "$T"

# 1. A text parameter longer than its field: refused, not a heap overflow.
refuse "#1 bonnie:n= of 200 characters is refused" 2 "text up to 63 characters" \
	"$FSBENCH" run "bonnie:n=$ones" --target "$T" --db "$DB"
mkdir -p "$WORK/suites"
printf '[suite]\nname = long\n[test a]\nworkload = bonnie\nn = %s\n' "$ones" > "$WORK/suites/long.suite"
FSBENCH_SUITES=$WORK/suites "$FSBENCH" list suites >"$WORK/o" 2>&1; rc=$?
check "#1 list suites names a suite with a 200-character n= unreadable (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'unreadable: .*text up to 63' '$WORK/o'"

# 5. No shell: FSBENCH_SUITES with quotes and a command is a directory name.
evil="$WORK/it's; touch $WORK/pwned; '"
mkdir -p "$evil" && cp "$WORK/suites/long.suite" "$evil/"
FSBENCH_SUITES=$evil "$FSBENCH" list suites >"$WORK/o" 2>&1
check "#5 list suites runs no shell (quotes in FSBENCH_SUITES)" \
	sh -c "[ ! -e '$WORK/pwned' ] && grep -q long '$WORK/o'"
check "#5 no popen or system anywhere in src/" \
	sh -c "! grep -rnE '\\b(popen|system)\\(' '$(dirname "$0")/../../src'"

# 3. mkfs= may not name a device or a path.
refuse "#3 --fs btrfs:mkfs=/dev/loop2 is refused" 2 "mkfs= may not name a path" \
	"$FSBENCH" run fsmark --fs 'btrfs:mkfs=/dev/loop2' --db "$DB"
refuse "#3 mkfs= with a relative path is refused" 2 "mkfs= may not name a path" \
	"$FSBENCH" run fsmark --fs 'ext4:mkfs=-d ../etc' --db "$DB"
printf '[suite]\nfilesystems = btrfs:mkfs=/dev/loop2\n[test a]\nworkload = fsmark\n' > "$WORK/dev.suite"
refuse "#3 a suite's filesystems line is checked the same way" 2 "mkfs= may not name a path" \
	"$FSBENCH" run --suite "$WORK/dev.suite" --db "$DB"
refuse "#3 a mount option that mounts something else is refused" 2 "mount option 'loop'" \
	"$FSBENCH" run fsmark --fs 'ext4:loop=/dev/sda' --db "$DB"

# 4 and 15. The store: 0600, foreign databases refused untouched,
# read-only commands create and change nothing.
"$FSBENCH" run fsmark:files=4,size=4k --target "$T" --runs 1 --db "$DB" -q >/dev/null 2>&1
check "#15 the result store is created 0600" [ "$(stat -c %a "$DB")" = 600 ]
if command -v sqlite3 >/dev/null || python3 -c 'import sqlite3' 2>/dev/null; then
	foreign=$WORK/some-app.db
	python3 -c "import sqlite3; c=sqlite3.connect('$foreign'); c.execute('create table notes(x)'); c.commit()"
	sum=$(sha256sum < "$foreign")
	for cmd in "list runs" "show last" "report last" "compare 1 2"; do
		# shellcheck disable=SC2086
		"$FSBENCH" $cmd --db "$foreign" >/dev/null 2>"$WORK/e"; rc=$?
		check "#4 $cmd refuses a foreign database, untouched (rc $rc)" \
			sh -c "[ $rc -ne 0 ] && grep -q 'not an fsbench result store' '$WORK/e' &&
			       [ \"\$(sha256sum < '$foreign')\" = '$sum' ] && [ ! -e '$foreign-wal' ]"
	done
	"$FSBENCH" run fsmark:files=4,size=4k --target "$T" --runs 1 --db "$foreign" -q >/dev/null 2>"$WORK/e"
	check "#4 run refuses to write into a foreign database" \
		sh -c "grep -q 'not an fsbench result store' '$WORK/e' && [ \"\$(sha256sum < '$foreign')\" = '$sum' ]"
fi
for cmd in "list runs" "show last" "report last"; do
	# shellcheck disable=SC2086
	"$FSBENCH" $cmd --db "$WORK/nowhere/new.db" >/dev/null 2>&1
	check "#4 $cmd on a missing store creates nothing" [ ! -e "$WORK/nowhere" ]
done
if [ "$root" = 1 ]; then
	ro=$WORK/ro
	mkdir -p "$ro" && mount -t tmpfs -o size=16m tmpfs "$ro" && cp "$DB" "$ro/r.db" &&
		mount -o remount,ro "$ro"
	"$FSBENCH" show last --db "$ro/r.db" >"$WORK/o" 2>"$WORK/e"; rc=$?
	check "#4 show reads a store on a read-only mount (rc $rc)" \
		sh -c "[ $rc -eq 0 ] && grep -q 'FS-Mark' '$WORK/o'"
	"$FSBENCH" list runs --db "$ro/r.db" >"$WORK/o" 2>&1; rc=$?
	check "#4 list runs reads it too (rc $rc)" [ "$rc" -eq 0 ]
	umount "$ro"
else
	skip "#4 read-only mount" "needs root to mount"
fi

# 6. fsbench io never follows a planted symlink in a shared directory.
shared=$WORK/shared; mkdir -p "$shared"; chmod 1777 "$shared"
victim=$WORK/victim; echo precious > "$victim"
ln -s "$victim" "$shared/job.0.0"
"$FSBENCH" io --name=job --rw=write --size=64k --directory="$shared" >/dev/null 2>"$WORK/e"; rc=$?
check "#6 io refuses a planted symlink and leaves its target alone (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'symbolic link' '$WORK/e' && [ \"\$(cat '$victim')\" = precious ]"
rm -f "$shared/job.0.0"; ln "$victim" "$shared/job.0.0" 2>/dev/null &&
	{ "$FSBENCH" io --name=job --rw=write --size=64k --directory="$shared" >/dev/null 2>"$WORK/e"; rc=$?
	  check "#6 io refuses a planted hard link (rc $rc)" \
		sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$victim')\" = precious ]"; }
rm -f "$shared/job.0.0"
ln -s "$victim" "$shared/r.html"
"$FSBENCH" report last --db "$DB" --html "$shared/r.html" >/dev/null 2>"$WORK/e"; rc=$?
check "report --html does not write through a planted symlink (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$victim')\" = precious ]"
rm -f "$shared/r.html"

# 7. A state file that is not ours alone is refused.
mkdir -p "$WORK/state"
printf 'fsbench-state 2\n' > "$FSBENCH_STATE"; chmod 0666 "$FSBENCH_STATE"
refuse "#7 a world-writable state file is refused" 1 "refusing the state file" "$FSBENCH" cleanup
if [ "$root" = 1 ] && id nobody >/dev/null 2>&1; then
	chmod 0600 "$FSBENCH_STATE"; chown nobody "$FSBENCH_STATE"
	refuse "#7 a state file owned by another user is refused" 1 "refusing the state file" "$FSBENCH" cleanup
	chown 0 "$FSBENCH_STATE"
fi
rm -f "$FSBENCH_STATE"
ln -s "$WORK/elsewhere" "$FSBENCH_STATE"
"$FSBENCH" run fsmark:files=4,size=4k --target "$T" --runs 1 --db "$DB" -q >/dev/null 2>"$WORK/e"; rc=$?
check "#7 a symlinked state file is refused (rc $rc)" sh -c "[ $rc -ne 0 ] && [ ! -e '$WORK/elsewhere' ]"
rm -f "$FSBENCH_STATE"

# 8. A SIGKILLed --target run: its scratch directory is recorded, the next
# run warns, cleanup removes it, and a decoy with a similar name survives.
H="$WORK/tgt 'q\" é"$'\n'"x"
mkdir -p "$H" "$H/fsbench.decoy1"; echo keep > "$H/fsbench.decoy1/f"
# one character per entry: the path itself holds a newline
scratch_count() { find "$H" -mindepth 1 -maxdepth 1 -name 'fsbench.*' ! -name fsbench.decoy1 -printf . | wc -c; }
"$FSBENCH" run fsmark:files=100000,size=4k,sync=0 --target "$H" --runs 1 --db "$DB" -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	n=$(scratch_count)
	[ "$n" -gt 0 ] && break; sleep 0.1
done
sleep 0.3; kill -9 "$pid"; wait "$pid" 2>/dev/null
left=$(scratch_count)
check "#8 the killed run left its scratch directory ($left)" [ "$left" -eq 1 ]
"$FSBENCH" run fsmark:files=4,size=4k --target "$T" --runs 1 --db "$DB" -q >/dev/null 2>"$WORK/e"
check "#8 the next run warns about it" grep -q 'run `fsbench cleanup`' "$WORK/e"
"$FSBENCH" cleanup >"$WORK/o" 2>&1; rc=$?
left=$(scratch_count)
check "#8 cleanup removes it (rc $rc, $left left)" sh -c "[ $rc -eq 0 ] && [ $left -eq 0 ]"
check "#8 cleanup leaves the similarly named decoy" [ "$(cat "$H/fsbench.decoy1/f")" = keep ]
"$FSBENCH" cleanup >"$WORK/o" 2>&1
check "#8 a second cleanup has nothing to do" grep -q 'nothing to clean up' "$WORK/o"

# 9. Size products cannot wrap round the free-space check.
refuse "#9 fsmark 65536 x 1T x 256 threads is refused" 2 "needs" \
	"$FSBENCH" run fsmark:files=65536,size=1T,threads=256 --target "$T" --db "$DB"

# 10. Absurd values, each one clear error.
refuse "#10 runtime=1e308h" 2 "parameter 'runtime': bad value '1e308h'" \
	"$FSBENCH" run io:runtime=1e308h,time_based=1 --target "$T" --db "$DB"
refuse "#10 empty parameter items" 2 "empty item" "$FSBENCH" run 'fsmark:,,,' --target "$T" --db "$DB"
refuse "#10 an empty --fs item" 2 "empty item" "$FSBENCH" run fsmark --fs ,ext4 --db "$DB"
printf '[test a]\nworkload = fsmark\n[test a]\nworkload = fsmark\n' > "$WORK/dup.suite"
refuse "#10 a duplicate [test] section" 2 "a second [test a] section" \
	"$FSBENCH" run --suite "$WORK/dup.suite" --target "$T" --db "$DB"
refuse "#10 --device beside a --target" 2 "a --target DIR has no place there" \
	"$FSBENCH" run fsmark --fs ext4 --target "$T" --device /dev/null --db "$DB"
refuse "#10 --device with tmpfs" 2 "does not use a block device" \
	"$FSBENCH" run fsmark --fs tmpfs --device /dev/null --db "$DB"
refuse "--fs-size below xfs's minimum is refused before anything is made" 2 "needs at least 300M" \
	"$FSBENCH" run fsmark --fs xfs --fs-size 200M --db "$DB"

# 11. tree refuses a cache on the target before writing the corpus there.
"$FSBENCH" run "tree:files=20,size=100M,cache=$T/cache" --target "$T" --runs 1 --db "$DB" -q \
	>/dev/null 2>"$WORK/e"; rc=$?
check "#11 tree:cache= on the target is refused before the corpus is written (rc $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'on the filesystem under test' '$WORK/e' &&
	       [ -z \"\$(ls -A '$T/cache' 2>/dev/null)\" ]"

# 12. postmark reports the first error (ENOSPC), not a later one.
if [ "$root" = 1 ]; then
	small=$WORK/small; mkdir -p "$small"; mount -t tmpfs -o size=4m tmpfs "$small"
	"$FSBENCH" run postmark:number=50,size_low=65536,size_high=65536,transactions=5000 \
		--target "$small" --runs 1 --db "$DB" -q >/dev/null 2>"$WORK/e"; rc=$?
	check "#12 postmark on a full disk says No space left (rc $rc)" \
		sh -c "[ $rc -eq 1 ] && grep -q 'No space left on device' '$WORK/e'"
	check "#12 and leaves no file behind" [ -z "$(ls -A "$small")" ]
	umount "$small"
else
	skip "#12 postmark ENOSPC" "needs root to mount a small tmpfs"
fi

# 13. Control characters from the user are escaped in errors.
"$FSBENCH" run $'fs\e[31mmark\a' --target "$T" --db "$DB" >/dev/null 2>"$WORK/e"
check "#13 control characters are escaped, not echoed" \
	sh -c "grep -qF 'fs\\x1b[31mmark\\x07' '$WORK/e' && ! grep -q \$'\\e' '$WORK/e'"

# Hostile names everywhere: --db, --label, --target and FSBENCH_STATE with
# spaces, quotes, a newline and non-ASCII; what is stored and shown is
# the name as given, escaped where it reaches the terminal.
odd="$WORK/d b 'q\" é"$'\n'"z"
mkdir -p "$odd/t"
refuse "#13 a label with a control character is refused" 2 "control characters" \
	"$FSBENCH" run fsmark --target "lab"$'\e'"el=$odd/t" --db "$DB"
refuse "#13 so is a --label with one" 2 "control characters" \
	"$FSBENCH" run fsmark --target "$odd/t" --label $'x\ay' --db "$DB"
FSBENCH_STATE="$odd/state file" "$FSBENCH" run fsmark:files=4,size=4k --target "label é=$odd/t" \
	--label "run 'x' é" --runs 1 --db "$odd/r db.sqlite" -q >/dev/null 2>"$WORK/e"; rc=$?
check "odd --db, --label, --target and FSBENCH_STATE: run exits 0 (rc $rc)" [ "$rc" -eq 0 ]
"$FSBENCH" list runs --db "$odd/r db.sqlite" >"$WORK/o" 2>&1
check "the odd store lists its run and label" grep -q "run 'x' é" "$WORK/o"
check "the odd state file is 0600 and empty after the run" \
	sh -c "[ \"\$(stat -c %a \"\$1\")\" = 600 ] && [ \"\$(wc -l < \"\$1\")\" -eq 1 ]" _ "$odd/state file"
check "the odd target holds nothing afterwards" [ -z "$(ls -A "$odd/t")" ]

# 14. One exit status per mistake, in every command.
for cmd in "show 0" "report 0" "compare 0 1" "show 999" "report 999" "compare 1 999"; do
	# shellcheck disable=SC2086
	"$FSBENCH" $cmd --db "$DB" >/dev/null 2>&1; rc=$?
	check "#14 '$cmd' exits 2 (got $rc)" [ "$rc" -eq 2 ]
done

finish
