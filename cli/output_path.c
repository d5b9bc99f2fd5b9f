/* Output paths checked before a run, so that a file that cannot be written fails in a moment with
 * exit code 4 instead of after a long simulation (the OBJ export does the same by writing frame 0
 * first). The check is the writer's own first move: drape_output_open makes the temporary file in
 * the target's directory (refusing a target that is not a regular file), and the check then removes
 * it, so the target is never touched. A failure that comes later (a full disk) is still reported
 * by the writer. */
#include "cli.h"

bool cli_output_writable(const char *path)
{
    drape_output out;
    drape_scene_error e;
    if (drape_output_open(&out, path, &e) != DRAPE_SCENE_OK) {
        cli_error("%s", e.message);
        return false;
    }
    drape_output_discard(&out);
    return true;
}
