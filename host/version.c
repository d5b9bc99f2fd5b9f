/* drape_version: the version of the library a program runs with, which can differ from the
 * DRAPE_VERSION of the header it was compiled against when it loads another shared build. */
#include <drape/drape.h>

int drape_version(void) { return DRAPE_VERSION; }
