/* viz.pacer: the real-time accumulator (viz/pacer.c) on a clock the test drives.
 *
 * - A solver faster than real time: at 30 frames a second, two 1/60 s steps a frame, and after 10 s
 *   the simulated time equals the wall time to within one step; the real-time factor is 1.
 * - A solver slower than real time (50 ms a step for 1/60 s): one step a frame, the simulated time
 *   advances with the wall clock at the real-time factor the pacer reports (about 0.32), and
 *   simulated = factor x wall.
 * - every_frame: one step per frame whatever the clock does, so N frames simulate N dt.
 * - Paused time is not simulated afterwards.
 * - The HUD's line shows the real-time factor, and says the solver is too slow only when it is. */
#include "pacer.h"

#include "drape_test.h"
#include "test_list.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double dt = 1.0 / 60.0;

/* Runs frames for `seconds` of wall time; each frame renders for `render` s and its steps take
 * `step_cost` s each. Returns the wall time at the end. */
static double run(viz_pacer *p, double now, double seconds, double render, double step_cost,
                  int *most_steps)
{
    const double end = now + seconds;
    while (now < end) {
        int steps = viz_pacer_begin(p, now);
        if (most_steps && steps > *most_steps)
            *most_steps = steps;
        now += steps * step_cost;
        viz_pacer_end(p, steps, steps * step_cost, now);
        now += render;
    }
    return now;
}

int suite_pacer(void)
{
    viz_pacer fast;
    viz_pacer_init(&fast, dt, false);
    int most = 0;
    double wall = run(&fast, 100.0, 10.0, 1.0 / 30.0, 0.001, &most) - 100.0;
    printf("fast solver: %.3f s simulated in %.3f s, factor %.3f, at most %d steps a frame\n",
           fast.simulated, wall, fast.factor, most);
    EXPECT(fabs(fast.simulated - wall) <= dt + 1.0 / 30.0);
    EXPECT(fabs(fast.factor - 1.0) < 0.05);
    EXPECT(most == 2 || most == 3);
    char hud[64];
    viz_pacer_describe(&fast, false, hud, sizeof hud);
    printf("HUD: %s\n", hud);
    EXPECT(!strcmp(hud, "real time x1.00"));

    viz_pacer slow;
    viz_pacer_init(&slow, dt, false);
    most = 0;
    wall = run(&slow, 0.0, 10.0, 0.002, 0.050, &most);
    const double ratio = slow.simulated / wall;
    printf("slow solver: %.3f s simulated in %.3f s (%.3f), factor %.3f, at most %d steps a "
           "frame\n",
           slow.simulated, wall, ratio, slow.factor, most);
    EXPECT(most == 1);
    EXPECT(ratio > 0.25 && ratio < 0.4); /* 1/60 s simulated per 52 ms frame: 0.32 */
    EXPECT(fabs(slow.factor - ratio) < 0.03);
    viz_pacer_describe(&slow, false, hud, sizeof hud);
    printf("HUD: %s\n", hud);
    EXPECT(!strcmp(hud, "real time x0.32 (solver too slow)"));
    viz_pacer_describe(&slow, true, hud, sizeof hud); /* paused: not the solver's fault */
    EXPECT(!strstr(hud, "too slow"));

    viz_pacer every;
    viz_pacer_init(&every, dt, true);
    double now = 0.0;
    int steps = 0;
    for (int frame = 0; frame < 100; ++frame) {
        const int n = viz_pacer_begin(&every, now);
        steps += n;
        viz_pacer_end(&every, n, 0.2 * n, now + 0.2 * n);
        now += frame % 2 ? 0.3 : 0.001; /* any clock */
    }
    printf("every frame: %d steps in 100 frames, %.4f s simulated\n", steps, every.simulated);
    EXPECT(steps == 100);
    EXPECT(fabs(every.simulated - 100 * dt) < 1e-9);
    viz_pacer_describe(&every, false, hud, sizeof hud);
    printf("HUD: %s\n", hud);
    EXPECT(!strncmp(hud, "one step a frame, x", 19) && !strstr(hud, "too slow"));

    viz_pacer held;
    viz_pacer_init(&held, dt, false);
    run(&held, 0.0, 1.0, 1.0 / 60.0, 0.001, NULL);
    const double before = held.simulated;
    viz_pacer_hold(&held, 5.0); /* paused from 1 s to 5 s */
    now = run(&held, 5.0, 1.0, 1.0 / 60.0, 0.001, NULL);
    printf("paused 4 s: %.3f s simulated in 2 s of running\n", held.simulated);
    EXPECT(fabs(held.simulated - before - 1.0) <= 2.0 * dt);
    return test_finish();
}
