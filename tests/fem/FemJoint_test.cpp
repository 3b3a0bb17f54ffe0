// Joints on FEM models (guide §6.6.2): a joint given an FEM model for a
// body attaches its frame C or D to the FEM (FrameFem3dAttachment) and holds
// like a joint between rigid bodies; the T_CA / T_DB forms refuse FEMs.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FrameFem3dAttachment.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SphericalJoint.h"

namespace sinew {
namespace {

FemModel3d& addBeam(MechModel& mech, const std::string& name, double x0) {
  auto& fem = mech.addModel(std::make_unique<FemModel3d>(name));
  FemFactory::createHexGrid(fem, 1.0, 0.2, 0.2, 5, 1, 1);
  fem.transformGeometry(RigidTransform3d(x0, 0, 0));
  fem.setDensity(500);
  fem.setParticleDamping(0.5);
  fem.setMaterial(LinearMaterial(2e5, 0.3));
  return fem;
}

/// Runs r for `duration` at step h and returns the largest joint error.
double maxErrorOverRun(test::TestRoot& r, JointBase& joint, double duration, double h) {
  r.root->setMaxStepSize(h);
  r.root->initialize(0);
  double maxErr = joint.getConstraintError().norm();
  r.root->addMonitor("err", [&](double, double) { maxErr = std::max(maxErr, joint.getConstraintError().norm()); });
  r.root->run(duration);
  return maxErr;
}

TEST(FemJoint, HingeBetweenTwoFemBeamsHolds) {
  // A beam fixed at its left end and a second beam hinged to its right end
  // about y: the second beam swings down under gravity while the hinge's
  // constraint error stays below 1e-8 over 1 s.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  FemModel3d& fem1 = addBeam(r.mech, "fem1", 0.0);
  FemModel3d& fem2 = addBeam(r.mech, "fem2", 0.9);
  for (auto& n : fem1.nodes())
    if (n.getPosition().x() < -0.5 + 1e-9) n.setDynamic(false);
  const RigidTransform3d TDW(0.45, 0, 0, 1, 0, 0, M_PI / 2);  // axis −y
  auto& joint = r.mech.addBodyConnector(std::make_unique<HingeJoint>(fem2, &fem1, TDW, "joint"));
  // Frames C and D are the joint's own, attached to the beams.
  ASSERT_NE(joint.getBodyA(), nullptr);
  ASSERT_NE(joint.getBodyB(), nullptr);
  EXPECT_EQ(joint.getBodyA()->getPathName(), "/models/mech/bodyConnectors/joint/frameC");
  EXPECT_NE(dynamic_cast<FrameFem3dAttachment*>(joint.getBodyA()->getAttachment()), nullptr);
  EXPECT_NE(dynamic_cast<FrameFem3dAttachment*>(joint.getBodyB()->getAttachment()), nullptr);
  const double tipZ0 = fem2.getNode(5).getPosition().z();
  EXPECT_LT(maxErrorOverRun(r, joint, 1.0, 0.005), 1e-8);
  EXPECT_LT(fem2.getNode(5).getPosition().z(), tipZ0 - 0.1);  // fem2 has swung down
  EXPECT_GT(std::abs(joint.getTheta()), 5.0);                 // about the hinge
}

TEST(FemJoint, RigidPendulumHangsFromAnFemBeam) {
  // A ball joint from a rigid bar to the free end of a cantilevered beam:
  // the joint holds (< 1e-8) while the bar swings and the beam bends.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  FemModel3d& fem = addBeam(r.mech, "fem", 0.0);
  for (auto& n : fem.nodes())
    if (n.getPosition().x() < -0.5 + 1e-9) n.setDynamic(false);
  auto& bar = r.mech.addRigidBody(RigidBody::createBox("bar", 0.4, 0.05, 0.05, 1000));
  bar.setPose(RigidTransform3d(0.65, 0, 0));
  auto& joint =
      r.mech.addBodyConnector(std::make_unique<SphericalJoint>(bar, &fem, Vector3d(0.45, 0, 0), "joint"));
  EXPECT_EQ(joint.getBodyA(), &bar);
  EXPECT_LT(maxErrorOverRun(r, joint, 1.0, 0.005), 1e-8);
  EXPECT_LT(bar.getPosition().z(), -0.1);
}

TEST(FemJoint, FemFormsThatNeedAFixedFrameAreModelErrors) {
  test::TestRoot r;
  FemModel3d& fem = addBeam(r.mech, "fem", 0.0);
  auto& body = r.mech.addRigidBody(RigidBody::createBox("body", 0.1, 0.1, 0.1, 1000));
  auto& joint = r.mech.addBodyConnector(std::make_unique<HingeJoint>("joint"));
  // T_CA and T_DB have no meaning in an FEM model (§6.6.2).
  EXPECT_THROW(joint.setBodies(fem, RigidTransform3d(), &body, RigidTransform3d()), ModelError);
  EXPECT_THROW(joint.setBodies(body, RigidTransform3d(), &fem, RigidTransform3d()), ModelError);
  EXPECT_THROW(joint.setBodies(fem, &fem, RigidTransform3d()), ModelError);
  // An FEM model cannot be moved rigidly to a coordinate.
  joint.setBodies(fem, nullptr, RigidTransform3d(0.2, 0, 0));
  EXPECT_THROW(joint.setTheta(10), ModelError);
  // Reconnecting to frames drops the internal frame.
  joint.setBodies(body, nullptr, RigidTransform3d());
  EXPECT_EQ(joint.numComponents(), 0);
}

}  // namespace
}  // namespace sinew
