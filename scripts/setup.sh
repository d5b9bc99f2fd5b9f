#!/usr/bin/env bash
# Sets up drape on Debian 12: installs the Debian packages it needs (only those missing, with one
# apt-get update), then configures and builds it with CMake.
#
#   bash scripts/setup.sh              release build in build/
#   bash scripts/setup.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
#
# Warnings are errors when DRAPE_WERROR=ON or CI is set (CI sets it). Safe to run again: it only
# installs what is missing and rebuilds what changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build_dir=$root/build
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
case "${1:-}" in
  "") ;;
  --sanitize)
    build_dir=$root/build-asan
    cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAPE_SANITIZE=ON) ;;
  -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake git            # the C17 tool chain
  ocl-icd-opencl-dev opencl-c-headers  # the OpenCL ICD loader and headers
  pocl-opencl-icd clinfo               # OpenCL on the CPU, so that the OpenCL path runs everywhere
  libclblast-dev                       # CLBlast, for the global reductions
  libcjson-dev                         # scene files (JSON)
  clang libclang-rt-14-dev             # libFuzzer targets for the scene and OBJ readers
  clang-format                         # the code style, checked by the test suite (format.check)
  libglfw3-dev python3-glad libgl-dev libgl1-mesa-dri  # the viewer: GLFW, glad, OpenGL, llvmpipe
  libx11-dev libxrandr-dev             # X11 headers that GLFW's native header (glfw3native.h) includes
  g++ libimgui-dev libstb-dev          # the viewer's parameter panel (Dear ImGui and its stb)
  ffmpeg                               # the viewer's video recording (drape-view --record out.mp4)
  xvfb xauth                           # headless rendering of the viewer (tests, machines without X)
  python3-matplotlib                   # bench/plot.py
  libopenmpi-dev openmpi-bin           # `drape sweep` over MPI ranks (mpirun, srun)
  pkgconf                              # the install test builds a program with pkg-config
  oclgrind                             # the race check: an OpenCL simulator with race detection
  tetgen                               # tetrahedralising closed OBJ surfaces for scene files
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

werror=OFF
if [ "${DRAPE_WERROR:-}" = ON ] || [ -n "${CI:-}" ]; then werror=ON; fi
cmake -S "$root" -B "$build_dir" "${cmake_args[@]}" -DDRAPE_WERROR=$werror >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
