// Tests of the mesh classes and MeshFactory (Guide §2.5, §2.5.1): topology
// (closedness, orientation), and area, volume and centroid against analytic
// values.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sinew/Error.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolygonalMesh.h"
#include "sinew/geometry/PolylineMesh.h"

using namespace sinew;
using Eigen::Vector3d;

namespace {

constexpr double kPi = std::numbers::pi;

// The guide's §2.5.1 example: a closed four-faced tetrahedron.
PolygonalMesh guideTetrahedron() {
  PolygonalMesh mesh;
  mesh.addVertex(0, 0, 0);
  mesh.addVertex(1, 0, 0);
  mesh.addVertex(0, 1, 0);
  mesh.addVertex(0, 0, 1);
  mesh.addFace({0, 2, 1});
  mesh.addFace({0, 3, 2});
  mesh.addFace({0, 1, 3});
  mesh.addFace({1, 2, 3});
  return mesh;
}

// Relative volume error of a unit UV sphere with n slices.
double sphereVolumeError(int n) {
  return 1 - MeshFactory::createSphere(1.0, n).computeVolume() / (4 * kPi / 3);
}

// Every face normal of a convex mesh centred at the origin points away from it.
void expectOutwardFaces(const PolygonalMesh& mesh) {
  for (int f = 0; f < mesh.numFaces(); ++f) {
    Vector3d c = Vector3d::Zero();
    for (int v : mesh.getFace(f)) c += mesh.getVertex(v);
    c /= static_cast<double>(mesh.getFace(f).size());
    EXPECT_GT(mesh.computeFaceNormal(f).dot(c), 0) << "face " << f;
  }
}

}  // namespace

TEST(PolygonalMesh, GuideTetrahedronIsClosedTriangularWithVolumeOneSixth) {
  const PolygonalMesh tet = guideTetrahedron();
  EXPECT_EQ(tet.numVertices(), 4);
  EXPECT_EQ(tet.numFaces(), 4);
  EXPECT_TRUE(tet.isTriangular());
  EXPECT_TRUE(tet.isClosed());
  EXPECT_NEAR(tet.computeVolume(), 1.0 / 6.0, 1e-15);
  // Three right triangles of area 1/2 plus an equilateral one of side √2.
  EXPECT_NEAR(tet.computeArea(), 1.5 + std::sqrt(3.0) / 2, 1e-15);
  EXPECT_TRUE(tet.computeCentroidOfVolume().isApprox(Vector3d(0.25, 0.25, 0.25), 1e-15));
  EXPECT_TRUE(tet.computeFaceNormal(3).isApprox(Vector3d(1, 1, 1).normalized(), 1e-15));
  EXPECT_TRUE(tet.computeFaceNormal(0).isApprox(Vector3d(0, 0, -1), 1e-15));
}

TEST(PolygonalMesh, FlippedOrMissingFaceIsNotClosed) {
  PolygonalMesh flipped = guideTetrahedron();
  flipped.removeFace(3);
  EXPECT_FALSE(flipped.isClosed());  // a hole
  flipped.addFace({1, 3, 2});        // the face reversed: edges no longer pair up
  EXPECT_FALSE(flipped.isClosed());
  EXPECT_FALSE(PolygonalMesh().isClosed());
}

TEST(PolygonalMesh, AddFaceRejectsBadIndices) {
  PolygonalMesh mesh = guideTetrahedron();
  EXPECT_THROW(mesh.addFace({0, 1, 7}), ModelError);
  EXPECT_THROW(mesh.addFace({0, 1}), ModelError);
  EXPECT_THROW(mesh.addFace({0, 1, 1}), ModelError);
}

TEST(PolygonalMesh, RemoveVertexRenumbersFacesAndRefusesUsedVertices) {
  PolygonalMesh mesh;
  mesh.addVertex(9, 9, 9);  // unused vertex at index 0
  const PolygonalMesh tet = guideTetrahedron();
  mesh.addMesh(tet);
  EXPECT_THROW(mesh.removeVertex(1), ModelError);
  mesh.removeVertex(0);
  EXPECT_EQ(mesh.getFaces(), tet.getFaces());
  EXPECT_NEAR(mesh.computeVolume(), 1.0 / 6.0, 1e-15);
}

TEST(PolygonalMesh, TriangulatePreservesVolumeAndClosedness) {
  PolygonalMesh box = MeshFactory::createQuadBox(1, 2, 3);
  EXPECT_FALSE(box.isTriangular());
  EXPECT_EQ(box.numFaces(), 6);
  box.triangulate();
  EXPECT_TRUE(box.isTriangular());
  EXPECT_EQ(box.numFaces(), 12);
  EXPECT_TRUE(box.isClosed());
  EXPECT_NEAR(box.computeVolume(), 6.0, 1e-14);
}

TEST(PolygonalMesh, CentroidOfOffsetBoxAndTranslateToCenterOfVolume) {
  PolygonalMesh box = MeshFactory::createBox(1, 2, 3, 2, 1, 3);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  X.translation() = Vector3d(5, 6, 7);
  box.transform(X);
  EXPECT_TRUE(box.computeCentroidOfVolume().isApprox(Vector3d(5, 6, 7), 1e-13));
  EXPECT_NEAR(box.computeVolume(), 6.0, 1e-12);  // rigid motion keeps volume

  const Vector3d moved = box.translateToCenterOfVolume();
  EXPECT_TRUE(moved.isApprox(Vector3d(5, 6, 7), 1e-13));
  EXPECT_LT(box.computeCentroidOfVolume().norm(), 1e-13);
}

TEST(PolygonalMesh, ScalingMultipliesVolume) {
  PolygonalMesh box = MeshFactory::createBox(1, 1, 1);
  box.scale(1, 2, 3);
  EXPECT_NEAR(box.computeVolume(), 6.0, 1e-14);
  box.scale(0.5);
  EXPECT_NEAR(box.computeVolume(), 6.0 / 8, 1e-14);
  Eigen::Affine3d shear = Eigen::Affine3d::Identity();
  shear.linear() << 1, 0.5, 0, 0, 1, 0, 0, 0, 1;  // det 1: volume unchanged
  box.transform(shear);
  EXPECT_NEAR(box.computeVolume(), 6.0 / 8, 1e-14);
}

TEST(PolygonalMesh, VertexNormalsOfSphereAreRadial) {
  const PolygonalMesh sphere = MeshFactory::createSphere(2.0, 32);
  const auto nrmls = sphere.computeVertexNormals();
  ASSERT_EQ(static_cast<int>(nrmls.size()), sphere.numVertices());
  for (int i = 0; i < sphere.numVertices(); ++i) {
    EXPECT_NEAR(nrmls[i].norm(), 1.0, 1e-12);
    // Symmetric neighbourhoods make the area-weighted normal nearly radial.
    EXPECT_GT(nrmls[i].dot(sphere.getVertex(i).normalized()), 0.999);
  }
}

TEST(PolygonalMesh, BoundsAndClone) {
  const PolygonalMesh box = MeshFactory::createBox(2, 4, 6);
  const auto bounds = box.computeBounds();
  EXPECT_TRUE(bounds.min().isApprox(Vector3d(-1, -2, -3)));
  EXPECT_TRUE(bounds.max().isApprox(Vector3d(1, 2, 3)));
  auto copy = box.clone();
  auto* poly = dynamic_cast<PolygonalMesh*>(copy.get());
  ASSERT_NE(poly, nullptr);
  EXPECT_EQ(poly->getFaces(), box.getFaces());
}

TEST(MeshFactory, BoxVolumeAreaAndTopology) {
  for (auto [nx, ny, nz] : {std::array{1, 1, 1}, std::array{2, 3, 4}}) {
    const PolygonalMesh box = MeshFactory::createQuadBox(1, 2, 3, nx, ny, nz);
    EXPECT_TRUE(box.isClosed());
    EXPECT_NEAR(box.computeVolume(), 6.0, 1e-14);
    EXPECT_NEAR(box.computeArea(), 2 * (2 + 6 + 3), 1e-13);
    // Boundary points of the (nx+1)(ny+1)(nz+1) lattice; 2(nx ny + ...) quads.
    EXPECT_EQ(box.numVertices(), (nx + 1) * (ny + 1) * (nz + 1) - (nx - 1) * (ny - 1) * (nz - 1));
    EXPECT_EQ(box.numFaces(), 2 * (nx * ny + ny * nz + nz * nx));
    expectOutwardFaces(box);
  }
}

TEST(MeshFactory, SphereVolumeConvergesQuadratically) {
  // The UV sphere is inscribed, so it is always slightly too small; the gap
  // is second order in the angular spacing 2π/n, so doubling n divides the
  // error by about 4 (measured ratios 0.249-0.253 for n = 12..96).
  const PolygonalMesh sphere = MeshFactory::createSphere(1.0, 24);
  EXPECT_TRUE(sphere.isClosed());
  EXPECT_TRUE(sphere.isTriangular());
  expectOutwardFaces(sphere);
  for (int n : {12, 24, 48}) {
    const double e = sphereVolumeError(n), e2 = sphereVolumeError(2 * n);
    EXPECT_GT(e, 0);
    EXPECT_NEAR(e2 / e, 0.25, 0.01) << "n=" << n;
  }
  EXPECT_LT(sphereVolumeError(24), 0.03);
  EXPECT_LT(sphereVolumeError(96), 0.002);
  const double areaErr = 1 - MeshFactory::createSphere(1.0, 96).computeArea() / (4 * kPi);
  EXPECT_GT(areaErr, 0);
  EXPECT_LT(areaErr, 0.001);
}

TEST(MeshFactory, IcosahedralSphere) {
  for (int d = 0; d <= 3; ++d) {
    const PolygonalMesh s = MeshFactory::createIcosahedralSphere(1.5, d);
    EXPECT_EQ(s.numFaces(), 20 * (1 << (2 * d)));
    EXPECT_TRUE(s.isClosed());
    expectOutwardFaces(s);
    for (const auto& v : s.getVertices()) EXPECT_NEAR(v.norm(), 1.5, 1e-14);
  }
  // Regular icosahedron, edge a = 4r/√(10+2√5): V = 5(3+√5)a³/12.
  const double a = 4 * 1.5 / std::sqrt(10 + 2 * std::sqrt(5.0));
  const double vIco = 5 * (3 + std::sqrt(5.0)) * a * a * a / 12;
  EXPECT_NEAR(MeshFactory::createIcosahedralSphere(1.5, 0).computeVolume(), vIco, 1e-13);
  const double vSphere = 4 * kPi / 3 * std::pow(1.5, 3);
  EXPECT_NEAR(MeshFactory::createIcosahedralSphere(1.5, 4).computeVolume(), vSphere,
              0.003 * vSphere);
}

TEST(MeshFactory, CylinderMatchesInscribedPrismExactly) {
  // The cylinder is the prism over a regular n-gon of circumradius r, whose
  // area is (n/2) r² sin(2π/n): volume and area are exact, not approximate.
  const double r = 0.7, h = 2.5;
  for (int n : {8, 24}) {
    for (auto [nr, nh] : {std::pair{1, 1}, std::pair{3, 5}}) {
      const PolygonalMesh cyl = MeshFactory::createCylinder(r, h, n, nr, nh);
      const double base = n / 2.0 * r * r * std::sin(2 * kPi / n);
      const double side = n * 2 * r * std::sin(kPi / n) * h;
      EXPECT_TRUE(cyl.isClosed());
      EXPECT_NEAR(cyl.computeVolume(), base * h, 1e-13);
      EXPECT_NEAR(cyl.computeArea(), 2 * base + side, 1e-13);
      const auto b = cyl.computeBounds();
      EXPECT_NEAR(b.min().z(), -h / 2, 1e-15);
      EXPECT_NEAR(b.max().z(), h / 2, 1e-15);
    }
  }
}

TEST(MeshFactory, TorusVolumeConvergesToPappus) {
  // Pappus: V = 2π² R r². Inscribed polygons on both circles: O(1/n²) error.
  const double R = 2.0, r = 0.5, exact = 2 * kPi * kPi * R * r * r;
  const PolygonalMesh coarse = MeshFactory::createTorus(R, r, 48, 24);
  const PolygonalMesh fine = MeshFactory::createTorus(R, r, 192, 96);
  EXPECT_TRUE(coarse.isClosed());
  EXPECT_NEAR(coarse.computeVolume(), exact, 0.015 * exact);
  EXPECT_NEAR(fine.computeVolume(), exact, 0.001 * exact);
  EXPECT_NEAR(fine.computeArea(), 4 * kPi * kPi * R * r, 0.001 * 4 * kPi * kPi * R * r);
}

TEST(MeshFactory, CapsuleEllipsoidPlaneAndPrism) {
  const PolygonalMesh cap = MeshFactory::createCapsule(0.5, 2.0, 96);
  const double vCap = kPi * 0.25 * 2.0 + 4.0 / 3 * kPi * 0.125;
  EXPECT_TRUE(cap.isClosed());
  EXPECT_NEAR(cap.computeVolume(), vCap, 0.002 * vCap);
  EXPECT_NEAR(cap.computeBounds().max().z(), 1.5, 1e-15);

  const PolygonalMesh ell = MeshFactory::createEllipsoid(1, 2, 3, 96);
  EXPECT_TRUE(ell.isClosed());
  EXPECT_NEAR(ell.computeVolume(), 4 * kPi * 6 / 3, 0.002 * 4 * kPi * 6 / 3);

  const PolygonalMesh plane = MeshFactory::createPlane(2, 3, 4, 5);
  EXPECT_FALSE(plane.isClosed());
  EXPECT_EQ(plane.numFaces(), 20);
  EXPECT_NEAR(plane.computeArea(), 6.0, 1e-14);
  EXPECT_TRUE(plane.computeFaceNormal(0).isApprox(Vector3d::UnitZ()));
  const PolygonalMesh tplane = MeshFactory::createTriangularPlane(2, 3, 4, 5);
  EXPECT_TRUE(tplane.isTriangular());
  EXPECT_EQ(tplane.numFaces(), 40);

  // A clockwise triangle is re-wound so the prism still faces outward.
  const PolygonalMesh prism = MeshFactory::createPrism({0, 0, 0, 1, 1, 0}, 2.0);
  EXPECT_TRUE(prism.isClosed());
  EXPECT_NEAR(prism.computeVolume(), 1.0, 1e-15);
  EXPECT_NEAR(prism.computeArea(), 1.0 + 2 * (2 + std::sqrt(2.0)), 1e-14);
}

TEST(MeshFactory, RejectsBadArguments) {
  EXPECT_THROW(MeshFactory::createBox(-1, 1, 1), ModelError);
  EXPECT_THROW(MeshFactory::createSphere(1, 2), ModelError);
  EXPECT_THROW(MeshFactory::createTorus(1, 2, 8, 8), ModelError);
}

TEST(PolylineMesh, LengthOfSquareLoop) {
  PolylineMesh loop;
  for (auto [x, y] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) loop.addVertex(x, y, 0);
  loop.addLine({0, 1, 2, 3, 0});
  EXPECT_EQ(loop.numLines(), 1);
  EXPECT_NEAR(loop.computeLength(), 4.0, 1e-15);
  loop.scale(2.5);
  EXPECT_NEAR(loop.computeLength(), 10.0, 1e-15);
  EXPECT_THROW(loop.addLine({0}), ModelError);
  EXPECT_THROW(loop.removeVertex(0), ModelError);
}

TEST(PointMesh, NormalsFollowTransformsAndInvalidateOnPlainAdd) {
  PointMesh pts;
  pts.addVertex(Vector3d(1, 0, 0), Vector3d(1, 1, 0).normalized());
  pts.addVertex(Vector3d(0, 1, 0), Vector3d(0, 0, 1));
  ASSERT_TRUE(pts.hasNormals());
  // Stretching x by 2 tilts the normal of the plane x = y towards y
  // (inverse transpose), keeping it perpendicular to the stretched surface.
  pts.scale(2, 1, 1);
  EXPECT_TRUE(pts.getNormal(0).isApprox(Vector3d(0.5, 1, 0).normalized(), 1e-15));
  EXPECT_TRUE(pts.getVertex(0).isApprox(Vector3d(2, 0, 0)));
  pts.addVertex(0, 0, 1);
  EXPECT_FALSE(pts.hasNormals());
  EXPECT_THROW(pts.setNormals({Vector3d::UnitZ()}), ModelError);
}

namespace sinew {
namespace {

TEST(PolygonalMesh, PointIsInsideByTheWindingNumber) {
  // §6.4.5: a closed box of quads and an icosphere (triangles). The winding
  // number is 1 inside and 0 outside to round-off; near the surface it
  // still decides, and an open mesh (a face removed) degrades gracefully.
  const PolygonalMesh box = MeshFactory::createBox(1.0, 2.0, 0.5, 2, 3, 1);
  EXPECT_NEAR(box.windingNumber(Eigen::Vector3d(0.1, 0.2, 0.1)), 1.0, 1e-12);
  EXPECT_NEAR(box.windingNumber(Eigen::Vector3d(0.7, 0.2, 0.1)), 0.0, 1e-12);
  EXPECT_TRUE(box.pointIsInside(Eigen::Vector3d(0.499, 0.999, 0.249)));
  EXPECT_FALSE(box.pointIsInside(Eigen::Vector3d(0.501, 0.0, 0.0)));
  EXPECT_FALSE(box.pointIsInside(Eigen::Vector3d(0.0, -1.001, 0.0)));
  const PolygonalMesh ball = MeshFactory::createIcosahedralSphere(0.3, 2);
  int disagreements = 0;
  for (int i = -8; i <= 8; ++i)
    for (int j = -8; j <= 8; ++j) {
      // Points on a grid through the sphere, away from its faceted surface.
      const Eigen::Vector3d p(0.04 * i, 0.04 * j, 0.05);
      const double r = p.norm();
      if (std::abs(r - 0.3) < 0.02) continue;
      disagreements += ball.pointIsInside(p) != (r < 0.3);
    }
  EXPECT_EQ(disagreements, 0);
  PolygonalMesh open = box;
  open.removeFace(0);
  EXPECT_FALSE(open.isClosed());
  EXPECT_TRUE(open.pointIsInside(Eigen::Vector3d(0.0, 0.0, 0.0)));
  EXPECT_FALSE(open.pointIsInside(Eigen::Vector3d(3.0, 0.0, 0.0)));
}

}  // namespace
}  // namespace sinew
