/* drape-bench's output: a readable table on stdout, one CSV row and one JSON record per case. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include "bench_case.h"
#include "bench_machine.h"
#include "bench_options.h"
#include "bench_probe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct bench_run {
    const bench_options *options;
    bench_machine machine;
    bench_probe probes[BENCH_MAX_LIST];
    int probe_count;
    bench_result *results;
    size_t result_count;
} bench_run;

/* Prints one case as a table row (the header first when `header`). */
void bench_print_row(FILE *f, const bench_result *r, bool header);

/* The whole run: machine, probes and every case, as a table. */
void bench_print_table(FILE *f, const bench_run *run);

/* Writes the CSV / JSON file; false with a message on stderr when the file cannot be written. */
bool bench_write_csv(const char *path, const bench_run *run);
bool bench_write_json(const char *path, const bench_run *run);

#endif /* BENCH_REPORT_H */
