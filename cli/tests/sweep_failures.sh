#!/bin/sh
# A sweep with an invalid case (a negative stiffness) and an unstable one (mass-spring far above its
# stable stiffness): both are done and failed, each with its message in its summary and in the
# index, every other case succeeds, and the sweep exits with 1 (done, some cases failed). Another
# sweep into the same folder is then refused with exit 4.
#
#   sweep_failures.sh DRAPE SWEEP SCRATCH_DIR
set -eu
drape=$1 sweep=$2 out=$3/failures
rm -rf "$out"
mkdir -p "$3"
fail() { echo "FAILED: $*"; exit 1; }
rc=0
"$drape" sweep "$sweep" --out "$out" --jobs 2 > "$out.log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "exit $rc, expected 1: $(cat "$out.log")"
index=$out/index.jsonl
[ "$(wc -l < "$index")" = 5 ] || fail "the index has not 5 lines"
[ "$(find "$out" -path '*/case-*/done' | wc -l)" = 5 ] || fail "not every case is done"
line() { sed -n "$(($1 + 1))p" "$index"; }
for k in 0 2 4; do
    line $k | grep -q '"status":"ok"' || fail "case $k: $(line $k)"
done
line 1 | grep -q '"status":"failed".*"error":"[^"]*case-00001/scene.json: $.cloths\[0\].stretch.stiffness: must be in \[0, 1\], got -1"' ||
    fail "case 1 (negative stiffness): $(line 1)"
line 3 | grep -Eq '"status":"failed".*"error":"[^"]*(not finite|non-finite)' ||
    fail "case 3 (unstable): $(line 3)"
grep -q '"status":[[:space:]]*"failed"' "$out/case-00003/summary.json" || fail "case 3's summary"
[ "$(cat "$out/case-00003/done")" = failed ] || fail "case 3's marker"
grep -q "case-00001 failed: .*must be in \[0, 1\], got -1" "$out.log" || fail "no word of case 1"

# The folder now belongs to this sweep: another sweep into it is refused, and nothing is touched.
before=$(cd "$out" && find . -type f | sort | xargs cat | cksum)
rc=0
"$drape" sweep "$(dirname "$sweep")/three_ways.json" --out "$out" > "$out.other.log" 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "another sweep into the folder: exit $rc, expected 4"
grep -q "holds the outputs of another sweep" "$out.other.log" || fail "$(cat "$out.other.log")"
[ "$(cd "$out" && find . -type f | sort | xargs cat | cksum)" = "$before" ] ||
    fail "the refused sweep changed the folder"
echo "ok: the invalid and the unstable case failed with their messages, the other 3 succeeded;"
echo "another sweep into the same folder was refused"
