/* A main for the fuzz targets when libFuzzer is not there (gcc builds): runs the target once on
 * every file named on the command line or found in a directory named there, so that the committed
 * corpus is a regression test in every build. */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs the target on one file; false when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf)
        return 0;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            files += run_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
                files += run_file(path);
        }
        if (d)
            closedir(d);
    }
    printf("%d input(s) replayed, no crash\n", files);
    return files > 0 ? 0 : 1;
}
