# test_runctl.sh: controlling a run as PTS and fio users expect (issue
# 17): --resume continues an interrupted run in place, keeping its samples;
# --note is kept and shown in every format.
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/a"
cat > "$WORK/two.suite" <<'EOF2'
[suite]
name = two
runs = 2
[test first]
workload = fsmark
files = 20
size = 4k
[test second]
workload = fsmark
files = 30
size = 4k
EOF2

# Stop before each sample is stored; at the third (the second test's first
# run) ask it to stop: that sample is stored, and the run is interrupted.
FSBENCH_TEST_PAUSE=store "$FSBENCH" run --suite "$WORK/two.suite" --target a="$WORK/a" \
	--runs 2 --db "$DB" --note "resume me" -q >"$WORK/out1" 2>&1 &
pid=$!
live_rc=none
for k in 1 2 3; do
	wait_stopped "$pid" || break
	# issue 69: --resume took a run whose own process still ran, and
	# both stored its rounds (59 samples where 30 ran)
	if [ "$k" -eq 2 ]; then
		"$FSBENCH" run --resume 1 --db "$DB" -q >"$WORK/live" 2>&1
		live_rc=$?
	fi
	[ "$k" -eq 3 ] && kill -INT "$pid"
	kill -CONT "$pid"
done
wait "$pid"
rc=$?
check "--resume refuses a run whose process still runs, in one line (rc $live_rc)" \
	sh -c "[ '$live_rc' = 2 ] && grep -q '^fsbench: run 1 is still running (process $pid)' '$WORK/live' &&
	       [ \$(wc -l < '$WORK/live') -eq 1 ]"
check "the interrupted run exits 130 (rc $rc)" [ "$rc" -eq 130 ]
FSB show 1 --db "$DB" -f json > "$WORK/r1.json"
check "stored as interrupted" jqt '.run.status == "interrupted"' "$WORK/r1.json"
check "with 2 + 1 samples" jqt '[.tests[].samples | length] == [2, 1]' "$WORK/r1.json"

FSB run --resume 1 --db "$DB" --runs 5 >"$WORK/bad" 2>&1
check "--resume refuses other run options (exit 2)" [ $? -eq 2 ]
FSB run --resume 1 --db "$DB" -q >"$WORK/out2" 2>&1
rc=$?
check "--resume exits 0 (rc $rc)" [ "$rc" -eq 0 ]
check "--resume says what it resumes" grep -q "resuming run 1: fsbench run --suite" "$WORK/out2"
FSB show 1 --db "$DB" -f json > "$WORK/r2.json"
check "the same run, now complete" jqt '.run.status == "complete" and .run.id == 1' "$WORK/r2.json"
check "the first test untouched, the second completed: 2 and 2 samples" \
	jqt '[.tests[].samples | length] == [2, 2]' "$WORK/r2.json"
check "repetitions numbered on: 1 and 2" jqt '[.tests[1].samples[].rep] == [1, 2]' "$WORK/r2.json"
check "the first test's samples are the ones stored before" \
	sh -c "[ \"\$(jq -c '.tests[0].samples' '$WORK/r1.json')\" = \"\$(jq -c '.tests[0].samples' '$WORK/r2.json')\" ]"
check "no second run was made" sh -c "[ \"\$('$FSBENCH' list runs --db '$DB' | grep -c '^ *[0-9]')\" -eq 1 ]"
FSB run --resume 1 --db "$DB" -q >"$WORK/out3" 2>&1
check "a complete run is not resumed (exit 2)" [ $? -eq 2 ]
FSB run --resume 7 --db "$DB" -q >"$WORK/out4" 2>&1
check "no such run (exit 2)" [ $? -eq 2 ]

# --note: stored and shown
check "note in JSON" jqt '.run.note == "resume me"' "$WORK/r2.json"
check "note in text" sh -c "'$FSBENCH' show 1 --db '$DB' | grep -q '^Note: resume me'"
check "note in Markdown" sh -c "'$FSBENCH' show 1 --db '$DB' -f markdown | grep -q '^> resume me'"
check "note in HTML" sh -c "'$FSBENCH' show 1 --db '$DB' -f html | grep -q '<p class=\"note\">resume me</p>'"
FSB run fsmark:files=5 --target "$WORK/a" --db "$DB" --note "$(printf 'a\tb')" -q >/dev/null 2>&1
check "a note with control characters is refused (exit 2)" [ $? -eq 2 ]

# Off a terminal (CI): a line per repetition with the run's position.
FSB run fsmark:files=10 fsmark:files=12 --target "$WORK/a" --runs 2 --db "$DB" >/dev/null 2>"$WORK/prog"
check "progress off a terminal: a line per repetition (4)" \
	[ "$(grep -c '^\[[0-9hms]*\] test [12]/2, target 1/1, run [12]/2: fsmark:files=1[02] on ' "$WORK/prog")" -eq 4 ]
check "progress: the whole run's ETA from the second repetition on" grep -q 'run 2/2: .*(ETA [0-9]' "$WORK/prog"
FSB run fsmark:files=10 --target "$WORK/a" --runs 1 --db "$DB" -q >/dev/null 2>"$WORK/prog2"
check "progress: nothing with --quiet" sh -c "! grep -q 'test 1/1' '$WORK/prog2'"

# Images sized from what the tests need, said on screen, checked against
# the free space of the image directory.
FSB run fsmark:files=3000,size=1M --fs ext4 --image-dir "$WORK" --dry-run --db "$DB" >/dev/null 2>"$WORK/size"
check "images sized from the largest test (3000M + a quarter + 512M -> 5G)" \
	grep -q 'images of 5G each (fsmark:files=3000,size=1M needs 3000M' "$WORK/size"
FSB run fsmark:files=1000000,size=100M --fs ext4,xfs --image-dir "$WORK" --dry-run --db "$DB" >/dev/null 2>"$WORK/size2"
rc=$?
check "images that cannot fit are refused before anything is made (exit 2)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'the images need .* (2 x ' '$WORK/size2'"
FSB run fsmark:files=3000,size=1M --fs ext4 --fs-size 7G --image-dir "$WORK" --dry-run --db "$DB" >/dev/null 2>"$WORK/size3"
check "--fs-size wins" sh -c "! grep -q 'images of' '$WORK/size3'"

# tree: the default corpus cache is on the filesystem under test (HOME on
# the same filesystem as the target): the corpus goes elsewhere, and the
# detail says where.
mkdir -p "$WORK/home"
HOME=$WORK/home env -u XDG_CACHE_HOME "$FSBENCH" run tree:files=20,size=1M --target "$WORK/a" --runs 1 \
	--db "$DB" --json "$WORK/tree.json" -q >/dev/null 2>"$WORK/tree.err"
rc=$?
check "tree with ~/.cache on the target runs (rc $rc)" [ "$rc" -eq 0 ]
check "tree says where the corpus went" \
	jqt '.tests[0].samples[0].detail | test("is on the filesystem under test, so the corpus is in")' "$WORK/tree.json"
check "nothing written under the target's ~/.cache" sh -c "[ -z \"\$(ls -A '$WORK/home/.cache/fsbench' 2>/dev/null)\" ]"
# issue 69: two runs started together on a new store failed one of them
# in 9 of 10 tries ("is an empty file, not an fsbench result store", or
# "table run already exists"): both store, five times over.
mkdir -p "$WORK/c1" "$WORK/c2"
bad=0
for k in 1 2 3 4 5; do
	rm -f "$WORK/new.db" "$WORK/new.db-wal" "$WORK/new.db-shm"
	"$FSBENCH" run fsmark:files=5,size=4k --target t="$WORK/c1" --runs 1 --db "$WORK/new.db" -q \
		>"$WORK/c1.out" 2>&1 &
	p1=$!
	"$FSBENCH" run fsmark:files=5,size=4k --target t="$WORK/c2" --runs 1 --db "$WORK/new.db" -q \
		>"$WORK/c2.out" 2>&1
	r2=$?
	wait "$p1"
	r1=$?
	n=$("$FSBENCH" list runs --db "$WORK/new.db" 2>/dev/null | grep -c complete)
	[ "$r1$r2" = 00 ] && [ "$n" -eq 2 ] || bad=$((bad + 1))
done
check "two runs at once on a new store: both stored, 5 times of 5 ($bad failed)" [ "$bad" -eq 0 ]
finish
