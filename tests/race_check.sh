#!/usr/bin/env bash
# The race check: every kernel of drape, in every distance-kernel variant, run on tiny scenes under
# Oclgrind (an OpenCL device simulator) with its data-race and out-of-bounds checks and API checks.
# Its uninitialised-read check is left off: it reports false positives after clEnqueueFillBuffer.
# First the planted race of tests/kernels/planted_race.cl must be reported, so that a clean run is
# known to mean something. Skips (77) where oclgrind is not installed (scripts/setup.sh installs it).
#
#   race_check.sh RACE_SCENES_BINARY PLANTED_KERNEL SCRATCH_DIR
set -euo pipefail
scenes=$1 planted=$2 scratch=$3
command -v oclgrind >/dev/null || { echo "oclgrind not installed: skipped"; exit 77; }
mkdir -p "$scratch"
grind=(oclgrind --data-races --check-api --num-threads 1)

# 1. the planted race is reported
log=$scratch/planted.log
rm -f "$log"
"${grind[@]}" --log "$log" "$scenes" planted "$planted"
if ! grep -qi "data race" "$log"; then
  echo "race_check: Oclgrind did not report the planted race in $planted; its log:" >&2
  cat "$log" >&2
  exit 1
fi
echo "race_check: the planted race is reported"

# 2. the solver's kernels are clean
log=$scratch/scenes.log
rm -f "$log"
# the contact passes over their member lists (the default on CPU devices), whatever kind of device
# Oclgrind says it is, so that the kernels that build the lists run here
DRAPE_DEVICE= DRAPE_CACHE_DIR= DRAPE_DISTANCE_KERNEL= DRAPE_PARTICLE_PASSES=lists \
  "${grind[@]}" --log "$log" "$scenes"
if [ -s "$log" ] && grep -qiE "error|race|invalid|out-of-bounds" "$log"; then
  echo "race_check: Oclgrind reports errors in drape's kernels:" >&2
  head -c 20000 "$log" >&2
  exit 1
fi
echo "race_check: no race, out-of-bounds access or API error in any kernel"
