// The frame-attachment demos of guide §6.6: FrameFemAttachment (a frame and
// a box turn with the sagging beam) and JointedFemBeams (the slotted hinge
// between two beams holds and keeps its slot range).
#include <gtest/gtest.h>

#include <cmath>

#include "demos/Demos.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FrameFem3dAttachment.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

/// The slope angle (about y, positive when turning x toward −z) of the
/// beam's centre line between rest abscissae xa and xb, from the mean
/// positions of the nodes at those abscissae.
double slopeAngle(const FemModel3d& fem, double xa, double xb) {
  Vector3d pa = Vector3d::Zero(), pb = Vector3d::Zero();
  int na = 0, nb = 0;
  for (auto& n : fem.nodes()) {
    if (std::abs(n.getRestPosition().x() - xa) < 1e-9) pa += n.getPosition(), ++na;
    if (std::abs(n.getRestPosition().x() - xb) < 1e-9) pb += n.getPosition(), ++nb;
  }
  const Vector3d d = pb / nb - pa / na;
  return std::atan2(-d.z(), d.x());
}

/// The rotation of R relative to R0 about world y (positive turning x
/// toward −z, as slopeAngle).
double turnAboutY(const Matrix3d& R, const Matrix3d& R0) {
  const Vector3d x = R * R0.transpose() * Vector3d::UnitX();
  return std::atan2(-x.z(), x.x());
}

TEST(FemFrameDemos, FrameFemAttachmentFrameAndBoxTurnWithTheBeam) {
  // After 1.5 s the beam has sagged. The frame at x = 0.4 is turned about y
  // by the beam's local slope there (the centre line between x = 1/3 and
  // 1/2) to within 10%, and the box at the middle by the slope between
  // x = −1/6 and 1/6, the span of the box's two elements.
  auto root = demos::createDemo("FrameFemAttachment");
  auto& mech = static_cast<MechModel&>(root->models().get(0));
  auto& fem = static_cast<FemModel3d&>(mech.models().get(0));
  Frame& frame = *mech.frames().get("frame");
  RigidBody& box = *mech.rigidBodies().get("box");
  ASSERT_TRUE(frame.isAttached());
  ASSERT_TRUE(box.isAttached());
  auto* boxAtt = dynamic_cast<FrameFem3dAttachment*>(box.getAttachment());
  ASSERT_NE(boxAtt, nullptr);
  EXPECT_EQ(boxAtt->getNodes().size(), 12u);  // two elements sharing a face
  EXPECT_EQ(boxAtt->getElement(), nullptr);   // nodal-based
  const Matrix3d Rf0 = frame.getRotation(), Rb0 = box.getRotation();
  root->setMaxStepSize(0.01);
  root->initialize(0);
  root->run(1.5);

  const double frameSlope = slopeAngle(fem, 1.0 / 3, 0.5), boxSlope = slopeAngle(fem, -1.0 / 6, 1.0 / 6);
  EXPECT_GT(frameSlope, 1e-4);  // the beam sags
  EXPECT_NEAR(turnAboutY(frame.getRotation(), Rf0), frameSlope, 0.1 * frameSlope);
  EXPECT_NEAR(turnAboutY(box.getRotation(), Rb0), boxSlope, 0.1 * boxSlope);
  EXPECT_LT(box.getPosition().z(), -1e-4);
}

TEST(FemFrameDemos, JointedFemBeamsHingeHoldsWithinItsSlot) {
  // Over 3 s of dropping and flexing: the slotted hinge's constraint error
  // stays below 1e-8, the slot coordinate x reaches its limit 0.5 and never
  // passes it, and fem2 swings down about the hinge (its far end drops by a
  // metre more than its near end).
  auto root = demos::createDemo("JointedFemBeams");
  auto& mech = static_cast<MechModel&>(root->models().get(0));
  auto& fem2 = *mech.models().get("fem2");
  auto& joint = *mech.bodyConnectors().findComponent<SlottedHingeJoint>("joint");
  auto& beam2 = static_cast<FemModel3d&>(fem2);
  FemNode3d* farNode = beam2.findNearestNode(Vector3d(2.7, 0, 0));
  FemNode3d* nearNode = beam2.findNearestNode(Vector3d(0.3, 0, 0));
  const double far0 = farNode->getPosition().z(), near0 = nearNode->getPosition().z();
  root->setMaxStepSize(0.01);
  root->initialize(0);
  double maxErr = 0, minX = INFINITY, maxX = -INFINITY;
  root->addMonitor("joint", [&](double, double) {
    maxErr = std::max(maxErr, joint.getConstraintError().norm());
    minX = std::min(minX, joint.getX());
    maxX = std::max(maxX, joint.getX());
  });
  root->run(3.0);
  EXPECT_LT(maxErr, 1e-8);
  EXPECT_GE(minX, -0.5 - 1e-9);
  EXPECT_LE(maxX, 0.5 + 1e-9);
  EXPECT_GT(maxX, 0.5 - 1e-6);  // fem2 slides to the end of its slot, which stops it
  EXPECT_LT(farNode->getPosition().z() - far0, nearNode->getPosition().z() - near0 - 1.0);
  EXPECT_GT(std::abs(joint.getTheta()), 30.0);  // degrees
}

}  // namespace
}  // namespace sinew
