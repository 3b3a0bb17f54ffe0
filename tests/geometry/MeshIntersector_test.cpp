// The AJL_CONTOUR collider's geometry (guide §8.4.2): exact predicates with
// a symbolic perturbation, and the contours and penetration regions of two
// meshes. Facts asserted: orient3d's sign is exact on inputs where
// floating point rounds to the wrong side; every contour of two closed
// meshes is closed, also when faces are coplanar, edges lie on edges and
// vertices on vertices; the contours run where the triangle–triangle
// crossings do; the enclosed area is the analytic intersection's; and the
// vertices marked inside are those the point-in-mesh query finds inside.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/MeshIntersector.h"
#include "sinew/geometry/RobustPredicates.h"

namespace sinew {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

TEST(RobustPredicates, Orient3dIsExactWhereFloatingPointIsNot) {
  const Vector3d a(1, 0, 0), b(0, 1, 0), c(0, 0, 1);
  // On the plane x + y + z = 1, and one unit in the last place off it.
  EXPECT_EQ(orient3dSign(a, b, c, Vector3d(0.25, 0.25, 0.5)), 0);
  EXPECT_EQ(orient3dSign(a, b, c, Vector3d(0.25, 0.25, std::nextafter(0.5, 1.0))), 1);
  EXPECT_EQ(orient3dSign(a, b, c, Vector3d(0.25, 0.25, std::nextafter(0.5, 0.0))), -1);
  // Far from the origin the differences round: a point on the line
  // through two others, in a plane through a third, is found on it.
  const double o = 1e8 + 0.5;
  const Vector3d p(o, o, o), q(o + 1, o + 2, o + 3), r(o + 5, o - 1, o + 7);
  EXPECT_EQ(orient3dSign(p, q, r, p + 2 * (q - p)), 0);
  EXPECT_EQ(orient3dSign(p, q, r, Vector3d(o + 2, o + 4, std::nextafter(o + 6, 2e8))), -orient3dSign(q, p, r, Vector3d(o + 2, o + 4, std::nextafter(o + 6, 2e8))));
  // Swapping two points flips the sign, for a generic and for a perturbed case.
  EXPECT_EQ(orient3dSign(a, b, c, Vector3d(1, 1, 1)), -orient3dSign(b, a, c, Vector3d(1, 1, 1)));
  const Vector3d on(0.25, 0.25, 0.5);
  EXPECT_NE(perturbedSide(a, b, c, on, true), 0);
  EXPECT_EQ(perturbedSide(a, b, c, on, true), -perturbedSide(a, b, c, on, false));
  EXPECT_EQ(perturbedSide(a, b, c, on, true), -perturbedSide(b, a, c, on, true));
}

TEST(RobustPredicates, AnEdgeThroughAVertexOrAnEdgePiercesExactlyOneOfTheFacesThere) {
  // A vertical edge through the shared corner of a fan of four triangles
  // around the origin (and through their shared edges): under the
  // perturbation it passes through exactly one of them.
  const Vector3d c(0, 0, 0), ring[4] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  for (const Vector3d& x : {Vector3d(0, 0, 0), Vector3d(0.5, 0, 0), Vector3d(0, -0.25, 0)}) {
    for (bool moved : {false, true}) {
      int hits = 0;
      for (int k = 0; k < 4; ++k) {
        bool entering;
        hits += edgePiercesTriangle(x + Vector3d(0, 0, 1), x - Vector3d(0, 0, 1), c, ring[k], ring[(k + 1) % 4], moved,
                                    entering);
      }
      EXPECT_EQ(hits, 1) << x.transpose() << " moved " << moved;
    }
  }
}

struct Pose {
  Matrix3d R;
  Vector3d t;
};

MeshIntersection intersect(const PolygonalMesh& a, const PolygonalMesh& b, const Pose& X) {
  const TriangleBVTree ta(a), tb(b);
  return intersectMeshes(ta, tb, X.R, X.t);
}

double totalArea(const MeshIntersection& m) {
  double s = 0;
  for (const MeshRegion& r : m.regions[0]) s += r.area;
  return s;
}

TEST(MeshIntersector, CubesTouchingOnFacesEdgesAndCornersGiveClosedContours) {
  // Unit cubes offset by exact amounts: faces coplanar (partly and fully
  // overlapping), an edge on an edge, a corner on a corner, and a generic
  // overlap. Whichever side the perturbation decides, every contour is
  // closed and encloses either nothing or the overlap of the touching faces.
  const PolygonalMesh cube = MeshFactory::createBox(1, 1, 1);
  struct Case {
    Vector3d offset;
    double touchArea;  ///< the coplanar overlap, if the perturbation makes them meet
  };
  for (const Case& k : {Case{{0.5, 0.5, 1}, 0.25}, Case{{0, 0, 1}, 1.0}, Case{{0.25, 0, 1}, 0.75},
                        Case{{1, 0, 1}, 0.0}, Case{{1, 1, 1}, 0.0}, Case{{1, 0.5, 0}, 0.5}}) {
    for (double sign : {1.0, -1.0}) {
      const MeshIntersection m = intersect(cube, cube, {Matrix3d::Identity(), sign * k.offset});
      for (const auto& c : m.contours) EXPECT_TRUE(c.closed) << k.offset.transpose() << " sign " << sign;
      const double area = totalArea(m);
      EXPECT_TRUE(std::abs(area) < 1e-12 || std::abs(area - k.touchArea) < 1e-12)
          << k.offset.transpose() << " sign " << sign << ": area " << area;
    }
  }
  // A generic overlap, the box [-0.2, 0.5] × [-0.3, 0.5] × [0.2, 0.5]:
  // one contour, around the first cube's top, +x and +y faces inside the
  // second, whose vector area ∫ n dA is (0.8·0.3, 0.7·0.3, 0.7·0.8).
  const MeshIntersection m = intersect(cube, cube, {Matrix3d::Identity(), Vector3d(0.3, 0.2, 0.7)});
  ASSERT_EQ(m.contours.size(), 1u);
  EXPECT_TRUE(m.contours[0].closed);
  EXPECT_NEAR(m.regions[0][0].area, Vector3d(0.24, 0.21, 0.56).norm(), 1e-12);
  // The first cube's vertex (0.5, 0.5, 0.5) is inside the second, the only one.
  EXPECT_EQ(m.regions[0][0].vertices.size(), 1u);
  EXPECT_EQ(m.regions[1][0].vertices.size(), 1u);
}

Matrix3d randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> N;
  return Eigen::Quaterniond(N(rng), N(rng), N(rng), N(rng)).normalized().toRotationMatrix();
}

TEST(MeshIntersector, OverlappingSpheresMeetInOneClosedCircleWithTheRightInsideVertices) {
  const PolygonalMesh sphere = MeshFactory::createIcosahedralSphere(1.0, 4);
  const TriangleBVTree ta(sphere), tb(sphere);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    Vector3d dir(U(rng), U(rng), U(rng));
    dir.normalize();
    const Pose X{randomRotation(rng), 1.2 * dir};
    const MeshIntersection m = intersectMeshes(ta, tb, X.R, X.t);
    ASSERT_EQ(m.contours.size(), 1u) << trial;
    EXPECT_TRUE(m.contours[0].closed);
    // The circle of radius 0.8 where unit spheres 1.2 apart meet, to the
    // facets' accuracy (the chord of a 4-division icosphere is ~0.08).
    EXPECT_NEAR(m.regions[0][0].area, M_PI * 0.64, 0.03 * M_PI * 0.64) << trial;
    EXPECT_NEAR(m.regions[1][0].area, m.regions[0][0].area, 1e-12);
    // The same crossings as the floating-point triangle test.
    std::vector<TriangleBVTree::Crossing> xs;
    ta.crossings(tb, X.R, X.t, xs);
    EXPECT_EQ(xs.size(), m.crossings.size()) << trial;
    // Inside vertices are those the point-in-mesh query finds inside.
    const Pose Xinv{X.R.transpose(), -X.R.transpose() * X.t};
    TriangleBVTree::Nearest n;
    for (int side = 0; side < 2; ++side) {
      const TriangleBVTree& self = side ? tb : ta;
      const TriangleBVTree& other = side ? ta : tb;
      const Pose& toOther = side ? X : Xinv;  // side 1's vertices into side 0's coordinates, or back
      for (int v = 0; v < sphere.numVertices(); ++v) {
        const Vector3d p = toOther.R * self.vertices()[v] + toOther.t;
        EXPECT_EQ(static_cast<bool>(m.inside[side][v]), other.inside(p, n)) << "side " << side << " vertex " << v;
      }
    }
  }
}

}  // namespace
}  // namespace sinew
