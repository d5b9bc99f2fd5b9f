/* The shared command-line parser (cmdline/cmdline.h): values after a space or '=', flags,
 * positional arguments and --help; and each bad command line refused with a message on stderr that
 * names the program, the option and the value, and CMDLINE_USAGE (exit code 2). Messages are read
 * back from stderr, which the tests send to a temporary file while the parser runs.
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */
#include "cmdline.h"
#include "drape_test.h"
#include "test_list.h"

#include <string.h>
#include <unistd.h>

static char said[2048]; /* what the last captured call wrote on stderr */

static FILE *capture_begin(int *saved)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    ENSURE(tmp);
    *saved = dup(2);
    ENSURE(*saved >= 0 && dup2(fileno(tmp), 2) >= 0);
    return tmp;
}

static void capture_end(FILE *tmp, int saved)
{
    fflush(stderr);
    ENSURE(dup2(saved, 2) >= 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(said, 1, sizeof said - 1, tmp);
    said[n] = '\0';
    fclose(tmp);
    fprintf(stderr, "  stderr: %s", n ? said : "(nothing)\n");
}

/* The options of a small program, and where they go. */
typedef struct parsed {
    const char *steps, *name, *positional[2];
    bool quiet;
    int sizes; /* --size given, counted by apply */
    int positional_count, rc;
    bool help;
} parsed;

static bool count_size(const char *value, void *user)
{
    parsed *p = user;
    if (strcmp(value, "bad") == 0)
        return false;
    p->sizes++;
    return true;
}

static parsed parse(int argc, char **argv)
{
    parsed p = {0};
    const cmdline_option options[] = {
        CMDLINE_VALUE("--steps", "N", "steps to take", &p.steps),
        CMDLINE_VALUE("--name", "NAME", "a name\nover two lines", &p.name),
        CMDLINE_FLAG("--quiet", "say nothing", &p.quiet),
        CMDLINE_APPLY("--size", "S", "a size (repeatable)", count_size, &p),
    };
    cmdline c = {.program = "prog",
                 .options = options,
                 .count = sizeof options / sizeof options[0],
                 .positional = p.positional,
                 .max_positional = 2};
    int saved = -1;
    FILE *tmp = capture_begin(&saved);
    p.rc = cmdline_parse(&c, argc, argv);
    capture_end(tmp, saved);
    p.positional_count = c.positional_count;
    p.help = c.help;
    return p;
}

#define PARSE(...)                                                                                 \
    parse((int)(sizeof(char *[]){"prog", __VA_ARGS__} / sizeof(char *)),                           \
          (char *[]){"prog", __VA_ARGS__})

static void values(void)
{
    parsed p = PARSE("scene.json", "--steps", "12", "--name=a=b", "--quiet", "-", "--size", "1",
                     "--size=2");
    ENSURE_EQ(p.rc, CMDLINE_OK);
    ENSURE(p.steps && strcmp(p.steps, "12") == 0);
    ENSURE(p.name && strcmp(p.name, "a=b") == 0); /* the first '=' ends the name */
    ENSURE(p.quiet);
    ENSURE_EQ(p.sizes, 2);
    ENSURE_EQ(p.positional_count, 2);
    ENSURE(strcmp(p.positional[0], "scene.json") == 0 && strcmp(p.positional[1], "-") == 0);
    ENSURE(!p.help && said[0] == '\0');
    p = PARSE("--steps", "1", "--steps", "2"); /* the last one wins */
    ENSURE(p.rc == CMDLINE_OK && strcmp(p.steps, "2") == 0);
    p = PARSE("--steps", "--quiet"); /* a value may look like an option */
    ENSURE(p.rc == CMDLINE_OK && strcmp(p.steps, "--quiet") == 0 && !p.quiet);
}

int suite_values_flags_and_positionals(void)
{
    RUN_TEST(values);
    return test_finish();
}

static void unknown_option(void)
{
    parsed p = PARSE("--stpes", "3");
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "prog: unknown option '--stpes'"), "%s", said);
    p = PARSE("--steps=3", "--stpes=4"); /* the name without its value */
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "unknown option '--stpes' (try --help)"), "%s", said);
    p = PARSE("--step", "3"); /* no prefix matching */
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    p = PARSE("-x");
    ENSURE(p.rc == CMDLINE_USAGE && strstr(said, "unknown option '-x'"));
}

int suite_unknown_option(void)
{
    RUN_TEST(unknown_option);
    return test_finish();
}

static void missing_value(void)
{
    parsed p = PARSE("--steps");
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "prog: --steps needs a value (N)"), "%s", said);
    ENSURE(p.steps == NULL);
    p = PARSE("--name=");
    ENSURE(p.rc == CMDLINE_OK && p.name && p.name[0] == '\0'); /* empty, but given */
}

int suite_missing_value(void)
{
    RUN_TEST(missing_value);
    return test_finish();
}

static void flag_given_a_value(void)
{
    parsed p = PARSE("--quiet=yes");
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "prog: --quiet takes no value, got 'yes'"), "%s", said);
    ENSURE(!p.quiet);
}

int suite_flag_given_a_value(void)
{
    RUN_TEST(flag_given_a_value);
    return test_finish();
}

static bool ulong_of(const char *text, unsigned long min, unsigned long max, unsigned long *v)
{
    int saved = -1;
    FILE *tmp = capture_begin(&saved);
    bool ok = cmdline_ulong("prog", "--steps", text, min, max, v);
    capture_end(tmp, saved);
    return ok;
}

static void bad_number(void)
{
    unsigned long v = 7;
    ENSURE(ulong_of("12", 1, 100, &v) && v == 12 && said[0] == '\0');
    ENSURE(ulong_of("1", 1, 100, &v) && v == 1);
    ENSURE(ulong_of("100", 1, 100, &v) && v == 100);
    const char *const bad[] = {
        "abc", "12x", "", "-3", "0", "101", "1e3", " 5", "99999999999999999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        v = 7;
        ENSURE_MSG(!ulong_of(bad[k], 1, 100, &v), "'%s' was taken", bad[k]);
        ENSURE_EQ(v, 7); /* untouched */
        char want[128];
        snprintf(want, sizeof want, "prog: --steps needs a whole number in [1, 100], got '%s'",
                 bad[k]);
        ENSURE_MSG(strstr(said, want), "'%s': %s", bad[k], said);
    }
}

int suite_bad_number(void)
{
    RUN_TEST(bad_number);
    return test_finish();
}

static void bad_choice(void)
{
    static const char *const names[] = {"cpu", "opencl", "auto"};
    size_t k = 9;
    int saved = -1;
    FILE *tmp = capture_begin(&saved);
    bool ok = cmdline_choice("prog", "--backend", "opencl", names, 3, &k);
    capture_end(tmp, saved);
    ENSURE(ok && k == 1);
    tmp = capture_begin(&saved);
    ok = cmdline_choice("prog", "--backend", "cuda", names, 3, &k);
    capture_end(tmp, saved);
    ENSURE(!ok && k == 1);
    ENSURE_MSG(strstr(said, "prog: --backend must be cpu, opencl or auto, got 'cuda'"), "%s", said);
}

int suite_bad_choice(void)
{
    RUN_TEST(bad_choice);
    return test_finish();
}

static void apply_refuses(void)
{
    parsed p = PARSE("--size", "1", "--size", "bad", "--size", "3");
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_EQ(p.sizes, 1); /* stopped at the bad one */
    ENSURE_MSG(strstr(said, "prog: bad value 'bad' for --size"), "%s", said);
}

int suite_apply_refuses(void)
{
    RUN_TEST(apply_refuses);
    return test_finish();
}

static void too_many_positionals(void)
{
    parsed p = PARSE("a", "b", "c");
    ENSURE_EQ(p.rc, CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "prog: unexpected argument 'c'"), "%s", said);
}

int suite_too_many_positionals(void)
{
    RUN_TEST(too_many_positionals);
    return test_finish();
}

static void help_from_the_table(void)
{
    parsed p = PARSE("--steps", "3", "--help", "--bogus");
    ENSURE(p.rc == CMDLINE_OK && p.help); /* stops at --help: --bogus is not looked at */
    p = PARSE("-h");
    ENSURE(p.rc == CMDLINE_OK && p.help);
    const cmdline_option options[] = {
        CMDLINE_VALUE("--steps", "N", "steps to take", NULL),
        CMDLINE_VALUE("--name", "NAME", "a name\nover two lines", NULL),
        CMDLINE_FLAG("--quiet", "say nothing", NULL),
    };
    char text[1024] = "";
    FILE *f = tmpfile();
    ENSURE(f);
    cmdline_print_options(f, options, 3);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    printf("%s", text);
    const char *want = "  --steps N    steps to take\n"
                       "  --name NAME  a name\n"
                       "               over two lines\n"
                       "  --quiet      say nothing\n"
                       "  --help       this text\n";
    ENSURE_MSG(strcmp(text, want) == 0, "the help reads:\n%s", text);
}

int suite_help_from_the_table(void)
{
    RUN_TEST(help_from_the_table);
    return test_finish();
}

/* cmdline_number_only with the arguments after "prog", its exit status (-1: go on) and number. */
static int number_only(int argc, char **argv, unsigned long *n)
{
    int saved = -1;
    FILE *tmp = capture_begin(&saved);
    const int rc = cmdline_number_only("prog", argc, argv, "usage: prog [N]\n", "N", 4, 2048, n);
    capture_end(tmp, saved);
    return rc;
}

#define NUMBER_ONLY(n, ...)                                                                        \
    number_only((int)(sizeof(char *[]){"prog", __VA_ARGS__} / sizeof(char *)),                     \
                (char *[]){"prog", __VA_ARGS__}, (n))

static void number_only_program(void)
{
    unsigned long n = 512;
    char *none[] = {"prog"};
    ENSURE_EQ(number_only(1, none, &n), -1); /* no argument: the default */
    ENSURE_EQ(n, 512ul);
    ENSURE_EQ(NUMBER_ONLY(&n, "64"), -1);
    ENSURE_EQ(n, 64ul);
    ENSURE_EQ(NUMBER_ONLY(&n, "--help"), 0);
    ENSURE(said[0] == '\0' && n == 64ul); /* the help on stdout, nothing on stderr */
    ENSURE_EQ(NUMBER_ONLY(&n, "abc"), CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "prog: N needs a whole number in [4, 2048], got 'abc'") &&
                   strstr(said, "usage: prog [N]"),
               "%s", said);
    ENSURE_EQ(NUMBER_ONLY(&n, "3"), CMDLINE_USAGE);
    ENSURE_EQ(NUMBER_ONLY(&n, "4096"), CMDLINE_USAGE);
    ENSURE_EQ(NUMBER_ONLY(&n, "64", "65"), CMDLINE_USAGE);
    ENSURE_EQ(NUMBER_ONLY(&n, "--size", "64"), CMDLINE_USAGE);
    ENSURE_MSG(strstr(said, "unknown option '--size'"), "%s", said);
    ENSURE_EQ(n, 64ul); /* untouched by the refused ones */
}

int suite_number_only(void)
{
    RUN_TEST(number_only_program);
    return test_finish();
}
