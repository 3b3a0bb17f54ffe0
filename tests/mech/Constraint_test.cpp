// The KKT/MLCP machinery driven by ParticlePlaneConstraint: bilateral rows,
// unilateral rows with complementarity, and compliance (seed 000 eq. 1.6,
// guide §3.3.8).
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {
namespace {

TEST(Constraint, ParticleSlidesDownInclinedPlane) {
  // A frictionless incline at angle θ: acceleration g sinθ along the plane,
  // normal force m g cosθ, and the particle stays on the plane.
  const double th = 0.4, g = 9.8, m = 2.0;
  for (Integrator integ : {Integrator::ConstrainedBackwardEuler, Integrator::SymplecticEuler,
                           Integrator::Trapezoidal, Integrator::RungeKutta4}) {
    test::TestRoot r(Vector3d(0, 0, -g));
    r.setIntegrator(integ);
    auto& p = r.mech.addParticle("p", m, 0, 0, 0);
    Vector3d n(-std::sin(th), 0, std::cos(th));
    auto& c = r.mech.addParticleConstraint(std::make_unique<ParticlePlaneConstraint>("plane", n, Vector3d::Zero()));
    c.addParticle(p);
    r.run(1.0, 0.01);
    Vector3d down(-std::cos(th), 0, -std::sin(th));
    EXPECT_LT(std::abs(c.getDistance(0)), 1e-9) << int(integ);
    EXPECT_NEAR(p.getVelocity().dot(down), g * std::sin(th) * 1.0, 1e-9) << int(integ);
    EXPECT_NEAR(std::abs(p.getVelocity().dot(n)), 0.0, 1e-9) << int(integ);
    if (integ != Integrator::RungeKutta4) EXPECT_NEAR(c.getForce(0), m * g * std::cos(th), 1e-8) << int(integ);
  }
}

/// A one-sided floor z ≥ 0 under particle p, and h = 10 ms; initializes the root.
ParticlePlaneConstraint& addFloor(test::TestRoot& r, Particle& p) {
  auto& c = r.mech.addParticleConstraint(
      std::make_unique<ParticlePlaneConstraint>("floor", Vector3d::UnitZ(), Vector3d::Zero()));
  c.setUnilateral(true);
  c.addParticle(p);
  r.root->setMaxStepSize(0.01);
  r.root->initialize(0);
  return c;
}

TEST(Constraint, UnilateralPlaneStopsAndSupports) {
  // Dropped onto a one-sided floor: it never goes below (beyond the
  // stabilization of one step), comes to rest, and is pushed with m g.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& p = r.mech.addParticle("p", 1.5, 0, 0, 0.3);
  auto& c = addFloor(r, p);
  double minZ = 1;
  r.root->addMonitor("m", [&](double, double) { minZ = std::min(minZ, p.getPosition().z()); });
  r.root->run(1.0);
  EXPECT_GT(minZ, -1e-9);
  EXPECT_NEAR(p.getPosition().z(), 0.0, 1e-9);
  EXPECT_NEAR(p.getVelocity().norm(), 0.0, 1e-9);
  EXPECT_NEAR(c.getForce(0), 1.5 * 9.8, 1e-8);
  // Pulled upward it leaves the floor freely: the row does not pull back.
  p.setExternalForce(Vector3d(0, 0, 30));
  r.root->run(1.5);
  EXPECT_GT(p.getPosition().z(), 0.05);
  EXPECT_EQ(c.getForce(0), 0.0);
}

TEST(Constraint, UnilateralPlaneCatchesAParticleBesideAJointedBody) {
  // As above, with a swinging pendulum in the model, so that the steps'
  // position correction reuses the velocity solve's factors (chord
  // passes) and re-evaluates only the joint's errors. The floor offers
  // its row only once the particle is at it, so at 1.6 m/s and h = 10 ms
  // the particle crosses the floor within a step whose velocity solve had
  // no floor row: the position correction must still see the floor and
  // lift the particle back onto it at the end of that step.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto& link = r.mech.addRigidBody(RigidBody::createBox("link", 1, 0.1, 0.1, 1000));
  link.setPose(RigidTransform3d(0.5, 2, 1));
  r.mech.addBodyConnector(std::make_unique<HingeJoint>(
      link, nullptr, RigidTransform3d(0, 2, 1, 1, 0, 0, -M_PI / 2), "hinge"));  // about world y
  auto& p = r.mech.addParticle("p", 1.5, 0, 0, 0.13);
  auto& c = addFloor(r, p);
  double minZ = 1;
  r.root->addMonitor("m", [&](double, double) { minZ = std::min(minZ, p.getPosition().z()); });
  r.root->run(0.5);
  EXPECT_GT(minZ, -1e-9) << "below the floor at a step's end";
  EXPECT_NEAR(p.getPosition().z(), 0.0, 1e-9);
  EXPECT_LT(link.getPosition().z(), 0.9) << "the pendulum swings";
}

TEST(Constraint, CompliantPlaneDeflectsUnderLoad) {
  // A soft constraint with compliance c acts as a spring of stiffness 1/c:
  // at rest the particle sits m g c below the plane.
  const double comp = 1e-3, m = 2.0, g = 9.8;
  test::TestRoot r(Vector3d(0, 0, -g));
  auto& p = r.mech.addParticle("p", m, 0, 0, 0);
  auto& c = r.mech.addParticleConstraint(
      std::make_unique<ParticlePlaneConstraint>("soft", Vector3d::UnitZ(), Vector3d::Zero()));
  c.setCompliance(comp);
  c.setDamping(2 * std::sqrt(m / comp));  // critical damping
  c.addParticle(p);
  r.run(3.0, 0.01);
  EXPECT_NEAR(p.getPosition().z(), -m * g * comp, 1e-8);
  EXPECT_NEAR(c.getForce(0), m * g, 1e-6);
}

TEST(Constraint, SolverBackendsAgree) {
  // The same constrained step with every sparse backend gives the same state.
  std::vector<LinearSolverType> types{LinearSolverType::EigenLDLT};
  if (LinearSolver::hasSuiteSparse()) types.push_back(LinearSolverType::Umfpack);
  std::vector<Vector3d> results;
  for (auto t : types) {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    r.mech.setLinearSolver(t);
    auto& a = r.mech.addParticle("a", 1, 0, 0, 0);
    auto& b = r.mech.addParticle("b", 2, 1, 0, 0.5);
    r.mech.attachAxialSpring(a, b, std::make_unique<AxialSpring>("s", 100, 1, 0.5));
    auto& c = r.mech.addParticleConstraint(
        std::make_unique<ParticlePlaneConstraint>("pl", Vector3d(0.1, 0, 1), Vector3d::Zero()));
    c.addParticle(a);
    r.run(0.5, 0.01);
    results.push_back(b.getPosition());
  }
  for (auto& x : results) EXPECT_LT((x - results[0]).norm(), 1e-10);
}

}  // namespace
}  // namespace sinew
