/* The command lines of drape's programs (drape, drape-view, drape-bench, drape-bench-particles):
 * one table of options per program or subcommand, parsed the same way everywhere.
 *
 * An option is `--name VALUE`, `--name=VALUE` or a flag `--name`; `--help` and `-h` ask for the
 * help, whose option lines come from the table (cmdline_print_options). Arguments that do not start
 * with '-' (and "-" alone) are positional. A bad command line gets one message on stderr that
 * names the program, the option and the bad value, and cmdline_parse returns CMDLINE_USAGE (the
 * exit code 2).
 */
#ifndef DRAPE_CMDLINE_H
#define DRAPE_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { CMDLINE_OK = 0, CMDLINE_USAGE = 2 };

typedef struct cmdline_option {
    const char *name; /* "--steps" */
    const char *arg;  /* the value's name in the help ("N"); NULL: a flag, which takes no value */
    const char *help; /* what it does; each '\n' starts a further line of the help */
    /* Where the option goes, one of three: */
    const char **value; /* the value, as given (the last one wins) */
    bool *flag;         /* a flag: set to true */
    /* called with each value (NULL for a flag) in the order given: lists, repeated options, checks
     * while parsing. False: the value is bad, and the parse fails naming it. */
    bool (*apply)(const char *value, void *user);
    void *user; /* for apply */
} cmdline_option;

/* The three kinds of option, for tables: a value, a flag, or a value (NULL for a flag: give arg
 * NULL) passed to apply(value, user). */
#define CMDLINE_VALUE(name, arg, help, value)                                                      \
    {                                                                                              \
        (name), (arg), (help), (value), NULL, NULL, NULL                                           \
    }
#define CMDLINE_FLAG(name, help, flag)                                                             \
    {                                                                                              \
        (name), NULL, (help), NULL, (flag), NULL, NULL                                             \
    }
#define CMDLINE_APPLY(name, arg, help, apply, user)                                                \
    {                                                                                              \
        (name), (arg), (help), NULL, NULL, (apply), (user)                                         \
    }

typedef struct cmdline {
    const char *program; /* the start of every message: "drape run", "drape-view" */
    const cmdline_option *options;
    size_t count;
    const char **positional; /* room for max_positional arguments */
    int max_positional;
    /* out */
    int positional_count;
    bool help; /* --help or -h was given (parsing stopped there) */
} cmdline;

/* Parses argv[1..argc-1]. CMDLINE_OK (check c->help), or CMDLINE_USAGE after a message on stderr:
 * an unknown option, a value missing or given to a flag, a value apply refused, too many
 * positional arguments. */
int cmdline_parse(cmdline *c, int argc, char **argv);

/* The options' lines of a help text, "  --name ARG   help" with the help aligned in one column,
 * and last "  --help   this text". */
void cmdline_print_options(FILE *to, const cmdline_option *options, size_t count);

/* "PROGRAM: " and the message on stderr. */
void cmdline_error(const char *program, const char *fmt, ...);

/* text as a whole number in [min, max] into *out; else false after "PROGRAM: NAME needs a whole
 * number in [min, max], got 'TEXT'". */
bool cmdline_ulong(const char *program, const char *name, const char *text, unsigned long min,
                   unsigned long max, unsigned long *out);

/* The whole command line of a program whose one argument, optional, is a whole number NAME in
 * [min, max] (*out keeps its default without it): -1 to go on, or the exit status, 0 after
 * --help (usage on stdout, then the --help line), CMDLINE_USAGE after a message on stderr (a bad
 * number, an option, a second argument; usage follows on stderr). */
int cmdline_number_only(const char *program, int argc, char **argv, const char *usage,
                        const char *name, unsigned long min, unsigned long max, unsigned long *out);

/* The index in choices[count] of text; else false after "PROGRAM: NAME must be a, b or c, got
 * 'TEXT'". */
bool cmdline_choice(const char *program, const char *name, const char *text,
                    const char *const *choices, size_t count, size_t *out);

#endif
