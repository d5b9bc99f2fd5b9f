/* libFuzzer target past parsing: a fuzzed scene is built into a world and run through the command
 * line's own run loop (cli_run_scene) for a few steps on the CPU backend, exporting an OBJ frame
 * every step and dumping the final state into a temporary folder, with the JSON or the text
 * summary (by the input's length). So the builders, the step, the run loop, the summaries and the
 * writers see what the parser lets through.
 *
 * Each input's cost is bounded before it runs: the scene is first loaded through the library with a
 * particle budget and mesh files turned off, and it runs only if its particles and constraints
 * times substeps times iterations times steps stay under a work budget. Any exit code is fine
 * (bad input, a diverged state refused, ...); a crash, a hang, a leak or a sanitizer report is not.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */
#include "cli.h"

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    FUZZ_STEPS = 3,
    FUZZ_MAX_PARTICLES = 1024,
};
#define FUZZ_MAX_WORK 2e6 /* (particles + constraints) * substeps * iterations * steps */

static char folder[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_folder(void)
{
    if (folder[0])
        nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The temporary folder of this process, made on the first input. */
static const char *scratch(void)
{
    if (!folder[0]) {
        snprintf(folder, sizeof folder, "/tmp/drape-fuzz-run-XXXXXX");
        if (!mkdtemp(folder))
            abort();
        atexit(remove_folder);
        if (!freopen("/dev/null", "w", stdout)) /* the run's report lines */
            abort();
    }
    return folder;
}

/* Whether the scene may run: it loads within the budgets and its work is bounded. */
static bool affordable(const uint8_t *data, size_t size)
{
    drape_scene_options o = drape_scene_default_options();
    o.override_backend = true;
    o.backend = DRAPE_BACKEND_CPU;
    o.log = NULL;
    o.max_particles = FUZZ_MAX_PARTICLES;
    o.no_files = true;
    drape_scene *s = NULL;
    if (drape_scene_load_buffer((const char *)data, size, "fuzz.json", &o, &s, NULL) !=
        DRAPE_SCENE_OK)
        return false;
    drape_world *w = drape_scene_world(s);
    const drape_world_def def = drape_world_get_def(w);
    double items = drape_world_particle_count(w);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        items += drape_world_constraint_count(w, (drape_constraint_type)t);
    drape_scene_destroy(s);
    return (items + 1.0) * def.substeps * def.iterations * FUZZ_STEPS <= FUZZ_MAX_WORK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!affordable(data, size))
        return 0;
    const char *dir = scratch();
    char scene[128], frames[128], dump[128];
    snprintf(scene, sizeof scene, "%s/scene.json", dir);
    snprintf(frames, sizeof frames, "%s/frames", dir);
    snprintf(dump, sizeof dump, "%s/final.csv", dir);
    FILE *f = fopen(scene, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    cli_run_config c = cli_default_run_config();
    c.steps = FUZZ_STEPS;
    c.has_backend = true;
    c.backend = DRAPE_BACKEND_CPU;
    c.export_dir = frames;
    c.dump = dump;
    c.json = size % 2 == 1;
    int rc = cli_run_scene(scene, &c);
    if (rc != CLI_OK && rc != CLI_RUNTIME && rc != CLI_BAD_INPUT && rc != CLI_OUTPUT)
        abort();
    return 0;
}
