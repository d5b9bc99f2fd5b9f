/* The fixed-timestep accumulator (pacer.h). The real-time factor is measured over windows of half a
 * second (simulated time / wall time), so the HUD shows a steady figure. A frame's wall time counts
 * at most 0.25 s, so that a stall (a window drag, a rebuild) is not simulated all at once. */
#include "pacer.h"

#include <math.h>
#include <stdio.h>

static const double window = 0.5, longest_frame = 0.25;

void viz_pacer_init(viz_pacer *p, double dt, bool every_frame)
{
    *p = (viz_pacer){.dt = dt,
                     .every_frame = every_frame,
                     .max_steps = 16,
                     .budget = 1.0 / 30.0,
                     .last = -1.0,
                     .factor = 1.0};
}

int viz_pacer_begin(viz_pacer *p, double now)
{
    if (p->last < 0.0) {
        p->last = p->window_start = now;
        return p->every_frame ? 1 : 0;
    }
    const double elapsed = fmin(fmax(now - p->last, 0.0), longest_frame);
    p->last = now;
    if (p->every_frame)
        return 1;
    p->accumulator += elapsed;
    int steps = (int)floor(p->accumulator / p->dt);
    int fit = p->step_cost > 0.0 ? (int)floor(p->budget / p->step_cost) : p->max_steps;
    fit = fit < 1 ? 1 : fit > p->max_steps ? p->max_steps : fit;
    if (steps > fit) {
        steps = fit;
        p->accumulator = 0.0; /* behind real time: drop what cannot be simulated */
    } else {
        p->accumulator -= steps * p->dt;
    }
    return steps;
}

void viz_pacer_end(viz_pacer *p, int steps, double seconds, double now)
{
    if (steps > 0) {
        const double cost = seconds / steps;
        p->step_cost = p->step_cost > 0.0 ? 0.8 * p->step_cost + 0.2 * cost : cost;
    }
    p->simulated += steps * p->dt;
    p->window_simulated += steps * p->dt;
    if (now - p->window_start >= window) {
        p->factor = p->window_simulated / (now - p->window_start);
        p->window_start = now;
        p->window_simulated = 0.0;
    }
}

void viz_pacer_hold(viz_pacer *p, double now)
{
    p->last = now;
    p->accumulator = 0.0;
    p->window_start = now;
    p->window_simulated = 0.0;
}

void viz_pacer_describe(const viz_pacer *p, bool paused, char *out, size_t size)
{
    const bool behind = !p->every_frame && !paused && p->factor < 0.95;
    snprintf(out, size, "%s x%.2f%s", p->every_frame ? "one step a frame," : "real time", p->factor,
             behind ? " (solver too slow)" : "");
}
