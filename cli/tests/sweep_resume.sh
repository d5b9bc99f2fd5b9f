#!/bin/sh
# A worker killed in the middle of a case: the sweep carries on with the other worker and exits 5
# (incomplete), leaving the killed case's staging folder and no case folder for it. Running the
# same command again removes the partial files, runs only the cases that are not done, and ends
# with every case done exactly once: the cases done before keep their files (same inodes), the
# index has one line per case, and no staging folder or temporary file is left.
#
# With an MPI launcher command, MPI rank 1 is killed instead: MPI then ends the whole job, and the
# same command again finishes the sweep in the same way.
#
#   sweep_resume.sh DRAPE SWEEP SCRATCH_DIR [MPIRUN ARGS...]
set -eu
drape=$1 sweep=$2 out=$3/resume
shift 3
launcher=""
if [ $# -gt 0 ]; then
    launcher="$* -np 3"
    out=$out-mpi
fi
rm -rf "$out" "$out.first" "$out.second"
mkdir -p "$(dirname "$out")"
. "$(dirname "$0")/sweep_background.sh"

start_sweep 3
victim=""
for p in $(pgrep -P "$parent"); do
    if [ -z "$launcher" ] ||
        tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
        victim=$p
        break
    fi
done
[ -n "$victim" ] || fail "no worker process to kill"
# Kill while the victim's own case is staged (OUT/.partial/case-NNNNN.TAG, TAG r1 for MPI rank 1,
# else p and the worker's pid): between two cases a killed worker leaves no staging folder, and
# another worker's staging folder says nothing of the victim's. The victim is stopped while its
# folder is looked for, so that it cannot finish the case between the look and the kill.
tag="p$victim"
[ -z "$launcher" ] || tag="r1"
tries=0
while :; do
    kill -STOP "$victim" 2>/dev/null || fail "the worker to kill ended early: $(cat "$out.log")"
    ls "$out/.partial" 2>/dev/null | grep -q -x "case-[0-9]*\.$tag" && break
    kill -CONT "$victim"
    tries=$((tries + 1))
    [ $tries -lt 2000 ] || fail "the worker to kill never had a case staged"
    sleep 0.005
done
kill -KILL "$victim"
rc=0
wait "$parent" || rc=$?
if [ -z "$launcher" ]; then
    [ "$rc" = 5 ] || fail "the first run exited with $rc, expected 5: $(cat "$out.log")"
    grep -q "not done (a worker died)" "$out.log" || fail "no word of the dead worker: $(cat "$out.log")"
else
    [ "$rc" != 0 ] || fail "the first run exited with 0 although rank 1 was killed"
fi
ls "$out/.partial" 2>/dev/null | grep -q -x "case-[0-9]*\.$tag" ||
    fail "the killed case left no staging folder"
first=$(done_cases)
[ "$first" -lt 16 ] || fail "every case is done although a worker was killed"
(cd "$out" && stat -c '%n %i' case-*/done case-*/summary.json | sort) > "$out.first"

run_sweep > "$out.log" 2>&1 || fail "the second run: $(cat "$out.log")"
grep -q "$first of 16 cases were done by an earlier run" "$out.log" ||
    fail "the second run did not skip the $first done cases: $(cat "$out.log")"
[ "$(done_cases)" = 16 ] || fail "$(done_cases) cases done, expected 16"
(cd "$out" && stat -c '%n %i' case-*/done case-*/summary.json | sort) > "$out.second"
# The files of the cases done before are the very same files: not run again.
while read -r line; do
    grep -qx "$line" "$out.second" || fail "redone: $line"
done < "$out.first"
[ "$(wc -l < "$out/index.jsonl")" = 16 ] || fail "the index has not 16 lines"
[ "$(grep -c '"status":"ok"' "$out/index.jsonl")" = 16 ] || fail "not every case is ok"
for k in $(seq 0 15); do
    [ "$(grep -c "^{\"case\":$k," "$out/index.jsonl")" = 1 ] || fail "case $k not once in the index"
done
left=$(find "$out" -name '.partial' -o -name '*.tmp*')
[ -z "$left" ] || fail "partial files left: $left"
who="a worker"
[ -z "$launcher" ] || who="MPI rank 1"
echo "ok: $who killed; the first run ended with $first of 16 done, the re-run did the other $((16 - first)), each once"
