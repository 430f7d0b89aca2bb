# lib.sh: TAP helpers and scratch space for integration tests.
#   ok "what"            record a pass
#   not_ok "what" [why]  record a failure
#   check "what" CMD...  pass if CMD succeeds
#   skip "what" "why"    record a skip with its reason
# Every test script gets $WORK (removed at exit) and $DB (a fresh store).
# $WORK is under $TMPDIR, which tests/run points at its run's own scratch.
set -u
_tap=0
ok() { _tap=$((_tap + 1)); echo "ok $_tap - $1"; }
not_ok() { _tap=$((_tap + 1)); echo "not ok $_tap - $1"; [ $# -gt 1 ] && echo "# $2"; return 0; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what" "command failed: $*"; fi; }
skip() { _tap=$((_tap + 1)); echo "ok $_tap # SKIP $1: $2"; }
finish() { echo "1..$_tap"; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fsbench-test.XXXXXX")
DB=$WORK/results.db
# At exit: whatever fsbench recorded in this test's state file (a run that
# crashed or was killed) is undone by `fsbench cleanup` before $WORK goes,
# and said as a failure: a test must never leave a mount or loop device.
cleanup_work() {
	case "${FSBENCH_STATE:-}" in
	"$WORK"/*)
		if [ -s "$FSBENCH_STATE" ] && [ "$(awk 'NR > 1' "$FSBENCH_STATE" | wc -l)" -gt 0 ]; then
			echo "not ok - leftovers: this test left fsbench entries behind: $(awk 'NR > 1' "$FSBENCH_STATE" | tr '\n' ' ')"
			"$FSBENCH" cleanup >/dev/null 2>&1
		fi ;;
	esac
	if grep -q "$WORK" /proc/self/mounts 2>/dev/null; then
		echo "not ok - leftovers: a mount under $WORK survived the test"
	fi
	# never into a filesystem mounted below: that is not ours to empty
	rm -rf --one-file-system "$WORK" "${_tmpfs_dirs[@]}"
}
# tmpfs_dir VAR NAME: VAR names a new directory of this test's own on a
# tmpfs (/dev/shm), another filesystem than $WORK's, as a tree corpus
# cache or a memory target needs; removed at exit with $WORK.  Made by
# mktemp: a name from $$ is shared by every suite, as each has a PID
# namespace of its own where $$ is the same small number, and two test
# runs at once then used and removed one another's directory.
_tmpfs_dirs=()
tmpfs_dir() {
	local -n _dir=$1
	_dir=$(mktemp -d "/dev/shm/fsbench-test-$2.XXXXXX") || return 1
	_tmpfs_dirs+=("$_dir")
}
trap cleanup_work EXIT
# wait_stopped PID: until it has stopped itself (FSBENCH_TEST_PAUSE's
# SIGSTOP, state T), or ended.
wait_stopped() {
	local i st
	for i in $(seq 600); do
		st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
		[ "$st" = T ] && return 0
		sleep 0.05
	done
	return 1
}
# jq test that prints nothing: jqt FILTER FILE.  An empty FILE fails (jq 1.6
# -e exits 0 on no input: a command that wrote nothing passed every check).
jqt() { [ -s "$2" ] && jq -e "$1" "$2" >/dev/null; }
FSB() { "$FSBENCH" "$@"; }
# need_guest WHAT: the rest of the suite boots fsbench's guest; without
# QEMU or a kernel in fsbench's cache it is skipped, saying so.
need_guest() {
	if ! command -v qemu-system-x86_64 >/dev/null || ! FSB kernel list | grep -q "^run --vm boots"; then
		skip "$1" "no QEMU, or no kernel in fsbench's cache (make test fetches one: fsbench kernel fetch)"
		finish
		exit 0
	fi
}
# resume_first DB: `fsbench run --resume 1` on store DB, rc its exit code
# (its output shown when it fails), run 1 then in $WORK/resumed.json.
resume_first() {
	"$FSBENCH" run --resume 1 --db "$1" -q >"$WORK/resume.out" 2>&1; rc=$?
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/resume.out" | tail -20
	"$FSBENCH" show 1 --db "$1" -f json >"$WORK/resumed.json" 2>/dev/null
}
# A query on a store another process may be making: sq DB SQL.  Read-only
# and only once it exists: sqlite3 would make an empty DB, which fsbench
# then refuses as no result store of its own.
sq() { [ -s "$1" ] && sqlite3 -readonly "$1" "$2" 2>/dev/null; }
