// The joint demos (guide §3.4, §4.9.5) show what each joint promises: the
// custom joint moves exactly as the built-in slotted hinge, limits hold,
// a unilateral connector only pushes.
#include <gtest/gtest.h>

#include <cmath>

#include "demos/Demos.h"
#include "sinew/joints/JointBase.h"
#include "sinew/joints/PlanarConnector.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/joints/UniversalJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

struct DemoRun {
  std::unique_ptr<RootModel> root;
  JointBase* joint;
  RigidBody* link;
  DemoRun(const std::string& name, const std::vector<std::string>& args = {}) {
    demos::registerDemos();
    root = demos::createDemo(name, args);
    joint = root->findComponent<JointBase>("models/mech/bodyConnectors/joint");
    link = root->findComponent<RigidBody>("models/mech/rigidBodies/link");
    if (!joint || !link) throw ModelError(name + " has no joint or link");
    root->setMaxStepSize(1e-3);
    root->initialize(0);
  }
};

TEST(JointDemos, CustomJointMovesAsTheSlottedHinge) {
  // §4.9.5: CustomJoint is the slotted hinge written by a user; the two
  // demos share their setting, so their motions agree to round-off.
  DemoRun custom("CustomJointDemo"), slotted("SlottedHingeJointDemo");
  double maxDiff = 0, minX = 1e9, maxX = -1e9;
  for (int k = 1; k <= 200; ++k) {
    custom.root->run(0.01 * k);
    slotted.root->run(0.01 * k);
    maxDiff = std::max(maxDiff, (custom.joint->getCoordinates() - slotted.joint->getCoordinates()).norm());
    minX = std::min(minX, custom.joint->getCoordinate(0));
    maxX = std::max(maxX, custom.joint->getCoordinate(0));
  }
  EXPECT_LT(maxDiff, 1e-9);
  EXPECT_GT(maxX - minX, 0.05);  // it did slide
  EXPECT_GT(minX, -0.1 - 1e-6);  // within its slot range
  EXPECT_LT(maxX, 0.3 + 1e-6);
}

TEST(JointDemos, SphericalTiltLimitHolds) {
  DemoRun d("SphericalJointDemo");
  auto& j = static_cast<SphericalJoint&>(*d.joint);
  double maxTilt = 0;
  d.root->addMonitor("tilt", [&](double, double) { maxTilt = std::max(maxTilt, j.getTilt()); });
  d.root->run(2.0);
  EXPECT_LT(maxTilt, 60 + 1e-3);
  EXPECT_GT(maxTilt, 59.9);  // gravity carries the link to the limit
}

TEST(JointDemos, SphericalRotationLimitHolds) {
  DemoRun d("SphericalJointDemo");
  auto& j = static_cast<SphericalJoint&>(*d.joint);
  j.setMaxRotation(40);
  EXPECT_TRUE(j.isRotationLimited());
  EXPECT_FALSE(j.isTiltLimited());
  double maxAngle = 0;
  d.root->addMonitor("rot", [&](double, double) {
    maxAngle = std::max(maxAngle, AxisAngle(j.getCurrentTCD().R).angle * 180 / M_PI);
  });
  d.root->run(2.0);
  EXPECT_LT(maxAngle, 40 + 1e-3);
  EXPECT_GT(maxAngle, 39.9);
}

TEST(JointDemos, GimbalPitchLimitHolds) {
  DemoRun d("GimbalJointDemo");
  double maxPitch = 0;
  d.root->addMonitor("p", [&](double, double) {
    maxPitch = std::max(maxPitch, std::abs(d.joint->getCoordinateDisplay(1)));
  });
  d.root->run(2.0);
  EXPECT_LT(maxPitch, 60 + 1e-3);
  EXPECT_GT(maxPitch, 59.9);
}

TEST(JointDemos, SkewArgumentMakesASkewedUniversalJoint) {
  DemoRun d("UniversalJointDemo", {"-skew", "30"});
  auto* j = dynamic_cast<SkewedUniversalJoint*>(d.joint);
  ASSERT_NE(j, nullptr);
  EXPECT_NEAR(j->getSkewAngle(), 30, 1e-12);
  d.root->run(1.0);
  EXPECT_LT(j->getConstraintError().norm(), 1e-8);
}

TEST(JointDemos, UnilateralConnectorOnlyPushes) {
  // Tossed up at 1 m/s, the link's corner leaves the surface, falls back
  // and rests on it: it never crosses, and the contact force is never a
  // pull.
  for (const char* name : {"PlanarConnectorDemo", "SegmentedPlanarConnectorDemo"}) {
    DemoRun d(name, {"-unilateral"});
    auto& c = static_cast<PlanarConnector&>(*d.joint);
    ASSERT_TRUE(c.isUnilateral());
    d.link->setVelocity((Twist() << 0, 0, 1, 0, 0, 0).finished());
    double minDist = 1e9, maxDist = -1e9, minForce = 0, maxForce = 0;
    d.root->addMonitor("c", [&](double, double) {
      minDist = std::min(minDist, c.getDistance());
      maxDist = std::max(maxDist, c.getDistance());
      const auto& f = c.getUnilateralForces();
      if (f.size()) minForce = std::min(minForce, f.minCoeff()), maxForce = std::max(maxForce, f.maxCoeff());
    });
    d.root->run(2.0);
    EXPECT_GT(minDist, -1e-6) << name;
    EXPECT_GT(maxDist, 1e-2) << name;  // it did lift off
    EXPECT_GE(minForce, 0.0) << name;
    EXPECT_GT(maxForce, 0.0) << name;  // and landed
  }
}

}  // namespace
}  // namespace sinew
