#!/bin/sh
# A sweep whose base is a built-in scene runs from its embedded scene file: every case done, its
# resolved scene the built-in's file with the case's value in it.
#
#   sweep_builtin.sh DRAPE SWEEP SCRATCH_DIR
set -eu
drape=$1 sweep=$2 out=$3/builtin
rm -rf "$out"
mkdir -p "$3"
fail() { echo "FAILED: $*"; exit 1; }
"$drape" sweep "$sweep" --out "$out" --jobs 1 > "$out.log" 2>&1 || fail "$(cat "$out.log")"
grep -q "2 cases: 2 ok, 0 failed" "$out.log" || fail "$(cat "$out.log")"
grep -q '"name":[[:space:]]*"triangle-plane"' "$out/case-00001/scene.json" || fail "not the built-in"
grep -q '"restitution":[[:space:]]*0.5' "$out/case-00001/scene.json" || fail "case 1 has no restitution 0.5"
echo "ok: a built-in base, 2 cases"
