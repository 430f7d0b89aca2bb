# test_report.sh: the HTML report of a small stored run, checked as XML and
# in headless Chromium (every test has its chart, one bar per filesystem,
# a screenshot saved under the build directory); `fsbench report`
# Markdown; and `fsbench compare` with --fail-on-regression.
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/a" "$WORK/b" "$WORK/c"
cat > "$WORK/fast.suite" <<'EOF2'
[suite]
name = cmp
runs = 3
[test t]
workload = fsmark
files = 150
size = 16k
sync = 0
[test u]
workload = fsmark
files = 40
size = 4k
EOF2
# The regression must not depend on how loaded the machine is: fsync per
# file and 64 times the bytes per file cost far more than 20% anywhere.
sed -e 's/sync = 0/sync = 1/' -e 's/size = 16k/size = 1M/' "$WORK/fast.suite" > "$WORK/slow.suite"

FSB run --suite "$WORK/fast.suite" --target a="$WORK/a" --target "b<&>=$WORK/b" --target c="$WORK/c" \
	--db "$DB" --label old --html "$WORK/run.html" -q 2>/dev/null
check "run --html writes the page" [ -s "$WORK/run.html" ]
FSB report last --db "$DB" --html "$WORK/r.html" --markdown "$WORK/r.md"; rc=$?
check "report exits 0" [ "$rc" -eq 0 ]
check "report --html equals run --html" cmp -s "$WORK/r.html" "$WORK/run.html"
check "page is well-formed XML (so is its SVG)" xmllint --noout "$WORK/r.html"
svgs() { echo '<svgs>'; xmllint --xpath '//*[local-name()="svg"]' "$WORK/r.html"; echo '</svgs>'; }
check "every SVG is well-formed XML on its own" sh -c "$(declare -f svgs); WORK='$WORK' svgs | xmllint --noout -"
# (write amplification charts come with a block device under the
# directory, which depends on where the checkout lives: not counted)
check "SVG count: 4 charts, the answer's overview (each with a phone's copy) + the pattern defs" \
	[ "$(svgs | grep -o '<svg [^>]*' | grep -vc 'data-metric="write_amp"')" -eq 11 ]
check "labels from the command line are escaped" grep -q 'b&lt;&amp;&gt;' "$WORK/r.html"
check "no script, no remote resource" sh -c "! grep -Eq '<script|src=\"http|@import|url\\(http' '$WORK/r.html'"
check "markdown report" grep -q '^## FS-Mark 3.3' "$WORK/r.md"

# headless Chromium on a page: chrome PROFILE PAGE [ARGS...]
chrome() {
	local profile=$1 page=$2
	shift 2
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$WORK/$profile" "$@" "file://$page"
}
if command -v chromium >/dev/null; then
	shot=${TESTBIN:-$WORK}/../report.png
	chrome chrome "$WORK/r.html" --window-size=1100,2400 --dump-dom > "$WORK/dom.html" 2>"$WORK/chrome.err"
	rc=$?
	check "chromium loads the page (rc $rc)" [ "$rc" -eq 0 ]
	check "chromium reports no page error" sh -c "! grep -Ei 'Uncaught|SyntaxError|Failed to load' '$WORK/chrome.err'"
	# From the rendered DOM: a chart per metric of every test, one bar per filesystem.
	charts=$(grep -o '<svg class="chart wide"[^>]*data-test="[^"]*" data-metric="[^"]*"' "$WORK/dom.html" |
		grep -vc 'data-metric="write_amp"')
	check "DOM has a chart per test metric (4, got $charts)" [ "$charts" -eq 4 ]
	bad=$(awk 'BEGIN { RS = "<svg class=\"chart wide\"" } NR > 1 { n = gsub(/<rect class="bar"/, "&"); if (n != 3) print NR": "n }' "$WORK/dom.html")
	check "DOM: each chart has one bar per filesystem" [ -z "$bad" ]
	chrome chrome "$WORK/r.html" --window-size=1100,2400 --screenshot="$shot" >/dev/null 2>&1
	check "screenshot saved ($shot)" [ -s "$shot" ]
else
	skip "report in Chromium" "chromium is not installed (scripts/install-deps installs it)"
fi

# An io test's latency percentiles span decades: a log axis; and no chart
# on the page is empty (issue 14).  A target with no figure gets a line,
# not an axis with no bar.  fadvise_hint=0 leaves read-ahead on, so about
# half the random reads are page-cache hits (1 us) and half disk reads.
FSB run "io:rw=randread,size=8m,bs=4k,ioengine=psync,fadvise_hint=0" --target a="$WORK/a" --target b="$WORK/b" \
	--runs 2 --db "$WORK/io.db" --html "$WORK/io.html" -q 2>/dev/null
FSB run "io:rw=randrw,size=8m,bs=4k,ioengine=psync,runtime=1500ms,time_based=1" --target a="$WORK/a" \
	--target b="$WORK/b" --runs 2 --db "$WORK/tl.db" --html "$WORK/tlio.html" -q 2>/dev/null
check "io page: the latency percentiles chart has a log axis" \
	grep -q '<svg class="chart grouped log wide"[^>]*data-scale="log"[^>]*data-unit="usec"' "$WORK/io.html"
# the page opens with the answer, not with a how-to (issue 68)
check "io page: the answer first" sh -c "grep -o '<h2>[^<]*' '$WORK/io.html' | head -1 | grep -qx '<h2>Answer'"
# latency over time and the latency distribution (issue 17), from the
# timeline every io repetition stores
check "io page: a latency-over-time chart with a line per target" \
	sh -c "grep -q 'data-chart=\"latency-over-time\"' '$WORK/tlio.html' &&
	       [ \"\$(grep -o '<polyline class=\"series\"[^>]*data-dir=\"read\"' '$WORK/tlio.html' | wc -l)\" -eq 4 ]"
check "io page: a latency distribution (CDF) on a log axis" \
	grep -q 'data-chart="latency-cdf" data-scale="log"' "$WORK/tlio.html"
FSB show last --db "$WORK/tl.db" -f json > "$WORK/io.json"
check "io JSON: each sample's timeline (3 windows of 500 ms) and latency histogram" \
	jqt '[.tests[0].samples[].series | (.t_ms | length) >= 2 and .width_ms == 500 and
	      ((.hist.counts[0] | add) > 0)] | all' "$WORK/io.json"
# a job that trims: its own series and line, dotted, in the stored timeline and the page
FSB run "io:rw=randtrimwrite,size=8m,bs=4k,ioengine=falloc,runtime=1200ms,time_based=1" \
	--target a="$WORK/a" --runs 1 --db "$WORK/tr.db" --html "$WORK/trim.html" -q 2>/dev/null
FSB show last --db "$WORK/tr.db" -f json > "$WORK/trim.json"
check "io JSON: a trimming job's timeline and histogram have a trims' series" \
	jqt '.tests[0].samples[0].series | (.lat_us | length) == 3 and (.hist.counts[2] | add) > 0 and
	     (.hist.counts[1] | add) > 0' "$WORK/trim.json"
check "io page: trims drawn dotted, named in the key" \
	sh -c "grep -q '<polyline class=\"series\"[^>]*stroke-dasharray=\"1.5,2.5\"[^>]*data-dir=\"trim\"' '$WORK/trim.html' &&
	       grep -q 'trims dotted' '$WORK/trim.html'"
check "io page: tables scroll inside their box, rows as cards on a phone" \
	grep -q '<div class="scroll"><table class="raw cards">' "$WORK/io.html"
check "io page: a shaky figure (2 runs) carries a visible warning" grep -q 'class="warn".*only 2 runs' "$WORK/io.html"
if command -v chromium >/dev/null; then
	chrome chrome2 "$WORK/io.html" --dump-dom > "$WORK/iodom.html" 2>/dev/null
	empty=$(awk 'BEGIN { RS = "<svg class=\"chart" } NR > 1 && !/^ (timeline|cdf|overview)/ { if (!index($0, "<rect class=\"bar\"") && !index($0, "<rect class=\"nbar\"")) n++ } END { print n + 0 }' "$WORK/iodom.html")
	check "io page in Chromium: no chart without a bar ($empty empty)" [ "$empty" -eq 0 ]
	check "io page in Chromium: the log-scale latency chart is rendered" \
		grep -q 'data-scale="log"' "$WORK/iodom.html"
	tshot=${TESTBIN:-$WORK}/../latency-over-time.png
	awk '/<h3>Latency over time/,/<\/figure>/' "$WORK/tlio.html" > "$WORK/tl.part"
	{ echo '<html><body style="font-family:sans-serif">'; cat "$WORK/tl.part"; echo '</body></html>'; } > "$WORK/tl.html"
	chrome chrome5 "$WORK/tl.html" --window-size=860,420 --screenshot="$tshot" >/dev/null 2>&1
	check "latency-over-time chart screenshot saved ($tshot)" [ -s "$tshot" ]
	# Issue 40: readable on a laptop and a phone.  At 1280 and 390 px
	# nothing is wider than the page: no sideways scroll, no chart or
	# label past the page's edge, no chart label cut off at its chart's
	# edge (value labels ran past it), no table left scrolling in its box
	# (the 14-column device table did at 1280; fio's 13 columns do at 600
	# unless their rows become cards).  Measured on a copy of the page
	# with a script (the page itself has none), the samples opened.
	cat > "$WORK/measure.js" <<'EOF2'
<script>
window.addEventListener('load', function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var vw = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > vw)
    out.push('PAGE scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
  document.querySelectorAll('body *').forEach(function (e) {
    if ((e.closest('div.scroll') && !e.matches('div.scroll')) || (e.closest('svg') && !e.matches('svg.chart')))
      return;
    var r = e.getBoundingClientRect();
    if (r.width && (r.right > vw + 0.5 || r.left < -0.5))
      out.push('WIDE ' + e.tagName + '.' + e.getAttribute('class') + ' ' + r.left.toFixed(0) + '..' + r.right.toFixed(0));
  });
  document.querySelectorAll('div.scroll').forEach(function (e) {
    if (e.scrollWidth > e.clientWidth + 1)
      out.push('SCROLLS table.' + e.firstElementChild.getAttribute('class') + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
  });
  // issue 68: at 390 px the charts' labels were 5.7 px; every text shown
  // is 11 px or more, an SVG's scaled by its width over its viewBox
  document.querySelectorAll('body *').forEach(function (e) {
    var own = Array.prototype.some.call(e.childNodes, function (c) { return c.nodeType === 3 && c.textContent.trim(); });
    var r = e.getBoundingClientRect();
    if (!own || (!r.width && !r.height) || e.closest('title'))
      return;
    var fs = parseFloat(getComputedStyle(e).fontSize), svg = e.closest('svg');
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      fs *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (fs < 10.95)
      out.push('SMALL ' + fs.toFixed(1) + 'px "' + e.textContent.trim().slice(0, 40) + '"');
  });
  // and every chart shown says what it is inside the image
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var b = svg.getBoundingClientRect(), t = svg.querySelector(':scope > title');
    if (b.width && (!t || !t.textContent.trim() || !svg.querySelector(':scope > text.title')))
      out.push('UNTITLED svg.' + svg.getAttribute('class'));
  });
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var b = svg.getBoundingClientRect();
    svg.querySelectorAll('text').forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.right > b.right + 0.5 || r.left < b.left - 0.5)
        out.push('CUT "' + t.textContent + '" ' + r.left.toFixed(0) + '..' + r.right.toFixed(0) + ' in ' + b.left.toFixed(0) + '..' + b.right.toFixed(0));
    });
  });
  var p = document.createElement('pre');
  p.id = 'layout';
  p.textContent = 'checked ' + vw + '\n' + out.join('\n');
  document.body.appendChild(p);
});
</script>
EOF2
	layout_ok() { grep -q 'id="layout">checked' "$1" && ! grep -qE '^(PAGE|WIDE|SCROLLS|CUT|SMALL|UNTITLED) ' "$1"; }
	for page in r io; do
		cat "$WORK/$page.html" "$WORK/measure.js" > "$WORK/m-$page.html"
		for w in 1280 390; do
			chrome "chrome-$page-$w" "$WORK/m-$page.html" --window-size=$w,2000 --virtual-time-budget=5000 \
				--dump-dom 2>/dev/null | sed -n '/<pre id="layout">/,/<\/pre>/p' > "$WORK/layout-$page-$w"
			bad=$(sed -e 's|</pre>.*||' -e 's|&gt;|>|g' "$WORK/layout-$page-$w" | grep -E '^(PAGE|WIDE|SCROLLS|CUT|SMALL|UNTITLED) ' | head -3 | tr '\n' ';')
			check "$page page at $w px: nothing wider than the page, no text under 11 px, every chart titled${bad:+ ($bad)}" \
				layout_ok "$WORK/layout-$page-$w"
			chrome "chrome-$page-$w" "$WORK/$page.html" --window-size=$w,2400 \
				--screenshot="${TESTBIN:-$WORK}/../report-$page-$w.png" >/dev/null 2>&1
		done
	done
else
	skip "io page in Chromium" "chromium is not installed"
fi

# compare: the same suite again is not a regression; fsync per file is.
FSB run --suite "$WORK/fast.suite" --target a="$WORK/a" --target "b<&>=$WORK/b" --target c="$WORK/c" \
	--db "$DB" --label again -q 2>/dev/null
FSB run --suite "$WORK/slow.suite" --target a="$WORK/a" --target "b<&>=$WORK/b" --target c="$WORK/c" \
	--db "$DB" --label slow -q 2>/dev/null
FSB compare --label old --label slow --db "$DB" --fail-on-regression 20 >"$WORK/cmp" 2>"$WORK/cmp.err"; rc=$?
check "compare flags fsync-per-file as a regression (rc $rc)" [ "$rc" -eq 1 ]
check "compare names the regression" grep -q "^t .*Files/s .*REGRESSION" "$WORK/cmp"
check "compare says why it failed" grep -q "regression.* beyond 20.0%" "$WORK/cmp.err"
# a percentage is read one way everywhere: "20%" as run --precision 3% takes it
FSB compare --label old --label slow --db "$DB" --fail-on-regression 20% >/dev/null 2>"$WORK/cmp.err"; rc=$?
check "compare --fail-on-regression 20% is 20 (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'regression.* beyond 20.0%' '$WORK/cmp.err'"
FSB compare 1 3 --db "$DB" >"$WORK/cmp2"; rc=$?
check "compare without --fail-on-regression exits 0" [ "$rc" -eq 0 ]
check "compare gives each metric with its unit (App Overhead (usec), Space used (MiB))" \
	sh -c "grep -q 'App Overhead (usec)' '$WORK/cmp2' && grep -q 'Space used (MiB)' '$WORK/cmp2'"
check "compare matches every test x metric x target" \
	[ "$(grep '^[tu] ' "$WORK/cmp2" | grep -vc 'Write amplification\|Space used')" -eq 12 ]
# the answer first: one number per target over the tests, with the rule's
# calls (the bug: compare gave none, then a geometric mean at the bottom
# beside Welch's one-look marks, which the verdicts' rule contradicted)
check "compare opens with each target's geometric mean over the tests" \
	sh -c "sed -n 2p '$WORK/cmp2' | grep -q '^Answer: run 3 against run 1' &&
	       grep -Eq '^  a +[x/][0-9.]+  .*\(2 tests\)$' '$WORK/cmp2' && ! grep -qi welch '$WORK/cmp2'"
FSB run postmark:number=5,transactions=10 --target a="$WORK/a" --runs 1 --db "$DB" --label other -q 2>/dev/null
# --all promises every chart: one per metric, however many a test has (the
# bug: a test of more than 4 metrics got its primary chart alone)
nm=$(FSB show last --db "$DB" --format json | jq '.tests[0].metrics | length')
nc=$(FSB show last --db "$DB" --all | grep -Ec ' (> Higher|< Lower) Is Better$')
check "show --all: a chart for each of postmark's $nm metrics ($nc)" sh -c "[ $nm -gt 4 ] && [ $nc -ge $nm ]"
# and a test of more columns than charts is read as its seeds print it,
# in tables, without --all too (seed 002's fileop, 003's bonnie)
# its tables are detail: --all, or a suite's show = for a seed's own
FSB show last --db "$DB" > "$WORK/wide.txt"
check "show: a wide test's raw table only with --all" \
	sh -c "! grep -q '^postmark:number=5,transactions=10: means' '$WORK/wide.txt' &&
	       \"$FSBENCH\" show last --db '$DB' --all | grep -q '^postmark:number=5,transactions=10: means'"
FSB compare --label old --label other --db "$DB" >/dev/null 2>"$WORK/e"; rc=$?
check "compare exits 3 when nothing matched (rc $rc)" sh -c "[ $rc -eq 3 ] && grep -q 'nothing matched' '$WORK/e'"
FSB compare 1 --db "$DB" 2>"$WORK/e"; rc=$?
check "compare needs two runs" sh -c "[ $rc -eq 2 ] && grep -q 'two runs' '$WORK/e'"
FSB compare --label nosuch --label old --db "$DB" 2>"$WORK/e"; rc=$?
check "compare with an unknown label" sh -c "[ $rc -ne 0 ] && grep -q \"no stored run is labelled 'nosuch'\" '$WORK/e'"
FSB list runs --db "$DB" >"$WORK/runs"
check "list runs shows labels and status" grep -q "complete .*slow" "$WORK/runs"

# compare as JSON, Markdown and HTML (issue 17)
FSB compare --label old --label slow --db "$DB" --json "$WORK/cmp.json" --markdown "$WORK/cmp.md" \
	--html "$WORK/cmp.html" >/dev/null 2>&1; rc=$?
check "compare --json/--markdown/--html exits 0 (rc $rc)" [ "$rc" -eq 0 ]
check "compare JSON: schema and the regression" jqt '.schema == "fsbench.compare" and
	([.comparisons[0].rows[] | select(.test == "t" and .metric == "files_per_sec" and .regression)] | length) == 3' "$WORK/cmp.json"
check "compare JSON: speed, call and change where both sides have a value" \
	jqt '[.comparisons[0].rows[] | select(.group == "workload") | (.speedup != null and .call != null and .change_percent != null)] | all' "$WORK/cmp.json"
check "compare JSON: the answer, a geometric mean per target" \
	jqt '.schema_version == 2 and ([.comparisons[0].answer[] | select(.speedup > 0 and .tests >= 1)] | length) == 3' "$WORK/cmp.json"
check "compare Markdown: a table with the regression in bold" grep -q '^| t | Files/s | a | .*\*\*REGRESSION' "$WORK/cmp.md"
check "compare HTML: well-formed, the regression marked" \
	sh -c "xmllint --noout '$WORK/cmp.html' && grep -q 'class=\"slower\" data-label=\"verdict\">REGRESSION' '$WORK/cmp.html'"
FSB compare --label old --label slow --db "$DB" --json - 2>"$WORK/cmp.err2" >"$WORK/cmp.out"
check "compare --json -: the document alone on stdout, the table on stderr" \
	sh -c "jq -e '.comparisons | length == 1' '$WORK/cmp.out' >/dev/null && grep -q REGRESSION '$WORK/cmp.err2'"

# merged reports: several runs as one page, PTS's way (issue 17)
FSB report 1 2 --db "$DB" --html "$WORK/merged.html" --markdown "$WORK/merged.md" >/dev/null 2>&1
check "merged HTML: well-formed" xmllint --noout "$WORK/merged.html"
check "merged HTML: one page, each test once" \
	sh -c "[ \"\$(grep -c '<section class=\"test\"' '$WORK/merged.html')\" -eq 2 ] && [ \"\$(grep -c '<article' '$WORK/merged.html')\" -eq 1 ]"
check "merged HTML: the systems side by side" grep -q '<table class="runs"><tr><th></th><th>run 1: old</th><th>run 2: again</th>' "$WORK/merged.html"
check "merged HTML: every run's targets, told apart by the run's label" \
	sh -c "grep -q 'a (old)' '$WORK/merged.html' && grep -q 'a (again)' '$WORK/merged.html'"
FSB report 1 2 --db "$DB" >"$WORK/merged.txt" 2>&1
check "merged text: runs side by side, then each test's chart with 6 bars" \
	sh -c "grep -q '^Runs side by side' '$WORK/merged.txt' && [ \"\$(grep -c '^c (again) \.' '$WORK/merged.txt')\" -ge 2 ]"
check "merged text: the answer gives each target's geometric mean over the tests (PTS's)" \
	sh -c "grep -q '^Answer: speed against .* (geometric mean, 2 tests)' '$WORK/merged.txt' &&
	       grep -Eq '^  c \(again\) +[x/][0-9.]+' '$WORK/merged.txt'"
check "merged Markdown: the runs' table" grep -q '^| | run 1: old | run 2: again |' "$WORK/merged.md"
# the bug: the merged result's own H1 and first run's system table after
# the runs' table, two titles and the first system twice
check "merged Markdown: one H1, and the systems once (in the runs' table)" \
	sh -c "[ \"\$(grep -c '^# ' '$WORK/merged.md')\" -eq 1 ] && ! grep -q '^| | |$' '$WORK/merged.md'"
if command -v chromium >/dev/null; then
	mshot=${TESTBIN:-$WORK}/../merged-report.png
	chrome chrome3 "$WORK/merged.html" --dump-dom > "$WORK/mdom.html" 2>/dev/null
	bad=$(awk 'BEGIN { RS = "<svg class=\"chart wide\"" } NR > 1 { n = gsub(/<rect class="bar"/, "&"); if (n != 6) print NR": "n }' "$WORK/mdom.html")
	n=$(grep -c '<svg class="chart wide"' "$WORK/mdom.html")
	check "merged HTML in Chromium: every chart ($n, at least 4) has 6 bars (3 targets x 2 runs)" \
		sh -c "[ $n -ge 4 ] && [ -z '$bad' ]"
	chrome chrome4 "$WORK/merged.html" --window-size=1100,2400 --screenshot="$mshot" >/dev/null 2>&1
	check "merged report screenshot saved ($mshot)" [ -s "$mshot" ]
else
	skip "merged report in Chromium" "chromium is not installed"
fi
finish
