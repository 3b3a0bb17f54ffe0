// FEM geometry (guide §6.3, §6.4.9): the generated surface mesh of every
// element type is closed, manifold and outward (its enclosed volume is the
// FEM's, at rest and deformed), has the closed-form counts of a hex grid,
// is rebuilt when elements change or a filter selects them, and follows the
// nodes through steps and state restores.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "FemTestUtil.h"
#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FemSurface.h"
#include "sinew/fem/LinearMaterial.h"

namespace sinew {
namespace {

/// Number of distinct undirected edges of a mesh.
int countEdges(const PolygonalMesh& m) {
  std::set<std::pair<int, int>> edges;
  for (const auto& f : m.getFaces())
    for (size_t k = 0; k < f.size(); ++k) {
      int a = f[k], b = f[(k + 1) % f.size()];
      edges.emplace(std::min(a, b), std::max(a, b));
    }
  return static_cast<int>(edges.size());
}

/// Moves every node to A x_rest + t (the rest positions stay).
void deformAffinely(FemModel3d& fem, const Matrix3d& A, const Vector3d& t) {
  for (auto& n : fem.nodes()) n.setPosition(A * n.getRestPosition() + t);
  fem.updateSlavePos();
}

const Matrix3d kStretch = (Matrix3d() << 1.3, 0.2, -0.1, 0.05, 0.8, 0.15, -0.1, 0.1, 1.1).finished();

TEST(FemGeometry, SurfaceOfEveryGridTypeIsClosedManifoldAndOutward) {
  const double wx = 1.0, wy = 0.6, wz = 0.4;
  for (FemElementType type : femtest::allElementTypes()) {
    FemModel3d fem("fem");
    FemFactory::createGrid(fem, type, wx, wy, wz, 3, 2, 2);
    const PolygonalMesh& s = fem.getSurfaceMesh();
    const std::string name = fem.getElement(0).getTypeName();
    EXPECT_TRUE(s.isTriangular()) << name;
    // Every edge in two faces, once each way; a sphere's Euler characteristic.
    EXPECT_TRUE(s.isClosed()) << name;
    EXPECT_EQ(s.numVertices() - countEdges(s) + s.numFaces(), 2) << name;
    // Outward normals: the enclosed volume is the box's, positive.
    EXPECT_NEAR(s.computeVolume(), wx * wy * wz, 1e-12) << name;
    // The surface nodes are exactly the nodes on the box's faces.
    for (auto& n : fem.nodes()) {
      const Vector3d r = n.getRestPosition();
      const bool onBox = std::abs(std::abs(r.x()) - wx / 2) < 1e-12 || std::abs(std::abs(r.y()) - wy / 2) < 1e-12 ||
                         std::abs(std::abs(r.z()) - wz / 2) < 1e-12;
      EXPECT_EQ(fem.isSurfaceNode(n), onBox) << name << " node at " << r.transpose();
    }
    // An affine deformation keeps faces flat: volumes agree to round-off
    // and scale by det A.
    deformAffinely(fem, kStretch, Vector3d(0.3, -0.2, 0.1));
    EXPECT_NEAR(s.computeVolume(), fem.computeVolume(), 1e-12) << name;
    EXPECT_NEAR(s.computeVolume(), kStretch.determinant() * wx * wy * wz, 1e-12) << name;
  }
}

TEST(FemGeometry, TetSurfaceEnclosesTheFemVolumeUnderAnyDeformation) {
  // Linear tetrahedra have flat faces however the nodes move, so the
  // surface's volume equals the sum of element volumes exactly.
  FemModel3d fem("fem");
  FemFactory::createTetGrid(fem, 1, 1, 1, 3, 3, 3);
  femtest::Noise noise(7);
  for (auto& n : fem.nodes()) n.setPosition(n.getRestPosition() + 0.04 * noise.vec());
  fem.updateSlavePos();
  EXPECT_NEAR(fem.getSurfaceMesh().computeVolume(), fem.computeVolume(), 1e-13);
  EXPECT_GT(std::abs(fem.computeVolume() - 1), 1e-4);  // the jitter did change the volume
}

TEST(FemGeometry, HexGridSurfaceHasClosedFormCounts) {
  const int nx = 4, ny = 3, nz = 2;
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, nx, ny, nz);
  const PolygonalMesh& s = fem.getSurfaceMesh();
  EXPECT_EQ(s.numVertices(), (nx + 1) * (ny + 1) * (nz + 1) - (nx - 1) * (ny - 1) * (nz - 1));
  EXPECT_EQ(s.numFaces(), 2 * 2 * (nx * ny + ny * nz + nz * nx));  // two triangles per exposed quad
  EXPECT_EQ(fem.getMeshComps().get("surface"), &fem.getSurfaceMeshComp());
}

TEST(FemGeometry, QuadraticFacesUseCornerAndMidSideNodes) {
  // A quadratic hex face (8 nodes) gives 6 triangles, a quadratic tet face
  // (6 nodes) 4; every triangle vertex is one of the face's nodes.
  const ReferenceElement& qhex = ReferenceElement::get(FemElementType::QuadHex);
  const ReferenceElement& qtet = ReferenceElement::get(FemElementType::QuadTet);
  ASSERT_EQ(getElementFaces(qhex).size(), 6u);
  ASSERT_EQ(getElementFaces(qtet).size(), 4u);
  std::vector<std::array<int, 3>> tris;
  triangulateElementFace(qhex, getElementFaces(qhex)[0], tris);
  EXPECT_EQ(tris.size(), 6u);
  tris.clear();
  triangulateElementFace(qtet, getElementFaces(qtet)[0], tris);
  EXPECT_EQ(tris.size(), 4u);
  EXPECT_EQ(getElementFaces(ReferenceElement::get(FemElementType::Pyramid)).size(), 5u);
  EXPECT_EQ(getElementFaces(ReferenceElement::get(FemElementType::QuadWedge)).size(), 5u);
}

TEST(FemGeometry, SurfaceIsRebuiltWhenElementsChange) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 2, 2, 2);
  EXPECT_NEAR(fem.getSurfaceMesh().computeVolume(), 1.0, 1e-12);
  // Remove the corner element at (+,+,+): the surface gains its three
  // inner faces and stays closed; the corner node leaves the surface.
  FemElement3d* corner = fem.findContainingElement(Vector3d(0.25, 0.25, 0.25));
  ASSERT_NE(corner, nullptr);
  fem.elements().remove(*corner);
  const PolygonalMesh& s = fem.getSurfaceMesh();
  EXPECT_TRUE(s.isClosed());
  EXPECT_NEAR(s.computeVolume(), 7.0 / 8.0, 1e-12);
  EXPECT_FALSE(fem.isSurfaceNode(*fem.findNearestNode(Vector3d(0.5, 0.5, 0.5))));
  EXPECT_TRUE(fem.isSurfaceNode(*fem.findNearestNode(Vector3d(0, 0, 0))));  // now exposed
}

struct PositiveYFilter : ElementFilter {
  bool elementIsValid(const FemElement3dBase& e) const override {
    for (auto* n : e.getNodes())
      if (n->getPosition().y() < 0) return false;
    return true;
  }
};

TEST(FemGeometry, CreateSurfaceMeshKeepsOnlyFilteredElements) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 4, 4, 4);
  const FemMeshComp& s = fem.createSurfaceMesh(PositiveYFilter());
  const auto& mesh = static_cast<const PolygonalMesh&>(s.getMesh());
  EXPECT_TRUE(mesh.isClosed());
  EXPECT_NEAR(mesh.computeVolume(), 0.5, 1e-12);  // the y ≥ 0 half
  for (const Vector3d& v : mesh.getVertices()) EXPECT_GE(v.y(), -1e-15);
  // The cut face at y = 0 is now surface.
  EXPECT_TRUE(fem.isSurfaceNode(*fem.findNearestNode(Vector3d(0, 0, 0))));
}

TEST(FemGeometry, SurfaceFollowsTheNodesThroughStepsAndRestores) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 1, 0.2, 0.2, 5, 1, 1);
  fem.setMaterial(LinearMaterial(1e4, 0.3));
  for (auto& n : fem.nodes())
    if (n.getRestPosition().x() < -0.5 + 1e-12) n.setDynamic(false);
  const FemMeshComp& s = fem.getSurfaceMeshComp();
  auto verticesOnNodes = [&] {
    for (int v = 0; v < s.getMesh().numVertices(); ++v)
      if (s.getMesh().getVertex(v) != s.getVertexNode(v)->getPosition()) return false;
    return true;
  };
  r.root->setMaxStepSize(0.01);
  r.root->initialize(0);
  Eigen::VectorXd saved;
  r.mech.getState(saved);
  const std::vector<Vector3d> restVertices = s.getMesh().getVertices();
  r.root->run(0.2);
  EXPECT_TRUE(verticesOnNodes());
  EXPECT_LT(fem.getSurfaceMesh().computeBounds().min().z(), -0.1 - 1e-3);  // the tip has sagged
  r.mech.setState(saved);
  EXPECT_TRUE(verticesOnNodes());
  EXPECT_EQ(s.getMesh().getVertices(), restVertices);
}

}  // namespace
}  // namespace sinew
