// twin_bench.cpp - Bullet 2.82-era (bullet3 @ 9e9b172b) OpenCL cloth solver throughput on PoCL.
//
// Usage: ./twin_bench [--simd] [--readback] [--res N] [--iters K] [--warmup W] [--steps S] [--reps R]
//                     [--minsec T] [--bullet-bending | --drape-links]
//   --simd       use btOpenCLSoftBodySolverSIMDAware instead of btOpenCLSoftBodySolver
//   --readback   additionally copy positions+normals back to the host every step
//                (btSoftBodySolverOutputCLtoCPU::copySoftBodyToVertexBuffer, blocking read)
//   default sync: clFinish(queue) after every stepSimulation (device work complete, no readback)
//   --bullet-bending  call Bullet's own psb->generateBendingConstraints(2) (needs n*n memory:
//                only works for small --res; overflows int for 256x256, see README)
//   --drape-links  drape's link set instead of Bullet's bending links: structural, both diagonals
//                of every quad, skip-one along rows and columns (390658 links at 256)
#include <CL/cl.h>
#include <set>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <unistd.h>
#include <string>
#include <vector>

#include "btBulletDynamicsCommon.h"
#include "BulletSoftBody/btSoftRigidDynamicsWorld.h"
#include "BulletSoftBody/btSoftBodyHelpers.h"
#include "BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h"
#include "BulletSoftBody/btSoftBodySolverVertexBuffer.h"
#include "BulletMultiThreaded/GpuSoftBodySolvers/OpenCL/btSoftBodySolver_OpenCL.h"
#include "BulletMultiThreaded/GpuSoftBodySolvers/OpenCL/btSoftBodySolver_OpenCLSIMDAware.h"

// Only to read batching statistics of the SIMD-aware solver (m_linkData is protected there).
struct SimdPeek : public btOpenCLSoftBodySolverSIMDAware {
  SimdPeek(cl_command_queue q, cl_context c) : btOpenCLSoftBodySolverSIMDAware(q, c) {}
  void stats() {
    long slots = 0;
    for (int w = 0; w < m_linkData.getNumWavefronts(); ++w)
      slots += (long)m_linkData.getNumBatchesAndVerticesWithinWavefront(w).numBatches * m_linkData.getWavefrontSize();
    printf("SIMD batching: wavefronts=%d, wavefront batches (kernel launches) per iteration=%d, "
           "max batches within wave=%d, link slots processed per iteration (incl. padding)=%ld\n",
           m_linkData.getNumWavefronts(), m_linkData.m_wavefrontBatchStartLengths.size(),
           m_linkData.getMaxBatchesPerWavefront(), slots);
  }
};

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#define CLCHECK(x)                                                           \
  do {                                                                       \
    cl_int e_ = (x);                                                         \
    if (e_ != CL_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #x, e_); exit(1); } \
  } while (0)

// Same link set and append order as btSoftBody::generateBendingConstraints(2):
// for j ascending, for i>j ascending with graph distance(i,j)==2: appendLink(i,j,mat), m_bbending=1.
// Bullet's own version allocates an n*n 'unsigned' adjacency matrix (n*n computed in int),
// which for n=65536 nodes overflows int and would need 16 GiB anyway.
static int generateBending2Sparse(btSoftBody* psb) {
  const int n = psb->m_nodes.size();
  std::vector<std::vector<int> > adj(n);
  for (int l = 0; l < psb->m_links.size(); ++l) {
    int a = int(psb->m_links[l].m_n[0] - &psb->m_nodes[0]);
    int b = int(psb->m_links[l].m_n[1] - &psb->m_nodes[0]);
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  for (int i = 0; i < n; ++i) {
    std::sort(adj[i].begin(), adj[i].end());
    adj[i].erase(std::unique(adj[i].begin(), adj[i].end()), adj[i].end());
  }
  int nlinks = 0;
  std::vector<int> cand;
  for (int j = 0; j < n; ++j) {
    cand.clear();
    for (size_t a = 0; a < adj[j].size(); ++a) {
      int k = adj[j][a];
      for (size_t b = 0; b < adj[k].size(); ++b) {
        int i = adj[k][b];
        if (i > j && !std::binary_search(adj[j].begin(), adj[j].end(), i)) cand.push_back(i);
      }
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    for (size_t c = 0; c < cand.size(); ++c) {
      psb->appendLink(cand[c], j, 0);
      psb->m_links[psb->m_links.size() - 1].m_bbending = 1;
      ++nlinks;
    }
  }
  return nlinks;
}

// drape's link set on an res x res grid: the structural links (CreatePatch), both diagonals of every
// quad (shear), and skip-one links along rows and columns (bending): 3 res^2 - ... = 390658 at 256.
static int drapeLinks(btSoftBody* psb, int res) {
  std::set<std::pair<int,int> > have;
  for (int l = 0; l < psb->m_links.size(); ++l) {
    int a = int(psb->m_links[l].m_n[0] - &psb->m_nodes[0]);
    int b = int(psb->m_links[l].m_n[1] - &psb->m_nodes[0]);
    have.insert(std::make_pair(std::min(a,b), std::max(a,b)));
  }
  int added = 0;
  auto add = [&](int a, int b, bool bend) {
    std::pair<int,int> k(std::min(a,b), std::max(a,b));
    if (have.count(k)) return;
    have.insert(k);
    psb->appendLink(a, b, 0);
    psb->m_links[psb->m_links.size() - 1].m_bbending = bend;
    ++added;
  };
  for (int iy = 0; iy < res; ++iy)
    for (int ix = 0; ix < res; ++ix) {
      int i = iy * res + ix;
      if (ix + 1 < res && iy + 1 < res) { add(i, i + res + 1, false); add(i + 1, i + res, false); }
    }
  for (int iy = 0; iy < res; ++iy)
    for (int ix = 0; ix < res; ++ix) {
      int i = iy * res + ix;
      if (ix + 2 < res) add(i, i + 2, true);
      if (iy + 2 < res) add(i, i + 2 * res, true);
    }
  return added;
}

int main(int argc, char** argv) {
  bool simd = false, readback = false, bulletBending = false, drapeSet = false;
  int res = 256, iters = 5, warmup = 30, steps = 50, reps = 5;
  double minsec = 2.0;
  for (int a = 1; a < argc; ++a) {
    std::string s = argv[a];
    if (s == "--simd") simd = true;
    else if (s == "--readback") readback = true;
    else if (s == "--bullet-bending") bulletBending = true;
    else if (s == "--drape-links") drapeSet = true;
    else if (s == "--res" && a + 1 < argc) res = atoi(argv[++a]);
    else if (s == "--iters" && a + 1 < argc) iters = atoi(argv[++a]);
    else if (s == "--warmup" && a + 1 < argc) warmup = atoi(argv[++a]);
    else if (s == "--steps" && a + 1 < argc) steps = atoi(argv[++a]);
    else if (s == "--reps" && a + 1 < argc) reps = atoi(argv[++a]);
    else if (s == "--minsec" && a + 1 < argc) minsec = atof(argv[++a]);
    else { fprintf(stderr, "unknown arg %s\n", s.c_str()); return 2; }
  }

  // ---- OpenCL: first platform, first device ----
  cl_platform_id plat; cl_uint np = 0;
  CLCHECK(clGetPlatformIDs(1, &plat, &np));
  cl_device_id dev; cl_uint nd = 0;
  CLCHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &nd));
  char pname[256] = {0}, dname[256] = {0}, pver[256] = {0};
  clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, 0);
  clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof pver, pver, 0);
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, 0);
  cl_uint cus = 0; clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, 0);
  const char* thr = getenv("POCL_MAX_PTHREAD_COUNT");
  printf("platform: %s (%s)\ndevice: %s, compute units: %u, POCL_MAX_PTHREAD_COUNT=%s\n", pname, pver, dname,
         cus, thr ? thr : "(unset)");
  cl_int err;
  cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &err); CLCHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CLCHECK(err);

  // ---- Bullet world ----
  btOpenCLSoftBodySolver* solver = simd ? new SimdPeek(q, ctx)
                                        : new btOpenCLSoftBodySolver(q, ctx);
  btSoftBodyRigidBodyCollisionConfiguration* cc = new btSoftBodyRigidBodyCollisionConfiguration();
  btCollisionDispatcher* disp = new btCollisionDispatcher(cc);
  btDbvtBroadphase* bp = new btDbvtBroadphase();
  btSequentialImpulseConstraintSolver* cs = new btSequentialImpulseConstraintSolver();
  btSoftRigidDynamicsWorld* world = new btSoftRigidDynamicsWorld(disp, bp, cs, cc, solver);
  world->setGravity(btVector3(0, -9.81f, 0));
  btSoftBodyWorldInfo& wi = world->getWorldInfo();
  wi.m_gravity.setValue(0, -9.81f, 0);
  wi.air_density = 1.2f;
  wi.water_density = 0;
  wi.water_offset = 0;
  wi.water_normal = btVector3(0, 0, 0);
  wi.m_broadphase = bp;
  wi.m_dispatcher = disp;
  wi.m_sparsesdf.Initialize();

  const btScalar h = 1.0f, s = 0.5f;  // 1 m x 1 m, horizontal at y=1
  double t0 = now_s();
  btSoftBody* psb = btSoftBodyHelpers::CreatePatch(wi, btVector3(-s, h, -s), btVector3(+s, h, -s),
                                                   btVector3(-s, h, +s), btVector3(+s, h, +s), res, res,
                                                   0 /*fixeds*/, true /*gendiags*/);
  int linksBase = psb->m_links.size();
  int nb = drapeSet ? drapeLinks(psb, res) : bulletBending ? psb->generateBendingConstraints(2) : generateBending2Sparse(psb);
  psb->m_cfg.piterations = iters;
  psb->setTotalMass(0.1f);
  world->addSoftBody(psb);
  const int links = psb->m_links.size();
  {
    unsigned long long hsh = 1469598103934665603ull;  // FNV-1a over ordered (n0,n1) pairs
    for (int l = 0; l < links; ++l) {
      unsigned long long v = (unsigned long long)(psb->m_links[l].m_n[0] - &psb->m_nodes[0]) * 1000003ull +
                             (unsigned long long)(psb->m_links[l].m_n[1] - &psb->m_nodes[0]);
      hsh = (hsh ^ v) * 1099511628211ull;
    }
    printf("link-list hash: %016llx\n", hsh);
  }
  printf("solver: %s\ncloth: %dx%d nodes=%d faces=%d links=%d (struct+shear %d, bending %d) piterations=%d "
         "viterations=%d setup %.2fs\n",
         simd ? "btOpenCLSoftBodySolverSIMDAware" : "btOpenCLSoftBodySolver", res, res, psb->m_nodes.size(),
         psb->m_faces.size(), links, linksBase, nb, psb->m_cfg.piterations, psb->m_cfg.viterations, now_s() - t0);

  std::vector<float> vb(readback ? 6 * psb->m_nodes.size() : 6);
  btCPUVertexBufferDescriptor vdesc(&vb[0], 0, 6, 3, 6);
  btSoftBodySolverOutputCLtoCPU out;
  auto step = [&]() {
    world->stepSimulation(1.0f / 60.f, 0);  // maxSubSteps=0: exactly one internal step of 1/60 s
    if (readback) out.copySoftBodyToVertexBuffer(psb, &vdesc);  // blocking clEnqueueReadBuffer
    clFinish(q);
  };

  t0 = now_s();
  step();  // first step: optimize() = upload + graph colouring + kernel builds
  printf("first step (optimize/colouring/kernel build): %.2fs\n", now_s() - t0);
  printf("solver position iterations=%d velocity iterations=%d\n", solver->getNumberOfPositionIterations(),
         solver->getNumberOfVelocityIterations());
  if (simd) static_cast<SimdPeek*>(solver)->stats();
  else
    printf("link batches (colours, = solvePositions kernel launches) per iteration: %d\n",
           solver->m_linkData.m_batchStartLengths.size());
  printf("triangle batches (normal-update kernel launches) per step: %d\n",
         (int)solver->m_triangleData.m_batchStartLengths.size());
  for (int i = 1; i < warmup; ++i) step();

  // calibrate steps so one block lasts >= minsec
  t0 = now_s();
  step();
  double one = now_s() - t0;
  int nsteps = std::max(steps, (int)(minsec / std::max(one, 1e-6)) + 1);
  std::vector<double> msps;
  for (int r = 0; r < reps; ++r) {
    double a = now_s();
    for (int i = 0; i < nsteps; ++i) step();
    double dt = (now_s() - a) / nsteps;
    msps.push_back(dt * 1e3);
    printf("  block %d: %d steps, %.3f ms/step\n", r, nsteps, dt * 1e3);
  }
  std::vector<double> sorted = msps;
  std::sort(sorted.begin(), sorted.end());
  double med = sorted[sorted.size() / 2];
  // sanity: a node position
  {
    std::vector<float> tmp(6 * psb->m_nodes.size());
    btCPUVertexBufferDescriptor d2(&tmp[0], 0, 6, 3, 6);
    out.copySoftBodyToVertexBuffer(psb, &d2);
    int c = (res / 2) * res + res / 2;
    printf("center node y after %d steps: %.4f (free fall y0-0.5*g*t^2 would be %.4f)\n",
           1 + warmup + reps * nsteps + 0, tmp[6 * c + 1],
           1.0 - 0.5 * 9.81 * pow((1 + warmup + reps * nsteps) / 60.0, 2));
    int m = res / 2, aI = m * res + 0, bI = m * res + (res - 1), cI = 0 * res + m, dI = (res - 1) * res + m;
    double dx = tmp[6 * bI] - tmp[6 * aI], dy = tmp[6 * bI + 1] - tmp[6 * aI + 1], dz = tmp[6 * bI + 2] - tmp[6 * aI + 2];
    double ex = tmp[6 * dI] - tmp[6 * cI], ey = tmp[6 * dI + 1] - tmp[6 * cI + 1], ez = tmp[6 * dI + 2] - tmp[6 * cI + 2];
    printf("edge-to-edge spans through centre: %.4f m, %.4f m (rest 1.0); normal at centre: (%.3f %.3f %.3f)\n",
           sqrt(dx * dx + dy * dy + dz * dz), sqrt(ex * ex + ey * ey + ez * ez), tmp[6 * c + 3], tmp[6 * c + 4],
           tmp[6 * c + 5]);
  }
  printf("RESULT solver=%s threads=%s links=%d iters=%d ms_per_step=%.3f Mproj_per_s=%.2f sync=%s\n",
         simd ? "simd" : "plain", thr ? thr : "unset", links, iters, med,
         links * (double)iters / (med * 1e-3) / 1e6, readback ? "clFinish+readback" : "clFinish");
  fflush(stdout);
  _exit(0);  // skip teardown
}
