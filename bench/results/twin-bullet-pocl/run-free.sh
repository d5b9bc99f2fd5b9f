#!/bin/bash
# the same links, no colliders: drape run on free256.json (OpenCL) against the twin, alternating
for round in 1 2 3; do
  for th in 1 2; do
    echo "# round $round threads $th $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    POCL_MAX_PTHREAD_COUNT=$th ${DRAPE_BIN:-../../../build/bin}/drape run free256.json --backend opencl --steps 300 2>&1 | tail -1 | sed "s/^/DRAPE-FREE threads=$th /"
    POCL_MAX_PTHREAD_COUNT=$th ./twin_bench --drape-links --reps 3 2>&1 | grep -E "^RESULT" | sed "s/^/TWIN-DRAPE-LINKS threads=$th /"
  done
done
