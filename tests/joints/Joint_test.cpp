// Joints (guide §3.3–3.4): pendulum period, constraint forces, sliding on
// an incline, limits, locking, compliance, drift, and bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "Verification.h"
#include "sinew/mech/AxialSpring.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/EllipsoidJoint.h"
#include "sinew/joints/PlanarConnector.h"
#include "sinew/joints/SliderJoint.h"
#include "sinew/joints/SphericalJoint.h"
#include "sinew/joints/UniversalJoint.h"

namespace sinew {
namespace {

const double g = 9.81;

/// A point-like bob of mass m (tiny rotational inertia J) hinged to ground
/// at the origin about world y, hanging a distance L below, at angle θ0.
struct Pendulum {
  test::TestRoot r{Vector3d(0, 0, -g)};
  RigidBody* bob;
  HingeJoint* joint;
  double m = 2.0, L = 1.0, J = 1e-6;
  Pendulum(double theta0Deg, Integrator integ = Integrator::ConstrainedBackwardEuler) {
    r.setIntegrator(integ);
    auto b = std::make_unique<RigidBody>("bob");
    b->setInertia(m, J, J, J);
    bob = &r.mech.addRigidBody(std::move(b));
    bob->setPose(RigidTransform3d(0, 0, -L));
    // D's z axis along world y: rotation about x by −90°.
    RigidTransform3d TDW(0, 0, 0, 1, 0, 0, -M_PI / 2);
    joint = &r.mech.addBodyConnector(std::make_unique<HingeJoint>(*bob, nullptr, TDW, "hinge"));
    joint->setTheta(theta0Deg);
  }
};

double measurePeriod(Pendulum& p, double h, double duration) {
  return test::measurePeriod(*p.r.root, h, duration, [&] { return p.joint->getTheta(); });
}

TEST(Joint, PendulumSmallAnglePeriod) {
  Pendulum p(2.0);
  double T = measurePeriod(p, 1e-3, 12.0);
  // Physical pendulum of a near-point mass: T = 2π √(I/(m g L)), I = m L² + J.
  double expected = 2 * M_PI * std::sqrt((p.m * p.L * p.L + p.J) / (p.m * g * p.L));
  VERIFY_NEAR("pendulum: small-angle period / physical-pendulum value", "T = 2π√(I/(m g L))", T / expected, 1.0, 1e-3);
  VERIFY_NEAR("pendulum: small-angle period / simple-pendulum value", "T = 2π√(L/g)",
              T / (2 * M_PI * std::sqrt(p.L / g)), 1.0, 1e-3);
}

TEST(Joint, PendulumWithItsCentreOfMassOffItsFrameSwingsAsAPhysicalPendulum) {
  // The same bob built the other way: its frame at the pivot and its
  // centre of mass L below it in body coordinates, so its mass block
  // couples translation and rotation (the solver's general 6 × 6 path, not
  // the split one of a body about its centre of mass), with J = 0.05 about
  // the centre of mass. Small-angle period 2π √((m L² + J)/(m g L)).
  const double m = 2.0, L = 1.0, J = 0.05;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto b = std::make_unique<RigidBody>("bob");
  b->setInertia(m, Matrix3d(Vector3d(J, J, J).asDiagonal()), Vector3d(0, 0, -L));
  RigidBody& bob = r.mech.addRigidBody(std::move(b));
  RigidTransform3d TDW(0, 0, 0, 1, 0, 0, -M_PI / 2);  // D's z along world y
  auto& joint = static_cast<HingeJoint&>(r.mech.addBodyConnector(std::make_unique<HingeJoint>(bob, nullptr, TDW, "hinge")));
  joint.setTheta(2.0);
  const double T = test::measurePeriod(*r.root, 1e-3, 12.0, [&] { return joint.getTheta(); });
  EXPECT_NEAR(T / (2 * M_PI * std::sqrt((m * L * L + J) / (m * g * L))), 1.0, 1e-3);
  EXPECT_LT(joint.getConstraintError().norm(), 1e-9);
}

double largeAnglePeriodRatio(Integrator integ, double h) {
  // Released at 90°: T = 4 √(L/g) K(sin 45°), with K the complete elliptic
  // integral of the first kind (18% longer than the small-angle period).
  Pendulum p(90.0, integ);
  return measurePeriod(p, h, 10.0) / (4 * std::sqrt(p.L / g) * std::comp_ellint_1(std::sin(M_PI / 4)));
}

TEST(Joint, PendulumLargeAnglePeriod) {
  // ConstrainedBackwardEuler (the default) holds its velocity to the joint
  // rows linearized at the step's midpoint (G u⁺ = −(h/2) Ġu), and
  // Trapezoidal holds the average velocity to rows taken at the midpoint,
  // so the positions follow the chord of the swing: the period is well
  // within 0.1% at h = 1 ms (measured 1.3e-6 and 1.1e-6) and improves as h
  // shrinks.
  for (auto integ : {Integrator::ConstrainedBackwardEuler, Integrator::Trapezoidal}) {
    const double e1 = std::abs(largeAnglePeriodRatio(integ, 1e-3) - 1);
    const double e4 = std::abs(largeAnglePeriodRatio(integ, 2.5e-4) - 1);
    VERIFY_BELOW("pendulum: 90° period relative error, " + test::integratorName(integ) + ", h = 1 ms",
                 "T = 4√(L/g) K(sin 45°), K the complete elliptic integral", e1, 1e-4);
    EXPECT_LT(e4, e1) << int(integ);
  }
  // RK4 projects its velocities onto the end-of-step rows: first-order
  // convergence (quartering h divides the error by about 4).
  const double e1 = std::abs(largeAnglePeriodRatio(Integrator::RungeKutta4, 1e-3) - 1);
  const double e4 = std::abs(largeAnglePeriodRatio(Integrator::RungeKutta4, 2.5e-4) - 1);
  EXPECT_LT(e1, 0.012);
  EXPECT_LT(e4, 0.35 * e1);
}

/// Energy change of a double pendulum of two 1 m, 1 kg links (hinges about
/// y, released horizontal) over `duration`, relative to m g L = 9.81 J.
double doublePendulumEnergyDrift(Integrator integ, double duration) {
  test::TestRoot r(Vector3d(0, 0, -g));
  r.setIntegrator(integ);
  Frame* prev = nullptr;
  for (int i = 0; i < 2; ++i) {
    auto& b = r.mech.addRigidBody(RigidBody::createBox("link" + std::to_string(i), 1, 0.1, 0.1, 100));
    b.setPose(RigidTransform3d(i + 0.5, 0, 0));
    RigidTransform3d TDW(i, 0, 0, 1, 0, 0, -M_PI / 2);  // D's z along world y
    r.mech.addBodyConnector(std::make_unique<HingeJoint>(b, prev, TDW, "h" + std::to_string(i)));
    prev = &b;
  }
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  const double E0 = r.mech.getEnergy();
  double maxDrift = 0;
  r.root->addMonitor("E", [&](double, double) { maxDrift = std::max(maxDrift, std::abs(r.mech.getEnergy() - E0)); });
  r.root->run(duration);
  return maxDrift / (1.0 * g * 1.0);
}

TEST(Joint, DoublePendulumEnergyStaysBounded) {
  // A chaotic double pendulum, 10 s at h = 1 ms. Trapezoidal's constraint
  // impulse acts along rows at the step's midpoint and holds the average
  // velocity that moves the positions, so it does no work: the energy stays
  // within 5e-5 of m g L (measured 6.3e-6). ConstrainedBackwardEuler is
  // dissipative by design; with midpoint-linearized rows it stays within
  // 0.5% (measured 0.29%).
  const char* ref = "energy conserved (no dissipation in the model)";
  VERIFY_BELOW("double pendulum: energy drift / m g L over 10 s, Trapezoidal", ref,
               doublePendulumEnergyDrift(Integrator::Trapezoidal, 10.0), 5e-5);
  VERIFY_BELOW("double pendulum: energy drift / m g L over 10 s, ConstrainedBackwardEuler", ref,
               doublePendulumEnergyDrift(Integrator::ConstrainedBackwardEuler, 10.0), 5e-3);
}

/// Largest joint error after any step of a 10-link hinge chain released
/// horizontal for 1 s with the given stabilization (and tolerance, when
/// given).
double swingingChainJointError(PosStabilization method, double tol = 0) {
  test::TestRoot r(Vector3d(0, 0, -g));
  r.mech.setStabilization(method);
  if (tol > 0) r.mech.setStabilizationTol(tol);
  Frame* prev = nullptr;
  std::vector<JointBase*> joints;
  for (int i = 0; i < 10; ++i) {
    auto& b = r.mech.addRigidBody(RigidBody::createBox("link" + std::to_string(i), 1, 0.1, 0.1, 100));
    b.setPose(RigidTransform3d(i + 0.5, 0, 0));
    RigidTransform3d TDW(i, 0, 0, 1, 0, 0, -M_PI / 2);  // D's z along world y
    joints.push_back(&r.mech.addBodyConnector(std::make_unique<HingeJoint>(b, prev, TDW, "h" + std::to_string(i))));
    prev = &b;
  }
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  double worst = 0;
  r.root->addMonitor("err", [&](double, double) {
    for (auto* j : joints) worst = std::max(worst, j->getConstraintError().norm());
  });
  r.root->run(1.0);
  return worst;
}

TEST(Joint, StabilizationLeavesErrorsWithinItsToleranceAfterEveryStep) {
  // §4.1.3. Each step's motion along the curved hinges leaves errors of
  // about 1e-8; the projection passes remove them to stabilizationTol, row
  // by row (the error twist's norm sums the hinge's five rows). Under
  // GlobalMass they reuse the velocity solve's factors (chord passes, each
  // removing all but a fraction h·ω); GlobalStiffness factors afresh.
  const double rows = std::sqrt(5.0);
  for (double tol : {1e-10, 1e-11, 1e-12}) {
    EXPECT_LT(swingingChainJointError(PosStabilization::GlobalMass, tol), rows * tol) << tol;
    EXPECT_LT(swingingChainJointError(PosStabilization::GlobalStiffness, tol), rows * tol) << tol;
  }
  // The default is 1e-10 m (or rad).
  EXPECT_LT(swingingChainJointError(PosStabilization::GlobalMass), rows * 1e-10);
  test::TestRoot r;
  EXPECT_EQ(r.mech.getStabilizationTol(), 1e-10);
  EXPECT_THROW(r.mech.setStabilizationTol(0), ModelError);
  EXPECT_THROW(r.mech.getProperty("stabilizationTol").set(-1e-9), Error);
}

/// Where a spherical joint assembled with a gap d along x is closed by the
/// initial position stabilization: body A is free, body B is held along x
/// by a spring of stiffness k (at rest). Returns the x positions of A and B.
std::pair<double, double> closedJointPositions(PosStabilization method, double d, double k) {
  test::TestRoot r;
  r.mech.setStabilization(method);
  auto& a = r.mech.addRigidBody(RigidBody::createBox("a", 0.1, 0.1, 0.1, 1000));  // 1 kg
  auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.1, 0.1, 0.1, 1000));
  b.setPose(RigidTransform3d(d, 0, 0));
  auto joint = std::make_unique<SphericalJoint>("joint");
  joint->setBodies(a, RigidTransform3d(), &b, RigidTransform3d());
  r.mech.addBodyConnector(std::move(joint));
  auto& anchor = r.mech.addParticle("anchor", 1.0, d + 1, 0, 0);
  anchor.setDynamic(false);
  auto& mk = r.mech.addFrameMarkerWorld(b, Vector3d(d, 0, 0), "mk");
  r.mech.attachAxialSpring(anchor, mk, std::make_unique<AxialSpring>("spring", k, 0.0, 1.0));
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  return {a.getPosition().x(), b.getPosition().x()};
}

TEST(Joint, JointAssembledWithAnErrorIsPulledTogether) {
  // §4.1.3: the correction is the smallest one in the metric of the mass
  // (GlobalMass) or of the stiffness-corrected mass M + K (GlobalStiffness).
  // Two 1 kg bodies 0.1 m apart meet in the middle under GlobalMass; when B
  // is held by a spring of stiffness k, GlobalStiffness moves A by
  // d (m + k)/(2m + k) and B by d m/(2m + k).
  const double d = 0.1, k = 3.0, m = 1.0;
  auto [xa, xb] = closedJointPositions(PosStabilization::GlobalMass, d, k);
  EXPECT_NEAR(xa, d / 2, 1e-12);
  EXPECT_NEAR(xb, d / 2, 1e-12);
  std::tie(xa, xb) = closedJointPositions(PosStabilization::GlobalStiffness, d, k);
  EXPECT_NEAR(xa, d * (m + k) / (2 * m + k), 1e-12);
  EXPECT_NEAR(xb, d * (m + k) / (2 * m + k), 1e-12);
}

/// A 1 kg box spinning about z at `turns` per second on a hinge to ground,
/// stepped at 1 ms from t = 0.
HingeJoint& spinOnHinge(test::TestRoot& r, double turns) {
  auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.1, 0.1, 0.1, 1000));
  auto& hinge = r.mech.addBodyConnector(std::make_unique<HingeJoint>(b, nullptr, RigidTransform3d(), "hinge"));
  Twist v = Twist::Zero();
  v[5] = 2 * M_PI * turns;
  b.setVelocity(v);
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  return hinge;
}

TEST(Joint, RestoredStateBringsBackUnwrappedCoordinates) {
  // A body spinning at one turn per second on a hinge: its angle unwraps
  // (1080° after 3 s). Restoring the state saved at 1.5 s must read 540°
  // again, not the branch nearest the later value (900°).
  test::TestRoot r;
  auto& hinge = spinOnHinge(r, 1);
  r.root->run(1.5);
  EXPECT_NEAR(hinge.getTheta(), 540, 1e-6);
  Eigen::VectorXd saved;
  r.root->getState(saved);
  r.root->run(3.0);
  EXPECT_NEAR(hinge.getTheta(), 1080, 1e-6);
  r.root->setState(saved);
  EXPECT_NEAR(hinge.getTheta(), 540, 1e-6);
}

/// The integrators whose joints the spinning tests run.
const Integrator kSpinIntegrators[] = {Integrator::ConstrainedBackwardEuler, Integrator::Trapezoidal,
                                       Integrator::AlphaBeta, Integrator::Impulse, Integrator::Articulated};

/// The hinge angle (degrees) after 1 s of spinning at ten turns a second
/// (0.063 rad a step) under `in`, within the range ±limitDeg (0: none).
double thetaAfterFastSpin(Integrator in, double limitDeg) {
  test::TestRoot r;
  r.mech.setIntegrator(in);
  auto& hinge = spinOnHinge(r, 10);
  if (limitDeg > 0) hinge.setThetaRange(-limitDeg, limitDeg);
  r.root->run(1.0);
  return hinge.getTheta();
}

TEST(Joint, FastSpinningHingeUnwrapsUnderEveryIntegrator) {
  // The angle must unwrap to 3600° after 1 s under every integrator,
  // though the chord passes and look-aheads, which evaluate only the rows'
  // errors, leave the coordinate to the step's full evaluation.
  for (Integrator in : kSpinIntegrators) {
    SCOPED_TRACE(static_cast<int>(in));
    EXPECT_NEAR(thetaAfterFastSpin(in, 0), 3600, 1e-6);
  }
}

TEST(Joint, FastSpinningHingeStopsAtAFarLimit) {
  // The same spin against an upper limit at 1000° (almost three turns):
  // with a finite range the errors-only evaluations keep the coordinate,
  // and the limit must stop the hinge at the unwrapped 1000°, not a turn
  // early or late, under every integrator.
  for (Integrator in : kSpinIntegrators) {
    SCOPED_TRACE(static_cast<int>(in));
    EXPECT_NEAR(thetaAfterFastSpin(in, 1000), 1000, 1e-3);
  }
}

TEST(Joint, HangingPendulumCarriesItsWeight) {
  Pendulum p(0.0);
  p.r.run(0.5, 1e-3);
  Wrench w = p.joint->getConstraintWrench();
  VERIFY_NEAR("constraint force: hanging pendulum's hinge force [N]", "m g (statics)", w.head<3>().norm(), p.m * g,
              1e-6);
  EXPECT_LT((p.bob->getPosition() - Vector3d(0, 0, -p.L)).norm(), 1e-9);
}

TEST(Joint, LimitFarOffDoesNotBrakeThePendulum) {
  // A pendulum released at 60° swings towards a limit at −40°, which it
  // reaches after its lowest point (at 0.78 s). Until then the limit is
  // separated and holds nothing: the pendulum's energy follows the same
  // course as without the limit, step for step. The explicit RungeKutta4
  // ends each step with the MLCP's velocity projection, whose rows (built
  // with h = 1 s) had let a separated limit close its gap at no more than
  // φ per second, and so braked the pendulum: it lost its 9.3 J of swing
  // and never got there.
  for (Integrator in : {Integrator::RungeKutta4, Integrator::ConstrainedBackwardEuler}) {
    SCOPED_TRACE(static_cast<int>(in));
    std::vector<double> energy[2];
    double lowest = 0;
    for (int limited = 0; limited < 2; ++limited) {
      Pendulum p(60.0, in);
      if (limited) p.joint->setThetaRange(-40, 70);
      p.r.root->setMaxStepSize(1e-3);
      p.r.root->initialize(0);
      p.r.root->addMonitor("m", [&](double, double) {
        if (p.joint->getTheta() > -39.5) energy[limited].push_back(p.r.root->getEnergy());
        if (limited) lowest = std::min(lowest, p.joint->getTheta());
      });
      p.r.run(0.8, 1e-3);
    }
    EXPECT_LT(lowest, -39.9) << "it reached the limit";
    EXPECT_GT(lowest, -40.001) << "and stopped there";
    ASSERT_GT(energy[1].size(), 700u);
    double worst = 0;
    for (size_t k = 0; k < energy[1].size() && k < energy[0].size(); ++k)
      worst = std::max(worst, std::abs(energy[1][k] - energy[0][k]));
    // Under RungeKutta4 the same to round-off. ConstrainedBackwardEuler's
    // position stabilization takes its chord passes only without unilateral
    // rows, and with the limit's row it factors afresh: the two runs part
    // by about 1e-10 J a step (1.6e-7 J over the swing).
    EXPECT_LT(worst, in == Integrator::RungeKutta4 ? 1e-9 : 1e-6) << "J";
  }
}

TEST(Joint, HingeDriftStaysSmall) {
  // Released from horizontal; the bob stays at distance L from the pivot.
  Pendulum p(90.0, Integrator::Trapezoidal);
  double maxErr = 0;
  p.r.root->setMaxStepSize(1e-3);
  p.r.root->initialize(0);
  p.r.root->addMonitor("err", [&](double, double) {
    maxErr = std::max(maxErr, std::abs(p.bob->getPosition().norm() - p.L));
    maxErr = std::max(maxErr, std::abs(p.bob->getPosition().y()));
  });
  p.r.root->run(1.0);
  EXPECT_LT(maxErr, 1e-8);
}

TEST(Joint, ThetaRoundTripsAndMovesTheBody) {
  Pendulum p(0.0);
  p.joint->setTheta(30);
  EXPECT_NEAR(p.joint->getTheta(), 30, 1e-12);
  // Positive θ about +y carries the bob from −z toward −x.
  EXPECT_NEAR(p.bob->getPosition().x(), -p.L * std::sin(M_PI / 6), 1e-12);
  EXPECT_NEAR(p.bob->getPosition().z(), -p.L * std::cos(M_PI / 6), 1e-12);
  p.joint->getProperty("theta").set(-45.0);
  EXPECT_NEAR(p.joint->getTheta(), -45, 1e-12);
}

TEST(Joint, LimitStopsAndPushesNeverPulls) {
  // Released at 60°, the bob would swing to about −60°; the lower limit at
  // −20° stops it there, pushing only.
  Pendulum p(60.0);
  p.joint->setThetaRange(-20, 70);
  double minTheta = 1e9, minForce = 0, maxForce = 0;
  p.r.root->setMaxStepSize(1e-3);
  p.r.root->initialize(0);
  p.r.root->addMonitor("lim", [&](double, double) {
    minTheta = std::min(minTheta, p.joint->getTheta());
    const auto& f = p.joint->getUnilateralForces();
    for (int i = 0; i < f.size(); ++i) {
      minForce = std::min(minForce, f[i]);
      maxForce = std::max(maxForce, f[i]);
    }
  });
  p.r.root->run(3.0);
  EXPECT_GT(minTheta, -20 - 1e-6);
  EXPECT_LT(minTheta, -19.9);  // it did reach the limit
  EXPECT_GE(minForce, 0.0);
  EXPECT_GT(maxForce, 0.0);
}

TEST(Joint, LockingFreezesAndUnlockingFrees) {
  Pendulum p(40.0);
  p.joint->setThetaLocked(true);
  p.r.run(1.0, 1e-3);
  EXPECT_NEAR(p.joint->getTheta(), 40.0, 1e-6);
  p.joint->setThetaLocked(false);
  p.r.root->run(1.5);
  EXPECT_LT(p.joint->getTheta(), 30.0);
}

TEST(Joint, SliderOnFrictionlessIncline) {
  const double alpha = 0.3;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 500));
  // D's z axis points down the slope: (cos α, 0, −sin α).
  RigidTransform3d TDW = frameFromZAxis(Vector3d::Zero(), Vector3d(std::cos(alpha), 0, -std::sin(alpha)), "t");
  auto& slider = r.mech.addBodyConnector(std::make_unique<SliderJoint>(box, nullptr, TDW, "slider"));
  r.run(1.0, 1e-3);
  EXPECT_NEAR(slider.getZ(), 0.5 * g * std::sin(alpha), 1e-3 * 0.5 * g);  // BE: first order in h
  Vector3d v = box.getVelocity().head<3>();
  VERIFY_NEAR("slider on a frictionless 0.3 rad incline: speed after 1 s [m/s]", "v = g t sin α", v.norm(),
              g * std::sin(alpha), 1e-9);
  EXPECT_NEAR(box.getVelocity().tail<3>().norm(), 0.0, 1e-9);
  VERIFY_NEAR("slider on a frictionless 0.3 rad incline: normal force [N]", "m g cos α",
              slider.getConstraintWrench().head<3>().norm(), box.getMass() * g * std::cos(alpha), 1e-6);
}

TEST(Joint, CompliantJointDeflectsByLoadTimesCompliance) {
  const double c = 1e-4;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 500));
  auto& joint = r.mech.addBodyConnector(std::make_unique<SolidJoint>(box, nullptr, RigidTransform3d(), "weld"));
  const double m = box.getMass();
  joint.setLinearCompliance(c);
  joint.setCompliantDamping(2 * std::sqrt(m / c));  // critical
  double minZ = 0;
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  r.root->addMonitor("z", [&](double, double) { minZ = std::min(minZ, box.getPosition().z()); });
  r.root->run(1.0);
  EXPECT_NEAR(box.getPosition().z(), -m * g * c, 1e-9);
  EXPECT_GT(minZ, -m * g * c * (1 + 1e-6));  // critically damped: no overshoot
}

TEST(Joint, BadInputNamesTheJoint) {
  test::TestRoot r;
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 1, 1, 1, 1));
  EXPECT_THROW(HingeJoint(box, &box, RigidTransform3d(), "self"), ModelError);
  try {
    HingeJoint j(box, nullptr, Vector3d::Zero(), Vector3d::Zero(), "axis");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("axis"), std::string::npos);
  }
  auto& j = r.mech.addBodyConnector(std::make_unique<HingeJoint>(box, nullptr, RigidTransform3d(), "hinge"));
  EXPECT_THROW(j.setThetaRange(30, -30), ModelError);
  j.setThetaRange(-30, 30);
  try {
    j.setTheta(45);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(e.path().find("hinge"), std::string::npos);
  }
}

TEST(Joint, BadInputForTheOtherTypesNamesTheJoint) {
  test::TestRoot r;
  auto& box = r.mech.addRigidBody(RigidBody::createBox("box", 1, 1, 1, 1));
  auto expectNamed = [](auto&& make, const std::string& name) {
    try {
      make();
      ADD_FAILURE() << name << " accepted";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  expectNamed([&] { EllipsoidJoint(0.1, -0.2, 0.3, 0, false, "ell"); }, "ell");
  expectNamed([&] { SkewedUniversalJoint(box, nullptr, Vector3d::Zero(), Vector3d::UnitZ(), Vector3d::UnitZ(), "skew"); },
              "skew");
  expectNamed([&] { SkewedUniversalJoint(95, "skew95"); }, "skew95");
  expectNamed([&] { SegmentedPlanarConnector(std::vector<double>{0, 0, 1}, "odd"); }, "odd");
  expectNamed([&] { SegmentedPlanarConnector(std::vector<double>{0, 0, 0, 0}, "zero"); }, "zero");
  expectNamed([&] { SphericalJoint(box, nullptr, Vector3d::Zero(), "ball").setMaxTilt(200); }, "ball");
  auto& s = r.mech.addBodyConnector(std::make_unique<SphericalJoint>(box, nullptr, Vector3d::Zero(), "sph"));
  expectNamed([&] { s.getCoordinate(0); }, "sph");  // it has no coordinates
}

}  // namespace
}  // namespace sinew

#include "demos/Demos.h"

namespace sinew {
namespace {

double maxJointError(RootModel& root) {
  double e = 0;
  auto& mech = static_cast<MechModel&>(root.models().get(0));
  for (int i = 0; i < mech.bodyConnectors().size(); ++i)
    e = std::max(e, static_cast<JointBase&>(mech.bodyConnectors().get(i)).getConstraintError().norm());
  return e;
}

TEST(Joint, ClosedFourBarLoopStaysClosedWithFiniteForces) {
  // 20 hinge constraints on 18 dofs: redundant. Hard (the solver's
  // regularization) and compliant (the guide's 1e-6) loops both stay
  // closed, the compliant one within its compliant give.
  for (double c : {0.0, 1e-6}) {
    auto root = demos::createDemo("FourBarLinkage", {"-compliance", std::to_string(c)});
    root->setMaxStepSize(0.01);
    root->initialize(0);
    double maxErr = 0, maxForce = 0;
    root->addMonitor("m", [&](double, double) {
      maxErr = std::max(maxErr, maxJointError(*root));
      auto& mech = static_cast<MechModel&>(root->models().get(0));
      for (int i = 0; i < 4; ++i)
        maxForce = std::max(maxForce,
                            static_cast<JointBase&>(mech.bodyConnectors().get(i)).getConstraintWrench().norm());
    });
    root->run(2.0);
    EXPECT_LT(maxErr, c == 0 ? 1e-6 : 5e-3) << c;
    EXPECT_TRUE(std::isfinite(maxForce)) << c;
    // Links of 50 kg swinging at a few rad/s: forces of order 10³ N, not 10¹².
    EXPECT_LT(maxForce, 1e5) << c;
  }
}

TEST(Joint, HangingFourBarCarriesItsLoadSymmetrically) {
  // The guide's four-bar hung from its top link: two 50 kg side links and a
  // 75 kg bottom link hang at rest. In its plane the loop is statically
  // determinate (each top hinge carries one side link and half the bottom
  // link, each bottom hinge half the bottom link); its three redundant rows
  // are out of plane and unloaded, so the solve's regularization (c = 0)
  // must leave them at zero rather than split a load arbitrarily. The
  // compliant loop settles to the same forces.
  for (double c : {0.0, 1e-6}) {
    auto root = demos::createDemo("FourBarLinkage", {"-compliance", std::to_string(c)});
    auto& mech = static_cast<MechModel&>(root->models().get(0));
    mech.rigidBodies().get("link0")->setDynamic(true);
    mech.rigidBodies().get("link1")->setDynamic(false);
    root->setMaxStepSize(0.01);
    root->initialize(0);
    root->run(2.0);
    const double gm = mech.getGravity().norm();
    const double side = mech.rigidBodies().get("link0")->getMass() * gm;
    const double bottom = mech.rigidBodies().get("link3")->getMass() * gm;
    const double expected[4] = {side + bottom / 2, side + bottom / 2, bottom / 2, bottom / 2};
    for (int i = 0; i < 4; ++i) {
      const Wrench w = static_cast<JointBase&>(mech.bodyConnectors().get(i)).getConstraintWrench();
      EXPECT_NEAR(w.head<3>().norm(), expected[i], 1e-6 * expected[0]) << "joint" << i << " c=" << c;
      EXPECT_LT(w.tail<3>().norm(), 1e-6 * expected[0]) << "joint" << i << " c=" << c;
    }
  }
}

}  // namespace
}  // namespace sinew
