/* viz.gl_vendor: the check before OpenCL is asked to share an OpenGL context (viz/gl_vendor.c):
 * the same driver family on both sides matches, any other pair does not (and says which is which),
 * Mesa's renderer wins over the hardware maker in GL_VENDOR. And drape_choose_device names the
 * device a world would take: the one drape_list_devices lists at that index. */
#include "gl_vendor.h"

#include "check.h"

#include <stdio.h>
#include <string.h>

static bool match(const char *gl_vendor, const char *gl_renderer, const char *cl_vendor,
                  const char *cl_platform)
{
    drape_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.vendor, sizeof d.vendor, "%s", cl_vendor);
    snprintf(d.platform, sizeof d.platform, "%s", cl_platform);
    char why[200];
    const bool m = viz_gl_vendor_matches(gl_vendor, gl_renderer, &d, why, sizeof why);
    printf("%-22s / %-28s: %s (%s)\n", gl_vendor, cl_vendor, m ? "share" : "no sharing", why);
    return m;
}

static void quiet(drape_log_level level, const char *message, void *user)
{
    (void)level, (void)user;
    printf("  (log) %s\n", message);
}

int main(void)
{
    CHECK(match("NVIDIA Corporation", "NVIDIA H100 80GB HBM3/PCIe/SSE2", "NVIDIA Corporation",
                "NVIDIA CUDA"));
    CHECK(match("ATI Technologies Inc.", "AMD Radeon PRO W7900", "Advanced Micro Devices, Inc.",
                "AMD Accelerated Parallel Processing"));
    CHECK(match("Intel", "Mesa Intel(R) UHD Graphics 630 (CFL GT2)", "Mesa/X.org", "rusticl"));
    CHECK(match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "Mesa", "Clover"));
    CHECK(!match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "The pocl project",
                 "Portable Computing Language"));
    CHECK(!match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA Corporation", "NVIDIA CUDA"));
    CHECK(!match("NVIDIA Corporation", "NVIDIA GeForce RTX 4090/PCIe/SSE2", "Intel(R) Corporation",
                 "Intel(R) OpenCL Graphics"));
    CHECK(!match("Intel", "Mesa Intel(R) UHD Graphics 630", "Intel(R) Corporation",
                 "Intel(R) OpenCL Graphics")); /* Mesa's GL, Intel's own OpenCL: two drivers */
    CHECK(!match("", "", "NVIDIA Corporation", "NVIDIA CUDA"));

    uint32_t count = 0;
    if (drape_list_devices(NULL, 0, &count, quiet, NULL) == DRAPE_OK && count > 0) {
        drape_device_info chosen, listed[16];
        CHECK(drape_choose_device("0", &chosen, quiet, NULL) == DRAPE_OK);
        CHECK(drape_list_devices(listed, 16, &count, quiet, NULL) == DRAPE_OK);
        CHECK(chosen.index == 0 && !strcmp(chosen.name, listed[0].name) &&
              !strcmp(chosen.vendor, listed[0].vendor) && chosen.vendor[0]);
        printf("device 0: %s, %s (%s)\n", chosen.name, chosen.platform, chosen.vendor);
        CHECK(drape_choose_device("no-such-device-xyz", &chosen, quiet, NULL) ==
              DRAPE_ERROR_INVALID_ARGUMENT);
    } else {
        printf("no OpenCL device: drape_choose_device is not checked\n");
    }
    return check_finish("gl_vendor");
}
