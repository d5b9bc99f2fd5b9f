#!/bin/bash
# ab.sh RUNS: alternating pairs of the particle bench at 5000 balls, base (dd92198) and main
for i in $(seq 1 $1); do
  for b in base main; do
    bin=/tmp/base-build/bin/drape-bench-particles; [ $b = main ] && bin=/work/main/build/bin/drape-bench-particles
    $bin --sizes 5000 --settle 30 --steps 20 --json /tmp/ab/$b-$i.json >/dev/null 2>&1
  done
done
python3 - "$1" <<'PY'
import json,sys,statistics as st
n=int(sys.argv[1])
for be in ("cpu","opencl"):
  for key in ("ms_per_step","cpu_ms_per_step"):
    row=[]
    for b in ("base","main"):
      v=[ [c[key] for c in json.load(open(f"/tmp/ab/{b}-{i}.json"))["cases"] if c["backend"]==be][0] for i in range(1,n+1)]
      row.append(st.median(v))
    print(f"{be:7s} {key:16s} base {row[0]:.3f}  main {row[1]:.3f}  main/base {row[1]/row[0]:.3f}")
PY
