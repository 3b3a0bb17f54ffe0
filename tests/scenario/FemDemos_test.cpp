// The FEM demos (guide §6.2.5): FemBeam's mass, fixed end and symmetric sag.
#include <gtest/gtest.h>

#include "demos/Demos.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/mech/MechModel.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {
namespace {

TEST(FemDemos, FemBeamSagsSymmetricallyFromItsFixedEnd) {
  auto root = demos::createDemo("FemBeam");
  auto& mech = static_cast<MechModel&>(root->models().get(0));
  auto& fem = static_cast<FemModel3d&>(mech.models().get(0));
  EXPECT_NEAR(fem.getMass(), 10 * 1.0 * 0.3 * 0.3, 1e-12);  // density × volume
  root->setMaxStepSize(0.01);
  root->initialize(0);
  root->run(1.0);
  double tipSag = 0;
  for (auto& n : fem.nodes()) {
    const Vector3d r = n.getRestPosition(), x = n.getPosition();
    if (!n.isDynamic()) EXPECT_EQ(x, r);  // the fixed left end
    if (r.x() > 0.5 - 1e-12) tipSag = std::max(tipSag, r.z() - x.z());
    // Mirror symmetry about the y = 0 plane: geometry, loads and supports
    // are symmetric, so the node at −y mirrors the node at +y.
    for (auto& m : fem.nodes()) {
      const Vector3d rm = m.getRestPosition();
      if ((rm - Vector3d(r.x(), -r.y(), r.z())).norm() > 1e-12) continue;
      const Vector3d xm = m.getPosition();
      EXPECT_NEAR(xm.x(), x.x(), 1e-9);
      EXPECT_NEAR(xm.y(), -x.y(), 1e-9);
      EXPECT_NEAR(xm.z(), x.z(), 1e-9);
    }
  }
  EXPECT_GT(tipSag, 0.0);  // the free end falls
}

TEST(FemDemos, FemBeamWithBlockCarriesTheBlockRigidly) {
  // The end nodes follow the block exactly: each keeps its body-frame
  // location (attachment error < 1e-9) while the block swings down.
  auto root = demos::createDemo("FemBeamWithBlock");
  auto& mech = static_cast<MechModel&>(root->models().get(0));
  auto& fem = static_cast<FemModel3d&>(mech.models().get(0));
  RigidBody& block = *mech.rigidBodies().get("block");
  std::vector<std::pair<FemNode3d*, Vector3d>> attached;
  for (auto& n : fem.nodes())
    if (n.isAttached()) attached.emplace_back(&n, block.getPose().inverseTransformPoint(n.getPosition()));
  ASSERT_EQ(attached.size(), 16u);  // the 4 × 4 nodes of the end face
  const Vector3d start = block.getPosition();
  root->setMaxStepSize(0.01);
  root->initialize(0);
  root->run(1.0);
  for (auto& [n, loc] : attached) EXPECT_LT((n->getPosition() - block.getPose().transformPoint(loc)).norm(), 1e-9);
  EXPECT_LT(block.getPosition().z(), start.z() - 0.01);  // the block has fallen
}

}  // namespace
}  // namespace sinew
