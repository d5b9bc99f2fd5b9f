/* A sweep on one machine: `--jobs N` worker processes, forked after the sweep is read, each with a
 * pipe for case numbers in and one for results out. The parent hands out the next case that is not
 * done to whichever worker reports, so long and short cases balance, and draws the progress. With
 * --jobs 1 the cases run in this process, one after another.
 *
 * Processes, not threads: a case that crashes or is killed takes only its worker with it, and the
 * parent carries on with the others and exits with 5 (incomplete), the case left to the next run.
 * Each worker pins itself to an OpenCL device by its slot (slot mod device count) with --backend
 * opencl and no --device. Ctrl-C reaches every process of the terminal's group; a SIGTERM to the
 * parent alone is passed on to the workers. Either way each worker drops its case's partial files
 * and the parent writes the index of what is done.
 */
#define _POSIX_C_SOURCE 200809L /* kill, sigaction */
#include "sweep.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_CASE UINT32_MAX

/* A worker's report: one write, well under PIPE_BUF, so it arrives whole. */
typedef struct report {
    uint32_t index;
    int32_t status;
    char why[256];
} report;

typedef struct worker {
    pid_t pid;
    int to, from;  /* case numbers to the worker; reports from it */
    uint32_t busy; /* the case it runs, or NO_CASE */
} worker;

/* Pins this process to device `slot mod count` for --backend opencl without --device. */
static void pin_device(cli_sweep_context *c, uint32_t slot, char *buf, size_t size)
{
    if (!c->has_backend || c->backend != DRAPE_BACKEND_OPENCL || c->device)
        return;
    uint32_t count = 0;
    if (drape_list_devices(NULL, 0, &count, NULL, NULL) == DRAPE_OK && count > 0) {
        snprintf(buf, size, "%u", slot % count);
        c->device = buf;
    }
}

static bool read_full(int fd, void *data, size_t size)
{
    for (size_t got = 0; got < size;) {
        ssize_t n = read(fd, (char *)data + got, size - got);
        if (n == 0 || (n < 0 && errno != EINTR))
            return false;
        if (n > 0)
            got += (size_t)n;
    }
    return true;
}

static bool write_full(int fd, const void *data, size_t size)
{
    for (size_t put = 0; put < size;) {
        ssize_t n = write(fd, (const char *)data + put, size - put);
        if (n < 0 && errno != EINTR)
            return false;
        if (n > 0)
            put += (size_t)n;
    }
    return true;
}

/* The worker's life: case numbers in, reports out, until NO_CASE or the parent is gone. */
static void worker_main(cli_sweep_context *c, uint32_t slot, int in, int out)
{
    char tag[32], device[16];
    snprintf(tag, sizeof tag, "p%ld", (long)getpid());
    c->tag = tag;
    pin_device(c, slot, device, sizeof device);
    uint32_t index;
    while (read_full(in, &index, sizeof index) && index != NO_CASE) {
        report r = {.index = index};
        char *row = NULL;
        r.status = (int32_t)cli_sweep_run_case(c, index, &row, r.why, sizeof r.why);
        free(row);
        if (!write_full(out, &r, sizeof r))
            break;
    }
}

/* Sends the worker its next case, or tells it to stop; false when it is gone. */
static bool hand_out(worker *w, const uint32_t *todo, uint32_t count, uint32_t *next, bool stop)
{
    uint32_t index = !stop && *next < count ? todo[(*next)++] : NO_CASE;
    if (index == NO_CASE) {
        w->busy = NO_CASE;
        close(w->to);
        w->to = -1;
        return true;
    }
    w->busy = index;
    return write_full(w->to, &index, sizeof index);
}

/* Forks a worker; false when the system refuses. */
static bool start_worker(cli_sweep_context *c, worker *workers, uint32_t slot)
{
    int down[2], up[2];
    if (pipe(down) != 0)
        return false;
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child keeps its own ends only, also none of the earlier workers' pipes, so that
         * a worker's death closes its pipes for the parent. */
        for (uint32_t k = 0; k < slot; ++k) {
            if (workers[k].to >= 0)
                close(workers[k].to);
            if (workers[k].from >= 0)
                close(workers[k].from);
        }
        close(down[1]);
        close(up[0]);
        worker_main(c, slot, down[0], up[1]);
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        close(down[1]);
        close(up[0]);
        return false;
    }
    workers[slot] = (worker){.pid = pid, .to = down[1], .from = up[0], .busy = NO_CASE};
    return true;
}

/* The cases in this process, one after another. */
static int run_here(cli_sweep_context *c, const uint32_t *todo, uint32_t count,
                    cli_sweep_progress *p)
{
    char tag[32];
    snprintf(tag, sizeof tag, "p%ld", (long)getpid());
    c->tag = tag;
    char device[16];
    pin_device(c, 0, device, sizeof device);
    for (uint32_t k = 0; k < count && !cli_interrupted(); ++k) {
        char why[512], *row = NULL;
        cli_case_status st = cli_sweep_run_case(c, todo[k], &row, why, sizeof why);
        free(row);
        if (st == CLI_CASE_OUTPUT_ERROR) {
            cli_progress_clear(&p->bar);
            cli_error("%s", why);
            return CLI_OUTPUT;
        }
        cli_sweep_progress_case(p, st);
    }
    return CLI_OK;
}

/* The parent's loop over the workers' reports; *lost is set when a worker died with a case. */
static int dispatch(worker *workers, uint32_t jobs, const uint32_t *todo, uint32_t count,
                    cli_sweep_progress *p, bool *lost)
{
    uint32_t next = 0;
    bool stop = false, forwarded = false;
    int rc = CLI_OK;
    for (uint32_t k = 0; k < jobs; ++k)
        if (!hand_out(&workers[k], todo, count, &next, false))
            workers[k].busy = NO_CASE, *lost = true;
    struct pollfd *fds = calloc(jobs, sizeof *fds);
    if (!fds) {
        cli_error("no memory");
        return CLI_RUNTIME;
    }
    for (;;) {
        nfds_t n = 0;
        for (uint32_t k = 0; k < jobs; ++k)
            if (workers[k].busy != NO_CASE)
                fds[n++] = (struct pollfd){.fd = workers[k].from, .events = POLLIN};
        if (n == 0)
            break;
        if (cli_interrupted() && !forwarded) {
            /* Ctrl-C reached the workers too; a SIGTERM to the parent alone did not. */
            for (uint32_t k = 0; k < jobs; ++k)
                if (workers[k].busy != NO_CASE)
                    kill(workers[k].pid, SIGTERM);
            forwarded = stop = true;
        }
        if (poll(fds, n, 200) <= 0)
            continue;
        for (uint32_t k = 0; k < jobs; ++k) {
            worker *w = &workers[k];
            bool ready = false;
            for (nfds_t i = 0; i < n; ++i)
                ready |= fds[i].fd == w->from && (fds[i].revents & (POLLIN | POLLHUP | POLLERR));
            if (!ready || w->busy == NO_CASE)
                continue;
            report r;
            if (!read_full(w->from, &r, sizeof r)) {
                /* The worker died: its case stays not done, for the next run. */
                *lost = true;
                w->busy = NO_CASE;
                continue;
            }
            r.why[sizeof r.why - 1] = '\0';
            if (r.status == CLI_CASE_OUTPUT_ERROR && rc == CLI_OK) {
                cli_progress_clear(&p->bar);
                cli_error("%s", r.why);
                rc = CLI_OUTPUT;
                stop = true;
            }
            cli_sweep_progress_case(p, (cli_case_status)r.status);
            if (!hand_out(w, todo, count, &next, stop || cli_interrupted())) {
                *lost = true;
                w->busy = NO_CASE;
            }
        }
    }
    free(fds);
    return rc;
}

int cli_sweep_run_local(cli_sweep_context *c, uint32_t jobs)
{
    int lock = -1;
    int rc = cli_sweep_prepare_folder(c, &lock);
    if (rc != CLI_OK)
        return rc;
    const uint32_t total = drape_sweep_case_count(c->sweep);
    uint32_t *todo = malloc(((size_t)total + 1) * sizeof *todo), count = 0;
    if (!todo) {
        cli_error("no memory");
        close(lock);
        return CLI_RUNTIME;
    }
    for (uint32_t k = 0; k < total; ++k)
        if (!cli_sweep_case_done(c->out, k))
            todo[count++] = k;
    cli_sweep_progress p;
    cli_sweep_progress_start(&p, total, total - count);
    if (jobs > count)
        jobs = count ? count : 1;
    bool lost = false;
    if (jobs <= 1)
        rc = run_here(c, todo, count, &p);
    else {
        worker *workers = calloc(jobs, sizeof *workers);
        struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
        sigaction(SIGPIPE, &ignore, &old); /* a dead worker's pipe: EPIPE, not death */
        uint32_t started = 0;
        while (workers && started < jobs && start_worker(c, workers, started))
            started++;
        if (started == 0) {
            cli_error("cannot start worker processes: %s", strerror(errno));
            rc = CLI_RUNTIME;
        } else
            rc = dispatch(workers, started, todo, count, &p, &lost);
        for (uint32_t k = 0; k < started; ++k) {
            if (workers[k].to >= 0)
                close(workers[k].to);
            close(workers[k].from);
            while (waitpid(workers[k].pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        sigaction(SIGPIPE, &old, NULL);
        free(workers);
    }
    free(todo);
    int finished = cli_sweep_finish(c, &p, NULL, lost);
    close(lock);
    return rc != CLI_OK ? rc : finished;
}
