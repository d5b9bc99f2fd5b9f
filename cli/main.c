/* drape: the command line. `drape run`, `drape info` and `drape devices` are the subcommands
 * (cmd_*.c), and `drape sweep` runs many variations of one (cmd_sweep.c); `drape` alone runs the
 * default scene (a cloth dropped on a sphere) headless for five simulated seconds and prints one
 * line per simulated second, as the README's main job. Scenes are the built-ins or JSON files
 * (docs/scene-format.md), through the drape_scene library. Whatever the command, a write error on
 * stdout (a full disk, a closed pipe) is exit code 4, never success.
 */
#include "cli.h"

#include <errno.h>
#include <string.h>

static void usage(FILE *to)
{
    fprintf(
        to,
        "usage: drape                      run the default scene (%s) headless\n"
        "       drape run SCENE|FILE ...   run a built-in scene or a scene file\n"
        "       drape info [SCENE|FILE]    describe a scene (or list the built-in scenes)\n"
        "       drape devices              list the OpenCL devices\n"
        "       drape sweep SWEEP.json ... run many variations of a scene (docs/sweep-format.md)\n"
        "       drape COMMAND --help       the options of a command\n"
        "       drape --version            the version of drape\n"
        "\n"
        "Scene files are JSON, described in docs/scene-format.md. Built-in scenes:",
        drape_scene_builtin_name(0));
    for (size_t i = 0; i < drape_scene_builtin_count(); ++i)
        fprintf(to, " %s", drape_scene_builtin_name(i));
    fprintf(to, ".\n"
                "\n"
                "Exit codes:\n"
                "  0  success\n"
                "  1  the simulation or the backend failed (a step, no usable OpenCL device)\n"
                "  2  usage error (unknown command or option, bad value)\n"
                "  3  bad input: a scene or mesh file is missing, malformed or invalid\n"
                "  4  an output (OBJ export, CSV dump, stdout) cannot be written\n"
                "  130  interrupted (Ctrl-C) between two steps; every file written is complete\n"
                "`drape sweep` also uses 1 (some cases failed) and 5 (cases not done); see\n"
                "`drape sweep --help`.\n");
}

/* Runs the command line; main checks that stdout took it all. */
static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        cli_run_config defaults = cli_default_run_config();
        return cli_run_scene(drape_scene_builtin_name(0), &defaults);
    }
    const char *command = argv[1];
    if (!strcmp(command, "run"))
        return cli_cmd_run(argc - 1, argv + 1);
    if (!strcmp(command, "info"))
        return cli_cmd_info(argc - 1, argv + 1);
    if (!strcmp(command, "devices"))
        return cli_cmd_devices(argc - 1, argv + 1);
    if (!strcmp(command, "sweep"))
        return cli_cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(command, "--version")) {
        printf("drape %s\n", DRAPE_VERSION_STRING);
        return CLI_OK;
    }
    if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    cli_error("unknown command '%s'", command);
    usage(stderr);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    int rc = run_command(argc, argv);
    /* What went to stdout must have arrived: a full disk or a closed pipe is an output error, not
     * success (`drape run --json > /dev/full`). */
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int error = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = true;
        error = errno;
    }
    if (failed) {
        cli_error("stdout: cannot write: %s", strerror(error ? error : EIO));
        if (rc == CLI_OK)
            rc = CLI_OUTPUT;
    }
    return rc;
}
