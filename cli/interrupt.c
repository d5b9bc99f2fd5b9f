/* Ctrl-C during a run: SIGINT (and SIGTERM) only raise a flag, which the run loop reads between
 * steps, so that a run stops after the step and the output it is writing are complete, says where
 * it stopped and exits with 130 (128 + SIGINT), as a shell expects. Outputs are written atomically
 * anyway (drape_output_open); the flag also keeps temporary files from being left behind. A second
 * signal while the first is pending restores the default action, so that a stuck run can still be
 * killed.
 *
 * A signal handler can only reach static storage: this flag is the command's one piece of global
 * state, and the library has none.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "cli.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    if (interrupted)
        signal(sig, SIG_DFL);
    interrupted = sig;
}

void cli_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_interrupted(void) { return (int)interrupted; }
