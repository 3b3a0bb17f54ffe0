// The LumbarFrameSpring demo (guide §3.5.4): after the 90° turn about x
// the spine stands along z and gravity (0, 0, −1) pulls lumbar1 straight
// down its spring. It sags by m g / k_t, stays bounded on the way and comes
// to rest with the spring wrench balancing its weight.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

struct Lumbar {
  std::unique_ptr<RootModel> root = demos::createDemo("LumbarFrameSpring");
  MechModel& mech = *root->findComponent<MechModel>("models/mech");
  RigidBody& lumbar1 = *root->findComponent<RigidBody>("models/mech/rigidBodies/lumbar1");
  RigidBody& lumbar2 = *root->findComponent<RigidBody>("models/mech/rigidBodies/lumbar2");
  FrameSpring& spring = *root->findComponent<FrameSpring>("models/mech/frameSprings/0");
};

TEST(LumbarFrameSpring, TheModelIsTurnedAboutX) {
  Lumbar d;
  // (−0.016, 0.039, 0) turned 90° about x: lumbar1 sits 0.039 above lumbar2.
  EXPECT_LT((d.lumbar1.getPosition() - Vector3d(-0.016, 0, 0.039)).norm(), 1e-15);
  EXPECT_LT((d.lumbar2.getRotation() * Vector3d::UnitY() - Vector3d::UnitZ()).norm(), 1e-15);
  EXPECT_FALSE(d.lumbar2.isDynamic());
  EXPECT_EQ(d.mech.getGravity(), Vector3d(0, 0, -1));
  auto* mat = dynamic_cast<LinearFrameMaterial*>(d.spring.getMaterial());
  ASSERT_TRUE(mat);
  EXPECT_EQ(mat->getStiffness(), Vector3d::Constant(100));
  EXPECT_EQ(mat->getRotaryStiffness(), Vector3d::Constant(0.01));
  const RigidTransform3d TDC = d.spring.getCurrentTDC();
  EXPECT_LT(TDC.p.norm() + (TDC.R - Matrix3d::Identity()).norm(), 1e-15) << "no initial displacement";
}

TEST(LumbarFrameSpring, Lumbar1SagsByItsWeightOverTheStiffnessAndStops) {
  Lumbar d;
  const double m = d.lumbar1.getMass(), kt = 100, sag = m * 1.0 / kt;
  ASSERT_GT(m, 0.02);
  ASSERT_LT(m, 0.2) << "a vertebra-sized bone";
  const Vector3d p0 = d.lumbar1.getPosition();
  const RigidTransform3d T2 = d.lumbar2.getPose();
  d.root->initialize(0);
  double maxDisp = 0;
  d.root->run(2.0, [&](double) { maxDisp = std::max(maxDisp, (d.lumbar1.getPosition() - p0).norm()); });

  // Bounded: an undamped step response overshoots to twice the static sag.
  EXPECT_LT(maxDisp, 2 * sag);
  EXPECT_GT(maxDisp, sag) << "it sags under gravity";
  // Settled: C has sunk by m g / k_t along −z (exact for an isotropic k_t,
  // whatever the small tilt), and the body is at rest.
  EXPECT_LT((d.lumbar1.getPosition() - p0 - Vector3d(0, 0, -sag)).norm(), 1e-3 * sag);
  EXPECT_LT(d.lumbar1.getVelocity().norm(), 1e-4);
  EXPECT_EQ(d.lumbar2.getPose().p, T2.p) << "lumbar2 is fixed";
  // The spring wrench balances the weight acting at the centre of mass.
  const RigidTransform3d TCW = d.spring.getCurrentTCW();
  const Wrench w = d.spring.getSpringForce();
  const Vector3d weight(0, 0, -m), com = d.lumbar1.getPose().transformPoint(d.lumbar1.getCenterOfMass());
  EXPECT_LT((TCW.R * w.head<3>() + weight).norm(), 1e-4 * m);
  EXPECT_LT((TCW.R * w.tail<3>() + (com - TCW.p).cross(weight)).norm(), 1e-4 * m * 0.01);
  // "Slightly": the weight off the spring's axis tilts lumbar1 by about a degree.
  EXPECT_LT(AxisAngle(d.spring.getCurrentTDC().R).angle, 0.05);
}

}  // namespace
}  // namespace sinew
