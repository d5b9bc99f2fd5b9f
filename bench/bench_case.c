/* Running one benchmark case (bench_case.h).
 *
 * The scene is the built-in cloth-sphere (the default scene, built by the scene library from its
 * embedded file), changed by JSON path: its cloth at n x n particles, 1 m square, with structural,
 * shear and skip-one bending distance constraints, dropped onto a sphere of radius 0.3 m above a
 * ground plane, with the case's iterations and substeps and no damping (as the committed results
 * were measured). It starts 5 mm above the sphere's top instead of 0.3 m, so that it drapes
 * (contacts, stretched constraints) from the first steps: a large case runs only a few steps, and
 * a cloth still in free fall would time a different, easier problem. Each case:
 *   1. creates the world and takes the first step (upload, kernel build): "setup";
 *   2. warms up, stepping for warmup_ms (at least two steps), and estimates the time of a step;
 *   3. calibrates the steps of one repetition to target_ms (at least one);
 *   4. times `repetitions` repetitions with CLOCK_MONOTONIC around drape_world_step (which returns
 *      once the device has finished), with profiling off, so that the wall time is what a user
 *      gets: no profiling event per command;
 *   5. with a queue of K > 1, times as many repetitions of the same steps issued K at a time by
 *      drape_world_step_n (the steps are queued back to back, one wait per call): the pipelined
 *      rate;
 *   6. turns profiling on and times shorter repetitions (a quarter of the steps, at least one) for
 *      the per-phase device times of the OpenCL events (wall time on the CPU);
 *   7. reports medians over the repetitions, the residual after the last step, the colours, the
 *      device memory in use and the OpenCL commands enqueued per step (launches, fills, the one
 *      read of the non-finite check; counted with profiling off).
 * The many-cloths scene (drape-bench --scene many-cloths) is the data-generation case: `cloths`
 * such cloths in one world, 1.25 m apart on a square grid, each starting 5 mm above its own patch
 * of one ground plane (no sphere: the contact pass tests every particle against every collider, so
 * one collider per cloth would make it quadratic). The world's colouring spans all cloths, so every
 * colour of every cloth goes in one launch; drape-bench compares it with a world of one of these
 * cloths, stepped `cloths` times. The cloths are independent samples and never meet: they have no
 * particle contacts (radius 0), so that each can be one work-group of the fused projection.
 * Sizes whose estimated memory exceeds what is available are skipped before anything is allocated;
 * a world that fails anyway (out of memory, no device) is reported, not fatal.
 */
#include "bench_case.h"
#include "bench_machine.h"
#include "bench_model.h"

#include <drape/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_REPS 1000

/* The first error of a case: the one that says why (later ones say what failed because of it). */
typedef struct case_log {
    char first[200];
} case_log;

static void case_log_fn(drape_log_level level, const char *message, void *user)
{
    case_log *log = user;
    if (level == DRAPE_LOG_ERROR && !log->first[0])
        snprintf(log->first, sizeof log->first, "%s", message);
}

/* The case's scene: cloth-sphere with the case's cloth size, start height, iterations and
 * substeps; NULL (and the scene library's message in log) on failure. */
static drape_scene *load_scene(const bench_case_def *def, case_log *log)
{
    static const char base_name[] = "cloth-sphere";
    size_t size = 0;
    const char *base = drape_scene_builtin_json(base_name, &size);
    char set[256];
    snprintf(set, sizeof set,
             "{\"$.cloths[0].nx\": %u, \"$.cloths[0].ny\": %u, "
             "\"$.cloths[0].origin\": [-0.5, 0.305, -0.5], "
             "\"$.solver.iterations\": %d, \"$.solver.substeps\": %d, \"$.solver.damping\": 0}",
             def->size, def->size, def->iterations, def->substeps);
    drape_scene_error err;
    char *json = NULL;
    drape_scene *scene = NULL;
    if (!base)
        snprintf(err.message, sizeof err.message, "no built-in scene %s", base_name);
    else if (drape_scene_json_set(base, size, set, &json, &err) == DRAPE_SCENE_OK) {
        drape_scene_options o = drape_scene_default_options();
        o.override_backend = true;
        o.backend = def->backend;
        o.device = def->device;
        o.log = case_log_fn;
        o.log_user = log;
        if (drape_scene_load_buffer(json, strlen(json), base_name, &o, &scene, &err) !=
            DRAPE_SCENE_OK)
            scene = NULL;
    }
    free(json);
    if (!scene && !log->first[0])
        snprintf(log->first, sizeof log->first, "%.*s", (int)sizeof log->first - 1, err.message);
    return scene;
}

/* The many-cloths scene: `cloths` n x n cloths over one ground plane. */
static drape_result build_many(drape_world *w, uint32_t n, uint32_t cloths)
{
    uint32_t side = 1;
    while (side * side < cloths)
        ++side;
    drape_result r = DRAPE_OK;
    for (uint32_t i = 0; i < cloths && r == DRAPE_OK; ++i) {
        drape_cloth_def cloth = drape_default_cloth_def();
        cloth.nx = cloth.ny = n;
        cloth.origin = (drape_vec3){1.25f * (float)(i % side), 0.005f, 1.25f * (float)(i / side)};
        cloth.radius = 0.0f; /* independent samples, 0.25 m apart: nothing to collide */
        r = drape_world_add_cloth(w, &cloth, NULL);
    }
    drape_collider_def ground = drape_default_collider_def(); /* plane through 0, normal +y */
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &ground, NULL);
    return r;
}

static void fail(bench_result *out, const char *what, const case_log *log)
{
    /* Bounded so that the whole line fits status[200]: the reason first, then the log's start. */
    snprintf(out->status, sizeof out->status, "%.120s%s%.70s", what, log->first[0] ? ": " : "",
             log->first);
    out->ok = false;
}

/* Steps `steps` times, `queue` steps per call (drape_world_step_n) when queue > 1; false (and
 * out->status) on failure. */
static bool step_n(drape_world *w, int steps, uint32_t queue, bench_result *out,
                   const case_log *log)
{
    for (int i = 0; i < steps;) {
        const uint32_t k = queue > 1 && (uint32_t)(steps - i) >= queue ? queue : 1u;
        if ((k > 1 ? drape_world_step_n(w, k) : drape_world_step(w)) != DRAPE_OK) {
            fail(out, "step failed", log);
            return false;
        }
        i += (int)k;
    }
    return true;
}

/* Switches the world's profiling events on or off (drape_world_def.profiling). */
static bool set_profiling(drape_world *w, bool on, bench_result *out, const case_log *log)
{
    drape_world_def def = drape_world_get_def(w);
    def.profiling = on;
    if (drape_world_set_def(w, &def) != DRAPE_OK) {
        fail(out, "drape_world_set_def (profiling) failed", log);
        return false;
    }
    return true;
}

/* One timed pass: `reps` repetitions of `steps` steps, `queue` per call; wall ms per step into
 * wall[], and, with `phase`, the per-phase times per step of the profile into phase[0..4][];
 * without, one step per call, the commands enqueued per step into out->launches_per_step. */
static bool timed_pass(drape_world *w, int reps, int steps, uint32_t queue, double *wall,
                       double (*phase)[BENCH_MAX_REPS], bench_result *out, const case_log *log)
{
    for (int r = 0; r < reps; ++r) {
        drape_world_reset_profile(w);
        const double t0 = bench_now_ms();
        if (!step_n(w, steps, queue, out, log))
            return false;
        const double t1 = bench_now_ms();
        drape_profile prof;
        if (drape_world_get_profile(w, &prof) != DRAPE_OK) {
            fail(out, "drape_world_get_profile failed", log);
            return false;
        }
        const double k = 1.0 / steps;
        wall[r] = (t1 - t0) * k;
        out->device_bytes = prof.device_bytes;
        if (!phase) { /* the commands of one step per call */
            if (queue <= 1)
                out->launches_per_step = (double)prof.launches * k;
            continue;
        }
        phase[0][r] = prof.predict_ms * k;
        phase[1][r] = prof.collide_ms * k;
        phase[2][r] = prof.project_ms * k;
        phase[3][r] = prof.update_ms * k;
        phase[4][r] = phase[0][r] + phase[1][r] + phase[2][r] + phase[3][r];
    }
    return true;
}

static void measure(drape_world *w, const bench_case_def *def, bench_result *out, case_log *log)
{
    /* 1. setup ends with the first step (profiling is off until the profiled pass) */
    double t0 = bench_now_ms();
    if (!step_n(w, 1, 1, out, log))
        return;
    out->setup_ms += bench_now_ms() - t0;

    /* 2. warm-up */
    int warm = 0;
    double start = bench_now_ms(), elapsed = 0.0;
    while (warm < 2 || elapsed < def->warmup_ms) {
        if (!step_n(w, 1, 1, out, log))
            return;
        ++warm;
        elapsed = bench_now_ms() - start;
    }
    out->warmup_steps = warm;

    /* 3. calibration */
    const double per_step = elapsed / warm;
    double steps = per_step > 0.0 ? def->target_ms / per_step : 1.0;
    out->steps_per_rep = steps < 1.0 ? 1 : steps > 1e6 ? 1000000 : (int)(steps + 0.5);

    /* 4. repetitions, one step per call; 5. the same, `queue` steps per call */
    const int reps = def->repetitions < BENCH_MAX_REPS ? def->repetitions : BENCH_MAX_REPS;
    static double wall[BENCH_MAX_REPS], phase[5][BENCH_MAX_REPS];
    if (!timed_pass(w, reps, out->steps_per_rep, 1, wall, NULL, out, log))
        return;
    out->wall_ms = bench_summarize(wall, (size_t)reps);
    if (def->queue > 1) {
        if (!timed_pass(w, reps, out->steps_per_rep, def->queue, wall, NULL, out, log))
            return;
        out->queued_ms = bench_summarize(wall, (size_t)reps);
    }

    /* 6. the profiled pass */
    out->profiled_steps = (out->steps_per_rep + 3) / 4;
    if (!set_profiling(w, true, out, log) ||
        !timed_pass(w, reps, out->profiled_steps, 1, wall, phase, out, log))
        return;
    out->profiled_ms = bench_median(wall, (size_t)reps);
    out->predict_ms = bench_median(phase[0], (size_t)reps);
    out->collide_ms = bench_median(phase[1], (size_t)reps);
    out->project_ms = bench_median(phase[2], (size_t)reps);
    out->update_ms = bench_median(phase[3], (size_t)reps);
    out->device_ms = bench_median(phase[4], (size_t)reps);

    /* 7. state after the last step */
    drape_diagnostics diag;
    if (drape_world_get_diagnostics(w, &diag) != DRAPE_OK) {
        fail(out, "drape_world_get_diagnostics failed", log);
        return;
    }
    out->residual = diag.distance_residual;
    out->simulated_s = drape_world_time(w);
    out->ok = true;
    snprintf(out->status, sizeof out->status, "ok");
}

static void derive(const bench_case_def *def, bench_result *out)
{
    out->projections_per_step = (double)out->constraints * def->iterations * def->substeps;
    if (out->wall_ms.median > 0.0)
        out->projections_per_s = out->projections_per_step / (out->wall_ms.median * 1e-3);
    if (out->queued_ms.median > 0.0)
        out->queued_projections_per_s = out->projections_per_step / (out->queued_ms.median * 1e-3);
    out->project_bytes_per_step =
        bench_project_bytes(out->constraints, out->particles, def->iterations, def->substeps);
    if (out->project_ms > 0.0) {
        out->project_projections_per_s = out->projections_per_step / (out->project_ms * 1e-3);
        out->effective_gbs = out->project_bytes_per_step / (out->project_ms * 1e-3) * 1e-9;
    }
}

void bench_case_run(const bench_case_def *def, bench_result *out)
{
    memset(out, 0, sizeof *out);
    out->def = *def;
    double load[3];
    bench_machine_load(load);
    out->load = load[0];
    const bool cpu = def->backend == DRAPE_BACKEND_CPU;
    snprintf(out->backend, sizeof out->backend, "%s", cpu ? "cpu" : "opencl");
    snprintf(out->kernel, sizeof out->kernel, "%s",
             cpu ? "-" : drape_distance_kernel_name(def->kernel));
    snprintf(out->device, sizeof out->device, "%s", cpu ? "CPU reference" : def->device);
    const uint64_t cloths = def->cloths ? def->cloths : 1;
    out->particles = cloths * def->size * def->size;
    out->constraints = cloths * bench_cloth_constraints(def->size);

    const uint64_t need =
        cloths * (cpu ? bench_cloth_host_bytes(def->size) : bench_cloth_device_bytes(def->size));
    if (def->memory_available && need > def->memory_available) {
        snprintf(out->status, sizeof out->status, "skipped: needs about %.2f GiB, %s has %.2f GiB",
                 (double)need / (1 << 30), cpu ? "the host" : "the device",
                 (double)def->memory_available / (1 << 30));
        out->skipped = true;
        return;
    }

    case_log log = {""};
    const double t0 = bench_now_ms();
    /* cloth-sphere through the scene library; the many-cloths scene in a world of its own */
    drape_scene *scene = def->cloths ? NULL : load_scene(def, &log);
    drape_world *w = scene ? drape_scene_world(scene) : NULL;
    drape_world_def wdef = w ? drape_world_get_def(w) : drape_default_world_def();
    if (!w && def->cloths) {
        wdef.backend.type = def->backend;
        wdef.backend.device = def->device;
        wdef.iterations = def->iterations;
        wdef.substeps = def->substeps;
        wdef.log = case_log_fn;
        wdef.log_user = &log;
        if (drape_world_create(&wdef, &w) != DRAPE_OK) {
            fail(out, "world creation failed", &log);
            return;
        }
        if (build_many(w, def->size, def->cloths) != DRAPE_OK) {
            drape_world_destroy(w);
            w = NULL;
        }
    }
    wdef.profiling = false; /* the timed passes; the profiled pass turns it on (measure) */
    wdef.distance_kernel = def->kernel;
    if (!w || drape_world_set_def(w, &wdef) != DRAPE_OK) {
        fail(out, "scene creation failed", &log);
        if (scene)
            drape_scene_destroy(scene);
        else
            drape_world_destroy(w);
        return;
    }
    snprintf(out->device, sizeof out->device, "%s", drape_world_device(w));
    out->setup_ms = bench_now_ms() - t0;
    out->constraints = drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE) +
                       drape_world_constraint_count(w, DRAPE_CONSTRAINT_DIHEDRAL) +
                       drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT);
    measure(w, def, out, &log);
    snprintf(out->kernel, sizeof out->kernel, "%s",
             cpu ? "-" : drape_distance_kernel_name(drape_world_distance_kernel(w)));
    drape_coloring_stats stats;
    if (drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &stats) == DRAPE_OK)
        out->colors = stats.colors;
    if (scene)
        drape_scene_destroy(scene);
    else
        drape_world_destroy(w);
    if (out->ok)
        derive(def, out);
}
