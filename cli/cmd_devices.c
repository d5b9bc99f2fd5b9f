/* `drape devices`: the OpenCL devices the library can use, with the index and names that --device
 * and $DRAPE_DEVICE accept. */
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static const char head[] =
    "usage: drape devices [--json]\n"
    "\n"
    "Lists the OpenCL devices: the index or a part of the platform or device name selects\n"
    "one with `drape run --device D` or $DRAPE_DEVICE.\n"
    "\n";
static const char foot[] =
    "\n"
    "Exit codes: 0 success (also with no device), 1 no OpenCL platform, 2 usage error.\n";

static void quiet(drape_log_level level, const char *message, void *user)
{
    (void)level;
    snprintf(user, 256, "%s", message);
}

int cli_cmd_devices(int argc, char **argv)
{
    bool json = false;
    const cmdline_option options[] = {CMDLINE_FLAG("--json", "print JSON instead of text", &json)};
    const cli_command command = {"devices", head, foot, options, 1};
    int n = 0;
    int rc = cli_parse(&command, argc, argv, NULL, 0, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    char why[256] = "";
    uint32_t count = 0;
    drape_result r = drape_list_devices(NULL, 0, &count, quiet, why);
    drape_device_info *d = count ? calloc(count, sizeof *d) : NULL;
    if (r == DRAPE_OK && count)
        r = d ? drape_list_devices(d, count, &count, quiet, why) : DRAPE_ERROR_OUT_OF_MEMORY;
    if (r != DRAPE_OK) {
        free(d);
        cli_error("devices: no OpenCL: %s", why[0] ? why : drape_result_string(r));
        return CLI_RUNTIME;
    }
    if (json) {
        cJSON *a = cJSON_CreateArray();
        for (uint32_t i = 0; i < count; ++i) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "index", d[i].index);
            cJSON_AddStringToObject(o, "platform", d[i].platform);
            cJSON_AddStringToObject(o, "name", d[i].name);
            cJSON_AddStringToObject(o, "type", d[i].type);
            cJSON_AddStringToObject(o, "driver", d[i].driver);
            cJSON_AddNumberToObject(o, "global_memory", (double)d[i].global_memory);
            cJSON_AddNumberToObject(o, "compute_units", d[i].compute_units);
            cJSON_AddItemToArray(a, o);
        }
        rc = cli_print_json(a);
    } else {
        if (count == 0)
            printf("no OpenCL devices\n");
        for (uint32_t i = 0; i < count; ++i)
            printf("%u: %s / %s (%s, driver %s, %.1f GiB, %u compute units)\n", d[i].index,
                   d[i].platform, d[i].name, d[i].type, d[i].driver,
                   (double)d[i].global_memory / (1024.0 * 1024.0 * 1024.0), d[i].compute_units);
        rc = CLI_OK;
    }
    free(d);
    return rc;
}
