// TriangleBVTree::crossings (the TRI_INTERSECTION collider's pairs, guide
// §8.4.2): it skips whole subtrees and triangle pairs whose boxes are
// apart, and reuses each triangle's mapped vertices and normal within a
// query. Fact asserted: it finds exactly the crossings, with the same end
// points bit for bit, that testing every triangle pair with
// intersectTriangles finds — for boxes resting face on face, sunk by 1e-4,
// 1e-9 and 1e-12 (sides in one plane, edges on edges: the cases the
// symbolic perturbation decides), near their meshes' origin and 1000 away
// from it, boxes just apart, and a box and a sphere in random poses.
// (Faces that touch exactly, sunk by nothing, are left out: the tree's
// node boxes, older than the triangle boxes, may drop their point
// crossings by round-off; such a region holds no depth, and the watched
// vertices hold the contact, ContourRegions.cpp.)
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <random>
#include <tuple>

#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/geometry/TriangleIntersection.h"

namespace sinew {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Key = std::tuple<int, int, double, double, double, double, double, double>;

std::vector<Key> keys(const std::vector<TriangleBVTree::Crossing>& xs) {
  std::vector<Key> out;
  for (const auto& x : xs) out.emplace_back(x.tri, x.otherTri, x.p.x(), x.p.y(), x.p.z(), x.q.x(), x.q.y(), x.q.z());
  std::sort(out.begin(), out.end());
  return out;
}

/// Every pair of triangles, tested in the tree's coordinates.
std::vector<TriangleBVTree::Crossing> everyPair(const TriangleBVTree& a, const TriangleBVTree& b, const Matrix3d& R,
                                                const Vector3d& t) {
  std::vector<TriangleBVTree::Crossing> out;
  Vector3d p, q;
  for (int j = 0; j < b.numTriangles(); ++j) {
    Vector3d u[3];
    for (int k = 0; k < 3; ++k) u[k] = R * b.triangleVertex(j, k) + t;
    for (int i = 0; i < a.numTriangles(); ++i)
      if (intersectTriangles(a.triangleVertex(i, 0), a.triangleVertex(i, 1), a.triangleVertex(i, 2), u[0], u[1], u[2],
                             p, q))
        out.push_back({i, j, p, q});
  }
  return out;
}

void expectSameCrossings(const TriangleBVTree& a, const TriangleBVTree& b, const Matrix3d& R, const Vector3d& t,
                         const char* what) {
  std::vector<TriangleBVTree::Crossing> xs;
  a.crossings(b, R, t, xs);
  EXPECT_EQ(keys(xs), keys(everyPair(a, b, R, t))) << what;
}

TEST(TriangleBVTree, CrossingsAreThoseOfEveryTrianglePairBitForBit) {
  const PolygonalMesh box = MeshFactory::createBox(1, 1, 1);
  const PolygonalMesh fineBox = MeshFactory::createBox(1, 1, 1, 3, 3, 3);
  const PolygonalMesh ball = MeshFactory::createIcosahedralSphere(0.6, 2);
  const TriangleBVTree tBox(box), tFine(fineBox), tBall(ball);
  // Resting face on face, turned a little and not at all: sides in one
  // plane, edges along edges; also with both boxes far from their meshes'
  // origin (coordinates of 1000, whose round-off is 1000 times larger).
  PolygonalMesh farBox = box;
  const Vector3d far(1000, -700, 400);
  farBox.translate(far);
  const TriangleBVTree tFar(farBox);
  for (double sink : {1e-4, 1e-9, 1e-12})
    for (double turn : {0.0, 0.05}) {
      const Matrix3d R = Eigen::AngleAxisd(turn, Vector3d::UnitZ()).toRotationMatrix();
      expectSameCrossings(tBox, tBox, R, Vector3d(0, 0, 1 - sink), "box on box");
      EXPECT_FALSE(everyPair(tBox, tBox, R, Vector3d(0, 0, 1 - sink)).empty()) << "the sunk boxes cross";
      expectSameCrossings(tFine, tBox, R, Vector3d(0.2, 0, 1 - sink), "box on a finely meshed box");
      // The far box on itself: x ↦ R (x − far) + far + (0, 0, 1 − sink).
      const Vector3d tf = far - R * far + Vector3d(0, 0, 1 - sink);
      expectSameCrossings(tFar, tFar, R, tf, "far from the origin");
      if (sink >= 1e-9) EXPECT_FALSE(everyPair(tFar, tFar, R, tf).empty()) << "the far boxes cross";
    }
  // Apart by a hair: no crossing either way.
  EXPECT_TRUE(everyPair(tBox, tBox, Matrix3d::Identity(), Vector3d(0, 0, 1 + 1e-12)).empty());
  expectSameCrossings(tBox, tBox, Matrix3d::Identity(), Vector3d(0, 0, 1 + 1e-12), "just apart");
  std::mt19937 rng(5);
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> U(-0.9, 0.9);
  int crossed = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Matrix3d R = Eigen::Quaterniond(N(rng), N(rng), N(rng), N(rng)).normalized().toRotationMatrix();
    const Vector3d t(U(rng), U(rng), U(rng));
    expectSameCrossings(tBox, tBall, R, t, "box and ball");
    expectSameCrossings(tFine, tBox, R, t, "two boxes");
    std::vector<TriangleBVTree::Crossing> xs;
    tBox.crossings(tBall, R, t, xs);
    crossed += !xs.empty();
  }
  EXPECT_GT(crossed, 25) << "most random poses cross";
}

}  // namespace
}  // namespace sinew
