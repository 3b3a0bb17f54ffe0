// Integrators against analytic solutions (guide §4.1.2): a mass-spring
// oscillator (period, damped decay, order of accuracy) and a projectile.
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "Verification.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/SphericalJoint.h"

namespace sinew {
namespace {

const Integrator kAll[] = {Integrator::ForwardEuler, Integrator::SymplecticEuler, Integrator::RungeKutta4,
                           Integrator::ConstrainedBackwardEuler, Integrator::Trapezoidal};

int order(Integrator i) {
  switch (i) {
    case Integrator::RungeKutta4: return 4;
    case Integrator::Trapezoidal: return 2;
    default: return 1;
  }
}

/// Unit mass on a zero-rest-length spring from a fixed point, released from
/// x = 1 at rest: m ẍ = −k x − d ẋ exactly, in 1-D.
double oscillatorX(Integrator integ, double k, double d, double T, double h) {
  test::TestRoot r;
  r.setIntegrator(integ);
  auto& p0 = r.mech.addParticle("p0", 1, 0, 0, 0);
  p0.setDynamic(false);
  auto& p1 = r.mech.addParticle("p1", 1, 1, 0, 0);
  r.mech.attachAxialSpring(p0, p1, std::make_unique<AxialSpring>("s", k, d, 0));
  r.run(T, h);
  return p1.getPosition().x();
}

double analyticX(double k, double d, double t) {
  double w0 = std::sqrt(k), zeta = d / (2 * std::sqrt(k));
  double wd = w0 * std::sqrt(1 - zeta * zeta);
  return std::exp(-zeta * w0 * t) * (std::cos(wd * t) + zeta * w0 / wd * std::sin(wd * t));
}

TEST(Integrator, OscillatorOrderOfAccuracy) {
  const double k = 4 * M_PI * M_PI;  // period 1 s
  for (Integrator integ : kAll) {
    int p = order(integ);
    double h = p == 4 ? 0.02 : p == 2 ? 0.004 : 0.001;
    // At T = 1.3 s x(t) crosses with non-zero slope, so phase and amplitude
    // errors both show at first order (at a peak, phase errors square).
    const double T = 1.3;
    double e1 = std::abs(oscillatorX(integ, k, 0, T, h) - analyticX(k, 0, T));
    double e2 = std::abs(oscillatorX(integ, k, 0, T, h / 2) - analyticX(k, 0, T));
    // Halving h divides the error by about 2^p: log2 of the ratio within
    // log2(1.25) of p.
    VERIFY_NEAR("integrators: order of " + test::integratorName(integ) + " (mass-spring, T = 1.3 s)",
                "error of x(t) = cos 2πt falls as h^p", std::log2(e1 / e2), double(p), std::log2(1.25));
  }
}

TEST(Integrator, OscillatorPeriod) {
  // After exactly one period the mass is back at x = 1.
  const double k = 4 * M_PI * M_PI;
  const char* ref = "x(T) = x(0) after one period T = 2π√(m/k) = 1 s";
  VERIFY_NEAR("oscillator: period, RungeKutta4, h = 1 ms", ref,
              oscillatorX(Integrator::RungeKutta4, k, 0, 1.0, 0.001), 1.0, 1e-10);
  VERIFY_NEAR("oscillator: period, Trapezoidal, h = 1 ms", ref,
              oscillatorX(Integrator::Trapezoidal, k, 0, 1.0, 0.001), 1.0, 2e-5);
  VERIFY_NEAR("oscillator: period, ConstrainedBackwardEuler, h = 0.1 ms", ref,
              oscillatorX(Integrator::ConstrainedBackwardEuler, k, 0, 1.0, 1e-4), 1.0, 1e-2);
}

TEST(Integrator, DampedDecay) {
  // ζ = 0.1: x(t) = e^{−ζω0 t}(cos ωd t + ζω0/ωd sin ωd t).
  const double k = 4 * M_PI * M_PI, d = 0.2 * std::sqrt(k);
  for (Integrator integ : kAll) {
    int p = order(integ);
    double h = p == 4 ? 0.005 : p == 2 ? 0.001 : 1e-4;
    double tol = p == 4 ? 1e-7 : p == 2 ? 1e-4 : 5e-3;
    for (double T : {0.5, 1.7, 3.0})
      EXPECT_NEAR(oscillatorX(integ, k, d, T, h), analyticX(k, d, T), tol) << "integrator " << int(integ);
  }
}

TEST(Integrator, ProjectileUnderGravity) {
  const Vector3d g(0, 0, -9.8), x0(0.5, -1, 2), v0(1, 0.3, 5);
  const double T = 1.0, h = 0.01;
  for (Integrator integ : kAll) {
    test::TestRoot r(g);
    r.setIntegrator(integ);
    auto& p = r.mech.addParticle("p", 3.0, x0.x(), x0.y(), x0.z());
    p.setVelocity(v0);
    r.run(T, h);
    // Trapezoidal and RK4 are exact for constant acceleration; the Euler
    // methods follow their exact discrete solutions x0 + v0 t + g t(t ± h)/2.
    double shift = (integ == Integrator::ForwardEuler) ? -h
                   : (integ == Integrator::SymplecticEuler || integ == Integrator::ConstrainedBackwardEuler) ? h
                                                                                                           : 0.0;
    Vector3d expected = x0 + v0 * T + 0.5 * g * T * (T + shift);
    EXPECT_LT((p.getPosition() - expected).norm(), 1e-12) << "integrator " << int(integ);
    EXPECT_LT((p.getVelocity() - (v0 + g * T)).norm(), 1e-12) << "integrator " << int(integ);
  }
}

TEST(Integrator, TrapezoidalKeepsAStiffCompliantJointsEnergy) {
  // A 1 kg body on a ball joint of compliance c = 1e-6 m/N, released 1 mm
  // out, without gravity: a spring of ω = 1/√(m c) = 1000 rad/s, at
  // h·ω = 1. The trapezoidal rule keeps a linear oscillator's energy
  // ½|x|²/c + ½m|v|² exactly (its period warps at this step, its energy
  // does not). Its compliant rows, built at the step's midpoint, had taken
  // the error there for the step's start: the energy grew every step and
  // the step diverged within 0.06 s.
  test::TestRoot r(Vector3d::Zero());
  r.setIntegrator(Integrator::Trapezoidal);
  auto& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.1, 0.1, 0.1, 1000));  // 1 kg
  auto& joint = r.mech.addBodyConnector(std::make_unique<SphericalJoint>(b, nullptr, Vector3d(0, 0, 0), "ball"));
  const double c = 1e-6, m = b.getMass();
  joint.setLinearCompliance(c);
  b.setPose(RigidTransform3d(1e-3, 0, 0));
  auto energy = [&] {
    return 0.5 * b.getPosition().squaredNorm() / c + 0.5 * m * b.getVelocity().head<3>().squaredNorm();
  };
  const double E0 = energy();
  double worst = 0;
  r.root->addMonitor("m", [&](double, double) { worst = std::max(worst, std::abs(energy() - E0)); });
  r.run(1.0, 1e-3);
  EXPECT_LT(worst, 1e-6 * E0);
}

TEST(Integrator, TrapezoidalSwingsAHingeWithRotaryCompliance) {
  // A 1 m link hinged at its end to the ground, released horizontal, its
  // hinge's two fixed rotations compliant (1e-5 rad/(N m)): the swing loads
  // them with nothing but round-off, and the link swings as on a hard
  // hinge, keeping its energy. Those rows diverged within 0.06 s when
  // built with the midpoint's error (above).
  test::TestRoot r(Vector3d(0, 0, -9.8));
  r.setIntegrator(Integrator::Trapezoidal);
  auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 1, 0.1, 0.1, 100));
  link.setPose(RigidTransform3d(0.5, 0, 0));
  auto& hinge = r.mech.addBodyConnector(
      std::make_unique<HingeJoint>(link, nullptr, RigidTransform3d(0, 0, 0, 1, 0, 0, -M_PI / 2), "h"));
  hinge.setRotaryCompliance(1e-5);
  r.root->setMaxStepSize(1e-3);
  r.root->initialize(0);
  const double E0 = r.root->getEnergy();
  double worst = 0, lowest = 0;
  r.root->addMonitor("m", [&](double, double) {
    worst = std::max(worst, std::abs(r.root->getEnergy() - E0));
    lowest = std::min(lowest, link.getPosition().z());
  });
  r.run(1.0, 1e-3);
  EXPECT_LT(lowest, -0.49) << "it swings down";
  // Of m g L/2 = 4.9 J; the trapezoidal rule's own error over the swing.
  EXPECT_LT(worst, 1e-3) << "J";
}

}  // namespace
}  // namespace sinew
