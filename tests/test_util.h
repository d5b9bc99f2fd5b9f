/* Helpers shared by the core tests: a log callback that captures messages, world creation with it,
 * read-back of the whole particle state, and the momentum/energy sums the conservation tests need.
 * Everything goes through the public API only; sums are taken in double.
 */
#ifndef DRAPE_TEST_UTIL_H
#define DRAPE_TEST_UTIL_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- log capture ---- */

typedef struct tu_log {
    int count;             /* messages received */
    int errors;            /* of them at DRAPE_LOG_ERROR */
    char last[512];        /* the last message */
    char first_error[512]; /* the first message at DRAPE_LOG_ERROR */
} tu_log;

/* A drape_log_fn; `user` is a tu_log. */
void tu_log_capture(drape_log_level level, const char *message, void *user);
void tu_log_reset(tu_log *log);
/* True when the last message contains `needle`. */
bool tu_log_has(const tu_log *log, const char *needle);
/* True when the first error message contains `needle` (the cause, before what failed because of
 * it). */
bool tu_log_first_error_has(const tu_log *log, const char *needle);

/* drape_default_world_def() with the log sent to `log` (which may be NULL: stderr), on the OpenCL
 * backend when the environment has DRAPE_TEST_BACKEND=opencl. */
drape_world_def tu_def(tu_log *log);
/* Creates a world; NULL (with a message on stderr) on failure, and also when the environment asks
 * for a distance kernel (DRAPE_DISTANCE_KERNEL, set by ctest for each variant) that the world does
 * not run: see tu_kernel_as_asked. */
drape_world *tu_world(const drape_world_def *def);

/* tu_world of tu_def(NULL) without gravity, at the given substeps: free space. */
drape_world *tu_weightless_world(int substeps);
/* False (with a message on stderr) when $DRAPE_DISTANCE_KERNEL names a variant other than the one
 * the OpenCL world runs, so that a variant's test run cannot pass on another variant. */
bool tu_kernel_as_asked(const drape_world *world);
/* True when the OpenCL backend runs with its doubles hidden (DRAPE_OPENCL_FP64=off, set by ctest
 * for the float-sums runs): the damping's global sums are then floats, and the tests hold the
 * backend to the bounds documented in docs/opencl-variants.md instead of the fp64 ones. */
bool tu_float_sums(void);
/* A world whose state turns non-finite within 600 steps: a 16 x 16 mass-spring cloth pinned at two
 * corners and moving, its springs (5000 N/m) far past the explicit stability limit at one substep
 * of 1/60 s, on the backend tu_def() picks, its log sent to `log`. NULL (with a message on stderr)
 * on failure. */
drape_world *tu_unstable_cloth(tu_log *log);
/* Steps n times; false (with a message on stderr) if a step fails. */
bool tu_step(drape_world *world, int n);

/* ---- read-back ---- */

typedef struct tu_state {
    uint32_t n;
    drape_vec3 *x; /* m */
    drape_vec3 *v; /* m/s */
    float *m;      /* kg, 0 = pinned */
} tu_state;

/* Reads every particle of the world; false on failure. Free with tu_state_free. */
bool tu_read(const drape_world *world, tu_state *s);
void tu_state_free(tu_state *s);

/* The movable particles of a state taken as one body. */
typedef struct tu_body {
    double mass;      /* kg */
    double xcm[3];    /* m */
    double vcm[3];    /* m/s */
    double P[3];      /* linear momentum, kg m/s */
    double L[3];      /* angular momentum about the world origin, kg m^2/s */
    double Lcm[3];    /* angular momentum about the centre of mass */
    double omega[3];  /* rad/s, I^-1 Lcm: the best-fit rigid rotation */
    double ke;        /* kinetic energy, J */
    double ke_rigid;  /* kinetic energy of the best-fit rigid motion vcm + omega x r, J */
    double ke_deform; /* ke - ke_rigid (>= 0): the kinetic energy of deformation */
} tu_body;

void tu_body_of(const tu_state *s, tu_body *b);

/* ---- bodies ---- */

/* The soft box `box` (its mass, size and place as given), spun at 3 rad/s about a tilted axis
 * through its centre in free space for 2 s at 1 and at 4 substeps: checks (ENSURE) that its
 * momentum stays below max_momentum (kg m/s; it starts at 0), that its angular momentum about the
 * centre drifts by at most max_drift relative, and that its kinetic energy never exceeds the
 * first step's by more than 1e-3. */
void tu_check_spinning_box(drape_soft_box_def box, double max_momentum, double max_drift);

/* A soft box whose edges and volumes do nothing (stiffness 0), held by the shape-matched cluster
 * `match` over all of its particles (match.particles and match.count are filled in); info (may be
 * NULL) gets the box's range. DRAPE_OK or the first failure. */
drape_result tu_add_matched_box(drape_world *world, drape_soft_box_def box,
                                drape_shape_match_def match, drape_build_info *info);

/* Four independent cloths of different sizes side by side, the second XPBD, the first pinned
 * along a row: 4 x 4 (small enough to share the next one's work-group in the fused projection),
 * 12 x 9, 18 x 16 and 7 x 15, so TU_CLOTH_PIECES_GROUPS work-groups; no particle contacts; a
 * sphere under them and the ground. Then links inside the 12 x 9 cloth, which the colouring places
 * after the later cloths' constraints. DRAPE_OK or the first failure. */
#define TU_CLOTH_PIECES_GROUPS 3u
drape_result tu_add_cloth_pieces(drape_world *world);

/* ---- small maths ---- */

double tu_len3(const double a[3]);
/* |a - b| / |b| (|a - b| when b = 0). */
double tu_rel3(const double a[3], const double b[3]);
double tu_dist(drape_vec3 a, drape_vec3 b);
drape_vec3 tu_v3(float x, float y, float z);
/* The signed hinge angle (rad, in [-pi, pi]) of drape_dihedral_def.rest_angle, in double: the angle
 * between the normals of triangles (e0, e1, w0) and (e1, e0, w1), 0 when flat, positive when w1
 * folds towards the front of the first triangle (the side from which e0, e1, w0 run
 * counter-clockwise). */
double tu_dihedral_angle(drape_vec3 e0, drape_vec3 e1, drape_vec3 w0, drape_vec3 w1);
/* True when a and b hold the same bits. */
bool tu_same_bits(const void *a, const void *b, unsigned long bytes);

#endif
