/* Runs one colouring test by name (ctest runs each, see coloring/CMakeLists.txt): the entries of
 * test_list.h, each a `void test_<name>(void)` that stops the program at a failed check. */
#include "drape_test.h"
#include "test_list.h"

#define COLORING_RUN(name)                                                                         \
    static int run_##name(void)                                                                    \
    {                                                                                              \
        RUN_TEST(test_##name);                                                                     \
        return 0;                                                                                  \
    }
COLORING_TESTS(COLORING_RUN)

#define COLORING_ENTRY(name) {#name, run_##name},
static const test_entry entries[] = {COLORING_TESTS(COLORING_ENTRY)};

int main(int argc, char **argv)
{
    return test_run(argc, argv, entries, sizeof entries / sizeof entries[0]);
}
