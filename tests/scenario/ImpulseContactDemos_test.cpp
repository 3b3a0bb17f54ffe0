// The contact scenes of seed 004 (scenario label: slow): sliding cubes
// against the analytic slide under the Impulse and MLCP solvers, the
// sledge's momentum balance and stop-and-go, and the rising egg.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/contact/CollisionBehavior.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using namespace test;  // demoUnder, mechOf

TEST(ImpulseContactDemos, SlidingCubesFollowTheAnalyticSlideUnderBothSolvers) {
  // Each cube slides g(sin θ − μ cos θ) t²/2 in t = 1 s (θ = 30°) within
  // 1 %; the cube with μ = 0.7 > tan θ stays.
  const double theta = M_PI / 6, g = 9.8;
  for (const char* integrator : {"Impulse", "ConstrainedBackwardEuler"}) {
    auto root = demoUnder("SlidingCubes", integrator);
    MechModel& mech = mechOf(*root);
    auto& plate = *mech.findComponent<RigidBody>("rigidBodies/plate");
    const Vector3d downhill = plate.getPose().R * Vector3d::UnitX();
    std::vector<RigidBody*> cubes;
    std::vector<Vector3d> x0;
    for (int i = 0; i < 6; ++i) {
      cubes.push_back(mech.findComponent<RigidBody>("rigidBodies/cube" + std::to_string(i)));
      ASSERT_NE(cubes.back(), nullptr);
      x0.push_back(cubes.back()->getPosition());
    }
    root->run(1.0);
    for (int i = 0; i < 6; ++i) {
      const double mu = mech.getCollisionBehavior(*cubes[i], plate)->getFriction();
      const double dx = (cubes[i]->getPosition() - x0[i]).dot(downhill);
      if (mu < std::tan(theta)) {
        const double expected = 0.5 * g * (std::sin(theta) - mu * std::cos(theta));
        EXPECT_NEAR(dx, expected, 0.01 * expected) << integrator << " mu " << mu;
      } else {
        EXPECT_LT((cubes[i]->getPosition() - x0[i]).norm(), 1e-6) << integrator << " mu " << mu;
      }
    }
  }
}

/// The sledge scene with its bodies and the incline's frame.
struct Sledge {
  std::unique_ptr<RootModel> root;
  MechModel* mech;
  RigidBody *sledge, *pendulum;
  Vector3d downhill, normal;
  double mu, M;
  explicit Sledge(double muArg) {
    root = demos::createDemo("SledgePendulum", {"-mu", std::to_string(muArg)});
    root->initialize(0);
    mech = &mechOf(*root);
    sledge = mech->findComponent<RigidBody>("rigidBodies/sledge");
    pendulum = mech->findComponent<RigidBody>("rigidBodies/pendulum");
    auto& plate = *mech->findComponent<RigidBody>("rigidBodies/plate");
    downhill = plate.getPose().R * Vector3d::UnitX();
    normal = plate.getPose().R * Vector3d::UnitZ();
    mu = mech->getCollisionBehavior(*sledge, plate)->getFriction();
    M = sledge->getMass() + pendulum->getMass();
  }
  Vector3d momentum() const {
    return sledge->getMass() * sledge->getVelocity().head<3>() + pendulum->getMass() * pendulum->getVelocity().head<3>();
  }
  Vector3d contactForce() const { return mech->getCollisionManager().getContactForce(*sledge); }
};

TEST(ImpulseContactDemos, SledgeOnLowFrictionSlidesWithItsMomentumBalance) {
  // μ = 0.1 < tan 20°: the sledge slides downhill all the way, so friction
  // is μ times the normal force, and the whole system's downhill momentum
  // grows as dP/dt = M g sin θ − μ N(t) (hinge impulses are internal).
  Sledge s(0.1);
  const double theta = 20 * M_PI / 180, g = 9.8, h = 1e-3;
  const Vector3d P0 = s.momentum();
  double impulseN = 0, minSpeed = INFINITY;
  s.root->addMonitor("watch", [&](double, double t1) {
    impulseN += h * s.contactForce().dot(s.normal);
    if (t1 > 0.05) minSpeed = std::min(minSpeed, s.sledge->getVelocity().head<3>().dot(s.downhill));
  });
  s.root->run(2.0);
  EXPECT_GT(minSpeed, 0) << "slides without stopping";
  const double dP = (s.momentum() - P0).dot(s.downhill);
  const double expected = s.M * g * std::sin(theta) * 2.0 - s.mu * impulseN;
  EXPECT_NEAR(dP, expected, 1e-3 * s.M * g * 2.0);
  // And the normal balance: the normal impulse carries M g cos θ over the
  // time, less the change of the system's normal momentum.
  const double dPn = (s.momentum() - P0).dot(s.normal);
  EXPECT_NEAR(impulseN, s.M * g * std::cos(theta) * 2.0 + dPn, 1e-3 * s.M * g * 2.0);
}

TEST(ImpulseContactDemos, SledgeOnHighFrictionStopsAndGoes) {
  // μ = 0.45 > tan 20°: at rest the sledge sticks; the swinging pendulum
  // pushes it loose and it slides again, more than once. In every step the
  // contact force obeys Coulomb's law: |f_t| ≤ μ f_n, with equality while
  // it slides.
  Sledge s(0.45);
  int stops = 0, goes = 0, still = 0;
  bool moving = false;
  double worst = 0, slideWorst = 0;
  const Vector3d x0 = s.sledge->getPosition();
  s.root->addMonitor("watch", [&](double, double) {
    const double v = s.sledge->getVelocity().head<3>().norm();
    const Vector3d f = s.contactForce();
    const double fn = f.dot(s.normal), ft = (f - fn * s.normal).norm();
    worst = std::max(worst, ft - s.mu * fn);
    if (v > 1e-2) slideWorst = std::max(slideWorst, std::abs(ft - s.mu * fn));
    if (v < 1e-6) {
      if (++still == 20 && moving) ++stops, moving = false;
    } else if (v > 1e-3) {
      if (!moving) ++goes;
      moving = true, still = 0;
    }
  });
  s.root->run(4.0);
  EXPECT_GE(goes, 2);
  EXPECT_GE(stops, 2);
  EXPECT_GT((s.sledge->getPosition() - x0).dot(s.downhill), 0.01) << "net progress downhill";
  EXPECT_LT(worst, 1e-6 * s.M * 9.8);
  EXPECT_LT(slideWorst, 1e-3 * s.M * 9.8);
}

TEST(ImpulseContactDemos, RotatingEggRisesWhenSpunFastOnly) {
  // A prolate ellipsoid lying on a plane and spun fast about the vertical
  // raises its centre of mass towards its end (the rising egg); spun
  // slowly it keeps lying.
  auto run = [](double spin) {
    auto root = demos::createDemo("RotatingEgg", {"-spin", std::to_string(spin)});
    root->initialize(0);
    RigidBody& egg = *mechOf(*root).findComponent<RigidBody>("rigidBodies/egg");
    double zmax = 0;
    root->addMonitor("watch", [&](double, double) { zmax = std::max(zmax, egg.getPosition().z()); });
    root->run(4.0);
    return zmax;
  };
  EXPECT_GT(run(120), 0.09) << "rose above 0.09 of the upright 0.1";
  EXPECT_LT(run(10), 0.065) << "stayed near the lying 0.06";
}

TEST(ImpulseContactDemos, RotatingEggUnderTheMlcpOnlyLosesEnergy) {
  // Friction and contact only take energy, and gravity's is counted in the
  // total: under ConstrainedBackwardEuler the spun egg's energy never rises
  // above its start, it never sinks into the plate, and spun fast it
  // still rises. (Its box friction once cycled between stick and slip and
  // kept an impulse 100 times its bound, which flung the egg up at 40
  // rad/s; the explicit gyroscopic wrench gained 60 % of the energy in 1 s
  // at 120 rad/s.)
  for (double spin : {10.0, 40.0, 120.0}) {
    auto root = demos::createDemo("RotatingEgg", {"-spin", std::to_string(spin), "-integrator",
                                                  "ConstrainedBackwardEuler"});
    root->initialize(0);
    RigidBody& egg = *mechOf(*root).findComponent<RigidBody>("rigidBodies/egg");
    const double E0 = root->getEnergy();
    double Emax = E0, zmin = 1, zmax = 0;
    root->addMonitor("watch", [&](double, double) {
      Emax = std::max(Emax, root->getEnergy());
      zmin = std::min(zmin, egg.getPosition().z());
      zmax = std::max(zmax, egg.getPosition().z());
    });
    root->run(spin == 120 ? 2.0 : 1.0);
    EXPECT_LT(Emax, E0 + 1e-6 * E0) << spin << " rad/s";
    EXPECT_GT(zmin, 0.06 - 1e-3) << spin << " rad/s: the lying egg's centre is 0.06 above the plate";
    if (spin == 120) EXPECT_GT(zmax, 0.09) << "rose above 0.09 of the upright 0.1";
    else EXPECT_LT(zmax, 0.065) << spin << " rad/s";
  }
}

}  // namespace
}  // namespace sinew
