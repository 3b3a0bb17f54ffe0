// The impulse-based solver (seed 004) and the AlphaBeta integrator (seed
// 003): constraint errors after every step, energy, agreement with the
// MLCP solver, the any-time budget, joint forces, and α/β's limits.
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "bench/Scenes.h"
#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/JointBase.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/mech/ParticlePlaneConstraint.h"

namespace sinew {
namespace {

using namespace test;  // demoUnder, mechOf, maxJointError, runTracked

/// n links of 1 × 0.1 × 0.1 m (100 kg/m³) in a row along x from the
/// origin, released horizontal, each hinged about y to the last (the first
/// to the ground), with the angle range ±limitDeg if positive: the
/// benchmark chain. Returns the hinges, ground first.
std::vector<HingeJoint*> addHingedLinks(MechModel& mech, int n, double limitDeg = 0) {
  std::vector<HingeJoint*> hinges;
  RigidBody* prev = nullptr;
  for (int i = 0; i < n; ++i) {
    auto& b = mech.addRigidBody(RigidBody::createBox("l" + std::to_string(i), 1, 0.1, 0.1, 100));
    b.setPose(RigidTransform3d(i + 0.5, 0, 0));
    auto& h = static_cast<HingeJoint&>(mech.addBodyConnector(
        std::make_unique<HingeJoint>(b, prev, RigidTransform3d(i, 0, 0, 1, 0, 0, -M_PI / 2), "h" + std::to_string(i))));
    if (limitDeg > 0) h.setThetaRange(-limitDeg, limitDeg);
    hinges.push_back(&h);
    prev = &b;
  }
  return hinges;
}

TEST(ImpulseSolver, TriplePendulumFollowsTheMlcpSolverForHalfASecond) {
  auto a = demoUnder("TriplePendulum", "Impulse");
  auto b = demoUnder("TriplePendulum", "ConstrainedBackwardEuler");
  a->run(0.5);
  b->run(0.5);
  double d = 0;
  for (int i = 0; i < 3; ++i) {
    const auto& pa = mechOf(*a).rigidBodies().get(i).getPose().p;
    const auto& pb = mechOf(*b).rigidBodies().get(i).getPose().p;
    d = std::max(d, (pa - pb).norm());
  }
  // Both are first order in h; the links fall about 1 m in 0.5 s.
  EXPECT_LT(d, 5e-3) << "link centres within 5 mm after 0.5 s at h = 1 ms";
}

TEST(ImpulseSolver, HangingPendulumCarriesItsWeight) {
  // A 1 kg link hanging from a ball joint at rest: the joint's force is m g.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 0.1, 0.1, 1, 100));
  link.setPose(RigidTransform3d(0, 0, -0.5));
  auto& joint = r.mech.addBodyConnector(std::make_unique<SphericalJoint>(link, nullptr, Vector3d(0, 0, 0), "ball"));
  r.run(0.1, 1e-3);
  EXPECT_NEAR(joint.getConstraintWrench().head<3>().norm(), 9.8, 1e-6);
  EXPECT_NEAR(link.getPose().p.z(), -0.5, 1e-9);
}

/// Step by step from when watch() is called: the force `joint` reports
/// against what the momentum change of `bodies` needs, those bodies moved
/// by gravity (0, 0, −9.8) and that joint's force alone (the force only:
/// the moment about a centre depends on where in the step each impulse's
/// arm is taken). `worst` is the largest difference, `largest` the largest
/// force needed.
struct ForceBalance {
  double worst = 0, largest = 0;
  void watch(RootModel& root, std::vector<RigidBody*> bodies, JointBase& joint, double h) {
    auto momentum = [bodies] {
      Vector3d p = Vector3d::Zero();
      for (RigidBody* b : bodies) p += b->getMass() * b->getVelocity().head<3>();
      return p;
    };
    double weight = 0;
    for (RigidBody* b : bodies) weight += b->getMass() * 9.8;
    root.addMonitor("forceBalance", [this, momentum, weight, &joint, h, p0 = momentum()](double, double) mutable {
      const Vector3d p1 = momentum();
      const Vector3d expected = (p1 - p0) / h + Vector3d(0, 0, weight);
      const Vector3d reported = joint.getCurrentTCW().R * joint.getConstraintWrench().head<3>();
      worst = std::max(worst, (reported - expected).norm());
      largest = std::max(largest, expected.norm());
      p0 = p1;
    });
  }
};

/// The largest difference, over `seconds` of swinging, between the
/// reported force of a 1 kg link's hinge at its end (released horizontal;
/// with an angle limit `limitDeg` if positive) and m Δv/h − m g, the force
/// its centre of mass's motion needs; and the largest such force.
/// `velocitySweeps`: the velocity correction's most sweeps in a step.
struct SwingForces {
  double worst = 0, largest = 0;
  int velocitySweeps = 0;
};
SwingForces swingForces(double limitDeg, double seconds) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 1, 0.1, 0.1, 100));
  link.setPose(RigidTransform3d(0.5, 0, 0));
  auto& hinge = static_cast<HingeJoint&>(
      r.mech.addBodyConnector(std::make_unique<HingeJoint>(link, nullptr, RigidTransform3d(0, 0, 0, 1, 0, 0, -M_PI / 2), "h")));
  if (limitDeg > 0) hinge.setThetaRange(-limitDeg, limitDeg);
  ForceBalance balance;
  balance.watch(*r.root, {&link}, hinge, 1e-3);
  SwingForces f;
  r.root->addMonitor("m", [&](double, double) {
    f.velocitySweeps = std::max(f.velocitySweeps, r.mech.getImpulseReport().velocityIterations);
  });
  r.run(seconds, 1e-3);
  f.worst = balance.worst, f.largest = balance.largest;
  return f;
}

TEST(ImpulseSolver, SwingingLinksJointForceIsItsMomentumChangeLessGravity) {
  // The link moves by gravity and the joint alone, so over each step the
  // joint's reported force (every impulse of the step over h: the joint
  // correction's and the velocity correction's) is m Δv/h − m g exactly.
  // Swinging, the velocity correction carries part of the centripetal pull.
  // (The force only: the moment about the centre depends on where in the
  // step each impulse's arm is taken.)
  const SwingForces f = swingForces(0, 0.5);
  EXPECT_GT(f.largest, 15.0) << "the link swings: more than its weight at the bottom";
  EXPECT_GT(f.velocitySweeps, 1) << "the velocity correction applied impulses";
  EXPECT_LT(f.worst, 1e-9 * f.largest);
}

TEST(ImpulseSolver, SwingingLinksForceStaysItsMomentumChangeWhereItsLimitEngages) {
  // The same link stopped by an angle limit, at four angles: the steps
  // where the limit holds add its unilateral row, and the joint correction
  // goes through the block solve with its active set, beside the steps of
  // the hinge's rows alone, corrected directly with their impulses summed
  // until the loop ends. Every impulse of the hinge's rows still counts,
  // once, in the force (the limit's row is a moment about the axis alone).
  for (double limit : {20.0, 35.0, 50.0, 65.0}) {
    SCOPED_TRACE(limit);
    const SwingForces f = swingForces(limit, 0.6);
    EXPECT_GT(f.largest, 100.0) << "the limit stops the link";
    EXPECT_LT(f.worst, 1e-9 * f.largest);
  }
}

TEST(ImpulseSolver, ParticlesHeldOnAPlaneCarryTheirWeightAndSlideFreely) {
  // One constrainer's rows over particles (three velocities each) take the
  // direct correction's general path. Two particles held on the plane
  // z = 0 under gravity, one sliding along x at 1 m/s: both stay on the
  // plane, each row carries its particle's weight, and the slider keeps
  // its speed (the plane pushes only along z).
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  auto& p0 = r.mech.addParticle("p0", 2.0, 0, 0, 0);
  auto& p1 = r.mech.addParticle("p1", 0.5, 1, 0, 0);
  p1.setVelocity(Vector3d(1, 0, 0));
  auto& plane = r.mech.addParticleConstraint(
      std::make_unique<ParticlePlaneConstraint>("plane", Vector3d::UnitZ(), Vector3d::Zero()));
  plane.addParticle(p0);
  plane.addParticle(p1);
  r.run(0.5, 1e-3);
  EXPECT_LT(std::abs(p0.getPosition().z()), 1e-9);
  EXPECT_LT(std::abs(p1.getPosition().z()), 1e-9);
  EXPECT_NEAR(std::abs(plane.getForce(0)), 2.0 * 9.8, 1e-6);
  EXPECT_NEAR(std::abs(plane.getForce(1)), 0.5 * 9.8, 1e-6);
  EXPECT_NEAR(p1.getPosition().x(), 1.5, 1e-9);
  EXPECT_NEAR(p1.getVelocity().x(), 1.0, 1e-12);
}

TEST(ImpulseSolver, BrokenJointsArePulledTogetherInOneStep) {
  auto root = demoUnder("TriplePendulum", "Impulse");
  root->run(0.1);
  MechModel& mech = mechOf(*root);
  auto& link = mech.rigidBodies().get(1);
  RigidTransform3d T = link.getPose();
  T.p += Vector3d(0.2, -0.1, 0.3);  // tear the middle link out of both joints
  link.setPose(T);
  EXPECT_GT(maxJointError(mech), 0.1);
  root->run(0.101);
  EXPECT_LT(maxJointError(mech), 1e-8);
}

TEST(ImpulseSolver, AnyTimeBudgetCompletesTheStepAndTheResidualFalls) {
  // The eight-link loop after 0.2 s, one step under budgets 1, 2, 4, …:
  // every step completes and reports its residual, which falls as the
  // budget grows.
  double prev = INFINITY;
  for (int budget : {1, 2, 4, 8, 16, 32}) {
    auto root = demoUnder("EightLinkLoop", "Impulse");
    root->run(0.2);
    MechModel& mech = mechOf(*root);
    mech.impulseSettings().maxIterations = budget;
    mech.impulseSettings().velocityCorrection = false;
    mech.impulseSettings().projectWhenExhausted = false;  // the budget alone bounds the step
    root->run(0.201);
    const ImpulseReport& rep = mech.getImpulseReport();
    EXPECT_EQ(rep.positionIterations, std::min(budget, rep.positionIterations));
    EXPECT_TRUE(std::isfinite(rep.positionError));
    if (rep.interrupted) EXPECT_EQ(rep.positionIterations, budget);
    EXPECT_LE(rep.positionError, prev) << "budget " << budget;
    prev = rep.positionError;
  }
  EXPECT_LT(prev, 1e-8);
}

TEST(ImpulseSolver, HingeChainUnderImpulse) {
  // Hinges (5 rows each) released horizontal: the allowed rotation is free,
  // the others hold.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  addHingedLinks(r.mech, 4);
  double worst = 0, yMax = 0, zMin = 0;
  r.root->addMonitor("m", [&](double, double) {
    worst = std::max(worst, maxJointError(r.mech));
    for (int i = 0; i < 4; ++i) yMax = std::max(yMax, std::abs(r.mech.rigidBodies().get(i).getPose().p.y()));
    zMin = std::min(zMin, r.mech.rigidBodies().get(3).getPose().p.z());
  });
  r.run(2.0, 1e-3);
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(yMax, 1e-9) << "the chain stays in its plane";
  EXPECT_LT(zMin, -2.0) << "and swings down";
}

/// The largest velocity a hinge of `mech` lets through at the end of a
/// step: the relative velocity of its two bodies' points at the joint,
/// and their relative rotation across its axis (D's z).
double hingeVelocityError(MechModel& mech) {
  double worst = 0;
  auto pointVelocity = [](const Frame* f, const Vector3d& p) -> Vector3d {
    if (!f) return Vector3d::Zero();
    const Twist& t = f->getVelocity();
    return t.head<3>() + t.tail<3>().cross(p - f->getPosition());
  };
  for (int i = 0; i < mech.bodyConnectors().size(); ++i) {
    auto& j = static_cast<JointBase&>(mech.bodyConnectors().get(i));
    const Vector3d p = j.getCurrentTCW().p;
    const Vector3d w = j.getBodyA()->getVelocity().tail<3>() -
                       (j.getBodyB() ? Vector3d(j.getBodyB()->getVelocity().tail<3>()) : Vector3d::Zero());
    const Vector3d axis = j.getCurrentTDW().R.col(2);
    worst = std::max({worst, (pointVelocity(j.getBodyA(), p) - pointVelocity(j.getBodyB(), p)).norm(),
                      (w - w.dot(axis) * axis).norm()});
  }
  return worst;
}

TEST(ImpulseSolver, JointOnAnAttachedFrameMovesItsBodyAsOnTheBodyItself) {
  // A link hinged to ground through a frame attached to it: the joint's
  // rows reach the link through the attachment, and the link swings as it
  // does hinged directly (the same rows after the mapping, to round-off).
  auto swing = [](bool throughFrame) {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    r.setIntegrator(Integrator::Impulse);
    auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 1, 0.1, 0.1, 100));
    link.setPose(RigidTransform3d(0.5, 0, 0));
    FrameAttachable* a = &link;
    if (throughFrame) {
      auto& f = r.mech.addFrame(std::make_unique<Frame>("end"));
      f.setPose(RigidTransform3d(0.2, 0, 0));
      r.mech.attachFrame(f, link);
      a = &f;
    }
    r.mech.addBodyConnector(std::make_unique<HingeJoint>(*a, nullptr, RigidTransform3d(0, 0, 0, 1, 0, 0, -M_PI / 2), "h"));
    r.run(0.5, 1e-3);
    return link.getPose();
  };
  const RigidTransform3d direct = swing(false), attached = swing(true);
  EXPECT_LT(direct.p.z(), -0.4) << "it swings down";
  EXPECT_LT((direct.p - attached.p).norm(), 1e-9);
  EXPECT_LT((direct.R - attached.R).norm(), 1e-9);
}

TEST(ImpulseSolver, LinkHangingFromAMovingSupportIsCarriedAlong) {
  // A link hinged under a support that is not dynamic and moves at 1 m/s
  // along x: the joint's rows on the support are known velocities (moved
  // to the right-hand side). Hanging at rest relative to the support, the
  // link is carried along at the support's speed and keeps hanging
  // (Galilean invariance), its hinge carrying its weight.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  auto& support = r.mech.addRigidBody(RigidBody::createBox("support", 0.2, 0.2, 0.2, 100));
  support.setDynamic(false);
  support.setVelocity(Twist(1, 0, 0, 0, 0, 0));
  auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 0.1, 0.1, 1, 100));
  link.setPose(RigidTransform3d(0, 0, -0.5));
  link.setVelocity(Twist(1, 0, 0, 0, 0, 0));
  r.mech.addBodyConnector(
      std::make_unique<HingeJoint>(link, &support, RigidTransform3d(0, 0, 0, 1, 0, 0, -M_PI / 2), "h"));
  r.run(0.5, 1e-3);
  EXPECT_NEAR(support.getPosition().x(), 0.5, 1e-12) << "the support moved";
  EXPECT_LT((link.getPosition() - Vector3d(0.5, 0, -0.5)).norm(), 1e-8);
  EXPECT_LT((link.getVelocity() - Twist(1, 0, 0, 0, 0, 0)).norm(), 1e-8);
}

TEST(ImpulseSolver, ProjectedStepsReportTheForceThatMovesTheLastLink) {
  // A chain of 20 hinged links released horizontal, with 10 sweeps a loop:
  // every step's velocity sweeps run out and the step ends with the direct
  // projection of the velocities on the joints' rows. Those rows then hold
  // (the joints stay together), and the projection's impulses count in the
  // joints' forces: the last link, moved by gravity and its one joint
  // alone, changes its momentum by exactly that joint's reported force
  // (plus its weight) over each step.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  r.mech.impulseSettings().maxIterations = 10;
  HingeJoint* last = addHingedLinks(r.mech, 20).back();
  ForceBalance balance;
  balance.watch(*r.root, {&r.mech.rigidBodies().get(19)}, *last, 1e-3);
  double jointError = 0, velocityError = 0;
  int projected = 0;
  r.root->addMonitor("m", [&](double, double) {
    const ImpulseReport& rep = r.mech.getImpulseReport();
    if (rep.velocityProjection == ImpulseReport::Projection::Rows) ++projected;
    jointError = std::max(jointError, maxJointError(r.mech));
    velocityError = std::max(velocityError, hingeVelocityError(r.mech));
  });
  r.run(0.5, 1e-3);
  const double worst = balance.worst, largest = balance.largest;
  EXPECT_EQ(projected, 500) << "every step's velocity sweeps ran out and were projected over the rows";
  EXPECT_LT(jointError, 1e-6);
  EXPECT_LT(velocityError, 1e-10) << "m/s, rad/s";
  EXPECT_GT(largest, 2.0) << "the joint pulls the tip";
  EXPECT_LT(worst, 1e-9 * largest);
}

TEST(ImpulseSolver, ProjectedStepsOfAClosedLoopKeepItClosedWithoutGainingEnergy) {
  // The benchmark's eight-link hinge loop: its hinges all turn about y, so
  // the rows beyond the planar ones are redundant and cannot be factored
  // alone. With 5 sweeps a loop, every step's velocity projection goes
  // through the MLCP's regularized solve instead. The loop stays closed,
  // its joints let no velocity through, and its energy never rises above
  // its start (released at rest, it swings and loses a little).
  auto root = bench::makeHingeLoop(8, 1e-3);
  MechModel& mech = mechOf(*root);
  mech.setIntegrator(Integrator::Impulse);
  mech.impulseSettings().maxIterations = 5;
  const double E0 = root->getEnergy();
  double worst = 0, highest = -INFINITY, lowest = INFINITY, velocityError = 0;
  int projected = 0;
  root->addMonitor("m", [&](double, double) {
    const ImpulseReport& rep = mech.getImpulseReport();
    if (rep.velocityProjection == ImpulseReport::Projection::MLCP) ++projected;
    worst = std::max(worst, maxJointError(mech));
    velocityError = std::max(velocityError, hingeVelocityError(mech));
    highest = std::max(highest, root->getEnergy());
    lowest = std::min(lowest, root->getEnergy());
  });
  root->run(0.5);
  EXPECT_GT(projected, 400) << "most steps' velocity sweeps ran out and were projected by the MLCP";
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(velocityError, 1e-10) << "m/s, rad/s";
  EXPECT_LT(highest, E0 + 1e-9) << "J";
  EXPECT_LT(lowest, E0 - 0.05) << "it swings";
}

TEST(ImpulseSolver, LimitedChainsGroundForceCountsTheMlcpProjection) {
  // Three hinged links limited to ±30°, released horizontal, with 5 sweeps
  // a loop: the velocity sweeps run out, and where a limit holds (its
  // unilateral row) the MLCP projects the velocities. Its impulses count in
  // the joints' forces as the sweeps' do. The chain's momentum changes by
  // its weight and the ground hinge's force alone (the other hinges' are
  // internal), whose translation rows keep their directions (the ground's
  // axes) through a step: the balance holds to round-off. (The MLCP's
  // impulses had been dropped: up to 2,800 N of the 3,300 N that stop the
  // chain went unreported.)
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  r.mech.impulseSettings().maxIterations = 5;
  HingeJoint* ground = addHingedLinks(r.mech, 3, 30).front();
  std::vector<RigidBody*> links;
  double weight = 0;
  for (auto& b : r.mech.rigidBodies()) links.push_back(&b), weight += b.getMass() * 9.8;
  ForceBalance balance;
  balance.watch(*r.root, links, *ground, 1e-3);
  int projected = 0;
  r.root->addMonitor("m", [&](double, double) {
    if (r.mech.getImpulseReport().velocityProjection == ImpulseReport::Projection::MLCP) ++projected;
  });
  r.run(1.0, 1e-3);
  EXPECT_GT(projected, 50) << "steps projected by the MLCP";
  EXPECT_GT(balance.largest, 3 * weight) << "the limits stop the chain";
  EXPECT_LT(balance.worst, 1e-9 * balance.largest);
}

TEST(ImpulseSolver, ChainStoppedByItsLimitsNeverGainsEnergy) {
  // Three hinged links released horizontal, each hinge limited to ±45°:
  // the first reaches its limit at 0.42 s and rebounds, the others follow.
  // A limit pushes, never pulls, and stops its joint inelastically, so the
  // chain's energy may only fall; the joints stay within their ranges and
  // hold together. (A limit's push carried as a warm start into the steps
  // after it had let go, which the velocity correction, leaving separated
  // rows alone, never took back, pumped 3700 J into the 30 J chain.)
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  const std::vector<HingeJoint*> hinges = addHingedLinks(r.mech, 3, 45);
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  const double E0 = r.root->getEnergy();
  double highest = -INFINITY, worst = 0, beyond = 0;
  bool reached = false;
  r.root->addMonitor("m", [&](double, double) {
    highest = std::max(highest, r.root->getEnergy());
    worst = std::max(worst, maxJointError(r.mech));
    for (HingeJoint* h : hinges) {
      beyond = std::max(beyond, std::abs(h->getTheta()) - 45);
      reached = reached || std::abs(h->getTheta()) > 44.9;
    }
  });
  r.run(1.5, 1e-3);
  EXPECT_TRUE(reached) << "a limit stopped its joint";
  EXPECT_LT(highest, E0 + 1e-6) << "J";
  EXPECT_LT(beyond, 1e-6) << "degrees past a limit";
  EXPECT_LT(worst, 1e-8);
}

TEST(ImpulseSolver, CompliantChainStoppedByItsLimitsNeverGainsEnergy) {
  // Four links on compliant hinges (1e-7 m/N) limited to ±30°: where the
  // velocity sweeps run out, the MLCP projects (the limits' rows), and its
  // impulses on the compliant rows join the step's forces. The velocity
  // correction does not revisit compliant rows, so those impulses must not
  // start the next step's (they had pumped 25 J into the chain within
  // 1.5 s). The energy counted here leaves out the joints' springs
  // (½ c λ², below 0.05 J): the chain's may only fall.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  for (HingeJoint* h : addHingedLinks(r.mech, 4, 30)) h->setLinearCompliance(1e-7);
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  const double E0 = r.root->getEnergy();
  double highest = -INFINITY;
  int projected = 0;
  r.root->addMonitor("m", [&](double, double) {
    highest = std::max(highest, r.root->getEnergy());
    if (r.mech.getImpulseReport().velocityProjection == ImpulseReport::Projection::MLCP) ++projected;
  });
  r.run(1.5, 1e-3);
  EXPECT_GT(projected, 0) << "steps projected by the MLCP";
  EXPECT_LT(highest, E0 + 1e-3) << "J";
}

TEST(ImpulseSolver, OverRelaxationReachesTheSameMotionInFewerCorrections) {
  // impulseRelaxation ω: a bilateral joint takes ω times the impulse that
  // zeroes its error. The sweeps converge to the same tolerances, so the
  // eight-link loop moves as with ω = 1 (to within what those tolerances
  // allow over 0.5 s) with its joints held, in fewer corrections.
  auto runLoop = [](double omega, long& corrections, double& worst) {
    auto root = demoUnder("EightLinkLoop", "Impulse");
    MechModel& mech = mechOf(*root);
    mech.getProperty("impulseRelaxation").set(omega);
    corrections = 0;
    worst = 0;
    root->addMonitor("count", [&](double, double) {
      corrections += mech.getImpulseReport().corrections;
      worst = std::max(worst, maxJointError(mech));
    });
    root->run(0.5);
    std::vector<Vector3d> centres;
    for (int i = 0; i < mech.rigidBodies().size(); ++i) centres.push_back(mech.rigidBodies().get(i).getPose().p);
    return centres;
  };
  long plain = 0, relaxed = 0;
  double plainErr = 0, relaxedErr = 0;
  const auto a = runLoop(1.0, plain, plainErr);
  const auto b = runLoop(1.5, relaxed, relaxedErr);
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  EXPECT_LT(d, 1e-5) << "link centres, m";
  EXPECT_LT(relaxedErr, 1e-8);
  EXPECT_LT(double(relaxed), 0.75 * double(plain));
  // ω outside (0, 2) does not converge: refused.
  auto root = demoUnder("EightLinkLoop", "Impulse");
  for (double w : {0.0, 2.0, -1.0})
    EXPECT_THROW(mechOf(*root).getProperty("impulseRelaxation").set(w), Error) << w;
  EXPECT_EQ(mechOf(*root).impulseSettings().relaxation, 1.0);
}

TEST(ImpulseSolver, FastTumblingBodyKeepsItsEnergyAndAngularMomentum) {
  // A free box spun at 200 rad/s near its intermediate axis tumbles; at
  // h = 1 ms (h·|ω| = 0.2) an explicit gyroscopic term would gain energy
  // every step. The unconstrained advance takes it by the implicit
  // midpoint rule, which keeps the kinetic energy exactly; the world
  // angular momentum, with the inertia rotated between the velocity and
  // position updates, drifts at first order in h.
  auto tumble = [](double h) {
    TestRoot r;
    RigidBody& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.3, 0.2, 0.1, 1000));
    Twist tw = Twist::Zero();
    tw.tail<3>() = Vector3d(2, 200, 3);
    box.setVelocity(tw);
    r.setIntegrator(Integrator::Impulse);
    const double E0 = box.getKineticEnergy();
    const Vector3d L0 = box.getAngularMomentum();
    std::pair<double, double> worst{0, 0};
    r.root->addMonitor("watch", [&](double, double) {
      worst.first = std::max(worst.first, std::abs(box.getKineticEnergy() - E0) / E0);
      worst.second = std::max(worst.second, (box.getAngularMomentum() - L0).norm() / L0.norm());
    });
    r.run(1.0, h);
    return worst;
  };
  const auto [e1, l1] = tumble(1e-3);
  const auto [e2, l2] = tumble(5e-4);
  EXPECT_LT(e1, 1e-12);
  EXPECT_LT(e2, 1e-12);
  EXPECT_NEAR(l2 / l1, 0.5, 0.1) << "first order: " << l1 << " at 1 ms, " << l2 << " at 0.5 ms";
}

TEST(ImpulseSolver, NeedsPositiveMasses) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Impulse);
  r.mech.addParticle("p", 0.0, 0, 0, 0);
  try {
    r.run(0.01, 1e-3);
    FAIL() << "a massless dynamic particle under the Impulse integrator must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("positive mass"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- α/β

TEST(AlphaBeta, AlphaBetaOneIsConstrainedBackwardEuler) {
  auto a = demoUnder("TriplePendulum", "AlphaBeta");
  auto b = demoUnder("TriplePendulum", "ConstrainedBackwardEuler");
  a->run(1.0);
  b->run(1.0);
  Eigen::VectorXd sa, sb;
  mechOf(*a).getState(sa);
  mechOf(*b).getState(sb);
  EXPECT_LT((sa - sb).lpNorm<Eigen::Infinity>(), 1e-10);
}

TEST(AlphaBeta, HalfAndHalfKeepsAPendulumsEnergyBetter) {
  auto drift = [](double ab) {
    auto root = demoUnder("TriplePendulum", "AlphaBeta");
    mechOf(*root).setAlpha(ab);
    mechOf(*root).setBeta(ab);
    return runTracked(*root, 5.0).energyDrift;
  };
  const double half = drift(0.5), one = drift(1.0);
  EXPECT_LT(half, one);
}

TEST(AlphaBeta, CompliantRowFollowsSeed003) {
  // A particle of mass m on a compliant ball joint (a point held to the
  // origin with compliance c, no damping) is a spring of stiffness 1/c:
  // under α = β = 1/2 (trapezoidal) it oscillates with period 2π√(m c)
  // and keeps its amplitude.
  // (Built from a rigid body, as joints join frames.)
  test::TestRoot r;
  r.setIntegrator(Integrator::AlphaBeta);
  r.mech.setAlpha(0.5);
  r.mech.setBeta(0.5);
  auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.1, 0.1, 0.1, 1000));  // 1 kg
  auto& joint = r.mech.addBodyConnector(std::make_unique<SphericalJoint>(b, nullptr, Vector3d(0, 0, 0), "ball"));
  const double c = 1e-3;
  joint.setLinearCompliance(c);
  b.setPose(RigidTransform3d(0.01, 0, 0));
  const double T = test::measurePeriod(*r.root, 1e-4, 1.0, [&] { return b.getPose().p.x(); });
  EXPECT_NEAR(T, 2 * M_PI * std::sqrt(1.0 * c), 1e-3 * T);
  EXPECT_NEAR(std::abs(b.getPose().p.x()) <= 0.0101, true, 0);
}

TEST(ImpulseSolver, BudgetAndTolerancePropertiesRejectNegativeValues) {
  test::TestRoot r;
  for (const char* name : {"impulseMaxTime", "impulsePositionTol", "impulseVelocityTol"}) {
    r.mech.getProperty(name).set(0.5);
    EXPECT_EQ(r.mech.getProperty(name).getNumeric()[0], 0.5) << name;
    EXPECT_THROW(r.mech.getProperty(name).set(-1.0), ModelError) << name;
    EXPECT_EQ(r.mech.getProperty(name).getNumeric()[0], 0.5) << name << " kept";
  }
  EXPECT_EQ(r.mech.impulseSettings().positionTol, 0.5);
  EXPECT_THROW(r.mech.getProperty("impulseMaxIterations").set(0), ModelError);
}

TEST(AlphaBeta, RejectsFactorsOutsideTheUnitInterval) {
  test::TestRoot r;
  EXPECT_THROW(r.mech.setAlpha(1.5), ModelError);
  EXPECT_THROW(r.mech.setBeta(-0.1), ModelError);
}

}  // namespace
}  // namespace sinew
