#!/bin/sh
# The command line against an unlucky machine: FIFOs where files should be, a full disk, Ctrl-C in
# the middle of a run, too little memory. Each case checks the exit code, the message, and that
# every output is either the complete previous file or the complete new one.
#
#   unlucky.sh DRAPE SCRATCH_DIR CASE
#
# CASE: fifo, full_disk, interrupt, memory_cpu, memory_opencl, driver_memory, blast_memory,
# json_memory.
# A case that needs what this machine lacks (an OpenCL device, root for a tmpfs) says so and
# exits 77 (skipped) or falls back as noted. With DRAPE_TEST_SANITIZED=1 (an AddressSanitizer build,
# which cannot start under an address-space limit) the memory cases run without prlimit where the
# machine itself is too small for what they ask, and skip otherwise.
set -u
drape=$1 scratch=$2/unlucky-$3 case=$3
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAILED: $*"; exit 1; }

# run CODE STDERR_REGEX COMMAND...: runs with a 20 s timeout; exit code and stderr must match.
run() {
  want=$1 re=$2
  shift 2
  timeout 20 "$@" >"$scratch/out" 2>"$scratch/err"
  got=$?
  [ "$got" = 124 ] && fail "timed out (a hang): $*"
  [ "$got" = "$want" ] || { cat "$scratch/err"; fail "exit code $got, expected $want: $*"; }
  [ -z "$re" ] || grep -Eq -- "$re" "$scratch/err" || { cat "$scratch/err"; fail "stderr does not match /$re/"; }
}

# $(limit BYTES) before a command: an address-space limit, or nothing in a sanitizer build.
limit() {
  [ "${DRAPE_TEST_SANITIZED:-0}" = 1 ] || echo "prlimit --as=$1"
}

have_opencl() {
  "$drape" devices >/dev/null 2>&1 && ! "$drape" devices 2>/dev/null | grep -q '^no OpenCL devices'
}

# complete_obj FILE PARTICLES: the frame has every vertex, every normal and ends with a newline.
complete_obj() {
  [ "$(grep -c '^v ' "$1")" = "$2" ] && [ "$(grep -c '^vn ' "$1")" = "$2" ] &&
    [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]
}

# started PID FILE: waits (20 s at most) until FILE exists, i.e. the run PID is under way.
started() {
  n=0
  while [ ! -e "$2" ] && [ $n -lt 200 ] && kill -0 "$1" 2>/dev/null; do
    sleep 0.1
    n=$((n + 1))
  done
  [ -e "$2" ] || { kill -KILL "$1"; fail "the run did not start within 20 s"; }
}

no_temporaries() {
  ! ls -a "$1" | grep -q '\.tmp-' || { ls -a "$1"; fail "temporary files left in $1"; }
}

case $case in
fifo)
  # A scene that is a FIFO, and a scene whose mesh is one: refused at once, not waited on.
  mkfifo "$scratch/scene.json" "$scratch/mesh.obj"
  run 3 "scene.json: cannot read: not a regular file" "$drape" info "$scratch/scene.json"
  echo '{"meshes": [{"obj": "mesh.obj"}]}' >"$scratch/uses_fifo.json"
  run 3 "mesh.obj: cannot read: not a regular file" "$drape" run "$scratch/uses_fifo.json"
  # An output that is a FIFO is refused too (renaming over it would replace it).
  run 4 "scene.json: cannot write: exists and is not a regular file" \
    "$drape" run triangle-plane --steps 1 --dump "$scratch/scene.json"
  echo "ok: FIFOs refused at once"
  ;;
full_disk)
  # A small tmpfs where root may mount one; else the same failure simulated by a file size limit
  # (the write fails with EFBIG instead of ENOSPC).
  disk=$scratch/disk
  mkdir -p "$disk"
  if mount -t tmpfs -o size=256k tmpfs "$disk" 2>/dev/null; then
    trap 'umount "$disk"' EXIT
    cause="No space left on device"
    limit=""
  else
    echo "no tmpfs (not root?): simulating a full disk with a file size limit"
    cause="File too large"
    limit=64
  fi
  # Good outputs first: a dump and two frames of a cloth (about 60 KiB each).
  "$drape" run flag --steps 1 --dump "$disk/final.csv" --export-obj "$disk/frames" >/dev/null ||
    fail "the first run"
  cp "$disk/final.csv" "$scratch/final.csv.good"
  cp "$disk/frames/flag_0001.obj" "$scratch/frame1.good"
  # Fill the disk, then run again: every write fails; the previous files stay whole.
  if [ -z "$limit" ]; then
    dd if=/dev/zero of="$disk/filler" bs=1k count=1024 2>/dev/null
    run 4 "final.csv: cannot write: $cause" "$drape" run flag --steps 3 --dump "$disk/final.csv"
    run 4 "flag_0000.obj: cannot write: $cause" "$drape" run flag --steps 3 --export-obj "$disk/frames"
    # Room for a few frames only: the run stops at the first that does not fit.
    rm -f "$disk/filler"
    dd if=/dev/zero of="$disk/filler" bs=1k count=40 2>/dev/null
    run 4 "flag_000[0-9].obj: cannot write: $cause" "$drape" run flag --steps 9 --export-obj "$disk/frames"
  else
    (trap '' XFSZ; ulimit -f $limit; run 4 "final.csv: cannot write: $cause" "$drape" run flag --steps 3 --dump "$disk/final.csv") || exit 1
    (trap '' XFSZ; ulimit -f $limit; run 4 "flag_0000.obj: cannot write: $cause" "$drape" run flag --steps 3 --export-obj "$disk/frames") || exit 1
  fi
  cmp -s "$disk/final.csv" "$scratch/final.csv.good" || fail "the previous dump was changed"
  for f in "$disk"/frames/*.obj; do
    complete_obj "$f" 640 || fail "$f is not a complete frame"
  done
  cmp -s "$disk/frames/flag_0001.obj" "$scratch/frame1.good" || [ -z "$limit" ] ||
    fail "a previous frame was changed"
  no_temporaries "$disk"
  no_temporaries "$disk/frames"
  # stdout on a full device is an error too.
  timeout 20 "$drape" run triangle-plane --steps 2 --json >/dev/full 2>"$scratch/err"
  [ $? = 4 ] && grep -q "stdout: cannot write: No space left on device" "$scratch/err" ||
    fail "drape run --json > /dev/full"
  echo "ok: a full disk leaves every output complete ($cause)"
  ;;
interrupt)
  # Ctrl-C at random moments of a run that exports a frame every step: exit 130, and every frame
  # on disk (those of the earlier runs included) is complete. Then SIGKILL, which no handler sees:
  # the files are still complete, thanks to the rename (written in place, about one kill in six
  # left a truncated frame).
  dir=$scratch/frames
  i=0
  # A background job of a script starts with SIGINT ignored (POSIX), until drape installs its
  # handler: each signal waits for the run's first frame, so it never lands in that window (100000
  # steps make six-digit frame numbers).
  while [ $i -lt 6 ]; do
    rm -f "$dir/flag_000000.obj"
    "$drape" run flag --steps 100000 --export-obj "$dir" >/dev/null 2>"$scratch/err" &
    pid=$!
    started $pid "$dir/flag_000000.obj"
    sleep "0.$(( (i * 37) % 9 + 1 ))"
    kill -INT $pid
    wait $pid
    code=$?
    [ $code = 130 ] || { cat "$scratch/err"; fail "exit code $code after SIGINT, expected 130"; }
    grep -q "interrupted after step" "$scratch/err" || fail "no message after SIGINT"
    i=$((i + 1))
  done
  i=0
  while [ $i -lt 6 ]; do
    "$drape" run flag --steps 100000 --export-obj "$dir" >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(( (i * 53) % 7 + 2 ))"
    kill -KILL $pid
    wait $pid
    i=$((i + 1))
  done
  n=0
  for f in "$dir"/*.obj; do
    complete_obj "$f" 640 || fail "$f is not a complete frame"
    n=$((n + 1))
  done
  [ $n -gt 6 ] || fail "only $n frames were written"
  # SIGINT leaves no temporary file; SIGKILL may leave one (hidden, never the target).
  ls "$dir" | grep -q '\.tmp-' && fail "a temporary file is visible"
  echo "ok: $n frames, all complete, after 6 SIGINTs and 6 SIGKILLs"
  ;;
memory_cpu|memory_opencl)
  # The largest documented cloth, under a 4 GB address-space limit: refused at once with the bytes
  # it needs, on either backend.
  backend=${case#memory_}
  if [ "$backend" = opencl ] && ! have_opencl; then echo "no OpenCL device: skipped"; exit 77; fi
  echo '{"cloths": [{"nx": 16384, "ny": 16384}]}' >"$scratch/largest.json"
  if [ "${DRAPE_TEST_SANITIZED:-0}" = 1 ] &&
    [ "$(awk '/MemAvailable|SwapFree/ {s += $2} END {print (s > 200 * 1024 * 1024)}' /proc/meminfo)" = 1 ]; then
    echo "sanitizer build on a machine with 200 GiB free: cannot limit it, skipped"
    exit 77
  fi
  start=$(date +%s)
  # A driver that reserves more address space than the limit (NVIDIA's) cannot load under it: then
  # the run must fail cleanly and say that the limit is why.
  run 1 "16384 x 16384 cloth needs about [0-9]+ bytes .* more than the [0-9]+ bytes|could not load under this process's address-space limit of 4000000000 bytes" \
    $(limit 4000000000) "$drape" run "$scratch/largest.json" --backend "$backend" --steps 1
  took=$(( $(date +%s) - start ))
  [ $took -le 10 ] || fail "took $took s"
  cat "$scratch/err"
  echo "ok: refused in $took s"
  ;;
driver_memory)
  # Too little address space for any OpenCL driver to load (the ICD loader then reports no
  # platform): the message says that the limit may be why, with its bytes.
  have_opencl || { echo "no OpenCL device: skipped"; exit 77; }
  [ "${DRAPE_TEST_SANITIZED:-0}" = 1 ] && { echo "sanitizer build: no address-space limit, skipped"; exit 77; }
  run 1 "no OpenCL platform found: .* could not load under this process's address-space limit of 60000000 bytes" \
    prlimit --as=60000000 "$drape" run cloth-sphere --backend opencl --steps 1
  cat "$scratch/err"
  ;;
blast_memory)
  # Less and less address space for a run whose steps and summaries call CLBlast: every run ends
  # with 0 or a clean failure (exit 1, out of memory), never a crash inside the driver.
  have_opencl || { echo "no OpenCL device: skipped"; exit 77; }
  [ "${DRAPE_TEST_SANITIZED:-0}" = 1 ] && { echo "sanitizer build: no address-space limit, skipped"; exit 77; }
  clean=0
  for mb in 2000 1200 900 800 750 720 700 680 650 600 500; do
    prlimit --as=$((mb * 1000000)) "$drape" run cloth-sphere --backend opencl --steps 60 \
      >/dev/null 2>"$scratch/err"
    code=$?
    [ $code = 0 ] || [ $code = 1 ] || { cat "$scratch/err"; fail "exit code $code with $mb MB"; }
    [ $code = 1 ] && clean=$((clean + 1))
  done
  [ $clean -gt 0 ] || fail "no limit was tight enough to test"
  echo "ok: $clean of 11 limits failed cleanly, none crashed"
  ;;
json_memory)
  # A 20 MB scene with ten million values needs about 800 MB as a cJSON tree: under a 400 MB limit
  # it is refused at once, naming the bytes, not reported as malformed.
  [ "${DRAPE_TEST_SANITIZED:-0}" = 1 ] && { echo "sanitizer build: no address-space limit, skipped"; exit 77; }
  python3 -c "import sys; sys.stdout.write('{\"triangles\": [' + ','.join(['0'] * 10000000) + ']}')" \
    >"$scratch/huge.json"
  run 1 "huge.json: reading its 10000002 JSON values needs about [0-9]+ bytes, more than the [0-9]+ bytes" \
    prlimit --as=400000000 "$drape" info "$scratch/huge.json"
  echo "ok: refused with the bytes"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
