# test_aging.sh: `run --age` and `--compare-fresh` on real filesystems
# (root only, issue 42): ext4 and tmpfs aged by one small profile, each
# beside its fresh twin; the aging record stored and shown; the same
# sequence on both; the twins judged against each other; nothing left
# behind; aged images kept and reused (--keep-aged); a git profile replaying a repository's commits, the repository
# untouched; and the refusals (a --target directory, --compare-fresh alone,
# git-pull without a repository, a profile that is not there).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "aging" "needs root (mkfs, loop devices, mount)"
	finish
	exit 0
fi

IMG=$WORK/img
mkdir -p "$IMG"
export FSBENCH_STATE=$WORK/state
cp "${FSBENCH_FIXTURES:-$(dirname "$0")/../fixtures}/small.age" "$WORK/small.age"

no_leftovers() {
	local i
	for i in $(seq 200); do	# loop devices detach asynchronously
		losetup -a | grep -q "$IMG" || break
		sleep 0.1
	done
	! losetup -a | grep -q "$IMG" && ! grep -q "$IMG" /proc/mounts &&
		[ -z "$(ls -A "$IMG")" ]
}

"$FSBENCH" run fsmark:files=40,size=16k --fs ext4,tmpfs --fs-size 64M --image-dir "$IMG" \
	--age "$WORK/small.age" --compare-fresh --runs 3 --db "$DB" --json "$WORK/a.json" \
	--markdown "$WORK/a.md" --html "$WORK/a.html" >"$WORK/out" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "--age --compare-fresh on ext4 and tmpfs exits 0"
else
	not_ok "--age --compare-fresh on ext4 and tmpfs exits 0 (got $rc)" \
		"fsbench said: $(grep -v '^$' "$WORK/err" | tail -5 | tr '\n' '|')"
fi
check "nothing left after the run" no_leftovers
j=$WORK/a.json
# Catches: twins missing, or not right after their fresh target.
check "each filesystem beside its aged twin" \
	jqt '[.targets[].label] == ["ext4", "ext4-aged", "tmpfs", "tmpfs-aged"]' "$j"
# Catches: the fresh target aged too (--compare-fresh's point), or the
# record lost on the way to the store.
check "fresh targets carry no aging record" \
	jqt '[.targets[] | select(.label | endswith("-aged") | not) | .aging] == [null, null]' "$j"
check "aged targets record the profile, the seed and the capacity" \
	jqt '[.targets[] | select(.label | endswith("-aged")) | .aging |
	      .profile == "small" and .seed == 1 and .capacity == 67108864] == [true, true]' "$j"
# The ager holds the live data near 50% of the capacity; statvfs adds the
# filesystem's own overhead, never less.
check "aged filesystems are about half full" \
	jqt '[.targets[] | select(.aging) | .aging.fullness | . > 0.45 and . < 0.75] == [true, true]' "$j"
# Catches: a sequence steered by the filesystem (statfs, readdir order):
# both got the same operations, none refused.
check "the same operations on ext4 and tmpfs" \
	jqt '[.targets[] | select(.aging) | .aging | [.ops, .enospc]] | .[0] == .[1]' "$j"
check "ext4's files are mapped by FIEMAP, tmpfs's are not" \
	jqt '[.targets[] | select(.aging) | .aging.mapped_files > 0] == [true, false]' "$j"
# e2freefrag on the aged ext4; tmpfs keeps no such count
check "ext4's free extents are counted, tmpfs has none to count" \
	jqt '[.targets[] | select(.aging) | .aging.free_extents > 0] == [true, false]' "$j"
# Catches: the twin pair left out of the stopping rule and the report.
check "each aged target is judged against its fresh twin" \
	jqt '[.tests[0].verdicts[] | select(.a == "tmpfs-aged" and .b == "tmpfs")] | length == 1' "$j"
# the text wraps at the terminal's width: each check reads it as one line
check "the text report has the aged / fresh block, a cell per filesystem" \
	sh -c "sed -n '/^Aged \/ fresh/,/^\$/p' '$WORK/out' | tr -s '\n ' '  ' |
	       grep -q 'fsmark.*: ext4 [0-9.]* ([0-9.]*-[0-9.]*) [a-z]*; tmpfs [0-9.]* ('"
check "the system table says what aging left" \
	sh -c "tr -s '\n ' '  ' < '$WORK/out' | grep -q 'ext4-aged: .*aged with small (seed 1): [0-9.]*% full, [0-9]* files, [0-9.]* extents per file'"
check "Markdown: an aging column and the aged / fresh table" \
	sh -c "grep -q '| aging |' '$WORK/a.md' && grep -q '^## Aged / fresh' '$WORK/a.md' &&
	       grep -q '^| fsmark[^|]* | [0-9.]* (.*) [a-z]* | [0-9.]* (' '$WORK/a.md'"
check "HTML: the aging row and the aged / fresh table" \
	sh -c "grep -q '<th>Aging</th>' '$WORK/a.html' && grep -q '<h2>Aged / fresh</h2>' '$WORK/a.html' &&
	       grep -q '<tr><th>fsmark[^<]*</th><td>[0-9.]* (' '$WORK/a.html'"
check "show reads the record back from the store" \
	sh -c "\"$FSBENCH\" show --db '$DB' last | tr -s '\n ' '  ' | grep -q 'tmpfs-aged: .*aged with small'"

# --age without --compare-fresh: every target aged, under its own label.
"$FSBENCH" run fsmark:files=20,size=4k --fs tmpfs --fs-size 32M --image-dir "$IMG" \
	--age "$WORK/small.age" --age-seed 7 --runs 2 --db "$DB" --json "$WORK/b.json" \
	>/dev/null 2>"$WORK/err2"
check "--age alone ages the one target, with the seed given" \
	jqt '[.targets[] | [.label, .aging.seed]] == [["tmpfs", 7]]' "$WORK/b.json"
check "nothing left after the second run" no_leftovers

# --keep-aged: the first run ages once and keeps the image (its second
# test gets the kept copy, not another aging); a second run reuses it;
# the directory only gains fsbench's two files; a file of a kept name that
# fsbench did not keep is refused, untouched.
K=$WORK/keep
mkdir -p "$K"
echo "the user's" > "$K/decoy.txt"
for n in 1 2; do
	"$FSBENCH" run fsmark:files=20,size=4k fsmark:files=30,size=4k --fs ext4 --fs-size 64M \
		--image-dir "$IMG" --age "$WORK/small.age" --keep-aged "$K" --runs 2 --db "$DB" \
		--json "$WORK/k$n.json" >"$WORK/kout$n" 2>"$WORK/kerr$n"
done
kept=$(ls "$K" | grep -c '^ext4-small-[0-9a-f]\{16\}\.\(img\|json\)$')
check "the aged image and its record are kept, and nothing else added" \
	test "$kept" = 2 -a "$(ls "$K" | wc -l)" = 3
check "the user's file beside them is untouched" test "$(cat "$K/decoy.txt")" = "the user's"
check "the first run aged, the second reused what it kept" \
	jqt '.targets[0].aging | has("reused") | not' "$WORK/k1.json"
check "the kept record is the first run's, marked reused" \
	sh -c "jq -e --slurpfile a '$WORK/k1.json' '.targets[0].aging | .reused != null and
	       .seconds == \$a[0].targets[0].aging.seconds and .ops == \$a[0].targets[0].aging.ops' \
	       '$WORK/k2.json' >/dev/null"
check "the system table says the image was reused" \
	sh -c "tr -s '\n ' '  ' < '$WORK/kout2' | grep -q 'the image kept as .*ext4-small-.*, reused'"
check "nothing left after the kept runs" no_leftovers
# someone else's file under the name fsbench would keep: refused, untouched
K2=$WORK/keep2
mkdir -p "$K2"
name=$(ls "$K" | grep '\.img$')
echo "not an image" > "$K2/$name"
"$FSBENCH" run fsmark:files=20,size=4k --fs ext4 --fs-size 64M --image-dir "$IMG" \
	--age "$WORK/small.age" --keep-aged "$K2" --runs 1 --db "$DB" >/dev/null 2>"$WORK/kerr3"
check "a file of a kept name that fsbench did not keep is refused" grep -q 'move it away' "$WORK/kerr3"
check "and left as it was" test "$(cat "$K2/$name")" = "not an image" -a "$(ls "$K2" | wc -l)" = 1
check "nothing left after the refusal" no_leftovers

# git-pull: the user's repository's last commits checked out on the
# filesystem, the repository itself untouched.
if command -v git >/dev/null; then
	R=$WORK/userrepo
	G=(git -C "$R" -c user.name=t -c user.email=t@example.org)
	git init -q "$R" && for i in 1 2 3 4 5 6; do
		seq "$i" 2000 > "$R/f$i"
		[ "$i" -gt 2 ] && rm "$R/f$((i - 2))"
		"${G[@]}" add -A && "${G[@]}" commit -q -m "c$i"
	done
	before=$(git -C "$R" rev-parse HEAD; git -C "$R" status --porcelain; ls -A "$R" | sort)
	printf '[age]\ngit = 1\ncommits = 4\nfill = 30%%\n' > "$WORK/pull.age"
	"$FSBENCH" run fsmark:files=20,size=4k --fs tmpfs --fs-size 32M --image-dir "$IMG" \
		--age "$WORK/pull.age" --age-repo "$R" --runs 2 --db "$DB" --json "$WORK/g.json" \
		>"$WORK/gout" 2>"$WORK/gerr"
	check "--age with a git profile replays the repository's last commits" \
		jqt '.targets[0].aging | .commits == 4 and .profile == "pull" and (.repo | endswith("/userrepo"))' \
		"$WORK/g.json"
	check "the system table names the commits replayed" \
		sh -c "tr -s '\n ' '  ' < '$WORK/gout' | grep -q '4 commits of .*userrepo checked out'"
	after=$(git -C "$R" rev-parse HEAD; git -C "$R" status --porcelain; ls -A "$R" | sort)
	check "the user's repository is as it was" test "$before" = "$after"
	check "nothing left after the git aging" no_leftovers
else
	skip "git-pull aging" "git is not installed (scripts/install-deps)"
fi

# Images sized for the fill: the tree test needs 416 MiB, 2G fresh; with
# desktop's 80% fill and 8% held back for the filesystem's own overhead,
# 10G (or a refusal naming 10G where the disk has less free).
"$FSBENCH" run tree:files=2000,size=200M,dirs=16 --fs ext4 --image-dir "$IMG" --dry-run \
	--db "$DB" >/dev/null 2>"$WORK/dry1"
"$FSBENCH" run tree:files=2000,size=200M,dirs=16 --fs ext4 --image-dir "$IMG" --dry-run \
	--age desktop --db "$DB" >/dev/null 2>"$WORK/dry2"
check "images are made larger for the fill aging keeps" \
	sh -c "grep -Eq '(images of|need) 2G' '$WORK/dry1' && grep -Eq '(images of|need) 10G' '$WORK/dry2'"

check "list suites names the aging profiles" \
	sh -c "\"$FSBENCH\" list suites | grep -q '^  desktop  *fill 80%, 5 times the device written' &&
	       \"$FSBENCH\" list suites | grep -q '^  git-pull  *the last 300 commits'"

expect_refusal() {	# what, expected text, args...
	local what=$1 want=$2
	shift 2
	"$FSBENCH" run fsmark:files=10 --db "$DB" --image-dir "$IMG" "$@" >/dev/null 2>"$WORK/rerr"
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$want" "$WORK/rerr"; then
		ok "$what"
	else
		not_ok "$what" "exit $rc, said: $(tr '\n' '|' < "$WORK/rerr")"
	fi
}
mkdir -p "$WORK/userdir"
touch "$WORK/userdir/decoy"
expect_refusal "a --target directory is never aged" "never aged" \
	--target "$WORK/userdir" --age "$WORK/small.age"
check "the decoy in the refused directory is untouched" \
	sh -c "[ -f '$WORK/userdir/decoy' ] && [ \$(ls -A '$WORK/userdir' | wc -l) -eq 1 ]"
expect_refusal "--compare-fresh needs --age" "goes with --age" --fs tmpfs --compare-fresh
expect_refusal "the git-pull profile without a repository is refused" \
	"name one with --age-repo" --fs tmpfs --age git-pull
expect_refusal "--age-repo with a profile that replays none" "not small" --fs tmpfs \
	--age "$WORK/small.age" --age-repo "$WORK"
expect_refusal "a profile that is not there" "aging profile" --fs tmpfs --age nosuchprofile
expect_refusal "--keep-aged into a directory that is not there" "not a directory" --fs tmpfs \
	--age "$WORK/small.age" --keep-aged "$WORK/nosuchdir"
expect_refusal "--keep-aged with --vm (the guest sees the host read-only)" "read-only" --fs ext4 \
	--age "$WORK/small.age" --keep-aged "$K" --vm
check "nothing left after the refusals" no_leftovers
finish
