#!/bin/bash
# The distance projection on PoCL before and after, side by side: for each round, for one and two
# PoCL threads, the two drape-bench binaries in turn (A B A B ...).
#   bash run.sh BEFORE/drape-bench AFTER/drape-bench ROUNDS OUTDIR
set -eu
before=$1 after=$2 rounds=${3:-3} out=${4:-.}
mkdir -p "$out"
for r in $(seq "$rounds"); do
  for t in 1 2; do
    for which in before after; do
      bin=$before; [ "$which" = after ] && bin=$after
      echo "round $r, $t thread(s), $which: load $(cut -d' ' -f1 /proc/loadavg)"
      POCL_MAX_PTHREAD_COUNT=$t "$bin" --backends opencl --sizes 64,256 --iterations 5 \
        --substeps 1,4 --target-ms 300 --repetitions 5 --probe-mib 0 \
        --csv "$out/$which-t$t-r$r.csv" > "$out/$which-t$t-r$r.txt" 2>&1
    done
  done
done
