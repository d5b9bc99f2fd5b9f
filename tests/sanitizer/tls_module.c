/* A library with thread-local storage, which tls_exit.c opens with dlopen(), as the OpenCL ICD
 * loader opens PoCL: its TLS block is then dynamic, allocated by the dynamic linker on first use.
 */
void **tls_module_slot(void);

static __thread void *slot;

__attribute__((visibility("default"))) void **tls_module_slot(void) { return &slot; }
