/* drape-bench: the GPU path against the CPU reference, in one run.
 *
 * Sweeps cloth sizes x iterations x substeps over the CPU reference (one thread) and OpenCL
 * devices, each case warmed up, calibrated to a target time and repeated (bench_case.c); measures
 * each device's copy bandwidth first (bench_probe.c), so that the solver's effective bandwidth can
 * be read as a fraction of what the device can move; then prints a table and writes CSV and JSON
 * (bench_report.c). The figures are defined in bench/README.md; the byte counts in bench_model.h.
 *
 * With --scene many-cloths each backend runs two cases: one world of --count cloths, and one world
 * of one such cloth, whose time per step times the count is what stepping the cloths one world at a
 * time costs (a world's step does not depend on other worlds); the table ends with that comparison.
 * --scene balls is the particle contacts' benchmark instead (particle_bench.c, the same as
 * drape-bench-particles), with that benchmark's own options.
 *
 * Exit status: 0 when at least one case ran, none failed (a case too large for the memory is
 * skipped, not failed) and every requested file was written; 1 otherwise; 2 for a bad command line.
 * A busy machine or a noisy case only gets a warning (bench_verdict.c).
 */
#include "bench_case.h"
#include "bench_machine.h"
#include "bench_options.h"
#include "bench_probe.h"
#include "bench_report.h"
#include "bench_verdict.h"
#include "particle_bench.h"

#include <drape/scene.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The OpenCL devices to run: the --device selectors, else every device by index. */
static int device_selectors(const bench_options *o, const bench_machine *m, const char **out,
                            char storage[][8])
{
    if (!o->opencl)
        return 0;
    if (o->device_count > 0) {
        for (int i = 0; i < o->device_count; ++i)
            out[i] = o->devices[i];
        return o->device_count;
    }
    int n = 0;
    for (uint32_t i = 0; i < m->device_count && n < BENCH_MAX_LIST; ++i, ++n) {
        snprintf(storage[n], 8, "%u", m->devices[i].index);
        out[n] = storage[n];
    }
    return n;
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* The listed device a selector names (as drape resolves it: an index, else the first device whose
 * name or platform contains it), or NULL. Only used to size the memory guard. */
static const drape_device_info *resolve(const bench_machine *m, const char *selector)
{
    char *end = NULL;
    unsigned long index = strtoul(selector, &end, 10);
    if (*selector && end && !*end) {
        for (uint32_t i = 0; i < m->device_count; ++i)
            if (m->devices[i].index == index)
                return &m->devices[i];
        return NULL;
    }
    for (uint32_t i = 0; i < m->device_count; ++i)
        if (contains_nocase(m->devices[i].name, selector) ||
            contains_nocase(m->devices[i].platform, selector))
            return &m->devices[i];
    return NULL;
}

/* Speed-ups over the CPU reference of the same size, iterations and substeps; copy fractions. */
static void relate(bench_run *run)
{
    for (size_t i = 0; i < run->result_count; ++i) {
        bench_result *r = &run->results[i];
        if (!r->ok)
            continue;
        for (size_t j = 0; j < run->result_count; ++j) {
            const bench_result *c = &run->results[j];
            const bool same = c->def.size == r->def.size &&
                              c->def.iterations == r->def.iterations &&
                              c->def.substeps == r->def.substeps && r->wall_ms.median > 0.0;
            if (c->ok && same && c->def.backend == DRAPE_BACKEND_CPU &&
                c->def.cloths == r->def.cloths)
                r->speedup = c->wall_ms.median / r->wall_ms.median;
            /* many-cloths: the one-cloth world of the same backend and device, stepped cloths times
             */
            if (c->ok && same && r->def.cloths > 1 && c->def.cloths == 1 &&
                c->def.backend == r->def.backend && c->def.kernel == r->def.kernel &&
                (c->def.device == r->def.device ||
                 (c->def.device && r->def.device && strcmp(c->def.device, r->def.device) == 0))) {
                r->one_cloth_ms = c->wall_ms.median;
                r->one_cloth_launches = c->launches_per_step;
                r->batch_speedup = c->wall_ms.median * r->def.cloths / r->wall_ms.median;
            }
        }
        for (int p = 0; r->def.device && p < run->probe_count; ++p)
            if (run->probes[p].ok && strcmp(run->probes[p].selector, r->def.device) == 0) {
                r->copy_gbs = run->probes[p].gbs_median;
                r->copy_fraction = r->effective_gbs / r->copy_gbs;
            }
    }
}

/* --scene balls (or --scene=balls) in argv: the particle contacts' benchmark with the rest of the
 * arguments; -1 when it is not asked for. */
static int run_balls(int argc, char **argv)
{
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    int kept = 0;
    bool balls = false;
    for (int k = 0; rest && k < argc; ++k) {
        if (k > 0 && !strcmp(argv[k], "--scene") && k + 1 < argc && !strcmp(argv[k + 1], "balls"))
            balls = true, ++k;
        else if (k > 0 && !strcmp(argv[k], "--scene=balls"))
            balls = true;
        else
            rest[kept++] = argv[k];
    }
    int status = -1;
    if (!rest)
        fprintf(stderr, "drape-bench: out of memory\n"), status = 1;
    else if (balls)
        rest[kept] = NULL, status = particle_bench_main("drape-bench --scene balls", kept, rest);
    free(rest);
    return status;
}

int main(int argc, char **argv)
{
    const int balls = run_balls(argc, argv);
    if (balls >= 0)
        return balls;
    bench_options options;
    int parsed = bench_parse_options(argc, argv, &options);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    /* The outputs before the run, which can take minutes: the writer's own first move (a temporary
     * file beside the target), undone; the target is not touched. */
    const char *outputs[2] = {options.csv_path, options.json_path};
    for (int k = 0; k < 2; ++k) {
        drape_output out;
        drape_scene_error e;
        if (!outputs[k])
            continue;
        if (drape_output_open(&out, outputs[k], &e) != DRAPE_SCENE_OK) {
            fprintf(stderr, "drape-bench: %s\n", e.message);
            return 1;
        }
        drape_output_discard(&out);
    }

    static bench_run run;
    run.options = &options;
    bench_machine_describe(&run.machine);

    const char *selectors[BENCH_MAX_LIST];
    char storage[BENCH_MAX_LIST][8];
    const int devices = device_selectors(&options, &run.machine, selectors, storage);
    if (options.opencl && devices == 0)
        fprintf(stderr, "drape-bench: no OpenCL device: running the CPU reference only\n");
    if (!options.cpu && devices == 0) {
        fprintf(stderr, "drape-bench: nothing to run\n");
        return 1;
    }

    for (int d = 0; options.probe_mib > 0 && d < devices; ++d) {
        fprintf(stderr, "drape-bench: copy probe on device %s...\n", selectors[d]);
        bench_probe_run(selectors[d], options.probe_mib,
                        options.repetitions > 3 ? options.repetitions : 3, &run.probes[d]);
        run.probe_count = d + 1;
    }

    /* many-cloths: the world of all cloths, then the world of one */
    const int layouts = options.cloths ? 2 : 1;
    const size_t per_config =
        ((size_t)(options.cpu ? 1 : 0) + (size_t)devices * (size_t)options.kernel_count) *
        (size_t)layouts;
    const size_t total = (size_t)options.size_count * (size_t)options.iteration_count *
                         (size_t)options.substep_count * per_config;
    run.results = calloc(total ? total : 1, sizeof *run.results);
    if (!run.results) {
        fprintf(stderr, "drape-bench: out of memory\n");
        return 1;
    }
    size_t ok_cases = 0;
    bench_print_row(stderr, NULL, true);
    for (int s = 0; s < options.size_count; ++s)
        for (int it = 0; it < options.iteration_count; ++it)
            for (int ss = 0; ss < options.substep_count; ++ss)
                for (int b = options.cpu ? -1 : 0; b < devices; ++b)
                    for (int k = 0; k < (b < 0 ? 1 : options.kernel_count); ++k)
                        for (int l = 0; l < layouts; ++l) {
                            bench_case_def def = {
                                .backend = b < 0 ? DRAPE_BACKEND_CPU : DRAPE_BACKEND_OPENCL,
                                .device = b < 0 ? NULL : selectors[b],
                                .size = options.sizes[s],
                                .iterations = options.iterations[it],
                                .substeps = options.substeps[ss],
                                .target_ms = options.target_ms,
                                .warmup_ms = options.warmup_ms,
                                .repetitions = options.repetitions,
                                .cloths = l == 0 ? options.cloths : 1,
                                .kernel = b < 0 ? DRAPE_DISTANCE_KERNEL_AUTO : options.kernels[k],
                                .queue = options.queue,
                            };
                            const drape_device_info *info =
                                b < 0 ? NULL : resolve(&run.machine, def.device);
                            def.memory_available = b < 0  ? run.machine.memory / 2
                                                   : info ? info->global_memory
                                                          : 0;
                            bench_result *r = &run.results[run.result_count++];
                            bench_case_run(&def, r);
                            ok_cases += r->ok;
                            bench_print_row(stderr, r, false);
                        }
    bench_machine_load(run.machine.load_after);
    relate(&run);
    bench_print_table(stdout, &run);
    fflush(stdout);
    const int failed = bench_verdict(stderr, &run);

    bool written = true;
    if (options.csv_path)
        written = bench_write_csv(options.csv_path, &run) && written;
    if (options.json_path)
        written = bench_write_json(options.json_path, &run) && written;
    free(run.results);
    return failed == 0 && ok_cases > 0 && written ? 0 : 1;
}
