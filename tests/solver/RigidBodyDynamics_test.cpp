// Torque-free rigid bodies: conservation of energy and angular momentum,
// and the Dzhanibekov flip about the intermediate axis (guide §3.2).
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "Verification.h"

namespace sinew {
namespace {

struct SpinResult {
  double energyDrift = 0;   ///< max |E − E0| / E0
  double momentumDrift = 0; ///< max |L − L0| / |L0|
  double minAlign = 1;      ///< min over time of (body axis k)·(world axis k)
};

/// A 1×2×3 box (principal moments 6.5, 5, 2.5 for mass 6) spinning mostly
/// about its intermediate (y) axis, with no forces at all.
SpinResult spin(Integrator integ, double h, double T, const Vector3d& w0, int axis = 1) {
  test::TestRoot r;
  r.setIntegrator(integ);
  auto& body = r.mech.addRigidBody(RigidBody::createBox("box", 1, 2, 3, 1.0));
  Twist tw = Twist::Zero();
  tw.tail<3>() = w0;
  body.setVelocity(tw);
  r.root->setMaxStepSize(h);
  r.root->initialize(0);
  const double E0 = body.getKineticEnergy();
  const Vector3d L0 = body.getAngularMomentum();
  SpinResult res;
  r.root->addMonitor("watch", [&](double, double) {
    res.energyDrift = std::max(res.energyDrift, std::abs(body.getKineticEnergy() - E0) / E0);
    res.momentumDrift = std::max(res.momentumDrift, (body.getAngularMomentum() - L0).norm() / L0.norm());
    res.minAlign = std::min(res.minAlign, body.getRotation()(axis, axis));
  });
  r.root->run(T);
  return res;
}

TEST(RigidBodyDynamics, BoxInertiaFromMesh) {
  auto box = RigidBody::createBox("b", 1, 2, 3, 1.0);
  const SpatialInertia& M = box->getInertia();
  EXPECT_NEAR(M.getMass(), 6.0, 1e-12);
  Matrix3d J = M.getRotationalInertia();
  EXPECT_NEAR(J(0, 0), 6.0 / 12 * (4 + 9), 1e-12);
  EXPECT_NEAR(J(1, 1), 6.0 / 12 * (1 + 9), 1e-12);
  EXPECT_NEAR(J(2, 2), 6.0 / 12 * (1 + 4), 1e-12);
  EXPECT_LT(M.getCenterOfMass().norm(), 1e-14);
}

TEST(RigidBodyDynamics, SphereInertiaFromMeshConverges) {
  // A faceted sphere approaches m = ρ·4/3πr³ and J = 2/5 m r² as it refines.
  const double r = 0.5, rho = 3.0;
  double prevErr = 1;
  for (int n : {16, 32, 64}) {
    auto s = RigidBody::createSphere("s", r, rho, n);
    double m = s->getMass();
    double mExact = rho * 4.0 / 3 * M_PI * r * r * r;
    double err = std::abs(m - mExact) / mExact;
    EXPECT_LT(err, prevErr / 3.0) << n;  // second-order convergence in 1/n
    prevErr = err;
    EXPECT_NEAR(s->getInertia().getRotationalInertia()(0, 0) / (0.4 * m * r * r), 1.0, 4 * err + 1e-3);
  }
  EXPECT_LT(prevErr, 5e-3);  // 64 slices
}

TEST(RigidBodyDynamics, TorqueFreeConservationRK4) {
  SpinResult a = spin(Integrator::RungeKutta4, 1e-3, 4.0, Vector3d(0.05, 5, 0.05));
  VERIFY_BELOW("torque-free box: relative energy drift over 4 s, RungeKutta4", "kinetic energy conserved",
               a.energyDrift, 1e-8);
  VERIFY_BELOW("torque-free box: relative angular-momentum drift over 4 s, RungeKutta4",
               "world angular momentum conserved", a.momentumDrift, 1e-8);
}

TEST(RigidBodyDynamics, TorqueFreeConservationTrapezoidal) {
  // The linearized trapezoidal step treats the gyroscopic term explicitly,
  // so drift is first order in h: check the bound and that it shrinks with h.
  SpinResult a = spin(Integrator::Trapezoidal, 1e-3, 4.0, Vector3d(0.05, 5, 0.05));
  SpinResult b = spin(Integrator::Trapezoidal, 5e-4, 4.0, Vector3d(0.05, 5, 0.05));
  EXPECT_LT(a.energyDrift, 2e-2);
  EXPECT_LT(a.momentumDrift, 2e-2);
  EXPECT_LT(b.energyDrift, 0.7 * a.energyDrift);
  EXPECT_LT(b.momentumDrift, 0.7 * a.momentumDrift);
}

TEST(RigidBodyDynamics, TorqueFreeConservationBackwardEuler) {
  // ConstrainedBackwardEuler takes the fictitious wrench at the midpoint of
  // the body's implicit-midpoint step and rotates by h ω⁺, which leaves
  // ½ω⁺ᵀJω⁺ unchanged: the kinetic energy of a free body is kept to
  // round-off, also spun fast (h·|ω| = 0.2, where the explicit wrench
  // gained energy every step) and through the flip; the angular momentum
  // drifts at first order in h.
  for (const Vector3d& w0 : {Vector3d(0.05, 5, 0.05), Vector3d(2, 200, 3)}) {
    SpinResult a = spin(Integrator::ConstrainedBackwardEuler, 1e-3, 2.0, w0);
    SpinResult b = spin(Integrator::ConstrainedBackwardEuler, 5e-4, 2.0, w0);
    VERIFY_BELOW("torque-free box: relative energy drift over 2 s, ConstrainedBackwardEuler, |ω| = " +
                     std::to_string(int(w0.norm())) + " rad/s",
                 "kinetic energy conserved", a.energyDrift, 1e-11);
    EXPECT_LT(b.energyDrift, 1e-11) << w0.transpose();
    EXPECT_NEAR(b.momentumDrift / a.momentumDrift, 0.5, 0.1) << w0.transpose();
  }
}

TEST(RigidBodyDynamics, DzhanibekovFlip) {
  // Spin about the intermediate axis is unstable: the body's y axis flips
  // to point along −y while L stays fixed; about the major axis it does not.
  SpinResult inter = spin(Integrator::RungeKutta4, 1e-3, 4.0, Vector3d(0.05, 5, 0.05));
  EXPECT_LT(inter.minAlign, -0.9);
  // About the major (x) and minor (z) axes the same perturbation only wobbles.
  EXPECT_GT(spin(Integrator::RungeKutta4, 1e-3, 4.0, Vector3d(5, 0.05, 0.05), 0).minAlign, 0.99);
  EXPECT_GT(spin(Integrator::RungeKutta4, 1e-3, 4.0, Vector3d(0.05, 0.05, 5), 2).minAlign, 0.99);
}

}  // namespace
}  // namespace sinew
