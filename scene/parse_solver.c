/* The "solver" section of a scene file: every field of drape_world_def that a file can set, by the
 * same names, with enums as strings. Absent fields keep drape_default_world_def()'s values; the
 * ranges are the world's own (the DRAPE_MAX_* limits of drape.h), checked here so that the message
 * names the key; what only the world checks (the shortest substep, drag against 1/h) comes back
 * in the world's words.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>

static const char *const solver_keys[] = {"dt",
                                          "substeps",
                                          "iterations",
                                          "damping",
                                          "air_drag",
                                          "wind",
                                          "gravity",
                                          "collision_margin",
                                          "mode",
                                          "integrator",
                                          "spring_stiffness",
                                          "spring_damping",
                                          "color_order",
                                          "color_seed",
                                          "color_balance",
                                          "backend",
                                          "device",
                                          "particle_static_friction",
                                          "particle_kinetic_friction",
                                          "particle_travel_limit",
                                          "particle_max_substeps",
                                          "contact_relaxation",
                                          "particle_restitution",
                                          "contact_passes",
                                          NULL};

static const char *const modes[] = {"pbd", "mass-spring", NULL};
static const char *const integrators[] = {"semi-implicit-euler", "velocity-verlet", NULL};
static const char *const color_orders[] = {"natural", "largest-first", "random", NULL};
static const char *const backends[] = {"cpu", "opencl", "auto", NULL};

bool sc_parse_solver(sc_parser *p, const cJSON *o, drape_world_def *def)
{
    sc_json *j = &p->json;
    if (!o)
        return true;
    const sc_range seconds = {0.0, DRAPE_MAX_DT, true, false}, relaxation = {0.0, 2.0, true, true};
    int mode = (int)def->mode, integrator = (int)def->integrator;
    int order = (int)def->color_order, backend = (int)def->backend.type;
    uint32_t substeps = (uint32_t)def->substeps, iterations = (uint32_t)def->iterations;
    uint32_t seed = (uint32_t)def->color_seed, most = (uint32_t)def->particle_max_substeps;
    uint32_t passes = (uint32_t)def->contact_passes;
    bool ok =
        sc_json_object(j, o, solver_keys) && sc_json_get_float(j, o, "dt", seconds, &def->dt) &&
        sc_json_get_u32(j, o, "substeps", 1, DRAPE_MAX_SUBSTEPS, &substeps) &&
        sc_json_get_u32(j, o, "iterations", 1, DRAPE_MAX_ITERATIONS, &iterations) &&
        sc_json_get_float(j, o, "damping", sc_unit, &def->damping) &&
        sc_json_get_float(j, o, "air_drag", sc_nonneg, &def->air_drag) &&
        sc_json_get_vec3(j, o, "wind", sc_coord, &def->wind) &&
        sc_json_get_vec3(j, o, "gravity", sc_coord, &def->gravity) &&
        sc_json_get_float(j, o, "collision_margin", sc_length, &def->collision_margin) &&
        sc_json_get_enum(j, o, "mode", modes, &mode) &&
        sc_json_get_enum(j, o, "integrator", integrators, &integrator) &&
        sc_json_get_float(j, o, "spring_stiffness", sc_positive, &def->spring_stiffness) &&
        sc_json_get_float(j, o, "spring_damping", sc_nonneg, &def->spring_damping) &&
        sc_json_get_enum(j, o, "color_order", color_orders, &order) &&
        sc_json_get_u32(j, o, "color_seed", 0, UINT32_MAX, &seed) &&
        sc_json_get_bool(j, o, "color_balance", &def->color_balance) &&
        sc_json_get_enum(j, o, "backend", backends, &backend) &&
        sc_json_get_string(j, o, "device", &def->backend.device) &&
        sc_json_get_float(j, o, "particle_static_friction", sc_nonneg,
                          &def->particle_static_friction) &&
        sc_json_get_float(j, o, "particle_kinetic_friction", sc_nonneg,
                          &def->particle_kinetic_friction) &&
        sc_json_get_float(j, o, "particle_travel_limit", sc_nonneg, &def->particle_travel_limit) &&
        sc_json_get_u32(j, o, "particle_max_substeps", 0, DRAPE_MAX_SUBSTEPS, &most) &&
        sc_json_get_float(j, o, "contact_relaxation", relaxation, &def->contact_relaxation) &&
        sc_json_get_float(j, o, "particle_restitution", sc_unit, &def->particle_restitution) &&
        sc_json_get_u32(j, o, "contact_passes", 0, DRAPE_MAX_ITERATIONS, &passes);
    def->substeps = (int)substeps;
    def->iterations = (int)iterations;
    def->particle_max_substeps = (int)most;
    def->contact_passes = (int)passes;
    def->mode = (drape_solver_mode)mode;
    def->integrator = (drape_integrator)integrator;
    def->color_order = (drape_color_order)order;
    def->color_seed = seed;
    def->backend.type = (drape_backend)backend;
    return ok;
}
