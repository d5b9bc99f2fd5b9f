#!/usr/bin/env bash
# Side by side, in turn: the contact passes (one binary, the scene's contact_passes 0 or 8) and
# restitution's rounds (two binaries of one source: DR_BOUNCE_ROUNDS 1, BEFORE, and 8, AFTER), wall ms per step from
# `drape run --json`, on the CPU reference and PoCL.
#   bash run.sh BEFORE_DRAPE AFTER_DRAPE [REPEATS]
set -euo pipefail
before=$1 after=$2 repeats=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
ms() { "$1" run "$2" --json --backend "$3" ${4:+--steps $4} 2>/dev/null |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.3f" % d["ms_per_step"])'; }
for r in $(seq "$repeats"); do
  for ss in 1 4; do for be in cpu opencl; do for cp in 0 8; do
    echo "contact-passes cloth-layers ${ss}ss passes=$cp $be $(ms "$after" "$here/cloth-layers-${ss}ss-${cp}passes.json" $be)"
  done; done; done
  for s in 1x4 4x8; do for be in cpu opencl; do
    echo "rounds balls-e0.5-$s one $be $(ms "$before" "$here/balls-e0.5-$s.json" $be 120)"
    echo "rounds balls-e0.5-$s eight $be $(ms "$after" "$here/balls-e0.5-$s.json" $be 120)"
  done; done
done
