#!/bin/bash
# usage: kprof.sh BIN [steps] ; CPU ms per step by DSO (cpu-clock samples at 4 kHz)
BIN=$1; STEPS=${2:-100}; SCENE=${SCENE:?set SCENE to the scene file}; BACK=${BACK:-opencl}
POCL_MAX_PTHREAD_COUNT=${T:-1} perf record -q -F 4000 -o /tmp/kprof.$$ $BIN run $SCENE --backend $BACK --steps $STEPS >/dev/null 2>&1
perf report -i /tmp/kprof.$$ --no-children --stdio --sort dso -F overhead,sample,dso 2>/dev/null | awk -v s=$STEPS '/^ +[0-9]/ {n=$2; ms=n/4.0/s; if (ms>0.05) printf "%8.3f ms/step  %s\n", ms, $3}' | sort -rn | head -8
rm -f /tmp/kprof.$$
