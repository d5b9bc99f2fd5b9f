#!/bin/bash
# Builds twin_bench: Bullet 2.82's OpenCL cloth solver (btOpenCLSoftBodySolver) on a cloth, beside
# drape. BULLET_GIT: a git directory of github.com/bulletphysics/bullet3 that holds commit 9e9b172b
# (its VERSION says 2.82; its src/BulletMultiThreaded/GpuSoftBodySolvers is byte-identical to the
# tag 2.82). Needs g++ and the OpenCL headers and loader (ocl-icd-opencl-dev, opencl-headers).
set -euo pipefail
cd "$(dirname "$0")"
: "${BULLET_GIT:?set BULLET_GIT to a bullet3 git directory}"
if [ ! -d src/BulletMultiThreaded/GpuSoftBodySolvers/OpenCL ]; then
  git --git-dir="$BULLET_GIT" archive 9e9b172b234e2ad127e0500bf386a277a9906ade src/LinearMath \
      src/BulletCollision src/BulletDynamics src/BulletSoftBody \
      src/BulletMultiThreaded/GpuSoftBodySolvers src/vectormath src/btBulletCollisionCommon.h \
      src/btBulletDynamicsCommon.h src/Bullet-C-Api.h | tar x
fi
make -j2 twin_bench
