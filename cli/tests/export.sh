#!/bin/sh
# `drape run --export-obj DIR --every K --dump FILE`: the numbered OBJ frames and the CSV dump are
# written, with the counts the scene implies.
#
#   export.sh DRAPE SCRATCH_DIR
set -eu
drape=$1 dir=$2/export
rm -rf "$dir"
"$drape" run triangle-plane --steps 6 --every 2 --export-obj "$dir" --dump "$dir/final.csv" >/dev/null
frames=$(ls "$dir" | grep -c '^triangle-plane_000[0-3]\.obj$')
[ "$frames" = 4 ] || { echo "FAILED: $frames frames, expected 4"; ls "$dir"; exit 1; }
[ "$(grep -c '^v ' "$dir/triangle-plane_0003.obj")" = 3 ] || { echo "FAILED: vertices"; exit 1; }
[ "$(grep -c '^vn ' "$dir/triangle-plane_0003.obj")" = 3 ] || { echo "FAILED: normals"; exit 1; }
grep -q '^f 1//1 2//2 3//3$' "$dir/triangle-plane_0003.obj" || { echo "FAILED: face"; exit 1; }
[ "$(head -n 1 "$dir/final.csv")" = "index,x,y,z,vx,vy,vz,mass" ] || { echo "FAILED: header"; exit 1; }
[ "$(wc -l < "$dir/final.csv")" = 4 ] || { echo "FAILED: CSV rows"; exit 1; }

# A run of more than 9999 frames pads every frame number to 5 digits, so that the names sort.
long=$2/export-long
rm -rf "$long"
"$drape" run triangle-plane --steps 10000 --export-obj "$long" >/dev/null
[ "$(ls "$long" | head -n 1)" = triangle-plane_00000.obj ] || { echo "FAILED: first name"; exit 1; }
[ "$(ls "$long" | tail -n 1)" = triangle-plane_10000.obj ] || { echo "FAILED: last name"; exit 1; }
[ "$(ls "$long" | grep -c '^triangle-plane_[0-9]\{5\}\.obj$')" = 10001 ] || { echo "FAILED: names"; exit 1; }
rm -rf "$long"
echo "ok: 4 frames and a CSV of 3 particles; 10001 frames named with 5 digits"
