#!/bin/sh
# `drape run` on a scene that blows up: exit 1, a message naming the non-finite state, the particle
# and the phase, no CSV dump, and no non-finite number in any OBJ frame written before the failure.
#
#   unstable.sh DRAPE SCENE.json SCRATCH_DIR [BACKEND]
#
# Exit 77 (skipped) for BACKEND opencl where `drape devices` shows no device.
set -u
drape=$1 scene=$2 dir=$3/unstable-${4:-cpu}
if [ "${4:-cpu}" = opencl ] && { ! "$drape" devices >/dev/null 2>&1 ||
                                 "$drape" devices 2>/dev/null | grep -q '^no OpenCL devices'; }; then
  echo "no OpenCL device (or a build without OpenCL): skipped"
  exit 77
fi
rm -rf "$dir"
mkdir -p "$dir"
"$drape" run "$scene" --backend "${4:-cpu}" --export-obj "$dir/obj" --dump "$dir/final.csv" \
  >"$dir/out" 2>"$dir/err"
code=$?
[ "$code" = 1 ] || { echo "FAILED: exit code $code, expected 1"; cat "$dir/err"; exit 1; }
grep -q 'non-finite.*particle [0-9]* first, in the' "$dir/err" ||
  { echo "FAILED: no message naming the particle and the phase:"; cat "$dir/err"; exit 1; }
[ ! -e "$dir/final.csv" ] || { echo "FAILED: a CSV dump was written"; exit 1; }
frames=$(ls "$dir/obj" | wc -l)
[ "$frames" -ge 2 ] || { echo "FAILED: only $frames OBJ frames before the failure"; exit 1; }
if grep -qiE 'nan|inf' "$dir"/obj/*.obj "$dir/out"; then
  echo "FAILED: a non-finite number was written"; exit 1
fi
echo "ok: exit 1 after $frames good frames: $(cat "$dir/err")"
