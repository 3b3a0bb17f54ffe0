// Attachments (guide §3.6; seed 000 eqs. 1.9–1.13): slaves follow their
// masters exactly, and a massive slave adds exactly its inertia.
#include <gtest/gtest.h>

#include "TestModels.h"

namespace sinew {
namespace {

TEST(Attachment, PointAndFrameAttachmentsHold) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& fixed = r.mech.addParticle("fixed", 1, 0, 0, 1);
  fixed.setDynamic(false);
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.4, 0.2, 0.1, 100));
  box.setPose(RigidTransform3d(0.3, 0.1, 0.5, 1, 0, 0, 0.3));
  auto& mkr = r.mech.addFrameMarkerWorld(box, Vector3d(0.2, 0.1, 0.55));
  r.mech.attachAxialSpring(fixed, mkr, std::make_unique<AxialSpring>("s", 500, 5, 0));
  auto& p = r.mech.addParticle("p", 0.5, 0.4, 0.1, 0.45);  // massive slave
  r.mech.attachPoint(p, box);
  auto& q = r.mech.addParticle("q", 0.2, 0.4, 0.1, 0.45);
  r.mech.attachPoint(q, p);  // a chain: q → p → box
  auto& f = r.mech.addFrame(std::make_unique<Frame>("f"));
  r.mech.attachFrame(f, box, box.getPose() * RigidTransform3d(0.1, 0, 0));
  const Vector3d locP = box.getPose().inverseTransformPoint(p.getPosition());
  const RigidTransform3d TFB = box.getPose().inverse() * f.getPose();

  r.run(1.0, 0.01);
  EXPECT_GT((box.getPosition() - Vector3d(0.3, 0.1, 0.5)).norm(), 1e-2);  // it moved
  EXPECT_LT((p.getPosition() - box.getPose().transformPoint(locP)).norm(), 1e-9);
  EXPECT_LT((q.getPosition() - p.getPosition()).norm(), 1e-9);
  RigidTransform3d err = (box.getPose() * TFB).inverse() * f.getPose();
  EXPECT_LT(err.p.norm(), 1e-9);
  EXPECT_LT((err.R - Matrix3d::Identity()).norm(), 1e-9);
  // Slave velocities are the master's twist moved to the slave.
  Vector3d vp = pointVelocityJacobian(box.getRotation() * locP) * box.getVelocity();
  EXPECT_LT((p.getVelocity() - vp).norm(), 1e-9);
}

/// A body hung by a spring, with or without an attached point mass; the
/// other variant folds the point mass into the body's inertia instead.
Vector6d hangingBody(bool attachedMass, Integrator integ, double h) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(integ);
  auto& fixed = r.mech.addParticle("fixed", 1, 0, 0, 1);
  fixed.setDynamic(false);
  auto body = std::make_unique<RigidBody>("body");
  SpatialInertia M(2.0, Vector3d(0.1, 0.2, 0.3).asDiagonal());
  const Vector3d loc(0.3, -0.1, 0.2);
  const double mp = 0.7;
  if (!attachedMass) M.add(SpatialInertia(mp, Matrix3d::Zero(), loc));
  body->setInertia(M);
  auto& b = r.mech.addRigidBody(std::move(body));
  b.setPose(RigidTransform3d(0.2, 0.1, 0.4, 0.3, 1, 0.2, 0.5));
  Twist tw;
  tw << 0.1, -0.2, 0.3, 1.0, -2.0, 0.5;
  b.setVelocity(tw);
  auto& mkr = r.mech.addFrameMarker(b, Vector3d(-0.1, 0.05, 0.1));
  r.mech.attachAxialSpring(fixed, mkr, std::make_unique<AxialSpring>("s", 200, 2, 0.2));
  if (attachedMass) {
    auto& p = r.mech.addParticle("p", mp, 0, 0, 0);
    r.mech.attachPoint(p, b, loc);
  }
  r.run(1.0, h);
  Vector6d out;
  out << b.getPosition(), b.getVelocity().tail<3>();
  return out;
}

TEST(Attachment, AttachedMassEqualsLumpedInertia) {
  // Factoring the slave out of the solve (PᵀMP plus its velocity-product
  // term) gives the same equations of motion as adding its inertia to the
  // body: RK4, which uses no Jacobians, gives the same motion to round-off.
  Vector6d a = hangingBody(true, Integrator::RungeKutta4, 0.005);
  Vector6d b = hangingBody(false, Integrator::RungeKutta4, 0.005);
  EXPECT_LT((a - b).norm(), 1e-10) << a.transpose() << "\n" << b.transpose();
  // Backward Euler linearizes the two differently (the slave's weight turns
  // with the body through its geometric stiffness), an O(h) difference.
  double d1 = (hangingBody(true, Integrator::ConstrainedBackwardEuler, 0.002) -
               hangingBody(false, Integrator::ConstrainedBackwardEuler, 0.002)).norm();
  double d2 = (hangingBody(true, Integrator::ConstrainedBackwardEuler, 0.001) -
               hangingBody(false, Integrator::ConstrainedBackwardEuler, 0.001)).norm();
  EXPECT_LT(d2, 0.6 * d1);
}

TEST(Attachment, CycleIsRejected) {
  test::TestRoot r;
  auto& a = r.mech.addParticle("a", 1, 0, 0, 0);
  auto& b = r.mech.addParticle("b", 1, 0, 0, 0);
  r.mech.attachPoint(a, b);
  r.mech.attachPoint(b, a);
  EXPECT_THROW(r.root->initialize(0), ModelError);
}

}  // namespace
}  // namespace sinew

namespace sinew {
namespace {

TEST(Attachment, RemovingTheAttachmentFreesTheSlave) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& a = r.mech.addParticle("a", 1, 0, 0, 0);
  a.setDynamic(false);
  auto& b = r.mech.addParticle("b", 1, 0, 0, 0);
  auto& att = r.mech.attachPoint(b, a);
  EXPECT_TRUE(b.isAttached());
  r.mech.attachments().remove(att);
  EXPECT_FALSE(b.isAttached());
  r.run(1.0, 0.01);
  EXPECT_LT(b.getPosition().z(), -4.0);  // it falls freely now
}

}  // namespace
}  // namespace sinew
