# Sourced by the sweep tests that act on a sweep while it runs (sweep_resume.sh,
# sweep_interrupt.sh). Needs drape, sweep and out set; launcher may hold an MPI launcher command
# (words without spaces), else the sweep runs with --jobs 2.
#
#   run_sweep       runs the sweep in the foreground
#   start_sweep N   starts it in the background (its pid, drape's or the launcher's, in $parent, its
#                   output in $out.log) and returns once N cases are done; fails after 60 s or when
#                   the sweep ends first
#   done_cases      how many case folders hold their `done` marker
#   fail WHY        prints FAILED: WHY and exits 1
fail() { echo "FAILED: $*"; exit 1; }
done_cases() { find "$out" -maxdepth 2 -path '*/case-*/done' 2>/dev/null | wc -l; }
launcher=${launcher:-}
run_sweep() {
    if [ -n "$launcher" ]; then
        $launcher "$drape" sweep "$sweep" --out "$out"
    else
        "$drape" sweep "$sweep" --out "$out" --jobs 2
    fi
}
start_sweep() {
    # Not through run_sweep: `&` on a function would start a subshell, and $! would be its pid.
    if [ -n "$launcher" ]; then
        $launcher "$drape" sweep "$sweep" --out "$out" > "$out.log" 2>&1 &
    else
        "$drape" sweep "$sweep" --out "$out" --jobs 2 > "$out.log" 2>&1 &
    fi
    parent=$!
    tries=0
    while [ "$(done_cases)" -lt "$1" ]; do
        kill -0 "$parent" 2>/dev/null || fail "the sweep ended early: $(cat "$out.log")"
        sleep 0.05
        tries=$((tries + 1))
        [ $tries -lt 1200 ] || { kill "$parent"; fail "fewer than $1 cases done after 60 s"; }
    done
}
