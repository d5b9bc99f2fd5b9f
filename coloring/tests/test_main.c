/* Runs the colouring tests: all of them, or the one named on the command line (ctest runs each
 * by name, see coloring/CMakeLists.txt). */
#include "test.h"
#include "test_list.h"

#include <string.h>

typedef struct named_test {
    const char *name;
    void (*run)(void);
} named_test;

#define COLORING_TABLE_ENTRY(name) {#name, test_##name},
static const named_test tests[] = {COLORING_TESTS(COLORING_TABLE_ENTRY)};

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int ran = 0;
    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; ++k) {
        if (only != NULL && strcmp(only, tests[k].name) != 0)
            continue;
        tests[k].run();
        printf("%-36s ok\n", tests[k].name);
        ++ran;
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", only != NULL ? only : "(none)");
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
