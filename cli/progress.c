/* A progress bar on stderr for long runs, drawn only when stderr is a terminal (isatty), so that
 * logs and pipes never see it. It redraws at most ten times a second on one line (\r) and is erased
 * before other output and at the end.
 */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "cli.h"

#include <unistd.h>

void cli_progress_resume(cli_progress *p, uint64_t total, uint64_t before, const char *unit)
{
    p->enabled = isatty(fileno(stderr)) && total > 0;
    p->total = total;
    p->before = before;
    p->unit = unit;
    p->start = cli_now();
    p->last_draw = 0.0;
    p->drawn = false;
}

void cli_progress_start(cli_progress *p, uint64_t total)
{
    cli_progress_resume(p, total, 0, "step");
}

void cli_progress_update(cli_progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    double now = cli_now();
    if (now - p->last_draw < 0.1 && done < p->total)
        return;
    p->last_draw = now;
    enum { WIDTH = 30 };
    int filled = (int)(WIDTH * done / p->total);
    char bar[WIDTH + 1];
    for (int i = 0; i < WIDTH; ++i)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    double elapsed = now - p->start;
    uint64_t now_done = done > p->before ? done - p->before : 0;
    double eta = now_done ? elapsed * (double)(p->total - done) / (double)now_done : 0.0;
    fprintf(stderr, "\r[%s] %3d%%  %s %llu/%llu  %.1f s left ", bar, (int)(100 * done / p->total),
            p->unit, (unsigned long long)done, (unsigned long long)p->total, eta);
    fflush(stderr);
    p->drawn = true;
}

void cli_progress_clear(cli_progress *p)
{
    if (!p->enabled || !p->drawn)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->drawn = false;
}
