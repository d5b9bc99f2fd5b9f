#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, AddressSanitizer and UndefinedBehaviorSanitizer in
# build-fuzz/, and runs each for a bounded time (default 60 s) from the committed seeds in
# fuzz/corpus/. New inputs go to build-fuzz/corpus/, so the repository is not touched; a crash, a
# leak or a sanitizer report stops the run with a non-zero status and leaves the input as
# build-fuzz/crash-* (reproduce with build-fuzz/bin/fuzz_TARGET build-fuzz/crash-...).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]     TARGET: scene, obj, run (default all three)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scene obj run)
build=$root/build-fuzz

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAPE_SANITIZE=ON \
  -DDRAPE_FUZZ=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"
declare -A dict=([run]=scene) # the run target reads scenes too
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  echo "fuzz: $t for $seconds s"
  (cd "$build" && ASAN_OPTIONS=detect_leaks=1 "bin/fuzz_$t" -max_total_time="$seconds" \
     -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     -dict="$root/fuzz/${dict[$t]:-$t}.dict" "corpus/$t" "$root/fuzz/corpus/$t")
done
