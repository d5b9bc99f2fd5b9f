#!/bin/sh
# Sweep throughput: the 200 cases of throughput.json with --jobs 1 and with --jobs 2, side by side in
# one run, in cases per minute (wall time of the whole command, folder set-up and index included).
# The two runs must also give the same bytes per case. Not a test: run it by hand on a quiet machine.
#
#   bench/sweep/sweep_throughput.sh [DRAPE] [SCRATCH_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
drape=${1:-$here/../../build/bin/drape}
dir=${2:-${TMPDIR:-/tmp}/drape-sweep-throughput}
rm -rf "$dir"
mkdir -p "$dir"
now() { date +%s.%N; }
for jobs in 1 2; do
    t0=$(now)
    "$drape" sweep "$here/throughput.json" --out "$dir/jobs$jobs" --jobs "$jobs" > "$dir/jobs$jobs.log"
    t1=$(now)
    echo "$jobs $t0 $t1" >> "$dir/times"
done
awk '{ s = $3 - $2; printf "--jobs %s: 200 cases in %.1f s, %.0f cases/min\n", $1, s, 200 * 60 / s;
       r[NR] = s } END { printf "speed-up of --jobs 2 over --jobs 1: %.2f\n", r[1] / r[2] }' "$dir/times"
(cd "$dir/jobs1" && find . -type f) | while read -r f; do
    cmp -s "$dir/jobs1/$f" "$dir/jobs2/$f" || { echo "DIFFERENT: $f"; exit 1; }
done
echo "every file the same with --jobs 1 and --jobs 2; $(nproc) cores"
