/* Command-line parsing for drape-bench (bench_options.h). Lists are comma-separated ("64,256"),
 * each option takes its value as the next argument or after '=' ("--sizes=64,256"). --quick sets
 * a small sweep first; options after it still override it. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "bench_options.h"

#include <drape/drape.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_print_help(const char *program)
{
    printf(
        "usage: %s [options]\n"
        "\n"
        "Times drape's step on a cloth dropped on a sphere (structural, shear and skip-one\n"
        "bending constraints), on the CPU reference (one thread) and on OpenCL devices, and\n"
        "reports ms per step, constraint projections per second, effective bandwidth against a\n"
        "copy-bandwidth probe, and the speed-up over the CPU reference of the same run.\n"
        "\n"
        "  --sizes LIST        cloth sizes n (n x n particles); default 64,128,256,512,1024\n"
        "  --backends LIST     cpu, opencl or both; default cpu,opencl\n"
        "  --device SEL        OpenCL device: an index or part of its name (\"pocl\", \"h200\");\n"
        "                      repeat or give a list for several; default every device\n"
        "  --iterations LIST   constraint iterations per substep; default 5,10\n"
        "  --substeps LIST     substeps per step; default 1,4\n"
        "  --target-ms MS      wall time of one timed repetition; default 500\n"
        "  --repetitions N     timed repetitions per case; default 5\n"
        "  --warmup-ms MS      untimed stepping before calibration; default 200\n"
        "  --probe-mib MIB     buffer size of the copy-bandwidth probe; 0 skips it; default 256\n"
        "  --quick             a small sweep for the test suite (well under 60 s): sizes 32,64,\n"
        "                      5 iterations, 1 substep, 3 short repetitions, 16 MiB probe\n"
        "  --scene NAME        cloth (default): one cloth dropped on a sphere; many-cloths:\n"
        "                      --count cloths side by side over a ground plane in one world,\n"
        "                      against one world of one cloth stepped --count times (sizes\n"
        "                      default to 32, iterations to 5, substeps to 1)\n"
        "  --count N           cloths of the many-cloths scene; default 1000\n"
        "  --kernels LIST      OpenCL projection kernels, each a case: auto, per-constraint,\n"
        "                      lanes16, fused (docs/opencl-variants.md); default auto\n"
        "  --json FILE         write one record per case (and the probes) as JSON\n"
        "  --csv FILE          write one row per case as CSV\n"
        "  --help              this text\n"
        "  --version           the version of drape\n"
        "\n"
        "Sizes whose estimated memory exceeds what the device (or host) has are skipped and\n"
        "reported as such. Environment: DRAPE_DEVICE is not used here; name devices with "
        "--device.\n",
        program);
}

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

int bench_parse_options(int argc, char **argv, bench_options *o)
{
    set_defaults(o);
    const char *program = argc > 0 ? argv[0] : "drape-bench";
    bool many = false, count_given = false;
    uint32_t count_value = 1000;
    for (int i = 1; i < argc; ++i) {
        char *arg = argv[i], *value = NULL;
        char name[32];
        size_t len = strcspn(arg, "=");
        if (len >= sizeof name) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", program, arg);
            return 2;
        }
        memcpy(name, arg, len);
        name[len] = '\0';
        if (arg[len] == '=')
            value = arg + len + 1;
        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            bench_print_help(program);
            return 1;
        }
        if (strcmp(name, "--version") == 0) {
            printf("drape-bench %s\n", DRAPE_VERSION_STRING);
            return 1;
        }
        if (strcmp(name, "--quick") == 0) {
            set_quick(o);
            continue;
        }
        static const char *const with_value[] = {
            "--sizes",    "--backends",  "--device",      "--devices",   "--iterations",
            "--substeps", "--target-ms", "--repetitions", "--warmup-ms", "--probe-mib",
            "--json",     "--csv",       "--scene",       "--count",     "--kernels"};
        bool known = false;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
            known = known || strcmp(name, with_value[k]) == 0;
        if (!known) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", program, arg);
            return 2;
        }
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: %s needs a value\n", program, name);
                return 2;
            }
            value = argv[++i];
        }
        long list[BENCH_MAX_LIST], v = 0;
        int count = 0;
        bool ok = true;
        if (strcmp(name, "--sizes") == 0) {
            ok = parse_int_list(value, 2, 65536, list, &count);
            for (int k = 0; ok && k < count; ++k)
                o->sizes[k] = (uint32_t)list[k];
            if (ok)
                o->size_count = count;
            o->sizes_set = true;
        } else if (strcmp(name, "--iterations") == 0 || strcmp(name, "--substeps") == 0) {
            bool it = name[2] == 'i';
            ok = parse_int_list(value, 1, 1000, list, &count);
            for (int k = 0; ok && k < count; ++k)
                (it ? o->iterations : o->substeps)[k] = (int)list[k];
            if (ok)
                *(it ? &o->iteration_count : &o->substep_count) = count;
            *(it ? &o->iterations_set : &o->substeps_set) = true;
        } else if (strcmp(name, "--backends") == 0) {
            o->cpu = o->opencl = false;
            char buf[64];
            ok = strlen(value) < sizeof buf;
            if (ok)
                strcpy(buf, value);
            for (char *save = NULL, *tok = ok ? strtok_r(buf, ",", &save) : NULL; ok && tok;
                 tok = strtok_r(NULL, ",", &save)) {
                if (strcmp(tok, "cpu") == 0)
                    o->cpu = true;
                else if (strcmp(tok, "opencl") == 0)
                    o->opencl = true;
                else
                    ok = false;
            }
            ok = ok && (o->cpu || o->opencl);
        } else if (strcmp(name, "--device") == 0 || strcmp(name, "--devices") == 0) {
            ok = add_devices(o, value);
        } else if (strcmp(name, "--target-ms") == 0 || strcmp(name, "--warmup-ms") == 0) {
            ok = parse_int(value, 0, 3600000, &v);
            *(name[2] == 't' ? &o->target_ms : &o->warmup_ms) = (double)v;
        } else if (strcmp(name, "--repetitions") == 0) {
            ok = parse_int(value, 1, 1000, &v);
            o->repetitions = (int)v;
        } else if (strcmp(name, "--probe-mib") == 0) {
            ok = parse_int(value, 0, 65536, &v);
            o->probe_mib = (uint32_t)v;
        } else if (strcmp(name, "--kernels") == 0) {
            ok = parse_kernels(value, o);
        } else if (strcmp(name, "--scene") == 0) {
            many = strcmp(value, "many-cloths") == 0;
            ok = many || strcmp(value, "cloth") == 0;
        } else if (strcmp(name, "--count") == 0) {
            ok = parse_int(value, 1, 1000000, &v);
            count_value = (uint32_t)v;
            count_given = true;
        } else if (strcmp(name, "--json") == 0) {
            o->json_path = value;
        } else {
            o->csv_path = value;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad value '%s' for %s (try --help)\n", program, value, name);
            return 2;
        }
    }
    if (many) { /* the data-generation case: small garments, one solver setting */
        o->cloths = count_value;
        if (!o->sizes_set)
            o->size_count = 1, o->sizes[0] = 32;
        if (!o->iterations_set)
            o->iteration_count = 1, o->iterations[0] = 5;
        if (!o->substeps_set)
            o->substep_count = 1, o->substeps[0] = 1;
    } else if (count_given) {
        fprintf(stderr, "%s: --count needs --scene many-cloths\n", program);
        return 2;
    }
    return 0;
}
