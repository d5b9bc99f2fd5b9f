/* Constraints: distance, dihedral bending and attachment, and their colour-ordered solver copies.
 *
 * The user's constraints stay in creation order, so ids are stable. Before a step, each type is
 * coloured (coloring/) and copied into colour order; the copy is what a backend projects, one
 * colour a contiguous range (Fratarcangeli & Pellacini, SIGRAD 2014). The copy also holds the
 * iteration-corrected PBD stiffness k' = 1 - (1 - k)^(1/n) (Müller et al. 2007, section 3.3).
 */
#include "world_internal.h"

#include "drape_coloring.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

drape_distance_def drape_default_distance_def(void)
{
    drape_distance_def d = {0,
                            0,
                            DRAPE_REST_FROM_POSITIONS,
                            1.0f,
                            0.0f,
                            DRAPE_STIFFNESS_PBD,
                            DRAPE_DISTANCE_STRETCH,
                            DR_DEF_COOKIE};
    return d;
}

drape_dihedral_def drape_default_dihedral_def(void)
{
    drape_dihedral_def d = {
        0, 0, 0, 0, DRAPE_REST_FROM_POSITIONS, 1.0f, 0.0f, DRAPE_STIFFNESS_PBD, DR_DEF_COOKIE};
    return d;
}

drape_attachment_def drape_default_attachment_def(void)
{
    drape_attachment_def d = {0,    {0.0f, 0.0f, 0.0f},  1.0f,
                              0.0f, DRAPE_STIFFNESS_PBD, DR_DEF_COOKIE};
    return d;
}

void dr_constraints_init(dr_constraints *set, uint32_t arity)
{
    memset(set, 0, sizeof *set);
    set->arity = arity;
    set->multipliers = 1;
}

void dr_constraints_free(dr_constraints *set)
{
    free(set->idx);
    free(set->rest);
    free(set->stiffness);
    free(set->compliance);
    free(set->kind);
    free(set->target);
    free(set->removed);
    free(set->free_ids);
    free(set->param);
    free(set->generation);
    const uint32_t params = set->params, multipliers = set->multipliers;
    dr_constraints_init(set, set->arity);
    set->params = params;
    set->multipliers = multipliers;
}

void dr_solver_set_free(dr_solver_set *s)
{
    free(s->idx);
    free(s->rest);
    free(s->material);
    free(s->materials);
    free(s->lambda);
    free(s->target);
    free(s->slot_of);
    free(s->offsets);
    free(s->param);
    memset(s, 0, sizeof *s);
}

static bool resize(void **array, size_t bytes)
{
    void *p = realloc(*array, bytes ? bytes : 1);
    if (!p)
        return false;
    *array = p;
    return true;
}

/* Makes room for one more constraint in every array of the set. */
static bool reserve_one(dr_constraints *s)
{
    if (s->count < s->capacity)
        return true;
    size_t cap = s->capacity ? (size_t)s->capacity * 2 : 64;
    if (cap > UINT32_MAX / 8)
        return false;
    if (!resize((void **)&s->idx, cap * s->arity * sizeof *s->idx) ||
        !resize((void **)&s->rest, cap * sizeof *s->rest) ||
        !resize((void **)&s->stiffness, cap * sizeof *s->stiffness) ||
        !resize((void **)&s->compliance, cap * sizeof *s->compliance) ||
        !resize((void **)&s->kind, cap * sizeof *s->kind) ||
        !resize((void **)&s->target, cap * sizeof *s->target) ||
        !resize((void **)&s->removed, cap * sizeof *s->removed) ||
        !resize((void **)&s->free_ids, cap * sizeof *s->free_ids) ||
        !resize((void **)&s->generation, cap * sizeof *s->generation) ||
        (s->params && !resize((void **)&s->param, cap * s->params * sizeof *s->param)))
        return false;
    s->capacity = (uint32_t)cap;
    return true;
}

static const char *const particle_names[] = {"particle"}, *const pair_names[] = {"a", "b"},
                         *const hinge_names[] = {"edge0", "edge1", "wing0", "wing1"};

drape_result dr_check_constraint(const drape_world *w, const char *fn, const uint32_t *idx,
                                 const char *const *names, uint32_t arity, drape_stiffness s)
{
    for (uint32_t i = 0; i < arity; ++i) {
        if (idx[i] >= w->particle_count)
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                           "%s: def->%s = %u is out of range (the world has %u particles)", fn,
                           names[i], idx[i], w->particle_count);
        for (uint32_t j = 0; j < i; ++j)
            if (idx[i] == idx[j])
                return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                               "%s: def->%s and def->%s are both particle %u: a constraint needs "
                               "distinct particles",
                               fn, names[j], names[i], idx[i]);
    }
    return dr_check_stiffness(&w->def, fn, "def->", s);
}

drape_result dr_store_constraint(drape_world *w, drape_constraint_type type, const char *fn,
                                 const uint32_t *idx, float rest, drape_stiffness k, uint8_t kind,
                                 dr_vec4 target, uint32_t *out_id)
{
    dr_constraints *s = &w->constraints[type];
    uint32_t id;
    if (s->free_count > 0) {
        id = s->free_ids[--s->free_count];
    } else {
        if (!reserve_one(s))
            return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY, "%s: no memory for %u constraints",
                           fn, s->count + 1);
        id = s->count++;
        s->generation[id] = 1;
    }
    memcpy(&s->idx[(size_t)id * s->arity], idx, s->arity * sizeof *idx);
    s->rest[id] = rest;
    s->stiffness[id] = k.stiffness;
    s->compliance[id] = dr_solver_compliance(k);
    s->kind[id] = kind;
    s->target[id] = target;
    s->removed[id] = 0;
    s->live++;
    w->type_dirty |= 1u << type;
    if (out_id)
        *out_id = id;
    return DRAPE_OK;
}

drape_result dr_add_distance(drape_world *w, const char *fn, const drape_distance_def *def,
                             uint32_t *out_id)
{
    DR_CHECK_DEF(&w->def, def, fn, "distance");
    uint32_t idx[2] = {def->a, def->b};
    drape_result r = dr_check_constraint(w, fn, idx, pair_names, 2, DR_DEF_STIFFNESS(def));
    if (r == DRAPE_OK)
        r = dr_world_pull(w); /* the rest length may come from the current positions */
    if (r != DRAPE_OK)
        return r;
    const bool from_positions = def->rest_length == DRAPE_REST_FROM_POSITIONS;
    if (!from_positions && !(def->rest_length >= 0.0f && def->rest_length <= DR_MAX_MAGNITUDE))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->rest_length = %g m must be in [0, %g] (or "
                       "DRAPE_REST_FROM_POSITIONS: the current distance)",
                       fn, (double)def->rest_length, (double)DR_MAX_MAGNITUDE);
    if ((unsigned)def->kind > DRAPE_DISTANCE_BEND)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: def->kind = %d is not a kind",
                       fn, (int)def->kind);
    float rest = !from_positions ? def->rest_length : dr_len3(dr_sub3(w->x[def->a], w->x[def->b]));
    return dr_store_constraint(w, DRAPE_CONSTRAINT_DISTANCE, fn, idx, rest, DR_DEF_STIFFNESS(def),
                               (uint8_t)def->kind, DR_V4(0.0f, 0.0f, 0.0f, 0.0f), out_id);
}

drape_result drape_world_add_distance(drape_world *w, const drape_distance_def *def,
                                      uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_distance(w, __func__, def, out_id);
}

drape_result dr_add_dihedral(drape_world *w, const char *fn, const drape_dihedral_def *def,
                             uint32_t *out_id)
{
    DR_CHECK_DEF(&w->def, def, fn, "dihedral");
    uint32_t idx[4] = {def->edge0, def->edge1, def->wing0, def->wing1};
    drape_result r = dr_check_constraint(w, fn, idx, hinge_names, 4, DR_DEF_STIFFNESS(def));
    if (r == DRAPE_OK)
        r = dr_world_pull(w); /* the rest angle may come from the current positions */
    if (r != DRAPE_OK)
        return r;
    const bool from_positions = def->rest_angle == DRAPE_REST_FROM_POSITIONS;
    if (!from_positions && !(fabsf(def->rest_angle) <= 3.14159266f))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->rest_angle = %g rad must be in [-pi, pi] (or "
                       "DRAPE_REST_FROM_POSITIONS: the current angle)",
                       fn, (double)def->rest_angle);
    float rest = !from_positions
                     ? def->rest_angle
                     : dr_dihedral_angle(w->x[idx[0]], w->x[idx[1]], w->x[idx[2]], w->x[idx[3]]);
    return dr_store_constraint(w, DRAPE_CONSTRAINT_DIHEDRAL, fn, idx, rest, DR_DEF_STIFFNESS(def),
                               0, DR_V4(0.0f, 0.0f, 0.0f, 0.0f), out_id);
}

drape_result drape_world_add_dihedral(drape_world *w, const drape_dihedral_def *def,
                                      uint32_t *out_id)
{
    DR_CHECK_WORLD(w);
    return dr_add_dihedral(w, __func__, def, out_id);
}

drape_result drape_world_add_attachment(drape_world *w, const drape_attachment_def *def,
                                        drape_attachment_id *out_id)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_add_attachment";
    DR_CHECK_DEF(&w->def, def, fn, "attachment");
    drape_result r =
        dr_check_constraint(w, fn, &def->particle, particle_names, 1, DR_DEF_STIFFNESS(def));
    if (r != DRAPE_OK)
        return r;
    if (!dr_within3(def->target))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: def->target must be finite and within %g m", fn,
                       (double)DR_MAX_MAGNITUDE);
    uint32_t slot;
    r = dr_store_constraint(w, DRAPE_CONSTRAINT_ATTACHMENT, fn, &def->particle, 0.0f,
                            DR_DEF_STIFFNESS(def), 0, dr_vec4_from(def->target, 0.0f), &slot);
    if (r == DRAPE_OK && out_id)
        *out_id = (drape_attachment_id){
            slot, w->constraints[DRAPE_CONSTRAINT_ATTACHMENT].generation[slot]};
    return r;
}

/* The slot of a live attachment's id; OUT_OF_RANGE for an id that names none now (never given
 * out, or removed: its slot's generation has moved on). */
static drape_result attachment_slot(const drape_world *w, drape_attachment_id id, const char *fn,
                                    uint32_t *slot)
{
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_ATTACHMENT];
    if (id.index >= s->count || s->removed[id.index] || s->generation[id.index] != id.generation)
        return dr_fail(
            &w->def, DRAPE_ERROR_OUT_OF_RANGE,
            "%s: attachment id %u (generation %u) does not exist%s", fn, id.index, id.generation,
            id.index < s->count && id.generation > 0 && id.generation < s->generation[id.index]
                ? ": it was removed"
                : "");
    *slot = id.index;
    return DRAPE_OK;
}

drape_result drape_world_set_attachment_target(drape_world *w, drape_attachment_id handle,
                                               drape_vec3 target)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_attachment_target";
    uint32_t id = 0;
    drape_result r = attachment_slot(w, handle, fn, &id);
    if (r != DRAPE_OK)
        return r;
    if (!dr_within3(target))
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT,
                       "%s: target must be finite and within %g m", fn, (double)DR_MAX_MAGNITUDE);
    w->constraints[DRAPE_CONSTRAINT_ATTACHMENT].target[id] = dr_vec4_from(target, 0.0f);
    dr_solver_set *solved = &w->solver[DRAPE_CONSTRAINT_ATTACHMENT];
    if (!w->solver_dirty && !(w->type_dirty & (1u << DRAPE_CONSTRAINT_ATTACHMENT)))
        solved->target[solved->slot_of[id]] = dr_vec4_from(target, 0.0f);
    w->stale |= DR_STALE_TARGETS;
    return DRAPE_OK;
}

drape_result drape_world_remove_attachment(drape_world *w, drape_attachment_id handle)
{
    DR_CHECK_WORLD(w);
    uint32_t id = 0;
    drape_result r = attachment_slot(w, handle, "drape_world_remove_attachment", &id);
    if (r != DRAPE_OK)
        return r;
    dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_ATTACHMENT];
    s->removed[id] = 1;
    s->generation[id] = s->generation[id] == UINT32_MAX ? 1 : s->generation[id] + 1;
    s->free_ids[s->free_count++] = id;
    s->live--;
    w->type_dirty |= 1u << DRAPE_CONSTRAINT_ATTACHMENT;
    return DRAPE_OK;
}

uint32_t drape_world_constraint_count(const drape_world *w, drape_constraint_type type)
{
    if (!w || (unsigned)type >= DRAPE_CONSTRAINT_TYPE_COUNT)
        return 0;
    return w->constraints[type].live;
}

uint32_t drape_world_distance_count(const drape_world *w, drape_distance_kind kind)
{
    if (!w)
        return 0;
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    uint32_t n = 0;
    for (uint32_t id = 0; id < s->count; ++id)
        n += !s->removed[id] && s->kind[id] == (uint8_t)kind;
    return n;
}

static float corrected_stiffness(float k, int iterations)
{
    if (k >= 1.0f)
        return 1.0f;
    return 1.0f - powf(1.0f - k, 1.0f / (float)iterations);
}

float dr_corrected_stiffness(float k, int iterations) { return corrected_stiffness(k, iterations); }

/* The bits of a material, for telling two apart exactly as the kernels would see them. */
static uint64_t material_key(dr_material m)
{
    uint32_t k, c;
    memcpy(&k, &m.kprime, sizeof k);
    memcpy(&c, &m.compliance, sizeof c);
    return (uint64_t)k << 32 | c;
}

/* Gives every live constraint of a solver set (count, slot_of filled) its material: the set's
 * distinct (k', compliance) pairs, from the creation-order stiffness and compliance, numbered in
 * creation order. The pairs are told apart by their bits (an open-addressing
 * table), so the kernels read exactly the floats a per-constraint copy held. False: no memory (the
 * set is left as it was). */
static bool assign_materials(dr_solver_set *set, const dr_constraints *s, int iterations)
{
    const uint32_t n = set->count;
    size_t buckets = 16;
    while (buckets < 2 * (size_t)n)
        buckets *= 2;
    uint32_t *table = calloc(buckets, sizeof *table); /* material + 1, 0: empty */
    dr_material *materials = malloc(((size_t)n + 1) * sizeof *materials);
    uint32_t *material = malloc(((size_t)n + 1) * sizeof *material);
    if (!table || !materials || !material) {
        free(table), free(materials), free(material);
        return false;
    }
    uint32_t count = 0;
    for (uint32_t id = 0; id < s->count; ++id) {
        if (s->removed[id])
            continue;
        const dr_material m = {corrected_stiffness(s->stiffness[id], iterations),
                               s->compliance[id]};
        const uint64_t key = material_key(m);
        size_t b = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (buckets - 1);
        while (table[b] && material_key(materials[table[b] - 1]) != key)
            b = (b + 1) & (buckets - 1);
        if (!table[b]) {
            materials[count] = m;
            table[b] = ++count;
        }
        material[set->slot_of[id]] = table[b] - 1;
    }
    free(table);
    dr_material *fit = realloc(materials, ((size_t)count + 1) * sizeof *fit);
    free(set->materials);
    free(set->material);
    set->materials = fit ? fit : materials;
    set->material = material;
    set->material_count = count;
    return true;
}

/* Checks a range of never-removed constraints for the readers below. */
static drape_result check_range(const drape_world *w, const char *fn, drape_constraint_type type,
                                uint32_t first, uint32_t count, const void *out)
{
    const dr_constraints *s = &w->constraints[type];
    if (!out && count)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (first > s->count || count > s->count - first)
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_RANGE,
                       "%s: constraints %u .. %u + %u are out of range (the world has %u)", fn,
                       first, first, count, s->count);
    return DRAPE_OK;
}

drape_result drape_world_get_distances(const drape_world *w, uint32_t first, uint32_t count,
                                       drape_distance_def *out)
{
    DR_CHECK_WORLD(w);
    drape_result r =
        check_range(w, "drape_world_get_distances", DRAPE_CONSTRAINT_DISTANCE, first, count, out);
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DISTANCE];
    for (uint32_t k = 0; r == DRAPE_OK && k < count; ++k) {
        const uint32_t id = first + k;
        const drape_stiffness st = dr_stiffness_of_solver(s->stiffness[id], s->compliance[id]);
        out[k] = (drape_distance_def){s->idx[2 * (size_t)id],
                                      s->idx[2 * (size_t)id + 1],
                                      s->rest[id],
                                      st.stiffness,
                                      st.compliance,
                                      st.model,
                                      (drape_distance_kind)s->kind[id],
                                      DR_DEF_COOKIE};
    }
    return r;
}

drape_result drape_world_get_dihedrals(const drape_world *w, uint32_t first, uint32_t count,
                                       drape_dihedral_def *out)
{
    DR_CHECK_WORLD(w);
    drape_result r =
        check_range(w, "drape_world_get_dihedrals", DRAPE_CONSTRAINT_DIHEDRAL, first, count, out);
    const dr_constraints *s = &w->constraints[DRAPE_CONSTRAINT_DIHEDRAL];
    for (uint32_t k = 0; r == DRAPE_OK && k < count; ++k) {
        const uint32_t *i = &s->idx[4 * (size_t)(first + k)];
        const drape_stiffness st =
            dr_stiffness_of_solver(s->stiffness[first + k], s->compliance[first + k]);
        out[k] = (drape_dihedral_def){
            i[0],         i[1],          i[2],     i[3],         s->rest[first + k],
            st.stiffness, st.compliance, st.model, DR_DEF_COOKIE};
    }
    return r;
}

drape_result drape_world_set_stiffness(drape_world *w, drape_constraint_type type, uint32_t kinds,
                                       drape_stiffness k)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_set_stiffness";
    if ((unsigned)type >= DRAPE_CONSTRAINT_TYPE_COUNT)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: type = %d is not a type", fn,
                       (int)type);
    if (type == DRAPE_CONSTRAINT_NEO_HOOKEAN)
        return dr_fail(&w->def, DRAPE_ERROR_UNSUPPORTED,
                       "%s: Neo-Hookean tetrahedra take a Young's modulus and a Poisson's ratio, "
                       "not a stiffness or compliance",
                       fn);
    drape_result r = dr_check_stiffness(&w->def, fn, "stiffness.", k);
    if (r != DRAPE_OK)
        return r;
    const float compliance = dr_solver_compliance(k);
    dr_constraints *s = &w->constraints[type];
    for (uint32_t id = 0; id < s->count; ++id) {
        if (s->removed[id] || (type == DRAPE_CONSTRAINT_DISTANCE && !(kinds & (1u << s->kind[id]))))
            continue;
        s->stiffness[id] = k.stiffness;
        s->compliance[id] = compliance;
    }
    w->stale |= DR_STALE_SET(type);
    if (w->solver_dirty || (w->type_dirty & (1u << type)))
        return DRAPE_OK; /* the set is rebuilt, materials and all, before the next step */
    if (!assign_materials(&w->solver[type], s, w->def.iterations)) {
        w->type_dirty |= 1u << type; /* rebuilt before the next step */
        return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                       "%s: no memory for the materials of %u "
                       "constraints",
                       fn, s->live);
    }
    return DRAPE_OK;
}

/* Bytes per constraint slot in creation order (all arrays reserve_one grows). */
static size_t slot_bytes(const dr_constraints *s)
{
    return s->arity * sizeof *s->idx + sizeof *s->rest + sizeof *s->stiffness +
           sizeof *s->compliance + sizeof *s->kind + sizeof *s->target + sizeof *s->removed +
           sizeof *s->free_ids + sizeof *s->generation + s->params * sizeof *s->param;
}

/* Bytes of one constraint in colour order, its slot_of entry included. */
static size_t solver_constraint_bytes(const dr_constraints *c)
{
    const dr_solver_set *s = NULL;
    return c->arity * sizeof *s->idx + sizeof *s->rest + sizeof *s->material +
           sizeof *s->materials + c->multipliers * sizeof *s->lambda + sizeof *s->target +
           sizeof *s->slot_of + c->params * sizeof *s->param;
}

/* Bytes of a solver set: its constraints, the slot map of `ids` creation ids, the colour offsets.
 */
static size_t solver_bytes(const dr_solver_set *s, const dr_constraints *c, uint32_t ids)
{
    return s->count * (solver_constraint_bytes(c) - sizeof *s->slot_of - sizeof *s->materials) +
           ids * sizeof *s->slot_of + (s->stats.colors + 1) * sizeof *s->offsets +
           s->material_count * sizeof *s->materials;
}

uint64_t dr_world_bytes_for(const drape_world *w, uint64_t particles, uint64_t distances,
                            uint64_t dihedrals)
{
    const uint64_t more[DRAPE_CONSTRAINT_TYPE_COUNT] = {distances, dihedrals, 0};
    uint64_t bytes = (uint64_t)(w->particle_count + particles) *
                     (sizeof *w->x + sizeof *w->v + sizeof *w->d + sizeof *w->a + sizeof *w->a1 +
                      sizeof *w->contacts);
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const dr_constraints *s = &w->constraints[t];
        const uint64_t n = s->count + more[t];
        /* Creation order, colour order, and as much again while the colouring works. */
        bytes += n * (slot_bytes(s) + 2 * solver_constraint_bytes(s));
    }
    return bytes;
}

uint64_t drape_world_host_bytes(const drape_world *w)
{
    if (!w)
        return 0;
    uint64_t bytes = sizeof *w;
    bytes += (uint64_t)w->particle_capacity * (sizeof *w->x + sizeof *w->v + sizeof *w->d +
                                               sizeof *w->a + sizeof *w->a1 + sizeof *w->contacts);
    bytes += (uint64_t)w->collider_capacity * sizeof *w->colliders;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        const dr_constraints *s = &w->constraints[t];
        bytes += (uint64_t)s->capacity * slot_bytes(s) + solver_bytes(&w->solver[t], s, s->count);
    }
    return bytes;
}

drape_result drape_world_get_coloring(const drape_world *w, drape_constraint_type type,
                                      drape_coloring_stats *out)
{
    DR_CHECK_WORLD(w);
    static const char fn[] = "drape_world_get_coloring";
    if (!out)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if ((unsigned)type >= DRAPE_CONSTRAINT_TYPE_COUNT)
        return dr_fail(&w->def, DRAPE_ERROR_INVALID_ARGUMENT, "%s: type = %d is not a type", fn,
                       (int)type);
    /* The colouring is made lazily, before the next step; asking for it makes it now. */
    drape_result r = dr_world_prepare((drape_world *)w);
    if (r != DRAPE_OK)
        return r;
    *out = w->solver[type].stats;
    return DRAPE_OK;
}

/* ---- the solver copy ------------------------------------------------------------------------- */

/* Colours one type and copies its live constraints into colour order. */
static drape_result rebuild_solver_set(drape_world *w, drape_constraint_type type)
{
    const dr_constraints *s = &w->constraints[type];
    const uint32_t arity = s->arity, n = s->live;
    dr_solver_set fresh;
    memset(&fresh, 0, sizeof fresh);
    uint32_t *live_ids = malloc(((size_t)n + 1) * sizeof *live_ids);
    uint32_t *packed = malloc(((size_t)n * arity + 1) * sizeof *packed);
    uint8_t *movable = malloc((size_t)w->particle_count + 1);
    fresh.idx = malloc(((size_t)n * arity + 1) * sizeof *fresh.idx);
    fresh.rest = malloc(((size_t)n + 1) * sizeof *fresh.rest);
    fresh.material = malloc(((size_t)n + 1) * sizeof *fresh.material);
    fresh.lambda = calloc((size_t)n * s->multipliers + 1, sizeof *fresh.lambda);
    if (s->params)
        fresh.param = malloc(((size_t)n * s->params + 1) * sizeof *fresh.param);
    fresh.target = malloc(((size_t)n + 1) * sizeof *fresh.target);
    fresh.slot_of = malloc(((size_t)s->count + 1) * sizeof *fresh.slot_of);
    drape_result r = DRAPE_ERROR_OUT_OF_MEMORY;
    drape_coloring coloring;
    memset(&coloring, 0, sizeof coloring);
    if (!live_ids || !packed || !movable || !fresh.idx || !fresh.rest || !fresh.material ||
        !fresh.lambda || !fresh.target || !fresh.slot_of || (s->params && !fresh.param))
        goto done;

    uint32_t k = 0;
    for (uint32_t id = 0; id < s->count; ++id) {
        fresh.slot_of[id] = UINT32_MAX;
        if (s->removed[id])
            continue;
        live_ids[k] = id;
        memcpy(&packed[(size_t)k * arity], &s->idx[(size_t)id * arity], arity * sizeof *packed);
        ++k;
    }
    /* A tether writes only its particle (dr_tether_core never moves the anchor), so an anchor that
     * is no tether's particle is only read in the tethers' pass: tethers may share it within a
     * colour, as they share a pinned one. (A cloth hung by attachments has as many tethers on each
     * attached particle as rows: 15 colours for scenes/tear.json, now 1.) */
    const bool tethers = type == DRAPE_CONSTRAINT_TETHER;
    for (uint32_t i = 0; i < w->particle_count; ++i)
        movable[i] = !tethers && w->x[i].w > 0.0f;
    for (uint32_t c = 0; tethers && c < n; ++c)
        movable[packed[2 * (size_t)c]] = w->x[packed[2 * (size_t)c]].w > 0.0f;

    drape_color_input in = {packed,
                            arity,
                            n,
                            movable,
                            w->particle_count,
                            w->def.color_order,
                            w->def.color_seed,
                            w->def.color_balance};
    r = drape_color_constraints(&in, &coloring);
    if (r != DRAPE_OK) {
        dr_log(&w->def, DRAPE_LOG_ERROR, "colouring constraint type %d failed: %s", (int)type,
               drape_result_string(r));
        goto done;
    }
    for (uint32_t slot = 0; slot < n; ++slot) {
        uint32_t id = live_ids[coloring.order[slot]];
        memcpy(&fresh.idx[(size_t)slot * arity], &s->idx[(size_t)id * arity],
               arity * sizeof *fresh.idx);
        fresh.rest[slot] = s->rest[id];
        fresh.target[slot] = s->target[id];
        fresh.slot_of[id] = slot;
        if (s->params)
            memcpy(&fresh.param[(size_t)slot * s->params], &s->param[(size_t)id * s->params],
                   s->params * sizeof *fresh.param);
    }
    fresh.count = n;
    if (!assign_materials(&fresh, s, w->def.iterations)) {
        r = DRAPE_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    fresh.offsets = coloring.offsets;
    fresh.stats = coloring.stats;
    coloring.offsets = NULL;
    dr_solver_set_free(&w->solver[type]);
    w->solver[type] = fresh;
    memset(&fresh, 0, sizeof fresh);
done:
    drape_coloring_free(&coloring);
    dr_solver_set_free(&fresh);
    free(live_ids);
    free(packed);
    free(movable);
    return r;
}

drape_result dr_world_prepare(drape_world *w)
{
    /* Only the types whose constraints changed are recoloured (all of them when pins or the
     * colouring settings changed): a grab or a release recolours the attachments alone. */
    const unsigned all = (1u << DRAPE_CONSTRAINT_TYPE_COUNT) - 1u;
    const unsigned types = w->solver_dirty ? all : w->type_dirty & all;
    /* a grab or a release (attachments alone) leaves the bodies as they were */
    if ((types & ~(1u << DRAPE_CONSTRAINT_ATTACHMENT)) || w->shapes.dirty)
        w->bodies.dirty = true;
    for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t) {
        if (!(types & (1u << t)))
            continue;
        drape_result r = rebuild_solver_set(w, (drape_constraint_type)t);
        if (r != DRAPE_OK)
            return r;
        w->recolored += w->solver[t].count;
        w->type_dirty &= ~(1u << t);
        w->stale |= DR_STALE_SET(t);
    }
    drape_result shapes = dr_shapes_prepare(w, w->solver_dirty || w->stiffness_dirty);
    if (shapes != DRAPE_OK)
        return shapes;
    w->solver_dirty = false;
    if (w->stiffness_dirty) {
        for (int t = 0; t < DRAPE_CONSTRAINT_TYPE_COUNT; ++t)
            if (!assign_materials(&w->solver[t], &w->constraints[t], w->def.iterations))
                return dr_fail(&w->def, DRAPE_ERROR_OUT_OF_MEMORY,
                               "no memory for the materials of %u constraints of type %d",
                               w->constraints[t].live, t);
        w->stiffness_dirty = false;
        w->stale |= DR_STALE_CONSTRAINTS;
    }
    if (w->bodies.dirty && w->def.damping > 0.0f) /* the bodies only damping needs */
        return dr_bodies_build(w);
    return DRAPE_OK;
}
