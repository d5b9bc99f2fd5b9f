/* drape: position-based dynamics for cloth, ropes and particles, with a plain-C reference solver.
 *
 * This is the whole public API. Objects are created from `*_def` structs that a
 * `drape_default_*_def()` function fills with working defaults; change the fields you care about
 * and pass the def to the matching `*_create`/`*_add` call. There is no global state: every call
 * takes the world it acts on, so any number of worlds can live side by side in one process.
 *
 * Units are SI throughout: metres (m), seconds (s), kilograms (kg), newtons (N), radians (rad).
 *
 * Every function that can fail returns a `drape_result`. On failure it also sends one message that
 * names the function, the argument and what is wrong to the world's log callback, and it leaves the
 * world as it was.
 *
 * The solver is the PBD loop of Müller et al., "Position Based Dynamics" (2007), with substeps
 * (Macklin et al., "Small Steps in Physics Simulation", 2019) and per-constraint XPBD compliance
 * (Macklin, Müller, Chentanez, "XPBD", 2016). docs/design.md draws the picture of the code.
 */
#ifndef DRAPE_DRAPE_H
#define DRAPE_DRAPE_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>

/* The version of this header (semantic versioning; CMakeLists.txt reads it from here, and
 * drape_version() gives the library's, which differs when a program runs with another build). */
#define DRAPE_VERSION_MAJOR 0
#define DRAPE_VERSION_MINOR 1
#define DRAPE_VERSION_PATCH 0
#define DRAPE_VERSION_STRING "0.1.0"
/* One number that compares: 10000 * major + 100 * minor + patch. */
#define DRAPE_VERSION                                                                              \
    (DRAPE_VERSION_MAJOR * 10000 + DRAPE_VERSION_MINOR * 100 + DRAPE_VERSION_PATCH)

/* DRAPE_API marks the library's functions: the shared library is built with hidden visibility and
 * exports these alone, so that none of its internal symbols can clash with a program's. */
#ifndef DRAPE_API
#if defined(__GNUC__) || defined(__clang__)
#define DRAPE_API __attribute__((visibility("default")))
#else
#define DRAPE_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, DRAPE_VERSION of the build it comes from. */
DRAPE_API int drape_version(void);

/* ---------------------------------------------------------------------------------------------- */
/* Results and logging                                                                            */

typedef enum drape_result {
    DRAPE_OK = 0,
    DRAPE_ERROR_INVALID_ARGUMENT = -1, /* a def field or argument is out of range, NaN or NULL */
    DRAPE_ERROR_OUT_OF_RANGE = -2, /* an index names a particle, constraint or collider not there */
    DRAPE_ERROR_OUT_OF_MEMORY = -3, /* a host or device allocation failed */
    DRAPE_ERROR_BACKEND = -4,       /* the compute backend failed (the log names the call) */
    DRAPE_ERROR_UNSUPPORTED = -5,   /* the request is valid but this build or device cannot do it */
    DRAPE_ERROR_NON_FINITE = -6,    /* a step made the state non-finite (the log names the particle
                                       and the phase); the world keeps the state of the step */
    DRAPE_ERROR_ENVIRONMENT = -7,   /* an environment variable (DRAPE_DEVICE, DRAPE_DISTANCE_KERNEL,
                                       DRAPE_OPENCL_FP64, DRAPE_PARTICLE_*) has a value that drape
                                       refuses; the log names the variable and the values it takes */
} drape_result;

/* A short constant English name for a result, e.g. "invalid argument". Never NULL. */
DRAPE_API const char *drape_result_string(drape_result result);

typedef enum drape_log_level {
    DRAPE_LOG_ERROR = 0,
    DRAPE_LOG_WARNING = 1,
    DRAPE_LOG_INFO = 2,
} drape_log_level;

/* Receives every message of a world. `message` is valid only during the call. */
typedef void (*drape_log_fn)(drape_log_level level, const char *message, void *user);

/* The default log callback: errors and warnings to stderr, info dropped. */
DRAPE_API void drape_log_stderr(drape_log_level level, const char *message, void *user);

/* ---------------------------------------------------------------------------------------------- */
/* Limits                                                                                         */
/*
 * Every input must be finite, and within what the solver can take in float arithmetic without
 * overflowing (squared lengths, cross products of edges, compliance / h^2, 1 / mass); the calls
 * that take it fail with DRAPE_ERROR_INVALID_ARGUMENT beyond:
 *   - any component of a position, velocity, target, gravity, wind, collider position or end, and
 *     a radius: at most 1e9 in magnitude (m, m/s, m/s^2);
 *   - a particle's mass: 0 (pinned) or at least 1e-15 kg;
 *   - the substep h = dt / substeps: at least 1e-9 s; air_drag at most 1/h (the explicit drag step
 *     would overshoot the wind, and diverge above 2/h);
 *   - a compliance: at most 1e9 (m/N, rad/(N m));
 *   - dt at most DRAPE_MAX_DT, substeps and iterations at most DRAPE_MAX_SUBSTEPS and
 *     DRAPE_MAX_ITERATIONS (below drape_default_world_def).
 * What the step itself makes non-finite it reports as DRAPE_ERROR_NON_FINITE.
 */

/* ---------------------------------------------------------------------------------------------- */
/* World                                                                                          */

typedef struct drape_vec3 {
    float x, y, z;
} drape_vec3;

typedef struct drape_world drape_world;

typedef enum drape_solver_mode {
    DRAPE_MODE_PBD = 0, /* position-based dynamics, each constraint PBD or XPBD */
    /* distance constraints become Hooke springs, as in the Taichi mass-spring cloth demo */
    DRAPE_MODE_MASS_SPRING = 1,
} drape_solver_mode;

typedef enum drape_integrator {
    DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER = 0, /* v += h a(x, v); x += h v */
    DRAPE_INTEGRATOR_VELOCITY_VERLET = 1,     /* x += h v + h^2/2 a; v += h/2 (a + a') */
} drape_integrator;

typedef enum drape_color_order {
    DRAPE_COLOR_ORDER_NATURAL = 0,       /* constraints in creation order (best on grids) */
    DRAPE_COLOR_ORDER_LARGEST_FIRST = 1, /* constraints with most conflicts first */
    DRAPE_COLOR_ORDER_RANDOM = 2,        /* a seeded random order */
} drape_color_order;

typedef struct drape_coloring_stats {
    uint32_t constraints; /* constraints coloured */
    uint32_t colors;      /* colours used */
    uint32_t smallest;    /* constraints in the smallest colour */
    uint32_t largest;     /* constraints in the largest colour */
    float mean;           /* constraints per colour */
    uint32_t lower_bound; /* the most constraints on one movable particle: no colouring does with
                             fewer colours */
} drape_coloring_stats;

typedef enum drape_backend {
    DRAPE_BACKEND_CPU = 0,    /* the plain-C reference solver on one thread */
    DRAPE_BACKEND_OPENCL = 1, /* OpenCL; drape_world_create fails if no device can be used */
    DRAPE_BACKEND_AUTO = 2,   /* OpenCL where a device can be used, else the CPU with a warning */
} drape_backend;

/* Which OpenCL kernels project the constraints (kernels/project.cl). All give bitwise the same
 * results; they differ in speed and in launches per step. */
typedef enum drape_distance_kernel {
    DRAPE_DISTANCE_KERNEL_AUTO = 0, /* $DRAPE_DISTANCE_KERNEL if set, else by device type:
                                       LANES16 on CPU devices, PER_CONSTRAINT elsewhere */
    DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT =
        1,                             /* solve_distance: one constraint per work-item (GPUs) */
    DRAPE_DISTANCE_KERNEL_LANES16 = 2, /* solve_distance_x16: sixteen per work-item in float16
                                          lanes (CPU devices, which do not vectorise across
                                          work-items) */
    DRAPE_DISTANCE_KERNEL_FUSED = 3,   /* solve_fused: every constraint kind, colour, iteration
                                          and contact pass of a substep in one launch of one
                                          work-group (small cloths, where launches dominate);
                                          AUTO takes it on GPUs up to a constraint count; a
                                          world with contacts between particles runs per
                                          colour instead (their passes come between) */
    /* solve_fused_local: FUSED with each work-group's displacements in local memory (12 bytes a
     * particle) for the whole projection, where the largest group fits the device's local memory
     * (else FUSED); AUTO takes it on GPUs */
    DRAPE_DISTANCE_KERNEL_FUSED_LOCAL = 4,
    DRAPE_DISTANCE_KERNEL_COUNT = 5
} drape_distance_kernel;

/* The variant's name as $DRAPE_DISTANCE_KERNEL spells it: "auto", "per-constraint", "lanes16",
 * "fused", "fused-local"; NULL for a value that is not a variant. */
DRAPE_API const char *drape_distance_kernel_name(drape_distance_kernel kernel);

/* What the backend is set up with when the world is created. None of it can change afterwards:
 * drape_world_set_def refuses a def whose backend def differs (DRAPE_ERROR_UNSUPPORTED, naming the
 * field) and keeps the settings it had; make a new world for another backend or device. */
typedef struct drape_backend_def {
    drape_backend type;           /* default DRAPE_BACKEND_CPU */
    const char *device;           /* OpenCL device: an index or a case-insensitive part of the
                                     platform or device name; NULL or "": $DRAPE_DEVICE, else the
                                     first GPU, else the first device. Copied at creation. */
    void *gl_context;             /* OpenGL context to share buffers with (GLXContext on X11), or
                                     NULL; with gl_display, makes the OpenCL context from it so that
                                     drape_world_bind_gl_buffers works; default NULL */
    void *gl_display;             /* its display (Display * on X11); default NULL */
    uint64_t device_memory_limit; /* bytes of device memory the OpenCL backend may use; 0: all the
                                     device has; default 0 */
    uint32_t cookie; /* set by drape_default_backend_def(); a def without it is refused */
} drape_backend_def;

DRAPE_API drape_backend_def drape_default_backend_def(void);

typedef struct drape_world_def {
    drape_vec3 gravity; /* m/s^2; default (0, -9.81, 0) */
    float dt;           /* s, the length of one drape_world_step; default 1/60 */
    int substeps;       /* substeps per step, h = dt / substeps; default 4 */
    int iterations;     /* constraint iterations per substep; default 8 */
    float damping; /* PBD momentum-preserving damping k in [0, 1], applied each substep; it damps
                      only the motion that is not rigid (PBD paper 3.5, dampVelocities), body by
                      body: a body is the movable particles that constraints or a shape-matched
                      cluster join, so separate objects keep their own motion; a loose particle
                      is not damped (air_drag is); default 0 */
    float
        air_drag;           /* 1/s: each particle's velocity relaxes towards `wind` at this rate
                               (a = air_drag * (wind - v)); with no wind it is plain linear drag; default 0 */
    drape_vec3 wind;        /* m/s, the velocity of the air; default 0 */
    float collision_margin; /* m, in [0, 1e9]: particles are kept this far outside colliders;
                               default 0.005 */
    drape_solver_mode mode; /* default DRAPE_MODE_PBD */
    drape_integrator integrator;   /* used in DRAPE_MODE_MASS_SPRING; default semi-implicit Euler */
    float spring_stiffness;        /* N/m, Hooke constant of springs whose constraint has no
                                      compliance (mass-spring mode); default 1, which the default
                                      cloth (0.1 g particles, 12 springs each) takes at the default
                                      h = 1/240 s. Explicit integration needs h well below
                                      sqrt(m / (n k)) for particles of mass m on n springs: lighter
                                      particles or stiffer springs need more substeps */
    float spring_damping;          /* N s/m, damping along each spring (mass-spring mode); default
                                      0.0002; stable while h < m / (n spring_damping) */
    drape_color_order color_order; /* greedy colouring order; default natural */
    uint64_t color_seed;           /* seed of DRAPE_COLOR_ORDER_RANDOM; default 1 */
    bool color_balance;            /* even out colour sizes without adding colours; default true */
    drape_backend_def backend;     /* what the backend is set up with; fixed at creation;
                                      default drape_default_backend_def() */
    drape_distance_kernel distance_kernel; /* OpenCL distance kernel; default AUTO (see the enum) */
    bool profiling; /* OpenCL: time every launch with events, for the per-phase times of
                       drape_world_get_profile (costs host time per launch); default
                       false: the profile then counts steps and launches only, and the
                       queue is made without profiling. drape_world_set_def may turn
                       it on later (the queue is then remade with it, once) */
    /* Contacts between particles with a radius (see "Particles"): */
    float particle_static_friction; /* Coulomb coefficient that holds two touching particles
                                       together; default 0.4 */
    float
        particle_kinetic_friction; /* Coulomb coefficient that slows a sliding pair; default 0.3 */
    float particle_travel_limit;   /* the velocity limit of every particle with a radius in a
                                      world whose particles collide, near another one or not: it
                                      moves at most this many of its radii in one substep, so that
                                      two particles cannot pass through each other (fast particles
                                      first split the step: particle_max_substeps; past that the
                                      limit slows them, and the log says so once); 0: no limit;
                                      default 1 */
    int particle_max_substeps;     /* the most substeps a step is split into so that its particles
                                      with contacts keep to particle_travel_limit: a step takes
                                      the fewest substeps, from `substeps` up to this many, in
                                      which none moves more than that many radii, from its speed
                                      at the step's start plus what gravity adds over the step
                                      (times the most a bounce can speed it up: with restitution
                                      and unequal masses); only above this does the limit slow a
                                      particle. At most
                                      `substeps`: always `substeps`; default 32 */
    float contact_relaxation;      /* each pair's push-out is scaled by this over the larger of the
                                      two particles' contact counts (Jacobi averaging); in (0, 2);
                                      default 1 */
    float particle_restitution;    /* fraction of the normal approach speed two colliding
                                      particles separate with, [0, 1]; default 0 */
    int contact_passes;            /* passes of the contacts alone (between particles, then with
                                      the colliders) after each substep's constraint iterations,
                                      in a world where a cloth's, rope's or other mesh's particles
                                      collide with particles: the contacts then have the last word
                                      over the mesh's stiff constraints, so that stacked cloths
                                      keep their distance at one substep too. No effect on a
                                      world of loose particles alone. 0 .. DRAPE_MAX_ITERATIONS;
                                      default 16 */
    drape_log_fn log;              /* default drape_log_stderr */
    void *log_user;                /* passed to `log` */
    uint32_t cookie; /* set by drape_default_world_def(); a def without it is refused */
} drape_world_def;

/* The largest dt (s), substeps and iterations drape_world_create and drape_world_set_def accept;
 * scene files are held to the same limits (the scene parser reads them from here). */
#define DRAPE_MAX_DT 1.0f
#define DRAPE_MAX_SUBSTEPS 1000
#define DRAPE_MAX_ITERATIONS 1000
/* The largest magnitude (m, m/s, m/s^2) of any component of a position, velocity, target, gravity,
 * wind, collider position or end, and of a radius ("Limits" above); scene files are held to it. */
#define DRAPE_MAX_MAGNITUDE 1e9f

DRAPE_API drape_world_def drape_default_world_def(void);

/* Creates an empty world. On failure *out is NULL and the def's log callback says why.
 * Every drape_world_* function takes a NULL world without a crash: one that returns a drape_result
 * returns DRAPE_ERROR_INVALID_ARGUMENT and says "world is NULL" on stderr (there is no world to
 * hold a log callback); counts and sizes are 0, drape_world_get_def gives the default def. */
DRAPE_API drape_result drape_world_create(const drape_world_def *def, drape_world **out);
DRAPE_API void drape_world_destroy(drape_world *world);

/* The settings in force; changing them takes a whole def, validated like drape_world_create. What
 * the backend was set up with (def.backend: type, device, gl_context, gl_display,
 * device_memory_limit) cannot change: set_def refuses a def that changes it
 * (DRAPE_ERROR_UNSUPPORTED, the message naming the field) and keeps the settings it had. */
DRAPE_API drape_world_def drape_world_get_def(const drape_world *world);
DRAPE_API drape_result drape_world_set_def(drape_world *world, const drape_world_def *def);

/* Advances the world by def.dt seconds (def.substeps substeps). DRAPE_ERROR_NON_FINITE when the
 * step made a particle's position or velocity non-finite (the log names the particle and the
 * phase); the world then holds that state. */
DRAPE_API drape_result drape_world_step(drape_world *world);
/* Advances the world by `steps` steps (0: none), bitwise as that many drape_world_step calls. On
 * the OpenCL backend they are queued back to back and the host waits once, after the last (one read
 * of the non-finite check instead of one per step), so that the device does not idle between steps;
 * a non-finite state is then reported after the last step, naming the range of steps it arose in,
 * and the world holds the state after all of them. On the CPU each step is checked as
 * drape_world_step does, and the first non-finite one stops the run. */
DRAPE_API drape_result drape_world_step_n(drape_world *world, uint32_t steps);

/* Simulated time since creation, s. */
DRAPE_API double drape_world_time(const drape_world *world);

/* The backend that steps the world (AUTO resolves at creation), and its device in words
 * ("CPU reference" or the OpenCL device's description). */
DRAPE_API drape_backend drape_world_backend(const drape_world *world);
DRAPE_API const char *drape_world_device(const drape_world *world);
/* The distance kernel the OpenCL backend runs (AUTO resolved); DRAPE_DISTANCE_KERNEL_AUTO on the
 * CPU. */
DRAPE_API drape_distance_kernel drape_world_distance_kernel(const drape_world *world);

/* Where the time of the steps went, summed since creation or the last reset: device time from
 * OpenCL events on the OpenCL backend, wall time on the CPU. */
typedef struct drape_profile {
    uint64_t steps;
    uint64_t substeps;     /* substeps taken by those steps: def.substeps each, more where fast
                              particles with contacts split a step (particle_max_substeps) */
    double predict_ms;     /* external forces, damping, predicted positions (or spring forces) */
    double collide_ms;     /* collision generation (on OpenCL, in predict_ms where the prediction's
                              launch generates the contacts: no particle contacts) */
    double grid_ms;        /* the broad phase of particle contacts: velocity limit, grid, counts */
    double project_ms;     /* constraint and contact projection */
    double update_ms;      /* velocity and position update, restitution */
    uint64_t device_bytes; /* bytes held in OpenCL buffers; 0 on the CPU */
    uint64_t recolored;    /* constraints coloured again because constraints were added or removed
                              (only the types that changed are), e.g. 1 for a mouse grab */
    uint64_t launches;     /* OpenCL commands enqueued by the steps (kernels, fills, reads); 0 on
                              the CPU */
    uint64_t read_bytes;   /* bytes read back from the OpenCL device since the last reset (by the
                              steps and by the calls that read the world); 0 on the CPU */
    uint64_t reads;        /* reads from the OpenCL device since the last reset, each a wait for
                              it (a step makes one); 0 on the CPU */
    uint32_t work_groups;  /* work-groups of the fused projection (DRAPE_DISTANCE_KERNEL_FUSED or
                              _FUSED_LOCAL), one per independent cloth or group of small pieces; 0
                              when the world does not run it, and on the CPU */
    uint32_t programs_built; /* OpenCL kernel files built for the world so far (compiled, or loaded
                                from the kernel cache); a file is built when the world first needs
                                it, e.g. the fused projection only for worlds that may take it; 0
                                on the CPU */
} drape_profile;

DRAPE_API drape_result drape_world_get_profile(const drape_world *world, drape_profile *out);
DRAPE_API void drape_world_reset_profile(drape_world *world);

/* Global quantities, computed where the state lives (CLBlast reductions on the OpenCL backend),
 * summed in double on both backends (in float on a device without double precision). */
typedef struct drape_diagnostics {
    double kinetic_energy; /* J, of the movable particles */
    double
        distance_residual; /* m, root mean square of |xa - xb| - rest over distance constraints */
} drape_diagnostics;

DRAPE_API drape_result drape_world_get_diagnostics(drape_world *world, drape_diagnostics *out);

/* ---------------------------------------------------------------------------------------------- */
/* Rendering                                                                                      */
/*
 * A viewer draws triangles over the particles with per-vertex normals. The world computes the
 * normals where the state lives (a kernel on the OpenCL backend). With OpenGL-OpenCL sharing
 * (def.backend.gl_context and cl_khr_gl_sharing) it writes positions and normals straight into the
 * viewer's GL buffers; otherwise the viewer reads them with drape_world_get_render_data and uploads
 * them.
 */

/* The triangles to render: 3 * count particle indices, counter-clockwise seen from the front.
 * Replaces the previous set. */
DRAPE_API drape_result drape_world_set_triangles(drape_world *world, const uint32_t *indices,
                                                 uint32_t count);

/* The triangles to render as they are now: writes 3 * count particle indices to out (which may be
 * NULL) and returns the count. They are those of drape_world_set_triangles, except that a vertex
 * split by tearing (drape_world_set_distance_break) moves the triangles on the far side of its
 * plane to the new particle, so that the tear opens. */
DRAPE_API uint32_t drape_world_get_triangles(const drape_world *world, uint32_t *out);

/* Positions (m) and unit area-weighted vertex normals of particles first .. first + count - 1, 4
 * floats each (w = 0), as drape_world_get_positions takes its range; a particle on no triangle gets
 * a zero normal. */
DRAPE_API drape_result drape_world_get_render_data(drape_world *world, uint32_t first,
                                                   uint32_t count, float *positions,
                                                   float *normals);

/* Whether the world can write into GL buffers directly (OpenCL backend created with
 * backend.gl_context on a device with cl_khr_gl_sharing). */
DRAPE_API bool drape_world_has_gl_sharing(const drape_world *world);

/* Shares two GL buffer objects, each of 16 bytes per particle, with the world. Fails with
 * DRAPE_ERROR_UNSUPPORTED when drape_world_has_gl_sharing is false. */
DRAPE_API drape_result drape_world_bind_gl_buffers(drape_world *world, uint32_t positions_vbo,
                                                   uint32_t normals_vbo);

/* Writes the current positions and normals into the bound GL buffers (acquire, kernel, release).
 * Call with the GL context current, after glFinish or with GL work on the buffers complete. */
DRAPE_API drape_result drape_world_update_gl_buffers(drape_world *world);

/* ---------------------------------------------------------------------------------------------- */
/* OpenCL devices                                                                                 */

typedef struct drape_device_info {
    uint32_t index; /* what drape_world_def.backend.device or $DRAPE_DEVICE can name */
    char platform[128];
    char name[128];
    char type[16]; /* "GPU", "CPU", "accelerator", ... */
    char driver[64];
    uint64_t global_memory; /* bytes */
    uint32_t compute_units;
    char vendor[128]; /* the platform's vendor, e.g. "NVIDIA Corporation", "The pocl project" */
} drape_device_info;

/* Lists up to `capacity` OpenCL devices into out (may be NULL when capacity is 0); *count gets how
 * many there are. No OpenCL platform: DRAPE_ERROR_UNSUPPORTED with a message to `log` (NULL:
 * stderr). */
DRAPE_API drape_result drape_list_devices(drape_device_info *out, uint32_t capacity,
                                          uint32_t *count, drape_log_fn log, void *log_user);

/* The device a world would choose for this selector (as drape_world_def.backend.device: NULL or ""
 * reads $DRAPE_DEVICE, else the first GPU, else the first device), without creating anything: a
 * viewer asks it before handing its OpenGL context to OpenCL. Fails like world creation would, with
 * the same message to `log` (NULL: stderr). */
DRAPE_API drape_result drape_choose_device(const char *selector, drape_device_info *out,
                                           drape_log_fn log, void *log_user);

/* ---------------------------------------------------------------------------------------------- */
/* Particles                                                                                      */

/* Particles with a radius > 0 collide with each other: those of different collision groups always,
 * those of one group when both collide with their own group. A radius of 0 (the default) keeps a
 * particle out of particle contacts altogether. Cloths and
 * ropes get a group of their own, and their particles that are neighbours in the rest pose (closer
 * than 1.5 collision distances) never collide with each other. Colliders keep a loose particle's
 * centre its radius plus the collision margin away; a cloth's or rope's, the margin alone (their
 * radius is their thickness against each other). */
#define DRAPE_GROUP_MAX 0x3fffffffu /* the largest collision group */
#define DRAPE_GROUP_NEW 0xffffffffu /* builders: a new group, one above every group in use */

typedef struct drape_particle_def {
    drape_vec3 position; /* m */
    drape_vec3 velocity; /* m/s */
    float mass;          /* kg; 0 pins the particle (infinite mass: it never moves); default 1 */
    float radius;        /* m, the contact radius; 0: no contacts with other particles; default 0 */
    uint32_t group;      /* collision group, 0 .. DRAPE_GROUP_MAX; default 0 */
    bool self_collide;   /* collides with particles of its own group; default true */
} drape_particle_def;

DRAPE_API drape_particle_def drape_default_particle_def(void);

/* Appends `count` particles; their indices are *first_index ... *first_index + count - 1.
 * first_index may be NULL. */
DRAPE_API drape_result drape_world_add_particles(drape_world *world, const drape_particle_def *defs,
                                                 uint32_t count, uint32_t *first_index);
DRAPE_API uint32_t drape_world_particle_count(const drape_world *world);

/* Replaces one particle's position, velocity and mass (0 pins it). Its radius, group and
 * self_collide stay those it was added with (the def's are not read). */
DRAPE_API drape_result drape_world_set_particle(drape_world *world, uint32_t index,
                                                const drape_particle_def *def);

/* Copies positions (m) / velocities (m/s) of particles first .. first + count - 1 into out. */
DRAPE_API drape_result drape_world_get_positions(const drape_world *world, uint32_t first,
                                                 uint32_t count, drape_vec3 *out);
DRAPE_API drape_result drape_world_get_velocities(const drape_world *world, uint32_t first,
                                                  uint32_t count, drape_vec3 *out);
/* Copies contact radii (m). */
DRAPE_API drape_result drape_world_get_radii(const drape_world *world, uint32_t first,
                                             uint32_t count, float *out);

/* The broad phase and the contacts between particles, as of the last substep. */
typedef struct drape_contact_stats {
    uint32_t particles;      /* particles with a radius (in the grid) */
    uint32_t buckets;        /* buckets of the hashed grid (a power of two, about 2 per particle) */
    float cell_size;         /* m, the grid's cell: the largest collision distance */
    uint64_t grid_bytes;     /* bytes the grid and the contact pass hold (host or device) */
    uint32_t contacts;       /* pairs within their collision distance at the substep's start */
    uint32_t fullest_bucket; /* particles in the fullest bucket */
    bool enabled;            /* some pair of particles can collide (else the pass is skipped) */
} drape_contact_stats;

DRAPE_API drape_result drape_world_get_contact_stats(drape_world *world, drape_contact_stats *out);

/* Copies masses (kg, 0 = pinned). */
DRAPE_API drape_result drape_world_get_masses(const drape_world *world, uint32_t first,
                                              uint32_t count, float *out);

/* ---------------------------------------------------------------------------------------------- */
/* Constraints                                                                                    */
/*
 * Each constraint is either PBD or XPBD, chosen per constraint by its `model`:
 *   DRAPE_STIFFNESS_PBD   stiffness k in [0, 1], corrected for the iteration count n as
 *                         k' = 1 - (1 - k)^(1/n), so that the stiffness does not depend on n (PBD
 *                         paper 3.3); `compliance` must stay 0;
 *   DRAPE_STIFFNESS_XPBD  compliance >= 0 (the inverse stiffness; m/N for distances, attachments
 *                         and tethers, rad/(N m) for bending angles, m^6/J for volumes) and lambda
 *                         accumulated per substep; `stiffness` must stay 1. Compliance 0 is a hard
 *                         constraint, like PBD with k = 1.
 * A def that sets the field its model does not read (a compliance with PBD, a stiffness other than
 * 1 with XPBD) is refused with DRAPE_ERROR_INVALID_ARGUMENT, so that neither is silently ignored.
 *
 * A rest length, rest angle, tether length or rest volume given as DRAPE_REST_FROM_POSITIONS (the
 * default of every def) is taken from the particles' positions when the constraint is added; any
 * other value must be finite and in the field's range (a negative length is refused, not read as
 * "from the positions").
 */

/* How a constraint's stiffness is given; see above. */
typedef enum drape_stiffness_model {
    DRAPE_STIFFNESS_PBD = 0,  /* `stiffness`, k in [0, 1] */
    DRAPE_STIFFNESS_XPBD = 1, /* `compliance` >= 0 */
} drape_stiffness_model;

/* The rest value that means "the current one, from the particles' positions": a value outside the
 * range of every rest field (lengths are >= 0, angles in [-pi, pi], volumes > 0). */
#define DRAPE_REST_FROM_POSITIONS (-FLT_MAX)

/* Stiffness of one constraint or family of constraints (the builders take one per family). A
 * zero-initialised one is PBD with k = 0; drape_stiffness_pbd and drape_stiffness_xpbd make one. */
typedef struct drape_stiffness {
    float stiffness;             /* PBD k in [0, 1]; 1 with XPBD */
    float compliance;            /* XPBD, >= 0; 0 with PBD */
    drape_stiffness_model model; /* which of the two is read */
} drape_stiffness;

/* {k, 0, DRAPE_STIFFNESS_PBD} and {1, compliance, DRAPE_STIFFNESS_XPBD}. */
DRAPE_API drape_stiffness drape_stiffness_pbd(float k);
DRAPE_API drape_stiffness drape_stiffness_xpbd(float compliance);

typedef enum drape_distance_kind {
    DRAPE_DISTANCE_STRETCH = 0, /* structural springs of a cloth, links of a rope */
    DRAPE_DISTANCE_SHEAR = 1,   /* diagonals of a cloth quad */
    DRAPE_DISTANCE_BEND = 2,    /* skip-one springs that resist bending */
} drape_distance_kind;

typedef struct drape_distance_def {
    uint32_t a, b;               /* particle indices, a != b */
    float rest_length;           /* m, in [0, 1e9]; DRAPE_REST_FROM_POSITIONS (the default) takes
                                    the current distance between a and b */
    float stiffness;             /* PBD k in [0, 1]; default 1 */
    float compliance;            /* m/N, >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
    drape_distance_kind kind;    /* for statistics and stress display only; default stretch */
    uint32_t cookie; /* set by drape_default_distance_def(); a def without it is refused */
} drape_distance_def;

DRAPE_API drape_distance_def drape_default_distance_def(void);
/* out_id may be NULL. Ids count up from 0 in the order of creation. */
DRAPE_API drape_result drape_world_add_distance(drape_world *world, const drape_distance_def *def,
                                                uint32_t *out_id);

/* The dihedral-angle bending constraint between triangles (edge0, edge1, wing0) and
 * (edge1, edge0, wing1) that share the edge edge0-edge1 (PBD paper, appendix A). */
typedef struct drape_dihedral_def {
    uint32_t edge0, edge1, wing0, wing1; /* four distinct particle indices */
    float rest_angle; /* rad in [-pi, pi]: the signed angle between the two triangle normals, 0 when
                         flat, positive when wing1 folds towards the front of the first triangle
                         (the side from which edge0, edge1, wing0 run counter-clockwise);
                         DRAPE_REST_FROM_POSITIONS (the default) takes the current angle */
    float stiffness;  /* PBD k in [0, 1]; default 1 */
    float compliance; /* rad/(N m), >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
    uint32_t cookie; /* set by drape_default_dihedral_def(); a def without it is refused */
} drape_dihedral_def;

DRAPE_API drape_dihedral_def drape_default_dihedral_def(void);
DRAPE_API drape_result drape_world_add_dihedral(drape_world *world, const drape_dihedral_def *def,
                                                uint32_t *out_id);

/* Ties one particle to a point in space that the user can move each step: a pin that moves, a mouse
 * grab, an inverse-kinematics target. Its rest length is 0. */
typedef struct drape_attachment_def {
    uint32_t particle;
    drape_vec3 target;           /* m */
    float stiffness;             /* PBD k in [0, 1]; default 1 */
    float compliance;            /* m/N, >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
    uint32_t cookie; /* set by drape_default_attachment_def(); a def without it is refused */
} drape_attachment_def;

DRAPE_API drape_attachment_def drape_default_attachment_def(void);

/* An attachment's id: its slot and that slot's generation (after Box2D's b2BodyId). A removed
 * attachment's slot is reused by a later add with the next generation, so the id of a removed
 * attachment is refused (DRAPE_ERROR_OUT_OF_RANGE) rather than naming the new one; a
 * zero-initialised id names nothing. */
typedef struct drape_attachment_id {
    uint32_t index;      /* the slot, as drape_world_get_coloring and the solver count them */
    uint32_t generation; /* >= 1 for an id the world gave out */
} drape_attachment_id;

/* The id stays valid until the attachment is removed. */
DRAPE_API drape_result drape_world_add_attachment(drape_world *world,
                                                  const drape_attachment_def *def,
                                                  drape_attachment_id *out_id);
DRAPE_API drape_result drape_world_set_attachment_target(drape_world *world, drape_attachment_id id,
                                                         drape_vec3 target);
DRAPE_API drape_result drape_world_remove_attachment(drape_world *world, drape_attachment_id id);

/* A tether (long-range attachment, Kim, Chentanez, Müller, "Long Range Attachments", SCA 2012):
 * the one-sided C = |p - anchor| - max_length <= 0, projected only while the particle is farther
 * from its anchor than max_length. A tether moves only the particle, never its anchor (the
 * paper's attachment point: pinned, or held by an attachment), so that a hanging cloth cannot
 * stretch however few the iterations. The cloth builder makes one from every
 * movable particle to its nearest pinned particle (drape_cloth_def.tethers). Solved in
 * DRAPE_MODE_PBD only, after the other constraints. Tearing (drape_world_set_distance_break)
 * removes the tether of a particle it splits and of one it cuts off from the anchor (no chain of
 * distance links left between them): drape_world_constraint_count counts the rest. */
typedef struct drape_tether_def {
    uint32_t particle, anchor; /* particle indices, distinct; the tether never moves the anchor */
    float max_length;          /* m, in [0, 1e10]; DRAPE_REST_FROM_POSITIONS (the default) takes the
                                  current distance between particle and anchor */
    float stiffness;           /* PBD k in [0, 1]; default 1 */
    float compliance;          /* m/N, >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
    uint32_t cookie; /* set by drape_default_tether_def(); a def without it is refused */
} drape_tether_def;

DRAPE_API drape_tether_def drape_default_tether_def(void);
DRAPE_API drape_result drape_world_add_tether(drape_world *world, const drape_tether_def *def,
                                              uint32_t *out_id);
/* The tether `id` as stored: its max_length resolved (m). A tether that a tear removed keeps its id
 * and is copied as it was; it no longer counts in drape_world_constraint_count, and
 * drape_world_get_constraint_colors gives UINT32_MAX for it (as for a broken distance). */
DRAPE_API drape_result drape_world_get_tether(const drape_world *world, uint32_t id,
                                              drape_tether_def *out);

/* Tethers to the nearest of some anchors, as the cloth builder makes them for pins, for a cloth or
 * rope held some other way (by attachments, say): every movable particle of [first_particle,
 * first_particle + particle_count) that is not itself an anchor gets a tether to the anchor nearest
 * to it now (ties to the lower index), max_length the current distance (m). anchors: particle
 * indices, in any order (the tethers never move them). O((particles + anchors) log anchors). A
 * tether whose particle a tear cuts off from its anchor (no chain of distance links left between
 * them) is removed after that step, so a torn-off piece falls. */
DRAPE_API drape_result drape_world_add_nearest_tethers(drape_world *world, uint32_t first_particle,
                                                       uint32_t particle_count,
                                                       const uint32_t *anchors,
                                                       uint32_t anchor_count,
                                                       drape_stiffness stiffness);

/* The volume of a tetrahedron (Müller et al., "Position Based Dynamics", 2007, section 4.3 with
 * k_s = 1): C = 6 (V - V0), where 6 V = (p1 - p0) . ((p2 - p0) x (p3 - p0)) is positive when
 * p1 - p0, p2 - p0, p3 - p0 make a right-handed frame (p0 = 0, p1 = x, p2 = y, p3 = z). With
 * compliance 0 it keeps each tetrahedron's volume; XPBD compliance is in m^6/J (C is in m^3). */
typedef struct drape_volume_def {
    uint32_t particles[4]; /* distinct particle indices */
    float rest_volume;     /* m^3, in (0, 1e9]; DRAPE_REST_FROM_POSITIONS (the default) takes the
                              current volume, which must then be positive (not inverted) and not
                              degenerate */
    float stiffness;       /* PBD k in [0, 1]; default 1 */
    float compliance;      /* m^6/J, >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
    uint32_t cookie; /* set by drape_default_volume_def(); a def without it is refused */
} drape_volume_def;

DRAPE_API drape_volume_def drape_default_volume_def(void);
DRAPE_API drape_result drape_world_add_volume(drape_world *world, const drape_volume_def *def,
                                              uint32_t *out_id);
/* The volume constraint `id` as stored: its rest_volume resolved (m^3). */
DRAPE_API drape_result drape_world_get_volume(const drape_world *world, uint32_t id,
                                              drape_volume_def *out);

/* The stable Neo-Hookean material of one tetrahedron as XPBD constraints, after Macklin and
 * Müller, "A Constraint-based Formulation of Stable Neo-Hookean Materials" (2021): a deviatoric
 * term mu/2 |F|^2 (the nine entries of F as constraints, the energy of their C_D = sqrt(tr(F^T F)))
 * and a hydrostatic C_H = det F - gamma, with compliances from the material, solved together
 * (kernels/drape_shared.h has the equations). The rest shape is the particles' current positions,
 * which must be a positively oriented (as for drape_volume_def), non-degenerate tetrahedron. Its
 * small-strain response is linear elasticity with this Young's modulus and Poisson's ratio. */
typedef struct drape_neo_hookean_def {
    uint32_t particles[4]; /* distinct particle indices */
    float youngs_modulus;  /* Pa, > 0 and finite; default 1e5 */
    float poisson_ratio;   /* in (-1, 0.5); default 0.3 */
} drape_neo_hookean_def;

DRAPE_API drape_neo_hookean_def drape_default_neo_hookean_def(void);
DRAPE_API drape_result drape_world_add_neo_hookean(drape_world *world,
                                                   const drape_neo_hookean_def *def,
                                                   uint32_t *out_id);
DRAPE_API drape_result drape_world_get_neo_hookean(const drape_world *world, uint32_t id,
                                                   drape_neo_hookean_def *out);

/* A shape-matched cluster (Müller et al., "Meshless Deformations Based on Shape Matching", 2005):
 * its particles' current positions are its rest shape; every iteration the cluster is fitted by a
 * rotation and a translation to where its particles are predicted (the rotation found as in Müller
 * et al., "A Robust Method to Extract the Rotational Part of Deformations", 2016) and each particle
 * is pulled towards its fitted place by the stiffness: 1 keeps the cluster rigid (a rigid body made
 * of particles), less makes it soft (iteration-corrected like a PBD stiffness). Every cluster is
 * fitted once more after the contacts of the last iteration, so a rigid one ends each substep
 * rigid. Clusters may share particles; the particles must be movable when the cluster is added. */
typedef struct drape_shape_match_def {
    const uint32_t *particles; /* count distinct particle indices */
    uint32_t count;            /* 2 .. 2^24 */
    float stiffness;           /* in (0, 1]; default 1 (rigid) */
    float contact_radius;      /* m, >= 0: > 0 gives every particle of the cluster this contact
                                  radius and `group` (docs/particle-contacts.md), replacing theirs,
                                  with no contacts among themselves; 0: leaves them as they are;
                                  default 0 */
    uint32_t group;            /* with contact_radius > 0: 0 .. DRAPE_GROUP_MAX, or
                                  DRAPE_GROUP_NEW (a group of its own); default DRAPE_GROUP_NEW */
} drape_shape_match_def;

DRAPE_API drape_shape_match_def drape_default_shape_match_def(void);
DRAPE_API drape_result drape_world_add_shape_match(drape_world *world,
                                                   const drape_shape_match_def *def,
                                                   uint32_t *out_id);
DRAPE_API uint32_t drape_world_shape_match_count(const drape_world *world);

typedef enum drape_constraint_type {
    DRAPE_CONSTRAINT_DISTANCE = 0,
    DRAPE_CONSTRAINT_DIHEDRAL = 1,
    DRAPE_CONSTRAINT_ATTACHMENT = 2,
    DRAPE_CONSTRAINT_TETHER = 3,
    DRAPE_CONSTRAINT_VOLUME = 4,
    DRAPE_CONSTRAINT_NEO_HOOKEAN = 5,
    DRAPE_CONSTRAINT_TYPE_COUNT = 6,
} drape_constraint_type;

/* Number of live constraints of a type. */
DRAPE_API uint32_t drape_world_constraint_count(const drape_world *world,
                                                drape_constraint_type type);

/* Number of distance constraints of one kind (stretch, shear, bend). */
DRAPE_API uint32_t drape_world_distance_count(const drape_world *world, drape_distance_kind kind);

/* Copies distance constraints first .. first + count - 1 (ids, in the order of creation; distances
 * are never removed, so their ids are 0 .. drape_world_constraint_count - 1) as defs: particles,
 * rest length (m, the one in force), model, stiffness and compliance (the one the model does not
 * read at its neutral value, so a def read back goes back in) and kind. What a viewer draws. Links
 * that broke (drape_world_set_distance_break) keep their ids and are copied too; they no longer
 * count in drape_world_constraint_count, and drape_world_get_constraint_colors gives UINT32_MAX. */
DRAPE_API drape_result drape_world_get_distances(const drape_world *world, uint32_t first,
                                                 uint32_t count, drape_distance_def *out);
/* The same for dihedral constraints (never removed either). */
DRAPE_API drape_result drape_world_get_dihedrals(const drape_world *world, uint32_t first,
                                                 uint32_t count, drape_dihedral_def *out);

/* Sets the stiffness of every constraint of `type` (for distances, of the kinds in `kinds`, a mask
 * of 1 << drape_distance_kind; ignored for the other types), PBD or XPBD as `stiffness.model` says
 * (compliance in m/N, or rad/(N m) for dihedrals). Takes effect at the next step without
 * recolouring. */
DRAPE_API drape_result drape_world_set_stiffness(drape_world *world, drape_constraint_type type,
                                                 uint32_t kinds, drape_stiffness stiffness);

/* Bytes of host memory the world holds: its arrays at their allocated sizes. */
DRAPE_API uint64_t drape_world_host_bytes(const drape_world *world);

/* Bytes this process can still allocate, as far as the system tells: the smaller of the memory the
 * system has available (MemAvailable plus free swap) and what the address-space limit (RLIMIT_AS)
 * leaves; UINT64_MAX when neither is known. The builders check what they will need against it
 * first, and fail with DRAPE_ERROR_OUT_OF_MEMORY and a message naming the bytes. */
DRAPE_API uint64_t drape_host_memory_available(void);

/* ---------------------------------------------------------------------------------------------- */
/* Colouring                                                                                      */
/*
 * Constraints of one colour share no movable particle, so a colour can be projected in parallel;
 * the solver projects type by type and, within a type, colour by colour, on every backend
 * (Fratarcangeli & Pellacini, "Towards a Massively Parallel Solver for PBD", SIGRAD 2014).
 * The world recolours itself whenever constraints are added or removed.
 */

DRAPE_API drape_result drape_world_get_coloring(const drape_world *world,
                                                drape_constraint_type type,
                                                drape_coloring_stats *out);

/* ---------------------------------------------------------------------------------------------- */
/* Colliders                                                                                      */

typedef enum drape_collider_type {
    DRAPE_COLLIDER_PLANE = 0,  /* the half-space below the plane through `position` with `normal` */
    DRAPE_COLLIDER_SPHERE = 1, /* centre `position`, `radius` */
    DRAPE_COLLIDER_CAPSULE = 2, /* segment `position`..`end`, `radius` */
} drape_collider_type;

typedef struct drape_collider_def {
    drape_collider_type type; /* default plane */
    drape_vec3 position;      /* m: a point on the plane, the sphere's centre, a capsule end */
    drape_vec3 normal;        /* plane only: the outward normal, need not be unit; default +y */
    drape_vec3 end;           /* m, capsule only: the other end of its segment */
    float radius;             /* m, sphere and capsule; must be > 0 */
    drape_vec3 velocity;      /* m/s: a prescribed motion, position(t) = position + velocity t */
    float static_friction;    /* Coulomb coefficient that holds a particle at rest; default 0.4 */
    float kinetic_friction;   /* Coulomb coefficient that slows a sliding particle; default 0.3 */
    float restitution; /* fraction of the normal approach speed returned, [0, 1]; default 0 */
    uint32_t cookie;   /* set by drape_default_collider_def(); a def without it is refused */
} drape_collider_def;

DRAPE_API drape_collider_def drape_default_collider_def(void);
DRAPE_API drape_result drape_world_add_collider(drape_world *world, const drape_collider_def *def,
                                                uint32_t *out_id);
/* Replaces a collider's def; its motion restarts from `position` at the current time. */
DRAPE_API drape_result drape_world_set_collider(drape_world *world, uint32_t id,
                                                const drape_collider_def *def);
DRAPE_API uint32_t drape_world_collider_count(const drape_world *world);
/* An open box of five planes, each drape_default_collider_def() otherwise: the floor y = 0 (normal
 * +y) and four walls x = -half, x = half, z = -half, z = half (m), facing in. Fills out[0..4] (the
 * floor first); add them with drape_world_add_collider. */
DRAPE_API void drape_open_box_colliders(float half, drape_collider_def out[5]);

/* Signed distance (m) from `point` to collider `id` at the current time, negative inside; the
 * collision margin is not included. */
DRAPE_API drape_result drape_world_collider_distance(const drape_world *world, uint32_t id,
                                                     drape_vec3 point, float *out_distance);

/* ---------------------------------------------------------------------------------------------- */
/* Builders                                                                                       */

/* Which particles of a cloth grid are pinned. Grid particle (i, j) sits at
 * origin + u_axis * i / (nx - 1) + v_axis * j / (ny - 1). Combine with |. */
typedef enum drape_cloth_pin {
    DRAPE_PIN_NONE = 0,
    DRAPE_PIN_CORNER_00 = 1 << 0,    /* (0, 0): the origin */
    DRAPE_PIN_CORNER_10 = 1 << 1,    /* (nx-1, 0) */
    DRAPE_PIN_CORNER_01 = 1 << 2,    /* (0, ny-1) */
    DRAPE_PIN_CORNER_11 = 1 << 3,    /* (nx-1, ny-1) */
    DRAPE_PIN_ROW_FIRST = 1 << 4,    /* every (i, 0) */
    DRAPE_PIN_ROW_LAST = 1 << 5,     /* every (i, ny-1) */
    DRAPE_PIN_COLUMN_FIRST = 1 << 6, /* every (0, j) */
    DRAPE_PIN_COLUMN_LAST = 1 << 7,  /* every (nx-1, j) */
} drape_cloth_pin;

typedef enum drape_bending {
    DRAPE_BENDING_NONE = 0,
    DRAPE_BENDING_SKIP_ONE = 1, /* distance springs between particles two apart in rows/columns */
    DRAPE_BENDING_DIHEDRAL = 2, /* a dihedral constraint across every interior triangle edge */
} drape_bending;

typedef struct drape_cloth_def {
    uint32_t nx, ny;                 /* particles along u and v, each >= 2; default 32 x 32 */
    drape_vec3 origin;               /* m, particle (0, 0); default (-0.5, 1, -0.5) */
    drape_vec3 u_axis;               /* m, from particle (0, 0) to (nx-1, 0); default (1, 0, 0) */
    drape_vec3 v_axis;               /* m, from particle (0, 0) to (0, ny-1); default (0, 0, 1);
                                        u_axis and v_axis must span an area (neither zero, not
                                        parallel) */
    drape_vec3 velocity;             /* m/s, initial velocity of every particle; default 0 */
    float mass;                      /* kg, the whole cloth, spread evenly; default 0.1 */
    uint32_t pins;                   /* drape_cloth_pin flags; default DRAPE_PIN_NONE */
    bool shear;                      /* add the two diagonals of every quad; default true */
    drape_bending bending;           /* default DRAPE_BENDING_SKIP_ONE */
    drape_stiffness stretch;         /* default PBD k = 1 */
    drape_stiffness shear_stiffness; /* default PBD k = 1 */
    drape_stiffness bend_stiffness;  /* default PBD k = 0.2 */
    bool tethers; /* a pinned cloth gets a tether from every movable particle to its
                     nearest pinned particle (by rest distance; ties to the lowest index),
                     with that distance as max_length; default true */
    drape_stiffness tether_stiffness; /* default PBD k = 1 */
    float radius;        /* m, the particles' contact radius; < 0: half the rest spacing (the
                            cloth's thickness is then one spacing); 0: no particle contacts;
                            default -1 */
    uint32_t group;      /* collision group; default DRAPE_GROUP_NEW */
    bool self_collision; /* the cloth collides with itself; default false */
    bool aerodynamic;    /* its triangles feel lift and drag (drape_world_set_aero); default true */
    float tear_strain;   /* >= 1: the cloth tears where a link is stretched past tear_strain times
                            its rest length (drape_world_set_distance_break); 0: never; default 0 */
    uint32_t tear_spares; /* particles reserved for the tears (pinned and unused until a vertex
                             splits), after the grid's: particle_count is nx * ny + tear_spares;
                             default 0 */
    uint32_t cookie;      /* set by drape_default_cloth_def(); a def without it is refused */
} drape_cloth_def;

DRAPE_API drape_cloth_def drape_default_cloth_def(void);

/* What a builder added: contiguous index ranges in the world. The cloth's particle (i, j) is
 * first_particle + j * nx + i; its quads are split into triangles along the (i,j)-(i+1,j+1)
 * diagonal. */
typedef struct drape_build_info {
    uint32_t first_particle, particle_count;
    uint32_t first_distance, distance_count;
    uint32_t first_dihedral, dihedral_count;
    uint32_t first_tether, tether_count;
    uint32_t first_volume, volume_count;
    uint32_t first_neo_hookean, neo_hookean_count;
} drape_build_info;

DRAPE_API drape_result drape_world_add_cloth(drape_world *world, const drape_cloth_def *def,
                                             drape_build_info *out_info);

/* The triangles of an nx x ny cloth whose particle (i, j) is first_particle + j * nx + i (as
 * drape_world_add_cloth builds it): quad (i, j) split along its (i,j)-(i+1,j+1) diagonal, as the
 * dihedral constraints hinge, into (00, 10, 11) and (00, 11, 01), counter-clockwise seen from the
 * side u_axis x v_axis points to. Writes 3 particle indices a triangle to out (which may be NULL)
 * and returns the count, 2 (nx - 1)(ny - 1); 0 when nx or ny is below 2, or when the indices (3 a
 * triangle) or the last particle's index do not fit in 32 bits. */
DRAPE_API uint32_t drape_cloth_triangles(uint32_t nx, uint32_t ny, uint32_t first_particle,
                                         uint32_t *out);

typedef struct drape_rope_def {
    uint32_t count;          /* particles, >= 2; default 16 */
    drape_vec3 start, end;   /* m, the first and the last particle, distinct; default (0,1,0) ..
                                (1,1,0) */
    float mass;              /* kg, the whole rope; default 0.1 */
    bool pin_start, pin_end; /* default true, false */
    drape_stiffness stretch; /* links between neighbours; default PBD k = 1 */
    bool bending;            /* skip-one springs; default false */
    drape_stiffness bend_stiffness; /* default PBD k = 0.2 */
    bool tethers; /* a pinned rope gets a tether from every movable particle to its nearer pinned
                     end, with the distance along the rope as max_length, so that it cannot stretch
                     however few the iterations; they cap an elastic (compliant) stretch at the
                     rest length too, so turn them off for a rope meant to stretch; default true */
    drape_stiffness tether_stiffness; /* default PBD k = 1 */
    float radius;        /* m, contact radius; < 0: half the rest spacing; 0: none; default -1 */
    uint32_t group;      /* collision group; default DRAPE_GROUP_NEW */
    bool self_collision; /* the rope collides with itself; default false */
    uint32_t cookie;     /* set by drape_default_rope_def(); a def without it is refused */
} drape_rope_def;

DRAPE_API drape_rope_def drape_default_rope_def(void);
DRAPE_API drape_result drape_world_add_rope(drape_world *world, const drape_rope_def *def,
                                            drape_build_info *out_info);

/* A soft box: a grid of nx x ny x nz particles filling origin .. origin + size, each cubic cell
 * split into six tetrahedra around a body diagonal (Kuhn's split, mirrored along each axis in the
 * cells of odd index along it, so that no direction is favoured and the mesh stays conforming),
 * with a volume constraint per tetrahedron and a distance constraint along
 * every tetrahedron edge (kind stretch). Particle (i, j, k) is first_particle + (k ny + j) nx + i.
 */
typedef struct drape_soft_box_def {
    uint32_t nx, ny, nz;    /* particles per axis, each >= 2; default 4 x 4 x 4 */
    drape_vec3 origin;      /* m, the corner particle (0, 0, 0); default (-0.25, 1, -0.25) */
    drape_vec3 size;        /* m, each component > 0; default (0.5, 0.5, 0.5) */
    drape_vec3 velocity;    /* m/s, of every particle; default 0 */
    float mass;             /* kg, the whole box, spread evenly; default 1 */
    drape_stiffness edges;  /* the edge distances; default PBD k = 0.5 */
    drape_stiffness volume; /* the tetrahedra's volumes; default XPBD compliance 0 (hard) */
    float youngs_modulus;   /* Pa; > 0 makes the box a Neo-Hookean solid instead (a
                               drape_neo_hookean_def per tetrahedron, no edges or volumes, the mass
                               lumped by tetrahedron volume as in drape_tet_mesh_def); default 0 */
    float poisson_ratio;    /* with youngs_modulus > 0, in (-1, 0.5); default 0.3 */
    float contact_radius;   /* m, >= 0: the particles' radius in contacts with other particles, as
                               drape_tet_mesh_def's; 0: none; default 0 */
    uint32_t group;         /* their collision group, as drape_tet_mesh_def's; default
                               DRAPE_GROUP_NEW */
    uint32_t cookie;        /* set by drape_default_soft_box_def(); a def without it is refused */
} drape_soft_box_def;

DRAPE_API drape_soft_box_def drape_default_soft_box_def(void);
DRAPE_API drape_result drape_world_add_soft_box(drape_world *world, const drape_soft_box_def *def,
                                                drape_build_info *out_info);

/* A body made of tetrahedra (a TetGen mesh, say): its vertices become particles, each given a
 * quarter of the mass of every tetrahedron it is a corner of (density times rest volume), and each
 * tetrahedron becomes either a Neo-Hookean pair (youngs_modulus > 0) or a volume constraint plus a
 * distance constraint along each of its edges (shared edges once). Tetrahedra are given as for
 * drape_volume_def: p1 - p0, p2 - p0, p3 - p0 right-handed; an inverted or degenerate one, or a
 * vertex of no tetrahedron, is refused with its index named. Vertex i is particle first_particle +
 * i.
 */
typedef struct drape_tet_mesh_def {
    const drape_vec3 *positions; /* m, vertex_count of them */
    uint32_t vertex_count;
    const uint32_t *tets; /* 4 * tet_count vertex indices */
    uint32_t tet_count;
    drape_vec3 velocity;    /* m/s, of every particle; default 0 */
    float density;          /* kg/m^3, > 0; default 1000 */
    float youngs_modulus;   /* Pa; > 0: Neo-Hookean; 0: edges and volumes; default 1e5 */
    float poisson_ratio;    /* in (-1, 0.5); default 0.3 */
    drape_stiffness edges;  /* with youngs_modulus = 0; default PBD k = 0.5 */
    drape_stiffness volume; /* with youngs_modulus = 0; default XPBD compliance 0 */
    float contact_radius;   /* m, >= 0: the particles' radius in contacts with other particles
                               (docs/particle-contacts.md): loose balls, other bodies; the mesh's
                               own particles never collide with each other, and against colliders
                               they keep the collision margin alone, as a cloth's; 0: none;
                               default 0 */
    uint32_t group;         /* with contact_radius > 0, their collision group: 0 ..
                               DRAPE_GROUP_MAX, or DRAPE_GROUP_NEW (a group of its own); default
                               DRAPE_GROUP_NEW */
} drape_tet_mesh_def;

DRAPE_API drape_tet_mesh_def drape_default_tet_mesh_def(void);
DRAPE_API drape_result drape_world_add_tet_mesh(drape_world *world, const drape_tet_mesh_def *def,
                                                drape_build_info *out_info);
/* Loose particles in bulk: a box or a sphere filled with balls on a cubic lattice, or on the same
 * lattice with each ball moved by a seeded random offset that keeps it clear of its neighbours. */
typedef enum drape_block_shape {
    DRAPE_BLOCK_BOX = 0,    /* the box of edge lengths `size` about `centre` */
    DRAPE_BLOCK_SPHERE = 1, /* the ball of diameter size.x about `centre` */
} drape_block_shape;

typedef enum drape_block_packing {
    DRAPE_PACKING_LATTICE = 0, /* a cubic lattice of pitch `spacing` */
    DRAPE_PACKING_RANDOM = 1,  /* the lattice, each ball moved by up to (spacing - 2 radius) / 2
                                  along each axis, seeded */
} drape_block_packing;

typedef struct drape_particle_block_def {
    drape_block_shape shape;     /* default box */
    drape_vec3 centre;           /* m; default (0, 0.5, 0) */
    drape_vec3 size;             /* m, box edges (sphere: size.x is the diameter); default 0.5^3 */
    drape_block_packing packing; /* default lattice */
    float radius;                /* m, each ball's contact radius, > 0; default 0.025 */
    float spacing;               /* m, the lattice pitch, >= 2 radius; 0: 2.2 radius; default 0 */
    uint32_t max_count;          /* at most this many balls (the first lattice sites, in x, then z,
                                    then y order); 0: every site; default 0 */
    uint64_t seed;               /* random packing; default 1 */
    float mass;                  /* kg per ball, > 0; default 0.01 */
    drape_vec3 velocity;         /* m/s; default 0 */
    uint32_t group;              /* collision group; default 0 */
    bool self_collide;           /* the balls collide with each other; default true */
    uint32_t cookie; /* set by drape_default_particle_block_def(); a def without it is refused */
} drape_particle_block_def;

DRAPE_API drape_particle_block_def drape_default_particle_block_def(void);
/* Adds the balls; out_info gets their range (no constraints). Fails with
 * DRAPE_ERROR_INVALID_ARGUMENT when the block holds no lattice site. */
DRAPE_API drape_result drape_world_add_particle_block(drape_world *world,
                                                      const drape_particle_block_def *def,
                                                      drape_build_info *out_info);

/* ---------------------------------------------------------------------------------------------- */
/* Aerodynamics                                                                                   */
/*
 * Lift and drag per triangle from its normal and its velocity relative to the air (NvCloth's
 * formula; kernels/drape_aero.h): with u the triangle's velocity relative to the air, n its unit
 * normal, A its area and cos t = n . u / |u|,
 *     F_drag = -1/2 rho A C_D |cos t| |u| u,
 *     F_lift = -1/2 rho A C_L cos t sin t |u| ((u x n) x u / |u|),
 * a third on each corner, applied in the prediction of every substep (DRAPE_MODE_PBD only). The air
 * moves with drape_world_def.wind plus, with turbulence > 0, seeded gusts (value noise over
 * gust_length, carried along by the wind), the same on every backend. Only the triangles given to
 * drape_world_add_aero_triangles feel it; the cloth builder adds its own
 * (drape_cloth_def.aerodynamic). The per-particle air_drag of the world def acts as before,
 * independently.
 */
typedef struct drape_aero_def {
    float drag;        /* drag coefficient C_D in [0, 100]; default 0 (no aerodynamics) */
    float lift;        /* lift coefficient C_L in [0, 100]; default 0 */
    float air_density; /* rho, kg/m^3, in (0, 1e4]; default 1.2 */
    float turbulence;  /* m/s, the gusts' amplitude per component, in [0, 1e9]; default 0 (a steady
                          wind) */
    float gust_length; /* m, the size of a gust, in [1e-3, 1e9]; default 1 */
    uint32_t seed;     /* the gusts' seed; default 1 */
} drape_aero_def;

DRAPE_API drape_aero_def drape_default_aero_def(void);
DRAPE_API drape_result drape_world_set_aero(drape_world *world, const drape_aero_def *def);
DRAPE_API drape_aero_def drape_world_get_aero(const drape_world *world);
/* Adds `count` triangles (3 * count particle indices, distinct within a triangle) to those that
 * feel the air. */
DRAPE_API drape_result drape_world_add_aero_triangles(drape_world *world, const uint32_t *indices,
                                                      uint32_t count);
DRAPE_API uint32_t drape_world_aero_triangle_count(const drape_world *world);

/* ---------------------------------------------------------------------------------------------- */
/* Balloons                                                                                       */
/*
 * The pressure constraint of Müller et al., "Position Based Dynamics" (2007), section 4.4: a closed
 * triangle mesh whose volume V = 1/6 sum (p_a x p_b) . p_c is kept at pressure x V0,
 * C = V - pressure V0 (m^3), PBD or XPBD like every constraint (compliance in m^6/J). The
 * constraint is global (every vertex of the mesh moves with it): it is projected on its own after
 * the coloured constraints in every iteration, its two sums in a fixed order on every backend
 * (kernels/drape_balloon.h). The mesh must be closed and consistently oriented, its triangles
 * counter-clockwise seen from outside. Solved in DRAPE_MODE_PBD only. A balloon inflates (or
 * deflates) to its pressure over time: the volume kept starts at V0 when it is added and doubles
 * (or halves) at most every 0.1 s until it reaches pressure x V0, whatever the substeps.
 */
typedef struct drape_balloon_def {
    const uint32_t *triangles; /* 3 * triangle_count particle indices; copied */
    uint32_t triangle_count;   /* >= 4 */
    float pressure;    /* k_pressure in (0, 100]: the volume kept is pressure x V0; default 1 */
    float rest_volume; /* V0, m^3, > 0; DRAPE_REST_FROM_POSITIONS (the default) takes the current
                          volume */
    float stiffness;   /* PBD k in [0, 1]; default 1 */
    float compliance;  /* m^6/J, >= 0, XPBD; default 0 */
    drape_stiffness_model model; /* which of the two is read; default DRAPE_STIFFNESS_PBD */
} drape_balloon_def;

DRAPE_API drape_balloon_def drape_default_balloon_def(void);
/* Fails with DRAPE_ERROR_INVALID_ARGUMENT, naming the edge or the triangle, for a mesh that is
 * open, not consistently oriented, not manifold, facing inward or without volume. */
DRAPE_API drape_result drape_world_add_balloon(drape_world *world, const drape_balloon_def *def,
                                               uint32_t *out_id);
DRAPE_API uint32_t drape_world_balloon_count(const drape_world *world);

typedef struct drape_balloon_info {
    uint32_t triangle_count, vertex_count;
    float pressure;    /* k_pressure */
    float rest_volume; /* V0, m^3 */
    float volume;      /* m^3, at the current positions */
} drape_balloon_info;

DRAPE_API drape_result drape_world_get_balloon(const drape_world *world, uint32_t id,
                                               drape_balloon_info *out);
/* Copies balloon id's 3 * triangle_count particle indices into out. */
DRAPE_API drape_result drape_world_get_balloon_triangles(const drape_world *world, uint32_t id,
                                                         uint32_t *out);

/* A closed cloth sphere: an icosahedron subdivided `subdivisions` times (10 * 4^s + 2 particles,
 * 20 * 4^s triangles, outward) projected onto the sphere, a distance constraint along every edge
 * (kind stretch), a dihedral across every edge when `bending`, and, with pressure > 0, a balloon.
 */
typedef struct drape_icosphere_def {
    drape_vec3 centre;                  /* m; default (0, 1, 0) */
    float radius;                       /* m, > 0; default 0.3 */
    uint32_t subdivisions;              /* 0 .. 7; default 3 (642 particles) */
    drape_vec3 velocity;                /* m/s, of every particle; default 0 */
    float mass;                         /* kg, the whole sphere, spread evenly; default 0.1 */
    drape_stiffness stretch;            /* the edges; default PBD k = 1 */
    bool bending;                       /* default true */
    drape_stiffness bend_stiffness;     /* the dihedrals; default PBD k = 0.1 */
    float pressure;                     /* k_pressure of its balloon, [0, 100]; 0: no balloon;
                                           default 1 */
    drape_stiffness pressure_stiffness; /* the balloon's; default PBD k = 1 */
    float contact_radius;               /* m, >= 0: the particles' radius in contacts with other
                                           particles, as drape_tet_mesh_def's; 0: none; default 0 */
    uint32_t group; /* their collision group, as drape_tet_mesh_def's; default DRAPE_GROUP_NEW */
} drape_icosphere_def;

DRAPE_API drape_icosphere_def drape_default_icosphere_def(void);
/* *out_balloon (may be NULL) gets the balloon's id, UINT32_MAX without one. */
DRAPE_API drape_result drape_world_add_icosphere(drape_world *world, const drape_icosphere_def *def,
                                                 drape_build_info *out_info, uint32_t *out_balloon);

/* ---------------------------------------------------------------------------------------------- */
/* Breakable links and tearing                                                                    */
/*
 * After every step, each breakable distance constraint whose length exceeds `limit` times its rest
 * length gives way. A link of a tearing cloth (drape_cloth_def.tear_strain) that is one of its
 * stretch links tears the cloth by splitting a vertex, as in Müller et al., "Position Based
 * Dynamics" (2007): of the link's two particles, the one with more links is split by the plane
 * through it perpendicular to the link; a reserved spare particle becomes its copy on the far side,
 * taking the links whose other particle lies beyond the plane and half the mass (the other half
 * stays). Without a spare, or when every link lies on one side, the link breaks instead. Any other
 * breakable link breaks: it is removed (drape_world_constraint_count drops; its id stays). Spares
 * are reserved when the cloth is built, so the particle arrays never grow in a step. A split keeps
 * every colour (the links it moves are rewritten in place: they all shared the split particle, so
 * their colours already differ); a broken link recolours the distance constraints alone.
 * The render triangles (drape_world_set_triangles) on the far side of a split's plane take the
 * copy (drape_world_get_triangles); dihedrals and aerodynamic triangles keep their particles.
 */

/* Makes distance constraint `id` breakable past `limit` >= 1 times its rest length; 0: unbreakable.
 */
DRAPE_API drape_result drape_world_set_distance_break(drape_world *world, uint32_t id, float limit);

typedef struct drape_tear_stats {
    uint32_t splits;      /* vertices split so far */
    uint32_t breaks;      /* links broken (removed) so far */
    uint32_t spares_left; /* reserved particles not used yet */
} drape_tear_stats;

DRAPE_API drape_tear_stats drape_world_get_tear_stats(const drape_world *world);

/* The colour of constraints first .. first + count - 1 of `type` (creation ids) in the solver's
 * colouring, UINT32_MAX for a removed one: constraints of one colour share no movable particle. */
DRAPE_API drape_result drape_world_get_constraint_colors(const drape_world *world,
                                                         drape_constraint_type type, uint32_t first,
                                                         uint32_t count, uint32_t *out);

#ifdef __cplusplus
}
#endif
#endif /* DRAPE_DRAPE_H */
