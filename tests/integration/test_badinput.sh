#!/bin/bash
# test_badinput.sh: the hostile-input corpus, tests/badinput/*.cases (its
# README says the format).  Each case runs fsbench once, in a work
# directory of its own, and must end with its expected exit status and
# message fragment, with no sanitizer report (meaningful under `make
# test-asan`); a refused case (exit 2) says so in one line and leaves
# nothing behind: no file in its work directory or home, no entry in the
# state file, no mount.  After every case a decoy tree outside the work
# directories (files, a symlink, a read-only file, a loop image with a
# filesystem signature as root) must be byte for byte, mode for mode, what
# it was: the bug this catches is fsbench writing where it was not asked
# to, which no exit status shows.
. "$(dirname "$0")/lib.sh"
corpus=$(cd "$(dirname "$0")/../badinput" && pwd)

S=$WORK
decoy=$S/decoy in=$S/in home=$S/home state_dir=$S/state
mkdir -p "$decoy/sub" "$in" "$home" "$state_dir" "$S/w" "$S/t"
export HOME=$home XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache
export FSBENCH_STATE=$state_dir/state

# The decoy tree: what a user or the system keeps beside fsbench.
echo precious > "$decoy/precious.txt"
head -c 8192 /dev/urandom > "$decoy/sub/keep.bin"
echo 'read only' > "$decoy/ro.txt"; chmod 0400 "$decoy/ro.txt"
printf '#!/bin/sh\necho hi\n' > "$decoy/run.sh"; chmod 0755 "$decoy/run.sh"
ln -s precious.txt "$decoy/link"
# stores that are not fsbench's: refused untouched
: > "$decoy/empty.db"
echo 'not a database' > "$decoy/text.db"
mkdir "$decoy/dir.db"
if command -v python3 >/dev/null; then
	python3 -c "import sqlite3; c=sqlite3.connect('$decoy/foreign.db'); c.execute('create table notes(x)'); c.commit()"
fi
decoy_loop=
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null; then
	truncate -s 16M "$decoy/disk.img"
	mkfs.ext4 -q -F "$decoy/disk.img" >/dev/null 2>&1
	decoy_loop=$(losetup -f --show "$decoy/disk.img" 2>/dev/null) || decoy_loop=
fi
detach_decoy() { [ -n "$decoy_loop" ] && losetup -d "$decoy_loop" 2>/dev/null; decoy_loop=; }
trap 'detach_decoy; cleanup_work' EXIT
# Every entry's name, type, mode, size, link and change time (ctime: any
# write, chmod or rename moves it, and no one sets it back), one find after
# each case; the contents of the small files are hashed too, before the
# first case and after the last (the ctime already shows a write between;
# -size -1M would be files of 0 MiB rounded up: the empty ones alone).
# Each case's checks are otherwise shell builtins: 450 cases at some 30
# processes each were most of this suite's time on a loaded machine, where
# every exec waits for a CPU and, after a cache drop, for the disk.
snapshot() { find "$decoy" -printf '%P %y %m %s %l %C@\n'; }
contents() { (cd "$decoy" && find . -type f -size -1024k -exec sha256sum {} + | sort); }
decoy_before=$(snapshot)
contents > "$S/decoy.sums"

# Inputs: job files, suites and documents from the corpus, their tokens
# filled in; stores of every kind.
fill() {
	sed -e "s|@DECOYDIR|$decoy|g" -e "s|@DECOY|$decoy/precious.txt|g" \
	    -e "s|@RELDECOY|../../decoy/precious.txt|g" -e "s|@IN|$in|g"
}
for f in "$corpus"/files/*; do
	fill < "$f" > "$in/$(basename "$f")"
done
printf '[j]\0\001\377\nrw=re\0ad\n' > "$in/binary.fio"
printf '[j]\nrw=read\nsize=4k\nname=%s\n' "$(printf 'n%.0s' $(seq 100000))" > "$in/huge-line.fio"
printf '[suite]\0\001\377\n' > "$in/binary.suite"
# FIFOs given as inputs: open() blocked on them forever (issue 69)
for f in fifo.fio fifo.suite fifo.json fifo.age; do mkfifo "$in/$f"; done
DBOK=$in/runs.db
for i in 1 2; do
	"$FSBENCH" run fsmark:files=5,size=4k --target t="$S/t" --runs 2 --db "$DBOK" --quiet \
		>/dev/null 2>&1 || not_ok "the corpus's store (run $i) could not be made"
done
check "the corpus's store holds two runs" sh -c "[ \$('$FSBENCH' list runs --db '$DBOK' | grep -c complete) -eq 2 ]"
long600=$(printf 'a%.0s' $(seq 600))
long5000=$(printf 'b%.0s' $(seq 5000))

# subst ARG: ARG with its tokens filled in, in $sub (no subshell).
subst() {
	local a=$1
	a=${a//@W/$W}
	a=${a//@IN/$in}
	a=${a//@DBOK/$DBOK}
	a=${a//@DECOYDIR/$decoy}
	a=${a//@DECOYLOOP/$decoy_loop}
	a=${a//@DECOY/$decoy/precious.txt}
	a=${a//@RELDECOY/../../decoy/precious.txt}
	a=${a//@LONG600/$long600}
	a=${a//@LONG5000/$long5000}
	a=${a//@CTRL/$'\x01'}
	a=${a//@TAB/$'\t'}
	a=${a//@NL/$'\n'}
	sub=$a
}

# The mount points a case could have made: new ones, anywhere.  One that
# went is not counted: a mount this namespace inherited is detached when
# its owner outside removes the directory it was on (the kernel does that
# for every namespace), which a concurrent fsbench run does as it ends, so
# the whole table changed while cases ran that mount nothing.
# mounts_now NAME: the mount points now, as the keys of associative array
# NAME; mounts_added: those now that were not in array $mounts_before.
mounts_now() {
	local -n _m=$1
	local _ mp
	_m=()
	while read -r _ _ _ _ mp _; do _m[$mp]=1; done < /proc/self/mountinfo
}
mounts_added() {
	local -A now
	local m
	mounts_now now
	added=
	for m in "${!now[@]}"; do
		[ -n "${mounts_before[$m]:-}" ] || added="$added$m "
	done
}
# lines TEXT: how many lines TEXT has, in $nlines
lines_of() { local nl=${1//[!$'\n']/}; nlines=${#nl}; }
shopt -s nullglob dotglob
declare -A mounts_before
total=0
for cases in "$corpus"/*.cases; do
	name=$(basename "$cases")
	if [ "$name" = root.cases ] && [ "$(id -u)" -ne 0 ]; then
		skip "$name" "needs root"
		continue
	fi
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case "$line" in '' | '#'*) continue ;; esac
		# split at every TAB (read -a would merge two TABs: an empty
		# argument is a case of its own)
		f=() rest=$line
		while [[ $rest == *$'\t'* ]]; do f+=("${rest%%$'\t'*}"); rest=${rest#*$'\t'}; done
		f+=("$rest")
		want=${f[0]} frag=${f[1]} lines=1
		# "2+": exit 2 with several lines (a usage text)
		case "$want" in *+) want=${want%+} lines= ;; esac
		if [ "${#f[@]}" -lt 2 ] || ! [[ "$want" =~ ^[0-9]+$ ]]; then
			not_ok "$name:$lineno: not a case (EXIT, TAB, FRAGMENT, TAB, ARG...)"
			continue
		fi
		case "$line" in *@DECOYLOOP*) [ -n "$decoy_loop" ] || { skip "$name:$lineno" "no decoy loop device"; continue; } ;; esac
		case "$line" in *foreign.db*) [ -f "$decoy/foreign.db" ] || { skip "$name:$lineno" "no python3 to make a foreign store"; continue; } ;; esac
		total=$((total + 1))
		W=$S/w/case; [ ! -e "$W" ] || rm -rf --one-file-system "$W"; mkdir "$W"
		args=()
		for a in "${f[@]:2}"; do subst "$a"; args+=("$sub"); done
		mounts_now mounts_before
		(cd "$W" && exec timeout 120 "$FSBENCH" "${args[@]}" </dev/null >"$S/out" 2>"$S/err")
		rc=$?
		err= out= st=
		IFS= read -r -d '' err < "$S/err"
		IFS= read -r -d '' out < "$S/out"
		why=
		[ "$rc" -eq "$want" ] || why="$why; exit $rc, not $want"
		[ "$frag" = - ] || [[ $err == *"$frag"* ]] || why="$why; no '$frag' in: ${err:0:300}"
		if [[ $err$out =~ runtime\ error:|Sanitizer|SUMMARY:\  ]]; then
			why="$why; a sanitizer report: ${BASH_REMATCH[0]}"
		fi
		lines_of "$err"
		if [ "$want" -eq 2 ]; then
			[ -z "$lines" ] || [ "$nlines" -eq 1 ] || why="$why; $nlines lines on stderr, not one"
			left=("$W"/*)
			[ ${#left[@]} -eq 0 ] || why="$why; left in its directory: ${left[*]:0:3}"
			left=("$home"/*)
			[ ${#left[@]} -eq 0 ] || why="$why; made in its home: ${left[*]:0:3}"
			[ -f "$FSBENCH_STATE" ] && IFS= read -r -d '' st < "$FSBENCH_STATE"
			lines_of "$st"
			[ "$nlines" -le 1 ] || why="$why; entries in the state file"
			mounts_added
			[ -z "$added" ] || why="$why; it mounted $added"
		fi
		decoy_after=$(snapshot)
		[ "$decoy_after" = "$decoy_before" ] ||
			why="$why; THE DECOY TREE CHANGED: $(diff <(echo "$decoy_before") <(echo "$decoy_after") | grep '^[<>]' | head -2 | tr '\n' ' ')"
		printf -v shown '%s ' "${f[@]:2}"
		shown=${shown:0:100}
		# BADINPUT_PRINT=1: what each case gave, for writing new cases
		if [ -n "${BADINPUT_PRINT:-}" ]; then
			lines_of "$err"
			e=${err//$'\n'/|}
			printf '# %s:%d rc=%d [%s] %s\n' "$name" "$lineno" "$rc" "$nlines" "${e:0:260}"
		fi
		if [ -z "$why" ]; then
			ok "$name:$lineno: $shown-> $want"
		else
			not_ok "$name:$lineno: $shown-> $want" "${why#; }"
		fi
		# a case that made something is undone before the next starts
		st=
		[ -f "$FSBENCH_STATE" ] && IFS= read -r -d '' st < "$FSBENCH_STATE"
		lines_of "$st"
		[ "$nlines" -le 1 ] || "$FSBENCH" cleanup >/dev/null 2>&1
		left=("${home:?}"/*)
		rm -rf --one-file-system "$W" "${left[@]}" 2>/dev/null
		decoy_before=$decoy_after
	done < "$cases"
done
check "the corpus holds at least 200 cases ($total)" [ "$total" -ge 200 ]
contents > "$S/decoy.sums.after"
check "no decoy file's contents changed over the corpus" cmp -s "$S/decoy.sums" "$S/decoy.sums.after"
shopt -u nullglob dotglob

# A run killed outright (SIGKILL: nothing in it runs) stays 'running' in its
# store until `fsbench cleanup`, which marks it abandoned, with when.
K=$S/killed; mkdir -p "$K/t"
(cd "$K" && exec "$FSBENCH" run fsmark:files=20000,size=4k --target "$K/t" --runs 50 \
	--db "$K/r.db" --quiet) >/dev/null 2>&1 &
pid=$!
for i in $(seq 600); do
	[ -s "$FSBENCH_STATE" ] && grep -q ' run ' "$FSBENCH_STATE" && break
	sleep 0.05
done
kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
check "a killed run is 'running' before cleanup" sh -c "'$FSBENCH' list runs --db '$K/r.db' | grep -q incomplete"
"$FSBENCH" cleanup > "$S/cleanup.out" 2>&1
check "cleanup says it marked the killed run abandoned" grep -q "marked run 1 abandoned in $K/r.db" "$S/cleanup.out"
check "...and the store says so" sh -c "'$FSBENCH' list runs --db '$K/r.db' | grep -q abandoned"
check "...with when (finished is set)" sh -c "'$FSBENCH' export 1 --db '$K/r.db' | jq -e '.run.status == \"abandoned\" and (.run.finished | length > 0)' >/dev/null"
check "...and nothing of it is left in the state file" sh -c "[ \$(wc -l < '$FSBENCH_STATE') -le 1 ]"
rm -rf --one-file-system "$K"

# A store on a full filesystem: its creation fails, and what it made goes.
if [ "$(id -u)" -eq 0 ]; then
	F=$S/full; mkdir "$F"
	if mount -t tmpfs -o size=64k tmpfs "$F" 2>/dev/null; then
		head -c 1M /dev/zero > "$F/fill" 2>/dev/null
		mkdir -p "$S/ft"
		"$FSBENCH" run fsmark:files=5,size=4k --target "$S/ft" --runs 1 --db "$F/r.db" --quiet \
			>/dev/null 2>"$S/full.err"; rc=$?
		check "a store that cannot be made on a full filesystem fails the run (rc $rc)" [ "$rc" -ne 0 ]
		check "...and leaves no file (no 0-byte store, no -wal, no -shm)" \
			sh -c "[ -z \"\$(ls '$F' | grep -v '^fill$')\" ]"
		umount "$F"
	else
		skip "a store on a full filesystem" "cannot mount a tmpfs"
	fi
else
	skip "a store on a full filesystem" "needs root to mount a small tmpfs"
fi
detach_decoy
finish
