// Tests of mesh mass properties (Guide §3.2.5, §3.2.9; ME-22, RB-13): each
// distribution against the analytic inertia of the body it models.
#include "sinew/geometry/MassProperties.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sinew/Error.h"
#include "sinew/geometry/MeshFactory.h"

using namespace sinew;
using Eigen::Matrix3d;
using Eigen::Vector3d;

namespace {

constexpr double kPi = std::numbers::pi;

void expectMatrixNear(const Matrix3d& a, const Matrix3d& b, double tol) {
  EXPECT_LT((a - b).cwiseAbs().maxCoeff(), tol) << "got\n" << a << "\nexpected\n" << b;
}

PolygonalMesh reversed(const PolygonalMesh& mesh) {
  PolygonalMesh out;
  for (const auto& v : mesh.getVertices()) out.addVertex(v);
  for (auto f : mesh.getFaces()) out.addFace({f.rbegin(), f.rend()});
  return out;
}

double relativeSphereInertiaError(int n, MassDistribution dist, double factor) {
  const auto mp = computeMassProperties(MeshFactory::createSphere(1.0, n), 1.0, dist);
  return std::abs(mp.inertia.trace() / 3 / factor - 1);
}

}  // namespace

TEST(MassProperties, SolidBoxInertiaIsExact) {
  // Uniform box: Jxx = m/12 (b² + c²) etc. The polyhedral formula is exact,
  // for any subdivision, up to rounding.
  const double a = 1, b = 2, c = 3, m = 4.5;
  const Matrix3d expected =
      Vector3d(m / 12 * (b * b + c * c), m / 12 * (a * a + c * c), m / 12 * (a * a + b * b))
          .asDiagonal();
  for (int n : {1, 3}) {
    const auto mp = computeMassProperties(MeshFactory::createBox(a, b, c, n, n, n), m,
                                          MassDistribution::Volume);
    EXPECT_DOUBLE_EQ(mp.mass, m);
    EXPECT_LT(mp.com.norm(), 1e-15);
    expectMatrixNear(mp.inertia, expected, 1e-13);
  }
}

TEST(MassProperties, MovedBoxRotatesInertiaAndCarriesCom) {
  const double m = 2.0;
  PolygonalMesh box = MeshFactory::createBox(1, 2, 3);
  const Matrix3d R = Eigen::AngleAxisd(0.4, Vector3d(1, -1, 2).normalized()).toRotationMatrix();
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = R;
  X.translation() = Vector3d(100, -50, 7);
  box.transform(X);
  const auto mp = computeMassProperties(box, m);  // Default: closed -> Volume
  const Matrix3d J0 = Vector3d(m / 12 * 13, m / 12 * 10, m / 12 * 5).asDiagonal();
  EXPECT_TRUE(mp.com.isApprox(Vector3d(100, -50, 7), 1e-14));
  expectMatrixNear(mp.inertia, R * J0 * R.transpose(), 1e-12);
}

TEST(MassProperties, GuideTetrahedronAboutItsCentroid) {
  // Unit right tetrahedron, density 6m: ∫x² = m/10, ∫xy = m/20; about the
  // centroid (1/4,1/4,1/4) this gives Jxx = 3m/40 and Jxy = m/80.
  PolygonalMesh tet;
  tet.addVertex(0, 0, 0);
  tet.addVertex(1, 0, 0);
  tet.addVertex(0, 1, 0);
  tet.addVertex(0, 0, 1);
  tet.addFace({0, 2, 1});
  tet.addFace({0, 3, 2});
  tet.addFace({0, 1, 3});
  tet.addFace({1, 2, 3});
  const double m = 3.0;
  const auto mp = computeMassProperties(tet, m, MassDistribution::Volume);
  Matrix3d expected = Matrix3d::Constant(m / 80);
  expected.diagonal().setConstant(3 * m / 40);
  EXPECT_TRUE(mp.com.isApprox(Vector3d::Constant(0.25), 1e-15));
  expectMatrixNear(mp.inertia, expected, 1e-15);
}

TEST(MassProperties, CylinderMatchesRegularPrismExactly) {
  // For a regular n-gon of circumradius r the polar second moment per unit
  // area is r²(2 + cos(2π/n))/6 (→ r²/2 as n → ∞), so the faceted cylinder
  // has Jzz = m r²(2+cos)/6 and Jxx = m r²(2+cos)/12 + m h²/12 exactly.
  const double r = 0.5, h = 2.0, m = 3.0;
  for (int n : {6, 32}) {
    const double k = (2 + std::cos(2 * kPi / n)) / 6;
    const auto mp = computeMassProperties(MeshFactory::createCylinder(r, h, n), m);
    EXPECT_NEAR(mp.inertia(2, 2), m * r * r * k, 1e-14);
    EXPECT_NEAR(mp.inertia(0, 0), m * r * r * k / 2 + m * h * h / 12, 1e-14);
    EXPECT_NEAR(mp.inertia(1, 1), mp.inertia(0, 0), 1e-14);
  }
}

TEST(MassProperties, SolidSphereConvergesToTwoFifthsMR2) {
  // Faceting removes mass from the outside of the ball, so the faceted
  // inertia is low by O(1/n²): ~1.9% at 24 slices, 0.13% at 96 (trace mean).
  const auto mp = computeMassProperties(MeshFactory::createSphere(1.0, 24), 1.0);
  EXPECT_LT(mp.com.norm(), 1e-14);
  EXPECT_LT(std::abs(mp.inertia(0, 1)), 1e-14);  // symmetric about the axes
  EXPECT_NEAR(mp.inertia(0, 0), mp.inertia(1, 1), 1e-14);
  const double e24 = relativeSphereInertiaError(24, MassDistribution::Volume, 0.4);
  const double e96 = relativeSphereInertiaError(96, MassDistribution::Volume, 0.4);
  EXPECT_LT(e24, 0.025);
  EXPECT_LT(e96, 0.002);
  EXPECT_NEAR(e96 / e24, 1.0 / 16, 0.01);  // quadratic convergence
}

TEST(MassProperties, ThinShellSphereConvergesToTwoThirdsMR2) {
  const double e24 = relativeSphereInertiaError(24, MassDistribution::Area, 2.0 / 3);
  const double e96 = relativeSphereInertiaError(96, MassDistribution::Area, 2.0 / 3);
  EXPECT_LT(e24, 0.025);
  EXPECT_LT(e96, 0.002);
  EXPECT_NEAR(e96 / e24, 1.0 / 16, 0.01);
}

TEST(MassProperties, ThinShellCubeIsFiveEighteenthsMA2) {
  // Six plates of mass m/6: a face plate gives m a²/36 (own axis, ×2 faces)
  // and the four side plates m/6 (a²/12 + a²/4) each: total 5/18 m a².
  const double a = 2.0, m = 1.2;
  const auto mp =
      computeMassProperties(MeshFactory::createBox(a, a, a, 2, 2, 2), m, MassDistribution::Area);
  expectMatrixNear(mp.inertia, Matrix3d::Identity() * 5.0 / 18 * m * a * a, 1e-14);
}

TEST(MassProperties, DefaultDistributionFollowsMeshKind) {
  const PolygonalMesh closed = MeshFactory::createBox(1, 1, 1);
  const PolygonalMesh open = MeshFactory::createPlane(1, 1);
  EXPECT_EQ(defaultMassDistribution(closed), MassDistribution::Volume);
  EXPECT_EQ(defaultMassDistribution(open), MassDistribution::Area);
  EXPECT_EQ(defaultMassDistribution(PolylineMesh()), MassDistribution::Length);
  EXPECT_EQ(defaultMassDistribution(PointMesh()), MassDistribution::Point);
  const MeshBase& base = open;
  EXPECT_EQ(defaultMassDistribution(base), MassDistribution::Area);

  // Open plate of side 1 in xy: Jxx = Jyy = m/12, Jzz = m/6.
  const auto mp = computeMassProperties(open, 6.0);
  expectMatrixNear(mp.inertia, Vector3d(0.5, 0.5, 1.0).asDiagonal(), 1e-15);
}

TEST(MassProperties, VolumeNeedsClosedOutwardMesh) {
  EXPECT_THROW(computeMassProperties(MeshFactory::createPlane(1, 1), 1.0, MassDistribution::Volume),
               ModelError);
  // Inside-out: closed, but the enclosed volume is negative.
  const PolygonalMesh inverted = reversed(MeshFactory::createBox(1, 1, 1));
  EXPECT_TRUE(inverted.isClosed());
  EXPECT_THROW(computeMassProperties(inverted, 1.0, MassDistribution::Volume), ModelError);
  EXPECT_THROW(computeMassProperties(MeshFactory::createBox(1, 1, 1), -1.0), ModelError);
  EXPECT_THROW(
      computeMassProperties(MeshFactory::createBox(1, 1, 1), 1.0, MassDistribution::Length),
      ModelError);
}

TEST(MassProperties, RodAndPointDistributions) {
  // Uniform rod of length L along x: Jyy = Jzz = m L²/12, for any subdivision.
  const double L = 3.0, m = 2.0;
  PolylineMesh rod;
  for (int i = 0; i <= 5; ++i) rod.addVertex(-L / 2 + L * i / 5, 0, 0);
  rod.addLine({0, 1, 2, 3, 4, 5});
  const auto wire = computeMassProperties(rod, m);
  expectMatrixNear(wire.inertia, Vector3d(0, m * L * L / 12, m * L * L / 12).asDiagonal(), 1e-14);

  // Point masses m/2 at the ends: Jyy = m L²/4.
  PolylineMesh ends;
  ends.addVertex(-L / 2, 0, 0);
  ends.addVertex(L / 2, 0, 0);
  ends.addLine({0, 1});
  const auto pts = computeMassProperties(ends, m, MassDistribution::Point);
  EXPECT_NEAR(pts.inertia(1, 1), m * L * L / 4, 1e-14);

  // Six points at ±e_i, mass m/6 each: Jxx = Σ (y² + z²) m/6 = 2m/3.
  PointMesh cloud;
  for (int d = 0; d < 3; ++d) {
    cloud.addVertex(Vector3d::Unit(d));
    cloud.addVertex(-Vector3d::Unit(d));
  }
  const MeshBase& base = cloud;
  const auto cp = computeMassProperties(base, m);
  expectMatrixNear(cp.inertia, Matrix3d::Identity() * 2 * m / 3, 1e-15);
  EXPECT_THROW(computeMassProperties(cloud, m, MassDistribution::Volume), ModelError);
}

TEST(MassProperties, FarFromOriginKeepsPrecision) {
  // Integrals are taken about the vertex centroid, so a mesh a million units
  // away gives the same inertia as one at the origin.
  PolygonalMesh sphere = MeshFactory::createSphere(1.0, 24);
  const auto near = computeMassProperties(sphere, 1.0);
  sphere.translate(Vector3d(1e6, -2e6, 3e6));
  const auto far = computeMassProperties(sphere, 1.0);
  expectMatrixNear(far.inertia, near.inertia, 1e-9);
  EXPECT_TRUE(far.com.isApprox(Vector3d(1e6, -2e6, 3e6), 1e-15));
}
