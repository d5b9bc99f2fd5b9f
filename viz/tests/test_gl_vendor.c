/* viz.gl_vendor: the check before OpenCL is asked to share an OpenGL context (viz/gl_vendor.c):
 * the same driver family on both sides matches, any other pair does not (and says which is which),
 * Mesa's renderer wins over the hardware maker in GL_VENDOR. And drape_choose_device names the
 * device a world would take: the one drape_list_devices lists at that index. */
#include "gl_vendor.h"

#include "drape_test.h"
#include "test_list.h"

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

int suite_gl_vendor(void)
{
    EXPECT(match("NVIDIA Corporation", "NVIDIA H100 80GB HBM3/PCIe/SSE2", "NVIDIA Corporation",
                 "NVIDIA CUDA"));
    EXPECT(match("ATI Technologies Inc.", "AMD Radeon PRO W7900", "Advanced Micro Devices, Inc.",
                 "AMD Accelerated Parallel Processing"));
    EXPECT(match("Intel", "Mesa Intel(R) UHD Graphics 630 (CFL GT2)", "Mesa/X.org", "rusticl"));
    EXPECT(match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "Mesa", "Clover"));
    EXPECT(!match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "The pocl project",
                  "Portable Computing Language"));
    EXPECT(!match("Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA Corporation", "NVIDIA CUDA"));
    EXPECT(!match("NVIDIA Corporation", "NVIDIA GeForce RTX 4090/PCIe/SSE2", "Intel(R) Corporation",
                  "Intel(R) OpenCL Graphics"));
    EXPECT(!match("Intel", "Mesa Intel(R) UHD Graphics 630", "Intel(R) Corporation",
                  "Intel(R) OpenCL Graphics")); /* Mesa's GL, Intel's own OpenCL: two drivers */
    EXPECT(!match("", "", "NVIDIA Corporation", "NVIDIA CUDA"));

    uint32_t count = 0;
    if (drape_list_devices(NULL, 0, &count, quiet, NULL) == DRAPE_OK && count > 0) {
        drape_device_info chosen, listed[16];
        EXPECT(drape_choose_device("0", &chosen, quiet, NULL) == DRAPE_OK);
        EXPECT(drape_list_devices(listed, 16, &count, quiet, NULL) == DRAPE_OK);
        EXPECT(chosen.index == 0 && !strcmp(chosen.name, listed[0].name) &&
               !strcmp(chosen.vendor, listed[0].vendor) && chosen.vendor[0]);
        printf("device 0: %s, %s (%s)\n", chosen.name, chosen.platform, chosen.vendor);
        EXPECT(drape_choose_device("no-such-device-xyz", &chosen, quiet, NULL) ==
               DRAPE_ERROR_INVALID_ARGUMENT);
    } else {
        printf("no OpenCL device: drape_choose_device is not checked\n");
    }
    return test_finish();
}
