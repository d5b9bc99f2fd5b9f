/* What a mouse grab and a release cost against one step, on a cloth of N x N (default 512).
 *
 * A grab adds one attachment constraint and a release removes it; the world recolours what changed
 * before the next step. This times, on the CPU reference and (where there is one) the first OpenCL
 * device: one step (the median of 5), a grab (drape_world_add_attachment and the recolouring it
 * causes, made to happen now with drape_world_get_coloring), a release the same way, the first step
 * after each (it also uploads what changed on OpenCL), and a full recolouring for comparison (what
 * every grab cost when any change recoloured every type). Each grab and release is the median of 5.
 * Wall-clock times (CLOCK_MONOTONIC), one line per figure; nothing is asserted.
 *
 *   drape_grab_bench [N] (4 .. 2048; --help)
 */
#define _POSIX_C_SOURCE 199309L

#include "cmdline.h"

#include <drape/drape.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RUNS = 5 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, RUNS, sizeof *v, compare);
    return v[RUNS / 2];
}

/* Recolours now what the last change asks for. */
static void prepare(drape_world *w)
{
    drape_coloring_stats s;
    drape_world_get_coloring(w, DRAPE_CONSTRAINT_ATTACHMENT, &s);
}

static int run(drape_backend backend, uint32_t n)
{
    drape_world_def def = drape_default_world_def();
    def.backend.type = backend;
    drape_world *w = NULL;
    if (drape_world_create(&def, &w) != DRAPE_OK)
        return 1;
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = c.ny = n;
    c.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    if (drape_world_add_cloth(w, &c, NULL) != DRAPE_OK || drape_world_step(w) != DRAPE_OK) {
        drape_world_destroy(w);
        return 1;
    }
    double step[RUNS], grab[RUNS], release[RUNS], after_grab[RUNS], after_release[RUNS];
    double full[RUNS];
    int failed = 0;
    for (int k = 0; k < RUNS; ++k) {
        double t0 = now_ms();
        failed |= drape_world_step(w) != DRAPE_OK;
        step[k] = now_ms() - t0;

        drape_attachment_def a = drape_default_attachment_def();
        a.particle = n * n / 2 + n / 2;
        drape_world_get_positions(w, a.particle, 1, &a.target);
        drape_attachment_id id = {0, 0};
        t0 = now_ms();
        failed |= drape_world_add_attachment(w, &a, &id) != DRAPE_OK;
        prepare(w);
        grab[k] = now_ms() - t0;
        t0 = now_ms();
        failed |= drape_world_step(w) != DRAPE_OK;
        after_grab[k] = now_ms() - t0;

        t0 = now_ms();
        failed |= drape_world_remove_attachment(w, id) != DRAPE_OK;
        prepare(w);
        release[k] = now_ms() - t0;
        t0 = now_ms();
        failed |= drape_world_step(w) != DRAPE_OK;
        after_release[k] = now_ms() - t0;

        drape_world_def d = drape_world_get_def(w); /* a colouring setting: every type recolours */
        d.color_balance = !d.color_balance;
        failed |= drape_world_set_def(w, &d) != DRAPE_OK;
        t0 = now_ms();
        prepare(w);
        full[k] = now_ms() - t0;
        d.color_balance = !d.color_balance;
        failed |= drape_world_set_def(w, &d) != DRAPE_OK;
        prepare(w);
    }
    const double s = median(step);
    printf("%s, %u x %u cloth (%u distance constraints):\n", drape_world_device(w), n, n,
           drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE));
    printf("  step                       %9.3f ms\n", s);
    printf("  grab (add + recolour)      %9.3f ms  %.4f steps\n", median(grab), median(grab) / s);
    printf("  release (remove + recolour)%9.3f ms  %.4f steps\n", median(release),
           median(release) / s);
    printf("  first step after a grab    %9.3f ms  %.3f steps\n", median(after_grab),
           median(after_grab) / s);
    printf("  first step after a release %9.3f ms  %.3f steps\n", median(after_release),
           median(after_release) / s);
    printf("  full recolouring           %9.3f ms  %.3f steps\n", median(full), median(full) / s);
    drape_world_destroy(w);
    return failed;
}

int main(int argc, char **argv)
{
    unsigned long n = 512;
    const int status = cmdline_number_only(
        "drape_grab_bench", argc, argv,
        "usage: drape_grab_bench [N]\n"
        "What a mouse grab and a release cost against one step, on a cloth of N x N particles\n"
        "(4 .. 2048, default 512), on the CPU reference and the first OpenCL device.\n",
        "N", 4, 2048, &n);
    if (status >= 0)
        return status;
    int failed = run(DRAPE_BACKEND_CPU, (uint32_t)n);
    uint32_t devices = 0;
    if (drape_list_devices(NULL, 0, &devices, NULL, NULL) == DRAPE_OK && devices > 0)
        failed |= run(DRAPE_BACKEND_OPENCL, (uint32_t)n);
    return failed;
}
