#!/bin/sh
# The viz.* tests that run drape-view: each under one xvfb-run (a virtual X server with Mesa's
# llvmpipe), small windows, a few frames, then png_check on the screenshots.
#
#   run_viewer_test.sh TEST DRAPE_VIEW PNG_CHECK SCRATCH_DIR
#
# TEST: headless (frames 1 and 100 of the default scene; the PNGs also checked with Python's zlib
# where python3 is installed), keys (C and Z change the picture), modes
# (V, and a resolution key, build worlds that simulate), backends (the CPU and OpenCL backends draw
# the same picture), no_display (no DISPLAY and no xvfb-run: a clear message and exit status 1).
# Exit 77 (skipped) when xvfb-run is missing.
set -u
test=$1 view=$2 check=$3 dir=$4
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1

if [ "$test" = no_display ]; then
    # PATH without xvfb-run: an empty directory.
    mkdir -p empty_path
    env -u DISPLAY -u DRAPE_VIEW_UNDER_XVFB PATH="$dir/empty_path" "$view" --frames 1 \
        >out.txt 2>err.txt
    status=$?
    cat out.txt err.txt
    [ "$status" -eq 1 ] || { echo "expected exit status 1, got $status"; exit 1; }
    grep -q "no display" err.txt || { echo "expected a 'no display' message"; exit 1; }
    exit 0
fi

if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xvfb-run is not installed (Debian: xvfb xauth): skipping"
    exit 77
fi

if [ -z "${VIZ_TEST_UNDER_XVFB:-}" ]; then
    VIZ_TEST_UNDER_XVFB=1 exec xvfb-run -a -s "-screen 0 640x480x24" sh "$0" "$@"
fi

# Every run: a 320 x 240 window, no vsync, the screenshot of its last frame.
shot() { # shot NAME FRAMES [options...]
    name=$1 frames=$2
    shift 2
    echo "+ drape-view --frames $frames $*"
    "$view" --size 320x240 --frames "$frames" --screenshot "$name.png" "$@" || {
        echo "drape-view failed (status $?)"
        exit 1
    }
}
ok() { "$@" || exit 1; }

case "$test" in
headless)
    shot frame1 1
    shot frame100 100
    ok "$check" image frame1.png 0.03 0.6
    ok "$check" image frame100.png 0.03 0.6
    ok "$check" differ frame1.png frame100.png 0.03
    if command -v python3 >/dev/null 2>&1; then
        ok python3 "$(dirname "$0")/png_zlib_check.py" frame1.png frame100.png
    fi
    ;;
keys)
    shot plain 20 --no-overlay
    shot skeleton 20 --no-overlay --keys C
    shot stress 20 --no-overlay --keys Z
    shot both 20 --no-overlay --keys CZ
    ok "$check" differ plain.png skeleton.png 0.05
    ok "$check" differ plain.png stress.png 0.05
    ok "$check" differ skeleton.png both.png 0.05
    ;;
modes)
    shot xpbd 60 --keys V
    shot mass_spring 60 --keys VV
    shot res64 30 --keys Y
    ok "$check" image xpbd.png 0.03 0.6
    ok "$check" image mass_spring.png 0.03 0.6
    ok "$check" image res64.png 0.03 0.6
    ;;
backends)
    shot cpu 40 --no-overlay --backend cpu
    shot opencl 40 --no-overlay --backend opencl
    shot readback 40 --no-overlay --backend opencl --no-sharing
    ok "$check" same cpu.png opencl.png 0.01
    ok "$check" same opencl.png readback.png 0.001
    ;;
*)
    echo "unknown test $test"
    exit 2
    ;;
esac
