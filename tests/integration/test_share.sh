# test_share.sh: a run moves between machines as one JSON document
# (issue 17): fsbench export writes it, it validates against the
# published JSON Schema (docs/result.schema.json), fsbench import merges it
# into another store without losing a digit, once, and refuses documents
# that do not hold together, changing nothing.
. "$(dirname "$0")/lib.sh"

schema=$(dirname "$0")/../../docs/result.schema.json
mkdir -p "$WORK/a" "$WORK/b"
FSB run fsmark:files=20 "io:rw=randread,size=4m,bs=4k" --target a="$WORK/a" --target b="$WORK/b" --runs 2 \
	--db "$DB" --label from-a --note "machine A" -q >/dev/null 2>&1
FSB export last --db "$DB" -o "$WORK/run.json"
check "export writes the document" jqt '.schema == "fsbench.result" and .schema_version == 4 and .run.label == "from-a"' "$WORK/run.json"

# validate: the JSON Schema itself, the exported document, run --json's,
# and a document the schema must reject
validate() {	# validate FILE: 0 when valid
	/usr/bin/python3 - "$schema" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
PY
}
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "the exported document validates against docs/result.schema.json" validate "$WORK/run.json"
	FSB show last --db "$DB" -f json > "$WORK/show.json"
	check "show --format json validates too" validate "$WORK/show.json"
	jq '.run.status = "finished-ish"' "$WORK/run.json" > "$WORK/bad-status.json"
	check "the schema rejects an unknown status" sh -c "! /usr/bin/python3 -c '
import json, jsonschema
jsonschema.Draft202012Validator(json.load(open(\"$schema\"))).validate(json.load(open(\"$WORK/bad-status.json\")))' 2>/dev/null"
	jq 'del(.tests[0].samples[0].values)' "$WORK/run.json" > "$WORK/bad-values.json"
	check "the schema rejects a sample without values" sh -c "! /usr/bin/python3 -c '
import json, jsonschema
jsonschema.Draft202012Validator(json.load(open(\"$schema\"))).validate(json.load(open(\"$WORK/bad-values.json\")))' 2>/dev/null"
else
	skip "JSON Schema validation" "python3-jsonschema is not installed (scripts/install-deps installs it)"
fi

# import into another store: the same document comes back out
DB2=$WORK/other.db
FSB run fsmark:files=10 --target "$WORK/a" --runs 1 --db "$DB2" -q >/dev/null 2>&1	# run 1 there
FSB import "$WORK/run.json" --db "$DB2" > "$WORK/imp" 2>&1; rc=$?
check "import exits 0 and says the new run's number (rc $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'imported as run 2' '$WORK/imp'"
FSB export 2 --db "$DB2" -o "$WORK/back.json"
check "export of the import is the same document, to the last digit (but the run's number)" \
	sh -c "[ \"\$(jq -S 'del(.run.id)' '$WORK/run.json')\" = \"\$(jq -S 'del(.run.id)' '$WORK/back.json')\" ]"
FSB import "$WORK/run.json" --db "$DB2" > "$WORK/imp2" 2>&1; rc=$?
check "importing it again finds it (rc $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'already in the store as run 2' '$WORK/imp2'"
check "two runs there, not three" [ "$(FSB list runs --db "$DB2" | grep -c '^ *[0-9]')" -eq 2 ]
FSB show 2 --db "$DB2" > "$WORK/show2.txt" 2>&1
check "show renders the imported run, note included" grep -q '^Note: machine A' "$WORK/show2.txt"
FSB compare 2 2 --db "$DB2" > /dev/null 2>&1
check "compare works on it" [ $? -eq 0 ]
jq '.schema_version = 1 | del(.tests[].device) | del(.run.note)' "$WORK/run.json" > "$WORK/v1.json"
jq '.run.started = "2001-01-01 00:00:00"' "$WORK/v1.json" > "$WORK/v1b.json"
FSB import "$WORK/v1b.json" --db "$DB2" >/dev/null 2>&1
check "a version-1 document (no device group) imports" [ $? -eq 0 ]

# jq writes a wide interval's 5.2e19 as 52126828535204135000, an integer
# beyond int64: the document still imports (it failed, by chance, when a
# run's figures spread that far).
jq '.run.started = "2001-06-06 00:00:00" | .tests[0].metrics[0].results[0].ci95[1] = 52126828535204135000' \
	"$WORK/run.json" > "$WORK/big.json"
FSB import "$WORK/big.json" --db "$DB2" >/dev/null 2>"$WORK/big.err"
check "a figure jq wrote as a too-big integer still imports" [ $? -eq 0 ]

# issue 69: one target's figures 1e308, 100, 0 made show, report,
# compare and export abort in GSL's default error handler (exit 134), and
# a log axis up to 1e308 wrote an 84 GB page (its ticks' loop never
# ended).  Every renderer reads such a run, exits 0, and writes a bounded
# document; each runs under a file-size limit and a timeout.
jq '.run.started = "2005-05-05 00:00:00" | .tests |= map(.samples |= [to_entries[] |
	if .value.target == "a" then .value.values |= with_entries(.value =
		(if (.value | type) == "number" then [1e308, 100, 0][(.key | length) % 3] else .value end))
	| .value else .value end])' "$WORK/run.json" > "$WORK/extreme.json"
FSB import "$WORK/extreme.json" --db "$DB2" >"$WORK/ext.out" 2>&1
xid=$(sed -n 's/.*imported as run \([0-9]*\).*/\1/p' "$WORK/ext.out")
check "a run of extreme figures imports (run ${xid:-none})" [ -n "$xid" ]
for how in "show $xid" "show $xid --all" "show $xid -f json" "show $xid -f csv" "show $xid -f markdown" \
	"report $xid --html $WORK/ext.html --markdown $WORK/ext.md" "export $xid -o $WORK/ext-out.json" \
	"compare 2 $xid --json $WORK/ext-c.json --html $WORK/ext-c.html"; do
	( ulimit -f 65536; timeout 120 "$FSBENCH" $how --db "$DB2" >"$WORK/ext.stdout" 2>"$WORK/ext.err" ); rc=$?
	check "extreme figures: $how exits 0 (rc $rc), under 64 MB" \
		sh -c "[ $rc -eq 0 ] && [ \$(wc -c < '$WORK/ext.stdout') -lt 67108864 ]"
done
check "extreme figures: the pages are well-formed" \
	sh -c "xmllint --noout '$WORK/ext.html' && xmllint --noout '$WORK/ext-c.html' &&
	       jq -e . '$WORK/ext-out.json' >/dev/null"

# refused whole, the store unchanged
before=$(FSB list runs --db "$DB2" | grep -c '^ *[0-9]')
refuse_import() {	# refuse_import WHAT FILE MESSAGE
	FSB import "$2" --db "$DB2" >/dev/null 2>"$WORK/err"; local rc=$?
	check "import refuses $1 (exit 2)" sh -c "[ $rc -eq 2 ] && grep -q '$3' '$WORK/err' &&
		[ \"\$('$FSBENCH' list runs --db '$DB2' | grep -c '^ *[0-9]')\" -eq $before ]"
}
echo '{ not json' > "$WORK/junk.json"
refuse_import "what is not JSON" "$WORK/junk.json" "not JSON"
jq '.schema = "something.else"' "$WORK/run.json" > "$WORK/x1.json"
refuse_import "another schema" "$WORK/x1.json" "not an fsbench run"
jq '.run.started = "2002-02-02 00:00:00" | .tests[1].samples[0].target = "nosuch"' "$WORK/run.json" > "$WORK/x2.json"
refuse_import "a sample of no target (after the first test was fine)" "$WORK/x2.json" "names no target"
jq '.run.started = "2003-03-03 00:00:00" | .tests[0].metrics[1].name = .tests[0].metrics[0].name' "$WORK/run.json" > "$WORK/x3.json"
refuse_import "a metric named twice" "$WORK/x3.json" "twice"
jq '.run.started = "2004-04-04 00:00:00" | .targets[0].label = 7' "$WORK/run.json" > "$WORK/x4.json"
refuse_import "a label that is not a string" "$WORK/x4.json" "not a string"
finish
