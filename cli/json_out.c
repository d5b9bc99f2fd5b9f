/* JSON on stdout for --json: prints a cJSON tree (and frees it), so that every subcommand writes
 * its machine-readable output the same way. */
#include "cli.h"

#include <cjson/cJSON.h>

int cli_print_json(cJSON *item)
{
    char *text = item ? cJSON_Print(item) : NULL;
    cJSON_Delete(item);
    if (!text) {
        cli_error("no memory for the JSON output");
        return CLI_RUNTIME;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return CLI_OK;
}
