/* Device time per named phase of the step, from OpenCL profiling events (clpeak style: time with
 * events, not with host clocks, so that queueing and launch latency do not count as kernel time).
 *
 * The queue always has CL_QUEUE_PROFILING_ENABLE. A launch hands its event to the profiler under a
 * phase index (dr_cl_profile_phase("project") once, then the index at every launch); the events
 * wait in a pending list until dr_cl_profile_collect, which the world calls after a step or a
 * read-back, where the host waits for the queue anyway. Collecting reads
 * CL_PROFILING_COMMAND_START/END, adds end - start to the phase and releases the event. So that a
 * long run without collecting does not grow the list without bound, events that have already
 * completed are harvested without waiting whenever the list reaches DR_CL_HARVEST_AT entries;
 * nothing here ever blocks inside a step. A record may also span a run of commands, from a marker
 * to the last command's event, for library calls (CLBlast) that enqueue several kernels but return
 * the event of the last one only.
 */
#include "dr_cl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DR_CL_HARVEST_AT 4096

int dr_cl_profile_phase(dr_cl_context *ctx, const char *name)
{
    dr_cl_profile *p = &ctx->profile;
    for (uint32_t i = 0; i < p->phase_count; ++i)
        if (strcmp(p->phases[i].name, name) == 0)
            return (int)i;
    if (p->phase_count == DR_CL_MAX_PHASES) {
        dr_cl_logf(&ctx->logger, DRAPE_LOG_WARNING,
                   "profiling phase \"%s\" not recorded: all %d phases are in use", name,
                   DR_CL_MAX_PHASES);
        return -1;
    }
    dr_cl_phase *phase = &p->phases[p->phase_count];
    memset(phase, 0, sizeof *phase);
    snprintf(phase->name, sizeof phase->name, "%s", name);
    return (int)p->phase_count++;
}

/* Adds the device time of a completed record to its phase and releases its events. */
static drape_result dr_cl_profile_account(dr_cl_context *ctx, dr_cl_pending_event *record)
{
    cl_ulong start = 0, end = 0;
    cl_int code = clGetEventProfilingInfo(record->first ? record->first : record->last,
                                          CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (code == CL_SUCCESS)
        code =
            clGetEventProfilingInfo(record->last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (record->first)
        clReleaseEvent(record->first);
    clReleaseEvent(record->last);
    record->first = record->last = NULL;
    dr_cl_phase *phase = &ctx->profile.phases[record->phase];
    if (code != CL_SUCCESS)
        return dr_cl_failf(&ctx->logger, "clGetEventProfilingInfo", code, "phase %s", phase->name);
    if (end > start)
        phase->seconds += (double)(end - start) * 1e-9;
    phase->launches++;
    return DRAPE_OK;
}

/* Accounts the records that have completed, without waiting; keeps the others in order. */
static drape_result dr_cl_profile_harvest(dr_cl_context *ctx)
{
    dr_cl_profile *p = &ctx->profile;
    drape_result result = DRAPE_OK;
    size_t kept = 0;
    for (size_t i = 0; i < p->pending_count; ++i) {
        cl_int status = CL_QUEUED;
        cl_int code = clGetEventInfo(p->pending[i].last, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                     sizeof status, &status, NULL);
        if (code == CL_SUCCESS && status == CL_COMPLETE) {
            drape_result r = dr_cl_profile_account(ctx, &p->pending[i]);
            if (result == DRAPE_OK)
                result = r;
            continue;
        }
        p->pending[kept++] = p->pending[i];
    }
    p->pending_count = kept;
    return result;
}

static void dr_cl_release_pair(cl_event first, cl_event last)
{
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
}

drape_result dr_cl_profile_record_span(dr_cl_context *ctx, int phase, cl_event first, cl_event last)
{
    dr_cl_profile *p = &ctx->profile;
    if (!last || !p->enabled || phase < 0 || (uint32_t)phase >= p->phase_count) {
        dr_cl_release_pair(first, last);
        return DRAPE_OK;
    }
    if (p->pending_count >= DR_CL_HARVEST_AT) {
        drape_result r = dr_cl_profile_harvest(ctx);
        if (r != DRAPE_OK) {
            dr_cl_release_pair(first, last);
            return r;
        }
    }
    if (p->pending_count == p->pending_capacity) {
        size_t capacity = p->pending_capacity ? 2 * p->pending_capacity : 256;
        dr_cl_pending_event *grown = realloc(p->pending, capacity * sizeof *grown);
        if (!grown) {
            dr_cl_release_pair(first, last);
            dr_cl_logf(&ctx->logger, DRAPE_LOG_ERROR,
                       "out of host memory recording a profile event");
            return DRAPE_ERROR_OUT_OF_MEMORY;
        }
        p->pending = grown;
        p->pending_capacity = capacity;
    }
    p->pending[p->pending_count++] = (dr_cl_pending_event){first, last, (uint32_t)phase};
    return DRAPE_OK;
}

drape_result dr_cl_profile_record(dr_cl_context *ctx, int phase, cl_event event)
{
    return dr_cl_profile_record_span(ctx, phase, NULL, event);
}

drape_result dr_cl_profile_collect(dr_cl_context *ctx)
{
    dr_cl_profile *p = &ctx->profile;
    drape_result result = DRAPE_OK;
    /* The queue is in order: once the last record has completed, so have all before it. */
    if (p->pending_count) {
        cl_int code = clWaitForEvents(1, &p->pending[p->pending_count - 1].last);
        if (code != CL_SUCCESS)
            result = dr_cl_fail(&ctx->logger, "clWaitForEvents", code);
    }
    for (size_t i = 0; i < p->pending_count; ++i) {
        if (result == DRAPE_OK)
            result = dr_cl_profile_account(ctx, &p->pending[i]);
        else
            dr_cl_release_pair(p->pending[i].first, p->pending[i].last);
    }
    p->pending_count = 0;
    return result;
}

void dr_cl_profile_reset(dr_cl_context *ctx)
{
    dr_cl_profile *p = &ctx->profile;
    for (size_t i = 0; i < p->pending_count; ++i)
        dr_cl_release_pair(p->pending[i].first, p->pending[i].last);
    p->pending_count = 0;
    for (uint32_t i = 0; i < p->phase_count; ++i) {
        p->phases[i].seconds = 0.0;
        p->phases[i].launches = 0;
    }
}

const dr_cl_phase *dr_cl_profile_find(const dr_cl_context *ctx, const char *name)
{
    for (uint32_t i = 0; i < ctx->profile.phase_count; ++i)
        if (strcmp(ctx->profile.phases[i].name, name) == 0)
            return &ctx->profile.phases[i];
    return NULL;
}

drape_result dr_cl_profile_record_kernel(dr_cl_context *ctx, cl_kernel kernel, cl_event event)
{
    char name[64] = "kernel ";
    const size_t used = strlen(name);
    DR_CL_CHECK(&ctx->logger, clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - used,
                                              name + used, NULL));
    name[sizeof ctx->profile.phases[0].name - 1] = '\0';
    int phase = dr_cl_profile_phase(ctx, name);
    if (phase < 0)
        return DRAPE_OK;
    DR_CL_CHECK(&ctx->logger, clRetainEvent(event));
    return dr_cl_profile_record(ctx, phase, event);
}

void dr_cl_profile_print_kernels(dr_cl_context *ctx, FILE *to)
{
    if (dr_cl_profile_collect(ctx) != DRAPE_OK)
        return;
    fprintf(to, "drape: device time per kernel on %s (DRAPE_PROFILE_KERNELS)\n", ctx->device.name);
    fprintf(to, "%-32s %10s %12s %10s\n", "kernel", "launches", "total ms", "us each");
    for (uint32_t i = 0; i < ctx->profile.phase_count; ++i) {
        const dr_cl_phase *ph = &ctx->profile.phases[i];
        if (strncmp(ph->name, "kernel ", 7) != 0 || ph->launches == 0)
            continue;
        fprintf(to, "%-32s %10llu %12.3f %10.2f\n", ph->name + 7, (unsigned long long)ph->launches,
                1e3 * ph->seconds, 1e6 * ph->seconds / (double)ph->launches);
    }
}
