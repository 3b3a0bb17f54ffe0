// Embedded meshes and nodal-based attachments (guide §6.3.2, §6.4.5,
// §6.4.8): embedded vertices keep their natural coordinates as the FEM
// deforms and move by the FEM's affine map exactly; nodal weights
// reproduce the point and follow affine motion; the node and element
// queries; bad input gives typed errors.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "NaturalCoordinates.h"
#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FemSurface.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/PointMesh.h"
#include "sinew/geometry/PolylineMesh.h"

namespace sinew {
namespace {

const Matrix3d kA = (Matrix3d() << 1.3, 0.2, -0.1, 0.05, 0.8, 0.15, -0.1, 0.1, 1.1).finished();
const Vector3d kT(0.3, -0.2, 0.1);

void moveNodes(FemModel3d& fem, const std::function<Vector3d(const Vector3d&)>& map) {
  for (auto& n : fem.nodes()) n.setPosition(map(n.getRestPosition()));
  fem.updateSlavePos();
}

TEST(FemEmbedding, VerticesKeepTheirNaturalCoordinatesAsTheFemDeforms) {
  // A quadratic hex grid (curved shape functions) deformed non-affinely:
  // each vertex stays at Σ φ_i(s) x_i with s its natural coordinates in
  // its containing element at rest.
  FemModel3d fem("fem");
  FemFactory::createQuadhexGrid(fem, 1, 1, 1, 2, 2, 2);
  const FemMeshComp& sphere = fem.addMesh("sphere", MeshFactory::createIcosahedralSphere(0.35, 2));
  const MeshBase& mesh = sphere.getMesh();
  const auto natural = femtest::recordNaturalCoordinates(fem, mesh.getVertices());
  moveNodes(fem, [](const Vector3d& x) {
    return Vector3d(x.x() + 0.1 * std::sin(3 * x.y()), x.y() + 0.05 * x.x() * x.z(), x.z() + 0.1 * x.x() * x.x());
  });
  EXPECT_LT(femtest::maxInterpolationError(natural, mesh.getVertices()), 1e-12);
}

TEST(FemEmbedding, AffineMotionOfTheFemMovesEmbeddedMeshesByTheSameMap) {
  // Shape functions reproduce affine fields exactly, inside an element or
  // extrapolated outside it: every vertex of a polygonal, a polyline and a
  // point mesh (one vertex outside the FEM) goes to A v + t, and the
  // sphere's volume scales by det A.
  for (FemElementType type : {FemElementType::Hex, FemElementType::Tet, FemElementType::QuadWedge}) {
    FemModel3d fem("fem");
    FemFactory::createGrid(fem, type, 1, 1, 1, 3, 3, 3);
    auto& sphere = fem.addMesh("sphere", MeshFactory::createOctahedralSphere(0.3, 3));
    PolylineMesh line;
    line.addVertex(-0.4, -0.4, 0.1), line.addVertex(0.2, 0.3, -0.2), line.addVertex(0.45, 0.1, 0.3);
    line.addLine({0, 1, 2});
    auto& lineComp = fem.addMesh("line", line);
    PointMesh points;
    points.addVertex(0.1, 0.2, 0.3), points.addVertex(0.6, 0.0, 0.1);  // the second is outside
    auto& pointComp = fem.addMesh(points);
    const double v0 = static_cast<PolygonalMesh&>(sphere.getMesh()).computeVolume();
    std::vector<std::vector<Vector3d>> before;
    for (auto* c : {&sphere, &lineComp, &pointComp}) before.push_back(c->getMesh().getVertices());
    moveNodes(fem, [](const Vector3d& x) { return Vector3d(kA * x + kT); });
    int k = 0;
    for (auto* c : {&sphere, &lineComp, &pointComp}) {
      double maxErr = 0;
      for (int v = 0; v < c->getMesh().numVertices(); ++v)
        maxErr = std::max(maxErr, (c->getMesh().getVertex(v) - (kA * before[k][v] + kT)).norm());
      EXPECT_LT(maxErr, 1e-12) << c->getName() << " in " << fem.getElement(0).getTypeName();
      ++k;
    }
    EXPECT_NEAR(static_cast<PolygonalMesh&>(sphere.getMesh()).computeVolume(), kA.determinant() * v0, 1e-12);
  }
}

TEST(FemEmbedding, NodalWeightsReproduceThePointAndFollowAffineMotion) {
  test::TestRoot r;
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 1, 1, 1, 4, 4, 4);
  // The nodes of the elements around the centre, and a point off-centre.
  std::vector<FemNode3d*> nodes = fem.findNearestNodes(Vector3d::Zero(), 0.26);
  ASSERT_EQ(nodes.size(), 7u);  // the centre and its six neighbours at 0.25
  const Vector3d pos(0.05, -0.08, 0.11);
  auto& p = r.mech.addParticle("p", 1.0, pos.x(), pos.y(), pos.z());
  auto ax = std::make_unique<PointFem3dAttachment>(p);
  ASSERT_TRUE(ax->setFromNodes(pos, nodes));
  double sum = 0;
  Vector3d x = Vector3d::Zero();
  for (size_t k = 0; k < nodes.size(); ++k) sum += ax->getWeights()[k], x += ax->getWeights()[k] * nodes[k]->getPosition();
  EXPECT_NEAR(sum, 1.0, 1e-14);
  EXPECT_LT((x - pos).norm(), 1e-14);
  auto& attached = r.mech.addAttachment(std::move(ax));
  moveNodes(fem, [](const Vector3d& y) { return Vector3d(kA * y + kT); });
  attached.updatePosStates();
  EXPECT_LT((p.getPosition() - (kA * pos + kT)).norm(), 1e-14);
}

TEST(FemEmbedding, NodalWeightsAreUniformForAPointAtTheCentreOfACube) {
  // All eight corners at the same distance: α_k = ½ each, and the smallest
  // correction to Σ α = 1 keeps them equal, 1/8.
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 1, 1, 1);
  std::vector<FemNode3d*> nodes;
  for (auto& n : fem.nodes()) nodes.push_back(&n);
  std::vector<double> w;
  ASSERT_TRUE(computeNodalWeights(Vector3d::Zero(), nodes, w));
  for (double wk : w) EXPECT_NEAR(wk, 0.125, 1e-15);
}

TEST(FemEmbedding, NodalWeightsFailWhenTheNodesGiveTooLittleSupport) {
  FemModel3d fem("fem");
  auto& a = fem.addNode(Vector3d(0, 0, 0));
  auto& b = fem.addNode(Vector3d(1, 0, 0));
  std::vector<double> w;
  EXPECT_FALSE(computeNodalWeights(Vector3d(0.5, 0.2, 0), {&a, &b}, w));  // off their line
  EXPECT_TRUE(computeNodalWeights(Vector3d(0.3, 0, 0), {&a, &b}, w));    // on it: 0.7, 0.3
  EXPECT_NEAR(w[0], 0.7, 1e-14);
  EXPECT_NEAR(w[1], 0.3, 1e-14);
  EXPECT_FALSE(computeNodalWeights(Vector3d::Zero(), {}, w));
  Particle p("p", 1, 0, 0, 0);
  PointFem3dAttachment ax(p);
  EXPECT_FALSE(ax.setFromNodes(Vector3d(0.5, 0.2, 0), {&a, &b}));
  EXPECT_TRUE(ax.getNodes().empty());  // unchanged
  EXPECT_THROW(ax.connect(), ModelError);  // no nodes yet
  EXPECT_THROW(ax.setFromNodes({&a, &b}, {0.5, 0.6}), ModelError);
}

TEST(FemEmbedding, NodeAndElementQueries) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 4, 4, 4);
  EXPECT_EQ(fem.findNearestNode(Vector3d(0.26, 0, 0), 0.02), fem.findNearestNode(Vector3d(0.25, 0, 0)));
  EXPECT_EQ(fem.findNearestNode(Vector3d(0.125, 0, 0), 0.1), nullptr);  // halfway: 0.125 from both
  EXPECT_EQ(fem.findNearestNodes(Vector3d(0.5, 0.5, 0.5), 0.3).size(), 4u);  // the corner and 3 neighbours
  Vector3d near;
  // Outside the box: the nearest point is on its face x = 0.5.
  FemElement3d* e = fem.findNearestVolumetricElement(&near, Vector3d(0.8, 0.1, -0.05));
  EXPECT_EQ(fem.findNearestElement(nullptr, Vector3d(0.8, 0.1, -0.05)), e);  // no shells: the same
  ASSERT_NE(e, nullptr);
  EXPECT_LT((near - Vector3d(0.5, 0.1, -0.05)).norm(), 1e-14);
  EXPECT_TRUE(elementContains(*e, near));
  // Inside: the element contains the point, which is its own nearest point.
  e = fem.findNearestVolumetricElement(&near, Vector3d(0.1, 0.2, 0.3));
  EXPECT_EQ(near, Vector3d(0.1, 0.2, 0.3));
  EXPECT_EQ(fem.findNearestElement(nullptr, Vector3d(0.1, 0.2, 0.3)), e);
  EXPECT_TRUE(elementContains(*e, near));
  // The nearest surface element of an inside point is on the nearest face.
  e = dynamic_cast<FemElement3d*>(fem.findNearestSurfaceElement(&near, Vector3d(0.1, 0.2, 0.4)));
  ASSERT_NE(e, nullptr);
  EXPECT_LT((near - Vector3d(0.1, 0.2, 0.5)).norm(), 1e-14);
  EXPECT_TRUE(elementContains(*e, Vector3d(0.1, 0.2, 0.45)));
  // With a filter keeping y ≥ 0, a point at y < 0 is nearest the cut face.
  struct PositiveY : ElementFilter {
    bool elementIsValid(const FemElement3dBase& el) const override { return el.computeCentroid().y() > 0; }
  };
  PositiveY filter;
  e = fem.findNearestVolumetricElement(&near, Vector3d(0.1, -0.2, 0.3), &filter);
  EXPECT_LT((near - Vector3d(0.1, 0, 0.3)).norm(), 1e-14);
  EXPECT_TRUE(filter.elementIsValid(*e));
}

TEST(FemEmbedding, BadInputGivesModelErrors) {
  FemModel3d empty("empty");
  try {
    empty.addMesh("m", MeshFactory::createOctahedralSphere(0.1, 0));
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("/meshes/m"), std::string::npos) << e.what();
  }
  EXPECT_EQ(empty.getMeshComps().size(), 1);  // only the surface; the failed mesh is gone
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1, 1, 1, 1, 1, 1);
  EXPECT_THROW(fem.addMesh(std::shared_ptr<MeshBase>()), ModelError);
  PointMesh bad;
  bad.addVertex(Vector3d(NAN, 0, 0));
  EXPECT_THROW(fem.addMesh(bad), ModelError);
  // A mesh vertex on a node that is then removed: the next update names
  // the mesh instead of reading a freed node.
  FemNode3d& loose = fem.addNode(Vector3d(2, 0, 0));
  PointMesh pm;
  pm.addVertex(Vector3d(2, 0, 0));
  FemMeshComp& comp = fem.addMesh("onLoose", pm);
  EXPECT_EQ(comp.getVertexNode(0), &loose);
  fem.nodes().remove(loose);
  try {
    fem.updateSlavePos();
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("onLoose"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sinew
