#!/usr/bin/env bash
# OpenCL C that PoCL's compiler accepts but stricter ones refuse, in the kernel sources: variadic
# macros, which OpenCL C 1.2 does not allow (section 6.9) and NVIDIA's OpenCL compiler rejects
# ("variadic macros not supported in OpenCL"), so that every kernel program fails to build there.
# The test suite's device (PoCL) cannot catch that; this check does.
#
#   tests/kernel_lint.sh KERNELS_DIR
set -u
dir=${1:?usage: kernel_lint.sh KERNELS_DIR}
pattern='__VA_ARGS__|#[[:space:]]*define[[:space:]]+[A-Za-z_0-9]+\([^)]*\.\.\.[[:space:]]*\)'
hits=$(grep -nE "$pattern" "$dir"/*.cl "$dir"/*.h)
if [[ -n $hits ]]; then
  echo "kernel_lint: variadic macros in $dir, which OpenCL C 1.2 does not allow:"
  echo "$hits"
  exit 1
fi
echo "kernel_lint: no variadic macros in $dir"
