/* A pass over a scene file's text before cJSON parses it, for two things cJSON cannot tell:
 *
 * - How much memory the tree will take. cJSON allocates one node per value and one block per
 *   string, so the tree of a file with a dense array ("[0,0,0,...]") is about 40 times the file;
 *   counting values and string bytes first lets the loader refuse at once, naming the bytes, when
 *   that is more than the process can allocate, instead of spending it and then failing (cJSON's
 *   NULL on an allocation failure reads like "malformed JSON").
 * - A string with an escaped NUL ("a\u0000b"), which cJSON would silently cut at the NUL.
 * - Arrays and objects nested deeper than cJSON's limit (CJSON_NESTING_LIMIT), which it reports
 *   as a syntax error like any other.
 *
 * The counts are upper bounds for any text; they are exact for valid JSON.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>

void sc_json_scan(const char *data, size_t size, sc_json_scan_result *out)
{
    uint64_t values = 1, strings = 0, string_bytes = 0;
    size_t nul = SIZE_MAX, deep = SIZE_MAX, depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < size; ++i) {
        const char c = data[i];
        if (in_string) {
            if (c == '"') {
                in_string = false;
            } else if (c == '\\' && i + 1 < size) {
                if (data[i + 1] == 'u' && i + 6 <= size && nul == SIZE_MAX && data[i + 2] == '0' &&
                    data[i + 3] == '0' && data[i + 4] == '0' && data[i + 5] == '0')
                    nul = i;
                ++i;
                ++string_bytes;
            } else {
                ++string_bytes;
            }
        } else if (c == '"') {
            in_string = true;
            ++strings;
        } else if (c == ',' || c == '[' || c == '{') {
            ++values;
            if (c != ',' && ++depth > CJSON_NESTING_LIMIT && deep == SIZE_MAX)
                deep = i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    out->values = values;
    out->nul_offset = nul;
    out->deep_offset = deep;
    /* Each allocation also costs the allocator's header; 16 bytes on glibc. */
    out->bytes = values * (sizeof(cJSON) + 16) + strings * 16 + string_bytes + strings;
}
