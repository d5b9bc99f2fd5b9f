/* The output folder of a sweep, which any number of processes (on any number of machines, when it
 * is shared) fill at once without talking about files: each case has its own folder, complete once
 * it exists (sweep_case.c), so "is case k done?" is one stat of its marker, and a re-run skips what
 * is done. OUT/sweep.json records which sweep (and which backend) the folder belongs to, so that a
 * re-run with another sweep file cannot mix two sweeps' cases under one index. OUT/index.jsonl is
 * written last, from the cases' summaries, one line per case in case order. OUT/.lock keeps a
 * second sweep command off a folder that one is filling.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_write_atomic(const char *path, const char *data, size_t size, char *why, size_t why_size)
{
    drape_output o;
    drape_scene_error e;
    drape_scene_status st = drape_output_open(&o, path, &e);
    if (st == DRAPE_SCENE_OK && fwrite(data, 1, size, o.file) != size) {
        drape_output_discard(&o);
        cli_pathf(why, why_size, "%s: cannot write", path);
        return false;
    }
    if (st == DRAPE_SCENE_OK)
        st = drape_output_commit(&o, &e);
    if (st != DRAPE_SCENE_OK)
        cli_pathf(why, why_size, "%s", e.message);
    return st == DRAPE_SCENE_OK;
}

bool cli_pathf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < size;
}

void cli_sweep_case_dir(const char *out, uint32_t index, char *buf, size_t size)
{
    cli_pathf(buf, size, "%s/case-%05u", out, index);
}

bool cli_sweep_case_done(const char *out, uint32_t index)
{
    char path[4200];
    cli_pathf(path, sizeof path, "%s/case-%05u/done", out, index);
    return access(path, F_OK) == 0;
}

/* A whole small file, or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size + 4096 + 1 > cap) {
            char *grown = realloc(buf, cap = 2 * cap + 8192);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        size_t n = fread(buf + size, 1, 4096, f);
        size += n;
        if (n < 4096)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[size] = '\0';
    return buf;
}

char *cli_sweep_read_row(const char *out, uint32_t index)
{
    if (!cli_sweep_case_done(out, index))
        return NULL;
    char path[4200];
    cli_pathf(path, sizeof path, "%s/case-%05u/summary.json", out, index);
    char *text = read_text(path);
    cJSON *o = text ? cJSON_Parse(text) : NULL;
    free(text);
    char *row = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return row;
}

static const char *backend_word(const cli_sweep_context *c)
{
    if (!c->has_backend)
        return "scene";
    return c->backend == DRAPE_BACKEND_OPENCL ? "opencl"
           : c->backend == DRAPE_BACKEND_AUTO ? "auto"
                                              : "cpu";
}

/* Takes OUT/.lock for this process; -1 (printed) when another process holds it. */
static int lock_folder(const char *out)
{
    char path[4200];
    cli_pathf(path, sizeof path, "%s/.lock", out);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_SETLK, &l) != 0) {
        int error = errno;
        close(fd);
        if (error == EACCES || error == EAGAIN)
            cli_error("%s is in use by another drape sweep (it holds %s); wait for it, or give "
                      "another --out",
                      out, path);
        else
            cli_error("%s: cannot lock: %s", path, strerror(error));
        return -1;
    }
    return fd;
}

int cli_sweep_prepare_folder(const cli_sweep_context *c, int *lock)
{
    *lock = -1;
    if (mkdir(c->out, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot create the output folder: %s", c->out, strerror(errno));
        return CLI_OUTPUT;
    }
    if ((*lock = lock_folder(c->out)) < 0)
        return CLI_OUTPUT;
    char path[4200], why[512];
    char *identity = drape_sweep_identity(c->sweep);
    size_t n = identity ? strlen(identity) + 64 : 0;
    char *text = identity ? malloc(n) : NULL;
    if (!text) {
        free(identity);
        cli_error("no memory");
        return CLI_RUNTIME;
    }
    snprintf(text, n, "{\"backend\":\"%s\",\"sweep\":%s}\n", backend_word(c), identity);
    free(identity);
    cli_pathf(path, sizeof path, "%s/sweep.json", c->out);
    char *old = read_text(path);
    int rc = CLI_OK;
    if (old && strcmp(old, text) != 0) {
        cli_error("%s holds the outputs of another sweep, or of this one with another base scene "
                  "or --backend (%s differs); give another --out, or remove the folder",
                  c->out, path);
        rc = CLI_OUTPUT;
    } else if (!old && !cli_write_atomic(path, text, strlen(text), why, sizeof why)) {
        cli_error("%s", why);
        rc = CLI_OUTPUT;
    }
    free(old);
    free(text);
    cli_pathf(path, sizeof path, "%s/.partial", c->out);
    if (rc == CLI_OK && !cli_remove_tree(path)) {
        cli_error("%s: cannot remove the partial cases of an earlier run: %s", path,
                  strerror(errno));
        rc = CLI_OUTPUT;
    }
    if (rc != CLI_OK) {
        close(*lock);
        *lock = -1;
    }
    return rc;
}

/* Appends text and a newline to a growing buffer; false when out of memory. */
static bool append_line(char **buf, size_t *size, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*size + n + 2 > *cap) {
        size_t want = 2 * *cap + n + 4096;
        char *grown = realloc(*buf, want);
        if (!grown)
            return false;
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *size, text, n);
    (*buf)[*size + n] = '\n';
    *size += n + 1;
    return true;
}

int cli_sweep_write_index(const cli_sweep_context *c, char *const *rows, cli_sweep_tally *tally)
{
    *tally = (cli_sweep_tally){0};
    const uint32_t count = drape_sweep_case_count(c->sweep);
    char *buf = NULL;
    size_t size = 0, cap = 0;
    bool ok = true;
    for (uint32_t k = 0; k < count && ok; ++k) {
        char *own = rows && rows[k] ? NULL : cli_sweep_read_row(c->out, k);
        const char *row = rows && rows[k] ? rows[k] : own;
        char pending[64];
        cJSON *o = row ? cJSON_Parse(row) : NULL;
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
        if (!o) {
            snprintf(pending, sizeof pending, "{\"case\":%u,\"status\":\"pending\"}", k);
            row = pending;
            tally->pending++;
        } else if (cJSON_IsString(status) && !strcmp(status->valuestring, "ok"))
            tally->ok++;
        else
            tally->failed++;
        cJSON_Delete(o);
        ok = append_line(&buf, &size, &cap, row);
        free(own);
    }
    char path[4200], why[512] = "no memory for the index";
    cli_pathf(path, sizeof path, "%s/index.jsonl", c->out);
    ok = ok && cli_write_atomic(path, buf ? buf : "", size, why, sizeof why);
    free(buf);
    if (!ok) {
        cli_error("%s", why);
        return CLI_OUTPUT;
    }
    return CLI_OK;
}
