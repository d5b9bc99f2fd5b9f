/* `drape info SCENE|FILE`: what a scene holds, without running it: particles, constraints by type
 * and distances by kind, each type's colouring against its lower bound (the most constraints on one
 * movable particle), the shape-matched clusters, the balloons and the air, the contacts between
 * particles (how many have a radius, the radii, the grid), colliders, and memory. The world is
 * built on the CPU unless --backend asks otherwise. With no scene, it lists the built-in scenes.
 */
#include "cli.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char head[] =
    "usage: drape info [SCENE|FILE] [--backend cpu|opencl|auto] [--device D] [--json]\n"
    "                  [--allow-outside-paths]\n"
    "\n"
    "Describes a built-in scene or a scene file: particles, constraints by kind, the\n"
    "colours of each constraint type and the colouring's lower bound, the shape-matched\n"
    "clusters, balloons and aerodynamic triangles, the contacts between particles, colliders\n"
    "and memory.\n"
    "With no scene, lists the built-in scenes.\n"
    "\n";
static const char foot[] =
    "\n"
    "Exit codes: 0 success, 1 backend failure, 2 usage error, 3 bad scene or mesh file.\n";

static const char *const type_names[DRAPE_CONSTRAINT_TYPE_COUNT] = {
    "distance", "dihedral", "attachment", "tether", "volume", "neo-hookean"};
static const char *const kind_names[3] = {"stretch", "shear", "bend"};
static const char *const collider_names[3] = {"plane", "sphere", "capsule"};

static int list_builtins(bool json)
{
    if (json) {
        cJSON *a = cJSON_CreateArray();
        for (size_t i = 0; i < drape_scene_builtin_count(); ++i) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", drape_scene_builtin_name(i));
            cJSON_AddStringToObject(o, "summary",
                                    drape_scene_builtin_summary(drape_scene_builtin_name(i)));
            cJSON_AddItemToArray(a, o);
        }
        return cli_print_json(a);
    }
    printf("built-in scenes (the first is the default):\n");
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i)
        printf("  %-16s %s\n", drape_scene_builtin_name(i),
               drape_scene_builtin_summary(drape_scene_builtin_name(i)));
    return CLI_OK;
}

/* The contacts between particles: the grid's plan (drape_world_get_contact_stats) and the radii. */
typedef struct contact_summary {
    drape_contact_stats stats;
    uint32_t with_radius;         /* particles with a radius > 0 */
    float radius_min, radius_max; /* m, over those */
} contact_summary;

static bool summarise_contacts(drape_world *w, contact_summary *out)
{
    memset(out, 0, sizeof *out);
    const uint32_t n = drape_world_particle_count(w);
    float *radii = malloc((size_t)n * sizeof *radii + 1);
    bool ok = radii && drape_world_get_radii(w, 0, n, radii) == DRAPE_OK &&
              drape_world_get_contact_stats(w, &out->stats) == DRAPE_OK;
    for (uint32_t i = 0; ok && i < n; ++i)
        if (radii[i] > 0.0f) {
            out->radius_min = out->with_radius ? fminf(out->radius_min, radii[i]) : radii[i];
            out->radius_max = fmaxf(out->radius_max, radii[i]);
            out->with_radius++;
        }
    if (!radii)
        fprintf(stderr, "drape: no memory for the radii of %u particles\n", n);
    free(radii);
    return ok;
}

/* The shape matches, the balloons (their pressures) and the air (drape_aero_def, the wind). */
typedef struct solids_summary {
    uint32_t shape_matches, balloons, aero_triangles;
    float pressure_min, pressure_max;
    drape_aero_def aero;
    drape_vec3 wind; /* m/s */
} solids_summary;

static solids_summary summarise_solids(const drape_world *w)
{
    solids_summary out = {.shape_matches = drape_world_shape_match_count(w),
                          .balloons = drape_world_balloon_count(w),
                          .aero_triangles = drape_world_aero_triangle_count(w),
                          .aero = drape_world_get_aero(w),
                          .wind = drape_world_get_def(w).wind};
    for (uint32_t b = 0; b < out.balloons; ++b) {
        drape_balloon_info info;
        if (drape_world_get_balloon(w, b, &info) != DRAPE_OK)
            continue;
        out.pressure_min =
            b == 0 || info.pressure < out.pressure_min ? info.pressure : out.pressure_min;
        out.pressure_max =
            b == 0 || info.pressure > out.pressure_max ? info.pressure : out.pressure_max;
    }
    return out;
}

static void print_solids(const solids_summary *b)
{
    printf("shapes       %u shape-matched clusters\n", b->shape_matches);
    printf("balloons     %u", b->balloons);
    if (b->balloons)
        printf(", pressure %.3g..%.3g", (double)b->pressure_min, (double)b->pressure_max);
    printf("\n");
    printf("air          %u triangles with drag %.3g and lift %.3g (density %.3g kg/m^3); wind "
           "(%.3g, %.3g, %.3g) m/s, gusts %.3g m/s\n",
           b->aero_triangles, (double)b->aero.drag, (double)b->aero.lift,
           (double)b->aero.air_density, (double)b->wind.x, (double)b->wind.y, (double)b->wind.z,
           (double)b->aero.turbulence);
}

static void add_solids(cJSON *o, const solids_summary *b)
{
    cJSON_AddNumberToObject(o, "shape_matches", b->shape_matches);
    cJSON *balloons = cJSON_AddObjectToObject(o, "balloons");
    cJSON_AddNumberToObject(balloons, "count", b->balloons);
    cJSON_AddNumberToObject(balloons, "pressure_min", b->pressure_min);
    cJSON_AddNumberToObject(balloons, "pressure_max", b->pressure_max);
    cJSON *air = cJSON_AddObjectToObject(o, "aerodynamics");
    cJSON_AddNumberToObject(air, "triangles", b->aero_triangles);
    cJSON_AddNumberToObject(air, "drag", b->aero.drag);
    cJSON_AddNumberToObject(air, "lift", b->aero.lift);
    cJSON_AddNumberToObject(air, "air_density", b->aero.air_density);
    cJSON_AddNumberToObject(air, "turbulence", b->aero.turbulence);
    cJSON *wind = cJSON_AddArrayToObject(air, "wind");
    cJSON_AddItemToArray(wind, cJSON_CreateNumber(b->wind.x));
    cJSON_AddItemToArray(wind, cJSON_CreateNumber(b->wind.y));
    cJSON_AddItemToArray(wind, cJSON_CreateNumber(b->wind.z));
}

static void print_text(const drape_scene *s, const drape_scene_info *in, const contact_summary *c)
{
    drape_world *w = drape_scene_world(s);
    drape_world_def def = drape_world_get_def(w);
    printf("scene        %s\n", drape_scene_name(s));
    printf("backend      %s\n", drape_world_device(w));
    printf("solver       dt %.6g s, %d substeps, %d iterations, %s\n", (double)def.dt, def.substeps,
           def.iterations, def.mode == DRAPE_MODE_PBD ? "pbd" : "mass-spring");
    printf("particles    %u (%u pinned)\n", in->particles, in->pinned);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const drape_coloring_stats *c = &in->coloring[t];
        printf("%-12s %u", t == 0 ? "constraints" : "", in->constraints[t]);
        printf(" %s", type_names[t]);
        if (t == DRAPE_CONSTRAINT_DISTANCE)
            printf(" (%u stretch, %u shear, %u bend)", in->distances_by_kind[0],
                   in->distances_by_kind[1], in->distances_by_kind[2]);
        if (c->constraints)
            printf(": %u colours, lower bound %u, %u..%u per colour", c->colors, c->lower_bound,
                   c->smallest, c->largest);
        printf("\n");
    }
    const solids_summary solids = summarise_solids(w);
    print_solids(&solids);
    if (c->stats.enabled)
        printf("contacts     %u particles with a radius of %.3g..%.3g m; grid cell %.3g m, %u "
               "buckets\n",
               c->with_radius, (double)c->radius_min, (double)c->radius_max,
               (double)c->stats.cell_size, c->stats.buckets);
    else
        printf("contacts     none between particles (%u with a radius)\n", c->with_radius);
    printf("colliders    %u plane, %u sphere, %u capsule (%u moving)\n", in->colliders_by_type[0],
           in->colliders_by_type[1], in->colliders_by_type[2], in->moving_colliders);
    printf("targets      %u scripted\n", in->scripted_targets);
    printf("triangles    %u (exported)\n", in->triangles);
    printf("memory       %.2f MiB host", (double)in->host_bytes / 1048576.0);
    if (drape_world_backend(w) == DRAPE_BACKEND_OPENCL)
        printf(", %.2f MiB in device buffers now", (double)in->device_bytes / 1048576.0);
    printf("\n");
    printf("steps        %u by default\n", drape_scene_default_steps(s));
}

static int print_json(const drape_scene *s, const drape_scene_info *in, const contact_summary *c)
{
    drape_world *w = drape_scene_world(s);
    drape_world_def def = drape_world_get_def(w);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scene", drape_scene_name(s));
    cJSON_AddStringToObject(o, "device", drape_world_device(w));
    cJSON_AddNumberToObject(o, "dt", def.dt);
    cJSON_AddNumberToObject(o, "substeps", def.substeps);
    cJSON_AddNumberToObject(o, "iterations", def.iterations);
    cJSON_AddNumberToObject(o, "default_steps", drape_scene_default_steps(s));
    cJSON_AddNumberToObject(o, "particles", in->particles);
    cJSON_AddNumberToObject(o, "pinned", in->pinned);
    cJSON *cons = cJSON_AddObjectToObject(o, "constraints");
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const drape_coloring_stats *c = &in->coloring[t];
        cJSON *ct = cJSON_AddObjectToObject(cons, type_names[t]);
        cJSON_AddNumberToObject(ct, "count", in->constraints[t]);
        if (t == DRAPE_CONSTRAINT_DISTANCE) {
            cJSON *k = cJSON_AddObjectToObject(ct, "by_kind");
            for (int i = 0; i < 3; ++i)
                cJSON_AddNumberToObject(k, kind_names[i], in->distances_by_kind[i]);
        }
        cJSON_AddNumberToObject(ct, "colors", c->colors);
        cJSON_AddNumberToObject(ct, "lower_bound", c->lower_bound);
        cJSON_AddNumberToObject(ct, "smallest_color", c->smallest);
        cJSON_AddNumberToObject(ct, "largest_color", c->largest);
    }
    const solids_summary solids = summarise_solids(w);
    add_solids(o, &solids);
    cJSON *pc = cJSON_AddObjectToObject(o, "particle_contacts");
    cJSON_AddBoolToObject(pc, "enabled", c->stats.enabled);
    cJSON_AddNumberToObject(pc, "with_radius", c->with_radius);
    cJSON_AddNumberToObject(pc, "radius_min", c->radius_min);
    cJSON_AddNumberToObject(pc, "radius_max", c->radius_max);
    cJSON_AddNumberToObject(pc, "cell_size", c->stats.cell_size);
    cJSON_AddNumberToObject(pc, "buckets", c->stats.buckets);
    cJSON *col = cJSON_AddObjectToObject(o, "colliders");
    for (int i = 0; i < 3; ++i)
        cJSON_AddNumberToObject(col, collider_names[i], in->colliders_by_type[i]);
    cJSON_AddNumberToObject(col, "moving", in->moving_colliders);
    cJSON_AddNumberToObject(o, "scripted_targets", in->scripted_targets);
    cJSON_AddNumberToObject(o, "triangles", in->triangles);
    cJSON *mem = cJSON_AddObjectToObject(o, "memory");
    cJSON_AddNumberToObject(mem, "host_bytes", (double)in->host_bytes);
    cJSON_AddNumberToObject(mem, "device_bytes", (double)in->device_bytes);
    return cli_print_json(o);
}

int cli_cmd_info(int argc, char **argv)
{
    const char *backend = NULL, *device = NULL, *scene = NULL;
    bool json = false, outside = false;
    const cmdline_option options[] = {
        CMDLINE_VALUE("--backend", "B", "build the world on this backend (default cpu)", &backend),
        CMDLINE_VALUE("--device", "D", "OpenCL device: an index or part of its name", &device),
        CMDLINE_FLAG("--json", "print JSON instead of text", &json),
        CMDLINE_FLAG("--allow-outside-paths",
                     "let the scene read mesh files by absolute paths or outside\n"
                     "its own directory (refused by default)",
                     &outside),
    };
    const cli_command command = {"info", head, foot, options, sizeof options / sizeof options[0]};
    int n = 0;
    int rc = cli_parse(&command, argc, argv, &scene, 1, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    drape_backend b = DRAPE_BACKEND_CPU;
    if (backend && !cli_backend("--backend", backend, &b))
        return CLI_USAGE;
    if (n == 0)
        return list_builtins(json);
    drape_scene *s;
    rc = cli_load_scene(scene, &b, device, outside, &s);
    if (rc != CLI_OK)
        return rc;
    drape_scene_info info;
    contact_summary contacts;
    drape_result r = drape_scene_get_info(s, &info);
    if (r != DRAPE_OK) {
        cli_error("info: %s", drape_result_string(r));
        rc = CLI_RUNTIME;
    } else if (!summarise_contacts(drape_scene_world(s), &contacts)) {
        cli_error("info: cannot read the contacts between particles (see above)");
        rc = CLI_RUNTIME;
    } else if (json) {
        rc = print_json(s, &info, &contacts);
    } else {
        print_text(s, &info, &contacts);
    }
    drape_scene_destroy(s);
    return rc;
}
