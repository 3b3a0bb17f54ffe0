// Collision and friction as impulses (seed 004) under the Impulse
// integrator: resting contact carries the weight, Coulomb friction on an
// incline gives the analytic slide, and static friction holds.
#include <gtest/gtest.h>

#include <cmath>

#include "ContactScenes.h"
#include "TestModels.h"
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

TEST(ImpulseContact, FrictionCarriedBetweenContactsOfEitherOrderOpposesTheSlip) {
  // A cube slides at 0.5 m/s across an equal fixed one (μ = 0.3) under
  // vertex penetration of both bodies' vertices: as its bottom corners
  // leave the lower cube's top face, the lower cube's corners enter its
  // bottom face, so the pair's contacts pass from "upper's vertex in the
  // lower" to "lower's vertex in the upper". The joint correction's
  // impulses found at t0 are carried to the contacts found at t1 (the
  // nearest of the pair where the vertex is not found again), and a
  // friction impulse, which acts on the contact's first body, turns with
  // the order. The reported forces must then be the impulses that moved
  // the cube: its momentum changes by gravity's and theirs alone, the
  // friction always opposes the slip, and the cube slows at μ g.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& lower = r.mech.addRigidBody(RigidBody::createBox("lower", 0.2, 0.2, 0.2, 125));
  lower.setDynamic(false);
  lower.setPose(RigidTransform3d(0, 0, 0.1));
  RigidBody& upper = r.mech.addRigidBody(RigidBody::createBox("upper", 0.2, 0.2, 0.2, 125));
  upper.setPose(RigidTransform3d(-0.01, 0, 0.3));  // square over it after 0.02 s
  const double v0 = 0.5, mu = 0.3, g = 9.8, h = 1e-3, T = 0.12;
  upper.setVelocity(Twist(v0, 0, 0, 0, 0, 0));
  CollisionBehavior& b = r.mech.setCollisionBehavior(upper, lower, true, mu);
  b.setMethod(CollisionBehavior::Method::VertexPenetration);
  b.setVertexPenetrations(CollisionBehavior::VertexPenetrations::BothCollidables);
  r.setIntegrator(Integrator::Impulse);
  const double m = upper.getMass();
  Vector3d impulse = Vector3d::Zero();  // of the reported contact forces, on the upper cube
  bool upperFirst = false, lowerFirst = false;
  r.root->addMonitor("forces", [&](double, double t1) {
    CollisionManager& cm = r.mech.getCollisionManager();
    const Vector3d f = cm.getContactForce(upper);
    impulse += h * f;
    EXPECT_LT(f.x(), 0) << "friction opposes the slip at t " << t1;
    for (const ContactPoint& c : cm.getContacts()) (c.collidableA == &upper ? upperFirst : lowerFirst) = true;
  });
  r.run(T, h);
  EXPECT_TRUE(upperFirst && lowerFirst) << "contacts of both orders";
  const Vector3d dP = m * (upper.getVelocity().head<3>() - Vector3d(v0, 0, 0));
  EXPECT_NEAR(dP.x(), impulse.x(), 1e-6 * m * v0) << "momentum along the slip";
  EXPECT_NEAR(dP.z(), impulse.z() - m * g * T, 1e-6 * m * v0) << "momentum along the normal";
  EXPECT_NEAR(upper.getVelocity()[0], v0 - mu * g * T, 0.01 * mu * g * T);
}

}  // namespace
}  // namespace sinew
