#!/bin/sh
# The viz.* tests that run drape-view: each with an Xvfb of its own (a virtual X server with Mesa's
# llvmpipe), small windows, a few frames, then png_check on the screenshots.
#
#   run_viewer_test.sh TEST DRAPE_VIEW PNG_CHECK SCRATCH_DIR
#
# TEST: headless (frames 1 and 100 of the default scene; the PNGs also checked with Python's zlib
# where python3 is installed), keys (C and Z change the picture), modes
# (V, and a resolution key, build worlds that simulate), backends (the CPU and OpenCL backends draw
# the same picture), scenes (every built-in scene: frame 60 is neither blank nor the same as frame 1),
# objects (a scene file with loose particles, a rope, a mesh and two cloths: each object's colour is
# in the picture), realtime (a slow solver shows a real-time factor below 1 and a fast one keeps
# real time; --every-frame advances dt per frame), record (30 frames give 30 PNGs that sort in frame
# order; with ffmpeg a video of 30 frames; without it a clear message), no_display (no DISPLAY and
# no xvfb-run: a clear message and exit status 1).
# Exit 77 (skipped) when Xvfb is missing.
#
# The display: not xvfb-run -a, which picks a number by looking for /tmp/.X<n>-lock and then starts
# the server, so that two runs (two ctest -j2 jobs, another ctest or a user on the same machine)
# can pick one number, and which waits for the server's ready signal in a way that can miss it.
# Xvfb -displayfd chooses the number itself (the first whose lock file and sockets it can take) and
# writes it once it accepts connections; -noreset keeps it up between the drape-view runs (without
# it the server regenerates after every client). A server that does not come up is started again
# (three tries); one that dies during the test is reported with its log, started again, and the
# drape-view run it took down is run once more. A drape-view failure with the server alive fails.
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

if ! command -v Xvfb >/dev/null 2>&1; then
    echo "Xvfb is not installed (Debian: xvfb): skipping"
    exit 77
fi

xvfb_pid= watchdog_pid=
stop_display() {
    [ -n "$watchdog_pid" ] && kill "$watchdog_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    xvfb_pid= watchdog_pid=
}
trap stop_display EXIT
trap 'exit 1' INT TERM HUP

# start_display: a fresh Xvfb, DISPLAY set to it; exits 1 after three servers that did not come up.
start_display() {
    stop_display
    for try in 1 2 3; do
        : >xvfb.display
        Xvfb -displayfd 1 -screen 0 640x480x24 -nolisten tcp -noreset >xvfb.display 2>xvfb.log &
        xvfb_pid=$!
        # if this script is killed outright (SIGKILL at ctest's timeout), the server goes too
        (while kill -0 $$ 2>/dev/null; do sleep 1; done; kill "$xvfb_pid" 2>/dev/null) &
        watchdog_pid=$!
        waited=0
        while [ $waited -lt 300 ] && kill -0 "$xvfb_pid" 2>/dev/null; do # 30 s
            number=$(sed -n 's/^\([0-9][0-9]*\)$/\1/p' xvfb.display)
            if [ -n "$number" ]; then
                export DISPLAY=":$number"
                unset XAUTHORITY
                echo "Xvfb (pid $xvfb_pid) on display $DISPLAY"
                return 0
            fi
            sleep 0.1
            waited=$((waited + 1))
        done
        echo "Xvfb did not come up (try $try of 3):"
        cat xvfb.log
        stop_display
    done
    exit 1
}

start_display

# Every run: a 320 x 240 window, no vsync, one step per frame, the screenshot of its last frame.
shot() { # shot NAME FRAMES [options...]
    name=$1 frames=$2
    shift 2
    for attempt in 1 2; do
        echo "+ drape-view --frames $frames $*"
        "$view" --size 320x240 --every-frame --frames "$frames" --screenshot "$name.png" "$@" &&
            return 0
        status=$?
        kill -0 "$xvfb_pid" 2>/dev/null && break # the server is up: drape-view itself failed
        echo "drape-view failed (status $status): Xvfb on $DISPLAY is gone; its log:"
        cat xvfb.log
        [ "$attempt" = 1 ] && start_display && echo "(again, on the new display)"
    done
    echo "drape-view failed (status $status)"
    exit 1
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
    # a run shorter than the statistics' half second still reports its steps' time
    shot short 3 >short.log
    cat short.log
    ok grep -Eq "a step took [0-9.]+ ms [(][0-9.]*[1-9][0-9.]* ms of device time[)]" short.log
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
scenes)
    for scene in $("$view" --list-scenes); do
        shot "$scene-1" 1 --no-overlay "$scene"
        shot "$scene-60" 60 --no-overlay "$scene"
        ok "$check" notblank "$scene-60.png" 0.01
        ok "$check" differ "$scene-1.png" "$scene-60.png" 0.001
    done
    ;;
objects)
    data=$(dirname "$0")/data
    shot objects 60 --no-overlay --size 640x360 "$data/objects.json"
    # the palette of viz/topology.c: cloths 0 and 1, the rope 2, the mesh 3, loose particles
    ok "$check" hue objects.png 0.92 0.45 0.13 0.0003
    ok "$check" hue objects.png 0.25 0.75 0.30 0.0003
    ok "$check" hue objects.png 0.35 0.40 0.95 0.0003
    ok "$check" hue objects.png 0.85 0.25 0.70 0.0003
    ok "$check" hue objects.png 0.15 0.80 0.85 0.0003
    ;;
realtime)
    # run NAME OPTIONS...: the summary line "simulated S s in N steps over W s ...; real-time
    # factor F" into NAME.txt
    run() {
        name=$1
        shift
        echo "+ drape-view $*"
        "$view" --size 320x240 --no-overlay "$@" >"$name.txt" || { cat "$name.txt"; exit 1; }
        grep simulated "$name.txt"
    }
    factor() { sed -n 's/.*real-time factor \([0-9.]*\).*/\1/p' "$1.txt"; }
    # A 256 x 256 cloth on the CPU backend: a step takes longer than its 1/60 s.
    run slow --backend cpu --resolution 256 --frames 6
    f=$(factor slow)
    awk -v f="$f" 'BEGIN { exit !(f > 0 && f < 0.8) }' || { echo "slow: factor $f, expected < 0.8"; exit 1; }
    # A cheap scene keeps real time: the simulated time follows the wall clock, never ahead of it
    # and behind it by less than the accumulator's remainder (under one step) plus the last frame.
    # The factor itself is not compared with 1: 200 fast frames can last a few steps only, and
    # then one step of remainder is a large fraction (the pacer's own test covers the arithmetic).
    run fast --backend cpu ik-chain --frames 200
    sed -n 's/.*simulated \([0-9.]*\) s in \([0-9]*\) steps over \([0-9.]*\) s.*/\1 \2 \3/p' fast.txt |
        awk '{ s = $1; n = $2; w = $3; dt = n > 0 ? s / n : 0
               ok = n > 0 && s <= w + 1e-3 && w - s <= 2 * dt + 0.2 * w
               if (!ok) printf "fast: simulated %s s in %s steps over %s s of wall time\n", s, n, w
               exit !ok }' || { echo "fast: the simulation does not follow the wall clock"; exit 1; }
    # --every-frame: 30 frames, 30 steps, 0.5 s whatever the wall clock.
    run every --backend cpu ik-chain --every-frame --frames 30
    grep -q "simulated 0.5000 s in 30 steps" every.txt || { echo "every: expected 0.5 s in 30 steps"; exit 1; }
    ;;
record)
    rm -rf frames
    shot recorded 30 --no-overlay --record frames
    n=$(ls frames | wc -l)
    [ "$n" -eq 30 ] || { echo "expected 30 PNGs, got $n"; exit 1; }
    expected=$(i=1; while [ $i -le 30 ]; do printf 'frame_%06d.png\n' $i; i=$((i + 1)); done)
    [ "$(ls frames | LC_ALL=C sort)" = "$expected" ] || { echo "the PNGs do not sort in frame order"; ls frames; exit 1; }
    ok "$check" notblank frames/frame_000001.png 0.05
    ok "$check" same frames/frame_000030.png recorded.png 0.0
    ok "$check" differ frames/frame_000001.png frames/frame_000030.png 0.01
    # without ffmpeg on PATH: a clear message, before any window opens
    mkdir -p empty_path
    PATH="$dir/empty_path" "$view" --record out.mp4 >out.txt 2>err.txt
    status=$?
    cat err.txt
    [ "$status" -eq 2 ] || { echo "expected exit status 2 without ffmpeg, got $status"; exit 1; }
    grep -q "needs ffmpeg" err.txt || { echo "expected a message naming ffmpeg"; exit 1; }
    if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then
        rm -f out.mp4
        shot video 30 --no-overlay --record out.mp4
        frames=$(ffprobe -v error -count_frames -select_streams v:0 \
                 -show_entries stream=nb_read_frames -of csv=p=0 out.mp4)
        echo "out.mp4: $frames frames"
        [ "$frames" = 30 ] || { echo "expected 30 frames in out.mp4"; exit 1; }
    else
        echo "ffmpeg or ffprobe is not installed: the video is not checked"
    fi
    ;;
*)
    echo "unknown test $test"
    exit 2
    ;;
esac
