#!/bin/bash
# usage: ab3.sh RUNS SIZE BIN... -- alternates drape-bench-particles binaries; prints the CPU
# reference's ms per step, OpenCL ms per step and CPU/CL, and the device ms per step of
# particle_pass_scatter, particle_count(_half) and particle_gather (DRAPE_PROFILE_KERNELS=1)
runs=$1; size=$2; shift 2
for r in $(seq $runs); do for bin in "$@"; do
  out=$(DRAPE_PROFILE_KERNELS=1 $bin --sizes $size --steps 20 --settle 10 2>&1)
  cpu=$(echo "$out" | awk '$2=="cpu"{print $3}'); cl=$(echo "$out" | awk '$2=="opencl"{print $3, $NF}')
  k=$(echo "$out" | awk '$1~/^particle_(count|count_half|gather|pass_scatter)$/{printf "%s=%.2f ", $1, $3/20}')
  echo "$(basename $bin) cpu=$cpu cl,ratio=$cl $k"
done; done
