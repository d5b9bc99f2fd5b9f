/* JSON on stdout for --json: prints a cJSON tree (and frees it), so that every subcommand writes
 * its machine-readable output the same way. JSON has no NaN or infinity (cJSON prints them as
 * null), so a tree with a non-finite number is refused with the key's path instead of printed.
 */
#include "cli.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

/* The first non-finite number under item: its path into `path`; false when there is none. */
static bool find_non_finite(const cJSON *item, char *path, size_t size)
{
    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble))
        return true;
    size_t index = 0;
    for (const cJSON *c = item->child; c; c = c->next, ++index) {
        if (!find_non_finite(c, path, size))
            continue;
        char part[96];
        if (c->string)
            snprintf(part, sizeof part, ".%.64s", c->string);
        else
            snprintf(part, sizeof part, "[%zu]", index);
        size_t used = strlen(part), rest = strlen(path);
        if (used + rest < size) {
            memmove(path + used, path, rest + 1);
            memcpy(path, part, used);
        }
        return true;
    }
    return false;
}

int cli_print_json(cJSON *item)
{
    char where[256] = "";
    if (item && find_non_finite(item, where, sizeof where)) {
        cJSON_Delete(item);
        cli_error("the JSON output is not written: $%s is not finite", where);
        return CLI_RUNTIME;
    }
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
