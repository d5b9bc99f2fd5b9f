/* The particle contacts' benchmark: contacts between particles on the CPU reference and OpenCL, in
 * one run. drape-bench-particles runs it (particle_bench_main.c), and so does drape-bench --scene
 * balls, with the same options.
 *
 * Each case pours N balls (radius 1.5 cm, a random packing of pitch 3.3 cm) into a box whose floor
 * fits them about eight deep, lets them fall for --settle steps, then times --steps steps and
 * reports, per backend:
 *   ms/step       wall time of drape_world_step (the OpenCL step ends with clFinish)
 *   cpu ms/step   the process's CPU time per step: on the one-thread CPU reference, its time
 *                 undisturbed by other jobs on a busy machine; on OpenCL, all of PoCL's threads
 *   grid ms       the broad phase per step (drape_profile.grid_ms: velocity limit, grid build,
 *                 candidate lists; device time on OpenCL, wall time on the CPU)
 *   solve ms      the projection per step (drape_profile.project_ms): for the balls, the contact
 *                 gather passes (and their copies back) and the box's walls, every iteration
 *   other ms      the rest per step: prediction, collider contacts, update and restitution
 *                 (wall ms/step minus these three on OpenCL is the host's and the queue's share)
 *   grid Mp/s     particles put into the grid per second: N x substeps / the grid's time
 *   contacts M/s  contact pairs resolved per second: the pairs within their collision distance at
 *                 a substep's start x substeps x iterations / ms per step
 *   substeps      substeps taken per step (drape_profile.substeps): --substeps, or more while
 *                 balls still fall fast enough to split a step (particle_max_substeps)
 *   grid MiB      what the grid and the contact pass hold (drape_contact_stats.grid_bytes)
 *   launches      OpenCL commands enqueued per step (drape_profile.launches: kernels, fills,
 *                 reads; 0 on the CPU reference)
 * and the ratio of the CPU's ms/step to OpenCL's. Timings are never asserted anywhere.
 *
 *   drape-bench-particles [--sizes 5000,16384,65536] [--substeps 1] [--iterations 4]
 *                         [--settle 30] [--steps 10] [--no-cpu] [--no-opencl] [--device SEL]
 *                         [--json FILE]
 *
 * (or drape-bench --scene balls with the same options). Exit status: 0 when every case ran, 1 when
 * a case failed, none ran or the JSON cannot be written, 2 for a bad command line.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "particle_bench.h"

#include "cmdline.h"

#include <drape/drape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct result {
    bool ok;
    double ms_step, cpu_ms_step, grid_ms, solve_ms, other_ms, grid_mps, contacts_mps, grid_mib,
        launches, substeps;
    uint32_t contacts;
} result;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void quiet(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_ERROR)
        fprintf(stderr, "drape: %s\n", message);
}

static result run_case(drape_backend backend, const char *device, uint32_t n, int substeps,
                       int iterations, int settle, int steps)
{
    result out = {0};
    drape_world_def def = drape_default_world_def();
    def.backend.type = backend;
    def.backend.device = device;
    def.substeps = substeps;
    def.iterations = iterations;
    def.log = quiet;
    def.profiling = true; /* OpenCL: device times per phase, for the grid column */
    drape_world *w = NULL;
    if (drape_world_create(&def, &w) != DRAPE_OK)
        return out;
    const float r = 0.015f, pitch = 0.033f;
    /* a square floor that holds the balls about eight deep at the lattice's density */
    const float half = 0.5f * pitch * ceilf(sqrtf((float)n / 8.0f));
    drape_particle_block_def b = drape_default_particle_block_def();
    b.radius = r;
    b.spacing = pitch;
    /* tall enough for n balls at the lattice pitch, on the floor */
    const float per_layer = (2.0f * half / pitch) * (2.0f * half / pitch);
    b.size = (drape_vec3){2.0f * half, pitch * ceilf((float)n / per_layer) + 2.0f * r, 2.0f * half};
    b.centre = (drape_vec3){0.0f, 0.02f + 0.5f * b.size.y, 0.0f};
    b.packing = DRAPE_PACKING_RANDOM;
    b.max_count = n;
    drape_build_info info = {0};
    bool ok = drape_world_add_particle_block(w, &b, &info) == DRAPE_OK;
    drape_collider_def walls[5];
    drape_open_box_colliders(half, walls);
    for (int i = 0; ok && i < 5; ++i)
        ok = drape_world_add_collider(w, &walls[i], NULL) == DRAPE_OK;
    for (int s = 0; ok && s < settle; ++s)
        ok = drape_world_step(w) == DRAPE_OK;
    drape_contact_stats cs = {0};
    ok = ok && drape_world_get_contact_stats(w, &cs) == DRAPE_OK;
    drape_world_reset_profile(w);
    double t0 = now_ms(), c0 = cpu_ms();
    for (int s = 0; ok && s < steps; ++s)
        ok = drape_world_step(w) == DRAPE_OK;
    double ms = (now_ms() - t0) / steps, cms = (cpu_ms() - c0) / steps;
    drape_profile prof = {0};
    ok = ok && drape_world_get_profile(w, &prof) == DRAPE_OK;
    if (ok) {
        out.ok = true;
        out.ms_step = ms;
        out.cpu_ms_step = cms;
        out.contacts = cs.contacts;
        out.grid_ms = prof.grid_ms / steps;
        out.solve_ms = prof.project_ms / steps;
        out.other_ms = (prof.predict_ms + prof.collide_ms + prof.update_ms) / steps;
        /* the substeps taken: more than `substeps` where fast balls split a step */
        out.substeps = (double)prof.substeps / steps;
        out.grid_mps = prof.grid_ms > 0.0 ? 1e-3 * (double)info.particle_count *
                                                (double)prof.substeps / prof.grid_ms
                                          : 0.0;
        out.contacts_mps = 1e-3 * (double)cs.contacts * out.substeps * iterations / ms;
        out.grid_mib = (double)cs.grid_bytes / 1048576.0;
        out.launches = (double)prof.launches / steps;
    }
    drape_world_destroy(w);
    return out;
}

static int parse_list(const char *s, uint32_t *out, int cap)
{
    int n = 0;
    while (*s && n < cap) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v < 2 || v > (1u << 24))
            return -1;
        out[n++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return n;
}

static void usage(FILE *to, const char *program, const cmdline_option *options, size_t count)
{
    fprintf(to,
            "usage: %s [--sizes N,N,...] [--substeps S] [--iterations I]\n"
            "       [--settle STEPS] [--steps STEPS] [--no-cpu] [--no-opencl] [--device SEL]\n"
            "       [--json FILE]\n"
            "Balls poured into a box, timed on the CPU reference and on OpenCL; see the\n"
            "comment at the top of bench/particle_bench.c for the figures.\n",
            program);
    cmdline_print_options(to, options, count);
}

/* text as a whole number in [min, max] into *out, when given. */
static bool number(const char *program, const char *name, const char *text, unsigned long min,
                   unsigned long max, int *out)
{
    unsigned long v = 0;
    if (!text)
        return true;
    if (!cmdline_ulong(program, name, text, min, max, &v))
        return false;
    *out = (int)v;
    return true;
}

int particle_bench_main(const char *program, int argc, char **argv)
{
    uint32_t sizes[16] = {5000, 16384, 65536};
    int count = 3, substeps = 1, iterations = 4, settle = 30, steps = 10;
    bool no_cpu = false, no_opencl = false, version = false;
    const char *json = NULL, *device = NULL, *size_list = NULL, *substeps_text = NULL,
               *iterations_text = NULL, *settle_text = NULL, *steps_text = NULL;
    const cmdline_option options[] = {
        CMDLINE_VALUE("--sizes", "N,N,...",
                      "particles per case, 2 .. 2^24 each (default 5000,16384,65536)", &size_list),
        CMDLINE_VALUE("--substeps", "S", "substeps per step (default 1)", &substeps_text),
        CMDLINE_VALUE("--iterations", "I", "iterations per substep (default 4)", &iterations_text),
        CMDLINE_VALUE("--settle", "STEPS", "untimed steps first (default 30)", &settle_text),
        CMDLINE_VALUE("--steps", "STEPS", "timed steps (default 10)", &steps_text),
        CMDLINE_FLAG("--no-cpu", "skip the CPU reference", &no_cpu),
        CMDLINE_FLAG("--no-opencl", "skip OpenCL", &no_opencl),
        CMDLINE_VALUE("--device", "SEL",
                      "OpenCL device: an index or part of its name (default: $DRAPE_DEVICE,\n"
                      "else the first GPU, else the first device)",
                      &device),
        CMDLINE_VALUE("--json", "FILE", "write the cases as JSON", &json),
        CMDLINE_FLAG("--version", "the version of drape", &version),
    };
    const size_t option_count = sizeof options / sizeof options[0];
    cmdline c = {.program = program, .options = options, .count = option_count};
    if (cmdline_parse(&c, argc, argv) != CMDLINE_OK) {
        usage(stderr, program, options, option_count);
        return 2;
    }
    if (c.help) {
        usage(stdout, program, options, option_count);
        return 0;
    }
    if (version) {
        printf("%s %s\n", program, DRAPE_VERSION_STRING);
        return 0;
    }
    if (size_list && (count = parse_list(size_list, sizes, 16)) <= 0) {
        fprintf(stderr, "%s: --sizes needs numbers 2 .. 2^24, got '%s'\n", program, size_list);
        return 2;
    }
    if (!number(program, "--substeps", substeps_text, 1, 1000, &substeps) ||
        !number(program, "--iterations", iterations_text, 1, 1000, &iterations) ||
        !number(program, "--settle", settle_text, 0, 1000000, &settle) ||
        !number(program, "--steps", steps_text, 1, 1000000, &steps))
        return 2;
    if (no_cpu && no_opencl) {
        fprintf(stderr, "%s: --no-cpu and --no-opencl leave nothing to run\n", program);
        return 2;
    }
    const bool cpu = !no_cpu, opencl = !no_opencl;
    FILE *js = json ? fopen(json, "w") : NULL;
    if (json && !js) {
        fprintf(stderr, "%s: cannot write %s\n", program, json);
        return 1;
    }
    if (js)
        fprintf(js, "{\"substeps\": %d, \"iterations\": %d, \"cases\": [", substeps, iterations);
    printf("%9s %-7s %10s %11s %8s %8s %8s %10s %12s %9s %9s %9s %9s %8s\n", "particles", "backend",
           "ms/step", "cpu ms/step", "grid ms", "solve ms", "other ms", "grid Mp/s", "contacts M/s",
           "contacts", "grid MiB", "substeps", "launches", "CPU/CL");
    bool any = false;
    int cases = 0, failed = 0, written = 0; /* written: the cases in the JSON so far */
    for (int k = 0; k < count; ++k) {
        result res[2] = {{0}, {0}};
        const drape_backend backends[2] = {DRAPE_BACKEND_CPU, DRAPE_BACKEND_OPENCL};
        const char *names[2] = {"cpu", "opencl"};
        for (int b = 0; b < 2; ++b) {
            if ((b == 0 && !cpu) || (b == 1 && !opencl))
                continue;
            res[b] = run_case(backends[b], device, sizes[k], substeps, iterations, settle, steps);
            cases++;
            if (!res[b].ok) {
                failed++;
                printf("%9u %-7s failed\n", sizes[k], names[b]);
                continue;
            }
            any = true;
            double ratio = b == 1 && res[0].ok ? res[0].ms_step / res[1].ms_step : 0.0;
            printf("%9u %-7s %10.3f %11.3f %8.3f %8.3f %8.3f %10.2f %12.2f %9u %9.2f %9.2f %9.1f",
                   sizes[k], names[b], res[b].ms_step, res[b].cpu_ms_step, res[b].grid_ms,
                   res[b].solve_ms, res[b].other_ms, res[b].grid_mps, res[b].contacts_mps,
                   res[b].contacts, res[b].grid_mib, res[b].substeps, res[b].launches);
            if (ratio > 0.0)
                printf(" %8.2f", ratio);
            printf("\n");
            fflush(stdout);
            if (js)
                fprintf(js,
                        "%s\n  {\"particles\": %u, \"backend\": \"%s\", \"ms_per_step\": %.4f, "
                        "\"cpu_ms_per_step\": %.4f, \"grid_mparticles_per_s\": %.4f, "
                        "\"contacts_m_per_s\": %.4f, "
                        "\"contacts\": %u, \"grid_mib\": %.4f, \"substeps_per_step\": %.2f, "
                        "\"launches_per_step\": %.2f}",
                        written++ > 0 ? "," : "", sizes[k], names[b], res[b].ms_step,
                        res[b].cpu_ms_step, res[b].grid_mps, res[b].contacts_mps, res[b].contacts,
                        res[b].grid_mib, res[b].substeps, res[b].launches);
        }
    }
    if (js) {
        fprintf(js, "\n]}\n");
        fclose(js);
    }
    if (failed)
        fprintf(stderr, "%s: %d of %d cases failed\n", program, failed, cases);
    return any && !failed ? 0 : 1;
}
