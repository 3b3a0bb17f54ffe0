// FEM point attachments and markers (guide §6.4.3, §6.5): natural
// coordinates, and a point mass hung from an FEM bar by an element
// attachment.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"

namespace sinew {
namespace {

TEST(FemAttachment, NaturalCoordinatesInvertTheElementMap) {
  // A distorted element of each linear type: the point at natural
  // coordinates s maps back to s, and a far point is reported outside.
  FemModel3d fem("fem");
  for (int numNodes : {4, 5, 6, 8, 10, 20}) {
    const ReferenceElement& type = ReferenceElement::forNumNodes(numNodes);
    std::vector<FemNode3d*> nodes;
    for (const Vector3d& s : type.getNodeCoords()) {
      const Vector3d x(1.2 * s.x() + 0.1 * s.y(), s.y() + 0.05 * s.z() * s.z(), 0.8 * s.z() + 0.1 * s.x() * s.y());
      nodes.push_back(&fem.addNode(x + Vector3d(3.0 * numNodes, 0, 0)));
    }
    FemElement3d& e = fem.addElement(nodes);
    const Vector3d s0 = type.getDomain() == ReferenceElement::Domain::Cube ? Vector3d(0.3, -0.2, 0.1)
                                                                          : Vector3d(0.2, 0.3, 0.1);
    ReferenceElement::ShapeValues N;
    ReferenceElement::ShapeGradients dNds;
    type.computeShape(s0, N, dNds);
    Vector3d p = Vector3d::Zero();
    for (int i = 0; i < numNodes; ++i) p += N[i] * nodes[i]->getPosition();
    Vector3d s;
    EXPECT_TRUE(computeNaturalCoordinates(e, p, s)) << type.getName();
    EXPECT_LT((s - s0).norm(), 1e-10) << type.getName();
    EXPECT_FALSE(computeNaturalCoordinates(e, p + Vector3d(0, 0, 5), s)) << type.getName();
    EXPECT_EQ(fem.findContainingElement(p), &e) << type.getName();
  }
}

TEST(FemAttachment, PointMassHangsFromTheBarItIsAttachedTo) {
  // A 1 m bar (ν = 0) hanging from its fixed top, with a 2 kg particle
  // attached at the centre of its bottom face by an element attachment:
  // the bar stretches by ρ g (L s − s²/2)/E + m g s/(E A) at depth s, the
  // particle's weight spread evenly over the bottom nodes. A marker at a
  // node level inside the bar moves with the bar.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
  const double L = 1, E = 1e5, rho = 1000, g = 9.8, A = 0.01, m = 2;
  FemFactory::createHexGrid(fem, 0.1, 0.1, L, 1, 1, 10);
  fem.setDensity(rho);
  fem.setMaterial(LinearMaterial(E, 0.0, false));
  for (auto& n : fem.nodes())
    if (n.getRestPosition().z() > L / 2 - 1e-12) n.setDynamic(false);
  auto& mass = r.mech.addParticle("mass", m, 0, 0, -L / 2);
  r.mech.addAttachment(fem.createPointAttachment(mass));
  FemMarker& marker = fem.addMarker(Vector3d(0.02, -0.01, 0.1), "marker");
  r.root->initialize(0);
  r.mech.solveStatic();
  auto u = [&](double s) { return rho * g * (L * s - s * s / 2) / E + m * g * s / (E * A); };
  for (auto& n : fem.nodes()) {
    const double s = L / 2 - n.getRestPosition().z();
    EXPECT_NEAR(n.getPosition().z() - n.getRestPosition().z(), -u(s), 1e-9 * u(L));
  }
  EXPECT_NEAR(mass.getPosition().z(), -L / 2 - u(L), 1e-9 * u(L));
  EXPECT_NEAR(marker.getPosition().z(), 0.1 - u(0.4), 1e-9 * u(L));
  EXPECT_EQ(fem.markers().size(), 1);
}

}  // namespace
}  // namespace sinew
