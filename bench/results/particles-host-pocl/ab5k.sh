#!/bin/bash
# usage: ab5k.sh RUNS A B -- alternates two drape-bench-particles binaries on 5000 balls (200 timed
# steps after 30, OpenCL only); prints each run's OpenCL wall and CPU ms per step
runs=$1; a=$2; b=$3
for r in $(seq $runs); do for bin in $a $b; do
  out=$($bin --sizes 5000 --steps 200 --settle 30 --no-cpu 2>&1)
  echo "$(basename $bin) $(echo "$out" | awk '$2=="opencl"{print $3, $4}')"
done; done
