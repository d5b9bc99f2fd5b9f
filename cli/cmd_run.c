/* `drape run SCENE|FILE`: runs a built-in scene or a scene file headless for a number of steps, on
 * the backend asked for, exporting OBJ frames and dumping the final state on request. */
#include "cli.h"

#include <string.h>

static void usage(FILE *to)
{
    fprintf(
        to,
        "usage: drape run SCENE|FILE [--steps N] [--backend cpu|opencl|auto] [--device D]\n"
        "                 [--export-obj DIR] [--every K] [--dump FILE.csv] [--json]\n"
        "                 [--allow-outside-paths]\n"
        "\n"
        "Runs a built-in scene (see `drape info --help`) or a scene file (docs/scene-format.md)\n"
        "headless and prints one line per simulated second, or a JSON summary with --json.\n"
        "\n"
        "  --steps N         steps to take (default: the scene's \"steps\", else 300)\n"
        "  --backend B       cpu (the reference), opencl, or auto (OpenCL if a device works,\n"
        "                    else the CPU); default: the scene's, else cpu\n"
        "  --device D        OpenCL device: an index or part of its name (`drape devices`)\n"
        "  --export-obj DIR  write DIR/NAME_0000.obj (the start) and one OBJ per exported step\n"
        "                    (more digits when the run has more than 9999 frames),\n"
        "                    with triangles and normals; Blender imports them as a sequence\n"
        "  --every K         export every K-th step only (default 1)\n"
        "  --dump FILE.csv   write the final positions and velocities as CSV\n"
        "  --json            print a JSON summary on stdout instead of text\n"
        "  --allow-outside-paths  let the scene read mesh files by absolute paths or outside\n"
        "                    its own directory (refused by default)\n"
        "  --help            this text\n"
        "\n"
        "Exit codes: 0 success, 1 simulation or backend failure, 2 usage error, 3 bad scene or\n"
        "mesh file, 4 output (or stdout) cannot be written, 130 interrupted (Ctrl-C).\n");
}

int cli_cmd_run(int argc, char **argv)
{
    const char *steps = NULL, *backend = NULL, *every = NULL, *scene = NULL;
    cli_run_config c = cli_default_run_config();
    const cli_option options[] = {
        {"--steps", &steps, NULL},     {"--backend", &backend, NULL},
        {"--device", &c.device, NULL}, {"--export-obj", &c.export_dir, NULL},
        {"--every", &every, NULL},     {"--dump", &c.dump, NULL},
        {"--json", NULL, &c.json},     {"--allow-outside-paths", NULL, &c.allow_outside_paths},
    };
    int n = 0;
    int rc = cli_parse("run", argc, argv, options, sizeof options / sizeof options[0], &scene, 1,
                       &n, usage);
    if (rc != CLI_CONTINUE)
        return rc;
    if (n == 0) {
        cli_error("run: which scene? Give a built-in name (e.g. cloth-sphere) or a scene file");
        usage(stderr);
        return CLI_USAGE;
    }
    if ((steps && !cli_u32("--steps", steps, 1, 1000000000, &c.steps)) ||
        (every && !cli_u32("--every", every, 1, 1000000000, &c.every)) ||
        (backend && !cli_backend("--backend", backend, &c.backend)))
        return CLI_USAGE;
    c.has_backend = backend != NULL;
    return cli_run_scene(scene, &c);
}
