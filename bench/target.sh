# bench/target.sh: sourced by the bench/vs-* scripts, which compare fsbench
# with an original tool (issue 13's targets).  Each row's median ratio
# fsbench / original is judged against the script's target band and the
# original's own run-to-run spread (max / min over the same runs):
#   ok      within the band;
#   spread  outside it, but within what the original does to itself
#           (1/SPREAD .. SPREAD): the pairs cannot tell the tools apart;
#   OUT     outside both: a disagreement to explain or fix.
# target_summary prints the counts, so a run's verdict is one line.

target_ok=0 target_spread=0 target_out=0

# target LO HI RATIO [SPREAD]: the verdict in $verdict, counted ("-" for a
# missing figure, not counted).  Not in $(...): the counts would stay in
# the subshell.
target() {
	local v
	v=$(awk -v lo="$1" -v hi="$2" -v r="$3" -v s="${4:-1}" 'BEGIN {
		if (r == "" || r == "-" || r + 0 <= 0) { print "-"; exit }
		if (s + 0 < 1) s = 1
		if (r >= lo && r <= hi) print "ok"
		else if (r >= 1 / s && r <= s) print "spread"
		else print "OUT" }')
	case $v in
	ok) target_ok=$((target_ok + 1)) ;;
	spread) target_spread=$((target_spread + 1)) ;;
	OUT) target_out=$((target_out + 1)) ;;
	esac
	verdict=$v
}

# target_met: a row that meets the target without a ratio (bonnie++'s
# "+++++" on both sides), counted as ok.
target_met() {
	verdict=ok
	target_ok=$((target_ok + 1))
}

# target_summary TEXT: "target TEXT: N ok, N within the original's spread, N outside"
target_summary() {
	printf 'target %s: %d ok, %d within the original'\''s own spread, %d outside\n' "$1" \
		"$target_ok" "$target_spread" "$target_out"
}
