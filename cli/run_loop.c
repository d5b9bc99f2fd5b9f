/* The simulation loop of `drape run` (and of `drape` alone, which runs the default scene): load,
 * step with the scene's scripted targets, export OBJ frames, report one line per simulated second
 * (or a JSON summary at the end), dump the final state as CSV. Timings are wall time around each
 * step; the profile the world keeps says where the time went.
 *
 * Ctrl-C stops the run between two steps (interrupt.c), after the frame being written is complete;
 * every output is written atomically by the scene library, and a state that is not finite is never
 * printed or written.
 */
#include "cli.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

cli_run_config cli_default_run_config(void)
{
    cli_run_config c = {
        .steps = 0,
        .has_backend = false,
        .backend = DRAPE_BACKEND_CPU,
        .device = NULL,
        .export_dir = NULL,
        .every = 1,
        .dump = NULL,
        .json = false,
        .allow_outside_paths = false,
    };
    return c;
}

static const char *backend_name(drape_backend b)
{
    return b == DRAPE_BACKEND_OPENCL ? "opencl" : b == DRAPE_BACKEND_AUTO ? "auto" : "cpu";
}

/* The run's first lines; the colouring they report prepares the solver, and a world that cannot
 * be prepared fails here, once, as its first step would (the world's log has said why). */
static int print_header(const drape_scene *s, uint32_t steps)
{
    drape_world *w = drape_scene_world(s);
    drape_world_def def = drape_world_get_def(w);
    drape_coloring_stats c = {0};
    drape_result r = drape_world_get_coloring(w, DRAPE_CONSTRAINT_DISTANCE, &c);
    if (r != DRAPE_OK) {
        cli_error("%s cannot be solved: %s", drape_scene_name(s), drape_result_string(r));
        return CLI_RUNTIME;
    }
    printf("%s: %u particles, %u distance / %u dihedral / %u attachment constraints, distances in "
           "%u colours (lower bound %u), %u colliders\n",
           drape_scene_name(s), drape_world_particle_count(w),
           drape_world_constraint_count(w, DRAPE_CONSTRAINT_DISTANCE),
           drape_world_constraint_count(w, DRAPE_CONSTRAINT_DIHEDRAL),
           drape_world_constraint_count(w, DRAPE_CONSTRAINT_ATTACHMENT), c.colors, c.lower_bound,
           drape_world_collider_count(w));
    printf("%u steps of dt %.4f s, %d substeps, %d iterations, on %s\n", steps, (double)def.dt,
           def.substeps, def.iterations, drape_world_device(w));
    fflush(stdout);
    return CLI_OK;
}

static int print_second(drape_world *w, double wall, uint32_t step)
{
    cli_state_summary sum;
    drape_result r = cli_summarise(w, &sum);
    if (r != DRAPE_OK) {
        cli_error("after step %u: cannot report the state: %s", step, drape_result_string(r));
        return CLI_RUNTIME;
    }
    printf("t = %5.2f s  mean height %7.4f m  lowest %7.4f m  kinetic energy %.3e J  "
           "%.3f ms/step\n",
           drape_world_time(w), sum.mean_height, sum.lowest, sum.kinetic_energy, 1e3 * wall / step);
    fflush(stdout);
    return CLI_OK;
}

static int print_json(const drape_scene *s, uint32_t steps, double wall, uint32_t frames,
                      const cli_run_config *c)
{
    drape_world *w = drape_scene_world(s);
    cli_state_summary sum;
    drape_profile prof;
    drape_result r = cli_summarise(w, &sum);
    if (r == DRAPE_OK)
        r = drape_world_get_profile(w, &prof);
    if (r != DRAPE_OK) {
        cli_error("after step %u: cannot report the state: %s", steps, drape_result_string(r));
        return CLI_RUNTIME;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scene", drape_scene_name(s));
    cJSON_AddStringToObject(o, "backend", backend_name(drape_world_backend(w)));
    cJSON_AddStringToObject(o, "device", drape_world_device(w));
    cJSON_AddNumberToObject(o, "particles", drape_world_particle_count(w));
    cJSON_AddNumberToObject(o, "steps", steps);
    cJSON_AddNumberToObject(o, "simulated_time_s", drape_world_time(w));
    cJSON_AddNumberToObject(o, "wall_s", wall);
    cJSON_AddNumberToObject(o, "ms_per_step", steps ? 1e3 * wall / steps : 0.0);
    cJSON *f = cJSON_AddObjectToObject(o, "final");
    cJSON_AddNumberToObject(f, "mean_height_m", sum.mean_height);
    cJSON_AddNumberToObject(f, "lowest_m", sum.lowest);
    cJSON_AddNumberToObject(f, "kinetic_energy_j", sum.kinetic_energy);
    cJSON_AddNumberToObject(f, "distance_residual_m", sum.distance_residual);
    cJSON *p = cJSON_AddObjectToObject(o, "profile");
    cJSON_AddNumberToObject(p, "substeps", (double)prof.substeps);
    cJSON_AddNumberToObject(p, "predict_ms", prof.predict_ms);
    cJSON_AddNumberToObject(p, "collide_ms", prof.collide_ms);
    cJSON_AddNumberToObject(p, "project_ms", prof.project_ms);
    cJSON_AddNumberToObject(p, "update_ms", prof.update_ms);
    cJSON_AddNumberToObject(p, "device_bytes", (double)prof.device_bytes);
    cJSON_AddNumberToObject(o, "exported_frames", frames);
    if (c->export_dir)
        cJSON_AddStringToObject(o, "export_dir", c->export_dir);
    if (c->dump)
        cJSON_AddStringToObject(o, "dump", c->dump);
    return cli_print_json(o);
}

/* The exit code of a failed export or dump, after its message. */
static int output_error(const drape_scene_error *e)
{
    cli_error("%s", e->message);
    return e->result == DRAPE_ERROR_NON_FINITE ? CLI_RUNTIME : cli_exit_code(e->status);
}

/* Exports a frame; CLI_OK, or the exit code (with the message) when it is not written. */
static int export_frame(const drape_scene *s, const char *dir, uint32_t frame)
{
    drape_scene_error e;
    if (drape_scene_export_obj(s, dir, frame, &e) == DRAPE_SCENE_OK)
        return CLI_OK;
    return output_error(&e);
}

int cli_run_scene(const char *name, const cli_run_config *c)
{
    /* Before the load, which can take seconds (a kernel build): a Ctrl-C there stops the run
     * after its first step, as one later does. */
    cli_interrupt_install();
    drape_scene *s;
    int rc = cli_load_scene(name, c->has_backend ? &c->backend : NULL, c->device,
                            c->allow_outside_paths, &s);
    if (rc != CLI_OK)
        return rc;
    drape_world *w = drape_scene_world(s);
    const uint32_t steps = c->steps ? c->steps : drape_scene_default_steps(s);
    /* Steps per simulated second, in 64 bits and clamped: a tiny dt must not make it 0. */
    const double per = round(1.0 / (double)drape_world_get_def(w).dt);
    const uint64_t per_second = per >= 1.0 && per < 1e18 ? (uint64_t)per
                                : per < 1.0              ? 1
                                                         : UINT64_MAX;
    uint32_t frames = 0, step = 0;
    if (c->json) { /* the report has the per-phase device times: time the launches */
        drape_world_def def = drape_world_get_def(w);
        def.profiling = true;
        if (drape_world_set_def(w, &def) != DRAPE_OK)
            rc = CLI_RUNTIME;
    } else {
        rc = print_header(s, steps);
    }
    drape_scene_set_last_frame(s, steps / c->every);
    if (rc == CLI_OK && c->export_dir)
        rc = export_frame(s, c->export_dir, frames++);
    /* After frame 0, which makes the export directory that the dump may go into. */
    if (rc == CLI_OK && c->dump) {
        drape_scene_error e;
        if (drape_scene_check_output(s, c->dump, &e) != DRAPE_SCENE_OK)
            rc = output_error(&e);
        else if (!cli_output_writable(c->dump))
            rc = CLI_OUTPUT;
    }

    cli_progress bar;
    cli_progress_start(&bar, steps);
    double wall = 0.0;
    while (rc == CLI_OK && step < steps) {
        double t0 = cli_now();
        drape_result r = drape_scene_step(s);
        wall += cli_now() - t0;
        if (r != DRAPE_OK) {
            cli_progress_clear(&bar);
            cli_error("step %u of %s failed: %s", step + 1, drape_scene_name(s),
                      drape_result_string(r));
            rc = CLI_RUNTIME;
            break;
        }
        ++step;
        if (c->export_dir && step % c->every == 0)
            rc = export_frame(s, c->export_dir, frames++);
        if (rc == CLI_OK && cli_interrupted()) {
            cli_progress_clear(&bar);
            cli_error("interrupted after step %u of %u; the files written so far are complete",
                      step, steps);
            rc = CLI_INTERRUPTED;
        }
        if (rc != CLI_OK) {
            cli_progress_clear(&bar);
            break;
        }
        if (!c->json && (step % per_second == 0 || step == steps)) {
            cli_progress_clear(&bar);
            rc = print_second(w, wall, step);
        }
        cli_progress_update(&bar, step);
    }
    cli_progress_clear(&bar);
    if (rc == CLI_OK && c->dump) {
        drape_scene_error e;
        if (drape_scene_dump_csv(s, c->dump, &e) != DRAPE_SCENE_OK)
            rc = output_error(&e);
    }
    if (rc == CLI_OK && c->json)
        rc = print_json(s, steps, wall, frames, c);
    else if (rc == CLI_OK)
        printf("%u steps in %.3f s (%.3f ms/step)%s%s\n", steps, wall,
               steps ? 1e3 * wall / steps : 0.0, c->dump ? ", final state in " : "",
               c->dump ? c->dump : "");
    drape_scene_destroy(s);
    return rc;
}
