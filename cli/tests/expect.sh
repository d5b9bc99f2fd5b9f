#!/bin/sh
# Runs a command and checks its exit code and output: the CLI tests of `drape`.
#
#   expect.sh CODE STDOUT_REGEX STDERR_REGEX COMMAND [ARGS...]
#
# CODE is the exit code the command must return; each regex (grep -E, "" for none) must match
# (with EXPECT_STDOUT=FILE in the environment stdout goes to FILE, e.g. /dev/full, instead)
# somewhere in that stream. With REQUIRE_OPENCL=1 in the environment the test is skipped (exit 77)
# when `COMMAND devices` finds no OpenCL device. With EXPECT_ONCE=REGEX, exactly one line of stderr
# must match REGEX (a message said twice is a defect).
set -u
code=$1 out_re=$2 err_re=$3
shift 3
if [ "${REQUIRE_OPENCL:-0}" = 1 ]; then
  if ! "$1" devices >/dev/null 2>&1 || "$1" devices 2>/dev/null | grep -q '^no OpenCL devices'; then
    echo "no OpenCL device: skipped"
    exit 77
  fi
fi
tmp=${TMPDIR:-/tmp}/drape-expect.$$
trap 'rm -f "$tmp.out" "$tmp.err"' EXIT
"$@" >"${EXPECT_STDOUT:-$tmp.out}" 2>"$tmp.err"
got=$?
status=0
if [ "$got" != "$code" ]; then
  echo "FAILED: exit code $got, expected $code: $*"
  status=1
fi
if [ -n "$out_re" ] && ! grep -Eq -- "$out_re" "$tmp.out"; then
  echo "FAILED: stdout does not match /$out_re/"
  status=1
fi
if [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$tmp.err"; then
  echo "FAILED: stderr does not match /$err_re/"
  status=1
fi
if [ -n "${EXPECT_ONCE:-}" ]; then
  lines=$(grep -Ec -- "$EXPECT_ONCE" "$tmp.err")
  if [ "$lines" != 1 ]; then
    echo "FAILED: $lines lines of stderr match /$EXPECT_ONCE/, expected 1"
    status=1
  fi
fi
if [ $status != 0 ] || [ -n "${VERBOSE:-}" ]; then
  echo "--- stdout"; head -c 4000 "$tmp.out"
  echo "--- stderr"; head -c 4000 "$tmp.err"
fi
exit $status
