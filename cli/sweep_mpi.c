/* A sweep over MPI ranks, for many machines: `mpirun -np N drape sweep SWEEP.json --out OUT` (or a
 * batch scheduler's `srun`). Rank 0 prepares the output folder, hands out case numbers one at a
 * time to whichever rank reports (so uneven cases balance), gathers each case's index line from the
 * rank that ran it and writes the index; ranks 1 .. N-1 run cases. Each rank pins itself to an
 * OpenCL device by its rank on its node (MPI_Comm_split_type, MPI-3), with --backend opencl and no
 * --device. Cases are written by the rank that runs them, into the output folder, which must be one
 * folder for every machine (a shared file system); see docs/sweep-format.md.
 *
 * Rank 0 waits for reports with MPI_Iprobe and a 1 ms sleep rather than a blocking receive, which
 * Open MPI spins in: on a machine with as many ranks as cores it would take a core from a worker.
 *
 * Built only where CMake finds MPI (DRAPE_HAVE_MPI); elsewhere a process started by an MPI launcher
 * says that this drape has no MPI. The library and the other tools never depend on MPI.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cli_sweep_under_mpi(void)
{
    /* Set by Open MPI's mpirun, by MPICH's and Slurm's PMI, and by PMIx launchers (srun --mpi). */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", NULL};
    for (const char *const *v = vars; *v; ++v)
        if (getenv(*v))
            return true;
    return false;
}

#ifndef DRAPE_HAVE_MPI

int cli_sweep_run_mpi(cli_sweep_context *c)
{
    (void)c;
    cli_error("sweep: this process was started by an MPI launcher, but this drape was built "
              "without MPI (install Open MPI with scripts/setup.sh and rebuild), or run it without "
              "mpirun and use --jobs");
    return CLI_RUNTIME;
}

#else

#include <mpi.h>
#include <time.h>

enum { TAG_WORK = 1, TAG_REPORT = 2, HEADER = 2 * sizeof(int32_t) + 256 };

/* A report: the case (-1: ready for the first), its status, why (256 bytes), then its index line
 * (NUL-terminated, may be empty). */
static char *pack(int32_t index, int32_t status, const char *why, const char *row, int *size)
{
    size_t n = HEADER + (row ? strlen(row) : 0) + 1;
    char *buf = calloc(1, n);
    if (!buf)
        return NULL;
    memcpy(buf, &index, sizeof index);
    memcpy(buf + sizeof index, &status, sizeof status);
    snprintf(buf + 2 * sizeof(int32_t), 256, "%s", why ? why : "");
    memcpy(buf + HEADER, row ? row : "", n - HEADER);
    *size = (int)n;
    return buf;
}

static void worker(cli_sweep_context *c)
{
    int size = 0;
    char *msg = pack(-1, 0, NULL, NULL, &size);
    if (!msg)
        MPI_Abort(MPI_COMM_WORLD, CLI_RUNTIME);
    for (;;) {
        MPI_Send(msg, size, MPI_BYTE, 0, TAG_REPORT, MPI_COMM_WORLD);
        free(msg);
        int32_t index = -1;
        MPI_Recv(&index, 1, MPI_INT32_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (index < 0)
            return;
        char why[256] = "", *row = NULL;
        cli_case_status st = cli_sweep_run_case(c, (uint32_t)index, &row, why, sizeof why);
        msg = pack(index, (int32_t)st, why, row, &size);
        free(row);
        if (!msg)
            MPI_Abort(MPI_COMM_WORLD, CLI_RUNTIME);
    }
}

/* Rank 0: prepares the folder, hands out cases, gathers the rows, writes the index. */
static int dispatcher(cli_sweep_context *c, int ranks)
{
    const uint32_t total = drape_sweep_case_count(c->sweep);
    int lock = -1;
    int rc = cli_sweep_prepare_folder(c, &lock);
    char **rows = calloc((size_t)total + 1, sizeof *rows);
    uint32_t *todo = malloc(((size_t)total + 1) * sizeof *todo), count = 0, next = 0;
    if (rc == CLI_OK && (!rows || !todo)) {
        cli_error("no memory");
        rc = CLI_RUNTIME;
    }
    for (uint32_t k = 0; rc == CLI_OK && k < total; ++k)
        if (!cli_sweep_case_done(c->out, k))
            todo[count++] = k;
    const bool prepared = rc == CLI_OK;
    cli_sweep_progress p;
    if (prepared)
        cli_sweep_progress_start(&p, total, total - count);
    int active = ranks - 1;
    bool stop = !prepared;
    while (active > 0) {
        int flag = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REPORT, MPI_COMM_WORLD, &flag, &status);
        if (!flag) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            continue;
        }
        int size = 0;
        MPI_Get_count(&status, MPI_BYTE, &size);
        char *msg = malloc((size_t)size + 1);
        if (!msg)
            MPI_Abort(MPI_COMM_WORLD, CLI_RUNTIME);
        MPI_Recv(msg, size, MPI_BYTE, status.MPI_SOURCE, TAG_REPORT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        int32_t index, st;
        memcpy(&index, msg, sizeof index);
        memcpy(&st, msg + sizeof index, sizeof st);
        msg[size] = '\0';
        msg[2 * sizeof(int32_t) + 255] = '\0';
        if (index >= 0 && (uint32_t)index < total) {
            if (st == CLI_CASE_OUTPUT_ERROR && rc == CLI_OK && prepared) {
                cli_progress_clear(&p.bar);
                cli_error("%s", msg + 2 * sizeof(int32_t));
                rc = CLI_OUTPUT;
                stop = true;
            }
            if (size > (int)HEADER + 1 && rows && !rows[index]) {
                size_t n = strlen(msg + HEADER) + 1;
                rows[index] = malloc(n);
                if (rows[index])
                    memcpy(rows[index], msg + HEADER, n);
            }
            if (prepared)
                cli_sweep_progress_case(&p, (cli_case_status)st);
        }
        free(msg);
        int32_t work = !stop && !cli_interrupted() && next < count ? (int32_t)todo[next++] : -1;
        MPI_Send(&work, 1, MPI_INT32_T, status.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
        if (work < 0)
            active--;
    }
    int finished = prepared ? cli_sweep_finish(c, &p, rows, false) : rc;
    for (uint32_t k = 0; rows && k < total; ++k)
        free(rows[k]);
    free(rows);
    free(todo);
    if (lock >= 0)
        close(lock);
    return rc != CLI_OK ? rc : finished;
}

int cli_sweep_run_mpi(cli_sweep_context *c)
{
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        cli_error("sweep: MPI_Init failed");
        return CLI_RUNTIME;
    }
    int rank = 0, ranks = 1, local = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);

    char tag[32], device[16];
    snprintf(tag, sizeof tag, "r%d", rank);
    c->tag = tag;
    if (c->has_backend && c->backend == DRAPE_BACKEND_OPENCL && !c->device && rank > 0) {
        uint32_t count = 0;
        if (drape_list_devices(NULL, 0, &count, NULL, NULL) == DRAPE_OK && count > 0) {
            snprintf(device, sizeof device, "%u", (uint32_t)local % count);
            c->device = device;
        }
    }
    int rc;
    if (ranks == 1)
        rc = cli_sweep_run_local(c, 1);
    else if (rank == 0)
        rc = dispatcher(c, ranks);
    else {
        worker(c);
        rc = CLI_OK;
    }
    int32_t shared = rc;
    MPI_Bcast(&shared, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return (int)shared;
}

#endif
