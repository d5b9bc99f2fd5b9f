/* `drape run SCENE|FILE`: runs a built-in scene or a scene file headless for a number of steps, on
 * the backend asked for, exporting OBJ frames and dumping the final state on request. */
#include "cli.h"

#include <string.h>

static const char head[] =
    "usage: drape run SCENE|FILE [--steps N] [--backend cpu|opencl|auto] [--device D]\n"
    "                 [--export-obj DIR] [--every K] [--dump FILE.csv] [--json]\n"
    "                 [--allow-outside-paths]\n"
    "\n"
    "Runs a built-in scene (see `drape info --help`) or a scene file (docs/scene-format.md)\n"
    "headless and prints one line per simulated second, or a JSON summary with --json.\n"
    "\n";
static const char foot[] =
    "\n"
    "Exit codes: 0 success, 1 simulation or backend failure, 2 usage error, 3 bad scene or\n"
    "mesh file, 4 output (or stdout) cannot be written, 130 interrupted (Ctrl-C).\n";

int cli_cmd_run(int argc, char **argv)
{
    const char *steps = NULL, *backend = NULL, *every = NULL, *scene = NULL;
    cli_run_config c = cli_default_run_config();
    const cmdline_option options[] = {
        CMDLINE_VALUE("--steps", "N", "steps to take (default: the scene's \"steps\", else 300)",
                      &steps),
        CMDLINE_VALUE("--backend", "B",
                      "cpu (the reference), opencl, or auto (OpenCL if a device works,\n"
                      "else the CPU); default: the scene's, else cpu",
                      &backend),
        CMDLINE_VALUE("--device", "D",
                      "OpenCL device: an index or part of its name (`drape devices`)", &c.device),
        CMDLINE_VALUE("--export-obj", "DIR",
                      "write DIR/NAME_0000.obj (the start) and one OBJ per exported step\n"
                      "(more digits when the run has more than 9999 frames),\n"
                      "with triangles and normals; Blender imports them as a sequence",
                      &c.export_dir),
        CMDLINE_VALUE("--every", "K", "export every K-th step only (default 1)", &every),
        CMDLINE_VALUE("--dump", "FILE.csv", "write the final positions and velocities as CSV",
                      &c.dump),
        CMDLINE_FLAG("--json", "print a JSON summary on stdout instead of text", &c.json),
        CMDLINE_FLAG("--allow-outside-paths",
                     "let the scene read mesh files by absolute paths or outside\n"
                     "its own directory (refused by default)",
                     &c.allow_outside_paths),
    };
    const cli_command command = {"run", head, foot, options, sizeof options / sizeof options[0]};
    int n = 0;
    int rc = cli_parse(&command, argc, argv, &scene, 1, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    if (n == 0) {
        cli_error("run: which scene? Give a built-in name (e.g. cloth-sphere) or a scene file");
        cli_usage(stderr, &command);
        return CLI_USAGE;
    }
    if ((steps && !cli_u32("--steps", steps, 1, 1000000000, &c.steps)) ||
        (every && !cli_u32("--every", every, 1, 1000000000, &c.every)) ||
        (backend && !cli_backend("--backend", backend, &c.backend)) ||
        !cli_path("--dump", c.dump) || !cli_path("--export-obj", c.export_dir))
        return CLI_USAGE;
    if (every && !c.export_dir) {
        cli_error("run: --every K picks the steps --export-obj writes; without --export-obj it "
                  "does nothing");
        return CLI_USAGE;
    }
    c.has_backend = backend != NULL;
    return cli_run_scene(scene, &c);
}
