#!/usr/bin/env bash
# Two builds of drape-bench-particles side by side: RUNS alternating pairs of the balls in a box
# (1 substep x 4 iterations, --settle 30 --steps 20) at SIZE balls (5000 unless given), then the
# medians of each build's wall and CPU ms per step on the CPU reference and on OpenCL, and their
# ratio. Pairs run one after the other, so that a shared machine's load falls on both alike.
#
#   bash bench/ab-particles.sh RUNS BASE_BIN NEW_BIN [SIZE]
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: bench/ab-particles.sh RUNS BASE_BIN NEW_BIN [SIZE]" >&2; exit 2; }
runs=$1 base=$2 new=$3 size=${4:-5000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$runs"); do
  for b in base new; do
    bin=$base; [[ $b == new ]] && bin=$new
    "$bin" --sizes "$size" --settle 30 --steps 20 --json "$tmp/$b-$i.json" >/dev/null 2>&1 ||
      { echo "ab-particles: $bin failed" >&2; exit 1; }
  done
done
python3 - "$runs" "$tmp" <<'PY'
import json, statistics, sys
runs, tmp = int(sys.argv[1]), sys.argv[2]
for backend in ("cpu", "opencl"):
    for key in ("ms_per_step", "cpu_ms_per_step"):
        med = []
        for b in ("base", "new"):
            vals = [c[key] for i in range(1, runs + 1)
                    for c in json.load(open(f"{tmp}/{b}-{i}.json"))["cases"]
                    if c["backend"] == backend]
            med.append(statistics.median(vals) if vals else float("nan"))
        print(f"{backend:7s} {key:16s} base {med[0]:.3f}  new {med[1]:.3f}  new/base "
              f"{med[1] / med[0]:.3f}")
PY
