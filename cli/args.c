/* Command-line parsing shared by the subcommands: one table of options per subcommand, `--name
 * value` or `--name=value`, `--help` everywhere, and checked numbers and backend names. Errors say
 * what was wrong and show the subcommand's usage on stderr (exit code 2).
 */
#include "cli.h"

#include <errno.h>
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

static int usage_error(void (*usage)(FILE *to))
{
    usage(stderr);
    return CLI_USAGE;
}

int cli_parse(const char *command, int argc, char **argv, const cli_option *options,
              size_t option_count, const char **positional, int max_positional,
              int *positional_count, void (*usage)(FILE *to))
{
    *positional_count = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return CLI_OK;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (*positional_count == max_positional) {
                cli_error("%s: unexpected argument '%s'", command, arg);
                return usage_error(usage);
            }
            positional[(*positional_count)++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_option *o = NULL;
        for (size_t k = 0; k < option_count && !o; ++k)
            if (strlen(options[k].name) == len && !strncmp(options[k].name, arg, len))
                o = &options[k];
        if (!o) {
            cli_error("%s: unknown option '%.*s'", command, (int)len, arg);
            return usage_error(usage);
        }
        if (!o->value) {
            if (eq) {
                cli_error("%s: %s takes no value", command, o->name);
                return usage_error(usage);
            }
            *o->flag = true;
            continue;
        }
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            cli_error("%s: %s needs a value", command, o->name);
            return usage_error(usage);
        }
        *o->value = value;
    }
    return CLI_CONTINUE;
}

bool cli_u32(const char *flag, const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = text && *text != '-' ? strtoull(text, &end, 10) : 0;
    if (!text || end == text || !end || *end || errno == ERANGE || v < min || v > max) {
        cli_error("%s needs a whole number in [%u, %u], got '%s'", flag, min, max,
                  text ? text : "");
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool cli_backend(const char *flag, const char *text, drape_backend *out)
{
    static const struct {
        const char *name;
        drape_backend backend;
    } names[] = {
        {"cpu", DRAPE_BACKEND_CPU}, {"opencl", DRAPE_BACKEND_OPENCL}, {"auto", DRAPE_BACKEND_AUTO}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (!strcmp(text, names[i].name)) {
            *out = names[i].backend;
            return true;
        }
    cli_error("%s must be cpu, opencl or auto, got '%s'", flag, text);
    return false;
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
    if (s != DRAPE_SCENE_OK)
        cli_error("%s", e.message);
    return cli_exit_code(s);
}
