#!/bin/bash
# usage: pp-ab.sh RUNS SIZE A B  -- alternates A and B; prints cpu and opencl ms/step, CPU/CL, and
# the device ms per step of particle_count (or particle_count_half), particle_gather and
# particle_bounce (DRAPE_PROFILE_KERNELS=1)
runs=$1; size=$2; a=$3; b=$4; steps=${STEPS:-20}
for r in $(seq $runs); do
  for bin in $a $b; do
    out=$(DRAPE_PROFILE_KERNELS=1 $bin --sizes $size --steps $steps --settle 10 2>&1)
    echo "$out" >> raw-$(basename $bin)-$size.txt
    cpu=$(echo "$out" | awk '$2=="cpu"{print $3}')
    cl=$(echo "$out" | awk '$2=="opencl"{print $3, $NF}')
    k=$(echo "$out" | awk -v s=$steps '$1~/^particle_(count|count_half|gather|bounce)$/{printf "%s=%.1f ", $1, $3/s}')
    echo "$(basename $bin) cpu=$cpu cl,ratio=$cl $k"
  done
done
