/* Helpers shared by the core tests; see test_util.h. */
#include "test_util.h"

#include "drape_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tu_log_capture(drape_log_level level, const char *message, void *user)
{
    tu_log *log = user;
    if (!log)
        return;
    log->count++;
    if (level == DRAPE_LOG_ERROR && log->errors++ == 0)
        snprintf(log->first_error, sizeof log->first_error, "%s", message ? message : "(null)");
    snprintf(log->last, sizeof log->last, "%s", message ? message : "(null)");
}

void tu_log_reset(tu_log *log) { memset(log, 0, sizeof *log); }

bool tu_log_first_error_has(const tu_log *log, const char *needle)
{
    return log->errors > 0 && strstr(log->first_error, needle) != NULL;
}

bool tu_log_has(const tu_log *log, const char *needle)
{
    return log->count > 0 && strstr(log->last, needle) != NULL;
}

drape_world_def tu_def(tu_log *log)
{
    drape_world_def def = drape_default_world_def();
    /* The same test code runs once per backend: ctest sets DRAPE_TEST_BACKEND=opencl for the
     * second run (tests/CMakeLists.txt). */
    const char *backend = getenv("DRAPE_TEST_BACKEND");
    if (backend && !strcmp(backend, "opencl")) {
        uint32_t devices = 0;
        if (drape_list_devices(NULL, 0, &devices, NULL, NULL) != DRAPE_OK || devices == 0) {
            printf("no OpenCL device: skipped\n");
            exit(77);
        }
        def.backend.type = DRAPE_BACKEND_OPENCL;
    }
    if (log) {
        tu_log_reset(log);
        def.log = tu_log_capture;
        def.log_user = log;
    }
    return def;
}

drape_world *tu_world(const drape_world_def *def)
{
    drape_world *world = NULL;
    drape_result r = drape_world_create(def, &world);
    if (r != DRAPE_OK || !world) {
        fprintf(stderr, "tu_world: drape_world_create failed: %s\n", drape_result_string(r));
        return NULL;
    }
    if (!tu_kernel_as_asked(world)) {
        drape_world_destroy(world);
        return NULL;
    }
    return world;
}

drape_world *tu_weightless_world(int substeps)
{
    drape_world_def def = tu_def(NULL);
    def.gravity = tu_v3(0.0f, 0.0f, 0.0f);
    def.substeps = substeps;
    return tu_world(&def);
}

bool tu_float_sums(void)
{
    const char *fp64 = getenv("DRAPE_OPENCL_FP64");
    return fp64 && !strcmp(fp64, "off");
}

bool tu_kernel_as_asked(const drape_world *world)
{
    const char *asked = getenv("DRAPE_DISTANCE_KERNEL");
    if (!asked || !*asked || !strcmp(asked, "auto") ||
        drape_world_backend(world) != DRAPE_BACKEND_OPENCL)
        return true;
    const char *runs = drape_distance_kernel_name(drape_world_distance_kernel(world));
    if (runs && !strcmp(runs, asked))
        return true;
    fprintf(stderr, "DRAPE_DISTANCE_KERNEL=%s but the world runs the %s kernel\n", asked,
            runs ? runs : "(unknown)");
    return false;
}

drape_world *tu_unstable_cloth(tu_log *log)
{
    drape_world_def def = tu_def(log);
    def.mode = DRAPE_MODE_MASS_SPRING;
    def.substeps = 1;
    def.spring_stiffness = 5000.0f; /* far past the explicit stability limit at h = 1/60 s */
    drape_world *w = tu_world(&def);
    if (!w)
        return NULL;
    drape_cloth_def cd = drape_default_cloth_def();
    cd.nx = cd.ny = 16;
    cd.pins = DRAPE_PIN_CORNER_00 | DRAPE_PIN_CORNER_10;
    cd.velocity = tu_v3(0.0f, 0.0f, 1.0f);
    drape_result r = drape_world_add_cloth(w, &cd, NULL);
    if (r != DRAPE_OK) {
        fprintf(stderr, "tu_unstable_cloth: drape_world_add_cloth: %s\n", drape_result_string(r));
        drape_world_destroy(w);
        return NULL;
    }
    return w;
}

bool tu_step(drape_world *world, int n)
{
    for (int i = 0; i < n; ++i) {
        drape_result r = drape_world_step(world);
        if (r != DRAPE_OK) {
            fprintf(stderr, "tu_step: step %d failed: %s\n", i, drape_result_string(r));
            return false;
        }
    }
    return true;
}

bool tu_read(const drape_world *world, tu_state *s)
{
    memset(s, 0, sizeof *s);
    s->n = drape_world_particle_count(world);
    size_t n = s->n ? s->n : 1;
    s->x = calloc(n, sizeof *s->x);
    s->v = calloc(n, sizeof *s->v);
    s->m = calloc(n, sizeof *s->m);
    if (!s->x || !s->v || !s->m)
        return false;
    return drape_world_get_positions(world, 0, s->n, s->x) == DRAPE_OK &&
           drape_world_get_velocities(world, 0, s->n, s->v) == DRAPE_OK &&
           drape_world_get_masses(world, 0, s->n, s->m) == DRAPE_OK;
}

void tu_state_free(tu_state *s)
{
    free(s->x);
    free(s->v);
    free(s->m);
    memset(s, 0, sizeof *s);
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* x = A^-1 b for a symmetric 3x3 A by Cramer's rule; zero when A is singular. */
static void solve3(double A[3][3], const double b[3], double x[3])
{
    double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                 A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                 A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    double scale = fabs(A[0][0]) + fabs(A[1][1]) + fabs(A[2][2]);
    x[0] = x[1] = x[2] = 0.0;
    if (!(fabs(det) > 1e-12 * scale * scale * scale))
        return;
    for (int c = 0; c < 3; ++c) {
        double M[3][3];
        memcpy(M, A, sizeof M);
        for (int r = 0; r < 3; ++r)
            M[r][c] = b[r];
        x[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
               det;
    }
}

void tu_body_of(const tu_state *s, tu_body *b)
{
    memset(b, 0, sizeof *b);
    for (uint32_t i = 0; i < s->n; ++i) {
        double m = s->m[i];
        if (!(m > 0.0))
            continue;
        double x[3] = {s->x[i].x, s->x[i].y, s->x[i].z};
        double v[3] = {s->v[i].x, s->v[i].y, s->v[i].z}, xv[3];
        b->mass += m;
        cross(x, v, xv);
        for (int k = 0; k < 3; ++k) {
            b->xcm[k] += m * x[k];
            b->P[k] += m * v[k];
            b->L[k] += m * xv[k];
        }
        b->ke += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    if (!(b->mass > 0.0))
        return;
    for (int k = 0; k < 3; ++k) {
        b->xcm[k] /= b->mass;
        b->vcm[k] = b->P[k] / b->mass;
    }
    double I[3][3] = {{0}};
    for (uint32_t i = 0; i < s->n; ++i) {
        double m = s->m[i];
        if (!(m > 0.0))
            continue;
        double r[3] = {s->x[i].x - b->xcm[0], s->x[i].y - b->xcm[1], s->x[i].z - b->xcm[2]};
        double u[3] = {s->v[i].x - b->vcm[0], s->v[i].y - b->vcm[1], s->v[i].z - b->vcm[2]}, ru[3];
        cross(r, u, ru);
        double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int k = 0; k < 3; ++k) {
            b->Lcm[k] += m * ru[k];
            for (int l = 0; l < 3; ++l)
                I[k][l] += m * ((k == l ? rr : 0.0) - r[k] * r[l]);
        }
    }
    solve3(I, b->Lcm, b->omega);
    double vcm2 = b->vcm[0] * b->vcm[0] + b->vcm[1] * b->vcm[1] + b->vcm[2] * b->vcm[2];
    b->ke_rigid = 0.5 * b->mass * vcm2 + 0.5 * (b->omega[0] * b->Lcm[0] + b->omega[1] * b->Lcm[1] +
                                                b->omega[2] * b->Lcm[2]);
    b->ke_deform = b->ke - b->ke_rigid;
}

double tu_len3(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

double tu_rel3(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    double nb = tu_len3(b);
    return nb > 0.0 ? tu_len3(d) / nb : tu_len3(d);
}

drape_result tu_add_matched_box(drape_world *w, drape_soft_box_def box, drape_shape_match_def match,
                                drape_build_info *info)
{
    box.edges = drape_stiffness_pbd(0.0f); /* the cluster alone holds the shape */
    box.volume = drape_stiffness_pbd(0.0f);
    drape_build_info own;
    drape_result r = drape_world_add_soft_box(w, &box, &own);
    if (r != DRAPE_OK)
        return r;
    uint32_t *idx = malloc((size_t)own.particle_count * sizeof *idx);
    if (!idx)
        return DRAPE_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < own.particle_count; ++i)
        idx[i] = own.first_particle + i;
    match.particles = idx;
    match.count = own.particle_count;
    r = drape_world_add_shape_match(w, &match, NULL);
    free(idx);
    if (info)
        *info = own;
    return r;
}

double tu_dist(drape_vec3 a, drape_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

drape_vec3 tu_v3(float x, float y, float z) { return (drape_vec3){x, y, z}; }

double tu_dihedral_angle(drape_vec3 e0, drape_vec3 e1, drape_vec3 w0, drape_vec3 w1)
{
    /* n1: normal of (e0, e1, w0), pointing to its front (the side from which e0, e1, w0 run
     * counter-clockwise); n2: normal of (e1, e0, w1). */
    double e[3] = {(double)e1.x - e0.x, (double)e1.y - e0.y, (double)e1.z - e0.z};
    double a[3] = {(double)w0.x - e0.x, (double)w0.y - e0.y, (double)w0.z - e0.z};
    double b[3] = {(double)w1.x - e1.x, (double)w1.y - e1.y, (double)w1.z - e1.z};
    double f[3] = {-e[0], -e[1], -e[2]};
    double n1[3], n2[3], c[3];
    cross(e, a, n1);
    cross(f, b, n2);
    cross(n1, n2, c);
    double angle = atan2(tu_len3(c), n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2]);
    double front = ((double)w1.x - e0.x) * n1[0] + ((double)w1.y - e0.y) * n1[1] +
                   ((double)w1.z - e0.z) * n1[2];
    return front >= 0.0 ? angle : -angle;
}

bool tu_same_bits(const void *a, const void *b, unsigned long bytes)
{
    return memcmp(a, b, bytes) == 0;
}

drape_result tu_add_cloth_pieces(drape_world *w)
{
    const uint32_t size[4][2] = {{4, 4}, {12, 9}, {18, 16}, {7, 15}};
    drape_result r = DRAPE_OK;
    for (int k = 0; k < 4 && r == DRAPE_OK; ++k) {
        drape_cloth_def c = drape_default_cloth_def();
        c.nx = size[k][0], c.ny = size[k][1];
        c.origin = tu_v3(-1.2f + 0.6f * (float)k, 0.6f + 0.05f * (float)k, -0.25f);
        c.radius = 0.0f; /* apart: no contacts between them, which would stop the fusing */
        c.u_axis = tu_v3(0.5f, 0.0f, 0.0f);
        c.v_axis = tu_v3(0.0f, 0.0f, 0.5f);
        if (k == 0)
            c.pins = DRAPE_PIN_ROW_FIRST;
        if (k == 1)
            c.stretch = drape_stiffness_xpbd(1e-7f);
        r = drape_world_add_cloth(w, &c, NULL);
    }
    drape_collider_def sphere = drape_default_collider_def(), ground = drape_default_collider_def();
    sphere.type = DRAPE_COLLIDER_SPHERE;
    sphere.position = tu_v3(0.2f, 0.0f, 0.0f);
    sphere.radius = 0.3f;
    ground.position = tu_v3(0.0f, -0.3f, 0.0f);
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &sphere, NULL);
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &ground, NULL);
    /* links added last inside the 12 x 9 cloth (particles 16 ..): each colour then holds them after
     * the later cloths' constraints, so the partition must reorder the colours */
    for (uint32_t i = 0; i + 3 < 12 && r == DRAPE_OK; ++i) {
        drape_distance_def d = drape_default_distance_def();
        d.a = 16 + i, d.b = 16 + i + 3;
        d.kind = DRAPE_DISTANCE_BEND;
        d.stiffness = 0.3f;
        r = drape_world_add_distance(w, &d, NULL);
    }
    return r;
}

void tu_check_spinning_box(drape_soft_box_def box, double max_momentum, double max_drift)
{
    for (int substeps = 1; substeps <= 4; substeps += 3) {
        drape_world *w = tu_weightless_world(substeps);
        ENSURE(w);
        drape_build_info info;
        ENSURE_OK(drape_world_add_soft_box(w, &box, &info));
        tu_state s;
        ENSURE(tu_read(w, &s));
        const double c[3] = {box.origin.x + 0.5 * box.size.x, box.origin.y + 0.5 * box.size.y,
                             box.origin.z + 0.5 * box.size.z};
        const double omega[3] = {1.8, 2.4, 0.0}; /* rad/s */
        for (uint32_t i = 0; i < s.n; ++i) {
            drape_particle_def p = drape_default_particle_def();
            const double r[3] = {s.x[i].x - c[0], s.x[i].y - c[1], s.x[i].z - c[2]};
            p.position = s.x[i];
            p.velocity = tu_v3((float)(omega[1] * r[2] - omega[2] * r[1]),
                               (float)(omega[2] * r[0] - omega[0] * r[2]),
                               (float)(omega[0] * r[1] - omega[1] * r[0]));
            p.mass = s.m[i];
            ENSURE_OK(drape_world_set_particle(w, info.first_particle + i, &p));
        }
        tu_state_free(&s);
        tu_body body[3]; /* at the start, after the first step, after 2 s */
        double most = 0.0;
        for (int k = 0; k < 3; ++k) {
            for (int step = 0; step < (k == 0 ? 0 : k == 1 ? 1 : 119); ++step) {
                ENSURE(tu_step(w, 1));
                ENSURE(tu_read(w, &s));
                tu_body now;
                tu_body_of(&s, &now);
                most = fmax(most, now.ke);
                tu_state_free(&s);
            }
            ENSURE(tu_read(w, &s));
            tu_body_of(&s, &body[k]);
            tu_state_free(&s);
        }
        const double P = tu_len3(body[2].P), dL = tu_rel3(body[2].Lcm, body[0].Lcm);
        printf("  %d substep(s), after 2 s: P %.2e kg m/s, L about the centre drifted %.2e; "
               "kinetic energy %.4f of the first step's, at most %.4f\n",
               substeps, P, dL, body[2].ke / body[1].ke, most / body[1].ke);
        ENSURE_LE(P, max_momentum);
        ENSURE_LE(dL, max_drift);
        ENSURE_LE(most / body[1].ke, 1.0 + 1e-3);
        drape_world_destroy(w);
    }
}
