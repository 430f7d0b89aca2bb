# test_workloads.sh: the classic workloads end to end through the CLI on a
# scratch directory: each runs, stores its metrics and its tool-shaped
# detail, charts, and leaves nothing behind.
. "$(dirname "$0")/lib.sh"

T=$WORK/t
mkdir -p "$T"
run() {	# name, test spec
	FSB run "$2" --target t="$T" --runs 2 --verbose --db "$DB" --json "$WORK/$1.json" >"$WORK/$1.out" 2>"$WORK/$1.err"
}
run fileop "fileop:l=2,u=3,s=4k"
check "fileop runs" jqt '.run.status == "complete"' "$WORK/fileop.json"
check "fileop: 13 columns" jqt '.tests[0].metrics | length == 13' "$WORK/fileop.json"
check "fileop: per-level table kept" jqt '.tests[0].samples[0].detail | test("^level +mkdir +rmdir")' "$WORK/fileop.json"
# seed 002's 13 columns in its order; how many fit on a line depends on how
# wide this machine's figures are, so the header is read across its lines.
# The means table's own CPU% and Machine CPU% columns follow them, and wrap
# into the header's lines when a loaded machine's figures are wider: they
# are not seed 002's, so they are left out here.
fileop_header() {
	awk '/^ +mkdir +rmdir/ { on = 1 } on && /^$/ { exit }
	     on && /^ / { for (i = 1; i <= NF; i++) if ($i != "CPU%" && $i != "Machine") printf "%s ", $i }' "$1"
}
check "fileop: seed-002 table" [ "$(fileop_header "$WORK/fileop.out")" = \
	"mkdir rmdir create read write close stat access chmod readdir link unlink delete " ]

run postmark "postmark:transactions=3000,number=200"
check "postmark runs" jqt '.tests[0].metrics[0].results[0].n == 2' "$WORK/postmark.json"
check "postmark: same seed, same files both runs" \
	jqt '[.tests[0].samples[].detail | capture("(?<c>[0-9]+) created").c] | unique | length == 1' "$WORK/postmark.json"
check "postmark chart" grep -q "^TPS > Higher Is Better" "$WORK/postmark.out"

run bonnie "bonnie:size=8M,ram=0,n=1,seek_wait=0,seeks=100,byte_io=64k"
check "bonnie runs" jqt '.run.status == "complete"' "$WORK/bonnie.json"
check "bonnie: CSV line kept" jqt '.tests[0].samples[0].detail | startswith("1.98,2.00a,")' "$WORK/bonnie.json"
# 2.00's seekers unlink the file as bonnie++'s do: its space is taken before them
check "bonnie: the data set's space measured before the seekers delete it" \
	jqt '.tests[0].samples[0].values.space_used >= 8' "$WORK/bonnie.json"
check "bonnie: CPU% per column" jqt '[.tests[0].metrics[].unit] | map(select(. == "%CPU")) | length == 12' "$WORK/bonnie.json"
FSB report "$(jq .run.id "$WORK/bonnie.json")" --db "$DB" --html "$WORK/bonnie.html"
check "bonnie: the HTML page carries the CSV lines" grep -q '<pre class="detail">1.98,2.00a,' "$WORK/bonnie.html"
check "bonnie: HTML is well-formed" xmllint --noout "$WORK/bonnie.html"

tmpfs_dir cache tree-cache	# not on the target's filesystem
# --verbose: seed 001's table is detail, shown by default only by a suite
# that asks for it (tar-restore's show = reps)
FSB run "tree:files=200,size=2M,cache=$cache" --target t="$T" --runs 2 --db "$DB" --verbose \
	--json "$WORK/tree.json" >"$WORK/tree.out" 2>"$WORK/tree.err"
check "tree runs" jqt '.run.status == "complete"' "$WORK/tree.json"
check "tree: four phases timed" jqt '[.tests[0].metrics[].name] | index("delete_s") != null' "$WORK/tree.json"
check "tree: reads verified" jqt '.tests[0].samples[0].detail | test("every file verified")' "$WORK/tree.json"
check "tree: restore chart, lower is better" grep -q "^s < Lower Is Better" "$WORK/tree.out"
# seed 001's table: each run's real, user and sys, then the average and MB/s
check "tree: each repetition's times, as seed 001 lists them" \
	sh -c "grep -q '^restore, t:' '$WORK/tree.out' && grep -q '^ *#1: *#2:' '$WORK/tree.out' &&
	       grep -q '^real  *0m[0-9.]*s  *0m[0-9.]*s' '$WORK/tree.out' && grep -q '^user ' '$WORK/tree.out' &&
	       grep -q '^Average: 0m[0-9.]*s ([0-9.]* MB/s)' '$WORK/tree.out'"
check "tree: delete has no MB/s (it moves no data)" \
	sh -c "jq -e '[.tests[0].metrics[].name] | index(\"delete_mbs\") == null' '$WORK/tree.json' >/dev/null &&
	       sed -n '/^delete, t:/,/^Average/p' '$WORK/tree.out' | grep -q '^Average: 0m[0-9.]*s\$'"
# issue 68: the Average's MB/s (data over the mean time) sat under a means
# table whose MB/s (the runs' mean rate) differed, with nothing said
check "tree: the Average's MB/s told apart from the table's" \
	grep -q "^(An Average's MB/s is the data over the average time" "$WORK/tree.out"

check "nothing left in the target" [ -z "$(ls -A "$T")" ]
FSB run "bonnie:size=1G,ram=4096" --target "$T" --db "$DB" 2>"$WORK/e" >/dev/null; rc=$?
check "bonnie under 2 x RAM refused with the reason (rc $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'under twice the RAM' '$WORK/e'"
finish
