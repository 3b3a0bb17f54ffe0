// MechModel::transformGeometry (guide §4.7, rigid transforms): the moved
// model is the same model seen from another world frame. Relative poses of
// springs and joints do not change, and with gravity turned the same way it
// moves exactly as the original, transformed.
#include <gtest/gtest.h>

#include "TestModels.h"
#include "sinew/joints/HingeJoint.h"

namespace sinew {
namespace {

using test::TestRoot;

/// A body on a displaced frame spring to the world, a body hinged to the
/// world, and a particle on a tilted plane pulled by a spring to a marker.
struct Scene {
  TestRoot r;
  RigidBody *box, *arm;
  FrameSpring* spring;
  HingeJoint* hinge;
  Particle* p;
  FrameMarker* mkr;
  explicit Scene(const Vector3d& gravity) : r(gravity) {
    box = &r.mech.addRigidBody(RigidBody::createBox("box", 0.4, 0.3, 0.2, 100));
    box->setPose(RigidTransform3d(0.5, 0.1, 0.2, 1, 1, 0, 0.3));
    spring = &r.mech.addFrameSpring(std::make_unique<FrameSpring>("spring", 500, 20, 5, 0.5));
    spring->setFrames(*box, RigidTransform3d(0.1, 0, 0.05, 0, 0, 1, 0.2), nullptr,
                      RigidTransform3d(0.6, 0.1, 0.3, 1, 0, 0, 0.1));
    arm = &r.mech.addRigidBody(RigidBody::createBox("arm", 0.6, 0.1, 0.1, 100));
    arm->setPose(RigidTransform3d(-0.3, 0, 0));
    hinge = &r.mech.addBodyConnector(std::make_unique<HingeJoint>(
        *arm, nullptr, RigidTransform3d(0, 0, 0, 1, 0, 0, M_PI / 2), "hinge"));
    p = &r.mech.addParticle("p", 0.5, 0.2, -0.5, 0.1);
    auto& plane = r.mech.addParticleConstraint(
        std::make_unique<ParticlePlaneConstraint>("plane", Vector3d(0.1, 0.2, 1), Vector3d(0.2, -0.5, 0.1)));
    plane.addParticle(*p);
    mkr = &r.mech.addFrameMarker(*box, Vector3d(-0.2, 0, 0));
    r.mech.attachAxialSpring(*p, *mkr, std::make_unique<AxialSpring>("spr", 40, 1, 0.2));
  }
};

const RigidTransform3d X(0.3, -1.2, 0.7, 1, -2, 0.5, 1.3);

::testing::AssertionResult samePose(const RigidTransform3d& a, const RigidTransform3d& b, double tol) {
  double e = (a.p - b.p).norm() + (a.R - b.R).norm();
  if (e <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "poses differ by " << e;
}

TEST(TransformGeometry, MovesEverythingRigidlyAndKeepsRelativePoses) {
  Scene a(Vector3d::Zero()), b(Vector3d::Zero());
  b.r.mech.transformGeometry(X);
  EXPECT_TRUE(samePose(b.box->getPose(), X * a.box->getPose(), 1e-14));
  EXPECT_TRUE(samePose(b.arm->getPose(), X * a.arm->getPose(), 1e-14));
  EXPECT_LT((b.p->getPosition() - X.transformPoint(a.p->getPosition())).norm(), 1e-14);
  EXPECT_LT((b.mkr->getPosition() - X.transformPoint(a.mkr->getPosition())).norm(), 1e-14);
  // The world-fixed D frames moved along: nothing relative changed.
  EXPECT_TRUE(samePose(b.spring->getCurrentTDC(), a.spring->getCurrentTDC(), 1e-14));
  EXPECT_TRUE(samePose(b.hinge->getCurrentTCD(), a.hinge->getCurrentTCD(), 1e-14));
  EXPECT_NEAR(b.spring->getPotentialEnergy(), a.spring->getPotentialEnergy(), 1e-12);
}

TEST(TransformGeometry, TransformedModelMovesAsTheOriginalTransformed) {
  const Vector3d g(0, 0, -9.8);
  Scene a(g), b(X.R * g);
  b.r.mech.transformGeometry(X);
  a.r.run(0.5, 0.01);
  b.r.run(0.5, 0.01);
  ASSERT_GT((a.box->getVelocity()).norm(), 0.01) << "the scene moves";
  EXPECT_TRUE(samePose(b.box->getPose(), X * a.box->getPose(), 1e-9));
  EXPECT_TRUE(samePose(b.arm->getPose(), X * a.arm->getPose(), 1e-9));
  EXPECT_LT((b.p->getPosition() - X.transformPoint(a.p->getPosition())).norm(), 1e-9);
  EXPECT_LT((b.box->getVelocity().tail<3>() - X.R * a.box->getVelocity().tail<3>()).norm(), 1e-9);
}

TEST(TransformGeometry, RejectsATransformThatIsNotRigid) {
  Scene a(Vector3d::Zero());
  RigidTransform3d S;
  S.R = Vector3d(1, 2, 1).asDiagonal();
  EXPECT_THROW(a.r.mech.transformGeometry(S), ModelError);
}

}  // namespace
}  // namespace sinew
