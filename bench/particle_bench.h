/* The particle contacts' benchmark (particle_bench.c), behind drape-bench-particles and
 * drape-bench --scene balls. */
#ifndef PARTICLE_BENCH_H
#define PARTICLE_BENCH_H

/* Parses argv (argv[0] is skipped) as drape-bench-particles' options, runs the cases and prints the
 * table; program names the command in messages and the usage. Returns the exit status: 0, 1 when
 * a case failed (an OpenCL device that is not there), none ran or the JSON cannot be written, 2 on
 * a bad command line. */
int particle_bench_main(const char *program, int argc, char **argv);

#endif /* PARTICLE_BENCH_H */
