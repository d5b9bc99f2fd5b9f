/* The world's state as the host keeps it, shared by the files of host/ and by nothing else.
 *
 * Data flows one way (docs/design.md): the user's particles and constraints in creation order
 * -> colouring, which copies each constraint type into colour order (the solver sets) -> a backend
 * that steps those arrays. The solver sets are derived state: they are rebuilt whenever the
 * constraints change, and their iteration-corrected stiffness whenever the iteration count does.
 */
#ifndef DRAPE_WORLD_INTERNAL_H
#define DRAPE_WORLD_INTERNAL_H

#include "../kernels/drape_shared.h"
#include <drape/drape.h>
#include <stdarg.h>
#include <stddef.h>

/* One constraint type in creation order: what the user made. */
typedef struct dr_constraints {
    uint32_t arity;       /* particles per constraint */
    uint32_t count;       /* slots in use, removed ones included */
    uint32_t capacity;    /* slots allocated */
    uint32_t live;        /* constraints not removed */
    uint32_t *idx;        /* arity * capacity particle indices */
    float *rest;          /* rest length (m) or angle (rad) */
    float *stiffness;     /* PBD k in [0, 1] */
    float *compliance;    /* XPBD compliance, < 0 for PBD */
    uint8_t *kind;        /* drape_distance_kind, distances only */
    dr_vec4 *target;      /* attachment targets (m), attachments only */
    uint8_t *removed;     /* 1 for a removed slot, attachments only */
    uint32_t *free_ids;   /* removed slots for reuse, attachments only */
    uint32_t *generation; /* of each slot, >= 1, raised when it is removed (attachment ids) */
    uint32_t free_count;
    uint32_t params; /* floats of per-constraint parameters (0: none), Neo-Hookean only */
    uint32_t
        multipliers; /* XPBD multipliers per constraint: 1, or 10 for a Neo-Hookean tetrahedron */
    float *param;    /* params * capacity */
} dr_constraints;

/* The same constraints in colour order: the arrays every backend projects, one colour a range. */
typedef struct dr_solver_set {
    uint32_t count; /* live constraints */
    uint32_t *idx;  /* arity * count */
    float *rest;
    uint32_t *material;     /* per constraint: its entry of materials */
    dr_material *materials; /* the distinct (k', compliance) pairs, in order of first use */
    uint32_t material_count;
    float *lambda;     /* XPBD multipliers, zeroed each substep */
    dr_vec4 *target;   /* attachments only */
    uint32_t *slot_of; /* creation id -> position here (UINT32_MAX if removed) */
    uint32_t *offsets; /* stats.colors + 1: colour c is [offsets[c], offsets[c+1]) */
    drape_coloring_stats stats;
    float *param; /* params * count (dr_constraints.params), NULL when none */
} dr_solver_set;

/* The material (k' and compliance) of the constraint in slot c of a solver set. */
static inline dr_material dr_set_material(const dr_solver_set *s, uint32_t c)
{
    return s->materials[s->material[c]];
}

/* What changed on the host since the device mirror was last uploaded (OpenCL backend). */
enum {
    DR_STALE_PARTICLES = 1 << 0,
    DR_STALE_SHAPES = 1 << 1, /* the shape-matched clusters */
    DR_STALE_TARGETS = 1 << 2,
    DR_STALE_COLLIDERS = 1 << 3,
    DR_STALE_SET0 = 1 << 4, /* DR_STALE_SET0 << type: that constraint type's solver set */
    DR_STALE_CONSTRAINTS = (DR_STALE_SET0 << DRAPE_CONSTRAINT_TYPE_COUNT) - DR_STALE_SET0,
    DR_STALE_BODIES = DR_STALE_SET0 << DRAPE_CONSTRAINT_TYPE_COUNT, /* the damping's bodies */
    DR_STALE_ALL = DR_STALE_PARTICLES | DR_STALE_TARGETS | DR_STALE_COLLIDERS |
                   DR_STALE_CONSTRAINTS | DR_STALE_SHAPES | DR_STALE_BODIES,
};
#define DR_STALE_SET(type) ((unsigned)DR_STALE_SET0 << (type))

/* Shape-matched clusters (host/shape_matching.c): variable-size, so kept apart from the
 * fixed-arity constraint types, with their own colouring. */
typedef struct dr_shape_matches {
    uint32_t count, capacity; /* clusters */
    uint32_t *first, *size;   /* creation order: each cluster's members[first .. +size) */
    float *stiffness;         /* k in [0, 1], 1 = rigid */
    dr_vec4 *rotation;        /* the last fitted rotation (quaternion), the warm start */
    uint32_t member_count, member_capacity;
    uint32_t *members; /* particle indices */
    dr_vec4 *rest;     /* rest offsets from the rest centre of mass (m) */
    bool dirty;        /* clusters added: rebuild the colour order */
    /* the colour order every backend runs: slot s is cluster id[s], its members at
     * solver_members[range[2s] .. + range[2s+1]) with rest offsets solver_rest[same] */
    uint32_t *id, *range, *solver_members;
    dr_vec4 *solver_rest;
    float *kprime;
    uint32_t colors;
    uint32_t *offsets; /* colors + 1: colour c is slots [offsets[c], offsets[c+1]) */
} dr_shape_matches;

/* The bodies that damping treats one by one (host/bodies.c): the connected components of the
 * movable particles that constraints or shape-matched clusters join, with two or more particles. */
typedef struct dr_bodies {
    bool dirty;       /* constraints, clusters or pins changed: work them out again */
    uint32_t count;   /* bodies */
    uint32_t members; /* particles in them */
    uint32_t *first;  /* count + 1: body b is order[first[b] .. first[b + 1]) */
    uint32_t
        *order; /* the bodies' particles, bodies by their lowest particle, each in index order */
} dr_bodies;

typedef struct dr_opencl dr_opencl;

/* Particle contacts (particle_contacts.c): what the broad phase needs, worked out again whenever
 * particles change. */
typedef struct dr_particle_plan {
    bool enabled;     /* some pair of particles can collide */
    uint32_t members; /* particles with a radius */
    float cell;       /* m, cell size: the largest collision distance */
    uint32_t buckets; /* hash-table buckets, a power of two */
    bool mesh;        /* some member belongs to a mesh (DR_GROUP_MESH): contact_passes apply */
    float mass_ratio; /* the heaviest movable member's mass over the lightest's (1 without two) */
    float rmin, rmax; /* m, the smallest and largest radius of a member */
    uint32_t bucket_cap; /* the most particles a bucket may hold: DR_CELL_CAP, or more where few
                            particles take part (DR_PAIR_BUDGET / members) */
} dr_particle_plan;

/* A pair of the CPU's pair pass: the two particles' indices pi and pj, and what the pair's share
 * reads, fixed for the substep: the inverse masses and the contact counts at the substep's start
 * (whether each end is grounded comes from the grid's ground planes); j's pushes are summed too
 * when `both`. What the test for contact reads is kept apart (dr_particle_grid's pair_xij,
 * pair_ends). */
typedef struct dr_pair_record {
    uint32_t pi, pj;
    float wi, wj;
    uint32_t ni, nj;
    uint8_t both, unstacked; /* unstacked: dr_pair_unstacked */
} dr_pair_record;

/* A pair of contact candidates as the CPU's candidate search finds it, each pair once: the two
 * particles and their collision distance D (m). */
typedef struct dr_cand_pair {
    uint32_t i, j;
    float D;
} dr_cand_pair;

/* The CPU reference's grid and contact arrays (kernels/drape_shared.h, "particle contacts"). */
typedef struct dr_particle_grid {
    uint32_t particles, buckets; /* sizes allocated */
    uint32_t *cell;              /* per particle: its bucket, DR_NO_CELL without a radius */
    uint32_t *counts;            /* per bucket: histogram, then the scatter's cursor */
    uint32_t *start;             /* buckets + 1: exclusive prefix sum of the histogram */
    uint32_t *sorted;            /* particle indices bucket by bucket */
    uint32_t *nbr;               /* per particle: contacts at the substep's start */
    uint32_t *ncand;             /* per particle: contact candidates (dr_particle_candidates) */
    dr_vec4 *vpre;   /* per particle: its velocity after the prediction (m/s), for restitution */
    dr_vec4 *dnew;   /* the gather's output */
    dr_vec4 *anchor; /* per particle: its prediction when the grid was built (m) */
    dr_vec4 *grid_anchor; /* per place in `sorted`: that particle's anchor, its radius in w */
    uint32_t *grid_group; /* per place in `sorted`: that particle's group */
    float *support;       /* per particle: its contacts' push along up in the last substep (m) */
    float *lift;          /* per particle: its support's lift along up this substep (m) */
    uint32_t *rests, *rests_before; /* per particle: rest flags, this substep's and the last's
                                     * (dr_particle_rest_seed) */

    /* The CPU's pair pass (particle_contacts.c): per particle its cell's integer coordinates (3
     * ints and a spare), then per slot of `sorted` its particle's and the particle's index; per
     * place in the pass order its pushes in one iteration and its ground plane (dr_ground_plane);
     * the pairs of the substep; a dense grid of the cells' box when it is small: per cell the start
     * of its particles in dense_sorted, and dense_sorted. */
    int32_t *coord;
    uint32_t *dense_start, *dense_sorted;
    uint64_t dense_capacity;
    dr_pair_sum *sum;
    dr_vec4 *ground;
    dr_pair_record *pairs;
    /* per pair: x_i - x_j (m) in xyz, the collision distance D (m) in w; i's and j's places in
     * the pass order (`member`), two per pair */
    dr_vec4 *pair_xij;
    uint32_t *pair_ends;
    uint32_t *touching;       /* per pair: the pair pass's list of the pairs within reach */
    dr_cand_pair *cand_pairs; /* the candidate pairs of the substep */
    uint32_t cand_count, cand_capacity; /* cand_pairs' length and size */
    bool cand_lost;                     /* no memory for all of them */
    uint32_t pair_count, pair_capacity;
    /* per particle its contact pass (dr_contact_pass); the pairs of pass p are
     * pairs[pass_start[p] .. pass_start[p + 1]) */
    uint8_t *pass;
    uint32_t pass_start[DR_CONTACT_PASSES + 1];
    /* The pass order: the particles with a radius by contact pass (those of pass p are
     * member[member_start[p] .. member_start[p + 1])), within a pass in the dense grid's order;
     * per particle its place there (`local`); per place its displacement while the contact pass
     * runs (`ld`; d is written back after it). overflow: some member has more than DR_NBR_CAP
     * candidates (its gather searches the grid, from d). Per place in dense_sorted: that
     * particle's anchor with its radius in w, and its group. */
    uint32_t *member, *local;
    uint32_t member_start[DR_CONTACT_PASSES + 1];
    /* restitution's rounds (dr_cpu_particle_bounce): per candidate pair the separating velocity
     * its bounce added so far (m/s); per particle its collider's target and what that added
     * (dr_bounce_wall); per particle twice whether a round changed its velocity */
    float *applied, *wall;
    uint8_t *moved;
    uint32_t applied_capacity;
    dr_vec4 *ld;
    bool overflow;
    dr_vec4 *dense_anchor;
    uint32_t *dense_group;
} dr_particle_grid;

#define DR_NONFINITE_PHASES 3 /* DR_PHASE_PREDICT, _PROJECT, _UPDATE */

/* A warning, once per world, that something is too stiff for the substep (dr_neo_hookean_warn,
 * dr_balloons_warn): whether it was given, and what it last looked at (a count or a version) at
 * which substep h (s), so that it looks again only when either changes. */
typedef struct dr_substep_check {
    bool warned;
    uint64_t key;
    double h;
} dr_substep_check;

struct drape_world {
    drape_world_def def;
    char *device_selector; /* the def's device string, owned; def.backend.device points here */
    double time;           /* s */

    drape_backend backend;                /* the one in use: CPU or OpenCL */
    dr_opencl *cl;                        /* the OpenCL backend, NULL on the CPU */
    drape_distance_kernel kernel_request; /* def.distance_kernel, else $DRAPE_DISTANCE_KERNEL */
    unsigned stale;                       /* DR_STALE_* flags */
    char device_name[320];
    drape_profile profile; /* CPU backend: wall time per phase */

    /* Particles: x.w and p.w hold the inverse mass (1/kg, 0 = pinned). */
    uint32_t particle_count, particle_capacity;
    dr_vec4 *x;      /* positions, m */
    dr_vec4 *v;      /* velocities, m/s */
    dr_vec4 *d;      /* displacements of the current substep: the predicted position is x + d, m */
    dr_vec4 *a, *a1; /* mass-spring accelerations at the start and end of a substep, m/s^2 */
    dr_contact *contacts; /* one per particle, rebuilt each substep */
    float *inflate;       /* what the radius adds to the collision margin (m): the radius of a loose
                             particle, 0 for a cloth's or rope's (their thickness is the margin) */
    dr_vec4 *held;        /* m: each particle's collider contacts' push (x) and friction (yzw) so
                             far this substep (dr_project_contacts), 0 at their generation */
    dr_vec4 *shape;  /* rest position (m, where the particle was added) in xyz, radius (m) in w */
    uint32_t *group; /* group word: group id | DR_GROUP_SELF | DR_GROUP_MESH */
    uint32_t next_group; /* one above every group in use (DRAPE_GROUP_NEW) */
    bool plan_dirty;     /* radii or groups changed: work the plan out again */
    /* [placed_first, placed_first + placed_count): a range that covers the particles added or set
     * since the last substep. In the next substep their contacts that start inside mend a
     * placement, which friction does not count (dr_start_depth); the range is emptied after it
     * (dr_placement_mended). */
    uint32_t placed_first, placed_count;
    dr_particle_plan plan;
    dr_particle_grid grid;
    uint32_t fullest_bucket; /* the step's fullest bucket (both backends) */
    float substep;           /* s: h of the step being taken (dr_step_substeps) */
    bool travel_warned; /* the velocity limit was found to slow a particle (dr_step_substeps) */
    bool mode_warned; /* the mass-spring mode was found to leave parts out (dr_mass_spring_warn) */
    dr_substep_check neo_hookean_check; /* tetrahedra too stiff for the substep (their count) */
    dr_substep_check balloon_check;     /* balloon skins too tense for it (the balloons' version) */
    uint32_t speed_bits; /* OpenCL: the device's dr_particle_speed_bits after the last step */

    dr_constraints constraints[DRAPE_CONSTRAINT_TYPE_COUNT];
    dr_solver_set solver[DRAPE_CONSTRAINT_TYPE_COUNT];
    bool solver_dirty;    /* pins or the colouring settings changed: recolour every type before
                             the next step */
    unsigned type_dirty;  /* bit t: constraints of type t were added or removed; recolour only that
                             type (a mouse grab adds one attachment: the cloth keeps its colours) */
    uint64_t recolored;   /* constraints coloured since the profile's reset (drape_profile) */
    bool stiffness_dirty; /* the iteration count or a stiffness changed: recompute the materials */

    uint32_t collider_count, collider_capacity;
    dr_collider *colliders;

    struct dr_render *render; /* the viewer's triangles and buffers (render.c); NULL until used */

    /* The last step's non-finite check: per phase (DR_PHASE_*), the lowest index of a particle
     * whose state turned non-finite in it, DR_NO_PARTICLE for none. */
    uint32_t nonfinite[DR_NONFINITE_PHASES];

    dr_shape_matches shapes;
    dr_bodies bodies;             /* what damping treats one by one (bodies.c) */
    struct dr_aero *aero;         /* aerodynamics (aero.c); NULL until used */
    struct dr_balloons *balloons; /* pressure constraints (balloons.c); NULL until used */
    struct dr_tear *tear;         /* breakable links, spares (tearing.c); NULL until used */
};

/* ---- log.c ---- */
/* Formats a message and sends it to the def's log callback (NULL: the stderr default). */
void dr_log(const drape_world_def *def, drape_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A public function's guard against a NULL world: the error goes to the stderr default (there is no
 * world to hold a log callback), and the function returns DRAPE_ERROR_INVALID_ARGUMENT. */
#define DR_CHECK_WORLD(w)                                                                          \
    do {                                                                                           \
        if (!(w))                                                                                  \
            return dr_fail(NULL, DRAPE_ERROR_INVALID_ARGUMENT, "%s: world is NULL", __func__);     \
    } while (0)
/* dr_log at error level; returns `result` so that callers can `return dr_fail(...)`. */
drape_result dr_fail(const drape_world_def *def, drape_result result, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- world.c ---- */
/* Grows an array of `elem` bytes to hold at least `need` elements; false when out of memory. */
bool dr_grow(void **array, uint32_t *capacity, uint32_t need, size_t elem);
bool dr_finite3(drape_vec3 v);
/* The limits of what the solver can take (drape.h, "Limits"): beyond them the products it forms
 * (squared lengths, cross products of edges, compliance / h^2, 1 / mass) overflow a float. */
#define DR_MAX_MAGNITUDE                                                                           \
    DRAPE_MAX_MAGNITUDE        /* m, m/s, m/s^2: a position's, velocity's, gravity's */
#define DR_MIN_MASS 1e-15f     /* kg: the lightest particle that is not pinned */
#define DR_MIN_SUBSTEP 1e-9f   /* s: the shortest substep h = dt / substeps */
#define DR_MAX_COMPLIANCE 1e9f /* m/N or rad/(N m) */
/* Finite, with every component within DR_MAX_MAGNITUDE. */
bool dr_within3(drape_vec3 v);
/* A def's vector field by name and unit, for dr_check_vectors. */
typedef struct dr_field3 {
    const char *name; /* "def->origin" */
    const char *unit; /* "m" */
    drape_vec3 v;
} dr_field3;
/* The first of `count` fields that is not dr_within3, refused by name, value and unit ("fn:
 * def->origin = (1e+38, 0, 0) m must be finite and within 1e+09"); DRAPE_OK when none is. */
drape_result dr_check_vectors(const drape_world_def *log, const char *fn, const dr_field3 *fields,
                              size_t count);
/* A positive, finite amount, refused by name, value and unit otherwise ("fn: def->mass = -1 kg
 * must be > 0 and finite"). */
drape_result dr_check_positive(const drape_world_def *log, const char *fn, const char *name,
                               float value, const char *unit);
/* A builder's def->mass (kg) by dr_check_positive, then its fields by dr_check_vectors. */
drape_result dr_check_mass_and_vectors(const drape_world_def *log, const char *fn, float mass,
                                       const dr_field3 *fields, size_t count);
dr_vec4 dr_vec4_from(drape_vec3 v, float w);
/* |g| h^2 (m): how far gravity moves a particle in a substep of h, the scale of the projection's
 * direction blend (kernels/drape_shared.h, dr_distance_step). */
float dr_substep_sag(drape_vec3 gravity, float h);

/* ---- defs.c ---- */
/* The value every drape_default_*_def() puts in its def's cookie. */
#define DR_DEF_COOKIE 0x64726170u /* "drap" */
/* DRAPE_ERROR_INVALID_ARGUMENT, with a message to `log`, when the def of a `kind` (e.g. "cloth")
 * passed to fn is NULL or was not made by drape_default_<kind>_def() (a zero-initialised def). */
drape_result dr_check_def(const drape_world_def *log, const void *def, uint32_t cookie,
                          const char *fn, const char *kind);
/* Returns from the calling function unless dr_check_def accepts def. */
#define DR_CHECK_DEF(log, def, fn, kind)                                                           \
    do {                                                                                           \
        drape_result dr_check_ =                                                                   \
            dr_check_def((log), (def), (def) ? (def)->cookie : 0u, (fn), (kind));                  \
        if (dr_check_ != DRAPE_OK)                                                                 \
            return dr_check_;                                                                      \
    } while (0)

/* ---- particles.c ---- */
/* DRAPE_ERROR_OUT_OF_RANGE, with a message naming fn and the range, unless particles first ..
 * first + count - 1 exist (count 0 at first = the particle count is fine). */
drape_result dr_check_particle_range(const drape_world *world, uint32_t first, uint32_t count,
                                     const char *fn);

/* ---- memory.c ---- */
/* DRAPE_ERROR_OUT_OF_MEMORY, with a message naming the bytes, when the world with `particles`,
 * `distances` and `dihedrals` more would need more host memory than the process can allocate.
 * `what` says what is being added ("a 16384 x 16384 cloth"). */
drape_result dr_check_memory(const drape_world *world, const char *fn, const char *what,
                             uint64_t particles, uint64_t distances, uint64_t dihedrals);
/* The same with `extra` bytes more: what the addition needs besides the world's own arrays (a
 * builder's scratch, the particle contacts' grid). */
drape_result dr_check_memory_extra(const drape_world *world, const char *fn, const char *what,
                                   uint64_t particles, uint64_t distances, uint64_t dihedrals,
                                   uint64_t extra);

/* ---- constraints.c ---- */
/* The bytes the world would hold with that many more particles and constraints: what
 * drape_world_host_bytes counts, at those counts, plus the colouring's working arrays. */
uint64_t dr_world_bytes_for(const drape_world *world, uint64_t particles, uint64_t distances,
                            uint64_t dihedrals);
void dr_constraints_init(dr_constraints *set, uint32_t arity);
void dr_constraints_free(dr_constraints *set);
void dr_solver_set_free(dr_solver_set *set);
/* Checks what every constraint shares: particle indices in range and distinct (`names` names them
 * in messages, def->names[i]) and its stiffness (dr_check_stiffness, as def->...). */
drape_result dr_check_constraint(const drape_world *w, const char *fn, const uint32_t *idx,
                                 const char *const *names, uint32_t arity, drape_stiffness s);
/* Stores a checked constraint of `type` in a free slot and marks the world for recolouring. */
drape_result dr_store_constraint(drape_world *w, drape_constraint_type type, const char *fn,
                                 const uint32_t *idx, float rest, drape_stiffness s, uint8_t kind,
                                 dr_vec4 target, uint32_t *out_id);
/* Recolours every constraint type (if dirty) and refreshes the corrected stiffness (if dirty). */
drape_result dr_world_prepare(drape_world *world);

/* Makes the host's positions and velocities current (the OpenCL backend may be ahead after a step).
 * Every call that reads or edits particles calls it first. The world is logically const. */
drape_result dr_world_pull(const drape_world *world);

/* ---- the public adders, behind drape_world_add_<x> ----
 * Each does what its public function does (drape.h) and names `fn` in its messages: the public
 * function passes its own name, and a builder that adds through it passes the builder's, so that an
 * error names the function the user called. `w` is not NULL. */
drape_result dr_add_particles(drape_world *w, const char *fn, const drape_particle_def *defs,
                              uint32_t count, uint32_t *first_index);
drape_result dr_add_distance(drape_world *w, const char *fn, const drape_distance_def *def,
                             uint32_t *out_id);
drape_result dr_add_dihedral(drape_world *w, const char *fn, const drape_dihedral_def *def,
                             uint32_t *out_id);
drape_result dr_add_tether(drape_world *w, const char *fn, const drape_tether_def *def,
                           uint32_t *out_id);
drape_result dr_add_volume(drape_world *w, const char *fn, const drape_volume_def *def,
                           uint32_t *out_id);
drape_result dr_add_neo_hookean(drape_world *w, const char *fn, const drape_neo_hookean_def *def,
                                uint32_t *out_id);
drape_result dr_add_balloon(drape_world *w, const char *fn, const drape_balloon_def *d,
                            uint32_t *out_id);
drape_result dr_add_aero_triangles(drape_world *w, const char *fn, const uint32_t *indices,
                                   uint32_t count);
drape_result dr_add_tet_mesh(drape_world *w, const char *fn, const drape_tet_mesh_def *d,
                             drape_build_info *out);

/* ---- builders.c ---- */
/* Where the world stood before a builder added to it: what a failed builder rolls back to and what
 * its drape_build_info counts from. */
typedef struct dr_build_mark {
    uint32_t particles;
    uint32_t counts[DRAPE_CONSTRAINT_TYPE_COUNT];
} dr_build_mark;
dr_build_mark dr_build_begin(const drape_world *w);
/* Removes what a failed builder added, so that the world is as it was. */
void dr_build_roll_back(drape_world *w, const dr_build_mark *m);
/* What a builder added since the mark (out may be NULL). */
void dr_build_info_since(const drape_world *w, const dr_build_mark *m, drape_build_info *out);

/* ---- stiffness.c ---- */
/* A known model, with PBD a stiffness in [0, 1] and compliance 0, with XPBD a compliance in
 * [0, DR_MAX_COMPLIANCE] and stiffness 1; the message names the fields as `field` prefixes them
 * ("def->", "def->stretch."). */
drape_result dr_check_stiffness(const drape_world_def *log, const char *fn, const char *field,
                                drape_stiffness s);
/* dr_check_stiffness of each of `count` families; the first that fails says why. */
drape_result dr_check_stiffnesses(const drape_world_def *log, const char *fn, uint32_t count,
                                  const char *const *fields, const drape_stiffness *s);
/* The compliance the solver keeps (kernels/drape_shared.h): XPBD's, or -1 selecting PBD. */
float dr_solver_compliance(drape_stiffness s);
/* A kept stiffness and compliance as a def gives them back (the inverse of the above). */
drape_stiffness dr_stiffness_of_solver(float stiffness, float compliance);
/* A def's flat stiffness fields as one. */
#define DR_DEF_STIFFNESS(def) ((drape_stiffness){(def)->stiffness, (def)->compliance, (def)->model})
/* Sets a def's flat stiffness fields from one. */
#define DR_SET_STIFFNESS(def, s)                                                                   \
    ((def)->stiffness = (s).stiffness, (def)->compliance = (s).compliance, (def)->model = (s).model)

/* ---- tethers.c ---- */
/* The tethers of a cloth grid of nx x ny particles from `base` (drape_cloth_def.tethers): one from
 * every movable particle to its nearest pinned one; none when no particle is pinned. */
drape_result dr_add_cloth_tethers(drape_world *w, const char *fn, uint32_t base,
                                  const drape_cloth_def *def);
/* The tethers of a rope of def->count particles from `base` (drape_rope_def.tethers): one from
 * every movable particle to its nearer pinned end; none when neither end is pinned. */
drape_result dr_add_rope_tethers(drape_world *w, const char *fn, uint32_t base,
                                 const drape_rope_def *def);
/* The components of the particles joined by live distance links, as one root per particle in
 * *out (malloc'd; NULL and DRAPE_OK when the world has no tether, so nothing needs them). */
drape_result dr_link_components(drape_world *w, uint32_t **out);
/* Removes the tethers whose particle and anchor were linked in `before` (dr_link_components before
 * a tear) and are not any more. */
drape_result dr_cut_torn_tethers(drape_world *w, const uint32_t *before);
/* Removes the tethers of a particle that a tear splits: the tear may run between it and its
 * anchor, and a tether across it would hold the pieces together. */
void dr_cut_tethers_of(drape_world *w, uint32_t particle);

/* ---- volumes.c ---- */
/* 6 V0 of the tetrahedron of particles idx at their current positions (host arrays current), or
 * DRAPE_ERROR_INVALID_ARGUMENT, naming the particles, when it is inverted or degenerate. */
drape_result dr_rest_tetrahedron(const drape_world *w, const char *fn, const uint32_t idx[4],
                                 float *rest6);
/* The six right-handed tetrahedra of every cell of an nx x ny x nz grid of particles whose (i, j,
 * k) is (k ny + j) nx + i (Kuhn's split around a body diagonal, mirrored in alternate cells): 4
 * indices each into out, 6 (nx-1)(ny-1)(nz-1) of them. */
void dr_grid_tetrahedra(uint32_t nx, uint32_t ny, uint32_t nz, uint32_t *out);

/* ---- builders.c: the contact radius and group of a body's particles ---- */
typedef struct dr_body_contact {
    float radius;   /* m; 0: none */
    uint32_t group; /* the group taken (DRAPE_GROUP_NEW made a new one) */
} dr_body_contact;
/* Checks a body def's contact_radius (>= 0, finite) and group, naming fn, and takes the group
 * (only with a radius, so a body without contacts uses no group). */
drape_result dr_take_body_contact(drape_world *w, const char *fn, float radius, uint32_t group,
                                  dr_body_contact *out);
/* With a radius: p gets it and the group, with no contacts within the group. */
void dr_apply_body_contact(drape_particle_def *p, dr_body_contact c);
/* particles.c: gives particles idx[0 .. count) the radius and group of c, with no contacts within
 * the group (a mesh's particles keep being a mesh), as if they had been added so. */
void dr_particles_set_contact(drape_world *w, const uint32_t *idx, uint32_t count,
                              dr_body_contact c);

/* ---- render.c ---- */
/* After particle v of a tearing cloth split into copy by the plane through v with normal e (its
 * links already moved): a render triangle on v whose edges at v are links that moved to the copy
 * takes the copy; one whose two edges went apart is hidden (made a point), since the tear runs
 * through it; one without links along those edges goes by the side of the plane its other corners'
 * midpoint is on. So the tear opens where it is drawn (the adjacency is rebuilt before the next
 * use). */
void dr_render_split(drape_world *w, uint32_t v, uint32_t copy, dr_vec4 e);

/* ---- tearing.c and opencl/tear_opencl.c: the check after a step on the device ---- */
/* The live breakable links, their two particles into pairs and the length past which the device
 * flags them into threshold (m; both may be NULL); returns their count. */
uint32_t dr_tear_watch(const drape_world *w, uint32_t *pairs, float *threshold);
struct dr_tear_cl;
struct _cl_mem;
/* Enqueues the measure of every breakable link at the device's positions x: the lowest index of a
 * link that may be past its limit goes into check[slot] by atomic minimum (DR_NO_PARTICLE stays:
 * none), so that the step's one read brings it back with the non-finite check. *enqueued is false
 * when there is no live breakable link (nothing enqueued). Uploads the links when `version`
 * changed. */
drape_result dr_tear_cl_enqueue(drape_world *w, struct dr_tear_cl **state, uint64_t version,
                                struct _cl_mem *x, struct _cl_mem *check, uint32_t slot,
                                bool *enqueued);
/* tearing.c's side of that check, called by dr_opencl_step: the watch is enqueued before the
 * step's read (*enqueued: check[slot] is to be read), and the slot's value given back after it.
 * Without a watch, or when the read never came, dr_tear_after_step reads the positions back and
 * checks every link on the host. */
drape_result dr_tear_device_watch(drape_world *w, struct _cl_mem *x, struct _cl_mem *check,
                                  uint32_t slot, bool *enqueued);
void dr_tear_device_result(drape_world *w, uint32_t flagged);
void dr_tear_cl_destroy(drape_world *w, struct dr_tear_cl *state);

/* ---- tet_mesh.c ---- */
/* A distance constraint of stiffness s along every edge of tet_count tetrahedra (4 vertex indices
 * each, offset by base), each shared edge once, in the order of their sorted vertex pairs. */
drape_result dr_add_tet_edges(drape_world *w, const char *fn, const uint32_t *tets,
                              uint32_t tet_count, uint32_t base, drape_stiffness s);

/* ---- shape_matching.c ---- */
void dr_shapes_free(dr_shape_matches *s);
/* Rebuilds the clusters' colour order and k' when clusters, pins or the iteration count changed
 * (the flags of dr_world_prepare). */
drape_result dr_shapes_prepare(drape_world *w, bool pins_or_iterations_changed);
/* Every cluster once, colour by colour (the CPU reference). */
void dr_shapes_project(drape_world *w);

/* ---- opencl_step.c ---- */
drape_result dr_opencl_create(drape_world *world, dr_opencl **out);
/* Applies the distance kernel a def may change after creation (building kernels/fused.cl when the
 * world may now take it). */
drape_result dr_opencl_configure(drape_world *world);
/* Profiling (drape_world_def.profiling) on or off from the next command on. */
drape_result dr_opencl_set_profiling(dr_opencl *cl, bool on);
drape_distance_kernel dr_opencl_distance_kernel(const dr_opencl *cl);
void dr_opencl_destroy(dr_opencl *cl);
/* Where the backend sends its messages from now on (it keeps the world's log from creation). */
void dr_opencl_set_log(dr_opencl *cl, drape_log_fn log, void *user);
const char *dr_opencl_device_name(const dr_opencl *cl, char *buf, size_t size);
/* Whether the device's buffers live in host memory (a CPU device such as PoCL's). */
bool dr_opencl_uses_host_memory(const dr_opencl *cl);
/* `steps` steps queued back to back, then one blocking read of the non-finite check. */
drape_result dr_opencl_step(drape_world *world, uint32_t steps);
drape_result dr_opencl_pull(drape_world *world);
drape_result dr_opencl_profile(const dr_opencl *cl, drape_profile *out);
void dr_opencl_reset_profile(dr_opencl *cl);
drape_result dr_opencl_diagnostics(dr_opencl *cl, drape_diagnostics *out);
/* Particle contacts on the device (host/opencl/opencl_particles.c does the work): bytes held, and
 * the sum of the contact counts of the last substep. */
uint64_t dr_opencl_particle_bytes(const dr_opencl *cl);
drape_result dr_opencl_count_contacts(dr_opencl *cl, uint32_t n, uint64_t *sum);
/* For the renderer (host/render.c): the backend's OpenCL context, and its positions buffer (float4
 * per particle, inverse mass in w) brought up to date with the host first. */
struct dr_cl_context;
struct _cl_mem;
struct dr_cl_context *dr_opencl_context(dr_opencl *cl);
drape_result dr_opencl_positions(drape_world *world, struct _cl_mem **out);

/* ---- particle_contacts.c ---- */
/* Refreshes w->plan when particles changed. */
void dr_particle_plan_update(drape_world *world);
/* Marks particles first .. first + count - 1 as a mesh (a cloth's or a rope's): pairs of them close
 * in the rest pose never collide. */
void dr_particle_mark_mesh(drape_world *world, uint32_t first, uint32_t count);
/* A new group id (DRAPE_GROUP_NEW), or `group` itself, which it then counts as used. */
uint32_t dr_particle_take_group(drape_world *world, uint32_t group);
/* After a substep: the particles placed before it (placed_first, placed_count; by
 * drape_world_add_particles and drape_world_set_particle) have mended their placement. */
void dr_placement_mended(drape_world *world);
/* The placed range within particle_count, after a builder's roll-back. */
void dr_placement_clip(drape_world *world);
void dr_particle_grid_free(dr_particle_grid *grid);
/* About what the particle contacts hold per particle with a radius (the grid, the candidate lists,
 * the pairs of a packed pile), for dr_check_memory_extra before particles are added. */
uint64_t dr_particle_grid_bytes_each(void);
/* CPU reference: the velocity limit and the grid of one substep; then, after the collider
 * contacts, the contact candidates and counts. */
drape_result dr_cpu_particle_grid(drape_world *world);
drape_result dr_cpu_particle_candidates(drape_world *world);
/* CPU reference: restitution between particles, after the update of a substep h (s) long
 * (`slow`: m/s, see dr_particle_bounce). */
drape_result dr_cpu_particle_bounce(drape_world *world, float slow, float h);
/* The rounds of restitution between particles in a substep: DR_BOUNCE_ROUNDS with restitution,
 * else one (the cap on the separating speed alone). */
uint32_t dr_bounce_rounds(const drape_world *world);
/* Whether the pass after the update runs: with restitution, or under gravity (slow > 0: the cap on
 * the separating speed). */
bool dr_particle_bounces(const drape_world *world, float slow);
/* Whether this substep's pass after the update runs (dr_particle_bounces at the substep's resting
 * speed), and so reads the velocities after the prediction (vpre), which the grid build keeps. */
bool dr_particle_keeps_vpre(const drape_world *world);
/* The contact passes after a substep's iterations (def.contact_passes where a mesh's particles
 * collide in the PBD mode, else 0), on both backends. */
int dr_contact_tail(const drape_world *world);
/* The approach speed (m/s) above which a pair is an impact (dr_pair_impact): with restitution
 * between particles the resting speed dr_restitution_threshold of the substep, else 0 (none). */
float dr_particle_impact_speed(const drape_world *world);
/* CPU reference: one gather pass of the particle contacts. */
void dr_cpu_particle_contacts(drape_world *world, int iteration);
/* After a step: the error for a bucket past the plan's bucket_cap, else DRAPE_OK. */
drape_result dr_particle_check(drape_world *world);
/* Whether the step's fullest bucket is past the plan's bucket_cap: no pair tests this step. */
bool dr_particle_crowded(const drape_world *world);
/* The unit vector against gravity (0 without gravity), for the mass scaling of stacks
 * (dr_stack_above). */
dr_vec4 dr_particle_up(const drape_world *world);
/* The most support carried into a substep: |g| h^2 (m), gravity's pull over one substep. */
float dr_particle_support_cap(const drape_world *world);
/* Whether fast particles may split a step into more than def.substeps substeps: particle
 * contacts in the PBD mode, a velocity limit, and particle_max_substeps above def.substeps. */
bool dr_substeps_vary(const drape_world *world);
/* |g| dt (m/s): the most speed gravity adds over one step, in the measure of dr_substeps_needed. */
float dr_gravity_over_step(const drape_world *world);
/* The travel limit (radii per substep) the step's split keeps the particles' speeds at its start
 * to. */
float dr_split_travel(const drape_world *world);
/* The largest dr_substeps_needed of the particles with a radius, as its float's bits, from the
 * host's velocities (the device's particle_speed computes the same). */
uint32_t dr_particle_speed_bits(const drape_world *world);
/* The substeps of the next step from `speed_bits` (dr_particle_speed_bits): def.substeps, or
 * where dr_substeps_vary, as many as the fastest particle needs, at most particle_max_substeps
 * (a non-finite measure takes the most). Sets world->substep. */
int dr_step_substeps(drape_world *world, uint32_t speed_bits);

/* Returns from the calling function with the result of `expr` unless it is DRAPE_OK. */
#define DR_TRY(expr)                                                                               \
    do {                                                                                           \
        drape_result try_ = (expr);                                                                \
        if (try_ != DRAPE_OK)                                                                      \
            return try_;                                                                           \
    } while (0)

/* ---- opencl_particles.c ---- */
typedef struct dr_cl_particles dr_cl_particles;
struct dr_cl_context;
drape_result dr_cl_particles_create(struct dr_cl_context *ctx, dr_cl_particles **out);
void dr_cl_particles_destroy(dr_cl_particles *p, struct dr_cl_context *ctx);
/* Uploads radii, rest positions and groups, and sizes the grid, for the world's plan. */
drape_result dr_cl_particles_upload(dr_cl_particles *p, struct dr_cl_context *ctx,
                                    const drape_world *world);
/* The velocity limit and the grid of one substep. */
drape_result dr_cl_particles_grid(dr_cl_particles *p, struct dr_cl_context *ctx,
                                  const drape_world *world, struct _cl_mem *x, struct _cl_mem *v,
                                  struct _cl_mem *d, int phase);
/* After the collider contacts: the contact candidates and counts, and the rest flags. */
drape_result dr_cl_particles_candidates(dr_cl_particles *p, struct dr_cl_context *ctx,
                                        const drape_world *world, struct _cl_mem *x,
                                        struct _cl_mem *contacts, int phase);
/* Restitution between particles after the update of a substep h (s) long, into v; d holds the
 * substep's displacements. */
drape_result dr_cl_particles_bounce(dr_cl_particles *p, struct dr_cl_context *ctx,
                                    const drape_world *world, struct _cl_mem *x, struct _cl_mem *v,
                                    struct _cl_mem *d, struct _cl_mem *contacts, float slow,
                                    float h, int phase);
/* One gather pass of iteration `iteration`, then its output copied into d. */
drape_result dr_cl_particles_project(dr_cl_particles *p, struct dr_cl_context *ctx,
                                     const drape_world *world, struct _cl_mem *x, struct _cl_mem *d,
                                     struct _cl_mem *contacts, int iteration, int phase);
/* The step's fullest bucket (the larger of it and world->fullest_bucket; the next grid build
 * resets it on the device) and the speed measure (world->speed_bits); on request the contact
 * counts. */
drape_result dr_cl_particles_finish_step(dr_cl_particles *p, struct dr_cl_context *ctx,
                                         drape_world *world);
/* After a step: the fastest particle's dr_substeps_needed on the device (particle_speed), which
 * dr_cl_particles_finish_step reads into world->speed_bits. */
drape_result dr_cl_particles_speed(dr_cl_particles *p, struct dr_cl_context *ctx,
                                   const drape_world *world, struct _cl_mem *v, int phase);
drape_result dr_cl_particles_count_contacts(dr_cl_particles *p, struct dr_cl_context *ctx,
                                            uint32_t n, uint64_t *pairs);
uint64_t dr_cl_particles_bytes(const dr_cl_particles *p);

/* ---- render.c ---- */
/* Frees the renderer's state; called by drape_world_destroy before the backend goes. */
void dr_render_destroy(drape_world *world);

/* ---- cpu_step.c ---- */
/* One step of the CPU reference solver: def.substeps substeps of the PBD loop or of the
 * mass-spring integrator. */
drape_result dr_cpu_step(drape_world *world);

/* ---- bodies.c ---- */
/* Union-find over particle indices: the root of p's set (halving the path), and the union of the
 * sets of a and b under the lower root. */
uint32_t dr_root_of(uint32_t *parent, uint32_t p);
void dr_join_roots(uint32_t *parent, uint32_t a, uint32_t b);
/* Works out world->bodies from the constraints, clusters and pins; marks DR_STALE_BODIES. */
drape_result dr_bodies_build(drape_world *world);
void dr_bodies_free(dr_bodies *bodies);

/* ---- damping.c ---- */
/* The PBD paper's momentum-preserving damping of each body's velocities (in place). */
void dr_damp_velocities(drape_world *world, float k);

/* ---- mass_spring.c ---- */
/* One substep of the mass-spring mode: forces, the chosen integrator, predicted positions in p. */
void dr_mass_spring_predict(drape_world *world, float h);
/* Whether the update keeps the integrator's velocity instead of taking v = d / h: velocity Verlet
 * in the mass-spring mode (its velocity is not the displacement's). Both backends ask here. */
/* Logs once per world when a Neo-Hookean tetrahedron rings too fast for the substep to stay
 * stable (host/neo_hookean.c); checks again only when tetrahedra are added or the substep changes.
 */
void dr_neo_hookean_warn(drape_world *w);
/* In the mass-spring mode, logs once per world what of the world the mode leaves out (solved in
 * the PBD mode only). */
void dr_mass_spring_warn(drape_world *world);
int dr_keeps_integrator_velocity(const drape_world_def *def);
/* The acceleration (m/s^2) that a substep's positions follow a parabola under, for the bounces off
 * colliders (dr_contact_velocity_l): gravity under the semi-implicit Euler step of either mode,
 * none under velocity Verlet (whose bounce takes the straight segment). Both backends ask here. */
dr_vec4 dr_bounce_gravity(const drape_world_def *def);

/* ---- adjacency.c ---- */
/* The triangles (3 * count particle indices, each < n) incident to each of n particles, as CSR:
 * *offsets (n + 1) into *incident (3 * count triangle ids, increasing per particle). Both
 * malloc'ed; false when out of memory. */
bool dr_triangle_adjacency(const uint32_t *triangles, uint32_t count, uint32_t n,
                           uint32_t **offsets, uint32_t **incident);

/* ---- aero.c ---- */
void dr_aero_destroy(drape_world *world);
/* Whether lift or drag acts this step (coefficients, triangles, PBD mode). */
bool dr_aero_active(const drape_world *world);
/* Whether the world has aerodynamic triangles and a drag or lift coefficient, in either mode. */
bool dr_aero_configured(const drape_world *world);
/* Before a step: the adjacency covers every particle. */
drape_result dr_aero_prepare(drape_world *world);
/* The CPU reference: lift and drag into the velocities for a substep of h. */
void dr_aero_predict_cpu(drape_world *world, float h);
/* The aerodynamic triangles of a cloth grid (drape_cloth_def.aerodynamic). */
drape_result dr_add_cloth_aero(drape_world *world, const char *fn, uint32_t base, uint32_t nx,
                               uint32_t ny);

/* ---- balloons.c ---- */
void dr_balloons_destroy(drape_world *world);
/* Whether some balloon is projected (PBD mode). */
bool dr_balloons_active(const drape_world *world);
/* Whether check c should look again (world.c): in the PBD mode, not warned yet, and `key` or the
 * substep changed since it last looked, which it records; *h gets the substep (s). */
bool dr_substep_check_due(const drape_world *world, dr_substep_check *c, uint64_t key, double *h);
/* Warns, once per world, of a balloon whose skin is too tense for the substep to settle. */
void dr_balloons_warn(drape_world *world);
/* The CPU reference: every balloon projected once on w->d; start_substep zeroes the multipliers. */
void dr_balloons_project_cpu(drape_world *world, float h, bool start_substep);
/* qsort's comparisons of two uint32_t, of two uint64_t. */
int dr_compare_u32(const void *a, const void *b);
int dr_compare_u64(const void *a, const void *b);

/* ---- constraints.c (added) ---- */
/* The iteration-corrected PBD stiffness k' = 1 - (1 - k)^(1/iterations). */
float dr_corrected_stiffness(float k, int iterations);

/* ---- tearing.c ---- */
void dr_tear_destroy(drape_world *world);
/* A cloth def's tear_strain is 0 or in [1, 1e6]. */
bool dr_valid_tear(const drape_cloth_def *def);
/* A tearing cloth: its distances from first_distance get the def's limit (stretch links split), its
 * tear_spares particles from spares_first become the world's spares. */
drape_result dr_tear_cloth(drape_world *world, const drape_cloth_def *def, uint32_t first_distance,
                           uint32_t spares_first);
/* Whether some link is breakable: then steps run one at a time, each checked. */
bool dr_tear_active(const drape_world *world);
/* After a step: breaks or splits the links stretched past their limits. */
drape_result dr_tear_after_step(drape_world *world);

#endif
