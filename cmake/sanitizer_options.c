/* The AddressSanitizer options every program of a sanitizer build (DRAPE_SANITIZE) starts with;
 * cmake/sanitize.cmake compiles this file into each of them. ASAN_OPTIONS in the environment is
 * read after these and overrides them.
 *
 * intercept_tls_get_addr=0: GCC 12's sanitizer runtime (Debian 12) intercepts __tls_get_addr to
 * learn where the dynamic TLS block of a dlopen()ed library lies, and takes a block whose address
 * is 16 bytes past a page boundary for a glibc <= 2.24 block with a header in the 16 bytes before
 * it (the Glibc_2_19_tls_header guess of sanitizer_tls_get_addr.cpp). With glibc 2.36 no such
 * header exists: the "header" is whatever an ASan heap chunk holds there, and LeakSanitizer's
 * stop-the-world tracer, which scans that range at exit, dies on it ("Tracer caught signal 11",
 * "LeakSanitizer has encountered a fatal error") after every check of the test has passed. PoCL
 * and its LLVM are such dlopen()ed libraries (the OpenCL ICD loader opens them), and their blocks
 * are small heap chunks, one in 128 of which sits on that offset, so an OpenCL test failed at exit
 * now and then, more often under load (the order of allocations between threads changes).
 * `ASAN_OPTIONS=verbosity=2` shows the wrong guess as "__tls_get_addr: glibc >=2.19 suspected".
 * Newer runtimes (LLVM 17, GCC 14) dropped the guess.
 *
 * Leak checking loses nothing: drape has no thread-local storage, a program's own libraries get
 * static TLS (which LeakSanitizer scans as before), and the dynamic TLS blocks of dlopen()ed
 * libraries are heap chunks that the dynamic linker allocated, which LeakSanitizer counts as
 * reachable and scans. */
const char *__asan_default_options(void);

__attribute__((visibility("default"), used)) const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
