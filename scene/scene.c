/* The scene object: a drape world with the names, triangles, polylines and scripted targets that
 * the world does not keep, and the one set of calls that add to it. The JSON parser and the
 * built-in scenes both go through these calls, so that a scene file and a built-in that say the
 * same thing build the same world in the same order.
 *
 * While a scene loads, the world's error messages are caught by the scene's log router, so that the
 * loader can put them in context ("FILE: $.distances[3]: drape_world_add_distance: ..."); warnings
 * go on to the user's callback at once, and after loading everything does.
 */
#include "scene_internal.h"

#include <math.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

drape_scene_options drape_scene_default_options(void)
{
    drape_scene_options o = {
        .override_backend = false,
        .backend = DRAPE_BACKEND_CPU,
        .device = NULL,
        .log = drape_log_stderr,
        .log_user = NULL,
        .max_particles = 0,
        .no_files = false,
        .allow_outside_paths = false,
        .cloth_resolution = 0,
        .gl_context = NULL,
        .gl_display = NULL,
    };
    return o;
}

static void route(drape_log_level level, const char *message, void *user)
{
    sc_log_router *r = user;
    if (r->capture && level == DRAPE_LOG_ERROR) {
        size_t used = strlen(r->last_error);
        if (used == 0)
            snprintf(r->last_error, sizeof r->last_error, "%s", message);
        else if (used + 3 < sizeof r->last_error)
            snprintf(r->last_error + used, sizeof r->last_error - used, "; %s", message);
        return;
    }
    if (r->user)
        r->user(level, message, r->user_data);
}

/* Replaces the last error with a message of the scene's own and returns `result`. */
static drape_result fail(drape_scene *s, drape_result result, const char *fmt, ...) SC_PRINTF(3, 4);

static drape_result fail(drape_scene *s, drape_result result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->log.last_error, sizeof s->log.last_error, fmt, ap);
    va_end(ap);
    return result;
}

static void clear_error(drape_scene *s) { s->log.last_error[0] = '\0'; }

drape_scene *sc_scene_new(const char *name, const drape_scene_options *options)
{
    drape_scene *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->name = sc_strdup(name);
    if (!s->name) {
        free(s);
        return NULL;
    }
    s->options = options ? *options : drape_scene_default_options();
    s->log.user = s->options.log;
    s->log.user_data = s->options.log_user;
    s->log.capture = true;
    s->default_steps = 300;
    return s;
}

drape_result sc_scene_create_world(drape_scene *s, drape_world_def def)
{
    clear_error(s);
    def.log = route;
    def.log_user = &s->log;
    if (s->options.override_backend)
        def.backend.type = s->options.backend;
    if (s->options.device)
        def.backend.device = s->options.device;
    def.backend.gl_context = s->options.gl_context;
    def.backend.gl_display = s->options.gl_display;
    return drape_world_create(&def, &s->world);
}

void sc_scene_finish(drape_scene *s) { s->log.capture = false; }

const char *sc_scene_last_error(const drape_scene *s)
{
    return s->log.last_error[0] ? s->log.last_error : "failed (no message)";
}

void drape_scene_destroy(drape_scene *s)
{
    if (!s)
        return;
    drape_world_destroy(s->world);
    for (uint32_t i = 0; i < s->object_count; ++i)
        free(s->objects[i].name);
    free(s->objects);
    sc_name_index_free(&s->names);
    free(s->triangles);
    free(s->lines);
    free(s->targets);
    free(s->attached);
    free(s->colliders);
    free(s->inputs);
    free(s->name);
    free(s);
}

/* ---- bookkeeping --------------------------------------------------------------------------- */

bool sc_valid_name(const char *name)
{
    if (!name || !*name || strlen(name) > 64)
        return false;
    for (const char *c = name; *c; ++c)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
            return false;
    return true;
}

/* Checks that a new object may have this name and that `count` more particles fit. */
static drape_result check_new(drape_scene *s, const char *name, uint64_t count)
{
    clear_error(s);
    if (!s->world)
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "the scene has no world yet");
    if (name && !sc_valid_name(name))
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT,
                    "name '%s' must be 1 to 64 letters, digits, '_', '-' or '.'", name);
    if (name && sc_scene_find_object(s, name, strlen(name)))
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "name '%s' is taken by another object", name);
    uint64_t total = (uint64_t)drape_world_particle_count(s->world) + count;
    if (s->options.max_particles && total > s->options.max_particles)
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT,
                    "%llu particles in all would exceed the limit of %u", (unsigned long long)total,
                    s->options.max_particles);
    return DRAPE_OK;
}

static drape_result add_object(drape_scene *s, const char *name, sc_object_kind kind,
                               uint32_t first, uint32_t count, uint32_t nx, uint32_t ny)
{
    char *copy = sc_strdup(name);
    sc_object *o =
        copy ? sc_grow(s->objects, &s->object_capacity, s->object_count + 1, sizeof *o) : NULL;
    if (!o) {
        free(copy);
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for object '%s'", name);
    }
    s->objects = o;
    s->objects[s->object_count] =
        (sc_object){copy, kind, first, count, nx, ny, false, drape_stiffness_pbd(1.0f)};
    if (!sc_name_index_add(s, s->object_count)) {
        free(copy);
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory to index object '%s'", name);
    }
    s->object_count++;
    return DRAPE_OK;
}

static drape_result push_triangle(drape_scene *s, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *t =
        sc_grow(s->triangles, &s->triangle_capacity, s->triangle_count + 1, 3 * sizeof *t);
    if (!t)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for another triangle");
    s->triangles = t;
    t += 3 * (size_t)s->triangle_count++;
    t[0] = a, t[1] = b, t[2] = c;
    return DRAPE_OK;
}

static drape_result push_line(drape_scene *s, uint32_t first, uint32_t count)
{
    sc_polyline *l = sc_grow(s->lines, &s->line_capacity, s->line_count + 1, sizeof *l);
    if (!l)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for another polyline");
    s->lines = l;
    s->lines[s->line_count++] = (sc_polyline){first, count};
    return DRAPE_OK;
}

/* ---- what a scene can hold ------------------------------------------------------------------ */

drape_result sc_scene_add_particles(drape_scene *s, const drape_particle_def *defs, uint32_t count)
{
    drape_result r = check_new(s, NULL, count);
    return r != DRAPE_OK ? r : drape_world_add_particles(s->world, defs, count, NULL);
}

/* At most how many balls a block holds: its lattice sites, or max_count (the library checks the
 * rest). */
static uint64_t block_sites(const drape_particle_block_def *d)
{
    const double pitch = d->spacing > 0.0f ? d->spacing : 2.2 * d->radius;
    const double size[3] = {d->size.x, d->shape == DRAPE_BLOCK_SPHERE ? d->size.x : d->size.y,
                            d->shape == DRAPE_BLOCK_SPHERE ? d->size.x : d->size.z};
    double sites = 1.0;
    for (int k = 0; k < 3; ++k)
        sites *= pitch > 0.0 ? fmax(0.0, floor((size[k] - 2.0 * d->radius) / pitch) + 1.0) : 0.0;
    if (d->max_count && sites > d->max_count)
        sites = d->max_count;
    return sites < 1e18 ? (uint64_t)sites : UINT64_MAX / 2;
}

drape_result sc_scene_add_particle_block(drape_scene *s, const drape_particle_block_def *d)
{
    drape_result r = check_new(s, NULL, block_sites(d));
    return r != DRAPE_OK ? r : drape_world_add_particle_block(s->world, d, NULL);
}

drape_result sc_scene_add_cloth(drape_scene *s, const char *name, const drape_cloth_def *def)
{
    drape_cloth_def resized = *def; /* the builder spreads the mass and spans the axes itself */
    if (s->options.cloth_resolution == 1) /* it was left as the scene said, silently */
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT,
                    "options.cloth_resolution = 1: a cloth needs at least 2 particles along each "
                    "edge (0: as the scene says)");
    if (s->options.cloth_resolution >= 2)
        resized.nx = resized.ny = s->options.cloth_resolution;
    const drape_cloth_def *d = &resized;
    drape_result r = check_new(s, name, (uint64_t)d->nx * d->ny);
    drape_build_info info;
    if (r == DRAPE_OK)
        r = drape_world_add_cloth(s->world, d, &info);
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_CLOTH, info.first_particle, d->nx * d->ny, d->nx,
                       d->ny); /* the grid; spare particles for tearing follow it */
    if (r == DRAPE_OK) {
        s->objects[s->object_count - 1].tether_attached = d->tethers && d->pins == DRAPE_PIN_NONE;
        s->objects[s->object_count - 1].tether_stiffness = d->tether_stiffness;
    }
    /* The builder's own triangulation (drape_cloth_triangles). */
    const uint32_t count = drape_cloth_triangles(d->nx, d->ny, info.first_particle, NULL);
    uint32_t *t = r == DRAPE_OK ? sc_grow(s->triangles, &s->triangle_capacity,
                                          s->triangle_count + count, 3 * sizeof *t)
                                : NULL;
    if (r == DRAPE_OK && !t)
        r = fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for the triangles of cloth '%s'",
                 name ? name : "");
    if (r == DRAPE_OK) {
        s->triangles = t;
        drape_cloth_triangles(d->nx, d->ny, info.first_particle, t + 3 * (size_t)s->triangle_count);
        s->triangle_count += count;
    }
    return r;
}

drape_result sc_scene_add_rope(drape_scene *s, const char *name, const drape_rope_def *d)
{
    drape_result r = check_new(s, name, d->count);
    drape_build_info info;
    if (r == DRAPE_OK)
        r = drape_world_add_rope(s->world, d, &info);
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_ROPE, info.first_particle, info.particle_count, 0, 0);
    if (r == DRAPE_OK) {
        s->objects[s->object_count - 1].tether_attached =
            d->tethers && !d->pin_start && !d->pin_end;
        s->objects[s->object_count - 1].tether_stiffness = d->tether_stiffness;
        r = push_line(s, info.first_particle, info.particle_count);
    }
    return r;
}

/* The surface of a soft box: two triangles per boundary quad, counter-clockwise seen from outside.
 * On the face where axis a is at its last index the outward normal is +e_a = e_u x e_v for the
 * next two axes u, v; on its first index the triangles turn the other way. */
static drape_result push_box_surface(drape_scene *s, uint32_t base, const uint32_t n[3])
{
    drape_result r = DRAPE_OK;
    for (int a = 0; a < 3; ++a) {
        const int u = (a + 1) % 3, v = (a + 2) % 3;
        for (int last = 0; last < 2; ++last) {
            uint32_t g[3];
            g[a] = last ? n[a] - 1 : 0;
            for (g[v] = 0; g[v] + 1 < n[v]; ++g[v])
                for (g[u] = 0; g[u] + 1 < n[u] && r == DRAPE_OK; ++g[u]) {
                    const uint32_t su = u == 0 ? 1 : u == 1 ? n[0] : n[0] * n[1];
                    const uint32_t sv = v == 0 ? 1 : v == 1 ? n[0] : n[0] * n[1];
                    const uint32_t p00 = base + (g[2] * n[1] + g[1]) * n[0] + g[0];
                    const uint32_t p10 = p00 + su, p01 = p00 + sv, p11 = p00 + su + sv;
                    r = last ? push_triangle(s, p00, p10, p11) : push_triangle(s, p00, p11, p10);
                    if (r == DRAPE_OK)
                        r = last ? push_triangle(s, p00, p11, p01)
                                 : push_triangle(s, p00, p01, p11);
                }
        }
    }
    return r;
}

drape_result sc_scene_add_soft_box(drape_scene *s, const char *name, const drape_soft_box_def *d)
{
    drape_result r = check_new(s, name, (uint64_t)d->nx * d->ny * d->nz);
    drape_build_info info;
    if (r == DRAPE_OK)
        r = drape_world_add_soft_box(s->world, d, &info);
    /* drawn and exported as the mesh of its surface */
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_MESH, info.first_particle, info.particle_count, 0, 0);
    const uint32_t n[3] = {d->nx, d->ny, d->nz};
    if (r == DRAPE_OK)
        r = push_box_surface(s, info.first_particle, n);
    return r;
}

drape_result sc_scene_add_tet_mesh(drape_scene *s, const char *name, const drape_tetgen_mesh *m,
                                   drape_vec3 translate, float scale, const drape_tet_mesh_def *def)
{
    drape_result r = check_new(s, name, m->vertex_count);
    if (r != DRAPE_OK)
        return r;
    drape_vec3 *v = malloc(((size_t)m->vertex_count + 1) * sizeof *v);
    uint32_t *surface = NULL, faces = 0;
    if (!v || !sc_tet_surface(m->tets, m->tet_count, &surface, &faces)) {
        free(v);
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for tetrahedral mesh '%s'", name);
    }
    for (uint32_t i = 0; i < m->vertex_count; ++i)
        v[i] = (drape_vec3){m->vertices[i].x * scale + translate.x,
                            m->vertices[i].y * scale + translate.y,
                            m->vertices[i].z * scale + translate.z};
    drape_tet_mesh_def d = *def;
    d.positions = v;
    d.vertex_count = m->vertex_count;
    d.tets = m->tets;
    d.tet_count = m->tet_count;
    drape_build_info info;
    r = drape_world_add_tet_mesh(s->world, &d, &info);
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_MESH, info.first_particle, info.particle_count, 0, 0);
    for (uint32_t f = 0; r == DRAPE_OK && f < faces; ++f)
        r = push_triangle(s, info.first_particle + surface[3 * f],
                          info.first_particle + surface[3 * f + 1],
                          info.first_particle + surface[3 * f + 2]);
    free(v);
    free(surface);
    return r;
}

drape_result sc_scene_add_icosphere(drape_scene *s, const char *name, const drape_icosphere_def *d)
{
    const uint64_t n = d->subdivisions <= 7 ? 10ull * (1ull << (2 * d->subdivisions)) + 2 : 0;
    drape_result r = check_new(s, name, n);
    drape_build_info info;
    uint32_t balloon = UINT32_MAX;
    if (r == DRAPE_OK)
        r = drape_world_add_icosphere(s->world, d, &info, &balloon);
    if (r == DRAPE_OK && balloon == UINT32_MAX)
        r = fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "a balloon needs a pressure > 0");
    /* drawn and exported as the mesh of its balloon's triangles */
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_MESH, info.first_particle, info.particle_count, 0, 0);
    drape_balloon_info bi;
    uint32_t *tri = NULL;
    if (r == DRAPE_OK)
        r = drape_world_get_balloon(s->world, balloon, &bi);
    if (r == DRAPE_OK && !(tri = malloc((size_t)3 * bi.triangle_count * sizeof *tri)))
        r = fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for a balloon's triangles");
    if (r == DRAPE_OK)
        r = drape_world_get_balloon_triangles(s->world, balloon, tri);
    for (uint32_t t = 0; r == DRAPE_OK && t < bi.triangle_count; ++t)
        r = push_triangle(s, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]);
    free(tri);
    return r;
}

sc_mesh_def sc_default_mesh_def(void)
{
    sc_mesh_def d = {
        .translate = {0.0f, 0.0f, 0.0f},
        .scale = 1.0f,
        .velocity = {0.0f, 0.0f, 0.0f},
        .mass = 0.1f,
        .pinned = NULL,
        .pinned_count = 0,
        .stretch = {1.0f, 0.0f, DRAPE_STIFFNESS_PBD},
        .dihedral = true,
        .bend = {0.2f, 0.0f, DRAPE_STIFFNESS_PBD},
    };
    return d;
}

/* Checks a mesh and its def before anything is added. */
static drape_result check_mesh(drape_scene *s, const drape_mesh *m, const sc_mesh_def *d)
{
    if (m->vertex_count == 0)
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "the mesh has no vertices");
    for (size_t i = 0; i < 3 * (size_t)m->triangle_count; ++i)
        if (m->triangles[i] >= m->vertex_count)
            return fail(s, DRAPE_ERROR_OUT_OF_RANGE, "triangle %zu names vertex %u of %u", i / 3,
                        m->triangles[i], m->vertex_count);
    for (uint32_t i = 0; i < d->pinned_count; ++i)
        if (d->pinned[i] >= m->vertex_count)
            return fail(s, DRAPE_ERROR_OUT_OF_RANGE,
                        "pinned vertex %u is out of range (the mesh has %u vertices, from 0)",
                        d->pinned[i], m->vertex_count);
    if (!(d->scale > 0.0f) || !(d->mass > 0.0f))
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "scale %g and mass %g must be > 0",
                    (double)d->scale, (double)d->mass);
    return DRAPE_OK;
}

drape_result sc_scene_add_mesh(drape_scene *s, const char *name, const drape_mesh *m,
                               const sc_mesh_def *d)
{
    drape_result r = check_new(s, name, m->vertex_count);
    if (r == DRAPE_OK)
        r = check_mesh(s, m, d);
    if (r != DRAPE_OK)
        return r;
    char why[256];
    sc_mesh_topology topo;
    if (!sc_mesh_topology_build(m, &topo, why, sizeof why))
        return fail(s, DRAPE_ERROR_INVALID_ARGUMENT, "%s", why);
    drape_particle_def *p = malloc((size_t)m->vertex_count * sizeof *p);
    if (!p) {
        sc_mesh_topology_free(&topo);
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for %u particles", m->vertex_count);
    }
    const float mass = d->mass / (float)m->vertex_count;
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        const drape_vec3 v = m->vertices[i];
        p[i] = drape_default_particle_def();
        p[i].position =
            (drape_vec3){v.x * d->scale + d->translate.x, v.y * d->scale + d->translate.y,
                         v.z * d->scale + d->translate.z};
        p[i].velocity = d->velocity;
        p[i].mass = mass;
    }
    for (uint32_t i = 0; i < d->pinned_count; ++i)
        p[d->pinned[i]].mass = 0.0f;
    const uint32_t base = drape_world_particle_count(s->world);
    r = drape_world_add_particles(s->world, p, m->vertex_count, NULL);
    free(p);
    for (uint32_t e = 0; e < topo.edge_count && r == DRAPE_OK; ++e) {
        drape_distance_def dd = drape_default_distance_def();
        dd.a = base + topo.edges[2 * (size_t)e];
        dd.b = base + topo.edges[2 * (size_t)e + 1];
        dd.stiffness = d->stretch.stiffness;
        dd.compliance = d->stretch.compliance;
        dd.model = d->stretch.model;
        dd.model = d->stretch.model;
        r = sc_scene_add_distance(s, &dd);
    }
    for (uint32_t h = 0; h < topo.hinge_count && d->dihedral && r == DRAPE_OK; ++h) {
        drape_dihedral_def dh = drape_default_dihedral_def();
        dh.edge0 = base + topo.hinges[h].edge0;
        dh.edge1 = base + topo.hinges[h].edge1;
        dh.wing0 = base + topo.hinges[h].wing0;
        dh.wing1 = base + topo.hinges[h].wing1;
        dh.stiffness = d->bend.stiffness;
        dh.compliance = d->bend.compliance;
        dh.model = d->bend.model;
        dh.model = d->bend.model;
        r = drape_world_add_dihedral(s->world, &dh, NULL);
    }
    sc_mesh_topology_free(&topo);
    if (r == DRAPE_OK)
        r = add_object(s, name, SC_OBJECT_MESH, base, m->vertex_count, 0, 0);
    for (uint32_t t = 0; t < m->triangle_count && r == DRAPE_OK; ++t) {
        const uint32_t *v = &m->triangles[3 * (size_t)t];
        r = push_triangle(s, base + v[0], base + v[1], base + v[2]);
    }
    return r;
}

drape_result sc_scene_add_distance(drape_scene *s, const drape_distance_def *d)
{
    clear_error(s);
    return drape_world_add_distance(s->world, d, NULL);
}

drape_result sc_scene_add_tether(drape_scene *s, const drape_tether_def *d)
{
    clear_error(s);
    return drape_world_add_tether(s->world, d, NULL);
}

drape_result sc_scene_add_dihedral(drape_scene *s, const drape_dihedral_def *d)
{
    clear_error(s);
    return drape_world_add_dihedral(s->world, d, NULL);
}

drape_result sc_scene_add_attachment(drape_scene *s, const drape_attachment_def *d,
                                     const sc_target_path *path)
{
    clear_error(s);
    drape_attachment_def def = *d;
    if (path)
        def.target = sc_target_path_at(path, 0.0);
    sc_target *t =
        path ? sc_grow(s->targets, &s->target_capacity, s->target_count + 1, sizeof *t) : NULL;
    if (path && !t)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for another scripted target");
    if (t)
        s->targets = t;
    uint32_t *attached =
        sc_grow(s->attached, &s->attached_capacity, s->attached_count + 1, sizeof *attached);
    if (!attached)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for another attachment");
    s->attached = attached;
    drape_attachment_id id;
    drape_result r = drape_world_add_attachment(s->world, &def, &id);
    if (r == DRAPE_OK && path)
        s->targets[s->target_count++] = (sc_target){id, *path};
    if (r == DRAPE_OK)
        s->attached[s->attached_count++] = def.particle;
    return r;
}

drape_result sc_scene_tether_attached(drape_scene *s)
{
    clear_error(s);
    drape_result r = DRAPE_OK;
    uint32_t *anchors = s->attached_count ? malloc(s->attached_count * sizeof *anchors) : NULL;
    if (s->attached_count && !anchors)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for the tethers' anchors");
    for (uint32_t k = 0; k < s->object_count && r == DRAPE_OK; ++k) {
        const sc_object *o = &s->objects[k];
        uint32_t n = 0;
        for (uint32_t i = 0; o->tether_attached && i < s->attached_count; ++i)
            if (s->attached[i] - o->first < o->count)
                anchors[n++] = s->attached[i];
        if (n > 0)
            r = drape_world_add_nearest_tethers(s->world, o->first, o->count, anchors, n,
                                                o->tether_stiffness);
    }
    free(anchors);
    return r;
}

drape_result sc_scene_add_collider(drape_scene *s, const drape_collider_def *d)
{
    clear_error(s);
    drape_collider_def *kept =
        sc_grow(s->colliders, &s->collider_capacity, s->collider_count + 1, sizeof *kept);
    if (!kept)
        return fail(s, DRAPE_ERROR_OUT_OF_MEMORY, "no memory for another collider");
    s->colliders = kept;
    drape_result r = drape_world_add_collider(s->world, d, NULL);
    if (r == DRAPE_OK) {
        s->colliders[s->collider_count++] = *d;
        s->colliders_by_type[d->type]++;
        if (d->velocity.x != 0.0f || d->velocity.y != 0.0f || d->velocity.z != 0.0f)
            s->moving_colliders++;
    }
    return r;
}

drape_result sc_scene_add_triangle(drape_scene *s, const uint32_t v[3])
{
    clear_error(s);
    const uint32_t n = drape_world_particle_count(s->world);
    for (int k = 0; k < 3; ++k) {
        if (v[k] >= n)
            return fail(s, DRAPE_ERROR_OUT_OF_RANGE,
                        "particle %u is out of range (the scene has %u particles)", v[k], n);
        for (int l = 0; l < k; ++l)
            if (v[k] == v[l])
                return fail(s, DRAPE_ERROR_INVALID_ARGUMENT,
                            "a triangle needs three distinct particles, got %u twice", v[k]);
    }
    return push_triangle(s, v[0], v[1], v[2]);
}

/* ---- running and reading --------------------------------------------------------------------- */

drape_world *drape_scene_world(const drape_scene *s) { return s ? s->world : NULL; }
const char *drape_scene_name(const drape_scene *s) { return s ? s->name : ""; }
uint32_t drape_scene_default_steps(const drape_scene *s) { return s ? s->default_steps : 0; }
uint64_t drape_scene_steps_done(const drape_scene *s) { return s ? s->steps_done : 0; }

const uint32_t *drape_scene_triangles(const drape_scene *s, uint32_t *count)
{
    if (count)
        *count = s ? s->triangle_count : 0;
    return s ? s->triangles : NULL;
}

uint32_t drape_scene_object_count(const drape_scene *s) { return s ? s->object_count : 0; }

bool drape_scene_get_object(const drape_scene *s, uint32_t index, drape_scene_object *out)
{
    if (!s || !out || index >= s->object_count)
        return false;
    const sc_object *o = &s->objects[index];
    *out = (drape_scene_object){
        o->name, (drape_scene_object_kind)o->kind, o->first, o->count, o->nx, o->ny};
    return true;
}

uint32_t drape_scene_collider_count(const drape_scene *s) { return s ? s->collider_count : 0; }

bool drape_scene_get_collider(const drape_scene *s, uint32_t index, drape_collider_def *out)
{
    if (!s || !out || index >= s->collider_count)
        return false;
    *out = s->colliders[index];
    return true;
}

drape_result drape_scene_step(drape_scene *s)
{
    if (!s || !s->world)
        return DRAPE_ERROR_INVALID_ARGUMENT;
    if (s->target_count) {
        const double t = (double)(s->steps_done + 1) * (double)drape_world_get_def(s->world).dt;
        for (uint32_t i = 0; i < s->target_count; ++i) {
            drape_result r = drape_world_set_attachment_target(
                s->world, s->targets[i].attachment, sc_target_path_at(&s->targets[i].path, t));
            if (r != DRAPE_OK)
                return r;
        }
    }
    const drape_tear_stats tears = drape_world_get_tear_stats(s->world);
    if (tears.spares_left > 0 && s->steps_done == 0 && s->triangle_count > 0 &&
        drape_world_get_triangles(s->world, NULL) == 0) {
        /* a cloth may tear: the world follows the splits in the triangles it holds */
        drape_result r = drape_world_set_triangles(s->world, s->triangles, s->triangle_count);
        if (r != DRAPE_OK)
            return r;
    }
    drape_result r = drape_world_step(s->world);
    if (r == DRAPE_OK)
        s->steps_done++;
    /* vertices split: the scene's triangles follow the world's (the same set, as set above) */
    if (r == DRAPE_OK && drape_world_get_tear_stats(s->world).splits != tears.splits &&
        drape_world_get_triangles(s->world, NULL) == s->triangle_count)
        drape_world_get_triangles(s->world, s->triangles);
    return r;
}
