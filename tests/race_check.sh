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
# Oclgrind's reports go to its stderr, which each run below keeps as its log: with --log FILE it
# starts the file again for each context, so that only the last world's kernels were checked
grind=(oclgrind --data-races --check-api --num-threads 1)

# 1. the planted race is reported
log=$scratch/planted.log
rm -f "$log"
"${grind[@]}" "$scenes" planted "$planted" 2>"$log"
if ! grep -qi "data race" "$log"; then
  echo "race_check: Oclgrind did not report the planted race in $planted; its log:" >&2
  cat "$log" >&2
  exit 1
fi
echo "race_check: the planted race is reported"

# 2. the solver's kernels are clean, twice: Oclgrind says it is every kind of device at once, so
# the particle contacts first take the GPUs' choices (grid order, work-group scans, the 27-cell
# candidate search), then the CPU devices' (index order, serial scans, the half-shell search with
# its atomic appends); both with the contact passes over their member lists, so that the kernels
# that build the lists run here (docs/opencl-variants.md)
gpu_choices=(DRAPE_PARTICLE_ORDER=grid DRAPE_PARTICLE_SCAN=groups DRAPE_PARTICLE_SEARCH=full)
cpu_choices=(DRAPE_PARTICLE_ORDER=index DRAPE_PARTICLE_SCAN=serial DRAPE_PARTICLE_SEARCH=half)
for choices in gpu cpu; do
  log=$scratch/scenes-$choices.log
  rm -f "$log"
  declare -n set_of="${choices}_choices"
  status=0
  env DRAPE_DEVICE= DRAPE_CACHE_DIR= DRAPE_DISTANCE_KERNEL= DRAPE_PARTICLE_PASSES=lists \
    "${set_of[@]}" "${grind[@]}" "$scenes" 2>"$log" || status=$?
  if [ "$status" -ne 0 ] || grep -qiE "error|race|invalid|out-of-bounds" "$log"; then
    echo "race_check: exit status $status, Oclgrind reports errors in drape's kernels ($choices devices' choices):" >&2
    head -c 20000 "$log" >&2
    exit 1
  fi
  echo "race_check: no race, out-of-bounds access or API error in any kernel ($choices devices' choices)"
done
