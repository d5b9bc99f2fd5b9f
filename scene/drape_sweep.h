/* drape_sweep: sweep files (docs/sweep-format.md), which name a base scene file and the scene
 * fields to vary, by JSON path, over a grid, an explicit list or random samples. A sweep is a
 * numbered list of cases; case k resolves to a whole scene file (the base with the case's values
 * put in) that `drape run` can run alone. Resolving depends on nothing but the sweep and k, so
 * every process of a parallel or MPI run that asks for case k gets the same bytes.
 *
 * Loading is as strict as scene loading: an unknown key, a value of the wrong type, a malformed
 * JSON path or one that names no field of the base scene fails with "FILE: $.json.path: what is
 * wrong". Whether a case's values make a valid scene is only known when the case is loaded: that
 * failure belongs to the case, not to the sweep.
 */
#ifndef DRAPE_SWEEP_H
#define DRAPE_SWEEP_H

#include <drape/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many cases in a sweep (case folders are numbered with 5 digits). */
#define DRAPE_SWEEP_MAX_CASES 100000u

typedef struct drape_sweep drape_sweep;

/* What each case writes besides its resolved scene and its summary. */
typedef struct drape_sweep_outputs {
    bool csv;           /* the final state as CSV (final.csv); default false */
    uint32_t obj_every; /* an OBJ frame every this many steps (obj/), 0 = none; default 0 */
} drape_sweep_outputs;

/* Reads a sweep file; the base scene's path in it is relative to the sweep file's directory. Mesh
 * paths in the base scene and the cases must stay inside the base scene's folder, as in a scene
 * file (drape_scene_options.allow_outside_paths), unless allow_outside_paths. */
drape_scene_status drape_sweep_load_file(const char *path, bool allow_outside_paths,
                                         drape_sweep **out, drape_scene_error *err);
void drape_sweep_destroy(drape_sweep *sweep);

uint32_t drape_sweep_case_count(const drape_sweep *sweep);
drape_sweep_outputs drape_sweep_get_outputs(const drape_sweep *sweep);

/* The sweep as canonical JSON text (malloc'ed; free() it): the file's content with the base scene's
 * path made absolute, so that two runs into one output folder can check they run the same sweep.
 * NULL when out of memory. */
char *drape_sweep_identity(const drape_sweep *sweep);

/* Resolves case `index`: *scene_json gets the whole scene file of the case and *params_json the
 * case's values as one JSON object line {"$.path": value, ...} (both malloc'ed; free() them). Mesh
 * paths in the scene are absolute, so the file runs from any folder (load it with
 * allow_outside_paths). Fails (BAD_INPUT) when a path does not fit the base scene or a mesh path
 * leads out of the base scene's folder, or WORLD_FAILED when out of memory. */
drape_scene_status drape_sweep_case(const drape_sweep *sweep, uint32_t index, char **scene_json,
                                    char **params_json, drape_scene_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DRAPE_SWEEP_H */
