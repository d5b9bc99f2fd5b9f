/* drape-bench's verdict on its own figures (bench_verdict.h). Timings taken while other processes
 * compete for the cores, or whose repetitions disagree, are reported but flagged, so that nobody
 * copies them into a table as if they held. */
#include "bench_verdict.h"

int bench_verdict(FILE *f, const bench_run *run)
{
    const bench_machine *m = &run->machine;
    const double cores = m->cores > 0 ? m->cores : 1;
    if (m->load_before[0] > BENCH_LOAD_BEFORE_WARN * cores || m->load_after[0] > cores)
        fprintf(f,
                "drape-bench: warning: the 1-minute load average was %.2f before the run and %.2f "
                "after it, on %d cores: other work competed for the cores, so the timings are "
                "unreliable (run it on an idle machine)\n",
                m->load_before[0], m->load_after[0], m->cores);
    int failed = 0, noisy = 0;
    const bench_result *worst = NULL;
    for (size_t i = 0; i < run->result_count; ++i) {
        const bench_result *r = &run->results[i];
        if (!r->ok) {
            failed += !r->skipped;
            continue;
        }
        if (r->wall_ms.spread > BENCH_SPREAD_WARN) {
            ++noisy;
            if (!worst || r->wall_ms.spread > worst->wall_ms.spread)
                worst = r;
        }
    }
    if (worst)
        fprintf(f,
                "drape-bench: warning: %d of %zu cases have a spread above %.0f%% between their "
                "repetitions (the worst: %s%s%s, size %u, %.0f%%); their figures are unreliable\n",
                noisy, run->result_count, 100.0 * BENCH_SPREAD_WARN, worst->backend,
                worst->def.device ? "#" : "", worst->def.device ? worst->def.device : "",
                worst->def.size, 100.0 * worst->wall_ms.spread);
    if (failed)
        fprintf(f, "drape-bench: %d of %zu cases failed (see the table)\n", failed,
                run->result_count);
    return failed;
}
