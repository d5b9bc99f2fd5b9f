/* Real time: how many simulation steps a frame takes. A fixed-timestep accumulator (Fiedler, "Fix
 * Your Timestep!", 2004): wall-clock time since the last frame goes into an accumulator and each
 * step of dt takes dt out, so the simulation advances with the wall clock whatever the frame rate,
 * several steps in a frame when it can. When the solver is slower than real time, a frame takes no
 * more steps than fit its budget and the time it could not simulate is dropped (no spiral of
 * death): the simulation then runs slower than real time, by the real-time factor the pacer
 * reports. With every_frame it takes exactly one step per frame (the picture of frame N is then the
 * same on any machine: tests, recordings). Times are in seconds; the clock is the caller's, so that
 * tests can drive it. */
#ifndef VIZ_PACER_H
#define VIZ_PACER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct viz_pacer {
    double dt; /* s per step */
    bool every_frame;
    int max_steps;      /* per frame, at most */
    double budget;      /* s of stepping per frame, at most (keeps the window responsive) */
    double accumulator; /* wall time not yet simulated, s */
    double last;        /* the previous frame's time; < 0 before the first */
    double step_cost;   /* s, a running mean of one step's wall time; 0 before the first */
    double window_start, window_simulated; /* the real-time factor's current window */
    double factor;    /* simulated time / wall time over the last window; 1 until measured */
    double simulated; /* s simulated since the start */
} viz_pacer;

void viz_pacer_init(viz_pacer *p, double dt, bool every_frame);
/* The number of steps to take in the frame that starts at `now`. */
int viz_pacer_begin(viz_pacer *p, double now);
/* After the frame's steps: how many were taken and the wall time they took. */
void viz_pacer_end(viz_pacer *p, int steps, double seconds, double now);
/* Paused: the wall clock runs on without the simulation, and is not owed to it later. */
void viz_pacer_hold(viz_pacer *p, double now);
/* What the HUD says about the pace: "real time x1.00", "real time x0.32 (solver too slow)" below
 * 0.95 while running, or "one step a frame, x4.02" with every_frame. */
void viz_pacer_describe(const viz_pacer *p, bool paused, char *out, size_t size);

#endif
