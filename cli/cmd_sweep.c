/* `drape sweep SWEEP.json --out OUT`: runs every case of a sweep file (docs/sweep-format.md) into
 * OUT/case-NNNNN/ and writes OUT/index.jsonl, skipping the cases an earlier run finished. On one
 * machine the cases run in --jobs worker processes (sweep_pool.c); started by mpirun or srun as
 * several ranks, over MPI (sweep_mpi.c).
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "sweep.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char head[] =
    "usage: drape sweep SWEEP.json --out DIR [--jobs N] [--backend cpu|opencl|auto]\n"
    "                   [--device D] [--allow-outside-paths]\n"
    "       mpirun -np N drape sweep SWEEP.json --out DIR [--backend ...]\n"
    "\n"
    "Runs every case of a sweep file (docs/sweep-format.md): a base scene and the fields\n"
    "to vary by JSON path, over a grid, a list or random samples. Each case gets\n"
    "DIR/case-NNNNN/ with its resolved scene (scene.json, which `drape run` runs alone),\n"
    "summary.json, the outputs the sweep asks for and a `done` marker; DIR/index.jsonl\n"
    "has one line per case. Running the same command again skips the cases that are\n"
    "done.\n"
    "\n";
static const char foot[] =
    "\n"
    "Exit codes: 0 every case succeeded; 1 every case is done and some failed (see the\n"
    "index); 2 usage error; 3 bad sweep file or base scene; 4 the output folder cannot\n"
    "be written or holds another sweep; 5 some cases are not done (a worker died): run\n"
    "again; 130 interrupted: run again to finish.\n";

/* One worker per core, or one per OpenCL device with --backend opencl. The devices are counted in
 * a child process, so that this one, which forks the workers, never starts an OpenCL runtime. */
static uint32_t default_jobs(const cli_sweep_context *c)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t jobs = cores > 0 ? (uint32_t)cores : 1;
    if (!c->has_backend || c->backend != DRAPE_BACKEND_OPENCL || c->device)
        return jobs;
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        uint32_t count = 0;
        if (drape_list_devices(NULL, 0, &count, NULL, NULL) != DRAPE_OK)
            count = 0;
        ssize_t n = write(fds[1], &count, sizeof count);
        _exit(n == (ssize_t)sizeof count ? 0 : 1);
    }
    close(fds[1]);
    uint32_t count = 0;
    if (pid < 0 || read(fds[0], &count, sizeof count) != (ssize_t)sizeof count)
        count = 0;
    close(fds[0]);
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    return count ? count : 1;
}

int cli_cmd_sweep(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *jobs_text = NULL, *backend = NULL;
    bool allow_outside_paths = false;
    cli_sweep_context c = {0};
    const cmdline_option options[] = {
        CMDLINE_VALUE("--out", "DIR", "the output folder (created; one level)", &out),
        CMDLINE_VALUE("--jobs", "N",
                      "worker processes (default: one per core; with --backend opencl, one\n"
                      "per OpenCL device); under mpirun the ranks are the workers",
                      &jobs_text),
        CMDLINE_VALUE("--backend", "B", "cpu, opencl or auto, instead of the scenes' own",
                      &backend),
        CMDLINE_VALUE("--device", "D",
                      "OpenCL device: an index or part of its name (default: each worker\n"
                      "or MPI rank takes device (its number on the machine) mod devices)",
                      &c.device),
        CMDLINE_FLAG("--allow-outside-paths", "mesh paths may lead out of the base scene's folder",
                     &allow_outside_paths),
    };
    const cli_command command = {"sweep", head, foot, options, sizeof options / sizeof options[0]};
    int n = 0;
    int rc = cli_parse(&command, argc, argv, &file, 1, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    if (!cli_path("--out", out))
        return CLI_USAGE;
    if (n == 0 || !out) {
        cli_error("sweep: %s", n == 0 ? "which sweep file?" : "where to? Give --out DIR");
        cli_usage(stderr, &command);
        return CLI_USAGE;
    }
    uint32_t jobs = 0;
    if ((jobs_text && !cli_u32("--jobs", jobs_text, 1, 4096, &jobs)) ||
        (backend && !cli_backend("--backend", backend, &c.backend)))
        return CLI_USAGE;
    c.has_backend = backend != NULL;
    c.out = out;
    if (strlen(out) > 3000) {
        cli_error("sweep: --out: a path of at most 3000 characters, please");
        return CLI_USAGE;
    }

    drape_sweep *sweep = NULL;
    drape_scene_error e;
    drape_scene_status st = drape_sweep_load_file(file, allow_outside_paths, &sweep, &e);
    if (st != DRAPE_SCENE_OK) {
        cli_error("%s", e.message);
        return cli_exit_code(st);
    }
    c.sweep = sweep;
    cli_interrupt_install();
    if (cli_sweep_under_mpi()) {
        if (jobs_text)
            cli_error("warning: --jobs is ignored under MPI: the ranks are the workers");
        rc = cli_sweep_run_mpi(&c);
    } else
        rc = cli_sweep_run_local(&c, jobs ? jobs : default_jobs(&c));
    drape_sweep_destroy(sweep);
    return rc;
}
