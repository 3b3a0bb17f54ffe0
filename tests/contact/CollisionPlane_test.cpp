// Collision planes (CollisionPlane.h): a fixed half-space as a collidable.
// Facts asserted: a ball dropped on the plane rests at its radius (within
// the penetration tolerance) carrying its weight, under vertex penetration
// and under contour regions, the DEFAULT there (whose hull corners
// surround its lowest point, a contact too); a box on an inclined
// plane slides from t = 0 with a = g(sin θ − μ cos θ) within 1 % (no
// free-fall step: the plane watches the vertices resting on it) and
// holds when μ > tan θ, under vertex penetration and under contour
// regions (four corner contacts); an FEM block rests on it carrying its
// weight with bilateral contacts; and bad input is a ModelError.
#include <gtest/gtest.h>

#include <cmath>

#include "ContactScenes.h"
#include "TestModels.h"
#include "Verification.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/geometry/MeshFactory.h"

namespace sinew {
namespace {

const double g = 9.8;

/// Under contour regions the ball's lowest vertex lies inside the ring of
/// hull corners that carry it, and must still rest on the plane.
class CollisionPlaneBall : public testing::TestWithParam<CollisionBehavior::Method> {};

TEST_P(CollisionPlaneBall, ABallDroppedOnThePlaneRestsAtItsRadiusCarryingItsWeight) {
  test::TestRoot r(Vector3d(0, 0, -g));
  CollisionPlane& ground = r.mech.getCollisionManager().addPlane("ground", Vector3d(0, 0, 0), Vector3d(0, 0, 2));
  EXPECT_EQ(ground.getNormal(), Vector3d::UnitZ());  // normalized
  RigidBody& ball = r.mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", 0.1, 1000, 3));
  ball.setPose(RigidTransform3d(0, 0, 0.15));
  CollisionBehavior behav(true, 0.2);
  behav.setMethod(GetParam());
  r.mech.setDefaultCollisionBehavior(behav);  // Rigid–Rigid holds the plane
  r.run(1.5, 0.005);
  const double tol = r.mech.getPenetrationTol();
  EXPECT_LE(ball.getPosition().z(), 0.1 + 1e-9);  // the icosphere's pole is at −r
  EXPECT_GE(ball.getPosition().z(), 0.1 - tol - 1e-9);
  EXPECT_LT(ball.getVelocity().norm(), 1e-6);
  const double weight = ball.getMass() * g;
  CollisionManager& cm = r.mech.getCollisionManager();
  EXPECT_NEAR(cm.getContactForce(ball).z(), weight, 1e-6 * weight);
  EXPECT_NEAR(cm.getContactForce(ground).z(), -weight, 1e-6 * weight);
  for (const ContactPoint& c : cm.getContacts()) {
    EXPECT_EQ(c.collidableB, &ground);
    EXPECT_EQ(c.bodyB, nullptr);
  }
}

// DEFAULT is CONTOUR_REGION for a rigid body on a plane (§8.4.1.3).
INSTANTIATE_TEST_SUITE_P(Methods, CollisionPlaneBall,
                         testing::Values(CollisionBehavior::Method::VertexPenetration,
                                         CollisionBehavior::Method::ContourRegion, CollisionBehavior::Method::Default));

TEST(CollisionPlane, DefaultIsContourRegionForARigidBody) {
  // §8.4.1.3: DEFAULT selects CONTOUR_REGION between rigid collidables, a
  // plane included: a box meshed 4 × 4 a face, landed on the plane, has
  // the contacts of an explicit CONTOUR_REGION run, point for point (its
  // four bottom corners), where vertex penetration takes all 25 bottom
  // vertices.
  auto contacts = [](CollisionBehavior::Method m) {
    test::TestRoot r(Vector3d(0, 0, -g));
    r.mech.getCollisionManager().addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
    RigidBody& box = r.mech.addRigidBody(RigidBody::createFromMesh(
        "box", std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.2, 0.2, 0.2, 4, 4, 4)), 125));
    box.setPose(RigidTransform3d(0, 0, 0.105));
    CollisionBehavior behav(true, 0.2);
    behav.setMethod(m);
    r.mech.setDefaultCollisionBehavior(behav);
    r.run(1.5, 0.005);
    std::vector<Vector3d> at;
    for (const ContactPoint& c : r.mech.getCollisionManager().getContacts()) at.push_back(c.position);
    return at;
  };
  using M = CollisionBehavior::Method;
  const std::vector<Vector3d> byDefault = contacts(M::Default), byRegions = contacts(M::ContourRegion),
                              byVertices = contacts(M::VertexPenetration);
  ASSERT_EQ(byDefault.size(), 4u);
  ASSERT_EQ(byRegions.size(), 4u);
  for (size_t k = 0; k < byDefault.size(); ++k) EXPECT_EQ(byDefault[k], byRegions[k]);
  EXPECT_EQ(byVertices.size(), 25u);
}

TEST(CollisionPlane, ABoxOnAnInclinedPlaneSlidesAtGTimesSinMinusMuCos) {
  const double theta = M_PI / 6;
  const Matrix3d R = AxisAngle(Vector3d(0, 1, 0), theta).toMatrix();
  const Vector3d downhill = R * Vector3d(1, 0, 0);
  for (bool regions : {false, true})
    for (double mu : {0.2, 0.5, 0.7}) {
      test::TestRoot r(Vector3d(0, 0, -g));
      r.mech.getCollisionManager().addPlane("incline", Vector3d::Zero(), R * Vector3d(0, 0, 1));
      RigidBody& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 125));
      box.setPose(RigidTransform3d(R * Vector3d(0, 0, 0.1), R));  // resting on the plane
      CollisionBehavior behav(true, mu);
      // DEFAULT is CONTOUR_REGION here (a rigid body on a plane).
      behav.setMethod(regions ? CollisionBehavior::Method::Default : CollisionBehavior::Method::VertexPenetration);
      r.mech.setDefaultCollisionBehavior(behav);
      const Vector3d x0 = box.getPosition();
      r.run(1.0, 0.001);
      const double slid = (box.getPosition() - x0).dot(downhill);
      if (mu < std::tan(theta)) {
        const double expected = 0.5 * g * (std::sin(theta) - mu * std::cos(theta));
        if (regions)
          VERIFY_NEAR("contact (plane, contour regions): box on a 30° inclined plane, slide in 1 s [m], μ = " +
                          std::to_string(mu).substr(0, 3),
                      "g (sin θ − μ cos θ) t²/2", slid, expected, 0.01 * expected);
        else
          EXPECT_NEAR(slid, expected, 0.01 * expected) << "mu " << mu;
      } else {
        EXPECT_LT((box.getPosition() - x0).norm(), 1e-6) << "regions " << regions;  // static friction holds
      }
      if (regions) EXPECT_EQ(r.mech.getCollisionManager().getContacts().size(), 4u);  // the bottom corners
    }
}

TEST(CollisionPlane, RigidPointTolMergesContourRegionCornersCloserThanIt) {
  // A 0.2 m cube resting on the plane: four corner contacts under contour
  // regions. With rigidPointTol (§8.2.1) past the side but short of the
  // diagonal, corners along an edge are one: two diagonal contacts remain.
  // The behaviour's setting overrides the manager's, which overrides the
  // default (the penetration tolerance). The cube carries its weight either way.
  auto contactsWith = [](double managerTol, double behaviourTol, double* force) {
    test::TestRoot r(Vector3d(0, 0, -g));
    CollisionManager& cm = r.mech.getCollisionManager();
    cm.addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
    RigidBody& box = r.mech.addRigidBody(RigidBody::createBox("box", 0.2, 0.2, 0.2, 125));
    box.setPose(RigidTransform3d(0, 0, 0.1));
    CollisionBehavior behav(true, 0.5);
    behav.setMethod(CollisionBehavior::Method::ContourRegion);
    behav.getProperty("rigidPointTol").set(behaviourTol);
    r.mech.setDefaultCollisionBehavior(behav);
    cm.getProperty("rigidPointTol").set(managerTol);
    r.run(0.1, 0.01);
    *force = cm.getContactForce(box).z() / (box.getMass() * g);
    return cm.getContacts().size();
  };
  double f = 0;
  EXPECT_EQ(contactsWith(-1, -1, &f), 4u);
  EXPECT_NEAR(f, 1.0, 1e-6);
  EXPECT_EQ(contactsWith(0.25, -1, &f), 2u);
  EXPECT_NEAR(f, 1.0, 1e-6);
  EXPECT_EQ(contactsWith(0.25, 0.1, &f), 4u);
  EXPECT_EQ(contactsWith(-1, 0.25, &f), 2u);
  EXPECT_NEAR(f, 1.0, 1e-6);
}

TEST(CollisionPlane, AnFemBlockRestsOnThePlaneCarryingItsWeight) {
  // Bilateral vertex contacts by default; unilateral where the manager's
  // bilateralVertexContact is off, unless the behaviour sets it (§8.2.1:
  // behaviours inherit what they have not set). The block rests either way.
  // (manager's setting, behaviour's: −1 unset, 0 false, 1 true)
  for (auto [manager, behaviour] : {std::pair{true, -1}, {false, -1}, {false, 1}, {true, 0}}) {
    test::TestRoot r(Vector3d(0, 0, -g));
    CollisionManager& cm = r.mech.getCollisionManager();
    CollisionPlane& ground = cm.addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
    FemModel3d& fem = test::addBlock(r.mech, "block", 0.4, 0.2, 2, 0.101);
    CollisionBehavior& behav = r.mech.setCollisionBehavior(fem, ground, true);
    cm.getProperty("bilateralVertexContact").set(manager);
    if (behaviour >= 0) behav.setBilateralVertexContact(behaviour == 1);
    const bool bilateral = behaviour >= 0 ? behaviour == 1 : manager;
    r.run(2.0, 0.01);
    const double weight = 1000 * 0.4 * 0.4 * 0.2 * g;
    EXPECT_NEAR(cm.getContactForce(fem).z(), weight, 1e-3 * weight);
    EXPECT_LE(cm.getMaxHardError(), 1e-9);  // within the penetration tolerance
    ASSERT_GE(cm.getContacts().size(), 9u);  // the 3 × 3 bottom vertices (unilateral rows also watch those near)
    for (const ContactPoint& c : cm.getContacts()) EXPECT_EQ(c.bilateral, bilateral);
  }
}

TEST(CollisionPlane, BadPlanesAndFemContourRegionsAreModelErrors) {
  test::TestRoot r(Vector3d(0, 0, -g));
  CollisionManager& cm = r.mech.getCollisionManager();
  EXPECT_THROW(cm.addPlane("flat", Vector3d::Zero(), Vector3d::Zero()), ModelError);
  EXPECT_THROW(cm.addPlane("nan", Vector3d(NAN, 0, 0), Vector3d::UnitZ()), ModelError);
  CollisionPlane& ground = cm.addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
  try {
    ground.setNormal(Vector3d::Zero());
    ADD_FAILURE() << "a zero normal must be refused";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("ground"), std::string::npos) << e.what();
  }
  auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("block"));
  FemFactory::createHexGrid(fem, 0.4, 0.4, 0.2, 1, 1, 1);
  fem.setDensity(1000);
  fem.transformGeometry(RigidTransform3d(0, 0, 0.1));
  r.mech.setCollisionBehavior(fem, ground, true).setMethod(CollisionBehavior::Method::ContourRegion);
  EXPECT_THROW(r.run(0.01, 0.01), ModelError);
}

}  // namespace
}  // namespace sinew
