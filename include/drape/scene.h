/* drape_scene: scenes for drape worlds, read from JSON files (docs/scene-format.md) or built in,
 * and the mesh files that go in and out of them (Wavefront OBJ) and the CSV dump of a final state.
 *
 * A scene is a drape world plus what the world does not know: the names of its cloths, ropes and
 * meshes, the triangles and polylines to export, and scripted attachment targets that the scene
 * moves before every step. Loading is strict: an unknown key, a value of the wrong type or out of
 * range, a bad reference or a bad mesh fails with one message that names the file and the JSON path
 * (or the line and column) and says what is wrong. Nothing here keeps global state.
 */
#ifndef DRAPE_SCENE_H
#define DRAPE_SCENE_H

#include <drape/drape.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Errors                                                                                         */

typedef enum drape_scene_status {
    DRAPE_SCENE_OK = 0,
    DRAPE_SCENE_BAD_INPUT = 1,     /* a scene or mesh file is missing, unreadable, malformed or
                                      invalid, or names no built-in scene */
    DRAPE_SCENE_WORLD_FAILED = 2,  /* the library failed: no usable backend, out of memory */
    DRAPE_SCENE_OUTPUT_FAILED = 3, /* an output file or directory cannot be written */
} drape_scene_status;

/* A function that takes a drape_scene_error * (which may be NULL) fills it in when it fails, and
 * only then: after DRAPE_SCENE_OK it holds what it held before (clear it first to tell). */
typedef struct drape_scene_error {
    drape_scene_status status;
    drape_result result; /* the library's result behind the error, DRAPE_OK when there is none */
    char message[1024];  /* "FILE: $.json.path: what is wrong" or "FILE:LINE:COLUMN: what" */
} drape_scene_error;

/* ---------------------------------------------------------------------------------------------- */
/* Meshes                                                                                         */

/* A triangle mesh: vertices and counter-clockwise triangles (0-based indices). */
typedef struct drape_mesh {
    drape_vec3 *vertices;
    uint32_t vertex_count;
    uint32_t *triangles;  /* 3 * triangle_count vertex indices */
    uint32_t *face_lines; /* the OBJ line each triangle came from (quads give two), or NULL */
    uint32_t triangle_count;
} drape_mesh;

/* Reads a Wavefront OBJ: `v` vertices and `f` faces (triangles, and quads split along their first
 * diagonal; `v`, `v/vt`, `v/vt/vn`, `v//vn` and negative indices), skipping normals, texture
 * coordinates, groups, objects, smoothing and materials. Anything else, an index that names no
 * vertex, a face with more than four vertices or a repeated vertex, or a coordinate that is not a
 * finite number is an error "NAME:LINE: what". `name` names the data in messages. */
drape_scene_status drape_mesh_read_obj_buffer(const char *data, size_t size, const char *name,
                                              drape_mesh *out, drape_scene_error *err);
drape_scene_status drape_mesh_read_obj(const char *path, drape_mesh *out, drape_scene_error *err);
void drape_mesh_free(drape_mesh *mesh);

/* A tetrahedral mesh: vertices and tetrahedra (0-based, p1 - p0, p2 - p0, p3 - p0 right-handed, as
 * drape_tet_mesh_def takes them). */
typedef struct drape_tetgen_mesh {
    drape_vec3 *vertices;
    uint32_t vertex_count;
    uint32_t *tets; /* 4 * tet_count vertex indices */
    uint32_t tet_count;
} drape_tetgen_mesh;

/* Reads TetGen's .node and .ele files (4- or 10-node tetrahedra, indices from 0 or 1, comments,
 * attributes and markers skipped). A malformed or truncated file, an index out of range or out of
 * order, an inverted or degenerate tetrahedron is an error "FILE:LINE: what". The names name the
 * buffers in messages. */
drape_scene_status drape_tetgen_read_buffers(const char *node, size_t node_size,
                                             const char *node_name, const char *ele,
                                             size_t ele_size, const char *ele_name,
                                             drape_tetgen_mesh *out, drape_scene_error *err);
drape_scene_status drape_tetgen_read(const char *node_path, const char *ele_path,
                                     drape_tetgen_mesh *out, drape_scene_error *err);
void drape_tetgen_mesh_free(drape_tetgen_mesh *mesh);

/* ---------------------------------------------------------------------------------------------- */
/* Scenes                                                                                         */

typedef struct drape_scene drape_scene;

typedef struct drape_scene_options {
    bool override_backend; /* use `backend` instead of the scene's; default false */
    drape_backend backend;
    const char *device; /* non-NULL: instead of the scene's device */
    drape_log_fn log;   /* the world's messages (warnings while loading, everything after);
                           default drape_log_stderr; NULL drops them */
    void *log_user;
    uint32_t max_particles;    /* refuse scenes with more particles; 0 (default): no limit */
    bool no_files;             /* refuse to open mesh files (for fuzzing); default false */
    bool allow_outside_paths;  /* mesh paths may be absolute or lead out of the scene file's
                                  directory (through "..", or a symbolic link); default false, so
                                  that a scene from elsewhere cannot read /etc/shadow */
    uint32_t cloth_resolution; /* >= 2: every cloth gets this many particles along each edge, over
                                  the same area and with the same mass (a viewer's resize); 0
                                  (default): as the scene says; 1 is an error */
    void *gl_context,
        *gl_display; /* passed to drape_world_def (OpenCL-OpenGL sharing); default NULL */
} drape_scene_options;

drape_scene_options drape_scene_default_options(void);

/* The built-in scenes, in a fixed order; the first (index 0) is the default. */
size_t drape_scene_builtin_count(void);
/* The name of built-in scene `index`, or NULL past the end. */
const char *drape_scene_builtin_name(size_t index);
/* A line on what a built-in scene shows, or NULL for an unknown name. */
const char *drape_scene_builtin_summary(const char *name);

/* The scene file of built-in scene `name` (scenes/NAME.json, embedded at build time), which loads
 * to the same world as the built-in; NULL for an unknown name. *size (may be NULL) gets its bytes.
 */
const char *drape_scene_builtin_json(const char *name, size_t *size);
/* Builds a built-in scene by name. options may be NULL (defaults). */
drape_scene_status drape_scene_load_builtin(const char *name, const drape_scene_options *options,
                                            drape_scene **out, drape_scene_error *err);
/* Reads a scene file; mesh paths in it are relative to the file's directory. */
drape_scene_status drape_scene_load_file(const char *path, const drape_scene_options *options,
                                         drape_scene **out, drape_scene_error *err);
/* Reads a scene from memory. `name` names it in messages, and mesh paths are relative to the
 * directory part of `name`. */
drape_scene_status drape_scene_load_buffer(const char *data, size_t size, const char *name,
                                           const drape_scene_options *options, drape_scene **out,
                                           drape_scene_error *err);
/* A copy of the scene text `data` with values replaced: `set` is a JSON object whose keys are JSON
 * paths into the scene and whose values replace what they name, {"$.cloths[0].nx": 64, ...}, as in
 * a sweep file (docs/sweep-format.md). *out is malloc'ed (free() it); load it with
 * drape_scene_load_buffer. BAD_INPUT, with the path that does not fit, otherwise. */
drape_scene_status drape_scene_json_set(const char *data, size_t size, const char *set, char **out,
                                        drape_scene_error *err);
/* A built-in name, else a file path. */
drape_scene_status drape_scene_load(const char *name_or_path, const drape_scene_options *options,
                                    drape_scene **out, drape_scene_error *err);
void drape_scene_destroy(drape_scene *scene);

drape_world *drape_scene_world(const drape_scene *scene);
const char *drape_scene_name(const drape_scene *scene);
/* The scene's own run length in steps (its "steps", else 300). */
uint32_t drape_scene_default_steps(const drape_scene *scene);
/* Steps taken through drape_scene_step. */
uint64_t drape_scene_steps_done(const drape_scene *scene);

/* Moves the scripted attachment targets to where their paths are at the end of the step, then steps
 * the world once. */
drape_result drape_scene_step(drape_scene *scene);

/* The triangles to draw or export: 3 * count particle indices (cloth triangulations, meshes and the
 * scene's own triangles). */
const uint32_t *drape_scene_triangles(const drape_scene *scene, uint32_t *count);

/* The named objects of a scene, in the order they were added: each a range of particles. Particles
 * in no object are the scene's loose particles. */
typedef enum drape_scene_object_kind {
    DRAPE_SCENE_CLOTH = 0,
    DRAPE_SCENE_ROPE = 1,
    DRAPE_SCENE_MESH = 2,
} drape_scene_object_kind;

typedef struct drape_scene_object {
    const char *name; /* valid while the scene lives */
    drape_scene_object_kind kind;
    uint32_t first_particle, particle_count;
    uint32_t nx, ny; /* cloths: the grid; 0 otherwise */
} drape_scene_object;

uint32_t drape_scene_object_count(const drape_scene *scene);
/* Object `index` (0 .. count - 1) into *out; false past the end. */
bool drape_scene_get_object(const drape_scene *scene, uint32_t index, drape_scene_object *out);

/* The scene's colliders as they were added (the world's collider ids 0 .. count - 1): a viewer
 * draws them from these defs, a moving one at position + velocity * drape_world_time. */
uint32_t drape_scene_collider_count(const drape_scene *scene);
bool drape_scene_get_collider(const drape_scene *scene, uint32_t index, drape_collider_def *out);

/* What `drape info` shows. */
typedef struct drape_scene_info {
    uint32_t particles, pinned;
    uint32_t constraints[DRAPE_CONSTRAINT_TYPE_COUNT];
    uint32_t distances_by_kind[3]; /* by drape_distance_kind */
    drape_coloring_stats coloring[DRAPE_CONSTRAINT_TYPE_COUNT];
    uint32_t colliders_by_type[3]; /* by drape_collider_type */
    uint32_t moving_colliders;
    uint32_t triangles, scripted_targets;
    uint64_t host_bytes;   /* an estimate of the world's host memory (see docs/scene-format.md) */
    uint64_t device_bytes; /* bytes in OpenCL buffers now (0 on the CPU or before the first step) */
} drape_scene_info;

drape_result drape_scene_get_info(const drape_scene *scene, drape_scene_info *out);

/* ---------------------------------------------------------------------------------------------- */
/* Output                                                                                         */

/* An output file that is either the complete previous file or the complete new one: written to a
 * temporary file in the target's directory, then flushed, closed and renamed over the target. A
 * failure (a full disk, a refused value) or an interrupted run leaves the target as it was. The
 * scene's writers go through it; so can any other output of a program. */
typedef struct drape_output {
    FILE *file; /* write here */
    char *path; /* the target (a symbolic link's destination) */
    char *temp; /* the temporary file */
} drape_output;

/* Opens the temporary file. A target that exists and is not a regular file is refused. */
drape_scene_status drape_output_open(drape_output *out, const char *path, drape_scene_error *err);
/* Flushes and closes the temporary file and renames it over the target; a write error
 * anywhere on the way is DRAPE_SCENE_OUTPUT_FAILED with its cause, and the target is untouched. */
drape_scene_status drape_output_commit(drape_output *out, drape_scene_error *err);
/* Closes and removes the temporary file; the target is untouched. */
void drape_output_discard(drape_output *out);

/* Writes the current state as DIR/NAME_FFFF.obj (NAME the scene's name, FFFF the frame number,
 * zero-padded to 4 digits, or to those of the last frame drape_scene_set_last_frame announced):
 * every particle as a vertex with its area-weighted normal, the scene's triangles as faces and its
 * ropes as polylines (rope particles have no triangle, so their normal is (0, 0, 0)). Blender
 * imports the files as a sequence. DIR is created when missing (one level). Every output is
 * written atomically (drape_output_open); a state with a non-finite number is not written
 * (DRAPE_SCENE_WORLD_FAILED, DRAPE_ERROR_NON_FINITE, and the message names the particle). */
drape_scene_status drape_scene_export_obj(const drape_scene *scene, const char *dir, uint32_t frame,
                                          drape_scene_error *err);

/* Announces the largest frame number a run will export, so that every file name is padded to its
 * digits (at least 4) and the files of any length of run sort in frame order. */
void drape_scene_set_last_frame(drape_scene *scene, uint32_t last_frame);

/* DRAPE_SCENE_OUTPUT_FAILED, with a message that names it, when `path` is a file the scene was read
 * from (its scene file or a mesh file, under any name: the same device and inode), which an
 * output must not replace; otherwise OK (a path that does not exist yet is no input).
 * drape_scene_dump_csv and drape_scene_export_obj check their files so. */
drape_scene_status drape_scene_check_output(const drape_scene *scene, const char *path,
                                            drape_scene_error *err);

/* Writes the current state as CSV: a header line, then one row per particle with index, position
 * (m), velocity (m/s) and mass (kg, 0 = pinned). */
drape_scene_status drape_scene_dump_csv(const drape_scene *scene, const char *path,
                                        drape_scene_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DRAPE_SCENE_H */
