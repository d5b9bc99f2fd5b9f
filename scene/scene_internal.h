/* What the files of scene/ share and nothing else sees: the scene object, the calls that add to it
 * (the JSON parser and the built-in scenes both build scenes through them, so a file and a built-in
 * that say the same thing make the same world), errors, files, mesh topology and OBJ writing.
 *
 * Prefix sc_. Calls that add to a scene return the library's drape_result and leave the message in
 * the scene's log router (sc_scene_last_error); the caller puts it into context (a JSON path, the
 * name of a built-in scene).
 */
#ifndef DRAPE_SCENE_INTERNAL_H
#define DRAPE_SCENE_INTERNAL_H

#include "drape_scene.h"

#include <stdarg.h>
#include <stdio.h>

#if defined(__GNUC__)
#define SC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SC_PRINTF(fmt, args)
#endif

/* ---- error.c ---- */

/* Sets *err (status, result, formatted message) and returns status. */
drape_scene_status sc_fail(drape_scene_error *err, drape_scene_status status, drape_result result,
                           const char *fmt, ...) SC_PRINTF(4, 5);
drape_scene_status sc_vfail(drape_scene_error *err, drape_scene_status status, drape_result result,
                            const char *fmt, va_list ap);
/* At most SC_EXCERPT_MAX bytes of text for a message, printable ASCII kept, anything else
 * (and ') as \xNN, "..." when cut; buf needs 4 * SC_EXCERPT_MAX + 4 bytes. */
#define SC_EXCERPT_MAX 12
const char *sc_excerpt(const char *text, size_t length, char *buf, size_t size);
/* The 1-based line and column of byte `offset` of `data`. */
void sc_line_column(const char *data, size_t size, size_t offset, uint32_t *line,
                    uint32_t *column);
/* The status that a failed library call maps to: bad input for invalid or out-of-range values, a
 * world failure for memory and backends. */
drape_scene_status sc_status_of(drape_result result);

/* ---- array.c ---- */

/* Grows an array of `elem`-byte elements to hold at least `need` (need >= 1): the array, moved or
 * not, or NULL when out of memory (the old one is then still valid, and *capacity unchanged). */
void *sc_grow(void *array, uint32_t *capacity, uint32_t need, size_t elem);

/* ---- file_io.c ---- */

/* Reads a whole regular file (at most 1 GiB) into a NUL-terminated buffer; free() it. A missing or
 * unreadable file is DRAPE_SCENE_BAD_INPUT with "PATH: cannot read: why". */
drape_scene_status sc_read_file(const char *path, char **data, size_t *size,
                                drape_scene_error *err);
/* malloc'ed copies; NULL when out of memory. */
char *sc_strdup(const char *s);
/* The directory part of a path with its trailing '/', "" when there is none. */
char *sc_dirname(const char *path);
/* The file name without directory and extension ("scenes/flag.json" -> "flag"). */
char *sc_stem(const char *path);
/* dir + rel, or rel alone when it is absolute or dir is empty. */
char *sc_join(const char *dir, const char *rel);
/* Whether dir + rel stays inside dir: rel is relative, no ".." climbs above dir, and no symbolic
 * link leads out (where the file exists). false with what is wrong in `why`. */
bool sc_path_inside(const char *dir, const char *rel, char *why, size_t why_size);
/* Creates a directory unless it exists. */
drape_scene_status sc_make_dir(const char *dir, drape_scene_error *err);

/* ---- state.c ---- */

/* The particles' state read back from a world into malloc'ed arrays (free() each); pass NULL for
 * what is not wanted. Fails when out of memory or when the backend cannot read back. */
drape_result sc_read_state(const drape_world *world, uint32_t *count, drape_vec3 **positions,
                           drape_vec3 **velocities, float **masses);
/* Refuses to write a non-finite number: DRAPE_SCENE_OK when every component of values[0..count)
 * is finite, else DRAPE_SCENE_WORLD_FAILED with "PATH: not written: particle K's WHAT is not
 * finite (x, y, z)". */
drape_scene_status sc_check_finite(const drape_vec3 *values, uint32_t count, const char *what,
                                   const char *path, drape_scene_error *err);

/* ---- target_path.c: scripted attachment targets ---- */

typedef enum sc_path_type {
    SC_PATH_CIRCLE = 0, /* centre + radius (cos a u + sin a v), a = phase + 2 pi t / period */
    SC_PATH_LINEAR = 1, /* start + velocity t */
} sc_path_type;

typedef struct sc_target_path {
    sc_path_type type;
    drape_vec3 centre, normal; /* circle: the plane of the circle is normal to `normal` */
    float radius, period, phase;
    drape_vec3 start, velocity; /* linear */
} sc_target_path;

sc_target_path sc_default_target_path(void);
/* Where the path is at time t (s). */
drape_vec3 sc_target_path_at(const sc_target_path *path, double t);

/* ---- mesh_topology.c ---- */

typedef struct sc_hinge {
    uint32_t edge0, edge1, wing0, wing1; /* triangles (edge0, edge1, wing0) and (edge1, edge0, wing1) */
} sc_hinge;

typedef struct sc_mesh_topology {
    uint32_t *edges; /* 2 * edge_count vertex indices, each edge once, a < b */
    uint32_t edge_count;
    sc_hinge *hinges; /* one per edge shared by exactly two triangles */
    uint32_t hinge_count;
} sc_mesh_topology;

/* Builds the edges and hinges of a mesh with valid indices. Fails (false, with `why`) when out of
 * memory or when two triangles are the same triangle. */
bool sc_mesh_topology_build(const drape_mesh *mesh, sc_mesh_topology *out, char *why,
                            size_t why_size);
void sc_mesh_topology_free(sc_mesh_topology *topology);

/* ---- obj_write.c ---- */

typedef struct sc_polyline {
    uint32_t first, count; /* consecutive particles */
} sc_polyline;

typedef struct sc_obj_frame {
    const char *object;          /* the object's name (o) */
    const char *comment;         /* a comment line, or NULL */
    const drape_vec3 *vertices;  /* vertex_count */
    const drape_vec3 *normals;   /* vertex_count, or NULL */
    uint32_t vertex_count;
    const uint32_t *triangles;   /* 3 * triangle_count, 0-based */
    uint32_t triangle_count;
    const sc_polyline *lines;
    uint32_t line_count;
} sc_obj_frame;

/* Writes the frame as OBJ text; false on a write error. */
bool sc_obj_write(FILE *f, const sc_obj_frame *frame);

/* ---- scene.c: the scene object and the calls that add to it ---- */

/* Routes the world's messages: while loading, errors are kept (the loader puts them in context)
 * and the rest go on to the user's callback; after loading, everything goes on. */
typedef struct sc_log_router {
    drape_log_fn user;
    void *user_data;
    bool capture;
    char last_error[768];
} sc_log_router;

typedef enum sc_object_kind {
    SC_OBJECT_CLOTH = 0,
    SC_OBJECT_ROPE = 1,
    SC_OBJECT_MESH = 2,
} sc_object_kind;

/* A named group of consecutive particles that particle references can name. */
typedef struct sc_object {
    char *name;
    sc_object_kind kind;
    uint32_t first, count;
    uint32_t nx, ny; /* cloths: the grid */
} sc_object;

/* name_index.c: the objects' names, hashed (open addressing over object indices). */
typedef struct sc_name_index {
    uint32_t *slots; /* object index, or UINT32_MAX for an empty slot */
    size_t capacity; /* a power of two, at least twice count */
    uint32_t count;
} sc_name_index;

typedef struct sc_target {
    uint32_t attachment; /* the attachment's id */
    sc_target_path path;
} sc_target;

struct drape_scene {
    char *name;
    drape_world *world;
    sc_log_router log;
    drape_scene_options options;
    uint32_t default_steps;
    uint64_t steps_done;

    sc_object *objects;
    uint32_t object_count, object_capacity;
    sc_name_index names;
    uint32_t *triangles; /* 3 per triangle */
    uint32_t triangle_count, triangle_capacity;
    sc_polyline *lines;
    uint32_t line_count, line_capacity;
    sc_target *targets;
    uint32_t target_count, target_capacity;

    drape_collider_def *colliders; /* as added: the world's ids */
    uint32_t collider_count, collider_capacity;
    uint32_t colliders_by_type[3];
    uint32_t moving_colliders;
};

/* A mesh's placement and material. */
typedef struct sc_mesh_def {
    drape_vec3 translate; /* m, added after scaling */
    float scale;          /* default 1 */
    drape_vec3 velocity;  /* m/s */
    float mass;           /* kg, the whole mesh, spread evenly; default 0.1 */
    const uint32_t *pinned; /* vertex indices */
    uint32_t pinned_count;
    drape_stiffness stretch;   /* the edges; default PBD k = 1 */
    bool dihedral;             /* bending across shared edges; default true */
    drape_stiffness bend;      /* default PBD k = 0.2 */
} sc_mesh_def;

sc_mesh_def sc_default_mesh_def(void);

/* A scene with no world yet; NULL when out of memory. options may be NULL. */
drape_scene *sc_scene_new(const char *name, const drape_scene_options *options);
/* Creates the world from def with the options' backend and device applied. */
drape_result sc_scene_create_world(drape_scene *scene, drape_world_def def);
/* Loading is over: the world's messages go straight to the user from now on. */
void sc_scene_finish(drape_scene *scene);
/* The last error of a failed sc_scene_* call or world call while loading. */
const char *sc_scene_last_error(const drape_scene *scene);

drape_result sc_scene_add_particles(drape_scene *scene, const drape_particle_def *defs,
                                    uint32_t count);
drape_result sc_scene_add_cloth(drape_scene *scene, const char *name, const drape_cloth_def *def);
drape_result sc_scene_add_rope(drape_scene *scene, const char *name, const drape_rope_def *def);
drape_result sc_scene_add_mesh(drape_scene *scene, const char *name, const drape_mesh *mesh,
                               const sc_mesh_def *def);
drape_result sc_scene_add_distance(drape_scene *scene, const drape_distance_def *def);
drape_result sc_scene_add_dihedral(drape_scene *scene, const drape_dihedral_def *def);
/* path may be NULL (a fixed target); with a path the target starts where the path is at time 0. */
drape_result sc_scene_add_attachment(drape_scene *scene, const drape_attachment_def *def,
                                     const sc_target_path *path);
drape_result sc_scene_add_collider(drape_scene *scene, const drape_collider_def *def);
drape_result sc_scene_add_triangle(drape_scene *scene, const uint32_t v[3]);

/* Names of objects and scenes, which particle references and file names hold: 1 to 64 letters,
 * digits, '_', '-' or '.'. */
bool sc_valid_name(const char *name);
/* The object with this name, or NULL (name_index.c: a hash lookup). */
const sc_object *sc_scene_find_object(const drape_scene *scene, const char *name, size_t length);
/* Indexes objects[object] by its name; false when out of memory. */
bool sc_name_index_add(drape_scene *scene, uint32_t object);
void sc_name_index_free(sc_name_index *index);

/* ---- json_scan.c: what the text will cost cJSON, and NULs it would cut strings at ---- */

typedef struct sc_json_scan_result {
    uint64_t values; /* JSON values (cJSON nodes), at most */
    uint64_t bytes;  /* the memory cJSON's tree will take, about */
    size_t nul_offset; /* the offset of the first "\u0000" in a string, or SIZE_MAX */
} sc_json_scan_result;

void sc_json_scan(const char *data, size_t size, sc_json_scan_result *out);

/* ---- json.c: strict reading of cJSON values with JSON paths in messages ---- */

struct cJSON;

#define SC_PATH_CAPACITY 256

typedef struct sc_json {
    const char *file;      /* names the input in messages */
    char path[SC_PATH_CAPACITY]; /* "$.cloths[0].pins[2]" */
    size_t path_length;
    drape_scene_error *err;
} sc_json;

/* A closed or open interval of accepted numbers. */
typedef struct sc_range {
    double min, max;
    bool min_open, max_open;
} sc_range;

extern const sc_range sc_any;      /* every finite float */
extern const sc_range sc_positive; /* > 0 */
extern const sc_range sc_nonneg;   /* >= 0 */
extern const sc_range sc_unit;     /* [0, 1] */

void sc_json_init(sc_json *j, const char *file, drape_scene_error *err);
/* Append ".key" or "[index]" to the path; each returns the mark to restore. */
size_t sc_json_enter_key(sc_json *j, const char *key);
size_t sc_json_enter_index(sc_json *j, size_t index);
void sc_json_leave(sc_json *j, size_t mark);

/* "FILE: PATH: message" as DRAPE_SCENE_BAD_INPUT (or `status`); always returns false. */
bool sc_json_fail(sc_json *j, const char *fmt, ...) SC_PRINTF(2, 3);
bool sc_json_fail_status(sc_json *j, drape_scene_status status, drape_result result,
                         const char *fmt, ...) SC_PRINTF(4, 5);
/* Like sc_json_fail with ".key" appended to the path. */
bool sc_json_fail_at(sc_json *j, const char *key, const char *fmt, ...) SC_PRINTF(3, 4);

/* The value must be an object whose keys are all in `allowed` (NULL-terminated), each once. */
bool sc_json_object(sc_json *j, const struct cJSON *value, const char *const *allowed);
/* The value must be an array; *count gets its length. */
bool sc_json_array(sc_json *j, const struct cJSON *value, size_t *count);
/* The member `key` of an object, or NULL. */
const struct cJSON *sc_json_member(const struct cJSON *object, const char *key);
/* Fails unless the object has `key`. */
bool sc_json_require(sc_json *j, const struct cJSON *object, const char *key);

/* Values: each fails with the path and what was expected. */
bool sc_json_float(sc_json *j, const struct cJSON *value, sc_range range, float *out);
bool sc_json_double(sc_json *j, const struct cJSON *value, sc_range range, double *out);
bool sc_json_u32(sc_json *j, const struct cJSON *value, uint32_t min, uint32_t max, uint32_t *out);
bool sc_json_bool(sc_json *j, const struct cJSON *value, bool *out);
bool sc_json_string(sc_json *j, const struct cJSON *value, const char **out);
bool sc_json_vec3(sc_json *j, const struct cJSON *value, sc_range range, drape_vec3 *out);
/* One of `names` (NULL-terminated); *out gets its index. */
bool sc_json_enum(sc_json *j, const struct cJSON *value, const char *const *names, int *out);

/* Members: absent leaves *out as it is and succeeds. */
bool sc_json_get_float(sc_json *j, const struct cJSON *object, const char *key, sc_range range,
                       float *out);
bool sc_json_get_u32(sc_json *j, const struct cJSON *object, const char *key, uint32_t min,
                     uint32_t max, uint32_t *out);
bool sc_json_get_bool(sc_json *j, const struct cJSON *object, const char *key, bool *out);
bool sc_json_get_string(sc_json *j, const struct cJSON *object, const char *key,
                        const char **out);
bool sc_json_get_vec3(sc_json *j, const struct cJSON *object, const char *key, sc_range range,
                      drape_vec3 *out);
bool sc_json_get_enum(sc_json *j, const struct cJSON *object, const char *key,
                      const char *const *names, int *out);
/* "stiffness" (PBD k in [0, 1]) or "compliance" (>= 0, XPBD) members of an object, not both. */
bool sc_json_get_stiffness(sc_json *j, const struct cJSON *object, drape_stiffness *out);

/* Appends "[\"key\"]" to the path: a member whose key is not a plain word (a JSON path in a sweep
 * file, "$.grid[\"$.solver.dt\"]"). */
size_t sc_json_enter_quoted(sc_json *j, const char *key);

/* ---- parse_scene.c ---- */

/* Parses JSON text (a UTF-8 byte order mark is skipped): *out gets the tree (cJSON_Delete it), or a
 * syntax error "FILE:LINE:COLUMN: what near '...'". */
drape_scene_status sc_parse_json_text(const char *data, size_t size, const char *file,
                                      struct cJSON **out, drape_scene_error *err);

/* ---- json_path.c: JSON paths into a tree, as sweep files name the fields they vary ---- */

/* Checks the syntax of a path: "$" then ".key" (letters, digits, '_', '-') or "[index]" steps.
 * false with why. */
bool sc_json_path_check(const char *path, char *why, size_t why_size);
/* Puts a copy of value where the path points: it replaces the member or element there, or adds the
 * last key to an object that lacks it. Every step but the last must exist. false (tree unchanged)
 * with why ("$.cloths[0] has no key 'mas'"), also when out of memory. */
bool sc_json_path_set(struct cJSON *root, const char *path, const struct cJSON *value, char *why,
                      size_t why_size);

/* ---- parse_*.c: the sections of a scene file ---- */

/* The parser's state: the JSON reader, the scene being built and where mesh paths start. */
typedef struct sc_parser {
    sc_json json;
    drape_scene *scene;
    const char *base_dir;
} sc_parser;

/* A particle reference: an index, or "name[k]" (ropes, meshes) / "name[i,j]" (cloths), negative
 * counting from the end. */
bool sc_parse_particle_ref(sc_parser *p, const struct cJSON *value, uint32_t *out);
/* Checks a library result; on failure the message says where (the path) and what (the library's
 * message). */
bool sc_parse_check(sc_parser *p, drape_result result);

bool sc_parse_solver(sc_parser *p, const struct cJSON *solver, drape_world_def *def);
bool sc_parse_particles(sc_parser *p, const struct cJSON *array);
bool sc_parse_cloths(sc_parser *p, const struct cJSON *array);
bool sc_parse_ropes(sc_parser *p, const struct cJSON *array);
bool sc_parse_meshes(sc_parser *p, const struct cJSON *array);
bool sc_parse_distances(sc_parser *p, const struct cJSON *array);
bool sc_parse_dihedrals(sc_parser *p, const struct cJSON *array);
bool sc_parse_attachments(sc_parser *p, const struct cJSON *array);
bool sc_parse_colliders(sc_parser *p, const struct cJSON *array);
bool sc_parse_triangles(sc_parser *p, const struct cJSON *array);

/* Runs `each` on every element of an array member (absent: nothing), with "[i]" on the path. */
bool sc_parse_each(sc_parser *p, const struct cJSON *array,
                   bool (*each)(sc_parser *p, const struct cJSON *item, size_t index));

#endif
