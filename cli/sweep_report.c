/* What `drape sweep` says while it runs and when it ends. On a terminal, a bar with the cases done
 * and an ETA from this run's rate (cases done by an earlier run do not count in it); elsewhere (a
 * log, a batch job) a line every 10 s. At the end: the tally, the rate, the first failed cases with
 * their errors, where the index is, and the exit code that the state of the folder implies.
 */
#define _POSIX_C_SOURCE 200809L /* rmdir */
#include "sweep.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_sweep_progress_start(cli_sweep_progress *p, uint32_t total, uint32_t skipped)
{
    *p = (cli_sweep_progress){.total = total, .done = skipped, .skipped = skipped};
    cli_progress_resume(&p->bar, total, skipped, "case");
    p->start = p->last_line = cli_now();
    if (skipped)
        fprintf(stderr, "drape: sweep: %u of %u cases were done by an earlier run\n", skipped,
                total);
    cli_progress_update(&p->bar, p->done);
}

void cli_sweep_progress_case(cli_sweep_progress *p, cli_case_status status)
{
    if (status != CLI_CASE_OK && status != CLI_CASE_FAILED)
        return;
    p->done++;
    p->failed += status == CLI_CASE_FAILED;
    cli_progress_update(&p->bar, p->done);
    double now = cli_now();
    if (!p->bar.enabled && now - p->last_line >= 10.0) {
        p->last_line = now;
        uint32_t ran = p->done - p->skipped;
        double rate = ran / (now - p->start);
        fprintf(stderr, "drape: sweep: %u/%u cases (%u failed), %.1f cases/min, %.0f s left\n",
                p->done, p->total, p->failed, 60.0 * rate,
                rate > 0.0 ? (p->total - p->done) / rate : 0.0);
    }
}

/* Prints the failed cases' errors (the first few) from the index. */
static void print_failures(const cli_sweep_context *c)
{
    char path[4200];
    cli_pathf(path, sizeof path, "%s/index.jsonl", c->out);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[8192];
    int shown = 0;
    while (fgets(line, sizeof line, f) && shown < 5) {
        cJSON *o = cJSON_Parse(line);
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(o, "error");
        const cJSON *index = cJSON_GetObjectItemCaseSensitive(o, "case");
        if (cJSON_IsString(status) && !strcmp(status->valuestring, "failed") &&
            cJSON_IsString(error) && cJSON_IsNumber(index)) {
            printf("  case-%05d failed: %s\n", index->valueint, error->valuestring);
            shown++;
        }
        cJSON_Delete(o);
    }
    fclose(f);
}

int cli_sweep_finish(const cli_sweep_context *c, cli_sweep_progress *p, char *const *rows,
                     bool lost_cases)
{
    cli_progress_clear(&p->bar);
    /* The staging folder goes when it is empty; what a killed worker left in it stays for the
     * next run to remove. */
    char partial[4200];
    if (cli_pathf(partial, sizeof partial, "%s/.partial", c->out))
        rmdir(partial);
    cli_sweep_tally t;
    int rc = cli_sweep_write_index(c, rows, &t);
    if (rc != CLI_OK)
        return rc;
    double wall = cli_now() - p->start;
    uint32_t ran = p->done - p->skipped;
    printf("%u cases: %u ok, %u failed, %u not done; %u run now in %.1f s (%.1f cases/min)%s%s\n",
           t.ok + t.failed + t.pending, t.ok, t.failed, t.pending, ran, wall,
           wall > 0.0 ? 60.0 * ran / wall : 0.0, p->skipped ? ", " : "",
           p->skipped ? "the rest done before" : "");
    print_failures(c);
    printf("index: %s/index.jsonl\n", c->out);
    fflush(stdout);
    if (cli_interrupted()) {
        cli_error("sweep interrupted with %u cases not done; run the same command again to "
                  "finish it",
                  t.pending);
        return CLI_INTERRUPTED;
    }
    if (t.pending) {
        cli_error("%u cases are not done%s; run the same command again to finish them", t.pending,
                  lost_cases ? " (a worker died)" : "");
        return CLI_SWEEP_INCOMPLETE;
    }
    return t.failed ? CLI_SWEEP_FAILED_CASES : CLI_OK;
}
