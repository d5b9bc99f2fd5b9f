#!/bin/sh
# mk.sh NAME HEADER: builds harness.c against HEADER (a version of kernels/drape_shared.h) as
# /tmp/h/h-NAME (timing, -march=native) and /tmp/h/g-NAME (for valgrind --tool=cachegrind
# --branch-sim=yes), with DR_HOT always_inline as the OpenCL build has it (PoCL inlines the walk).
set -e
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/h/$1
sed 's/^#define DR_HOT static inline$/#define DR_HOT static inline __attribute__((always_inline))/' \
    "$2" >/tmp/h/$1/drape_shared.h
clang -std=c17 -O2 -march=native -ffp-contract=off -I/tmp/h/$1 "$here/harness.c" -lm -o /tmp/h/h-$1
clang -std=c17 -O2 -g -ffp-contract=off -I/tmp/h/$1 "$here/harness.c" -lm -o /tmp/h/g-$1
