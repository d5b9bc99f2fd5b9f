/* The main of a folder's test program: the entries of that folder's test_list.h (found on the
 * include path), each `int suite_<name>(void)`, run by name (drape_test.h). */
#include "drape_test.h"
#include "test_list.h"

#define TEST_ENTRY(name) {#name, suite_##name},
static const test_entry entries[] = {TEST_LIST(TEST_ENTRY)};

int main(int argc, char **argv)
{
    return test_run(argc, argv, entries, sizeof entries / sizeof entries[0]);
}
