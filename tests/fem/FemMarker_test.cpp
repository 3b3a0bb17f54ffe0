// FEM markers and point attachments by the guide's setters (§6.4.3, §6.5):
// each kind of attachment reproduces its point and moves with an affine
// motion of the model; points outside attach at the nearest surface point;
// a force on a marker reaches the nodes with its resultant and moment.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"

namespace sinew {
namespace {

/// Σ w_k x_k of an attachment.
Vector3d weightedSum(const PointFem3dAttachment& a) {
  Vector3d p = Vector3d::Zero();
  for (size_t k = 0; k < a.getNodes().size(); ++k) p += a.getWeights()[k] * a.getNodes()[k]->getPosition();
  return p;
}

/// Moves every node of fem by x → A x + t and returns the map.
void moveAffinely(FemModel3d& fem, const Matrix3d& A, const Vector3d& t) {
  for (auto& n : fem.nodes()) n.setPosition(A * n.getPosition() + t);
}

const Matrix3d kA = (Matrix3d() << 1.2, 0.1, -0.05, 0.02, 0.9, 0.1, -0.1, 0.05, 1.1).finished();
const Vector3d kT(0.3, -0.2, 0.1);

TEST(FemMarker, EverySetterReproducesThePointAndFollowsAffineMotion) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1.0, 1.0, 1.0, 2, 2, 2);
  const Vector3d p(0.1, -0.2, 0.15);
  std::vector<FemNode3d*> nodes;
  for (auto* n : fem.getElement(7).getNodes()) nodes.push_back(n);  // the (+,+,+) octant
  for (auto* n : fem.getElement(0).getNodes()) nodes.push_back(n);  // the (−,−,−) octant

  auto& byFem = fem.addMarker(std::make_unique<FemMarker>("byFem", p));
  auto& byElem = fem.addMarker(std::make_unique<FemMarker>("byElem", p), *fem.findContainingElement(p));
  auto& byWeights = fem.addMarker(std::make_unique<FemMarker>("byWeights", Vector3d::Zero()),
                                  fem.getElement(7).getNodes(), std::vector<double>(8, 0.125));
  ASSERT_TRUE(fem.addMarker(std::make_unique<FemMarker>("byNodes", p), nodes));
  auto& byNodes = *fem.markers().get("byNodes");
  auto& byXYZ = fem.addMarker(std::make_unique<FemMarker>(0.2, 0.3, -0.1));

  const Vector3d centre7 = fem.getElement(7).computeCentroid();
  struct Case {
    FemMarker* m;
    Vector3d at;
  };
  for (const Case& c : {Case{&byFem, p}, Case{&byElem, p}, Case{&byWeights, centre7}, Case{&byNodes, p},
                        Case{&byXYZ, Vector3d(0.2, 0.3, -0.1)}}) {
    ASSERT_NE(c.m->getAttachment(), nullptr) << c.m->getName();
    EXPECT_LT((weightedSum(*c.m->getAttachment()) - c.at).norm(), 1e-14) << c.m->getName();
  }
  moveAffinely(fem, kA, kT);
  for (const Case& c : {Case{&byFem, p}, Case{&byElem, p}, Case{&byWeights, centre7}, Case{&byNodes, p},
                        Case{&byXYZ, Vector3d(0.2, 0.3, -0.1)}})
    EXPECT_LT((weightedSum(*c.m->getAttachment()) - (kA * c.at + kT)).norm(), 1e-14) << c.m->getName();
  EXPECT_EQ(fem.markers().size(), 5);
}

TEST(FemMarker, PointsOutsideAttachAtTheNearestSurfacePoint) {
  // Outside the unit cube, nearest to its x = +0.5 face: the attachment is
  // at the projection (0.5, 0.1, −0.2), and the point is moved there.
  test::TestRoot r;
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  FemFactory::createHexGrid(fem, 1.0, 1.0, 1.0, 2, 2, 2);
  auto& q = r.mech.addParticle("q", 1.0, 0.8, 0.1, -0.2);
  auto& a = dynamic_cast<PointFem3dAttachment&>(r.mech.attachPoint(q, fem));
  const Vector3d onFace(0.5, 0.1, -0.2);
  EXPECT_LT((q.getPosition() - onFace).norm(), 1e-14);
  EXPECT_LT((weightedSum(a) - onFace).norm(), 1e-14);
  for (double w : a.getWeights()) EXPECT_GE(w, -1e-14);  // interpolation, not extrapolation
  // A marker outside beyond an edge goes to the nearest point of the edge.
  auto& m = fem.addMarker(Vector3d(0.9, 0.9, 0.0));
  EXPECT_LT((m.getPosition() - Vector3d(0.5, 0.5, 0.0)).norm(), 1e-14);
  moveAffinely(fem, kA, kT);
  EXPECT_LT((weightedSum(a) - (kA * onFace + kT)).norm(), 1e-14);
  // attachPoint(p, element) keeps the element it is given.
  auto& e = fem.getElement(3);
  auto& s = r.mech.addParticle("s", 1.0, 0, 0, 0);
  s.setPosition(e.computeCentroid());
  auto& ae = dynamic_cast<PointFem3dAttachment&>(r.mech.attachPoint(s, e));
  EXPECT_EQ(ae.getNodes(), e.getNodes());
}

TEST(FemMarker, ForceOnAMarkerKeepsItsResultantAndMomentOnTheNodes) {
  // f_k = α_k f (eq. 6.4): Σ f_k = f and Σ x_k × f_k = p × f, for an
  // element-based and a nodal-based marker at the same point of a
  // distorted model.
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1.0, 0.6, 0.4, 3, 2, 2);
  moveAffinely(fem, kA, kT);
  const Vector3d p = kA * Vector3d(0.12, 0.05, -0.07) + kT, f(3.0, -1.0, 2.0);
  auto& byElem = fem.addMarker(p, "byElem");
  std::vector<FemNode3d*> nodes;
  for (auto& n : fem.nodes())
    if ((n.getPosition() - p).norm() < 0.45) nodes.push_back(&n);
  ASSERT_TRUE(fem.addMarker(std::make_unique<FemMarker>("byNodes", p), nodes));
  for (FemMarker* m : {&byElem, fem.markers().get("byNodes")}) {
    const PointFem3dAttachment& a = *m->getAttachment();
    Vector3d F = Vector3d::Zero(), M = Vector3d::Zero();
    Block J;
    for (int k = 0; k < a.numMasters(); ++k) {
      a.getMasterJacobian(k, J);
      const Vector3d fk = J.transpose() * f;
      F += fk;
      M += a.getNodes()[k]->getPosition().cross(fk);
    }
    EXPECT_LT((F - f).norm(), 1e-13) << m->getName();
    EXPECT_LT((M - p.cross(f)).norm(), 1e-13) << m->getName();
  }
}

TEST(FemMarker, BadSettersAreModelErrorsNamingTheMarker) {
  FemModel3d fem("fem");
  FemFactory::createHexGrid(fem, 1.0, 1.0, 1.0, 1, 1, 1);
  auto& m = fem.addMarker(Vector3d(0.1, 0.1, 0.1), "m");
  const PointFem3dAttachment* before = m.getAttachment();
  std::vector<FemNode3d*> nodes = fem.getElement(0).getNodes();
  auto expectError = [&](auto&& call) {
    try {
      call();
      FAIL() << "expected ModelError";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find("markers/m"), std::string::npos) << e.what();
    }
  };
  expectError([&] { m.setFromNodes(nodes, std::vector<double>(8, 0.1)); });  // sums to 0.8
  expectError([&] { m.setFromNodes({}, {}); });
  expectError([&] { m.setFromNodes(nodes, std::vector<double>(3, 1.0 / 3)); });
  EXPECT_EQ(m.getAttachment(), before);  // a failed setter leaves the marker as it was
  // Four coplanar nodes cannot reproduce a point off their plane.
  std::vector<FemNode3d*> face;
  for (auto* n : nodes)
    if (n->getPosition().z() < 0) face.push_back(n);
  ASSERT_EQ(face.size(), 4u);
  EXPECT_FALSE(m.setFromNodes(face));
  EXPECT_EQ(m.getAttachment(), before);
  // Adding with such nodes still adds the marker, attached where it is.
  EXPECT_FALSE(fem.addMarker(std::make_unique<FemMarker>("m2", Vector3d(0.1, 0.2, 0.3)), face));
  const FemMarker& m2 = *fem.markers().get("m2");
  ASSERT_NE(m2.getAttachment(), nullptr);
  EXPECT_LT((weightedSum(*m2.getAttachment()) - Vector3d(0.1, 0.2, 0.3)).norm(), 1e-14);
  // A model without elements has nowhere to attach.
  FemModel3d empty("empty");
  EXPECT_THROW(empty.addMarker(Vector3d::Zero()), ModelError);
}

}  // namespace
}  // namespace sinew
