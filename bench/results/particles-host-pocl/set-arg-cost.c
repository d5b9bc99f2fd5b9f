/* What one clSetKernelArg costs the host on the first OpenCL device: a million rounds of three
 * calls (a buffer, a float, an integer) on a small kernel, timed with the monotonic clock.
 *
 *   gcc -O2 set-arg-cost.c -o set-arg-cost -lOpenCL && ./set-arg-cost
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cl_int code_ = (call);                                                                     \
        if (code_ != CL_SUCCESS) {                                                                 \
            fprintf(stderr, "%s failed: %d\n", #call, code_);                                      \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int code;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &code);
    CHECK(code);
    const char *src = "__kernel void k(__global float4 *a, __global float4 *b, float c, uint d,"
                      " uint e) { if (get_global_id(0) < e) a[0] = b[0] * c + (float)d; }";
    cl_program program = clCreateProgramWithSource(ctx, 1, &src, NULL, &code);
    CHECK(code);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "k", &code);
    CHECK(code);
    cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &code);
    CHECK(code);
    const float c = 1.0f;
    const int rounds = 1000000;
    double t = now();
    for (int i = 0; i < rounds; ++i) {
        const cl_uint u = (cl_uint)i;
        CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
        CHECK(clSetKernelArg(kernel, 2, sizeof c, &c));
        CHECK(clSetKernelArg(kernel, 3, sizeof u, &u));
    }
    t = now() - t;
    printf("%.3f us per clSetKernelArg\n", t / (3.0 * rounds) * 1e6);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseContext(ctx);
    return 0;
}
