#!/bin/sh
# A second sweep command on a folder that one is filling is refused (exit 4). Ctrl-C (SIGINT) stops a
# sweep cleanly: exit 130, every case folder complete, no staging folder or
# temporary file left, an index with the cases not done marked "pending"; the same command then
# finishes the sweep.
#
#   sweep_interrupt.sh DRAPE SWEEP SCRATCH_DIR
set -eu
drape=$1 sweep=$2 out=$3/interrupt
rm -rf "$out"
mkdir -p "$3"
. "$(dirname "$0")/sweep_background.sh"

start_sweep 2
# While it runs, the folder is locked: a second command on it is refused.
rc=0
"$drape" sweep "$sweep" --out "$out" --jobs 1 > "$out.second.log" 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "a second sweep on the folder: exit $rc, expected 4: $(cat "$out.second.log")"
grep -q "is in use by another drape sweep" "$out.second.log" || fail "$(cat "$out.second.log")"
kill -INT "$parent"
rc=0
wait "$parent" || rc=$?
[ "$rc" = 130 ] || fail "exit $rc after SIGINT, expected 130: $(cat "$out.log")"
grep -q "interrupted" "$out.log" || fail "no word of the interruption: $(cat "$out.log")"
left=$(find "$out" -name '.partial' -o -name '*.tmp*')
[ -z "$left" ] || fail "partial files left: $left"
for d in "$out"/case-*; do
    [ -f "$d/done" ] && [ -f "$d/summary.json" ] && [ -f "$d/scene.json" ] || fail "$d is not complete"
done
grep -q '"status":"pending"' "$out/index.jsonl" || fail "no pending case in the index"
"$drape" sweep "$sweep" --out "$out" --jobs 2 > "$out.log" 2>&1 || fail "the re-run: $(cat "$out.log")"
[ "$(done_cases)" = 16 ] || fail "$(done_cases) cases done after the re-run, expected 16"
echo "ok: interrupted cleanly, finished by the re-run"
