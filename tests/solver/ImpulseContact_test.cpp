// Collision and friction as impulses (seed 004) under the Impulse
// integrator: resting contact carries the weight, Coulomb friction on an
// incline gives the analytic slide, and static friction holds.
#include <gtest/gtest.h>

#include <cmath>

#include "ContactScenes.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

/// The MLCP tests' box on a plate, under the Impulse integrator.
struct CubeOnIncline : test::BoxOnPlate {
  CubeOnIncline(double angle, double mu) : BoxOnPlate(angle, mu) { r.setIntegrator(Integrator::Impulse); }
};

TEST(ImpulseContact, CubeRestsOnAPlateAndTheImpulsesCarryItsWeight) {
  CubeOnIncline s(0, 0.5);
  test::expectBoxLandsAndRests(s, 1e-6, 1e-6);
  const double tol = s.r.mech.getPenetrationTol();
  const ImpulseReport& rep = s.r.mech.getImpulseReport();
  EXPECT_FALSE(rep.interrupted);
  EXPECT_LE(rep.positionError, tol + 1e-12);
}

TEST(ImpulseContact, CubeOnAnInclineSlidesAtGTimesSinMinusMuCos) {
  // θ = 30°, released at rest: with μ < tan θ the cube slides
  // g(sin θ − μ cos θ) t²/2 in t = 1 s against a friction force μ m g cos θ;
  // with μ > tan θ static friction holds it. No contact's friction ever
  // exceeds μ times its normal force.
  // Forces are averaged over the
  // last 0.1 s: one step's force also holds the tiny normal and rotational
  // accelerations that the iteration leaves between the four corners
  // (about 1e-5 m g), which average out as the cube neither leaves nor
  // enters the plate.
  const double theta = M_PI / 6, g = 9.8, h = 0.001;
  for (double mu : {0.2, 0.5, 0.7}) {
    CubeOnIncline s(theta, mu);
    const Vector3d x0 = s.box.getPosition();
    Vector3d fsum = Vector3d::Zero();
    int n = 0;
    s.r.root->addMonitor("force", [&](double, double t1) {
      const Vector3d f = s.r.mech.getCollisionManager().getContactForce(s.box);
      for (const auto& c : s.r.mech.getCollisionManager().getContacts())
        EXPECT_LE(c.frictionForce.norm(), mu * c.normalForce * (1 + 1e-9)) << "Coulomb's bound at t " << t1;
      if (t1 > 0.9 + 0.5 * h) fsum += f, ++n;
    });
    s.r.run(1.0, h);
    const Vector3d dx = s.box.getPosition() - x0, f = fsum / n;
    EXPECT_NEAR(f.dot(s.normal()), g * std::cos(theta), 1e-6 * g) << "mu " << mu;
    if (mu < std::tan(theta)) {
      const double expected = 0.5 * g * (std::sin(theta) - mu * std::cos(theta));
      EXPECT_NEAR(dx.dot(s.downhill()), expected, 0.01 * expected) << "mu " << mu;
      EXPECT_NEAR(f.dot(s.downhill()), -mu * g * std::cos(theta), 1e-6 * g) << "mu " << mu;
      EXPECT_NEAR(dx.dot(s.normal()), 0, s.r.mech.getPenetrationTol()) << "mu " << mu;
    } else {
      EXPECT_LT(dx.norm(), 1e-6) << "mu " << mu;
      EXPECT_NEAR(f.dot(s.downhill()), -g * std::sin(theta), 1e-6 * g) << "static friction carries m g sin θ";
    }
  }
}

TEST(ImpulseContact, CubeDroppedOnAPlateStopsWithoutBouncing) {
  // Contact impulses are inelastic: a cube dropped from 0.1 m lands with
  // speed √(2 g d) and stops there within a step.
  CubeOnIncline s(0, 0.3);
  s.box.setPose(RigidTransform3d(0, 0, 0.2));
  double maxRise = 0, landed = -1;
  s.r.root->addMonitor("watch", [&](double, double t1) {
    if (landed < 0 && s.box.getPosition().z() < 0.1 + 1e-6) landed = t1;
    if (landed >= 0) maxRise = std::max(maxRise, s.box.getPosition().z() - 0.1);
  });
  s.r.run(0.5, 0.001);
  EXPECT_GT(landed, 0);
  EXPECT_NEAR(landed, std::sqrt(2 * 0.1 / 9.8), 2e-3);
  EXPECT_LT(maxRise, 1e-6);
  EXPECT_LT(s.box.getVelocity().norm(), 1e-6);
}

}  // namespace
}  // namespace sinew
