/* Prints the library's defaults (drape_default_*_def) as JSON, one object per section of
 * docs/scene-format.md ("Solver", "Particles", ...) keyed by the scene file's key names, for
 * check_doc_defaults.py, which compares them with the defaults the document's tables state. Enums
 * are written as the scene format spells them. */
#include <drape/drape.h>

#include <stdio.h>

static void vec(const char *key, drape_vec3 v, const char *sep)
{
    printf("    \"%s\": [%.7g, %.7g, %.7g]%s\n", key, (double)v.x, (double)v.y, (double)v.z, sep);
}

static void num(const char *key, double value, const char *sep)
{
    printf("    \"%s\": %.7g%s\n", key, value, sep);
}

static void str(const char *key, const char *value, const char *sep)
{
    printf("    \"%s\": \"%s\"%s\n", key, value, sep);
}

static void boolean(const char *key, bool value, const char *sep)
{
    printf("    \"%s\": %s%s\n", key, value ? "true" : "false", sep);
}

/* A stiffness family as the scene format writes it: {"stiffness": k} or {"compliance": c}. */
static void stiffness(const char *key, drape_stiffness s, const char *sep)
{
    if (s.model == DRAPE_STIFFNESS_XPBD)
        printf("    \"%s\": {\"compliance\": %.7g}%s\n", key, (double)s.compliance, sep);
    else
        printf("    \"%s\": {\"stiffness\": %.7g}%s\n", key, (double)s.stiffness, sep);
}

int main(void)
{
    static const char *const modes[] = {"pbd", "mass-spring"};
    static const char *const integrators[] = {"semi-implicit-euler", "velocity-verlet"};
    static const char *const orders[] = {"natural", "largest-first", "random"};
    static const char *const backends[] = {"cpu", "opencl", "auto"};
    static const char *const bendings[] = {"none", "skip-one", "dihedral"};
    static const char *const kinds[] = {"stretch", "shear", "bend"};

    const drape_world_def w = drape_default_world_def();
    printf("{\n  \"Solver\": {\n");
    num("dt", w.dt, ",");
    num("substeps", w.substeps, ",");
    num("iterations", w.iterations, ",");
    num("damping", w.damping, ",");
    num("air_drag", w.air_drag, ",");
    vec("wind", w.wind, ",");
    vec("gravity", w.gravity, ",");
    num("collision_margin", w.collision_margin, ",");
    str("mode", modes[w.mode], ",");
    str("integrator", integrators[w.integrator], ",");
    num("spring_stiffness", w.spring_stiffness, ",");
    num("spring_damping", w.spring_damping, ",");
    str("color_order", orders[w.color_order], ",");
    num("color_seed", (double)w.color_seed, ",");
    boolean("color_balance", w.color_balance, ",");
    str("backend", backends[w.backend.type], ",");
    num("particle_static_friction", w.particle_static_friction, ",");
    num("particle_kinetic_friction", w.particle_kinetic_friction, ",");
    num("particle_travel_limit", w.particle_travel_limit, ",");
    num("particle_max_substeps", w.particle_max_substeps, ",");
    num("contact_relaxation", w.contact_relaxation, ",");
    num("particle_restitution", w.particle_restitution, ",");
    num("contact_passes", w.contact_passes, "");

    const drape_particle_def p = drape_default_particle_def();
    printf("  },\n  \"Particles\": {\n");
    vec("velocity", p.velocity, ",");
    num("mass", p.mass, "");

    const drape_cloth_def c = drape_default_cloth_def();
    printf("  },\n  \"Cloths\": {\n");
    num("nx", c.nx, ",");
    num("ny", c.ny, ",");
    vec("origin", c.origin, ",");
    vec("u_axis", c.u_axis, ",");
    vec("v_axis", c.v_axis, ",");
    vec("velocity", c.velocity, ",");
    num("mass", c.mass, ",");
    printf("    \"pins\": %s,\n", c.pins == DRAPE_PIN_NONE ? "[]" : "\"some\"");
    boolean("shear", c.shear, ",");
    str("bending", bendings[c.bending], ",");
    stiffness("stretch", c.stretch, ",");
    stiffness("shear_stiffness", c.shear_stiffness, ",");
    stiffness("bend_stiffness", c.bend_stiffness, ",");
    boolean("tethers", c.tethers, ",");
    stiffness("tether_stiffness", c.tether_stiffness, ",");
    boolean("aerodynamic", c.aerodynamic, ",");
    num("tear_strain", c.tear_strain, ",");
    num("tear_spares", c.tear_spares, "");

    const drape_rope_def r = drape_default_rope_def();
    printf("  },\n  \"Ropes\": {\n");
    num("count", r.count, ",");
    vec("start", r.start, ",");
    vec("end", r.end, ",");
    num("mass", r.mass, ",");
    boolean("pin_start", r.pin_start, ",");
    boolean("pin_end", r.pin_end, ",");
    stiffness("stretch", r.stretch, ",");
    boolean("bending", r.bending, ",");
    stiffness("bend_stiffness", r.bend_stiffness, ",");
    boolean("tethers", r.tethers, ",");
    stiffness("tether_stiffness", r.tether_stiffness, "");

    const drape_distance_def d = drape_default_distance_def();
    printf("  },\n  \"Distances\": {\n");
    num("stiffness", d.stiffness, ",");
    str("kind", kinds[d.kind], "");

    printf("  },\n  \"Dihedrals\": {\n");
    num("stiffness", drape_default_dihedral_def().stiffness, "");

    printf("  },\n  \"Attachments\": {\n");
    num("stiffness", drape_default_attachment_def().stiffness, "");

    const drape_collider_def k = drape_default_collider_def();
    printf("  },\n  \"Colliders\": {\n");
    vec("position", k.position, ",");
    vec("normal", k.normal, ",");
    vec("velocity", k.velocity, ",");
    num("static_friction", k.static_friction, ",");
    num("kinetic_friction", k.kinetic_friction, ",");
    num("restitution", k.restitution, "");

    const drape_aero_def a = drape_default_aero_def();
    printf("  },\n  \"Aerodynamics\": {\n");
    num("drag", a.drag, ",");
    num("lift", a.lift, ",");
    num("air_density", a.air_density, ",");
    num("turbulence", a.turbulence, ",");
    num("gust_length", a.gust_length, ",");
    num("seed", a.seed, "");

    const drape_icosphere_def b = drape_default_icosphere_def();
    printf("  },\n  \"Balloons\": {\n");
    vec("centre", b.centre, ",");
    num("radius", b.radius, ",");
    num("subdivisions", b.subdivisions, ",");
    vec("velocity", b.velocity, ",");
    num("mass", b.mass, ",");
    stiffness("stretch", b.stretch, ",");
    boolean("bending", b.bending, ",");
    stiffness("bend_stiffness", b.bend_stiffness, ",");
    num("pressure", b.pressure, ",");
    stiffness("pressure_stiffness", b.pressure_stiffness, ",");
    num("contact_radius", b.contact_radius, "");
    printf("  }\n}\n");
    return 0;
}
