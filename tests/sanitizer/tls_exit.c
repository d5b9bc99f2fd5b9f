/* The sanitizer build's exit with a dlopen()ed library's TLS block where GCC 12's runtime
 * misreads it (cmake/sanitizer_options.c): 16 bytes past a page boundary. Heap chunks of the
 * 32-byte class are handed out one after another, so the program takes chunks until the next one
 * sits there, then touches the library's TLS, whose block (one pointer) takes that chunk.
 *
 *   tls_exit MODULE keep   a heap block reachable only through the library's TLS: exit 0, no
 *                          leak reported, and no "Tracer caught signal 11" from LeakSanitizer
 *   tls_exit MODULE leak   and a block lost on purpose: LeakSanitizer must report its 77 bytes
 *
 * Without intercept_tls_get_addr=0 the first case dies at exit in LeakSanitizer's tracer every
 * time; the second shows that leaks are still found with it. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE = 4096, CHUNK = 32, TARGET = 16, MAX_CHUNKS = 2 * PAGE / CHUNK };

static void *held[MAX_CHUNKS]; /* reachable: not leaks */

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "keep") != 0 && strcmp(argv[2], "leak") != 0)) {
        fprintf(stderr, "usage: tls_exit MODULE keep|leak\n");
        return 2;
    }
    void *module = dlopen(argv[1], RTLD_NOW);
    if (!module) {
        fprintf(stderr, "tls_exit: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    void **(*slot)(void) = (void **(*)(void))(uintptr_t)dlsym(module, "tls_module_slot");
    if (!slot) {
        fprintf(stderr, "tls_exit: %s has no tls_module_slot\n", argv[1]);
        return 1;
    }
    int n = 0;
    do
        held[n] = malloc(8);
    while (((uintptr_t)held[n++] + CHUNK) % PAGE != TARGET && n < MAX_CHUNKS);
    void **tls = slot(); /* the first use: the dynamic linker allocates the block */
    printf("tls_exit: %d chunks taken, the TLS block at %p, %u bytes past a page\n", n, (void *)tls,
           (unsigned)((uintptr_t)tls % PAGE));
    /* elsewhere (the allocator changed), this program would check nothing */
    if ((uintptr_t)tls % PAGE != TARGET) {
        fprintf(stderr, "tls_exit: the TLS block is not %d bytes past a page\n", TARGET);
        return 1;
    }
    *tls = malloc(100); /* reachable only through the library's TLS */
    if (strcmp(argv[2], "leak") == 0) {
        void *volatile lost = malloc(77);
        lost = NULL;
        (void)lost;
    }
    fflush(stdout);
    return 0;
}
