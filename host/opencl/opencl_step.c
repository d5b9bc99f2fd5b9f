/* The OpenCL backend: the whole step on the device, colour by colour.
 *
 * The world's host arrays stay the source of truth between the user's edits; the device holds a
 * mirror that is uploaded when the host changed (w->stale) and is ahead of the host after a step
 * (device_ahead), until something reads or edits the world and dr_world_pull copies it back. Inside
 * a step nothing crosses to the host: every phase is a kernel of a kernels/ .cl file over the same
 * kernels/drape_shared.h maths the CPU reference runs, and the damping's global sums are CLBlast
 * GEMVs whose results stay on the device.
 *
 * Launches per substep: predict and collide (1: predict_displacement takes the external forces and
 * the collision generation where nothing runs between them; 2 + 4 + 2 CLBlast calls with damping;
 * or the spring forces and collide), project (iterations x (colours of every type + 1), the last
 * contact pass left to the update where nothing runs between them, plus a multiplier fill per XPBD
 * set; or 1, solve_fused, for small cloths), update (1). After the step, with breakable links, the
 * tearing watch (1, tear_opencl.c); then one read of three integers, four with the watch: the
 * non-finite check and the watch's answer, which is also the step's only wait for the device
 * (with particle contacts, the fullest bucket's read too; where fast particles may split a step,
 * that read comes after every step, which a drape_world_step_n then no longer queues back to back:
 * host/adaptive_substeps.c).
 *
 * Device memory, per particle: x, v, p (3 x 16 B), contact (32 B), the contact's push and
 * friction so far in the substep (16 B), the two accelerations of the mass-spring mode (32 B):
 * 128 B, plus 160 B per work group for the damping's partial sums. Per
 * distance constraint: indices 8 B, rest, material index, lambda 4 B each: 20 B (dihedral 28 B;
 * attachment 32 B; tether 20 B; volume 28 B), plus 8 B per distinct material (k', compliance) of
 * the set.
 */
#include "world_internal.h"

#include "dr_cl.h"
#include "aero.h"
#include "balloons.h"
#include "partition.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PREDICT, COLLIDE, PROJECT, UPDATE, GRID, PHASES };
static const char *const phase_names[PHASES] = {"predict", "collide", "project", "update", "grid"};

/* One constraint type's solver set on the device. */
typedef struct cl_set {
    uint32_t count;
    bool xpbd; /* some constraint has a compliance: its multipliers are zeroed each substep */
    uint32_t colors;
    cl_mem idx, rest, material, materials, lambda, target;
    cl_mem ranges; /* the partition's range table of the set (host/partition.c), for solve_fused */
    cl_mem param;  /* per-constraint parameters (Neo-Hookean) */
} cl_set;

enum {
    K_PREDICT_VELOCITY,
    K_PREDICT_DISPLACEMENT,
    K_DAMP_MOMENTS,
    K_DAMP_SOLVE,
    K_DAMP_APPLY,
    K_CONTACTS,
    K_SOLVE_DISTANCE,
    K_SOLVE_DISTANCE_X16,
    K_SOLVE_DIHEDRAL,
    K_SOLVE_ATTACHMENT,
    K_PROJECT_CONTACTS,
    K_UPDATE,
    K_CLEAR_FORCES,
    K_SPRING_FORCES,
    K_ATTACHMENT_FORCES,
    K_SPRING_ACCEL,
    K_EULER,
    K_VERLET_BEGIN,
    K_VERLET_END,
    K_KINETIC,
    K_RESIDUAL,
    K_SOLVE_TETHER,
    K_SOLVE_VOLUME,
    K_SOLVE_FUSED,
    K_SOLVE_NEO_HOOKEAN,
    K_SHAPE_MATCH,
    K_SOLVE_FUSED_LOCAL,
    K_PROJECT_CONTACTS_X16,
    K_UPDATE_X16,
    K_PREDICT_DISPLACEMENT_X16,
    K_CONTACTS_X16,
    K_DAMP_BODY_MOMENTS,
    K_DAMP_BODY_SOLVE,
    K_DAMP_BODY_APPLY,
    K_PLACEMENT_DEBT,
    K_COUNT
};
static const struct {
    const char *file, *name;
} kernel_names[K_COUNT] = {
    {"predict.cl", "predict_velocity"},
    {"predict.cl", "predict_displacement"},
    {"damping.cl", "damp_moments"},
    {"damping.cl", "damp_solve"},
    {"damping.cl", "damp_apply"},
    {"collide.cl", "generate_contacts"},
    {"project.cl", "solve_distance"},
    {"project.cl", "solve_distance_x16"},
    {"project.cl", "solve_dihedral"},
    {"project.cl", "solve_attachment"},
    {"project.cl", "project_contacts"},
    {"update.cl", "update_state"},
    {"mass_spring.cl", "clear_forces"},
    {"mass_spring.cl", "spring_forces"},
    {"mass_spring.cl", "attachment_forces"},
    {"mass_spring.cl", "spring_accel"},
    {"mass_spring.cl", "euler_integrate"},
    {"mass_spring.cl", "verlet_begin"},
    {"mass_spring.cl", "verlet_end"},
    {"diagnostics.cl", "kinetic_energy"},
    {"diagnostics.cl", "distance_residual"},
    {"project.cl", "solve_tether"},
    {"volume.cl", "solve_volume"},
    {"fused.cl", "solve_fused"},
    {"neo_hookean.cl", "solve_neo_hookean"},
    {"shape_match.cl", "shape_match"},
    {"fused.cl", "solve_fused_local"},
    {"project.cl", "project_contacts_x16"},
    {"update.cl", "update_state_x16"},
    {"predict.cl", "predict_displacement_x16"},
    {"predict.cl", "generate_contacts_x16"},
    {"damping.cl", "damp_body_moments"},
    {"damping.cl", "damp_body_solve"},
    {"damping.cl", "damp_body_apply"},
    {"collide.cl", "placement_debt"},
};

struct dr_opencl {
    dr_cl_context *ctx;
    cl_kernel k[K_COUNT];
    int phase[PHASES];
    uint32_t particles; /* particles the particle buffers hold */
    cl_mem x, v, d, contacts, a, a1, moments, sums, rigid, colliders;
    /* damping (host/bodies.c): with one body holding every movable particle, the moments about
     * its first particle `origin` summed by CLBlast; with several, in tiles of a work group, a
     * body's tiles in a run: slots (DR_NO_PARTICLE pads a body's last tile), each tile's body,
     * each body's first tile (body_count + 1), the tiles' sums, the bodies' rigid motions */
    uint32_t origin; /* DR_NO_PARTICLE: no body, or several */
    uint32_t body_count, body_tile_count;
    cl_mem body_slots, tile_body, body_tiles, body_partials, body_rigid;
    cl_mem inflate;   /* per particle: what its radius adds to the collision margin (m) */
    cl_mem held;      /* per particle: its collider contacts' push and friction this substep (m) */
    cl_mem scratch;   /* diagnostics: one double (float without fp64) per particle or distance */
    cl_mem nonfinite; /* CHECK_SLOTS uints: the step's non-finite check, then the tearing watch */
    size_t scratch_bytes;
    uint32_t collider_count;
    cl_set set[DRAPE_CONSTRAINT_TYPE_COUNT];
    int distance_kernel;     /* K_SOLVE_DISTANCE or K_SOLVE_DISTANCE_X16 (dr_opencl_configure) */
    uint32_t distance_lanes; /* constraints per work-item of distance_kernel: 1, or 32 in float16 */
    drape_distance_kernel request; /* the world's request; AUTO: by device type and size */
    uint32_t fused_max; /* AUTO takes solve_fused up to this many constraints (0: never) */
    bool device_ahead;  /* x and v on the device are newer than the host's */
    bool speed_read;    /* w->speed_bits measures the device's velocities (the last step read it) */
    /* shape matching (host/shape_matching.c): the colour order and the rotations by cluster id */
    cl_mem sm_members, sm_rest, sm_range, sm_kprime, sm_id, sm_rotation;
    uint32_t sm_count;
    struct dr_aero_cl *aero; /* aerodynamics on the device (aero_opencl.c); NULL until used */
    struct dr_balloons_cl
        *balloons;     /* balloons on the device (balloons_opencl.c); NULL until used */
    bool has_balloons; /* as of the last upload: the projection runs per colour, balloons between */
    unsigned blast_ready;       /* BLAST_* routines that have run once (and so are compiled) */
    uint64_t enqueued_at_reset; /* ctx->enqueued when the profile was last reset */
    uint64_t read_at_reset;     /* ctx->read_bytes then */
    uint64_t reads_at_reset;    /* ctx->reads then */
    dr_cl_particles *pc;        /* contacts between particles (host/opencl/opencl_particles.c) */
    bool particles_on;  /* the world has contacts between particles (as of the last step): their
                           passes run between the colours' launches, so it is never fused */
    dr_partition part;  /* the groups of solve_fused, one work-group each (host/partition.c) */
    cl_mem part_first;  /* part.groups + 1: each group's first particle */
    size_t fused_local; /* solve_fused's work-group size */
    size_t fused_kernel_max; /* CL_KERNEL_WORK_GROUP_SIZE of solve_fused on this device */
    /* solve_fused_local: its CL_KERNEL_WORK_GROUP_SIZE, its work-group size, the local memory
     * (bytes) left to its displacements (CL_DEVICE_LOCAL_MEM_SIZE less the kernel's own), and the
     * constraints of one group up to which AUTO takes it where the group fits (0: never) */
    size_t fused_local_kernel_max, fused_local_local;
    uint64_t local_bytes;
    uint32_t fused_local_max;
};

/* Which kernel projects a world (fusion()): per colour, solve_fused or solve_fused_local. */
enum { FUSE_NONE, FUSE_GLOBAL, FUSE_LOCAL };

/* The uints of the step's check buffer, read back in one read at the end of a step: the
 * non-finite check's DR_NONFINITE_PHASES, then the tearing watch's slot (tear_opencl.c), read only
 * when the watch ran. */
enum { TEAR_SLOT = DR_NONFINITE_PHASES, CHECK_SLOTS };

/* The CLBlast routine the step (damping) and the diagnostics call: the D/Sgemv of column sums. */
enum { BLAST_ROWS = 1 };

/* The first call of a CLBlast routine compiles it inside the driver, and PoCL crashes there rather
 * than failing when a host allocation fails (a segmentation fault with 268 MB of address space
 * left, where 286 MB was enough): before that first call the process must have this much room left,
 * or the call fails cleanly with DRAPE_ERROR_OUT_OF_MEMORY. */
#define BLAST_HEADROOM ((uint64_t)320 << 20)

static drape_result blast_headroom(dr_opencl *cl, unsigned routine, const char *call)
{
    if (cl->blast_ready & routine)
        return DRAPE_OK;
    const uint64_t have = drape_host_memory_available();
    if (have < BLAST_HEADROOM) {
        dr_cl_logf(&cl->ctx->logger, DRAPE_LOG_ERROR,
                   "%s: compiling it needs about %llu bytes of host memory and only %llu are left; "
                   "not called",
                   call, (unsigned long long)BLAST_HEADROOM, (unsigned long long)have);
        return DRAPE_ERROR_OUT_OF_MEMORY;
    }
    cl->blast_ready |= routine;
    return DRAPE_OK;
}

/* Sets arguments first .. first + count - 1 of a kernel from (size, pointer) pairs made by A(). */
#define A(value) DR_CL_ARG(value)
static drape_result set_args(dr_opencl *cl, int kernel, cl_uint first, cl_uint count, ...)
{
    va_list ap;
    va_start(ap, count);
    drape_result r = dr_cl_set_args_v(cl->ctx, cl->k[kernel], first, count, ap);
    va_end(ap);
    return r;
}

static void release_set(dr_opencl *cl, cl_set *s)
{
    dr_cl_buffer_release(cl->ctx, &s->idx);
    dr_cl_buffer_release(cl->ctx, &s->rest);
    dr_cl_buffer_release(cl->ctx, &s->material);
    dr_cl_buffer_release(cl->ctx, &s->materials);
    dr_cl_buffer_release(cl->ctx, &s->lambda);
    dr_cl_buffer_release(cl->ctx, &s->target);
    dr_cl_buffer_release(cl->ctx, &s->ranges);
    dr_cl_buffer_release(cl->ctx, &s->param);
    s->count = s->colors = 0;
}

static void release_particles(dr_opencl *cl)
{
    cl_mem *all[] = {&cl->x,  &cl->v,       &cl->d,       &cl->contacts, &cl->a,
                     &cl->a1, &cl->moments, &cl->inflate, &cl->held};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        dr_cl_buffer_release(cl->ctx, all[i]);
    cl->particles = 0;
}

static void release_bodies(dr_opencl *cl)
{
    cl_mem *all[] = {&cl->body_slots, &cl->tile_body, &cl->body_tiles, &cl->body_partials,
                     &cl->body_rigid};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        dr_cl_buffer_release(cl->ctx, all[i]);
    cl->body_count = cl->body_tile_count = 0;
    cl->origin = DR_NO_PARTICLE;
}

static void release_shapes(dr_opencl *cl)
{
    cl_mem *all[] = {&cl->sm_members, &cl->sm_rest, &cl->sm_range,
                     &cl->sm_kprime,  &cl->sm_id,   &cl->sm_rotation};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        dr_cl_buffer_release(cl->ctx, all[i]);
    cl->sm_count = 0;
}

void dr_opencl_destroy(dr_opencl *cl)
{
    if (!cl)
        return;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        release_set(cl, &cl->set[t]);
    release_particles(cl);
    dr_cl_particles_destroy(cl->pc, cl->ctx);
    dr_aero_cl_destroy(cl->ctx, cl->aero);
    dr_balloons_cl_destroy(cl->ctx, cl->balloons);
    dr_cl_buffer_release(cl->ctx, &cl->sums);
    dr_cl_buffer_release(cl->ctx, &cl->rigid);
    release_bodies(cl);
    dr_cl_buffer_release(cl->ctx, &cl->colliders);
    dr_cl_buffer_release(cl->ctx, &cl->scratch);
    dr_cl_buffer_release(cl->ctx, &cl->nonfinite);
    release_shapes(cl);
    dr_cl_buffer_release(cl->ctx, &cl->part_first);
    dr_partition_free(&cl->part);
    for (int i = 0; i < K_COUNT; ++i)
        if (cl->k[i])
            clReleaseKernel(cl->k[i]);
    dr_cl_context_destroy(cl->ctx);
    free(cl);
}

static bool is_fused_kernel(int k) { return k == K_SOLVE_FUSED || k == K_SOLVE_FUSED_LOCAL; }

/* What solve_fused_local may have: its work-group size limit and the local memory left to the
 * displacements it keeps there. */
static drape_result local_memory(dr_opencl *cl)
{
    const cl_device_id dev = cl->ctx->device.device_id;
    const cl_kernel k = cl->k[K_SOLVE_FUSED_LOCAL];
    cl_ulong device = 0, own = 0;
    cl_int code = clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                           sizeof cl->fused_local_kernel_max,
                                           &cl->fused_local_kernel_max, NULL);
    if (code != CL_SUCCESS)
        return dr_cl_failf(&cl->ctx->logger, "clGetKernelWorkGroupInfo", code,
                           "CL_KERNEL_WORK_GROUP_SIZE of solve_fused_local");
    code = clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof own, &own, NULL);
    if (code != CL_SUCCESS)
        return dr_cl_failf(&cl->ctx->logger, "clGetKernelWorkGroupInfo", code,
                           "CL_KERNEL_LOCAL_MEM_SIZE of solve_fused_local");
    code = clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof device, &device, NULL);
    if (code != CL_SUCCESS)
        return dr_cl_failf(&cl->ctx->logger, "clGetDeviceInfo", code, "CL_DEVICE_LOCAL_MEM_SIZE");
    cl->local_bytes = device > own ? device - own : 0;
    return DRAPE_OK;
}

drape_result dr_opencl_create(drape_world *w, dr_opencl **out)
{
    *out = NULL;
    dr_opencl *cl = calloc(1, sizeof *cl);
    if (!cl)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for the OpenCL backend");
    cl->origin = DR_NO_PARTICLE;
    dr_cl_context_def def = dr_cl_default_context_def();
    def.device = w->def.backend.device;
    def.memory_limit = w->def.backend.device_memory_limit;
    def.gl_context = w->def.backend.gl_context;
    def.gl_display = w->def.backend.gl_display;
    def.log = w->def.log ? w->def.log : drape_log_stderr;
    def.log_user = w->def.log_user;
    def.profiling = w->def.profiling;
    drape_result r = dr_cl_context_create(&def, &cl->ctx);
    for (int i = 0; r == DRAPE_OK && i < K_COUNT; ++i)
        if (!is_fused_kernel(i)) /* those when a world may take them: prepare_fusion */
            r = dr_cl_kernel_create(cl->ctx, kernel_names[i].file, kernel_names[i].name, &cl->k[i]);
    for (int i = 0; r == DRAPE_OK && i < PHASES; ++i)
        cl->phase[i] = dr_cl_profile_phase(cl->ctx, phase_names[i]);
    if (r == DRAPE_OK) {
        w->cl = cl;
        r = dr_opencl_configure(w);
        w->cl = NULL;
    }
    if (r == DRAPE_OK)
        r = dr_cl_buffer_create(cl->ctx, CL_MEM_READ_WRITE, DR_DAMP_ROW * sizeof(double),
                                "damping sums", &cl->sums);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_create(cl->ctx, CL_MEM_READ_WRITE, 3 * sizeof(dr_vec4), "rigid motion",
                                &cl->rigid);
    if (r == DRAPE_OK)
        r = dr_cl_particles_create(cl->ctx, &cl->pc);
    const uint32_t none[CHECK_SLOTS] = {DR_NO_PARTICLE, DR_NO_PARTICLE, DR_NO_PARTICLE,
                                        DR_NO_PARTICLE};
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->nonfinite, sizeof none, "non-finite check", none);
    if (r != DRAPE_OK) {
        dr_opencl_destroy(cl);
        return r;
    }
    *out = cl;
    return DRAPE_OK;
}

void dr_opencl_set_log(dr_opencl *cl, drape_log_fn log, void *user)
{
    cl->ctx->logger.log = log;
    cl->ctx->logger.user = user;
}

bool dr_opencl_uses_host_memory(const dr_opencl *cl)
{
    return (cl->ctx->device.type & CL_DEVICE_TYPE_CPU) != 0;
}

drape_result dr_opencl_set_profiling(dr_opencl *cl, bool on)
{
    return dr_cl_set_profiling(cl->ctx, on);
}

static drape_result prepare_fusion(dr_opencl *cl);

drape_result dr_opencl_configure(drape_world *w)
{
    dr_opencl *cl = w->cl;
    drape_distance_kernel k = cl->request = w->kernel_request;
    /* CPU compilers do not vectorise solve_distance across work-items: give them sixteen
     * constraints per work-item in float16 lanes (kernels/project.cl). The per-colour kernel is
     * also the fallback of FUSED, for the mass-spring mode's forces. */
    const bool cpu = cl->ctx->device.type & CL_DEVICE_TYPE_CPU;
    if (k == DRAPE_DISTANCE_KERNEL_AUTO || k == DRAPE_DISTANCE_KERNEL_FUSED ||
        k == DRAPE_DISTANCE_KERNEL_FUSED_LOCAL)
        k = cpu ? DRAPE_DISTANCE_KERNEL_LANES16 : DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT;
    /* AUTO fuses the projection of small cloths, where launches cost more than the arithmetic. On
     * PoCL (one work-group runs on one core) fused was twice as fast at 16 x 16 (1.4 k
     * constraints), even at 32 x 32, three times slower at 64 x 64 (docs/opencl-variants.md). On
     * GPUs a launch costs about as much as projecting thousands of constraints; that bound is an
     * estimate: no GPU was at hand to measure it. */
    cl->fused_max = cpu ? 2048u : 16u * 1024u;
    /* With the displacements in local memory a colour costs a barrier and a few local reads rather
     * than global round trips: on GPUs AUTO takes solve_fused_local for every group that fits the
     * local memory (a 64 x 64 cloth: 24 k constraints) up to 32 k constraints; on PoCL, where local
     * memory is ordinary memory, it gains nothing over solve_fused (docs/opencl-variants.md). */
    cl->fused_local_max = cpu ? 0u : 32u * 1024u;
    const bool lanes = k == DRAPE_DISTANCE_KERNEL_LANES16;
    cl->distance_kernel = lanes ? K_SOLVE_DISTANCE_X16 : K_SOLVE_DISTANCE;
    cl->distance_lanes = lanes ? 32 : 1;
    return prepare_fusion(cl);
}

/* The constraint types solve_fused projects: the first FUSED_TYPES of drape_constraint_type
 * (distance, dihedral, attachment, tether, volume), a set of kernel arguments each. A world with
 * constraints of a later type is projected per colour, whatever the request. */
#define FUSED_TYPES 5
_Static_assert(FUSED_TYPES <= DRAPE_CONSTRAINT_TYPE_COUNT, "solve_fused takes a type drape lacks");

/* What a world's projection involves, as last uploaded: one bit each. */
enum {
    FEATURE_PARTICLE_CONTACTS = 1u << 0, /* their passes run between the colours' launches */
    FEATURE_BALLOONS = 1u << 1,          /* a pass per iteration before the contacts */
    FEATURE_SHAPE_MATCHING = 1u << 2,
    FEATURE_TYPE0 = 1u << 3, /* FEATURE_TYPE0 << t: constraints of type t */
};
_Static_assert(3 + DRAPE_CONSTRAINT_TYPE_COUNT <= 32, "the features fit an unsigned");

/* The features solve_fused takes: its constraint types, nothing else. */
#define FUSED_FEATURES ((FEATURE_TYPE0 << FUSED_TYPES) - FEATURE_TYPE0)

static unsigned features(const dr_opencl *cl)
{
    unsigned f = (cl->particles_on ? FEATURE_PARTICLE_CONTACTS : 0u) |
                 (cl->has_balloons ? FEATURE_BALLOONS : 0u) |
                 (cl->sm_count ? FEATURE_SHAPE_MATCHING : 0u);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        if (cl->set[t].count)
            f |= FEATURE_TYPE0 << t;
    return f;
}

/* The local memory solve_fused_local needs: 3 floats per particle of the largest group (of one
 * particle before the world is partitioned: a local argument takes at least one byte). */
static uint64_t local_need(const dr_opencl *cl)
{
    const uint64_t n = cl->part.largest_group ? cl->part.largest_group : 1;
    return n * 3 * sizeof(float);
}

/* Whether the projection runs as one fused launch, and which (FUSE_*): asked for (FUSED_LOCAL
 * where the largest group fits the local memory, else solve_fused), or AUTO on a world whose every
 * group (a cloth, or several small ones, one work-group each: host/partition.c) fits the local
 * memory with at most fused_local_max constraints (solve_fused_local), else has at most fused_max
 * (solve_fused), as last uploaded; never for a world with a feature they lack (FUSED_FEATURES). */
static int fusion(const dr_opencl *cl)
{
    if (!cl->k[K_SOLVE_FUSED] || (features(cl) & ~(unsigned)FUSED_FEATURES))
        return FUSE_NONE;
    const bool fits = local_need(cl) <= cl->local_bytes;
    if (cl->request == DRAPE_DISTANCE_KERNEL_FUSED)
        return FUSE_GLOBAL;
    if (cl->request == DRAPE_DISTANCE_KERNEL_FUSED_LOCAL)
        return fits ? FUSE_LOCAL : FUSE_GLOBAL;
    uint64_t total = 0;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        total += cl->set[t].count;
    if (cl->request != DRAPE_DISTANCE_KERNEL_AUTO || total == 0)
        return FUSE_NONE;
    if (fits && cl->part.largest <= cl->fused_local_max)
        return FUSE_LOCAL;
    return cl->part.largest <= cl->fused_max ? FUSE_GLOBAL : FUSE_NONE;
}

static bool fused(const dr_opencl *cl) { return fusion(cl) != FUSE_NONE; }

/* Whether fusion() might take a fused kernel for this world, with the kernels built: asked for, or
 * AUTO on a world within the larger of the two bounds, as last uploaded. */
static bool may_fuse(const dr_opencl *cl)
{
    if (features(cl) & ~(unsigned)FUSED_FEATURES)
        return false;
    if (cl->request == DRAPE_DISTANCE_KERNEL_FUSED ||
        cl->request == DRAPE_DISTANCE_KERNEL_FUSED_LOCAL)
        return true;
    uint64_t total = 0;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        total += cl->set[t].count;
    const uint32_t most = cl->fused_max > cl->fused_local_max ? cl->fused_max : cl->fused_local_max;
    return cl->request == DRAPE_DISTANCE_KERNEL_AUTO && total > 0 && cl->part.largest <= most;
}

static size_t fused_local_size(const dr_opencl *cl, size_t kernel_max);

/* Builds kernels/fused.cl (most of a minute on PoCL, which a world of large cloths never needs) the
 * first time a world may take it, and reads what its kernels allow: their work-group sizes and the
 * local memory left to solve_fused_local. Until then fusion() takes the per-colour kernels. */
static drape_result prepare_fusion(dr_opencl *cl)
{
    if (cl->k[K_SOLVE_FUSED] || !may_fuse(cl))
        return DRAPE_OK;
    cl_kernel k[2] = {NULL, NULL};
    const int which[2] = {K_SOLVE_FUSED, K_SOLVE_FUSED_LOCAL};
    for (int i = 0; i < 2; ++i) {
        drape_result r = dr_cl_kernel_create(cl->ctx, kernel_names[which[i]].file,
                                             kernel_names[which[i]].name, &k[i]);
        if (r != DRAPE_OK) {
            if (k[0])
                clReleaseKernel(k[0]);
            return r;
        }
    }
    cl->k[K_SOLVE_FUSED] = k[0];
    cl->k[K_SOLVE_FUSED_LOCAL] = k[1];
    cl_int code =
        clGetKernelWorkGroupInfo(k[0], cl->ctx->device.device_id, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof cl->fused_kernel_max, &cl->fused_kernel_max, NULL);
    if (code != CL_SUCCESS)
        return dr_cl_failf(&cl->ctx->logger, "clGetKernelWorkGroupInfo", code,
                           "CL_KERNEL_WORK_GROUP_SIZE of solve_fused");
    DR_TRY(local_memory(cl));
    cl->fused_local = fused_local_size(cl, cl->fused_kernel_max);
    cl->fused_local_local = fused_local_size(cl, cl->fused_local_kernel_max);
    return DRAPE_OK;
}

drape_distance_kernel dr_opencl_distance_kernel(const dr_opencl *cl)
{
    const int f = fusion(cl);
    if (f != FUSE_NONE)
        return f == FUSE_LOCAL ? DRAPE_DISTANCE_KERNEL_FUSED_LOCAL : DRAPE_DISTANCE_KERNEL_FUSED;
    return cl->distance_kernel == K_SOLVE_DISTANCE_X16 ? DRAPE_DISTANCE_KERNEL_LANES16
                                                       : DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT;
}

const char *dr_opencl_device_name(const dr_opencl *cl, char *buf, size_t size)
{
    dr_cl_device_describe(&cl->ctx->device, buf, size);
    return buf;
}

/* ---- uploads --------------------------------------------------------------------------------- */

/* Work groups of a launch over n items. */
static size_t groups(const dr_opencl *cl, size_t n)
{
    size_t wg = cl->ctx->tunables.work_group_size;
    return (n + wg - 1) / wg;
}

static drape_result upload_particles(dr_opencl *cl, const drape_world *w)
{
    const size_t n = w->particle_count, v4 = sizeof(dr_vec4);
    drape_result r = DRAPE_OK;
    if (cl->particles != n) {
        release_particles(cl);
        struct {
            cl_mem *buf;
            size_t bytes;
            const char *what;
        } all[] = {
            {&cl->x, n * v4, "positions"},
            {&cl->v, n * v4, "velocities"},
            {&cl->d, n * v4, "displacements"},
            {&cl->contacts, n * sizeof(dr_contact), "contacts"},
            {&cl->a, n * v4, "accelerations"},
            {&cl->a1, n * v4, "end accelerations"},
            {&cl->moments, groups(cl, n) * DR_DAMP_ROW * sizeof(double), "damping moments"},
            {&cl->inflate, n * sizeof(float), "collision radii"},
            {&cl->held, n * v4, "collision pushes and friction"},
        };
        for (size_t i = 0; r == DRAPE_OK && i < sizeof all / sizeof *all; ++i)
            r = dr_cl_buffer_replace(cl->ctx, all[i].buf, all[i].bytes, all[i].what, NULL);
        if (r != DRAPE_OK) {
            release_particles(cl);
            return r;
        }
        cl->particles = (uint32_t)n;
    }
    if (n == 0)
        return DRAPE_OK;
    r = dr_cl_buffer_write(cl->ctx, cl->x, 0, n * v4, w->x);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_write(cl->ctx, cl->v, 0, n * v4, w->v);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_write(cl->ctx, cl->inflate, 0, n * sizeof(float), w->inflate);
    return r;
}

/* The damping's bodies: one that holds every movable particle takes the CLBlast path about its
 * first particle; several are laid out in tiles of one work group (kernels/damping.cl). */
static drape_result upload_bodies(dr_opencl *cl, const drape_world *w)
{
    const dr_bodies *b = &w->bodies;
    release_bodies(cl);
    uint32_t movable = 0;
    for (uint32_t i = 0; i < w->particle_count; ++i)
        movable += w->x[i].w > 0.0f;
    if (b->count == 1 && b->members == movable)
        cl->origin = b->order[0];
    if (b->count == 0 || cl->origin != DR_NO_PARTICLE)
        return DRAPE_OK;
    const size_t wg = cl->ctx->tunables.work_group_size;
    size_t tiles = 0;
    for (uint32_t body = 0; body < b->count; ++body)
        tiles += (b->first[body + 1] - b->first[body] + wg - 1) / wg;
    uint32_t *slots = malloc(tiles * wg * sizeof *slots);
    uint32_t *tile_body = malloc(tiles * sizeof *tile_body);
    uint32_t *body_tiles = malloc((b->count + 1) * sizeof *body_tiles);
    drape_result r = DRAPE_OK;
    if (!slots || !tile_body || !body_tiles) {
        r = dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for the tiles of %u bodies",
                    b->count);
    } else {
        size_t t = 0;
        for (uint32_t body = 0; body < b->count; ++body) {
            body_tiles[body] = (uint32_t)t;
            const uint32_t count = b->first[body + 1] - b->first[body];
            const size_t end = t * wg + (count + wg - 1) / wg * wg;
            for (size_t k = 0; t * wg + k < end; ++k)
                slots[t * wg + k] = k < count ? b->order[b->first[body] + k] : DR_NO_PARTICLE;
            for (; t * wg < end; ++t)
                tile_body[t] = body;
        }
        body_tiles[b->count] = (uint32_t)t;
        struct {
            cl_mem *buf;
            size_t bytes;
            const char *what;
            const void *data;
        } all[] = {
            {&cl->body_slots, tiles * wg * sizeof *slots, "damping tiles", slots},
            {&cl->tile_body, tiles * sizeof *tile_body, "damping tiles' bodies", tile_body},
            {&cl->body_tiles, (b->count + 1) * sizeof *body_tiles, "damping bodies' tiles",
             body_tiles},
            {&cl->body_partials, tiles * DR_DAMP_ROW * sizeof(double), "damping tiles' moments",
             NULL},
            {&cl->body_rigid, (size_t)b->count * 3 * sizeof(dr_vec4), "damping rigid motions",
             NULL},
        };
        for (size_t i = 0; r == DRAPE_OK && i < sizeof all / sizeof *all; ++i)
            r = dr_cl_buffer_replace(cl->ctx, all[i].buf, all[i].bytes, all[i].what, all[i].data);
    }
    free(slots);
    free(tile_body);
    free(body_tiles);
    if (r != DRAPE_OK) {
        release_bodies(cl);
        return r;
    }
    cl->body_count = b->count;
    cl->body_tile_count = (uint32_t)tiles;
    return DRAPE_OK;
}

static drape_result upload_set(dr_opencl *cl, const drape_world *w, drape_constraint_type t)
{
    const dr_solver_set *s = &w->solver[t];
    const size_t n = s->count, arity = w->constraints[t].arity;
    const size_t multipliers = w->constraints[t].multipliers, params = w->constraints[t].params;
    cl_set *d = &cl->set[t];
    release_set(cl, d);
    drape_result r = dr_cl_buffer_replace(cl->ctx, &d->idx, n * arity * sizeof(uint32_t),
                                          "constraint indices", s->idx);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &d->rest, n * sizeof(float), "rest lengths", s->rest);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &d->material, n * sizeof(uint32_t), "material indices",
                                 s->material);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &d->materials, s->material_count * sizeof(dr_material),
                                 "materials", s->materials);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &d->lambda, n * multipliers * sizeof(float),
                                 "multipliers", s->lambda);
    if (r == DRAPE_OK && params)
        r = dr_cl_buffer_replace(cl->ctx, &d->param, n * params * sizeof(float),
                                 "constraint parameters", s->param);
    if (r == DRAPE_OK && t == DRAPE_CONSTRAINT_ATTACHMENT)
        r = dr_cl_buffer_replace(cl->ctx, &d->target, n * sizeof(dr_vec4), "attachment targets",
                                 s->target);
    d->colors = n ? s->stats.colors : 0;
    if (r != DRAPE_OK) {
        release_set(cl, d);
        return r;
    }
    d->count = (uint32_t)n;
    d->xpbd = false;
    for (uint32_t i = 0; i < s->material_count && !d->xpbd; ++i)
        d->xpbd = s->materials[i].compliance >= 0.0f;
    return DRAPE_OK;
}

/* The clusters' colour order; the rotations the device fitted so far are read back first, so that
 * the warm starts go on as on the CPU. */
static drape_result upload_shapes(dr_opencl *cl, drape_world *w)
{
    dr_shape_matches *s = &w->shapes;
    drape_result r = DRAPE_OK;
    if (cl->sm_count)
        r = dr_cl_buffer_read(cl->ctx, cl->sm_rotation, 0, cl->sm_count * sizeof(dr_vec4),
                              s->rotation);
    release_shapes(cl);
    const size_t n = s->count, m = s->member_count;
    if (r != DRAPE_OK || n == 0)
        return r;
    r = dr_cl_buffer_replace(cl->ctx, &cl->sm_members, m * sizeof(uint32_t), "cluster members",
                             s->solver_members);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->sm_rest, m * sizeof(dr_vec4), "cluster rest offsets",
                                 s->solver_rest);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->sm_range, 2 * n * sizeof(uint32_t), "cluster ranges",
                                 s->range);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->sm_kprime, n * sizeof(float), "cluster stiffness",
                                 s->kprime);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->sm_id, n * sizeof(uint32_t), "cluster ids", s->id);
    if (r == DRAPE_OK)
        r = dr_cl_buffer_replace(cl->ctx, &cl->sm_rotation, n * sizeof(dr_vec4),
                                 "cluster rotations", s->rotation);
    if (r != DRAPE_OK) {
        release_shapes(cl);
        return r;
    }
    cl->sm_count = (uint32_t)n;
    return DRAPE_OK;
}

/* A fused kernel's work-group size: on CPU devices the tuned size (a PoCL work-group runs on one
 * core, its work-items one after another); on GPUs as wide as the widest colour of a group needs,
 * up to what the kernel allows on the device (kernel_max: 1024 on NVIDIA's), in whole warps of 32.
 */
static size_t fused_local_size(const dr_opencl *cl, size_t kernel_max)
{
    const size_t tuned = cl->ctx->tunables.work_group_size;
    if (cl->ctx->device.type & CL_DEVICE_TYPE_CPU)
        return tuned;
    size_t most =
        kernel_max < cl->ctx->device.max_work_group ? kernel_max : cl->ctx->device.max_work_group;
    size_t want = ((size_t)cl->part.widest + 31) / 32 * 32;
    want = want < tuned ? tuned : want;
    return want < most ? want : (most ? most : tuned);
}

/* The groups of solve_fused (host/partition.c), rebuilt when constraints or particles changed: the
 * sets' colours reordered by group (the sets whose order changed are uploaded again), then each
 * group's first particle and each set's range table. */
static drape_result partition(dr_opencl *cl, drape_world *w)
{
    unsigned reordered = 0;
    DR_TRY(dr_partition_build(w, &cl->part, &reordered));
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        if (reordered & (1u << t))
            w->stale |= DR_STALE_SET(t);
    cl->fused_local = fused_local_size(cl, cl->fused_kernel_max);
    cl->fused_local_local = fused_local_size(cl, cl->fused_local_kernel_max);
    return dr_cl_buffer_replace(cl->ctx, &cl->part_first, (cl->part.groups + 1) * sizeof(uint32_t),
                                "work-group particle ranges", cl->part.first);
}

/* Each set's range table, after the sets' upload (which releases them). */
static drape_result upload_ranges(dr_opencl *cl, const drape_world *w)
{
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const size_t colors = w->solver[t].count ? w->solver[t].stats.colors : 0;
        DR_TRY(dr_cl_buffer_replace(cl->ctx, &cl->set[t].ranges,
                                    (colors * (cl->part.groups + 1) + 1) * sizeof(uint32_t),
                                    "work-group constraint ranges", cl->part.ranges[t]));
    }
    return DRAPE_OK;
}

static drape_result upload(dr_opencl *cl, drape_world *w)
{
    drape_result r = DRAPE_OK;
    const bool regroup = (w->stale & DR_STALE_CONSTRAINTS) || !cl->part.first ||
                         cl->part.first[cl->part.groups] != w->particle_count;
    if (regroup)
        r = partition(cl, w);
    if (r == DRAPE_OK && (w->stale & DR_STALE_SHAPES))
        r = upload_shapes(cl, w);
    cl->has_balloons = dr_balloons_active(w);
    if (w->stale & DR_STALE_PARTICLES)
        r = upload_particles(cl, w);
    if (r == DRAPE_OK && (w->stale & DR_STALE_PARTICLES))
        r = dr_cl_particles_upload(cl->pc, cl->ctx, w);
    if (r == DRAPE_OK && (w->stale & DR_STALE_BODIES))
        r = upload_bodies(cl, w);
    for (int t = 0; r == DRAPE_OK && t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
        if (w->stale & DR_STALE_SET(t))
            r = upload_set(cl, w, (drape_constraint_type)t);
    if (r == DRAPE_OK && (w->stale & DR_STALE_TARGETS) &&
        !(w->stale & DR_STALE_SET(DRAPE_CONSTRAINT_ATTACHMENT))) {
        const dr_solver_set *s = &w->solver[DRAPE_CONSTRAINT_ATTACHMENT];
        if (s->count)
            r = dr_cl_buffer_write(cl->ctx, cl->set[DRAPE_CONSTRAINT_ATTACHMENT].target, 0,
                                   s->count * sizeof(dr_vec4), s->target);
    }
    if (r == DRAPE_OK && (w->stale & DR_STALE_COLLIDERS)) {
        r = dr_cl_buffer_replace(cl->ctx, &cl->colliders, w->collider_count * sizeof(dr_collider),
                                 "colliders", w->colliders);
        cl->collider_count = w->collider_count;
    }
    if (r == DRAPE_OK && regroup)
        r = upload_ranges(cl, w);
    if (r == DRAPE_OK)
        r = prepare_fusion(cl); /* so that dr_opencl_distance_kernel tells what the step takes */
    if (r == DRAPE_OK)
        w->stale = 0;
    return r;
}

drape_result dr_opencl_pull(drape_world *w)
{
    dr_opencl *cl = w->cl;
    if (!cl || !cl->device_ahead)
        return DRAPE_OK;
    const size_t bytes = (size_t)cl->particles * sizeof(dr_vec4);
    drape_result r = DRAPE_OK;
    if (bytes) {
        r = dr_cl_buffer_read(cl->ctx, cl->x, 0, bytes, w->x);
        if (r == DRAPE_OK)
            r = dr_cl_buffer_read(cl->ctx, cl->v, 0, bytes, w->v);
    }
    if (r == DRAPE_OK)
        cl->device_ahead = false;
    return r;
}

/* ---- the step -------------------------------------------------------------------------------- */

static drape_result launch(dr_opencl *cl, int kernel, size_t n, int phase)
{
    return dr_cl_launch_1d(cl->ctx, cl->k[kernel], n, cl->phase[phase]);
}

/* A kernel over the particles and its work-item count: in the lanes variant its sixteen-lane form,
 * which takes sixteen consecutive particles per work-item (kernels/predict.cl, project.cl,
 * update.cl), over ceil(n / 16) work-items; otherwise one particle per work-item. */
typedef struct {
    int kernel;
    size_t items;
} per_particle;

static per_particle particle_kernel(const dr_opencl *cl, int one, int x16)
{
    const size_t n = cl->particles;
    if (cl->distance_kernel == K_SOLVE_DISTANCE_X16)
        return (per_particle){x16, (n + 15) / 16};
    return (per_particle){one, n};
}

/* The arguments every launch of a colour-range kernel ends with; then the launch, of one work-item
 * per `per_item` constraints. */
static drape_result launch_colors(dr_opencl *cl, int kernel, cl_uint first_arg,
                                  const dr_solver_set *host, uint32_t per_item, int phase)
{
    for (uint32_t c = 0; c < host->stats.colors; ++c) {
        cl_uint offset = host->offsets[c], count = host->offsets[c + 1] - offset;
        DR_TRY(set_args(cl, kernel, first_arg, 2, A(offset), A(count)));
        DR_TRY(launch(cl, kernel, (count + per_item - 1) / per_item, phase));
    }
    return DRAPE_OK;
}

/* Damping of several bodies: the tiles' moments, each body's sums and rigid motion, the pull
 * towards it (kernels/damping.cl). */
static drape_result damp_bodies(dr_opencl *cl, float k)
{
    const size_t wg = cl->ctx->tunables.work_group_size;
    const cl_uint n = cl->particles, slots = (cl_uint)(cl->body_tile_count * wg);
    DR_TRY(set_args(cl, K_DAMP_BODY_MOMENTS, 0, 7, A(cl->body_partials), A(cl->x), A(cl->v),
                    A(cl->body_slots), A(cl->tile_body), A(cl->body_tiles), A(n)));
    DR_TRY(launch(cl, K_DAMP_BODY_MOMENTS, slots, PREDICT));
    DR_TRY(set_args(cl, K_DAMP_BODY_SOLVE, 0, 5, A(cl->body_rigid), A(cl->body_partials), A(cl->x),
                    A(cl->body_slots), A(cl->body_tiles)));
    DR_TRY(launch(cl, K_DAMP_BODY_SOLVE, cl->body_count * wg, PREDICT));
    DR_TRY(set_args(cl, K_DAMP_BODY_APPLY, 0, 7, A(cl->v), A(cl->x), A(cl->body_rigid),
                    A(cl->body_slots), A(cl->tile_body), A(k), A(slots)));
    return launch(cl, K_DAMP_BODY_APPLY, slots, PREDICT);
}

/* The PBD prediction: external forces, aerodynamics, damping, then the predicted displacements;
 * with `collide`, collision generation too (nothing runs between them). predict_displacement folds
 * in the external forces when no aerodynamics or damping pass runs between, and the contacts with
 * `collide`: one launch for the three where the world has neither (kernels/predict.cl). */
static drape_result predict_pbd(dr_opencl *cl, const drape_world *w, float h, bool collide)
{
    const cl_uint n = cl->particles;
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f), wind = dr_vec4_from(w->def.wind, 0.0f);
    const float drag = w->def.air_drag, k = w->def.damping;
    /* Moments about each body's first particle, as the CPU takes them (dr_damp_velocities). */
    const bool damp = k > 0.0f && (cl->origin != DR_NO_PARTICLE || cl->body_count > 0);
    const cl_int external = !damp && !dr_aero_active(w);
    if (!external) { /* the aerodynamic forces first, from the substep's start (cpu_step.c) */
        DR_TRY(dr_aero_cl_predict(cl->ctx, &cl->aero, w, cl->x, cl->v, h, cl->phase[PREDICT]));
        DR_TRY(set_args(cl, K_PREDICT_VELOCITY, 0, 7, A(cl->v), A(cl->x), A(g), A(wind), A(drag),
                        A(h), A(n)));
        DR_TRY(launch(cl, K_PREDICT_VELOCITY, n, PREDICT));
    }
    if (damp && cl->origin == DR_NO_PARTICLE)
        DR_TRY(damp_bodies(cl, k));
    else if (damp) {
        DR_TRY(set_args(cl, K_DAMP_MOMENTS, 0, 5, A(cl->moments), A(cl->x), A(cl->v), A(cl->origin),
                        A(n)));
        DR_TRY(launch(cl, K_DAMP_MOMENTS, n, PREDICT));
        DR_TRY(blast_headroom(cl, BLAST_ROWS, "CLBlast gemv (damping moments)"));
        DR_TRY(dr_cl_sum_rows_device(cl->ctx, cl->moments, groups(cl, n), DR_DAMP_ROW, cl->sums,
                                     cl->phase[PREDICT]));
        DR_TRY(
            set_args(cl, K_DAMP_SOLVE, 0, 4, A(cl->rigid), A(cl->sums), A(cl->x), A(cl->origin)));
        DR_TRY(launch(cl, K_DAMP_SOLVE, 1, PREDICT));
        DR_TRY(set_args(cl, K_DAMP_APPLY, 0, 5, A(cl->v), A(cl->x), A(cl->rigid), A(k), A(n)));
        DR_TRY(launch(cl, K_DAMP_APPLY, n, PREDICT));
    }
    const cl_int contacts = collide;
    const float t = (float)w->time, margin = w->def.collision_margin;
    const per_particle p = particle_kernel(cl, K_PREDICT_DISPLACEMENT, K_PREDICT_DISPLACEMENT_X16);
    DR_TRY(set_args(cl, p.kernel, 0, 17, A(cl->d), A(cl->x), A(cl->v), A(h), A(n), A(external),
                    A(g), A(wind), A(drag), A(contacts), A(cl->contacts), A(cl->colliders),
                    A(cl->collider_count), A(t), A(margin), A(cl->inflate), A(cl->held)));
    return launch(cl, p.kernel, p.items, PREDICT);
}

/* acc = a(x (+ d where use_d), vel) of the mass-spring mode: spring forces colour by colour, then
 * divided by the masses. */
static drape_result spring_accelerations(dr_opencl *cl, const drape_world *w, cl_int use_d,
                                         cl_mem vel, cl_mem acc)
{
    const cl_uint n = cl->particles;
    const float ks = w->def.spring_stiffness, kd = w->def.spring_damping, drag = w->def.air_drag;
    const cl_set *d = &cl->set[DRAPE_CONSTRAINT_DISTANCE],
                 *a = &cl->set[DRAPE_CONSTRAINT_ATTACHMENT];
    DR_TRY(set_args(cl, K_CLEAR_FORCES, 0, 2, A(acc), A(n)));
    DR_TRY(launch(cl, K_CLEAR_FORCES, n, PREDICT));
    DR_TRY(set_args(cl, K_SPRING_FORCES, 0, 11, A(acc), A(cl->x), A(cl->d), A(use_d), A(vel),
                    A(d->idx), A(d->rest), A(d->material), A(d->materials), A(ks), A(kd)));
    DR_TRY(
        launch_colors(cl, K_SPRING_FORCES, 11, &w->solver[DRAPE_CONSTRAINT_DISTANCE], 1, PREDICT));
    DR_TRY(set_args(cl, K_ATTACHMENT_FORCES, 0, 11, A(acc), A(cl->x), A(cl->d), A(use_d), A(vel),
                    A(a->idx), A(a->target), A(a->material), A(a->materials), A(ks), A(kd)));
    DR_TRY(launch_colors(cl, K_ATTACHMENT_FORCES, 11, &w->solver[DRAPE_CONSTRAINT_ATTACHMENT], 1,
                         PREDICT));
    const dr_vec4 g = dr_vec4_from(w->def.gravity, 0.0f), wind = dr_vec4_from(w->def.wind, 0.0f);
    DR_TRY(
        set_args(cl, K_SPRING_ACCEL, 0, 7, A(acc), A(cl->x), A(vel), A(g), A(wind), A(drag), A(n)));
    return launch(cl, K_SPRING_ACCEL, n, PREDICT);
}

static drape_result predict_mass_spring(dr_opencl *cl, const drape_world *w, float h)
{
    const cl_uint n = cl->particles;
    DR_TRY(spring_accelerations(cl, w, 0, cl->v, cl->a));
    const bool euler = w->def.integrator == DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER;
    const int first = euler ? K_EULER : K_VERLET_BEGIN;
    DR_TRY(set_args(cl, first, 0, 6, A(cl->d), A(cl->v), A(cl->x), A(cl->a), A(h), A(n)));
    DR_TRY(launch(cl, first, n, PREDICT));
    if (euler)
        return DRAPE_OK;
    DR_TRY(spring_accelerations(cl, w, 1, cl->v, cl->a1));
    DR_TRY(set_args(cl, K_VERLET_END, 0, 5, A(cl->v), A(cl->a), A(cl->a1), A(h), A(n)));
    return launch(cl, K_VERLET_END, n, PREDICT);
}

static drape_result project_contacts(dr_opencl *cl, const drape_world *w, float h)
{
    if (cl->collider_count == 0)
        return DRAPE_OK;
    const cl_uint n = cl->particles;
    const float t = (float)w->time, margin = w->def.collision_margin;
    const per_particle p = particle_kernel(cl, K_PROJECT_CONTACTS, K_PROJECT_CONTACTS_X16);
    DR_TRY(set_args(cl, p.kernel, 0, 11, A(cl->d), A(cl->x), A(cl->contacts), A(cl->colliders),
                    A(cl->collider_count), A(t), A(h), A(margin), A(cl->inflate), A(cl->held),
                    A(n)));
    return launch(cl, p.kernel, p.items, PROJECT);
}

/* solve_fused's arguments before its sets' (DR_FUSED_ARGS in kernels/fused.cl). */
enum { FUSED_ARGS = 15 };

/* The whole projection in one launch, one work-group per group of the partition (solve_fused or
 * solve_fused_local in kernels/project.cl; `local`: the latter, its displacements in local memory
 * sized for the largest group). */
static drape_result project_fused(dr_opencl *cl, const drape_world *w, float h, bool local)
{
    const int kernel = local ? K_SOLVE_FUSED_LOCAL : K_SOLVE_FUSED;
    const cl_uint groups = cl->part.groups;
    const float t = (float)w->time, margin = w->def.collision_margin;
    const float inv_h2 = 1.0f / (h * h), sag = dr_substep_sag(w->def.gravity, h);
    const cl_int iterations = w->def.iterations;
    DR_TRY(set_args(cl, kernel, 0, FUSED_ARGS, A(cl->x), A(cl->d), A(cl->contacts),
                    A(cl->colliders), A(cl->collider_count), A(t), A(h), A(margin), A(cl->inflate),
                    A(cl->held), A(cl->part_first), A(inv_h2), A(sag), A(iterations), A(groups)));
    for (int k = 0; k < FUSED_TYPES; ++k) {
        const cl_set *s = &cl->set[k];
        const cl_int xpbd = s->xpbd;
        cl_mem second = k == DRAPE_CONSTRAINT_ATTACHMENT ? s->target : s->rest;
        if (!second) /* an empty set: any valid buffer, never read */
            second = s->material;
        DR_TRY(set_args(cl, kernel, FUSED_ARGS + 8 * (cl_uint)k, 8, A(s->idx), A(second),
                        A(s->material), A(s->materials), A(s->lambda), A(s->ranges), A(s->colors),
                        A(xpbd)));
    }
    if (local)
        DR_TRY(set_args(cl, kernel, FUSED_ARGS + 8 * FUSED_TYPES, 1, (size_t)local_need(cl),
                        (const void *)NULL));
    return dr_cl_launch_groups(cl->ctx, cl->k[kernel], groups,
                               local ? cl->fused_local_local : cl->fused_local, cl->phase[PROJECT]);
}

/* Every cluster once, colour by colour. */
static drape_result shape_match(dr_opencl *cl, const drape_world *w)
{
    const dr_shape_matches *s = &w->shapes;
    if (cl->sm_count == 0)
        return DRAPE_OK;
    DR_TRY(set_args(cl, K_SHAPE_MATCH, 0, 8, A(cl->x), A(cl->d), A(cl->sm_members), A(cl->sm_rest),
                    A(cl->sm_range), A(cl->sm_kprime), A(cl->sm_id), A(cl->sm_rotation)));
    for (uint32_t c = 0; c < s->colors; ++c) {
        cl_uint offset = s->offsets[c], count = s->offsets[c + 1] - offset;
        DR_TRY(set_args(cl, K_SHAPE_MATCH, 8, 2, A(offset), A(count)));
        DR_TRY(launch(cl, K_SHAPE_MATCH, count, PROJECT));
    }
    return DRAPE_OK;
}

/* The projection; with `last_contacts_in_update`, the last iteration's contact pass is left to the
 * update's launch (contacts_in_update). */
static drape_result project(dr_opencl *cl, const drape_world *w, float h,
                            bool last_contacts_in_update)
{
    if (fused(cl))
        return project_fused(cl, w, h, fusion(cl) == FUSE_LOCAL);
    const int kernels[DRAPE_CONSTRAINT_TYPE_COUNT] = {cl->distance_kernel, K_SOLVE_DIHEDRAL,
                                                      K_SOLVE_ATTACHMENT,  K_SOLVE_TETHER,
                                                      K_SOLVE_VOLUME,      K_SOLVE_NEO_HOOKEAN};
    const uint32_t per_item[DRAPE_CONSTRAINT_TYPE_COUNT] = {cl->distance_lanes, 1, 1, 1, 1, 1};
    const float inv_h2 = 1.0f / (h * h), sag = dr_substep_sag(w->def.gravity, h), zero = 0.0f;
    const int tail = dr_contact_tail(w);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const cl_set *s = &cl->set[t];
        if (s->count == 0)
            continue;
        if (s->xpbd)
            DR_TRY(dr_cl_buffer_fill(cl->ctx, s->lambda, &zero, sizeof zero, 0,
                                     s->count * w->constraints[t].multipliers * sizeof(float)));
        cl_mem second = t == DRAPE_CONSTRAINT_ATTACHMENT ? s->target : s->rest;
        DR_TRY(set_args(cl, kernels[t], 0, 9, A(cl->x), A(cl->d), A(s->idx), A(second),
                        A(s->material), A(s->materials), A(s->lambda), A(inv_h2), A(sag)));
        if (s->param) /* after offset and count, which launch_colors sets */
            DR_TRY(set_args(cl, kernels[t], 11, 1, A(s->param)));
    }
    for (int it = 0; it < w->def.iterations; ++it) {
        for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
            DR_TRY(launch_colors(cl, kernels[t], 9, &w->solver[t], per_item[t], PROJECT));
        DR_TRY(shape_match(cl, w));
        if (w->plan.enabled)
            DR_TRY(dr_cl_particles_project(cl->pc, cl->ctx, w, cl->x, cl->d, cl->contacts, it,
                                           cl->phase[PROJECT]));
        DR_TRY(dr_balloons_cl_project(cl->ctx, &cl->balloons, w, cl->x, cl->d, h, it == 0,
                                      cl->phase[PROJECT]));
        if (!last_contacts_in_update || it + 1 < w->def.iterations || tail > 0)
            DR_TRY(project_contacts(cl, w, h));
    }
    /* the contacts alone, with the last word over the meshes' constraints (dr_contact_tail) */
    for (int pass = 0; pass < tail; ++pass) {
        DR_TRY(dr_cl_particles_project(cl->pc, cl->ctx, w, cl->x, cl->d, cl->contacts,
                                       w->def.iterations + pass, cl->phase[PROJECT]));
        if (!last_contacts_in_update || pass + 1 < tail)
            DR_TRY(project_contacts(cl, w, h));
    }
    return shape_match(cl, w); /* rigid clusters end the substep rigid */
}

/* One continuous contact per particle against every collider (kernels/collide.cl; in the lanes
 * variant sixteen particles per work-item, kernels/predict.cl), as the CPU's generate_contacts. */
static drape_result generate_contacts(dr_opencl *cl, const drape_world *w, float h)
{
    const cl_uint n = cl->particles;
    const float t = (float)w->time, margin = w->def.collision_margin;
    const per_particle p = particle_kernel(cl, K_CONTACTS, K_CONTACTS_X16);
    DR_TRY(set_args(cl, p.kernel, 0, 12, A(cl->contacts), A(cl->x), A(cl->d), A(cl->v),
                    A(cl->colliders), A(cl->collider_count), A(t), A(h), A(margin), A(cl->inflate),
                    A(cl->held), A(n)));
    return launch(cl, p.kernel, p.items, COLLIDE);
}

/* The first substep after the user placed particles (placed_first, placed_count): their contacts'
 * debts (dr_start_depth), as the CPU's substep; timed in the phase that generated the contacts. */
static drape_result placement_debt(dr_opencl *cl, const drape_world *w, float h, int phase)
{
    const cl_uint first = w->placed_first, end = first + w->placed_count;
    if (cl->collider_count == 0 || end <= first)
        return DRAPE_OK;
    DR_TRY(set_args(cl, K_PLACEMENT_DEBT, 0, 7, A(cl->held), A(cl->x), A(cl->contacts),
                    A(cl->colliders), A(h), A(first), A(end)));
    return launch(cl, K_PLACEMENT_DEBT, end - first, phase);
}

/* Whether the substep's last contact pass runs in the update's launch (kernels/update.cl): there
 * are colliders, and nothing runs between that pass and the update (the mass-spring mode; PBD
 * projected per colour without shape matching, whose last pass follows the contacts). */
static bool contacts_in_update(const dr_opencl *cl, const drape_world *w)
{
    if (cl->collider_count == 0)
        return false;
    return w->def.mode != DRAPE_MODE_PBD || (!fused(cl) && cl->sm_count == 0);
}

/* v from d, x += d, restitution and the non-finite check (kernels/update.cl), as the CPU's update;
 * `threshold` is the substep's restitution threshold; with `contact_pass`, the last contact pass
 * first. */
static drape_result update(dr_opencl *cl, const drape_world *w, float h, float threshold,
                           bool contact_pass)
{
    const cl_uint n = cl->particles;
    const cl_int verlet = dr_keeps_integrator_velocity(&w->def), pass = contact_pass;
    const float t = (float)w->time, margin = w->def.collision_margin;
    const dr_vec4 g = dr_bounce_gravity(&w->def);
    const per_particle p = particle_kernel(cl, K_UPDATE, K_UPDATE_X16);
    DR_TRY(set_args(cl, p.kernel, 0, 17, A(cl->x), A(cl->v), A(cl->d), A(cl->contacts),
                    A(cl->colliders), A(h), A(threshold), A(g), A(verlet), A(cl->nonfinite), A(n),
                    A(pass), A(cl->collider_count), A(t), A(margin), A(cl->inflate), A(cl->held)));
    return launch(cl, p.kernel, p.items, UPDATE);
}

static drape_result substep(dr_opencl *cl, drape_world *w, float h)
{
    const bool pbd = w->def.mode == DRAPE_MODE_PBD;
    /* the contacts are generated in the prediction's launch unless the particles' grid runs
     * between them */
    const bool collide_in_predict = pbd && !w->plan.enabled;
    const bool last_pass_in_update = contacts_in_update(cl, w);
    DR_TRY(pbd ? predict_pbd(cl, w, h, collide_in_predict) : predict_mass_spring(cl, w, h));
    if (pbd && w->plan.enabled)
        DR_TRY(dr_cl_particles_grid(cl->pc, cl->ctx, w, cl->x, cl->v, cl->d, cl->phase[GRID]));
    if (!collide_in_predict)
        DR_TRY(generate_contacts(cl, w, h));
    DR_TRY(placement_debt(cl, w, h, collide_in_predict ? PREDICT : COLLIDE));
    if (pbd && w->plan.enabled)
        DR_TRY(
            dr_cl_particles_candidates(cl->pc, cl->ctx, w, cl->x, cl->contacts, cl->phase[GRID]));
    if (pbd)
        DR_TRY(project(cl, w, h, last_pass_in_update));
    else if (!last_pass_in_update)
        DR_TRY(project_contacts(cl, w, h));
    const float threshold = dr_restitution_threshold(dr_vec4_from(w->def.gravity, 0.0f), h);
    DR_TRY(update(cl, w, h, threshold, last_pass_in_update));
    if (pbd && w->plan.enabled)
        DR_TRY(dr_cl_particles_bounce(cl->pc, cl->ctx, w, cl->x, cl->v, cl->d, cl->contacts,
                                      threshold, h, cl->phase[UPDATE]));
    return DRAPE_OK;
}

/* The step's check, one read: the non-finite check into w->nonfinite, and with `tear` the tearing
 * watch's slot to tearing.c; the slots start again when one was set. */
static drape_result read_check(dr_opencl *cl, drape_world *w, bool tear)
{
    uint32_t check[CHECK_SLOTS];
    const size_t slots = tear ? CHECK_SLOTS : DR_NONFINITE_PHASES;
    DR_TRY(dr_cl_buffer_read(cl->ctx, cl->nonfinite, 0, slots * sizeof *check, check));
    memcpy(w->nonfinite, check, sizeof w->nonfinite);
    if (tear)
        dr_tear_device_result(w, check[TEAR_SLOT]);
    for (size_t p = 0; p < slots; ++p)
        if (check[p] != DR_NO_PARTICLE) {
            const uint32_t none = DR_NO_PARTICLE;
            return dr_cl_buffer_fill(cl->ctx, cl->nonfinite, &none, sizeof none, 0, sizeof check);
        }
    return DRAPE_OK;
}

/* The device's dr_particle_speed_bits into w->speed_bits, read with the fullest bucket. */
static drape_result measure_speed(dr_opencl *cl, drape_world *w)
{
    DR_TRY(dr_cl_particles_speed(cl->pc, cl->ctx, w, cl->v, cl->phase[UPDATE]));
    return dr_cl_particles_finish_step(cl->pc, cl->ctx, w);
}

drape_result dr_opencl_step(drape_world *w, uint32_t steps)
{
    dr_opencl *cl = w->cl;
    cl->particles_on = w->plan.enabled && w->def.mode == DRAPE_MODE_PBD;
    drape_result r = upload(cl, w);
    if (r == DRAPE_OK)
        r = prepare_fusion(cl);
    if (r != DRAPE_OK)
        return r;
    if (!cl->colliders) { /* kernels need a valid buffer even with no colliders */
        r = dr_cl_buffer_replace(cl->ctx, &cl->colliders, sizeof(dr_collider), "colliders", NULL);
        if (r != DRAPE_OK)
            return r;
    }
    /* Where fast particles may split a step, each step's substeps come from the velocities at its
     * start: the host's while they are current, else the device's measure after the step before,
     * read back after each step (host/adaptive_substeps.c). */
    const bool vary = dr_substeps_vary(w);
    if (vary && cl->device_ahead && !cl->speed_read) { /* steps before did not measure it */
        const uint32_t fullest = w->fullest_bucket;    /* the read's is theirs, checked already */
        r = measure_speed(cl, w);
        w->fullest_bucket = fullest;
    }
    cl->speed_read = vary;
    for (uint32_t step = 0; step < steps && r == DRAPE_OK; ++step) {
        const uint32_t speed = !vary              ? 0u
                               : cl->device_ahead ? w->speed_bits
                                                  : dr_particle_speed_bits(w);
        const int substeps = dr_step_substeps(w, speed);
        for (int s = 0; s < substeps && r == DRAPE_OK; ++s) {
            r = substep(cl, w, w->substep);
            dr_placement_mended(w);
            w->time += w->substep;
        }
        w->profile.substeps += (uint64_t)substeps;
        cl->device_ahead = true;
        if (r == DRAPE_OK && vary)
            r = measure_speed(cl, w);
    }
    /* The check's read is blocking: on the in-order queue it returns once every queued step has
     * run, so the steps need no clFinish, and with one step the step that made the state non-finite
     * is the one that reports it. A world with breakable links has its tearing watch enqueued
     * before it, and read in the same read. Events are collected only when profiling is on; they
     * have all completed by then. */
    bool tear = false;
    if (r == DRAPE_OK)
        r = dr_tear_device_watch(w, cl->x, cl->nonfinite, TEAR_SLOT, &tear);
    if (r == DRAPE_OK)
        r = read_check(cl, w, tear);
    if (r == DRAPE_OK && cl->ctx->profile.enabled)
        r = dr_cl_profile_collect(cl->ctx);
    if (r == DRAPE_OK && w->plan.enabled && w->def.mode == DRAPE_MODE_PBD && !vary)
        r = dr_cl_particles_finish_step(cl->pc, cl->ctx, w);
    return r;
}

drape_result dr_opencl_profile(const dr_opencl *cl, drape_profile *out)
{
    double *ms[PHASES] = {&out->predict_ms, &out->collide_ms, &out->project_ms, &out->update_ms,
                          &out->grid_ms};
    for (int i = 0; i < PHASES; ++i) {
        const dr_cl_phase *ph = dr_cl_profile_find(cl->ctx, phase_names[i]);
        *ms[i] = ph ? 1e3 * ph->seconds : 0.0;
    }
    out->device_bytes = cl->ctx->allocated;
    out->launches = cl->ctx->enqueued - cl->enqueued_at_reset;
    out->read_bytes = cl->ctx->read_bytes - cl->read_at_reset;
    out->reads = cl->ctx->reads - cl->reads_at_reset;
    out->work_groups = fused(cl) ? cl->part.groups : 0;
    out->programs_built = 0;
    for (size_t i = 0; i < cl->ctx->program_count; ++i)
        out->programs_built += cl->ctx->programs[i] != NULL;
    return DRAPE_OK;
}

void dr_opencl_reset_profile(dr_opencl *cl)
{
    dr_cl_profile_reset(cl->ctx);
    cl->enqueued_at_reset = cl->ctx->enqueued;
    cl->read_at_reset = cl->ctx->read_bytes;
    cl->reads_at_reset = cl->ctx->reads;
}

/* The bytes of a dr_wide on the device: a double where it has fp64, else a float. */
static size_t wide_bytes(const dr_opencl *cl)
{
    return cl->ctx->device.fp64 ? sizeof(double) : sizeof(float);
}

/* *out = the sum of the first `count` dr_wide of the diagnostics scratch, summed on the device in
 * that type (into the damping's sums buffer, which is free between steps), read back. */
static drape_result sum_wide(dr_opencl *cl, size_t count, double *out)
{
    DR_TRY(dr_cl_sum_rows_device(cl->ctx, cl->scratch, count, 1, cl->sums, -1));
    double wide = 0.0;
    float narrow = 0.0f;
    const bool fp64 = cl->ctx->device.fp64;
    DR_TRY(dr_cl_buffer_read(cl->ctx, cl->sums, 0, wide_bytes(cl),
                             fp64 ? (void *)&wide : (void *)&narrow));
    *out = fp64 ? wide : (double)narrow;
    return DRAPE_OK;
}

drape_result dr_opencl_diagnostics(dr_opencl *cl, drape_diagnostics *out)
{
    const cl_uint n = cl->particles;
    const cl_set *d = &cl->set[DRAPE_CONSTRAINT_DISTANCE];
    const cl_uint count = d->count;
    const size_t need = (n > count ? n : count) * wide_bytes(cl);
    if (need > cl->scratch_bytes) {
        cl->scratch_bytes = 0;
        DR_TRY(dr_cl_buffer_replace(cl->ctx, &cl->scratch, need, "diagnostics scratch", NULL));
        cl->scratch_bytes = need;
    }
    double ke = 0.0, sq = 0.0;
    if (n || count)
        DR_TRY(blast_headroom(cl, BLAST_ROWS, "CLBlast gemv (diagnostics)"));
    if (n) {
        DR_TRY(set_args(cl, K_KINETIC, 0, 4, A(cl->scratch), A(cl->x), A(cl->v), A(n)));
        DR_TRY(launch(cl, K_KINETIC, n, UPDATE));
        DR_TRY(sum_wide(cl, n, &ke));
    }
    if (count) {
        DR_TRY(set_args(cl, K_RESIDUAL, 0, 5, A(cl->scratch), A(cl->x), A(d->idx), A(d->rest),
                        A(count)));
        DR_TRY(launch(cl, K_RESIDUAL, count, UPDATE));
        DR_TRY(sum_wide(cl, count, &sq));
    }
    out->kinetic_energy = 0.5 * ke;
    out->distance_residual = count ? sqrt(sq / count) : 0.0;
    return DRAPE_OK;
}

dr_cl_context *dr_opencl_context(dr_opencl *cl) { return cl->ctx; }

uint64_t dr_opencl_particle_bytes(const dr_opencl *cl) { return dr_cl_particles_bytes(cl->pc); }

drape_result dr_opencl_count_contacts(dr_opencl *cl, uint32_t n, uint64_t *sum)
{
    return dr_cl_particles_count_contacts(cl->pc, cl->ctx, n, sum);
}

drape_result dr_opencl_positions(drape_world *w, cl_mem *out)
{
    *out = NULL;
    DR_TRY(dr_world_prepare(w));
    if (w->stale)
        DR_TRY(upload(w->cl, w));
    *out = w->cl->x;
    return DRAPE_OK;
}
