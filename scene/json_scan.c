/* A pass over a scene file's text before cJSON parses it, for what cJSON cannot tell or would read
 * wrong without a word:
 *
 * - How much memory the tree will take. cJSON allocates one node per value and one block per
 *   string, so the tree of a file with a dense array ("[0,0,0,...]") is about 40 times the file;
 *   counting values and string bytes first lets the loader refuse at once, naming the bytes, when
 *   that is more than the process can allocate, instead of spending it and then failing (cJSON's
 *   NULL on an allocation failure reads like "malformed JSON").
 * - Strings that are not JSON, which cJSON takes: a NUL, escaped ("a\u0000b") or raw, or a "\u"
 *   without four hex digits (cJSON decodes bad hex as U+0000), each of which silently cuts the
 *   string there; any other raw control character; an escape JSON does not know ("\q"); a lone
 *   UTF-16 surrogate ("\uD800" without its low half).
 * - Numbers that are not JSON, which cJSON's strtod takes: "1." and "01"; and numbers that are not
 *   0 but read as 0 ("1e-400", "0.000...1"), too small even for a double, which the reader of
 *   values cannot tell from a written 0.
 * - Arrays and objects nested deeper than cJSON's limit (CJSON_NESTING_LIMIT), which it reports
 *   as a syntax error like any other.
 *
 * The first of these problems in the text is the one reported, with its offset, so that the loader
 * names its line and column. The counts are upper bounds for any text; they are exact for valid
 * JSON.
 */
#include "scene_internal.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

/* Records the problem at `offset`; always returns SIZE_MAX (the scan stops). */
static size_t problem(sc_json_scan_result *out, size_t offset, const char *fmt, ...)
    SC_PRINTF(3, 4);
static size_t problem(sc_json_scan_result *out, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    out->error_offset = offset;
    return SIZE_MAX;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The UTF-16 code unit of the four hex digits at text[0..4), or -1. */
static long hex4(const char *text, size_t avail)
{
    long unit = 0;
    for (size_t k = 0; k < 4; ++k) {
        const char c = k < avail ? text[k] : '\0';
        const int digit = is_digit(c)            ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (digit < 0)
            return -1;
        unit = 16 * unit + digit;
    }
    return unit;
}

/* The string whose opening quote is data[start]: the offset past its closing quote (the end of
 * the text when it has none: cJSON reports that), or SIZE_MAX with the problem recorded. What
 * its bytes will take, at most, is added to *bytes. */
static size_t scan_string(const char *data, size_t size, size_t start, uint64_t *bytes,
                          sc_json_scan_result *out)
{
    for (size_t i = start + 1; i < size; ++i) {
        const unsigned char c = (unsigned char)data[i];
        if (c == '"')
            return i + 1;
        ++*bytes;
        if (c == 0)
            return problem(out, i, "a string holds a NUL byte, which would cut it short");
        if (c < 0x20)
            return problem(out, i,
                           "a string holds the raw control character 0x%02X, which JSON allows "
                           "only escaped (\\u%04X)",
                           c, c);
        if (c != '\\' || i + 1 >= size)
            continue;
        const char e = data[++i];
        if (e != 'u') {
            if (!strchr("\"\\/bfnrt", e) || e == '\0') {
                char shown[4 * SC_EXCERPT_MAX + 4];
                return problem(out, i - 1,
                               "a string holds the escape '\\%s', which JSON does not know (it "
                               "knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                               sc_excerpt(data + i, 1, shown, sizeof shown));
            }
            continue;
        }
        const long unit = hex4(data + i + 1, size - i - 1);
        if (unit < 0)
            return problem(out, i - 1, "a string holds a \\u without four hex digits after it");
        if (unit == 0)
            return problem(out, i - 1, "a string holds \\u0000, which would cut it short");
        if (unit >= 0xDC00 && unit <= 0xDFFF)
            return problem(out, i - 1,
                           "a string holds \\u%04lX, the low half of a UTF-16 surrogate pair "
                           "without a high half (\\uD800 to \\uDBFF) before it",
                           unit);
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            const long low = i + 6 < size && data[i + 5] == '\\' && data[i + 6] == 'u'
                                 ? hex4(data + i + 7, size - i - 7)
                                 : -1;
            if (low < 0xDC00 || low > 0xDFFF)
                return problem(out, i - 1,
                               "a string holds \\u%04lX, the high half of a UTF-16 surrogate pair "
                               "without a low half (\\uDC00 to \\uDFFF) after it",
                               unit);
            i += 6;
        }
        i += 4;
        *bytes += 4; /* 1 to 4 bytes of UTF-8 */
    }
    return size;
}

/* Whether the digits of a number (mantissa digits[0..count), `point` of them before the decimal
 * point, times 10^exponent), not all 0, read as 0 in a double. */
static bool reads_as_zero(const char *digits, size_t count, size_t point, long long exponent)
{
    size_t first = 0;
    while (digits[first] == '0' || digits[first] == '.')
        ++first;
    /* The value is in [10^e10, 10^(e10 + 1)), e10 the place of the first significant digit. */
    const long long place = (long long)point - 1 - (long long)(first < point ? first : first - 1);
    const long long e10 = place + exponent;
    if (e10 > -300)
        return false;
    if (e10 < -400)
        return true;
    /* Near the smallest double: strtod on the significant digits, at most 800 (more than the 767
     * that correct rounding can need), a '1' for any non-zero digit past them. */
    char text[832];
    size_t n = 0;
    bool rest = false;
    for (size_t k = first; k < count; ++k) {
        if (digits[k] == '.')
            continue;
        if (n < 800)
            text[n++] = digits[k];
        else
            rest = rest || digits[k] != '0';
    }
    if (rest)
        text[n++] = '1';
    snprintf(text + n, sizeof text - n, "e%lld", e10 - (long long)(n - 1));
    return strtod(text, NULL) == 0.0;
}

/* The number that starts at data[start] ('-' or a digit): the offset past it, or SIZE_MAX with
 * the problem recorded. JSON's grammar is -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. */
static size_t scan_number(const char *data, size_t size, size_t start, sc_json_scan_result *out)
{
    /* The number as the eye sees it, for messages: up to the next delimiter. */
    size_t shown_end = start;
    while (shown_end < size && data[shown_end] != '\0' &&
           (is_word(data[shown_end]) || strchr("+-.", data[shown_end])))
        ++shown_end;
    char shown[4 * SC_EXCERPT_MAX + 4];
    sc_excerpt(data + start, shown_end - start, shown, sizeof shown);

    size_t i = start + (data[start] == '-');
    const char *why = NULL;
    const size_t mantissa = i;
    bool nonzero = false;
    if (i >= size || !is_digit(data[i]))
        why = ": a digit must follow the '-'";
    else if (data[i] == '0' && i + 1 < size && is_digit(data[i + 1]))
        why = ": JSON numbers have no leading zeros";
    while (!why && i < size && is_digit(data[i]))
        nonzero |= data[i++] != '0';
    const size_t point = i - mantissa;
    if (!why && i < size && data[i] == '.') {
        if (++i >= size || !is_digit(data[i]))
            why = ": a digit must follow the '.'";
        while (!why && i < size && is_digit(data[i]))
            nonzero |= data[i++] != '0';
    }
    const size_t mantissa_end = i;
    long long exponent = 0;
    if (!why && i < size && (data[i] == 'e' || data[i] == 'E')) {
        const bool negative = ++i < size && data[i] == '-';
        i += i < size && (data[i] == '-' || data[i] == '+');
        if (i >= size || !is_digit(data[i]))
            why = ": a digit must follow the 'e'";
        for (; !why && i < size && is_digit(data[i]); ++i)
            if (exponent < 1000000000LL) /* far past any double; more digits change nothing */
                exponent = 10 * exponent + (data[i] - '0');
        exponent = negative ? -exponent : exponent;
    }
    /* What cJSON's number takes: it hands strtod the run of these characters. */
    if (!why && i < size && data[i] != '\0' && (is_digit(data[i]) || strchr("+-.eE", data[i])))
        why = "";
    if (why)
        return problem(out, start, "invalid number '%s'%s", shown, why);
    if (nonzero && reads_as_zero(data + mantissa, mantissa_end - mantissa, point, exponent))
        return problem(out, start, "'%s' " SC_TOO_SMALL_FOR_FLOAT, shown, (double)FLT_MIN);
    return i;
}

void sc_json_scan(const char *data, size_t size, sc_json_scan_result *out)
{
    uint64_t values = 1, strings = 0, string_bytes = 0;
    size_t depth = 0;
    out->error_offset = SIZE_MAX;
    out->error[0] = '\0';
    for (size_t i = 0; i < size;) {
        const char c = data[i];
        size_t next = i + 1;
        if (c == '"') {
            ++strings;
            next = scan_string(data, size, i, &string_bytes, out);
        } else if (c == '-' || is_digit(c)) {
            next = scan_number(data, size, i, out);
        } else if (c == ',' || c == '[' || c == '{') {
            ++values;
            if (c != ',' && ++depth > CJSON_NESTING_LIMIT)
                next = problem(out, i, "arrays and objects nested more than %d deep (the limit)",
                               CJSON_NESTING_LIMIT);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
        if (next == SIZE_MAX)
            break;
        i = next;
    }
    out->values = values;
    /* Each allocation also costs the allocator's header; 16 bytes on glibc. */
    out->bytes = values * (sizeof(cJSON) + 16) + strings * 16 + string_bytes + strings;
}
