#!/bin/sh
# Installs a drape build into a temporary prefix and builds outside C programs against it
# (consumer/: one on the library, one on the scene library), once through find_package(drape) and
# once through pkg-config, and runs them, and the installed `drape --version`. The build decides the
# kind: a static libdrape is linked with `pkg-config --static`, a shared one must export exactly the
# functions drape.h declares. Registered with ctest as install.consumer.
#
#   check.sh BUILD_DIR SCRATCH_DIR
set -eu
build=$1 scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
version=$(cache CMAKE_PROJECT_VERSION)
shared=$(cache BUILD_SHARED_LIBS)
cc=$(cache CMAKE_C_COMPILER)
case "$shared" in ON|on|1|TRUE|true|YES|yes) shared=1 ;; *) shared=0 ;; esac

rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"
echo "installed drape $version ($( [ $shared = 1 ] && echo shared || echo static)) into $prefix"

# The installed tools run from the prefix (a shared build finds libdrape through its RUNPATH).
"$prefix/bin/drape" --version | grep -qx "drape $version" || { echo "$prefix/bin/drape --version is wrong"; exit 1; }

# find_package(drape), the CMake way.
cmake -S "$here/consumer" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_COMPILER="$cc" -DDRAPE_EXPECT_VERSION="$version" >"$scratch/cmake.log"
cmake --build "$scratch/cmake" >>"$scratch/cmake.log"
"$scratch/cmake/consumer"
"$scratch/cmake/scene_consumer"

# pkg-config, with the installed tree first on its path (the system's has cJSON's libcjson.pc).
pc=$(find "$prefix" -name drape.pc)
[ -n "$pc" ] || { echo "no drape.pc under $prefix"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pkg-config --exists --print-errors drape drape-scene
[ "$(pkg-config --variable=prefix drape)" -ef "$prefix" ] || { echo "drape.pc is not the installed one"; exit 1; }
[ "$(pkg-config --modversion drape)" = "$version" ] || { echo "drape.pc says $(pkg-config --modversion drape), not $version"; exit 1; }
if [ $shared = 1 ]; then
  libs="$(pkg-config --libs drape) -Wl,-rpath,$(pkg-config --variable=libdir drape)"
else
  libs=$(pkg-config --static --libs drape)
fi
# shellcheck disable=SC2046,SC2086 # the flags are words
"$cc" -std=c17 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags drape) \
      "$here/consumer/main.c" -o "$scratch/consumer-pc" $libs -lm
"$scratch/consumer-pc"
# The scene library is static; it brings libdrape and cJSON through Requires.
# shellcheck disable=SC2046
"$cc" -std=c17 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags drape-scene) \
      "$here/consumer/scene_consumer.c" -o "$scratch/scene-consumer-pc" \
      $(pkg-config --static --libs drape-scene) $( [ $shared = 1 ] && echo "-Wl,-rpath,$(pkg-config --variable=libdir drape)")
"$scratch/scene-consumer-pc"

# A shared libdrape exports the DRAPE_API functions and nothing else.
if [ $shared = 1 ]; then
  lib=$(find "$prefix" -name 'libdrape.so.*.*.*' | head -n 1)
  # Every function declared in drape.h, marked DRAPE_API or not.
  grep -v '^typedef' "$prefix/include/drape/drape.h" |
    sed -n 's/^\(DRAPE_API \)\{0,1\}[a-z][a-z0-9_ ]*[ *]\(drape_[a-z0-9_]*\)(.*/\2/p' |
    sort >"$scratch/declared.txt"
  nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$scratch/exported.txt"
  if ! cmp -s "$scratch/declared.txt" "$scratch/exported.txt"; then
    echo "$lib exports other symbols than drape.h declares (< declared, > exported):"
    diff "$scratch/declared.txt" "$scratch/exported.txt" || true
    exit 1
  fi
  echo "$lib exports the $(wc -l <"$scratch/declared.txt") functions of drape.h and nothing else"
fi
echo "install check passed"
