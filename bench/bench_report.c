/* The three outputs of drape-bench (bench_report.h). The table is for people; CSV and JSON carry
 * the same per-case figures for bench/plot.py and for comparing runs. JSON numbers that are not
 * finite, and figures that do not apply (the speed-up of a run without the CPU reference, the copy
 * fraction of the CPU reference), are written as null. */
#include "bench_report.h"
#include "bench_model.h"

#include <math.h>
#include <string.h>

/* ---- table ----------------------------------------------------------------------------------- */

void bench_print_row(FILE *f, const bench_result *r, bool header)
{
    if (header) {
        fprintf(f,
                "%-12s %-14s %5s %3s %3s %9s %3s %10s %6s %28s %9s %7s %6s %8s %9s %8s %8s %6s "
                "%10s %9s\n",
                "backend", "kernel", "size", "it", "ss", "constr.", "col", "wall ms", "spread",
                "device ms pre/col/proj/upd", "Mproj/s", "GB/s", "%copy", "speedup", "residual",
                "dev MiB", "launches", "cloths", "queued ms", "prof. ms");
        return;
    }
    char backend[13]; /* "opencl#" and the selector, cut to the column */
    snprintf(backend, sizeof backend, "%s%s%.12s", r->backend, r->def.device ? "#" : "",
             r->def.device ? r->def.device : "");
    if (!r->ok) {
        fprintf(f, "%-12s %-14s %5u %3d %3d %9llu  %s\n", backend, r->kernel, r->def.size,
                r->def.iterations, r->def.substeps, (unsigned long long)r->constraints, r->status);
        return;
    }
    char phases[64];
    snprintf(phases, sizeof phases, "%.2f/%.2f/%.2f/%.2f", r->predict_ms, r->collide_ms,
             r->project_ms, r->update_ms);
    char copy[16] = "-", speedup[16] = "-";
    if (r->copy_fraction > 0.0)
        snprintf(copy, sizeof copy, "%.0f%%", 100.0 * r->copy_fraction);
    if (r->speedup > 0.0)
        snprintf(speedup, sizeof speedup, "%.2fx", r->speedup);
    char queued[24] = "-";
    if (r->queued_ms.median > 0.0)
        snprintf(queued, sizeof queued, "%.3f/%u", r->queued_ms.median, r->def.queue);
    fprintf(f,
            "%-12s %-14s %5u %3d %3d %9llu %3u %10.3f %5.1f%% %28s %9.1f %7.2f %6s %8s %9.2e %8.1f "
            "%8.1f %6u %10s %9.3f\n",
            backend, r->kernel, r->def.size, r->def.iterations, r->def.substeps,
            (unsigned long long)r->constraints, r->colors, r->wall_ms.median,
            100.0 * r->wall_ms.spread, phases, r->projections_per_s * 1e-6, r->effective_gbs, copy,
            speedup, r->residual, (double)r->device_bytes / (1 << 20), r->launches_per_step,
            r->def.cloths ? r->def.cloths : 1, queued, r->profiled_ms);
}

void bench_print_table(FILE *f, const bench_run *run)
{
    const bench_machine *m = &run->machine;
    fprintf(f, "\nmachine: %s, %d cores, load %.2f before, %.2f after\n", m->cpu, m->cores,
            m->load_before[0], m->load_after[0]);
    for (uint32_t i = 0; i < m->device_count; ++i)
        fprintf(f, "opencl#%u: %s (%s; %s; driver %s; %u compute units; %.1f GiB)\n",
                m->devices[i].index, m->devices[i].name, m->devices[i].platform, m->devices[i].type,
                m->devices[i].driver, m->devices[i].compute_units,
                (double)m->devices[i].global_memory / (1 << 30));
    for (int i = 0; i < run->probe_count; ++i) {
        const bench_probe *p = &run->probes[i];
        if (p->ok)
            fprintf(
                f,
                "copy probe opencl#%s: %.2f GB/s median, %.2f GB/s best (2 x %.0f MiB, %d runs)\n",
                p->selector, p->gbs_median, p->gbs_max, (double)p->bytes / (1 << 20),
                p->repetitions);
        else
            fprintf(f, "copy probe opencl#%s: not measured: %s\n", p->selector, p->error);
    }
    fprintf(
        f,
        "\nwall ms: median ms per step over the repetitions, one step per call, profiling off;\n"
        "spread (max - min) / median; queued ms: the same with K steps per\n"
        "drape_world_step_n call (--queue K), shown as ms/K; prof. ms: wall ms per step of\n"
        "the profiled pass (an event per command), which gives the device ms: per-phase\n"
        "time per step (OpenCL events; wall time on the CPU);\n"
        "Mproj/s: constraints x iterations x substeps per wall second; GB/s: the project\n"
        "phase's bytes (%u B per distance projection, %u B per particle per contact pass) per\n"
        "second of project-phase time; %%copy: that as a share of the copy probe;\n"
        "launches: OpenCL commands enqueued per step (kernels, fills, reads); cloths: in the\n"
        "world (many-cloths scene).\n\n",
        BENCH_BYTES_PER_DISTANCE, BENCH_BYTES_PER_CONTACT_PASS);
    bench_print_row(f, NULL, true);
    for (size_t i = 0; i < run->result_count; ++i)
        bench_print_row(f, &run->results[i], false);
    /* many-cloths: each world of all cloths against its one-cloth world stepped that many times */
    for (size_t i = 0; i < run->result_count; ++i) {
        const bench_result *r = &run->results[i];
        if (r->def.cloths <= 1 || r->batch_speedup <= 0.0)
            continue;
        const double one = r->one_cloth_ms;
        fprintf(f,
                "many-cloths %s%s%s (%s), %u cloths of %u x %u: one world %.3f ms per step (%.0f "
                "launches); one world at a time %u x %.3f ms = %.3f ms (%.0f launches): %.2fx\n",
                r->backend, r->def.device ? "#" : "", r->def.device ? r->def.device : "", r->kernel,
                r->def.cloths, r->def.size, r->def.size, r->wall_ms.median, r->launches_per_step,
                r->def.cloths, one, one * r->def.cloths, r->one_cloth_launches * r->def.cloths,
                r->batch_speedup);
    }
}

/* ---- CSV ------------------------------------------------------------------------------------- */

/* A CSV field: quoted, inner quotes doubled. */
static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

bool bench_write_csv(const char *path, const bench_run *run)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "drape-bench: cannot write %s\n", path);
        return false;
    }
    fprintf(f,
            "backend,device_selector,device,size,particles,constraints,colors,iterations,"
            "substeps,status,steps_per_rep,repetitions,ms_per_step,ms_per_step_min,"
            "ms_per_step_max,spread,device_ms_per_step,predict_ms,collide_ms,project_ms,"
            "update_ms,projections_per_step,projections_per_s,project_projections_per_s,"
            "project_bytes_per_step,effective_gbs,copy_gbs,copy_fraction,speedup,residual_m,"
            "simulated_s,device_bytes,setup_ms,load,launches_per_step,cloths,batch_speedup,kernel,"
            "queue,queued_ms_per_step,queued_ms_per_step_min,queued_ms_per_step_max,"
            "queued_projections_per_s,profiled_ms_per_step,profiled_steps\n");
    for (size_t i = 0; i < run->result_count; ++i) {
        const bench_result *r = &run->results[i];
        fprintf(f, "%s,", r->backend);
        csv_text(f, r->def.device ? r->def.device : "");
        fputc(',', f);
        csv_text(f, r->device);
        fprintf(f, ",%u,%llu,%llu,%u,%d,%d,", r->def.size, (unsigned long long)r->particles,
                (unsigned long long)r->constraints, r->colors, r->def.iterations, r->def.substeps);
        csv_text(f, r->status);
        fprintf(f,
                ",%d,%d,%.6g,%.6g,%.6g,%.4g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,"
                "%.6g,%.4g,%.4g,%.6g,%.6g,%llu,%.6g,%.3g,%.6g,%u,%.6g,",
                r->steps_per_rep, r->ok ? r->def.repetitions : 0, r->wall_ms.median, r->wall_ms.min,
                r->wall_ms.max, r->wall_ms.spread, r->device_ms, r->predict_ms, r->collide_ms,
                r->project_ms, r->update_ms, r->projections_per_step, r->projections_per_s,
                r->project_projections_per_s, r->project_bytes_per_step, r->effective_gbs,
                r->copy_gbs, r->copy_fraction, r->speedup, r->residual, r->simulated_s,
                (unsigned long long)r->device_bytes, r->setup_ms, r->load, r->launches_per_step,
                r->def.cloths ? r->def.cloths : 1, r->batch_speedup);
        csv_text(f, r->kernel);
        fprintf(f, ",%u,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n", r->def.queue > 1 ? r->def.queue : 1,
                r->queued_ms.median, r->queued_ms.min, r->queued_ms.max,
                r->queued_projections_per_s, r->profiled_ms, r->profiled_steps);
    }
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "drape-bench: error writing %s\n", path);
    return ok;
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void json_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A number, or null when it is not finite or (with `positive`) not above zero. */
static void json_number(FILE *f, double v, bool positive)
{
    if (!isfinite(v) || (positive && v <= 0.0))
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

static void json_key(FILE *f, const char *indent, const char *key)
{
    fprintf(f, ",\n%s", indent);
    json_text(f, key);
    fputs(": ", f);
}

static void json_case(FILE *f, const bench_result *r)
{
    const char *in = "      ";
    fprintf(f, "    {\n%s\"backend\": ", in);
    json_text(f, r->backend);
    json_key(f, in, "device_selector");
    if (r->def.device)
        json_text(f, r->def.device);
    else
        fputs("null", f);
    json_key(f, in, "device");
    json_text(f, r->device);
    json_key(f, in, "status");
    json_text(f, r->status);
    json_key(f, in, "ok");
    fputs(r->ok ? "true" : "false", f);
    json_key(f, in, "size");
    fprintf(f, "%u", r->def.size);
    json_key(f, in, "particles");
    fprintf(f, "%llu", (unsigned long long)r->particles);
    json_key(f, in, "constraints");
    fprintf(f, "%llu", (unsigned long long)r->constraints);
    json_key(f, in, "colors");
    fprintf(f, "%u", r->colors);
    json_key(f, in, "kernel");
    json_text(f, r->kernel);
    json_key(f, in, "cloths");
    fprintf(f, "%u", r->def.cloths ? r->def.cloths : 1);
    json_key(f, in, "iterations");
    fprintf(f, "%d", r->def.iterations);
    json_key(f, in, "substeps");
    fprintf(f, "%d", r->def.substeps);
    json_key(f, in, "steps_per_rep");
    fprintf(f, "%d", r->steps_per_rep);
    json_key(f, in, "repetitions");
    fprintf(f, "%d", r->ok ? r->def.repetitions : 0);
    const struct {
        const char *key;
        double value;
        bool positive;
    } numbers[] = {
        {"ms_per_step", r->wall_ms.median, true},
        {"ms_per_step_min", r->wall_ms.min, true},
        {"ms_per_step_max", r->wall_ms.max, true},
        {"spread", r->wall_ms.spread, false},
        {"device_ms_per_step", r->device_ms, true},
        {"predict_ms", r->predict_ms, false},
        {"collide_ms", r->collide_ms, false},
        {"project_ms", r->project_ms, false},
        {"update_ms", r->update_ms, false},
        {"projections_per_step", r->projections_per_step, true},
        {"projections_per_s", r->projections_per_s, true},
        {"project_projections_per_s", r->project_projections_per_s, true},
        {"project_bytes_per_step", r->project_bytes_per_step, true},
        {"effective_gbs", r->effective_gbs, true},
        {"copy_gbs", r->copy_gbs, true},
        {"copy_fraction", r->copy_fraction, true},
        {"speedup", r->speedup, true},
        {"residual_m", r->residual, false},
        {"simulated_s", r->simulated_s, false},
        {"setup_ms", r->setup_ms, false},
        {"load_average", r->load, false},
        {"launches_per_step", r->launches_per_step, false},
        {"batch_speedup", r->batch_speedup, true},
        {"queued_ms_per_step", r->queued_ms.median, true},
        {"queued_ms_per_step_min", r->queued_ms.min, true},
        {"queued_ms_per_step_max", r->queued_ms.max, true},
        {"queued_projections_per_s", r->queued_projections_per_s, true},
        {"profiled_ms_per_step", r->profiled_ms, true},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; ++i) {
        json_key(f, in, numbers[i].key);
        json_number(f, r->ok || !numbers[i].positive ? numbers[i].value : 0.0, numbers[i].positive);
    }
    json_key(f, in, "device_bytes");
    fprintf(f, "%llu", (unsigned long long)r->device_bytes);
    json_key(f, in, "queue");
    fprintf(f, "%u", r->def.queue > 1 ? r->def.queue : 1);
    json_key(f, in, "profiled_steps");
    fprintf(f, "%d", r->profiled_steps);
    fputs("\n    }", f);
}

static void json_load(FILE *f, const double load[3])
{
    fputc('[', f);
    for (int i = 0; i < 3; ++i) {
        if (i)
            fputs(", ", f);
        json_number(f, load[i], false);
    }
    fputc(']', f);
}

static void json_machine(FILE *f, const bench_machine *m)
{
    const char *in = "    ";
    fprintf(f, "  \"machine\": {\n%s\"cpu\": ", in);
    json_text(f, m->cpu);
    json_key(f, in, "cores");
    fprintf(f, "%d", m->cores);
    json_key(f, in, "memory_bytes");
    fprintf(f, "%llu", (unsigned long long)m->memory);
    json_key(f, in, "started_utc");
    json_text(f, m->started);
    json_key(f, in, "load_before");
    json_load(f, m->load_before);
    json_key(f, in, "load_after");
    json_load(f, m->load_after);
    json_key(f, in, "opencl_devices");
    fputc('[', f);
    for (uint32_t i = 0; i < m->device_count; ++i) {
        const drape_device_info *d = &m->devices[i];
        fprintf(f, "%s\n      {\"index\": %u, \"name\": ", i ? "," : "", d->index);
        json_text(f, d->name);
        fputs(", \"platform\": ", f);
        json_text(f, d->platform);
        fputs(", \"type\": ", f);
        json_text(f, d->type);
        fputs(", \"driver\": ", f);
        json_text(f, d->driver);
        fprintf(f, ", \"global_memory\": %llu, \"compute_units\": %u}",
                (unsigned long long)d->global_memory, d->compute_units);
    }
    fputs(m->device_count ? "\n    ]\n  }" : "]\n  }", f);
}

static void json_probes(FILE *f, const bench_run *run)
{
    fputs("  \"copy_probes\": [", f);
    for (int i = 0; i < run->probe_count; ++i) {
        const bench_probe *p = &run->probes[i];
        fprintf(f, "%s\n    {\"device_selector\": ", i ? "," : "");
        json_text(f, p->selector);
        fputs(", \"device\": ", f);
        json_text(f, p->device);
        fprintf(f,
                ", \"ok\": %s, \"bytes_per_buffer\": %llu, \"repetitions\": %d, \"gbs_median\": ",
                p->ok ? "true" : "false", (unsigned long long)p->bytes, p->repetitions);
        json_number(f, p->gbs_median, true);
        fputs(", \"gbs_max\": ", f);
        json_number(f, p->gbs_max, true);
        fputs(", \"error\": ", f);
        json_text(f, p->error);
        fputc('}', f);
    }
    fputs(run->probe_count ? "\n  ]" : "]", f);
}

bool bench_write_json(const char *path, const bench_run *run)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "drape-bench: cannot write %s\n", path);
        return false;
    }
    const bench_options *o = run->options;
    fprintf(f,
            "{\n  \"tool\": \"drape-bench\",\n  \"scene\": \"%s\",\n"
            "  \"model\": {\"bytes_per_distance_projection\": %u, "
            "\"bytes_per_particle_contact_pass\": %u},\n"
            "  \"settings\": {\"quick\": %s, \"target_ms\": %.6g, \"warmup_ms\": %.6g, "
            "\"repetitions\": %d, \"probe_mib\": %u, \"queue\": %u},\n",
            o->cloths ? "many cloths over a plane" : "cloth on a sphere", BENCH_BYTES_PER_DISTANCE,
            BENCH_BYTES_PER_CONTACT_PASS, o->quick ? "true" : "false", o->target_ms, o->warmup_ms,
            o->repetitions, o->probe_mib, o->queue);
    json_machine(f, &run->machine);
    fputs(",\n", f);
    json_probes(f, run);
    fputs(",\n  \"cases\": [", f);
    for (size_t i = 0; i < run->result_count; ++i) {
        fputs(i ? ",\n" : "\n", f);
        json_case(f, &run->results[i]);
    }
    fputs(run->result_count ? "\n  ]\n}\n" : "]\n}\n", f);
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "drape-bench: error writing %s\n", path);
    return ok;
}
