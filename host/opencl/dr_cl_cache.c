/* The on-disk cache of built OpenCL program binaries, so that a second start does not compile
 * again.
 *
 * Key. Everything that decides a program's binary, as text: the platform's name, vendor and
 * version, the device's name and OpenCL version, the driver version, the build options and the
 * whole assembled source (the tunables header, the spliced drape_shared.h and the .cl file). A
 * driver update, another device, another work-group size or any edit of a kernel or of the shared
 * header thus gives another key. The file is named by the 64-bit FNV-1a hash of the key, <dir>/<16
 * hex digits>.clbin, and stores the full key: an entry is used only when its key matches byte for
 * byte, so a hash collision costs a recompile, never a wrong binary.
 *
 * Entry: "DRCLBIN2", u64 key size, key, u64 binary size, binary, u64 FNV-1a of everything before it
 * (host byte order; the key names the device, so an entry never travels between machines usefully).
 * Before a binary goes to the driver, which may crash on a damaged one, the file's length must be
 * exactly what the two sizes say and the hash must match the whole entry, so that a truncated entry
 * whose binary checksum still matches (the first format hashed the binary alone) is refused. A file
 * that fails, is not a regular file owned by this user, or is writable by others is rejected with a
 * warning and the program is compiled (and the entry rewritten). Entries are written to a temporary
 * file and renamed into place, so concurrent processes (parallel ctest) never see a half-written
 * entry. Failing to write is only a warning: the cache is an optimisation.
 *
 * Directory: the context def's cache_dir, else $DRAPE_CACHE_DIR, else $XDG_CACHE_HOME/drape, else
 * $HOME/.cache/drape; an empty string disables the cache. Nothing is ever evicted: entries are
 * small (tens of KiB) and a stale one is simply never matched again. A cache directory shared
 * between users is not supported: the hash guards against damage, not against someone who can write
 * the directory, so entries of another owner or writable by group or others are never loaded, and
 * new directories are made private (0700).
 */
#define _POSIX_C_SOURCE 200809L
#include "dr_cl_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char dr_cl_cache_magic[8] = {'D', 'R', 'C', 'L', 'B', 'I', 'N', '2'};

/* ---- string builder and hash ----------------------------------------------------------------- */

static bool dr_cl_str_reserve(dr_cl_str *s, size_t extra)
{
    if (s->failed)
        return false;
    if (s->length + extra + 1 <= s->capacity)
        return true;
    size_t capacity = s->capacity ? s->capacity : 256;
    while (capacity < s->length + extra + 1)
        capacity *= 2;
    char *data = realloc(s->data, capacity);
    if (!data) {
        s->failed = true;
        return false;
    }
    s->data = data;
    s->capacity = capacity;
    return true;
}

void dr_cl_str_append(dr_cl_str *s, const char *text, size_t length)
{
    if (!dr_cl_str_reserve(s, length))
        return;
    memcpy(s->data + s->length, text, length);
    s->length += length;
    s->data[s->length] = '\0';
}

void dr_cl_str_appendf(dr_cl_str *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        s->failed = true;
        return;
    }
    if (!dr_cl_str_reserve(s, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(s->data + s->length, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->length += (size_t)n;
}

void dr_cl_str_free(dr_cl_str *s)
{
    free(s->data);
    memset(s, 0, sizeof *s);
}

uint64_t dr_cl_hash64(const void *data, size_t size, uint64_t seed)
{
    const unsigned char *bytes = data;
    uint64_t h = seed;
    for (size_t i = 0; i < size; ++i) {
        h ^= bytes[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* ---- directory ------------------------------------------------------------------------------- */

bool dr_cl_cache_resolve_dir(const char *def_dir, char *out, size_t size)
{
    const char *env;
    int n = 0;
    out[0] = '\0';
    if (def_dir)
        n = snprintf(out, size, "%s", def_dir);
    else if ((env = getenv("DRAPE_CACHE_DIR")) != NULL)
        n = snprintf(out, size, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) != NULL && *env)
        n = snprintf(out, size, "%s/drape", env);
    else if ((env = getenv("HOME")) != NULL && *env)
        n = snprintf(out, size, "%s/.cache/drape", env);
    if (n >= 0 && (size_t)n < size)
        return true;
    out[0] = '\0'; /* cut short, it would name another directory */
    return false;
}

/* mkdir -p; true if the directory exists afterwards. */
static bool dr_cl_make_dirs(const char *path)
{
    char tmp[1024];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, path, n + 1);
    for (size_t i = 1; i <= n; ++i) {
        if (tmp[i] != '/' && tmp[i] != '\0')
            continue;
        char saved = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return false;
        tmp[i] = saved;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- entries --------------------------------------------------------------------------------- */

char *dr_cl_cache_key(const dr_cl_context *ctx, const char *source)
{
    dr_cl_str key = {0};
    dr_cl_str_appendf(&key,
                      "drape program cache 1\nplatform: %s (%s)\nplatform version: %s\n"
                      "device: %s\ndevice version: %s\ndriver: %s\noptions: %s\nsource:\n",
                      ctx->device.platform, ctx->device.platform_vendor,
                      ctx->device.platform_version, ctx->device.name, ctx->device.version,
                      ctx->device.driver, ctx->build_options);
    dr_cl_str_append(&key, source, strlen(source));
    if (key.failed) {
        dr_cl_str_free(&key);
        return NULL;
    }
    return key.data;
}

void dr_cl_cache_path(const dr_cl_context *ctx, const char *key, char *out, size_t size)
{
    snprintf(out, size, "%s/%016llx.clbin", ctx->cache_dir,
             (unsigned long long)dr_cl_hash64(key, strlen(key), DR_CL_HASH_SEED));
}

/* Reads a whole entry; NULL if there is none (errno ENOENT) or it cannot be read, and NULL with
 * *why set when the file is there but must not be trusted. */
static unsigned char *dr_cl_read_file(const char *path, size_t *size, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ELOOP)
            *why = "it is a symbolic link";
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        *why = "not a regular file";
    else if (st.st_uid != geteuid())
        *why = "another user owns it (a shared cache directory is not supported)";
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        *why = "others may write it (a shared cache directory is not supported)";
    FILE *f = *why ? NULL : fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return NULL;
    }
    unsigned char *data = NULL;
    long length;
    if (fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        goto fail;
    data = malloc((size_t)length + 1);
    if (!data || fread(data, 1, (size_t)length, f) != (size_t)length)
        goto fail;
    fclose(f);
    *size = (size_t)length;
    return data;
fail:
    free(data);
    fclose(f);
    return NULL;
}

static bool dr_cl_take(const unsigned char **p, const unsigned char *end, void *out, size_t n)
{
    if ((size_t)(end - *p) < n)
        return false;
    memcpy(out, *p, n);
    *p += n;
    return true;
}

drape_result dr_cl_cache_load(dr_cl_context *ctx, const char *key, unsigned char **binary,
                              size_t *size)
{
    *binary = NULL;
    *size = 0;
    if (!ctx->cache_dir[0])
        return DRAPE_ERROR_UNSUPPORTED;
    char path[1200];
    dr_cl_cache_path(ctx, key, path, sizeof path);
    size_t file_size = 0;
    const char *why = NULL;
    unsigned char *file = dr_cl_read_file(path, &file_size, &why);
    if (!file && !why)
        return DRAPE_ERROR_OUT_OF_RANGE; /* no entry: a plain miss */

    const unsigned char *p = file, *end = file + file_size;
    char magic[8];
    uint64_t key_size = 0, binary_size = 0, checksum = 0;
    size_t want_key = strlen(key);
    if (why)
        ;
    else if (!dr_cl_take(&p, end, magic, sizeof magic) || memcmp(magic, dr_cl_cache_magic, 8) != 0)
        why = "not a drape program cache entry";
    else if (!dr_cl_take(&p, end, &key_size, sizeof key_size) || key_size > (uint64_t)(end - p))
        why = "truncated key";
    else if (key_size != want_key || memcmp(p, key, want_key) != 0)
        why = "it holds another program (hash collision)";
    else if ((p += key_size, !dr_cl_take(&p, end, &binary_size, sizeof binary_size)) ||
             binary_size == 0 || binary_size > (uint64_t)(end - p))
        why = "truncated binary";
    else {
        const unsigned char *bin = p;
        p += binary_size;
        if (!dr_cl_take(&p, end, &checksum, sizeof checksum) || p != end)
            why = "its length is not what its sizes say";
        else if (checksum !=
                 dr_cl_hash64(file, (size_t)(bin + binary_size - file), DR_CL_HASH_SEED))
            why = "checksum mismatch";
        else {
            *binary = malloc((size_t)binary_size);
            if (!*binary) {
                free(file);
                return DRAPE_ERROR_OUT_OF_MEMORY;
            }
            memcpy(*binary, bin, (size_t)binary_size);
            *size = (size_t)binary_size;
        }
    }
    free(file);
    if (why) {
        ctx->stats.cache_rejected++;
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
                   "program cache entry %s is unusable (%s); compiling instead", path, why);
        return DRAPE_ERROR_BACKEND;
    }
    return DRAPE_OK;
}

void dr_cl_cache_store(dr_cl_context *ctx, const char *key, const unsigned char *binary,
                       size_t size)
{
    if (!ctx->cache_dir[0] || size == 0)
        return;
    char path[1200], tmp[1300];
    dr_cl_cache_path(ctx, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    if (!dr_cl_make_dirs(ctx->cache_dir)) {
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
                   "cannot create the program cache directory %s (%s); programs will be compiled "
                   "on every start",
                   ctx->cache_dir, strerror(errno));
        ctx->cache_dir[0] = '\0'; /* off for this context: one warning, not one per program */
        return;
    }
    /* Private whatever the umask: an entry that others may write is never loaded. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING, "cannot write program cache entry %s (%s)", tmp,
                   strerror(errno));
        return;
    }
    uint64_t key_size = strlen(key), binary_size = size;
    uint64_t checksum = dr_cl_hash64(dr_cl_cache_magic, 8, DR_CL_HASH_SEED);
    checksum = dr_cl_hash64(&key_size, sizeof key_size, checksum);
    checksum = dr_cl_hash64(key, (size_t)key_size, checksum);
    checksum = dr_cl_hash64(&binary_size, sizeof binary_size, checksum);
    checksum = dr_cl_hash64(binary, size, checksum);
    bool ok = fwrite(dr_cl_cache_magic, 1, 8, f) == 8 &&
              fwrite(&key_size, sizeof key_size, 1, f) == 1 &&
              fwrite(key, 1, (size_t)key_size, f) == (size_t)key_size &&
              fwrite(&binary_size, sizeof binary_size, 1, f) == 1 &&
              fwrite(binary, 1, size, f) == size && fwrite(&checksum, sizeof checksum, 1, f) == 1;
    int saved_errno = errno;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0) {
        ctx->stats.cache_written++;
        return;
    }
    if (ok)
        saved_errno = errno;
    remove(tmp);
    dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING, "cannot write program cache entry %s (%s)", path,
               strerror(saved_errno));
}
