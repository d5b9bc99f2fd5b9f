/* The scenes of the race check (tests/race_check.sh), run under Oclgrind's simulator with its
 * data-race and out-of-bounds checks: tiny worlds with every constraint kind (distance PBD and
 * XPBD, dihedral, attachments, two of them on one pinned particle, the pinned cloth's tethers and
 * tethers that share a movable anchor, a soft box's tetrahedral volumes, Neo-Hookean tetrahedra),
 * damping, every collider kind, both solver modes, the diagnostics and the vertex normals, stepped
 * with every distance-kernel variant; the particle contacts with and without restitution between
 * particles (its rounds, dr_particle_bounce, by variant in turn) and the contact passes. Oclgrind
 * reports what it finds in its log; this program only has to run every kernel.
 *
 *   race_scenes             the solver's scenes; exit 0 when every step succeeded
 *   race_scenes planted F   launches the racy kernel of the .cl file F
 * (tests/kernels/planted_race.cl) with plain OpenCL calls, so that the script can check that the
 * race is reported, then steps one world in another context
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <drape/drape.h>

#include <stdio.h>
#include <stdlib.h> /* _Exit */
#include <string.h>

static int fail(const char *what, int code)
{
    fprintf(stderr, "race_scenes: %s failed (%d)\n", what, code);
    return 1;
}

static int planted(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(path, 0);
    static char source[4096];
    size_t len = fread(source, 1, sizeof source - 1, f);
    fclose(f);
    source[len] = '\0';
    cl_platform_id platform;
    cl_device_id device;
    cl_int code = clGetPlatformIDs(1, &platform, NULL);
    if (code != CL_SUCCESS)
        return fail("clGetPlatformIDs", code);
    if ((code = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL)) != CL_SUCCESS)
        return fail("clGetDeviceIDs", code);
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &code);
    if (code != CL_SUCCESS)
        return fail("clCreateContext", code);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &code);
    const char *sources[] = {source};
    cl_program program = clCreateProgramWithSource(context, 1, sources, NULL, &code);
    if (code == CL_SUCCESS)
        code = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (code != CL_SUCCESS)
        return fail("clBuildProgram", code);
    cl_kernel kernel = clCreateKernel(program, "planted_race", &code);
    cl_uint zero = 0, out = 0;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                                &zero, &code);
    if (code != CL_SUCCESS)
        return fail("clCreateBuffer", code);
    size_t global = 128, local = 64;
    code = clSetKernelArg(kernel, 0, sizeof buf, &buf);
    if (code == CL_SUCCESS)
        code = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    if (code == CL_SUCCESS)
        code = clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL);
    if (code != CL_SUCCESS)
        return fail("the planted kernel", code);
    clReleaseMemObject(buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}

/* contacts: the cloth and the rope collide with each other (particle contacts); without them the
 * fused kernel runs, one work-group for the cloth and one for the rope and the box. */
static drape_result build(drape_world *w, bool contacts)
{
    drape_cloth_def c = drape_default_cloth_def();
    c.nx = 12, c.ny = 10; /* colours of more than sixteen constraints: the lanes run */
    if (!contacts)
        c.radius = 0.0f;
    c.pins = DRAPE_PIN_ROW_FIRST;
    c.bending = DRAPE_BENDING_DIHEDRAL;
    c.stretch = drape_stiffness_xpbd(1e-6f);
    drape_build_info info;
    drape_result r = drape_world_add_cloth(w, &c, &info);
    drape_rope_def rope = drape_default_rope_def();
    rope.count = 40;
    rope.bending = true;
    if (!contacts)
        rope.radius = 0.0f;
    drape_build_info rope_info;
    if (r == DRAPE_OK)
        r = drape_world_add_rope(w, &rope, &rope_info);
    /* tethers from half the rope to one movable particle of it, which none of them writes: one
     * colour reads it in every work-item */
    const uint32_t rope_anchor = rope_info.first_particle + 10;
    if (r == DRAPE_OK)
        r = drape_world_add_nearest_tethers(w, rope_info.first_particle + 20, 20, &rope_anchor, 1,
                                            drape_stiffness_pbd(1.0f));
    /* two attachments on one pinned particle (one colour may hold both), one on a movable one */
    uint32_t on[3] = {info.first_particle, info.first_particle, info.first_particle + 60};
    for (int i = 0; i < 3 && r == DRAPE_OK; ++i) {
        drape_attachment_def a = drape_default_attachment_def();
        a.particle = on[i];
        a.target = (drape_vec3){0.1f * (float)i, 1.0f, 0.0f};
        if (i == 2)
            a.compliance = 1e-4f, a.model = DRAPE_STIFFNESS_XPBD;
        r = drape_world_add_attachment(w, &a, NULL);
    }
    drape_soft_box_def box = drape_default_soft_box_def(); /* volumes (XPBD) */
    box.nx = box.ny = box.nz = 3;
    box.origin = (drape_vec3){0.6f, 1.0f, 0.0f};
    box.size = (drape_vec3){0.2f, 0.2f, 0.2f};
    if (r == DRAPE_OK)
        r = drape_world_add_soft_box(w, &box, NULL);
    box.nx = box.ny = box.nz = 2; /* Neo-Hookean tetrahedra (ten multipliers each) */
    box.origin = (drape_vec3){-0.8f, 1.0f, 0.0f};
    box.youngs_modulus = 2e4f;
    if (r == DRAPE_OK)
        r = drape_world_add_soft_box(w, &box, NULL);
    drape_collider_def col = drape_default_collider_def(); /* plane */
    col.position = (drape_vec3){0.0f, 0.5f, 0.0f};
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &col, NULL);
    col.type = DRAPE_COLLIDER_SPHERE;
    col.position = (drape_vec3){0.0f, 0.9f, 0.0f};
    col.radius = 0.2f;
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &col, NULL);
    col.type = DRAPE_COLLIDER_CAPSULE;
    col.position = (drape_vec3){-0.5f, 0.8f, 0.3f};
    col.end = (drape_vec3){0.5f, 0.8f, 0.3f};
    col.velocity = (drape_vec3){0.0f, 0.0f, -0.5f};
    col.radius = 0.1f;
    if (r == DRAPE_OK)
        r = drape_world_add_collider(w, &col, NULL);
    uint32_t tri[6] = {0, 1, 12, 1, 13, 12};
    if (r == DRAPE_OK)
        r = drape_world_set_triangles(w, tri, 2);
    return r;
}

/* The steps the scenes take: BLEND_DT, where the cloth's links are projected along the blend of
 * the two gradients; PBD_DT, where they sag more than 4% a substep and the sixteen-lane kernel
 * takes its path for PBD links (dr_x16_block). */
#define BLEND_DT (1.0f / 240.0f)
#define PBD_DT (1.0f / 30.0f)

static int scene(drape_distance_kernel kernel, drape_solver_mode mode, drape_integrator integrator,
                 float dt)
{
    drape_world_def def = drape_default_world_def();
    def.backend.type = DRAPE_BACKEND_OPENCL;
    def.distance_kernel = kernel;
    def.mode = mode;
    def.integrator = integrator;
    def.substeps = 1;
    def.iterations = 2;
    def.damping = 0.05f;
    def.dt = dt;
    def.particle_restitution = kernel % 2 ? 0.5f : 0.0f;
    drape_world *w = NULL;
    drape_result r = drape_world_create(&def, &w);
    if (r == DRAPE_OK)
        r = build(w, kernel != DRAPE_DISTANCE_KERNEL_FUSED);
    for (int i = 0; i < 2 && r == DRAPE_OK; ++i)
        r = drape_world_step(w);
    drape_diagnostics diag;
    if (r == DRAPE_OK)
        r = drape_world_get_diagnostics(w, &diag);
    static float positions[4 * 200], normals[4 * 200];
    if (r == DRAPE_OK && drape_world_particle_count(w) <= 200)
        r = drape_world_get_render_data(w, 0, drape_world_particle_count(w), positions, normals);
    const drape_distance_kernel ran = w ? drape_world_distance_kernel(w) : kernel;
    drape_world_destroy(w);
    printf("race_scenes: %s kernel, %s, restitution %g, dt %g s: %s\n",
           drape_distance_kernel_name(ran),
           mode == DRAPE_MODE_PBD                           ? "PBD"
           : integrator == DRAPE_INTEGRATOR_VELOCITY_VERLET ? "mass-spring Verlet"
                                                            : "mass-spring Euler",
           (double)def.particle_restitution, (double)dt, drape_result_string(r));
    return r == DRAPE_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "planted")) {
        /* then a world in a context of its own, so that the script's check of the report also
         * shows that a report survives the contexts after it (Oclgrind's --log FILE starts the file
         * again for each one) */
        int failed = planted(argv[2]);
        setvbuf(stdout, NULL, _IONBF, 0);
        failed += scene(DRAPE_DISTANCE_KERNEL_PER_CONSTRAINT, DRAPE_MODE_PBD,
                        DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, BLEND_DT);
        _Exit(failed ? 1 : 0); /* as below */
    }
    if (argc != 1) {
        fprintf(stderr, "usage: race_scenes [planted FILE.cl]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    int failed = 0;
    for (int k = 1; k < DRAPE_DISTANCE_KERNEL_COUNT; ++k)
        failed += scene((drape_distance_kernel)k, DRAPE_MODE_PBD,
                        DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, BLEND_DT);
    failed += scene(DRAPE_DISTANCE_KERNEL_LANES16, DRAPE_MODE_PBD,
                    DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, PBD_DT);
    failed += scene(DRAPE_DISTANCE_KERNEL_AUTO, DRAPE_MODE_MASS_SPRING,
                    DRAPE_INTEGRATOR_VELOCITY_VERLET, BLEND_DT);
    failed += scene(DRAPE_DISTANCE_KERNEL_AUTO, DRAPE_MODE_MASS_SPRING,
                    DRAPE_INTEGRATOR_SEMI_IMPLICIT_EULER, BLEND_DT);
    /* Debian's Oclgrind 21.10 corrupts its heap while tearing down at exit once CLBlast has run
     * (every world here released everything): leave without running the exit handlers. */
    _Exit(failed ? 1 : 0);
}
