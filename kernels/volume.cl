/* Tetrahedral volume constraints, one launch per colour like the other constraint kernels
 * (kernels/project.cl): a work-item per tetrahedron, the maths dr_solve_volume of drape_shared.h;
 * rest holds 6 V0 (m^3). */
#include "drape_shared.h"

__kernel void solve_volume(DR_CONSTRAINT_ARGS(float, rest))
{
    DR_CONSTRAINT_BEGIN(c, m);
    uint4 q = vload4(c, idx);
    dr_solve_volume(x, d, q.x, q.y, q.z, q.w, rest[c], m.kprime, m.compliance, inv_h2, &lambda[c]);
}
