/* What a run's figures are worth, said on stderr after the table: a warning when the machine was
 * busy (the load average) or a case's repetitions disagree (the spread), and the count of cases
 * that failed, which makes drape-bench exit non-zero. */
#ifndef BENCH_VERDICT_H
#define BENCH_VERDICT_H

#include "bench_report.h"

/* A case's figures are unreliable when its spread, (max - min) / median of the repetitions, is
 * above this. */
#define BENCH_SPREAD_WARN 0.10
/* The machine was busy when the 1-minute load average before the run was above this share of the
 * cores, or after it above the cores themselves (more than the benchmark alone makes). */
#define BENCH_LOAD_BEFORE_WARN 0.5

/* Prints the warnings and the failures to f; returns the number of cases that failed (skipped ones,
 * too large for the memory, are not failures). */
int bench_verdict(FILE *f, const bench_run *run);

#endif /* BENCH_VERDICT_H */
