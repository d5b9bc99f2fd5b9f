#!/bin/bash
# side by side: drape-bench (256², 5 it x 1 ss, OpenCL on PoCL) and Bullet 2.82's OpenCL cloth
# (the twin) on the same link set, alternating, 1 and 2 PoCL threads, 3 rounds
D=${DRAPE_BIN:-../../../build/bin}/drape-bench
T=./twin_bench
for round in 1 2 3; do
  for th in 1 2; do
    echo "# round $round threads $th $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    POCL_MAX_PTHREAD_COUNT=$th $D --backends opencl --sizes 256 --iterations 5 --substeps 1 --target-ms 300 --repetitions 5 --probe-mib 0 2>&1 | grep "^opencl#0 " | head -1 | sed "s/^/DRAPE threads=$th /"
    POCL_MAX_PTHREAD_COUNT=$th $T --drape-links 2>&1 | grep -E "^RESULT|links=" | sed "s/^/TWIN-DRAPE-LINKS threads=$th /"
    POCL_MAX_PTHREAD_COUNT=$th $T 2>&1 | grep -E "^RESULT" | sed "s/^/TWIN-BULLET-LINKS threads=$th /"
  done
done
