/* The pieces of `drape sweep` (docs/sweep-format.md): running one case into its folder, the output
 * folder's bookkeeping (which cases are done, the index), and the two ways of spreading cases over
 * processes: worker processes on one machine (sweep_pool.c) and MPI ranks (sweep_mpi.c). Both hand
 * out case numbers dynamically, one at a time, to whichever process is free.
 *
 * Exit codes of `drape sweep` (also in its --help and the docs):
 *   0    every case is done and succeeded
 *   1    every case is done, and at least one failed (its error is in its summary and the index)
 *   2    usage error
 *   3    the sweep file or its base scene is missing, malformed or invalid
 *   4    the output folder cannot be written, or holds another sweep
 *   5    some cases are not done (a worker or rank died): run the same command again to finish
 *   130  interrupted (Ctrl-C, SIGTERM): run the same command again to finish
 */
#ifndef DRAPE_CLI_SWEEP_H
#define DRAPE_CLI_SWEEP_H

#include "cli.h"
#include "drape_sweep.h"

enum {
    CLI_SWEEP_FAILED_CASES = 1,
    CLI_SWEEP_INCOMPLETE = 5,
};

/* How one case ended. */
typedef enum cli_case_status {
    CLI_CASE_OK = 0,           /* done, succeeded */
    CLI_CASE_FAILED = 1,       /* done, failed: bad values, a failed step, a non-finite state */
    CLI_CASE_INTERRUPTED = 2,  /* not done: stopped by a signal, its partial files removed */
    CLI_CASE_OUTPUT_ERROR = 3, /* not done: its files cannot be written (a full disk) */
} cli_case_status;

/* What every process of a sweep shares. */
typedef struct cli_sweep_context {
    const drape_sweep *sweep;
    const char *out;  /* the output folder */
    bool has_backend; /* --backend given: instead of the scenes' own */
    drape_backend backend;
    const char *device; /* --device, or the device this process is pinned to; NULL: the
                           scene's */
    const char *tag;    /* names this process's staging folders ("p1234", "r3") */
} cli_sweep_context;

/* ---- sweep_case.c ---- */

/* Runs case `index` into OUT/case-NNNNN/ (staged in OUT/.partial/, published by one rename once
 * its `done` marker is written) unless it is done already. *row gets the case's index line (the
 * summary as one line of JSON, malloc'ed) when the case is done, else NULL; why gets the reason of
 * an output error. */
cli_case_status cli_sweep_run_case(const cli_sweep_context *c, uint32_t index, char **row,
                                   char *why, size_t why_size);

/* ---- sweep_metrics.c: what a case's summary says about its final state ---- */

typedef struct cli_case_metrics {
    double kinetic_energy;    /* J */
    double max_strain;        /* max over the triangle edges of |length / start length - 1| */
    double max_penetration;   /* m, the deepest particle inside a collider (0: none) */
    double distance_residual; /* m, RMS over the distance constraints */
} cli_case_metrics;

/* The triangle edges' lengths at the start, to measure strain against. */
typedef struct cli_edge_lengths {
    uint32_t *edges; /* 2 per edge */
    float *length;   /* m */
    uint32_t count;
} cli_edge_lengths;

drape_result cli_edge_lengths_init(const drape_scene *scene, cli_edge_lengths *out);
void cli_edge_lengths_free(cli_edge_lengths *e);
/* The metrics now; DRAPE_ERROR_NON_FINITE (with the quantity in `why`) when a position or a metric
 * is not finite. */
drape_result cli_case_metrics_measure(const drape_scene *scene, const cli_edge_lengths *edges,
                                      cli_case_metrics *out, char *why, size_t why_size);

/* ---- sweep_folder.c: the output folder ---- */

/* A path formatted into buf; false when it does not fit (the output folder's name is checked to
 * leave room for every path below it). */
bool cli_pathf(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "OUT/case-00042" into buf. */
void cli_sweep_case_dir(const char *out, uint32_t index, char *buf, size_t size);
/* Whether case `index` is done (its folder holds the `done` marker). */
bool cli_sweep_case_done(const char *out, uint32_t index);
/* The index line of a done case: its summary as one line of JSON (malloc'ed), or NULL when the
 * case is not done or its summary cannot be read. */
char *cli_sweep_read_row(const char *out, uint32_t index);
/* Creates OUT when missing, locks it (OUT/.lock, a POSIX record lock held until *lock is closed or
 * the process ends, so that a second sweep command on the folder is refused), checks that it holds
 * this sweep (OUT/sweep.json, written on the first run) and removes OUT/.partial, the staging
 * folders of an earlier run that was cut short. Only one process (the parent, rank 0) calls it,
 * before any case starts. CLI_OK with *lock set (close it at the end), or CLI_OUTPUT (printed). */
int cli_sweep_prepare_folder(const cli_sweep_context *c, int *lock);
/* Writes OUT/index.jsonl: one line per case in case order, `rows[k]` where given, else read from
 * the case's summary; a case that is not done gets {"case": k, "status": "pending"}. Counts the
 * cases by status. CLI_OK or CLI_OUTPUT (printed). */
typedef struct cli_sweep_tally {
    uint32_t ok, failed, pending;
} cli_sweep_tally;
int cli_sweep_write_index(const cli_sweep_context *c, char *const *rows, cli_sweep_tally *tally);

/* ---- sweep_report.c: progress and the closing lines ---- */

typedef struct cli_sweep_progress {
    cli_progress bar;
    uint32_t total, done, failed, skipped;
    double start, last_line;
} cli_sweep_progress;

void cli_sweep_progress_start(cli_sweep_progress *p, uint32_t total, uint32_t skipped);
/* A case finished (done: ok or failed). */
void cli_sweep_progress_case(cli_sweep_progress *p, cli_case_status status);
/* Prints what the sweep did and returns the exit code. */
int cli_sweep_finish(const cli_sweep_context *c, cli_sweep_progress *p, char *const *rows,
                     bool lost_cases);

/* ---- sweep_pool.c: worker processes on this machine ---- */

/* Runs the cases that are not done with `jobs` processes (1: in this process). Returns the exit
 * code. */
int cli_sweep_run_local(cli_sweep_context *c, uint32_t jobs);

/* ---- sweep_mpi.c ---- */

/* Whether this process was started by an MPI launcher (mpirun, srun) as one of several ranks. */
bool cli_sweep_under_mpi(void);
/* Runs the sweep over the MPI ranks: rank 0 hands out cases and writes the index, the others run
 * cases. Returns the exit code (every rank). */
int cli_sweep_run_mpi(cli_sweep_context *c);

/* Writes `size` bytes to `path` through the scene library's atomic output (drape_output_open: a
 * temporary file in the same folder, renamed over the path): the path holds either its old content
 * or all of the new. false with why. */
bool cli_write_atomic(const char *path, const char *data, size_t size, char *why, size_t why_size);

/* ---- remove_tree.c ---- */

/* Removes a file or a folder with everything in it; true when nothing is left. */
bool cli_remove_tree(const char *path);

#endif
