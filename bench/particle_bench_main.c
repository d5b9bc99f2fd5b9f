/* drape-bench-particles: the particle contacts' benchmark (particle_bench.c) as a command of its
 * own. */
#include "particle_bench.h"

int main(int argc, char **argv) { return particle_bench_main("drape-bench-particles", argc, argv); }
