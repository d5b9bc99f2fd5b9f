/* The shared command-line parser (cmdline.h): the table's options by name, values after a space or
 * '=', the help's option lines from the same table, and checked numbers and choices. */
#include "cmdline.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cmdline_error(const char *program, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static const cmdline_option *find(const cmdline *c, const char *name, size_t len)
{
    for (size_t k = 0; k < c->count; ++k)
        if (strlen(c->options[k].name) == len && !strncmp(c->options[k].name, name, len))
            return &c->options[k];
    return NULL;
}

static bool take(const cmdline *c, const cmdline_option *o, const char *value)
{
    if (o->apply) {
        if (o->apply(value, o->user))
            return true;
        if (value)
            cmdline_error(c->program, "bad value '%s' for %s (try --help)", value, o->name);
        else
            cmdline_error(c->program, "%s cannot be used here (try --help)", o->name);
        return false;
    }
    if (o->value)
        *o->value = value;
    if (o->flag)
        *o->flag = true;
    return true;
}

int cmdline_parse(cmdline *c, int argc, char **argv)
{
    c->positional_count = 0;
    c->help = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            c->help = true;
            return CMDLINE_OK;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            if (c->positional_count == c->max_positional) {
                cmdline_error(c->program, "unexpected argument '%s' (try --help)", arg);
                return CMDLINE_USAGE;
            }
            c->positional[c->positional_count++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const cmdline_option *o = find(c, arg, len);
        if (!o) {
            cmdline_error(c->program, "unknown option '%.*s' (try --help)", (int)len, arg);
            return CMDLINE_USAGE;
        }
        const char *value = NULL;
        if (!o->arg) {
            if (eq) {
                cmdline_error(c->program, "%s takes no value, got '%s'", o->name, eq + 1);
                return CMDLINE_USAGE;
            }
        } else {
            value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!value) {
                cmdline_error(c->program, "%s needs a value (%s)", o->name, o->arg);
                return CMDLINE_USAGE;
            }
        }
        if (!take(c, o, value))
            return CMDLINE_USAGE;
    }
    return CMDLINE_OK;
}

static void print_option(FILE *to, int column, const char *name, const char *arg, const char *help)
{
    int w = fprintf(to, "  %s%s%s", name, arg ? " " : "", arg ? arg : "") - 2;
    for (bool first = true; first || *help; first = false) {
        const char *end = strchr(help, '\n');
        int n = end ? (int)(end - help) : (int)strlen(help);
        fprintf(to, "%*s%.*s\n", first ? (w < column ? column - w : 0) + 2 : column + 4, "", n,
                help);
        help += n + (end ? 1 : 0);
    }
}

void cmdline_print_options(FILE *to, const cmdline_option *options, size_t count)
{
    enum { widest = 24 }; /* a longer "--name ARG" puts its help after two spaces */
    int column = (int)strlen("--help");
    for (size_t k = 0; k < count; ++k) {
        const cmdline_option *o = &options[k];
        int w = (int)strlen(o->name) + (o->arg ? 1 + (int)strlen(o->arg) : 0);
        if (w <= widest && w > column)
            column = w;
    }
    for (size_t k = 0; k < count; ++k)
        print_option(to, column, options[k].name, options[k].arg,
                     options[k].help ? options[k].help : "");
    print_option(to, column, "--help", NULL, "this text");
}

bool cmdline_ulong(const char *program, const char *name, const char *text, unsigned long min,
                   unsigned long max, unsigned long *out)
{
    char *end = NULL;
    errno = 0;
    /* digits only: strtoull would take leading blanks and a sign */
    unsigned long long v = text && *text >= '0' && *text <= '9' ? strtoull(text, &end, 10) : 0;
    if (!text || !end || end == text || *end || errno == ERANGE || v < min || v > max) {
        cmdline_error(program, "%s needs a whole number in [%lu, %lu], got '%s'", name, min, max,
                      text ? text : "");
        return false;
    }
    *out = (unsigned long)v;
    return true;
}

int cmdline_number_only(const char *program, int argc, char **argv, const char *usage,
                        const char *name, unsigned long min, unsigned long max, unsigned long *out)
{
    const char *positional[1] = {NULL};
    cmdline c = {.program = program, .positional = positional, .max_positional = 1};
    const int r = cmdline_parse(&c, argc, argv);
    if (r == CMDLINE_OK && c.help) {
        fputs(usage, stdout);
        cmdline_print_options(stdout, NULL, 0);
        return 0;
    }
    if (r == CMDLINE_OK &&
        (c.positional_count == 0 || cmdline_ulong(program, name, positional[0], min, max, out)))
        return -1;
    fputs(usage, stderr);
    return CMDLINE_USAGE;
}

bool cmdline_choice(const char *program, const char *name, const char *text,
                    const char *const *choices, size_t count, size_t *out)
{
    for (size_t k = 0; k < count; ++k)
        if (text && !strcmp(text, choices[k])) {
            *out = k;
            return true;
        }
    fprintf(stderr, "%s: %s must be ", program, name);
    for (size_t k = 0; k < count; ++k)
        fprintf(stderr, "%s%s", choices[k], k + 2 < count ? ", " : k + 1 < count ? " or " : "");
    fprintf(stderr, ", got '%s'\n", text ? text : "");
    return false;
}
