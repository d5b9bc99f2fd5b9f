/* The harness's functions (drape_test.h): the failure report, the timing line and the runner that
 * picks an entry of a folder's test_list.h by name. One test program is one process per ctest
 * test, so the failure count below is that run's alone. */
#include "drape_test.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

static int failed_later; /* EXPECTs that failed */
static int run_tests;    /* RUN_TEST lines that passed */
static int entry_argc;
static char **entry_argv;

int test_argc(void) { return entry_argc; }

char **test_argv(void) { return entry_argv; }

static void report(const char *file, int line, const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "%s:%d: FAILED: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(file, line, fmt, ap);
    va_end(ap);
    exit(EXIT_FAILURE);
}

void test_fail_later(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(file, line, fmt, ap);
    va_end(ap);
    failed_later++;
}

int test_finish(void)
{
    printf("%d test(s) passed, %d failed check(s)\n", run_tests, failed_later);
    return failed_later ? 1 : 0;
}

double test_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void test_passed(const char *name, double t0)
{
    run_tests++;
    printf("%-48s ok  %8.1f ms\n", name, 1e3 * (test_now() - t0));
    fflush(stdout);
}

int test_run(int argc, char **argv, const test_entry *entries, size_t count)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    for (size_t k = 0; name && k < count; ++k) {
        if (strcmp(name, entries[k].name) != 0)
            continue;
        entry_argc = argc - 1;
        entry_argv = argv + 1;
        int status = entries[k].run();
        if (status == 0 && failed_later)
            status = EXIT_FAILURE;
        printf("%s: %s\n", name,
               status == 0           ? "passed"
               : status == TEST_SKIP ? "skipped"
                                     : "FAILED");
        return status;
    }
    fprintf(stderr, "%s: %s%s%s; the tests:", argc > 0 ? argv[0] : "test",
            name ? "no test named '" : "name a test", name ? name : "", name ? "'" : "");
    for (size_t k = 0; k < count; ++k)
        fprintf(stderr, " %s", entries[k].name);
    fputc('\n', stderr);
    return 2;
}
