/* One case of a sweep, from its number to its folder OUT/case-NNNNN/:
 *
 *   scene.json    the resolved scene (`drape run OUT/case-NNNNN/scene.json` runs the case alone)
 *   summary.json  case, status, parameters, the error of a failed case, backend, steps, simulated
 *                 time and the metrics of the final state (sweep_metrics.c)
 *   final.csv     the final state, when the sweep asks for it
 *   obj/          OBJ frames, when the sweep asks for them
 *   done          the marker, written last: "ok" or "failed"
 *
 * Everything is written into a staging folder OUT/.partial/case-NNNNN.TAG (TAG names the process),
 * each file through a temporary file and a rename, and the staging folder becomes the case folder
 * by one rename once its marker is in it. A case folder therefore exists only when it is complete;
 * a process killed mid-case leaves only its staging folder, which the next run removes. A case
 * whose values make an invalid scene, whose step fails or whose state stops being finite is done
 * and failed, with the message in its summary: it is deterministic, so running it again would fail
 * the same way. The files depend only on the resolved scene and the backend, never on the process
 * or the time, so any way of running the sweep gives the same bytes.
 */
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The world's last error or warning, for the message of a failed step. */
typedef struct case_log {
    char last[512];
} case_log;

static void keep_message(drape_log_level level, const char *message, void *user)
{
    case_log *log = user;
    if (level != DRAPE_LOG_INFO)
        snprintf(log->last, sizeof log->last, "%s", message);
}

/* How a run ended, and the summary it leaves. */
typedef struct case_run {
    cli_case_status status;
    char error[1280];
    uint32_t steps;
    double time;
    bool has_metrics;
    cli_case_metrics metrics;
    const char *backend;
} case_run;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
fail(case_run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    run->status = CLI_CASE_FAILED;
    vsnprintf(run->error, sizeof run->error, fmt, ap);
    va_end(ap);
}

static bool write_text(const char *dir, const char *name, const char *text, char *why,
                       size_t why_size)
{
    char path[4096];
    cli_pathf(path, sizeof path, "%s/%s", dir, name);
    return cli_write_atomic(path, text, strlen(text), why, why_size);
}

/* A scene output (OBJ frame, CSV): false with run set when it fails; a write failure is an output
 * error of the sweep, any other failure (a state that cannot be read back) fails the case. */
static bool scene_output(case_run *run, drape_scene_status st, const drape_scene_error *e)
{
    if (st == DRAPE_SCENE_OK)
        return true;
    if (st == DRAPE_SCENE_OUTPUT_FAILED) {
        run->status = CLI_CASE_OUTPUT_ERROR;
        snprintf(run->error, sizeof run->error, "%s", e->message);
    } else
        fail(run, "%s", e->message);
    return false;
}

/* Steps the loaded scene to its end, exporting on the way, and measures the final state. */
static void simulate(const cli_sweep_context *c, drape_scene *s, const char *stage,
                     const case_log *log, case_run *run)
{
    drape_world *w = drape_scene_world(s);
    const drape_sweep_outputs outputs = drape_sweep_get_outputs(c->sweep);
    const uint32_t steps = drape_scene_default_steps(s);
    const uint32_t per_second = (uint32_t)fmax(1.0, round(1.0 / drape_world_get_def(w).dt));
    char obj_dir[4096], path[4096];
    cli_pathf(obj_dir, sizeof obj_dir, "%s/obj", stage);
    drape_scene_error e;
    uint32_t frame = 0;
    if (outputs.obj_every &&
        !scene_output(run, drape_scene_export_obj(s, obj_dir, frame++, &e), &e))
        return;
    cli_edge_lengths edges;
    drape_result r = cli_edge_lengths_init(s, &edges);
    if (r != DRAPE_OK) {
        fail(run, "cannot read the start state: %s", drape_result_string(r));
        return;
    }
    for (uint32_t k = 0; k < steps && run->status == CLI_CASE_OK; ++k) {
        if (cli_interrupted()) {
            run->status = CLI_CASE_INTERRUPTED;
            break;
        }
        r = drape_scene_step(s);
        if (r != DRAPE_OK) {
            fail(run, "step %u failed: %s%s%s%s", k + 1, drape_result_string(r),
                 log->last[0] ? " (" : "", log->last, log->last[0] ? ")" : "");
            break;
        }
        run->steps = k + 1;
        /* Once a simulated second, a cheap check that the state is still finite, so that an
         * unstable case stops early. */
        drape_diagnostics d;
        if (run->steps % per_second == 0 && drape_world_get_diagnostics(w, &d) == DRAPE_OK &&
            !isfinite(d.kinetic_energy))
            fail(run, "after step %u the state is not finite: the kinetic energy is %g", run->steps,
                 d.kinetic_energy);
        if (run->status == CLI_CASE_OK && outputs.obj_every && run->steps % outputs.obj_every == 0)
            scene_output(run, drape_scene_export_obj(s, obj_dir, frame++, &e), &e);
    }
    run->time = drape_world_time(w);
    if (run->status == CLI_CASE_OK) {
        char why[512];
        r = cli_case_metrics_measure(s, &edges, &run->metrics, why, sizeof why);
        if (r != DRAPE_OK)
            fail(run, "after step %u: %s", run->steps, why);
        run->has_metrics = r == DRAPE_OK;
    }
    cli_edge_lengths_free(&edges);
    if (run->status == CLI_CASE_OK && outputs.csv) {
        cli_pathf(path, sizeof path, "%s/final.csv", stage);
        scene_output(run, drape_scene_dump_csv(s, path, &e), &e);
    }
}

/* The summary of a finished case; NULL when out of memory. */
static cJSON *summary(uint32_t index, const char *params, const case_run *run)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *p = params ? cJSON_Parse(params) : cJSON_CreateObject();
    if (!o || !p) {
        cJSON_Delete(o);
        cJSON_Delete(p);
        return NULL;
    }
    cJSON_AddNumberToObject(o, "case", index);
    cJSON_AddStringToObject(o, "status", run->status == CLI_CASE_OK ? "ok" : "failed");
    cJSON_AddItemToObject(o, "params", p);
    if (run->status != CLI_CASE_OK)
        cJSON_AddStringToObject(o, "error", run->error);
    if (run->backend)
        cJSON_AddStringToObject(o, "backend", run->backend);
    cJSON_AddNumberToObject(o, "steps", run->steps);
    cJSON_AddNumberToObject(o, "simulated_time_s", run->time);
    if (run->has_metrics) {
        cJSON *m = cJSON_AddObjectToObject(o, "metrics");
        cJSON_AddNumberToObject(m, "kinetic_energy_j", run->metrics.kinetic_energy);
        cJSON_AddNumberToObject(m, "max_strain", run->metrics.max_strain);
        cJSON_AddNumberToObject(m, "max_penetration_m", run->metrics.max_penetration);
        cJSON_AddNumberToObject(m, "distance_residual_m", run->metrics.distance_residual);
    }
    return o;
}

/* Loads and runs the case's scene; run says how it went. */
static void run_scene(const cli_sweep_context *c, const char *scene_text, const char *scene_name,
                      const char *stage, case_run *run)
{
    case_log log = {{0}};
    drape_scene_options o = drape_scene_default_options();
    o.log = keep_message;
    o.log_user = &log;
    o.override_backend = c->has_backend;
    o.backend = c->backend;
    o.device = c->device;
    /* The sweep made the mesh paths absolute, after checking them against the base scene's
     * folder (or with --allow-outside-paths). */
    o.allow_outside_paths = true;
    drape_scene *s = NULL;
    drape_scene_error e;
    drape_scene_status st =
        drape_scene_load_buffer(scene_text, strlen(scene_text), scene_name, &o, &s, &e);
    if (st != DRAPE_SCENE_OK) {
        fail(run, "%s", e.message);
        return;
    }
    drape_backend b = drape_world_backend(drape_scene_world(s));
    run->backend = b == DRAPE_BACKEND_OPENCL ? "opencl" : "cpu";
    simulate(c, s, stage, &log, run);
    drape_scene_destroy(s);
}

cli_case_status cli_sweep_run_case(const cli_sweep_context *c, uint32_t index, char **row,
                                   char *why, size_t why_size)
{
    *row = NULL;
    char final[4096], stage[4096], partial[4096];
    cli_sweep_case_dir(c->out, index, final, sizeof final);
    if (cli_sweep_case_done(c->out, index)) {
        *row = cli_sweep_read_row(c->out, index);
        return CLI_CASE_OK;
    }
    cli_pathf(partial, sizeof partial, "%s/.partial", c->out);
    cli_pathf(stage, sizeof stage, "%s/case-%05u.%s", partial, index, c->tag);
    if ((mkdir(partial, 0777) != 0 && errno != EEXIST) || !cli_remove_tree(stage) ||
        mkdir(stage, 0777) != 0) {
        snprintf(why, why_size, "%s: cannot create: %s", stage, strerror(errno));
        return CLI_CASE_OUTPUT_ERROR;
    }

    case_run run = {.status = CLI_CASE_OK};
    char *scene_text = NULL, *params = NULL;
    drape_scene_error e;
    if (drape_sweep_case(c->sweep, index, &scene_text, &params, &e) != DRAPE_SCENE_OK)
        fail(&run, "%s", e.message);
    char scene_name[4200];
    cli_pathf(scene_name, sizeof scene_name, "%s/scene.json", final);
    bool written = !scene_text || write_text(stage, "scene.json", scene_text, why, why_size);
    if (!written)
        run.status = CLI_CASE_OUTPUT_ERROR;
    else if (scene_text)
        run_scene(c, scene_text, scene_name, stage, &run);
    free(scene_text);

    if (run.status == CLI_CASE_OUTPUT_ERROR && written)
        snprintf(why, why_size, "%s", run.error);
    if (run.status == CLI_CASE_INTERRUPTED || run.status == CLI_CASE_OUTPUT_ERROR) {
        free(params);
        cli_remove_tree(stage);
        return run.status;
    }
    cJSON *sum = summary(index, params, &run);
    free(params);
    char *text = sum ? cJSON_Print(sum) : NULL;
    *row = sum ? cJSON_PrintUnformatted(sum) : NULL;
    cJSON_Delete(sum);
    size_t n = text ? strlen(text) : 0;
    char *line = text ? malloc(n + 2) : NULL;
    if (line)
        snprintf(line, n + 2, "%s\n", text);
    free(text);
    bool ok =
        line && *row && write_text(stage, "summary.json", line, why, why_size) &&
        write_text(stage, "done", run.status == CLI_CASE_OK ? "ok\n" : "failed\n", why, why_size);
    if (!line || !*row)
        snprintf(why, why_size, "no memory for the summary of case %u", index);
    free(line);
    /* A case folder without its marker cannot come from this code, but an older or foreign one
     * would block the rename: it is partial, so it goes. */
    if (ok && !cli_remove_tree(final)) {
        snprintf(why, why_size, "%s: cannot remove the partial case: %s", final, strerror(errno));
        ok = false;
    }
    if (ok && rename(stage, final) != 0) {
        snprintf(why, why_size, "%s: cannot move %s there: %s", final, stage, strerror(errno));
        ok = false;
    }
    if (!ok) {
        cli_remove_tree(stage);
        free(*row);
        *row = NULL;
        return CLI_CASE_OUTPUT_ERROR;
    }
    return run.status;
}
