// The Articulated integrator (ArticulatedSolver.h): reduced-coordinate
// dynamics of jointed trees. Periods, free fall and an incline's slide
// against their analytic values, agreement with the MLCP solver, joints
// that hold to round-off, constraint forces, free-floating trees, and the
// models it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "DemoRuns.h"
#include "TestModels.h"
#include "Verification.h"
#include "bench/Scenes.h"
#include "sinew/Error.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/joints/UniversalJoint.h"

namespace sinew {
namespace {

using namespace test;  // demoUnder, mechOf, maxJointError, TestRoot, measurePeriod

/// A 1 × 0.1 × 0.1 m, 1 kg link along x from `x0`, hinged about y at x0 to
/// `parent` (nullptr: ground).
RigidBody& addHingedLink(TestRoot& r, const std::string& name, double x0, RigidBody* parent) {
  auto& b = r.mech.addRigidBody(RigidBody::createBox(name, 1, 0.1, 0.1, 100));
  b.setPose(RigidTransform3d(x0 + 0.5, 0, 0));
  r.mech.addBodyConnector(std::make_unique<HingeJoint>(
      b, parent, RigidTransform3d(x0, 0, 0, 1, 0, 0, M_PI / 2), name + "Hinge"));
  return b;
}

/// The largest distance between the same rigid bodies of two runs of one model.
double largestBodyDistance(RootModel& a, RootModel& b) {
  double d = 0;
  for (int i = 0; i < mechOf(a).rigidBodies().size(); ++i)
    d = std::max(d, (mechOf(a).rigidBodies().get(i).getPosition() - mechOf(b).rigidBodies().get(i).getPosition()).norm());
  return d;
}

/// A root under gravity, with `integ`, holding one link hinged to ground at
/// the origin; returns its hinge.
HingeJoint& addGroundedLink(TestRoot& r, Integrator integ) {
  r.setIntegrator(integ);
  addHingedLink(r, "link", 0, nullptr);
  return static_cast<HingeJoint&>(r.mech.bodyConnectors().get(0));
}

TEST(ArticulatedSolver, PhysicalPendulumSwingsWithItsSmallAnglePeriod) {
  // The link about its end: T = 2π √(I_pivot / (m g d)), I_pivot = m(L² + w²)/12 + m d².
  TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Articulated);
  auto& link = addHingedLink(r, "link", 0, nullptr);
  // Hanging straight down (θ = −90°: the hinge axis is −y), then tilted by 0.02 rad.
  auto& hinge = static_cast<HingeJoint&>(r.mech.bodyConnectors().get(0));
  hinge.setTheta(-90 + 0.02 * RTOD);
  const double m = 1, d = 0.5, I = m * (1 + 0.01) / 12 + m * d * d;
  const double expected = 2 * M_PI * std::sqrt(I / (m * 9.8 * d));
  const double T = measurePeriod(*r.root, 1e-3, 10, [&] { return link.getPosition().x(); });
  VERIFY_NEAR("Articulated: physical pendulum's small-angle period / analytic", "T = 2π√(I/(m g d))", T / expected,
              1.0, 1e-3);
}

TEST(ArticulatedSolver, SliderOnAFrictionlessInclineAcceleratesAtGSinTheta) {
  // A slider whose axis runs down a 30° incline: x = ½ g sin θ t².
  TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Articulated);
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 1000));
  const double theta = M_PI / 6;
  // The slider's z axis (D and C) along the incline, downhill: (cos θ, 0, −sin θ).
  const RigidTransform3d TDW(Vector3d::Zero(), AxisAngle(Vector3d::UnitY(), M_PI / 2 + theta).toMatrix());
  auto& slider = r.mech.addBodyConnector(std::make_unique<SliderJoint>(box, nullptr, TDW, "slider"));
  r.run(2.0, 1e-3);
  const double x = static_cast<SliderJoint&>(slider).getZ();
  const double expected = 0.5 * 9.8 * std::sin(theta) * 4;
  // Symplectic Euler's slide after n steps is a h² n(n + 1)/2: 1/n = 5e-4 ahead.
  VERIFY_NEAR("Articulated: slider on a frictionless 30° incline, slide after 2 s / analytic", "x = ½ g sin θ t²",
              x / expected, 1.0, 1e-3);
  EXPECT_LT(maxJointError(r.mech), 1e-12);
}

TEST(ArticulatedSolver, TriplePendulumConvergesToTheMlcpSolversMotion) {
  // The ball-jointed links after 0.5 s (they fall about 1 m): both methods
  // are first order in h, so their difference falls tenfold with h.
  auto difference = [](double h) {
    auto a = demoUnder("TriplePendulum", "Articulated");
    auto b = demoUnder("TriplePendulum", "ConstrainedBackwardEuler");
    for (auto* root : {a.get(), b.get()}) {
      root->setMaxStepSize(h);
      root->run(0.5);
    }
    EXPECT_LT(maxJointError(mechOf(*a)), 1e-12);
    return largestBodyDistance(*a, *b);
  };
  const double coarse = difference(1e-3), fine = difference(1e-4);
  EXPECT_LT(fine, 5e-4);
  EXPECT_GT(coarse / fine, 8.0);
}

TEST(ArticulatedSolver, HingeChainHoldsItsJointsToRoundOffAndKeepsItsEnergy) {
  auto root = bench::makeHingeChain(10, 1e-3);
  mechOf(*root).setIntegrator(Integrator::Articulated);
  const Tracked t = runTracked(*root, 2.0);
  EXPECT_LT(t.maxError, 1e-12);
  // Symplectic Euler in the coordinates, as the reduced-coordinate peers
  // step: the flailing chain's energy stays within 2 % of N m g L = 490 J.
  EXPECT_LT(t.energyDrift, 0.02 * 490);
}

/// A joint's wrench and bilateral forces after a run under Articulated
/// ([0]) and under ConstrainedBackwardEuler ([1]); `build` adds the model
/// to a root under gravity and returns the joint, which `run` then runs.
struct JointForces {
  Wrench w[2];
  Eigen::VectorXd lambda[2];
};
JointForces forcesUnderBoth(const std::function<JointBase&(TestRoot&)>& build, double duration, double h) {
  JointForces f;
  int k = 0;
  for (Integrator integ : {Integrator::Articulated, Integrator::ConstrainedBackwardEuler}) {
    TestRoot r(Vector3d(0, 0, -9.8));
    r.setIntegrator(integ);
    JointBase& joint = build(r);
    r.run(duration, h);
    EXPECT_LT(maxJointError(r.mech), 1e-9);
    f.w[k] = joint.getConstraintWrench();
    f.lambda[k++] = joint.getBilateralForces();
  }
  EXPECT_EQ(f.lambda[0].size(), f.lambda[1].size());
  return f;
}

TEST(ArticulatedSolver, HundredLinkBallChainMovesAsTheHingeChainInItsPlane) {
  // Released level, the ball-jointed chain stays in its vertical plane and
  // moves as the hinge chain does. Its joints' D is ill-conditioned (a
  // link's axial inertia against the chain's), and round-off's
  // antisymmetric part of the articulated inertias once grew link by link
  // until the root's D lost its sign at 0.13 s: they are kept symmetric.
  auto balls = bench::makeBallChain(100, 1e-3), hinges = bench::makeHingeChain(100, 1e-3);
  for (auto* root : {balls.get(), hinges.get()}) {
    mechOf(*root).setIntegrator(Integrator::Articulated);
    root->run(0.3);
  }
  EXPECT_LT(maxJointError(mechOf(*balls)), 1e-12);
  EXPECT_LT(largestBodyDistance(*balls, *hinges), 1e-9);
}

TEST(ArticulatedSolver, HangingLinkCarriesItsWeightAsTheMlcpSolverFindsIt) {
  // A link hanging at rest from a hinge whose axis is horizontal: the
  // joint's wrench is the weight (and the moment of the weight about C is
  // zero); the bilateral forces equal those of ConstrainedBackwardEuler.
  const JointForces f = forcesUnderBoth(
      [](TestRoot& r) -> JointBase& {
        HingeJoint& hinge = addGroundedLink(r, r.mech.getIntegrator());
        hinge.setTheta(-90);
        return hinge;
      },
      0.1, 1e-3);
  VERIFY_NEAR("Articulated: hanging link's hinge force [N]", "m g (statics)", f.w[0].head<3>().norm(), 9.8, 1e-9);
  EXPECT_LT(f.w[0].tail<3>().norm(), 1e-9);
  ASSERT_EQ(f.lambda[0].size(), f.lambda[1].size());
  EXPECT_LT((f.lambda[0] - f.lambda[1]).norm(), 1e-6);
}

/// A force on `body` that is not finite from time `from` on: the step it
/// enters diverges (its links' poses become non-finite after the joint
/// forces were recorded).
struct NonFiniteForceFrom : Component, ForceEffector {
  NonFiniteForceFrom(RigidBody& b, double t) : Component("nonFinite"), body(&b), from(t) {}
  void applyForces(double t) override {
    if (t >= from) body->addPointForce(body->getPosition(), Vector3d::Constant(std::nan("")));
  }
  RigidBody* body;
  double from;
};

TEST(ArticulatedSolver, JointForcesFirstReadAfterAFailedStepAreTheLastGoodSteps) {
  // The forces are formed only when asked for (DeferredJointForces), from a
  // record of their step that the joints get once the step has succeeded. A
  // two-link chain swings from horizontal; at 10 ms a non-finite force
  // makes the next step fail after it has recorded its joint forces. Read
  // for the first time then, both hinges give the forces a twin read at
  // 10 ms, bit for bit, not the failed step's.
  auto build = [](TestRoot& r) {
    r.setIntegrator(Integrator::Articulated);
    RigidBody& a = addHingedLink(r, "a", 0, nullptr);
    addHingedLink(r, "b", 1, &a);
  };
  TestRoot twin(Vector3d(0, 0, -9.8)), r(Vector3d(0, 0, -9.8));
  build(twin);
  build(r);
  r.mech.addForceEffector(std::make_unique<NonFiniteForceFrom>(r.mech.rigidBodies().get(1), 0.0095));
  twin.run(0.01, 1e-3);
  r.run(0.01, 1e-3);
  EXPECT_THROW(r.root->run(0.02), SolverError);
  EXPECT_THROW(r.root->run(0.02), SolverError);  // twice: the failed steps share one record
  EXPECT_EQ(r.mech.rigidBodies().get(1).getPosition(), twin.mech.rigidBodies().get(1).getPosition());
  for (int j = 0; j < 2; ++j) {
    const auto& failed = static_cast<const JointBase&>(r.mech.bodyConnectors().get(j));
    const auto& good = static_cast<const JointBase&>(twin.mech.bodyConnectors().get(j));
    ASSERT_TRUE(failed.getConstraintWrench().allFinite());
    EXPECT_GT(good.getConstraintWrench().norm(), 0.1);  // the links swing: a load to compare
    EXPECT_EQ(failed.getConstraintWrench(), good.getConstraintWrench());
    EXPECT_EQ(failed.getBilateralForces(), good.getBilateralForces());
  }
}

TEST(ArticulatedSolver, HangingLinkStaysAtRestWhereTransformGeometryMovesItsModel) {
  // Moving the model between steps moves the grounded hinge's D with it
  // (§4.7): the link hangs at rest from the moved hinge, not from the old.
  TestRoot r(Vector3d(0, 0, -9.8));
  HingeJoint& hinge = addGroundedLink(r, Integrator::Articulated);
  hinge.setTheta(-90);
  r.run(0.05, 1e-3);
  const RigidTransform3d X(0.3, 0, 0.2, 0, 0, 1, M_PI / 6);
  r.mech.transformGeometry(X);
  r.root->run(0.1);
  const RigidBody& link = r.mech.rigidBodies().get(0);
  EXPECT_LT((link.getPosition() - X.transformPoint(Vector3d(0, 0, -0.5))).norm(), 1e-9);
  EXPECT_LT(link.getVelocity().norm(), 1e-9);
  EXPECT_LT(maxJointError(r.mech), 1e-12);
}

TEST(ArticulatedSolver, JointWhoseBodyBIsTheLinkCarriesItsWeightAsTheMlcpSolverFindsIt) {
  // The hinge's A is a non-dynamic base and its B the swinging link, so
  // the tree's child is B: its wrench on A, and its bilateral forces, are
  // those the MLCP solver finds (both first order in h = 0.1 ms, the link
  // swinging at about 1 rad/s).
  const JointForces f = forcesUnderBoth(
      [](TestRoot& r) -> JointBase& {
        auto& base = r.mech.addRigidBody(RigidBody::createBox("base", 0.2, 0.2, 0.2, 1000));
        base.setDynamic(false);
        auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 0.1, 0.1, 1, 100));
        link.setPose(RigidTransform3d(0.1, 0, -0.5, 0, 1, 0, 0.2));  // tilted: it swings
        return r.mech.addBodyConnector(
            std::make_unique<HingeJoint>(base, &link, RigidTransform3d(0, 0, 0, 1, 0, 0, M_PI / 2), "hinge"));
      },
      0.3, 1e-4);
  EXPECT_LT((f.w[0] - f.w[1]).norm(), 0.02 * f.w[1].norm());
  ASSERT_EQ(f.lambda[0].size(), f.lambda[1].size());
  EXPECT_LT((f.lambda[0] - f.lambda[1]).norm(), 0.02 * f.lambda[1].norm());
}

TEST(ArticulatedSolver, SliderOnAnAcceleratingPlatformLeavesItsBodyAtRest) {
  // A non-dynamic platform driven along x at a = 2 m/s² carries a
  // frictionless slider along x: the body on it stays where it is in the
  // world while the slider's coordinate runs back by ½ a t².
  TestRoot r;  // no gravity
  r.setIntegrator(Integrator::Articulated);
  auto& platform = r.mech.addRigidBody(RigidBody::createBox("platform", 1, 1, 0.1, 1000));
  platform.setDynamic(false);
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 1000));
  box.setPose(RigidTransform3d(0, 0, 0.2));
  const RigidTransform3d TDW(Vector3d(0, 0, 0.2), AxisAngle(Vector3d::UnitY(), M_PI / 2).toMatrix());  // z along x
  auto& slider = static_cast<SliderJoint&>(
      r.mech.addBodyConnector(std::make_unique<SliderJoint>(box, &platform, TDW, "slider")));
  const double a = 2.0;
  r.root->addController("drive", [&](double t0, double) {
    platform.setVelocity((Twist() << a * t0, 0, 0, 0, 0, 0).finished());
  });
  r.run(1.0, 1e-3);
  EXPECT_LT(std::abs(box.getPosition().x()), 1e-9) << "the box stays put in the world";
  EXPECT_LT(box.getVelocity().head<3>().norm(), 1e-9);
  EXPECT_NEAR(slider.getZ(), -platform.getPosition().x(), 1e-9);
  EXPECT_NEAR(platform.getPosition().x(), 0.5 * a * 1.0 * (1.0 - 1e-3), 1e-9);  // h Σ a t_k
}

TEST(ArticulatedSolver, PendulumOnATranslatingSpinningPlatformFollowsTheMlcpSolver) {
  // A non-dynamic platform moving at a constant twist (0.5 m/s along y,
  // 1 rad/s about z) carries a link hinged about its y axis, 0.3 m off the
  // spin axis: the platform's frame accelerates (v × ω and the centripetal
  // part), and the link swings as under the MLCP solver.
  auto difference = [](double h) {
    Vector3d p[2];
    int k = 0;
    for (Integrator integ : {Integrator::Articulated, Integrator::ConstrainedBackwardEuler}) {
      TestRoot r(Vector3d(0, 0, -9.8));
      r.setIntegrator(integ);
      auto& platform = r.mech.addRigidBody(RigidBody::createBox("platform", 1, 1, 0.1, 1000));
      platform.setDynamic(false);
      platform.setVelocity((Twist() << 0, 0.5, 0, 0, 0, 1.0).finished());
      auto& link = addHingedLink(r, "link", 0.3, &platform);
      r.run(0.5, h);
      EXPECT_LT(maxJointError(r.mech), 1e-9);
      p[k++] = link.getPosition();
    }
    return (p[0] - p[1]).norm();
  };
  // The two agree to 2e-7 m after 0.5 s (to 1e-8 m at h = 0.01 ms);
  // leaving out the platform's v × ω puts the link 1 cm off.
  EXPECT_LT(difference(1e-3), 1e-5);
}

TEST(ArticulatedSolver, FreeFloatingTreeMovesItsCentreOfMassUniformly) {
  // A free body with a link hinged to it, spinning and flexing in space:
  // no external force, so the centre of mass moves uniformly. Symplectic
  // Euler in the coordinates keeps that to first order in h: the departure
  // after 1 s halves with the step.
  auto departure = [](double h) {
    TestRoot r;
    r.setIntegrator(Integrator::Articulated);
    auto& base = r.mech.addRigidBody(RigidBody::createBox("base", 0.4, 0.4, 0.4, 1000));
    auto& arm = addHingedLink(r, "arm", 0.2, &base);
    base.setVelocity((Twist() << 0.1, 0, 0.2, 0.5, 1.0, 0.3).finished());
    // A Vector3d, not the expression: that would refer to the temporaries
    // of the return statement after it (valgrind found the comparisons
    // below reading them).
    auto centreOfMass = [&]() -> Vector3d {
      return (base.getMass() * (base.getPosition() + base.getRotation() * base.getCenterOfMass()) +
              arm.getMass() * (arm.getPosition() + arm.getRotation() * arm.getCenterOfMass())) /
             (base.getMass() + arm.getMass());
    };
    r.root->setMaxStepSize(h);
    r.root->initialize(0);
    const Vector3d c0 = centreOfMass();
    r.root->run(h);
    const Vector3d vc = (centreOfMass() - c0) / h;
    r.root->run(1.0 + h);
    EXPECT_LT(maxJointError(r.mech), 1e-12);
    return (centreOfMass() - (c0 + vc * (1.0 + h))).norm();
  };
  const double coarse = departure(1e-3), fine = departure(5e-4);
  EXPECT_LT(coarse, 2e-4);
  EXPECT_LT(fine, 0.6 * coarse);
}

TEST(ArticulatedSolver, EightLinkLoopHoldsItsClosureAndConvergesToTheMlcpSolversMotion) {
  // The cut joint's rows are held by impulses and projection: every joint
  // within the stabilization tolerance after every step, and the motion the
  // MLCP solver's, to first order in h.
  auto run = [](const char* integrator, double h, double duration) {
    auto root = demoUnder("EightLinkLoop", integrator);
    root->setMaxStepSize(h);
    const Tracked t = runTracked(*root, duration);
    return std::make_pair(std::move(root), t);
  };
  auto [a, ta] = run("Articulated", 1e-3, 2.0);
  EXPECT_LT(ta.maxError, 1.5e-10) << "the stabilization tolerance, 1e-10";
  auto difference = [&](double h) {
    auto x = run("Articulated", h, 0.5).first;
    auto y = run("ConstrainedBackwardEuler", h, 0.5).first;
    return largestBodyDistance(*x, *y);
  };
  const double coarse = difference(1e-3), fine = difference(1e-4);
  EXPECT_LT(fine, 5e-4);
  EXPECT_GT(coarse / fine, 8.0);
}

TEST(ArticulatedSolver, HingeRangeStopsTheLinkAndCarriesTheGravityTorque) {
  // A link released level falls until its hinge's range stops it at −30°;
  // at rest the limit carries m g (L/2) cos 30° and pushes, as under the
  // MLCP solver.
  double theta[2], force[2];
  int k = 0;
  for (Integrator integ : {Integrator::Articulated, Integrator::ConstrainedBackwardEuler}) {
    TestRoot r(Vector3d(0, 0, -9.8));
    HingeJoint& hinge = addGroundedLink(r, integ);
    hinge.setThetaRange(-30, 30);
    r.run(3.0, 1e-3);
    theta[k] = hinge.getCoordinate(0);
    ASSERT_EQ(hinge.getUnilateralForces().size(), 1);
    force[k++] = hinge.getUnilateralForces()[0];
  }
  EXPECT_NEAR(theta[0], -M_PI / 6, 1e-9);
  EXPECT_GT(force[0], 0);
  VERIFY_NEAR("Articulated: hinge limit's moment holding a link at −30° [N m]", "m g (L/2) cos θ (statics)", force[0],
              1.0 * 9.8 * 0.5 * std::cos(M_PI / 6), 1e-6);
  EXPECT_NEAR(force[0], force[1], 1e-6);
  EXPECT_NEAR(theta[0], theta[1], 1e-9);
}

TEST(ArticulatedSolver, RefusesWhatItCannotTakeNamingTheJoint) {
  auto expectRefusal = [](RootModel& root, const std::string& path, const std::string& what) {
    try {
      root.setMaxStepSize(1e-3);
      root.initialize(0);
      root.run(2e-3);
      ADD_FAILURE() << "expected a refusal: " << what;
    } catch (const SolverError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  {  // a locked coordinate
    TestRoot r(Vector3d(0, 0, -9.8));
    addGroundedLink(r, Integrator::Articulated).setThetaLocked(true);
    expectRefusal(*r.root, "linkHinge", "locked coordinate");
  }
  {  // a compliant joint
    TestRoot r(Vector3d(0, 0, -9.8));
    addGroundedLink(r, Integrator::Articulated).setLinearCompliance(1e-6);
    expectRefusal(*r.root, "linkHinge", "compliant joint");
  }
  {  // a coupling whose allowed motion turns with its coordinates
    TestRoot r(Vector3d(0, 0, -9.8));
    r.setIntegrator(Integrator::Articulated);
    auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.1, 0.1, 1, 1000));
    b.setPose(RigidTransform3d(0, 0, -0.5));
    r.mech.addBodyConnector(std::make_unique<UniversalJoint>(b, nullptr, RigidTransform3d(), "uj"));
    expectRefusal(*r.root, "uj", "fixed in the joint frame");
  }
  {  // a particle
    TestRoot r(Vector3d(0, 0, -9.8));
    r.setIntegrator(Integrator::Articulated);
    r.mech.addParticle("p", 1.0, 0, 0, 0);
    expectRefusal(*r.root, "p", "rigid bodies only");
  }
}

}  // namespace
}  // namespace sinew
