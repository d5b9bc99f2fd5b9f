/* Command-line parsing for drape-bench (bench_options.h), on the shared parser
 * (cmdline/cmdline.h). Lists are comma-separated ("64,256"), each option takes its value as the
 * next argument or after '=' ("--sizes=64,256"). The options apply in the order given: --quick
 * sets a small sweep, and options after it still override it. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "bench_options.h"

#include "cmdline.h"

#include <drape/drape.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char head[] =
    "usage: %s [options]\n"
    "\n"
    "Times drape's step on a cloth dropped on a sphere (structural, shear and skip-one\n"
    "bending constraints), on the CPU reference (one thread) and on OpenCL devices, and\n"
    "reports ms per step, constraint projections per second, effective bandwidth against a\n"
    "copy-bandwidth probe, and the speed-up over the CPU reference of the same run.\n"
    "\n";
static const char foot[] =
    "\n"
    "Sizes whose estimated memory exceeds what the device (or host) has are skipped and\n"
    "reported as such. Environment: DRAPE_DEVICE is not used here; name devices with "
    "--device.\n";

static bool parse_int(const char *text, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Parses "a,b,c" into integers within [lo, hi]. */
static bool parse_int_list(const char *text, long lo, long hi, long *out, int *count)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return false;
    strcpy(buf, text);
    *count = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (*count == BENCH_MAX_LIST || !parse_int(tok, lo, hi, &out[*count]))
            return false;
        ++*count;
    }
    return *count > 0;
}

static void set_quick(bench_options *o)
{
    o->quick = true;
    o->size_count = 2;
    o->sizes[0] = 32, o->sizes[1] = 64;
    o->iteration_count = 1;
    o->iterations[0] = 5;
    o->substep_count = 1;
    o->substeps[0] = 1;
    o->target_ms = 25.0;
    o->repetitions = 3;
    o->warmup_ms = 10.0;
    o->probe_mib = 16;
    o->queue = 4;
}

static void set_defaults(bench_options *o)
{
    memset(o, 0, sizeof *o);
    static const uint32_t sizes[] = {64, 128, 256, 512, 1024};
    o->size_count = 5;
    memcpy(o->sizes, sizes, sizeof sizes);
    o->iteration_count = 2;
    o->iterations[0] = 5, o->iterations[1] = 10;
    o->substep_count = 2;
    o->substeps[0] = 1, o->substeps[1] = 4;
    o->cpu = o->opencl = true;
    o->target_ms = 500.0;
    o->repetitions = 5;
    o->warmup_ms = 200.0;
    o->probe_mib = 256;
    o->kernel_count = 1;
    o->kernels[0] = DRAPE_DISTANCE_KERNEL_AUTO;
    o->queue = 1;
}

/* Parses "lanes16,fused" into kernel variants by their drape_distance_kernel_name. */
static bool parse_kernels(const char *text, bench_options *o)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return false;
    strcpy(buf, text);
    o->kernel_count = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < DRAPE_DISTANCE_KERNEL_COUNT &&
               strcmp(tok, drape_distance_kernel_name((drape_distance_kernel)k)) != 0)
            ++k;
        if (k == DRAPE_DISTANCE_KERNEL_COUNT || o->kernel_count == BENCH_MAX_LIST)
            return false;
        o->kernels[o->kernel_count++] = (drape_distance_kernel)k;
    }
    return o->kernel_count > 0;
}

/* --devices keeps pointers into argv, which outlives the options. */
static bool add_devices(bench_options *o, char *list)
{
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (o->device_count == BENCH_MAX_LIST)
            return false;
        o->devices[o->device_count++] = tok;
    }
    return true;
}

/* ---- the options, each applied in the order given (--quick first, then what overrides it) ---- */

/* A whole-number option: its range and where it goes (one of the three). */
typedef struct number_option {
    long lo, hi;
    double *as_double;
    int *as_int;
    uint32_t *as_u32;
} number_option;

typedef struct parse_state {
    bench_options *o;
    bool many, version;
    uint32_t count; /* --count; 0: not given */
    number_option target_ms, repetitions, warmup_ms, probe_mib, cloths, queue;
} parse_state;

static bool apply_sizes(const char *value, void *user)
{
    bench_options *o = ((parse_state *)user)->o;
    long list[BENCH_MAX_LIST];
    int count = 0;
    if (!parse_int_list(value, 2, 65536, list, &count))
        return false;
    for (int k = 0; k < count; ++k)
        o->sizes[k] = (uint32_t)list[k];
    o->size_count = count;
    o->sizes_set = true;
    return true;
}

static bool apply_ints(const char *value, int *to, int *count_to, bool *set)
{
    long list[BENCH_MAX_LIST];
    int count = 0;
    if (!parse_int_list(value, 1, 1000, list, &count))
        return false;
    for (int k = 0; k < count; ++k)
        to[k] = (int)list[k];
    *count_to = count;
    *set = true;
    return true;
}

static bool apply_iterations(const char *value, void *user)
{
    bench_options *o = ((parse_state *)user)->o;
    return apply_ints(value, o->iterations, &o->iteration_count, &o->iterations_set);
}

static bool apply_substeps(const char *value, void *user)
{
    bench_options *o = ((parse_state *)user)->o;
    return apply_ints(value, o->substeps, &o->substep_count, &o->substeps_set);
}

static bool apply_backends(const char *value, void *user)
{
    bench_options *o = ((parse_state *)user)->o;
    o->cpu = o->opencl = false;
    char buf[64];
    if (strlen(value) >= sizeof buf)
        return false;
    strcpy(buf, value);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "cpu") == 0)
            o->cpu = true;
        else if (strcmp(tok, "opencl") == 0)
            o->opencl = true;
        else
            return false;
    }
    return o->cpu || o->opencl;
}

static bool apply_devices(const char *value, void *user)
{
    /* the selectors point into argv, which outlives the options */
    return add_devices(((parse_state *)user)->o, (char *)value);
}

static bool apply_number(const char *value, void *user)
{
    const number_option *n = user;
    long v = 0;
    if (!parse_int(value, n->lo, n->hi, &v))
        return false;
    if (n->as_double)
        *n->as_double = (double)v;
    if (n->as_int)
        *n->as_int = (int)v;
    if (n->as_u32)
        *n->as_u32 = (uint32_t)v;
    return true;
}

static bool apply_kernels(const char *value, void *user)
{
    return parse_kernels(value, ((parse_state *)user)->o);
}

static bool apply_scene(const char *value, void *user)
{
    parse_state *p = user;
    p->many = strcmp(value, "many-cloths") == 0;
    return p->many || strcmp(value, "cloth") == 0;
}

static bool apply_quick(const char *value, void *user)
{
    (void)value;
    set_quick(((parse_state *)user)->o);
    return true;
}

enum { OPTION_COUNT = 18 };

static void table(parse_state *p, cmdline_option t[OPTION_COUNT])
{
    bench_options *o = p->o;
    p->target_ms = (number_option){0, 3600000, .as_double = &o->target_ms};
    p->repetitions = (number_option){1, 1000, .as_int = &o->repetitions};
    p->warmup_ms = (number_option){0, 3600000, .as_double = &o->warmup_ms};
    p->probe_mib = (number_option){0, 65536, .as_u32 = &o->probe_mib};
    p->cloths = (number_option){1, 1000000, .as_u32 = &p->count};
    p->queue = (number_option){1, 100000, .as_u32 = &o->queue};
    const cmdline_option options[OPTION_COUNT] = {
        CMDLINE_APPLY("--sizes", "LIST",
                      "cloth sizes n (n x n particles); default 64,128,256,512,1024", apply_sizes,
                      p),
        CMDLINE_APPLY("--backends", "LIST", "cpu, opencl or both; default cpu,opencl",
                      apply_backends, p),
        CMDLINE_APPLY("--device", "SEL",
                      "OpenCL device: an index or part of its name (\"pocl\", \"h200\");\n"
                      "repeat or give a list for several; default every device",
                      apply_devices, p),
        CMDLINE_APPLY("--devices", "LIST", "the same as --device", apply_devices, p),
        CMDLINE_APPLY("--iterations", "LIST", "constraint iterations per substep; default 5,10",
                      apply_iterations, p),
        CMDLINE_APPLY("--substeps", "LIST", "substeps per step; default 1,4", apply_substeps, p),
        CMDLINE_APPLY("--target-ms", "MS", "wall time of one timed repetition; default 500",
                      apply_number, &p->target_ms),
        CMDLINE_APPLY("--repetitions", "N", "timed repetitions per case; default 5", apply_number,
                      &p->repetitions),
        CMDLINE_APPLY("--warmup-ms", "MS", "untimed stepping before calibration; default 200",
                      apply_number, &p->warmup_ms),
        CMDLINE_APPLY("--probe-mib", "MIB",
                      "buffer size of the copy-bandwidth probe; 0 skips it; default 256",
                      apply_number, &p->probe_mib),
        CMDLINE_APPLY("--quick", NULL,
                      "a small sweep for the test suite (well under 60 s): sizes 32,64,\n"
                      "5 iterations, 1 substep, 3 short repetitions, 16 MiB probe,\n"
                      "queue 4",
                      apply_quick, p),
        CMDLINE_APPLY("--scene", "NAME",
                      "cloth (default): one cloth dropped on a sphere; many-cloths:\n"
                      "--count cloths side by side over a ground plane in one world,\n"
                      "against one world of one cloth stepped --count times (sizes\n"
                      "default to 32, iterations to 5, substeps to 1); balls: balls\n"
                      "poured into a box, the contacts between particles, with its own\n"
                      "options (drape-bench --scene balls --help; drape-bench-particles)",
                      apply_scene, p),
        CMDLINE_APPLY("--count", "N", "cloths of the many-cloths scene; default 1000", apply_number,
                      &p->cloths),
        CMDLINE_APPLY("--kernels", "LIST",
                      "OpenCL projection kernels, each a case: auto, per-constraint,\n"
                      "lanes16, fused, fused-local (docs/opencl-variants.md); default\n"
                      "auto",
                      apply_kernels, p),
        CMDLINE_APPLY("--queue", "K",
                      "also time K steps per drape_world_step_n call (queued back to\n"
                      "back, one host wait per call): the pipelined rate beside the\n"
                      "one-step rate; default 1 (not run)",
                      apply_number, &p->queue),
        CMDLINE_VALUE("--json", "FILE", "write one record per case (and the probes) as JSON",
                      &o->json_path),
        CMDLINE_VALUE("--csv", "FILE", "write one row per case as CSV", &o->csv_path),
        CMDLINE_FLAG("--version", "the version of drape", &p->version),
    };
    memcpy(t, options, sizeof options);
}

void bench_print_help(const char *program)
{
    bench_options o;
    parse_state p = {.o = &o};
    cmdline_option t[OPTION_COUNT];
    table(&p, t);
    printf(head, program);
    cmdline_print_options(stdout, t, OPTION_COUNT);
    fputs(foot, stdout);
}

int bench_parse_options(int argc, char **argv, bench_options *o)
{
    set_defaults(o);
    const char *program = argc > 0 ? argv[0] : "drape-bench";
    parse_state p = {.o = o};
    cmdline_option t[OPTION_COUNT];
    table(&p, t);
    cmdline c = {.program = program, .options = t, .count = OPTION_COUNT};
    if (cmdline_parse(&c, argc, argv) != CMDLINE_OK)
        return 2;
    if (c.help) {
        bench_print_help(program);
        return 1;
    }
    if (p.version) {
        printf("drape-bench %s\n", DRAPE_VERSION_STRING);
        return 1;
    }
    if (p.many) { /* the data-generation case: small garments, one solver setting */
        o->cloths = p.count ? p.count : 1000;
        if (!o->sizes_set)
            o->size_count = 1, o->sizes[0] = 32;
        if (!o->iterations_set)
            o->iteration_count = 1, o->iterations[0] = 5;
        if (!o->substeps_set)
            o->substep_count = 1, o->substeps[0] = 1;
    } else if (p.count) {
        fprintf(stderr, "%s: --count needs --scene many-cloths\n", program);
        return 2;
    }
    return 0;
}
