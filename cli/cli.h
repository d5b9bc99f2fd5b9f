/* The `drape` command's shared pieces: exit codes, the subcommands, option parsing, scene loading
 * with the CLI's messages, the progress bar and the state summaries that `run` prints.
 *
 * Exit codes (also in `drape --help`):
 *   0  success
 *   1  the simulation or the backend failed (a step failed, no usable OpenCL device, out of memory)
 *   2  usage: an unknown subcommand or option, a missing or malformed value
 *   3  bad input: a scene or mesh file is missing, unreadable, malformed or invalid
 *   4  output: an export directory or dump file cannot be written
 *   130 interrupted (SIGINT or SIGTERM) between two steps; every file written is complete
 * `drape sweep` adds its own (cli/sweep.h).
 */
#ifndef DRAPE_CLI_H
#define DRAPE_CLI_H

#include "cmdline.h"

#include <drape/scene.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum {
    CLI_OK = 0,
    CLI_RUNTIME = 1,
    CLI_USAGE = 2,
    CLI_BAD_INPUT = 3,
    CLI_OUTPUT = 4,
    CLI_INTERRUPTED = 130,
    CLI_CONTINUE = -1, /* option parsing: go on */
};

/* ---- subcommands (cmd_*.c): each returns an exit code ---- */
int cli_cmd_run(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_devices(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);

/* ---- run_loop.c: the simulation loop of `drape run` and of `drape` alone ---- */

typedef struct cli_run_config {
    uint32_t steps;   /* 0: the scene's own */
    bool has_backend; /* override the scene's backend */
    drape_backend backend;
    const char *device;       /* NULL: the scene's */
    const char *export_dir;   /* NULL: no OBJ export */
    uint32_t every;           /* export every k-th step, >= 1 */
    const char *dump;         /* NULL: no CSV dump */
    bool json;                /* a JSON summary on stdout instead of text lines */
    bool allow_outside_paths; /* mesh files may be absolute or outside the scene's directory */
} cli_run_config;

cli_run_config cli_default_run_config(void);
/* Loads the scene, runs it and reports; returns the exit code. */
int cli_run_scene(const char *scene, const cli_run_config *config);

/* ---- args.c ---- */

/* A subcommand's command line: its options (cmdline.h) and its help, which is `head` (the synopsis
 * and what it does), the options' lines from the table, and `foot` (the exit codes). */
typedef struct cli_command {
    const char *name; /* "run" */
    const char *head;
    const char *foot;
    const cmdline_option *options;
    size_t count;
} cli_command;

void cli_usage(FILE *to, const cli_command *command);

/* Parses argv[1..] of a subcommand: its options and at most `max_positional` positional
 * arguments. `--help` prints the usage to stdout and returns CLI_OK; an error prints a message
 * naming the option and the value, then the usage, on stderr and returns CLI_USAGE; else
 * CLI_CONTINUE. */
int cli_parse(const cli_command *command, int argc, char **argv, const char **positional,
              int max_positional, int *positional_count);

/* Numbers and names given on the command line; each prints "drape: FLAG ..." and returns false
 * when the text is not acceptable. */
bool cli_u32(const char *flag, const char *text, uint32_t min, uint32_t max, uint32_t *out);
bool cli_backend(const char *flag, const char *text, drape_backend *out);
/* A path option's value: false, with a message naming the option, when it is given empty (NULL, not
 * given, is fine). */
bool cli_path(const char *flag, const char *path);

/* "drape: message" on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- output_path.c ---- */
/* Whether `path` can be written, checked before a run without writing anything: prints
 * "drape: PATH: cannot write: why" and returns false when it cannot. */
bool cli_output_writable(const char *path);

/* The exit code of a scene library failure. */
int cli_exit_code(drape_scene_status status);

/* The world's messages: "drape: warning: ..." / "drape: error: ..." on stderr. */
void cli_log(drape_log_level level, const char *message, void *user);

/* Loads a built-in scene or a file with the CLI's options; prints the error and returns its exit
 * code, or CLI_OK with *out set. device may be NULL (an empty one is a usage error); backend NULL
 * keeps the scene's; allow_outside_paths lets mesh paths leave the scene file's directory. */
int cli_load_scene(const char *name, const drape_backend *backend, const char *device,
                   bool allow_outside_paths, drape_scene **out);

/* ---- progress.c: a progress bar on stderr, drawn only when stderr is a terminal ---- */

typedef struct cli_progress {
    bool enabled;
    uint64_t total;
    uint64_t before;  /* done before the start (resumed work): not counted in the rate */
    const char *unit; /* "step", "case" */
    double start, last_draw;
    bool drawn;
} cli_progress;

void cli_progress_start(cli_progress *p, uint64_t total);
/* A bar for `total` units of which `before` were done by an earlier run. */
void cli_progress_resume(cli_progress *p, uint64_t total, uint64_t before, const char *unit);
void cli_progress_update(cli_progress *p, uint64_t done);
/* Erases the bar (before other output, and at the end). */
void cli_progress_clear(cli_progress *p);

/* ---- json_out.c ---- */
struct cJSON;
/* Prints a JSON tree on stdout and frees it; CLI_RUNTIME when out of memory or when a number in it
 * is not finite (JSON has no NaN: cJSON would print null), with a message naming the key. */
int cli_print_json(struct cJSON *item);

/* ---- interrupt.c: SIGINT and SIGTERM raise a flag that the run loop reads between steps ---- */
void cli_interrupt_install(void);
/* The signal that arrived since cli_interrupt_install, or 0. */
int cli_interrupted(void);

/* ---- clock.c ---- */
double cli_now(void);

/* ---- summary.c: what `run` says about the state ---- */

typedef struct cli_state_summary {
    double mean_height, lowest; /* m, over all particles */
    double kinetic_energy;      /* J, of the movable particles */
    double distance_residual;   /* m, RMS over distance constraints */
} cli_state_summary;

/* DRAPE_ERROR_NON_FINITE when a position or a diagnostic is not finite: nothing non-finite is ever
 * printed. */
drape_result cli_summarise(drape_world *world, cli_state_summary *out);

#endif
