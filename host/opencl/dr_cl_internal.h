/* Helpers shared by the files of host/opencl/ and by nothing else: a growable string, the hash and
 * the on-disk program cache (dr_cl_cache.c).
 */
#ifndef DR_CL_INTERNAL_H
#define DR_CL_INTERNAL_H

#include "dr_cl.h"

/* A NUL-terminated string that grows as it is appended to. `failed` sticks once an allocation
 * fails, so a chain of appends is checked once at the end. */
typedef struct dr_cl_str {
    char *data;
    size_t length, capacity;
    bool failed;
} dr_cl_str;

void dr_cl_str_append(dr_cl_str *s, const char *text, size_t length);
void dr_cl_str_appendf(dr_cl_str *s, const char *fmt, ...) DR_CL_PRINTF(2, 3);
void dr_cl_str_free(dr_cl_str *s);

/* FNV-1a, 64 bits: the cache's file name. Not a security hash; entries are verified by full key. */
uint64_t dr_cl_hash64(const void *data, size_t size, uint64_t seed);
#define DR_CL_HASH_SEED 0xcbf29ce484222325ull

/* The cache directory from the def's value, $DRAPE_CACHE_DIR, $XDG_CACHE_HOME or $HOME, into out
 * ("" when the cache is off or no directory can be found). */
bool dr_cl_cache_resolve_dir(const char *def_dir, char *out, size_t size);

/* The key of one program: everything that decides its binary, as text. */
char *dr_cl_cache_key(const dr_cl_context *ctx, const char *source);

/* Loads the binary stored under `key`. DRAPE_OK with *binary malloc'd on a hit; DRAPE_ERROR_* with
 * *binary NULL on a miss (no message: a miss is normal) or on an unusable entry (a warning says why
 * and ctx->stats.cache_rejected counts it). */
drape_result dr_cl_cache_load(dr_cl_context *ctx, const char *key, unsigned char **binary,
                              size_t *size);
/* Stores `binary` under `key`; a failure is only a warning. */
void dr_cl_cache_store(dr_cl_context *ctx, const char *key, const unsigned char *binary,
                       size_t size);
/* The path of the entry of `key`, for tests and messages. */
void dr_cl_cache_path(const dr_cl_context *ctx, const char *key, char *out, size_t size);

#endif /* DR_CL_INTERNAL_H */
