#!/usr/bin/env bash
# The side-by-side measurement of this folder: drape-bench's 256² cloth, 5 iterations x 1 substep,
# before and after, one and two PoCL threads, interleaved (before, after, before, after ...) so that
# both see the same load; then each build's device time per kernel on one thread.
#   bash run.sh BEFORE_BENCH AFTER_BENCH [ROUNDS]   (writes the raw outputs beside this script)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
before=$1 after=$2 rounds=${3:-3}
args=(--backends opencl --sizes 256 --iterations 5 --substeps 1 --target-ms 300 --repetitions 5
  --probe-mib 0)
for r in $(seq "$rounds"); do
  for t in 1 2; do
    for b in before after; do
      bin=$before
      [ $b = after ] && bin=$after
      echo "$b t$t r$r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$here/load.txt"
      POCL_MAX_PTHREAD_COUNT=$t "$bin" "${args[@]}" --csv "$here/$b-t$t-r$r.csv" \
        >"$here/$b-t$t-r$r.txt" 2>&1
    done
  done
done
for b in before after; do
  bin=$before
  [ $b = after ] && bin=$after
  DRAPE_PROFILE_KERNELS=1 POCL_MAX_PTHREAD_COUNT=1 "$bin" "${args[@]}" >"$here/$b-kernels-t1.txt" 2>&1
done
