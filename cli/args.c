/* The subcommands' command lines, on the shared parser (cmdline/cmdline.h): one table of options
 * per subcommand, whose help lines come from the same table, and checked numbers and backend
 * names. Errors say what was wrong and show the subcommand's usage on stderr (exit code 2).
 */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("drape: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_usage(FILE *to, const cli_command *command)
{
    fputs(command->head, to);
    cmdline_print_options(to, command->options, command->count);
    fputs(command->foot, to);
}

int cli_parse(const cli_command *command, int argc, char **argv, const char **positional,
              int max_positional, int *positional_count)
{
    char program[64];
    snprintf(program, sizeof program, "drape %s", command->name);
    cmdline c = {.program = program,
                 .options = command->options,
                 .count = command->count,
                 .positional = positional,
                 .max_positional = max_positional};
    int rc = cmdline_parse(&c, argc, argv);
    *positional_count = c.positional_count;
    if (rc != CMDLINE_OK) {
        cli_usage(stderr, command);
        return CLI_USAGE;
    }
    if (c.help) {
        cli_usage(stdout, command);
        return CLI_OK;
    }
    return CLI_CONTINUE;
}

bool cli_u32(const char *flag, const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    unsigned long v = 0;
    if (!cmdline_ulong("drape", flag, text, min, max, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

bool cli_path(const char *flag, const char *path)
{
    if (!path || *path)
        return true;
    cli_error("%s needs a path, not an empty string", flag);
    return false;
}

bool cli_backend(const char *flag, const char *text, drape_backend *out)
{
    static const char *const names[] = {"cpu", "opencl", "auto"};
    static const drape_backend backends[] = {DRAPE_BACKEND_CPU, DRAPE_BACKEND_OPENCL,
                                             DRAPE_BACKEND_AUTO};
    size_t k = 0;
    if (!cmdline_choice("drape", flag, text, names, 3, &k))
        return false;
    *out = backends[k];
    return true;
}

int cli_exit_code(drape_scene_status status)
{
    switch (status) {
    case DRAPE_SCENE_OK:
        return CLI_OK;
    case DRAPE_SCENE_BAD_INPUT:
        return CLI_BAD_INPUT;
    case DRAPE_SCENE_OUTPUT_FAILED:
        return CLI_OUTPUT;
    default:
        return CLI_RUNTIME;
    }
}

void cli_log(drape_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == DRAPE_LOG_INFO)
        return;
    fprintf(stderr, "drape: %s: %s\n", level == DRAPE_LOG_ERROR ? "error" : "warning", message);
}

int cli_load_scene(const char *name, const drape_backend *backend, const char *device,
                   bool allow_outside_paths, drape_scene **out)
{
    *out = NULL;
    /* The library reads "" as "no preference", which would take any device. */
    if (device && !*device) {
        cli_error("--device needs a device: an index or part of its name (see `drape devices`)");
        return CLI_USAGE;
    }
    drape_scene_options o = drape_scene_default_options();
    o.allow_outside_paths = allow_outside_paths;
    o.log = cli_log;
    if (backend) {
        o.override_backend = true;
        o.backend = *backend;
    }
    o.device = device;
    drape_scene_error e;
    drape_scene_status s = drape_scene_load(name, &o, out, &e);
    if (s != DRAPE_SCENE_OK && cli_interrupted()) {
        /* Ctrl-C reaches the whole process group: a helper the load ran (tetgen) was stopped by
         * it, and its failure is the interruption's, not the scene's */
        cli_error("interrupted while loading %s; nothing was written", name);
        return CLI_INTERRUPTED;
    }
    if (s != DRAPE_SCENE_OK)
        cli_error("%s", e.message);
    return cli_exit_code(s);
}
