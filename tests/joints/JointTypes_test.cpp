// Every joint type: allowed motions move freely, forbidden ones do not
// drift, coordinates round-trip (guide §3.4).
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "TestModels.h"
#include "sinew/joints/CylindricalJoint.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SliderJoint.h"

namespace sinew {
namespace {

using MakeJoint = std::function<std::unique_ptr<JointBase>(RigidBody&, const RigidTransform3d&)>;

struct JointCase {
  const char* name;
  MakeJoint make;
  int dof;  ///< allowed degrees of freedom
};

std::vector<JointCase> cases() {
  return {
      {"Hinge", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<HingeJoint>(b, nullptr, T, "j"); }, 1},
      {"Slider", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<SliderJoint>(b, nullptr, T, "j"); }, 1},
      {"Cylindrical", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<CylindricalJoint>(b, nullptr, T, "j"); }, 2},
      {"Planar", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<PlanarJoint>(b, nullptr, T, "j"); }, 3},
      {"PlanarTranslation", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<PlanarTranslationJoint>(b, nullptr, T, "j"); }, 2},
      {"Spherical", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<SphericalJoint>(b, nullptr, T.p, "j"); }, 3},
      {"Solid", [](RigidBody& b, const RigidTransform3d& T) { return std::make_unique<SolidJoint>(b, nullptr, T, "j"); }, 0},
  };
}

TEST(JointTypes, AllowedMotionsFreeForbiddenOnesDoNotDrift) {
  // A box jointed to ground at an oblique frame, pushed by random wrenches
  // for 1 s: the joint error (T_CG) stays below 1e-8, while the allowed
  // motions do happen.
  std::mt19937 rng(7);
  std::normal_distribution<double> n01;
  for (auto& c : cases()) {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.3, 0.2, 0.1, 800));
    box.setPose(RigidTransform3d(0.1, 0.2, 0.3, 0.2, 1, 0.4, 0.6));
    RigidTransform3d TDW(0.1, 0.2, 0.3, 1, -0.5, 0.3, 0.8);
    auto& joint = r.mech.addBodyConnector(c.make(box, TDW));
    const RigidTransform3d TCD0 = joint.getCurrentTCD();
    r.root->setMaxStepSize(1e-3);
    r.root->initialize(0);
    double maxErr = 0;
    r.root->addController("push", [&](double, double) {
      Wrench w;
      for (int i = 0; i < 6; ++i) w[i] = 20 * n01(rng);
      box.setExternalForce(w);
    });
    r.root->addMonitor("err", [&](double, double) {
      maxErr = std::max(maxErr, joint.getConstraintError().norm());
    });
    r.root->run(1.0);
    EXPECT_LT(maxErr, 1e-8) << c.name;
    RigidTransform3d moved = TCD0.inverse() * joint.getCurrentTCD();
    double motion = moved.p.norm() + AxisAngle(moved.R).angle;
    if (c.dof > 0) EXPECT_GT(motion, 1e-3) << c.name;
    else EXPECT_LT(motion, 1e-8) << c.name;
  }
}

TEST(JointTypes, CoordinatesRoundTrip) {
  for (auto& c : cases()) {
    test::TestRoot r;
    auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.3, 0.2, 0.1, 800));
    RigidTransform3d TDW(0.1, 0.2, 0.3, 1, -0.5, 0.3, 0.8);
    auto& joint = r.mech.addBodyConnector(c.make(box, TDW));
    EXPECT_EQ(joint.numCoordinates(), c.name == std::string("Spherical") ? 0 : c.dof) << c.name;
    Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(joint.numCoordinates(), 0.3, -0.7);
    if (q.size() == 0) continue;
    joint.setCoordinates(q);
    EXPECT_LT((joint.getCoordinates() - q).norm(), 1e-12) << c.name;
    EXPECT_LT(joint.getConstraintError().norm(), 1e-12) << c.name;
  }
}

}  // namespace
}  // namespace sinew
