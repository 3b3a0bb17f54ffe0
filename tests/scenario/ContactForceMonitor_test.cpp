// The guide's ContactForceMonitor (§8.8.3): an FEM ball dropped onto a
// plane inclined by π/5 rolls down it, and a CollisionResponse reports the
// ball–plane contacts. What it reports must be the contact physics: each
// contact force along the plane's normal (the guide's printout has
// f_x / f_z = tan 36°), friction in the plane within μ of it, and the
// ball's momentum changed by gravity's impulse and the impulses of the
// reported forces alone. Also the response API of §8.8.1–8.8.2.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using test::mechOf;

struct Ball {
  std::unique_ptr<RootModel> root;
  MechModel* mech;
  FemModel3d* ball;
  RigidBody* plane;
  CollisionResponse* resp;
};

Ball build() {
  Ball b;
  b.root = demos::createDemo("ContactForceMonitor", {"-quiet"});
  b.root->initialize(0);
  b.mech = &mechOf(*b.root);
  b.ball = b.mech->findComponent<FemModel3d>("models/ball");
  b.plane = b.mech->findComponent<RigidBody>("rigidBodies/plane");
  b.resp = b.mech->getCollisionResponse(*b.ball, *b.plane);
  return b;
}

Vector3d momentum(const FemModel3d& fem) {
  Vector3d P = Vector3d::Zero();
  for (int i = 0; i < fem.nodes().size(); ++i) P += fem.nodes().get(i).getMass() * fem.nodes().get(i).getVelocity();
  return P;
}

TEST(ContactForceMonitor, ResponseReportsTheContactPhysicsOfTheRollingBall) {
  Ball b = build();
  ASSERT_TRUE(b.ball && b.plane && b.resp);
  // The ball's particle damping (ArtiSynth's default 2/s) is a drag on
  // its nodes' absolute velocities, an external force: off here, so that
  // gravity and the contacts are all that act on the ball.
  b.ball->setParticleDamping(0);
  const Vector3d n(std::sin(M_PI / 5), 0, std::cos(M_PI / 5));  // the plane's top normal
  const double mu = 0.3, M = b.ball->getMass();
  const Vector3d P0 = momentum(*b.ball);
  Vector3d impulse = Vector3d::Zero();
  int steps = 0, withContact = 0;
  double t = 0, maxNormalForce = 0;
  b.root->addMonitor("check", [&](double t0, double t1) {
    ++steps;
    t = t1;
    const std::vector<ContactData> cdata = b.resp->getContactData();
    if (!cdata.empty()) ++withContact;
    EXPECT_EQ(b.resp->inContact(), !cdata.empty());
    for (const ContactData& cd : cdata) {
      // The normal is the plane's (to the 1e-4 rad of the nearest-point
      // query), the contact force along it and friction across it.
      EXPECT_GT(cd.normal.dot(n), 1 - 1e-8);
      const double N = cd.contactForce.dot(cd.normal);
      EXPECT_GE(N, 0.0) << "pushes the ball off the plane";
      EXPECT_LT((cd.contactForce - N * cd.normal).norm(), 1e-9 * (1 + N)) << "along the normal";
      EXPECT_LT(std::abs(cd.frictionForce.dot(cd.normal)), 1e-9 * (1 + N)) << "friction in the plane";
      EXPECT_LE(cd.frictionForce.norm(), std::sqrt(2.0) * mu * N * (1 + 1e-9)) << "box friction: each row within μN";
      maxNormalForce = std::max(maxNormalForce, N);
      impulse += (t1 - t0) * (cd.contactForce + cd.frictionForce);
    }
  });
  b.root->run(1.5);
  EXPECT_EQ(steps, 150);
  EXPECT_GT(withContact, 20) << "lands, bounces and rolls on";
  EXPECT_GT(maxNormalForce, M * 9.8 * n.z());
  // Gravity's impulse and the reported contact impulses are all that moved the ball.
  const Vector3d P1 = momentum(*b.ball);
  EXPECT_LT((P1 - P0 - M * b.mech->getGravity() * t - impulse).norm(), 1e-6 * M * 9.8 * t);
  // It moves down the slope: along (cos θ, 0, −sin θ).
  EXPECT_GT(P1.dot(Vector3d(n.z(), 0, -n.x())), 0.0) << "moving down the slope";
}

TEST(ContactForceMonitor, ResponsesForPairsGroupsAndEitherOrder) {
  Ball b = build();
  ASSERT_TRUE(b.resp);
  EXPECT_FALSE(b.resp->inContact());
  EXPECT_TRUE(b.resp->getContactData().empty());
  EXPECT_TRUE(b.resp->getHandlers().empty());
  CollisionResponse& group = b.mech->setCollisionResponse(*b.ball, Collidable::Rigid);
  CollisionResponse& reversed = b.mech->setCollisionResponse(*b.plane, *b.ball);
  EXPECT_EQ(b.mech->getCollisionResponse(*b.ball, Collidable::Rigid), &group);
  EXPECT_EQ(b.mech->getCollisionResponse(*b.plane, *b.ball), &reversed);
  b.root->run(0.66);  // landed, pressing on the plane
  const auto pair = b.resp->getContactData(), byGroup = group.getContactData(), back = reversed.getContactData();
  ASSERT_FALSE(pair.empty());
  EXPECT_TRUE(b.resp->inContact());
  ASSERT_EQ(byGroup.size(), pair.size());
  ASSERT_EQ(back.size(), pair.size());
  Vector3d total = Vector3d::Zero();
  for (size_t i = 0; i < pair.size(); ++i) {
    EXPECT_EQ(byGroup[i].collidable1, b.plane);
    EXPECT_EQ((byGroup[i].contactForce - pair[i].contactForce).norm(), 0.0);
    // From the plane's side: the same contact, forces and normal reversed.
    EXPECT_EQ((back[i].contactForce + pair[i].contactForce).norm(), 0.0);
    EXPECT_EQ((back[i].normal + pair[i].normal).norm(), 0.0);
    EXPECT_EQ((back[i].position0 - pair[i].position1).norm(), 0.0);
    EXPECT_EQ(back[i].vertex1, pair[i].vertex0);
    total += pair[i].contactForce + pair[i].frictionForce;
  }
  ASSERT_GT(total.norm(), 1000.0);
  // One handler: the ball–plane pair, under the behaviour set for it, with
  // the pair's contacts; the group's and the reversed response's are the
  // same pair, the reversed one from the plane's side.
  const auto handlers = b.resp->getHandlers(), groupHandlers = group.getHandlers(), backHandlers = reversed.getHandlers();
  ASSERT_EQ(handlers.size(), 1u);
  ASSERT_EQ(groupHandlers.size(), 1u);
  ASSERT_EQ(backHandlers.size(), 1u);
  EXPECT_EQ(handlers[0].getCollidable(0), pair[0].collidable0);
  EXPECT_EQ(handlers[0].getCollidable(1), b.plane);
  EXPECT_EQ(handlers[0].getBehavior(), b.mech->getCollisionBehavior(*b.ball, *b.plane));
  ASSERT_EQ(handlers[0].numContacts(), static_cast<int>(pair.size()));
  for (size_t i = 0; i < pair.size(); ++i)
    EXPECT_EQ((handlers[0].contacts[i].contactForce - pair[i].contactForce).norm(), 0.0);
  EXPECT_EQ(groupHandlers[0].getCollidable(1), b.plane);
  EXPECT_EQ(backHandlers[0].getCollidable(0), b.plane);
  EXPECT_EQ(backHandlers[0].numContacts(), handlers[0].numContacts());
  EXPECT_TRUE(handlers[0].regions0.empty()) << "penetration regions come only with AJL_CONTOUR";
  // The ball's vertices carry the forces; the plane has none inside the ball.
  Vector3d onVertices = Vector3d::Zero();
  for (const auto& [v, f] : b.resp->getContactForces(0)) onVertices += f;
  EXPECT_LT((onVertices - total).norm(), 1e-9 * total.norm());
  EXPECT_LT((total - b.mech->getCollisionManager().getContactForce(*b.ball)).norm(), 1e-9 * total.norm());
  EXPECT_TRUE(b.resp->getContactForces(1).empty());
  EXPECT_EQ(reversed.getContactForces(1).size(), b.resp->getContactForces(0).size());
  EXPECT_EQ(b.resp->getContactPressures(0).size(), b.resp->getContactForces(0).size());
  EXPECT_THROW(b.resp->getContactForces(2), ModelError);
  // Clearing; a response needs collidables.
  EXPECT_TRUE(b.mech->clearCollisionResponse(*b.plane, *b.ball));
  EXPECT_EQ(b.mech->getCollisionResponse(*b.plane, *b.ball), nullptr);
  EXPECT_FALSE(b.mech->clearCollisionResponse(*b.plane, *b.ball));
  EXPECT_THROW(b.mech->setCollisionResponse(*b.mech, *b.ball), ModelError);
  b.mech->clearCollisionResponses();
  EXPECT_EQ(b.mech->getCollisionResponse(*b.ball, *b.plane), nullptr);
}

}  // namespace
}  // namespace sinew
