#!/bin/sh
# `drape sweep` gives every case the same bytes whichever way it runs: in one process (--jobs 1),
# in two worker processes (--jobs 2) and, when an MPI launcher command is given, over 3 MPI ranks.
# Every file of every case folder, and the index, is compared byte for byte. A case's scene.json
# also runs alone with `drape run` to the same final state as its final.csv.
#
#   sweep_three_ways.sh DRAPE SWEEP SCRATCH_DIR [MPIRUN ARGS...]
set -eu
drape=$1 sweep=$2 dir=$3/three_ways
shift 3
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAILED: $*"; exit 1; }

"$drape" sweep "$sweep" --out "$dir/one" --jobs 1 > "$dir/one.log" 2>&1 || fail "--jobs 1: $(cat "$dir/one.log")"
"$drape" sweep "$sweep" --out "$dir/two" --jobs 2 > "$dir/two.log" 2>&1 || fail "--jobs 2: $(cat "$dir/two.log")"
runs=two
if [ $# -gt 0 ]; then
    "$@" -np 3 "$drape" sweep "$sweep" --out "$dir/mpi" > "$dir/mpi.log" 2>&1 ||
        fail "mpirun -np 3: $(cat "$dir/mpi.log")"
    runs="two mpi"
fi

(cd "$dir/one" && find . | sort) > "$dir/files.one"
cases=$(grep -c '^\./case-[0-9]*/done$' "$dir/files.one")
[ "$cases" = 12 ] || fail "$cases cases done in one process, expected 12"
[ "$(wc -l < "$dir/one/index.jsonl")" = 12 ] || fail "the index has not 12 lines"
grep -q '"status":"ok"' "$dir/one/index.jsonl" || fail "no case succeeded"
files=$(wc -l < "$dir/files.one")
for run in $runs; do
    (cd "$dir/$run" && find . | sort) > "$dir/files.$run"
    cmp -s "$dir/files.one" "$dir/files.$run" ||
        fail "$run made other files: $(diff "$dir/files.one" "$dir/files.$run" | head -n 5)"
    (cd "$dir/one" && find . -type f) | while read -r f; do
        cmp -s "$dir/one/$f" "$dir/$run/$f" || fail "$run: $f differs"
    done
done

# A case runs alone from its resolved scene, to the same final state.
"$drape" run "$dir/one/case-00007/scene.json" --dump "$dir/alone.csv" > /dev/null
cmp -s "$dir/alone.csv" "$dir/one/case-00007/final.csv" || fail "case 7 run alone ends elsewhere"
echo "ok: $cases cases, $files paths each, identical in one process and $runs"
