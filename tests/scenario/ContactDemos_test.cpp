// The contact demos of guide Ch. 8 show what the guide says they show.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
#include "Verification.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/joints/JointBase.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using test::mechOf;

// BallPlateCollide (§8.5.1): the ball lands and comes to rest on the plate,
// never sinking more than the penetration tolerance, and at rest its
// contacts carry its weight.
TEST(ContactDemos, BallPlateCollideComesToRestCarryingItsWeight) {
  auto root = demos::createDemo("BallPlateCollide");
  MechModel& mech = mechOf(*root);
  RigidBody& ball = *root->findComponent<RigidBody>("models/mech/rigidBodies/ball");
  CollisionManager& cm = mech.getCollisionManager();
  root->initialize(0);
  double worst = 0;
  root->addMonitor("depth", [&](double, double) { worst = std::max(worst, cm.getMaxHardError()); });
  root->run(4.0);
  EXPECT_LE(worst, 1e-9) << "penetration beyond the tolerance";
  EXPECT_LT(ball.getVelocity().norm(), 1e-6);
  const Vector3d f = cm.getContactForce(ball);
  EXPECT_NEAR(f.z(), ball.getMass() * 9.8, 1e-6 * ball.getMass() * 9.8);
  EXPECT_NEAR(f.head<2>().norm(), 0, 1e-6);
}

// With compliance 0.001 and damping 30 (the guide's critical value for the
// 0.21 kg ball) the bouncing stops (§8.1.3), under the guide's contour
// regions: the ball carries its weight and moves at under 0.1 mm/s after
// 4 s. It does not come to rest: every contact of a region takes the
// region's one depth (§8.4.1.1), so the ring of hull corners, which the
// mesh makes a little uneven, does not push through the ball's centre, and
// it rolls on slowly (measured 2.4e-5 m/s after 4 s; docs/contact.md).
// The ball rolls about for nearly 3 s first (its path, not its rest,
// depends on round-off: it settled at 2.9 s or at 3.1 s in builds whose
// contact solves differ within their tolerance), so the speed is watched
// over the fifth second.
TEST(ContactDemos, BallPlateCollideCompliantContactStopsTheBouncing) {
  auto root = demos::createDemo("BallPlateCollide", {"-compliance", "0.001", "-damping", "30"});
  MechModel& mech = mechOf(*root);
  RigidBody& ball = *root->findComponent<RigidBody>("models/mech/rigidBodies/ball");
  CollisionManager& cm = mech.getCollisionManager();
  double vmax = 0;
  root->initialize(0);
  root->addMonitor("speed", [&](double, double t) {
    if (t > 4.0) vmax = std::max(vmax, ball.getVelocity().norm());
  });
  root->run(5.0);
  ASSERT_FALSE(cm.getContacts().empty());
  EXPECT_LT(vmax, 1e-4);
  EXPECT_NEAR(cm.getContactForce(ball).z(), ball.getMass() * 9.8, 1e-4 * ball.getMass() * 9.8);
}

// Under vertex penetration each contact has its own depth: the ball comes
// to rest with every contact pushing exactly depth / c.
TEST(ContactDemos, BallPlateCollideCompliantVertexContactsSettleAtDepthOverCompliance) {
  auto root = demos::createDemo("BallPlateCollide", {"-compliance", "0.001", "-damping", "30"});
  MechModel& mech = mechOf(*root);
  RigidBody& ball = *root->findComponent<RigidBody>("models/mech/rigidBodies/ball");
  CollisionManager& cm = mech.getCollisionManager();
  cm.setMethod(CollisionBehavior::Method::VertexPenetration);
  root->initialize(0);
  root->run(4.0);
  ASSERT_FALSE(cm.getContacts().empty());
  EXPECT_LT(ball.getVelocity().norm(), 1e-6);
  for (const ContactPoint& p : cm.getContacts()) EXPECT_NEAR(p.normalForce, p.depth / 0.001, 1e-6);
  EXPECT_NEAR(cm.getContactForce(ball).z(), ball.getMass() * 9.8, 1e-6);
}

/// The largest shortfall, relative to μ times the push, of a friction row
/// that slides (slip above 1e-4 m/s along it) among the ball's contacts of
/// the last solve; the slip is taken at the configuration of that solve,
/// the step's start (backward Euler: x1 = x0 + h v1).
double slidingFrictionShortfall(const CollisionManager& cm, const RigidBody& ball, double h) {
  double worst = 0;
  const Vector3d x0 = ball.getPosition() - h * ball.getVelocity().head<3>();
  for (const ContactPoint& c : cm.getContacts()) {
    if (c.normalForce <= 0 || c.mu <= 0) continue;
    const Vector3d v = ball.getVelocity().head<3>() + ball.getVelocity().tail<3>().cross(c.position - x0);
    for (const Vector3d& dir : c.frictionDirs)
      if (std::abs(v.dot(dir)) > 1e-4)
        worst = std::max(worst, 1 - std::abs(c.frictionForce.dot(dir)) / (c.mu * c.normalForce));
  }
  return worst;
}

// Coulomb's law on the ball's sliding contacts: under vertex penetration
// with compliant contact the ball slides on one contact, and the friction
// that opposes the slip raises that contact's push. With the bounds
// following the pushes (frictionIterations 20) every sliding row carries
// μ times its push within 1e-5, and the ball still comes to rest. The
// default (1) is run too as a characterisation, so that the check is seen
// to tell them apart: its bounds come from the frictionless pushes, 8–12 %
// short of μ times the final ones (docs/contact.md); a better default
// would change that line.
TEST(ContactDemos, BallPlateCollideSlidingFrictionFollowsThePushWithFrictionIterations) {
  for (int iterations : {1, 20}) {
    SCOPED_TRACE(iterations);
    auto root = demos::createDemo("BallPlateCollide", {"-compliance", "0.001", "-damping", "30"});
    MechModel& mech = mechOf(*root);
    RigidBody& ball = *root->findComponent<RigidBody>("models/mech/rigidBodies/ball");
    CollisionManager& cm = mech.getCollisionManager();
    cm.setMethod(CollisionBehavior::Method::VertexPenetration);
    mech.getProperty("frictionIterations").set(iterations);
    root->initialize(0);
    const double h = root->getMaxStepSize();
    double worst = 0;
    root->addMonitor("coulomb", [&](double, double) { worst = std::max(worst, slidingFrictionShortfall(cm, ball, h)); });
    root->run(6.0);
    if (iterations == 1) {
      EXPECT_GT(worst, 0.05) << "characterisation: the default's shortfall (docs/contact.md)";
    } else {
      EXPECT_LT(worst, 1e-5);
      EXPECT_LT(ball.getVelocity().norm(), 1e-6) << "at rest";
    }
  }
}

TEST(ContactDemos, FrictionIterationsOutsideItsRangeIsAnError) {
  MechModel mech("mech");
  EXPECT_EQ(mech.getFrictionIterations(), 1);
  EXPECT_THROW(mech.setFrictionIterations(0), ModelError);
  EXPECT_THROW(mech.getProperty("frictionIterations").set(101), Error);
  EXPECT_EQ(mech.getFrictionIterations(), 1);
}

// JointedCollide (§8.1.3): the hinged pair falls onto the inclined base
// and slides off it; the pair never sinks into the base beyond the
// tolerance, and the joint stays assembled.
TEST(ContactDemos, JointedCollideLandsOnTheInclineAndSlidesOff) {
  auto root = demos::createDemo("JointedCollide");
  MechModel& mech = mechOf(*root);
  RigidBody& bodyB = *root->findComponent<RigidBody>("models/mech/rigidBodies/bodyB");
  JointBase& joint = *root->findComponent<JointBase>("models/mech/bodyConnectors/joint");
  CollisionManager& cm = mech.getCollisionManager();
  root->initialize(0);
  double worst = 0, jointErr = 0;
  bool touched = false;
  root->addMonitor("check", [&](double, double) {
    worst = std::max(worst, cm.getMaxHardError());
    jointErr = std::max(jointErr, joint.getMaxHardError());
    touched = touched || !cm.getContacts().empty();
  });
  root->run(3.0);
  EXPECT_TRUE(touched);
  EXPECT_LE(worst, 1e-9);
  EXPECT_LT(jointErr, 1e-6);
  // The base, tilted by −π/8 about y, falls toward −x; its lower edge is at
  // x = 5 − 12.5 cos(π/8) = −6.55. bodyB started at x = 0 and has slid off.
  EXPECT_LT(bodyB.getPosition().x(), 5 - 12.5 * std::cos(M_PI / 8));
}

// JointedBallCollide (§8.3.1): bodyA swings down about the hinge until the
// ball at its tip strikes bodyB and stops there.
TEST(ContactDemos, JointedBallCollideStopsTheSwingOnTheBall) {
  auto root = demos::createDemo("JointedBallCollide");
  MechModel& mech = mechOf(*root);
  CollisionManager& cm = mech.getCollisionManager();
  root->initialize(0);
  double worst = 0;
  bool touched = false;
  root->addMonitor("check", [&](double, double) {
    worst = std::max(worst, cm.getMaxHardError());
    touched = touched || !cm.getContacts().empty();
  });
  root->run(2.0);
  EXPECT_TRUE(touched);
  EXPECT_LE(worst, 1e-9);
}

// ElasticFoundationContact (§8.7.4): the ball lands in the bowl and rolls
// in it, held by the foundation: its centre stays within the cavity (less
// the ball's radius) plus the layer's thickness, its contacts push (never
// pull), and friction and damping take energy out.
TEST(ContactDemos, ElasticFoundationContactHoldsTheBallInTheBowl) {
  auto root = demos::createDemo("ElasticFoundationContact");
  MechModel& mech = mechOf(*root);
  RigidBody& ball = *root->findComponent<RigidBody>("models/mech/rigidBodies/ball");
  CollisionManager& cm = mech.getCollisionManager();
  root->initialize(0);
  const double E0 = root->getEnergy();
  double farthest = 0, minForce = 0;
  bool touched = false;
  root->addMonitor("check", [&](double, double) {
    farthest = std::max(farthest, (ball.getPosition() - Vector3d(0, 0, 0.5)).norm());
    for (const ContactPoint& c : cm.getContacts()) minForce = std::min(minForce, c.normalForce);
    touched = touched || !cm.getContacts().empty();
  });
  root->run(3.0);
  EXPECT_TRUE(touched);
  EXPECT_LT(farthest, 1.5 - 0.7 + 0.1) << "farthest " << farthest;
  EXPECT_GE(minForce, 0.0);
  EXPECT_LT(root->getEnergy(), E0);
}

// FemCollisions (§8.1.3, Figure 8.2): the beam and the ellipsoid land on
// the table (the ellipsoid on the beam first) and stay within the
// penetration tolerance; the block collides with nothing, so its surface
// sinks through the table, while the sphere embedded in it rests on the
// table.
TEST(ContactDemos, FemCollisionsLandOnTheTableAndTheBlockPassesThrough) {
  auto root = demos::createDemo("FemCollisions");
  MechModel& mech = mechOf(*root);
  CollisionManager& cm = mech.getCollisionManager();
  auto fem = [&](const std::string& name) -> FemModel3d& {
    return *root->findComponent<FemModel3d>("models/mech/models/" + name);
  };
  auto lowest = [](const MeshBase& m) {
    double z = INFINITY;
    for (int i = 0; i < m.numVertices(); ++i) z = std::min(z, m.getVertex(i).z());
    return z;
  };
  root->initialize(0);
  const double tol = mech.getPenetrationTol();
  double worst = 0;
  bool ellipsoidOnBeam = false;
  root->addMonitor("check", [&](double, double) {
    worst = std::max(worst, cm.getMaxHardError());
    for (const ContactPoint& c : cm.getContacts())
      ellipsoidOnBeam = ellipsoidOnBeam || (c.collidableA == &fem("ellipsoid") && c.collidableB == &fem("beam")) ||
                        (c.collidableA == &fem("beam") && c.collidableB == &fem("ellipsoid"));
  });
  root->run(1.5);
  EXPECT_TRUE(ellipsoidOnBeam);
  EXPECT_LE(worst, 1e-9) << "no contact deeper than the tolerance after a step";
  EXPECT_GT(lowest(fem("beam").getSurfaceMesh()), -2 * tol);
  EXPECT_LT(lowest(fem("beam").getSurfaceMesh()), 0.01) << "the beam has landed";
  // The sphere's lowest point starts 0.02 m above the block's bottom.
  EXPECT_LT(lowest(fem("block").getSurfaceMesh()), -0.015) << "the block's own surface passes through";
  const double sphere = lowest(fem("block").getMeshComps().get("embedded")->getMesh());
  EXPECT_GT(sphere, -2 * tol);
  EXPECT_LT(sphere, 0.01) << "the embedded sphere rests on the table";
}

// FemSelfCollide (§8.3.3, Figure 8.5): the open torus sags until the ends
// of its gap meet. With its self-collision behaviour their contact meshes
// meet within the penetration tolerance and push each other; without it,
// the same model passes through itself.
TEST(ContactDemos, FemSelfCollideEndsMeetWithoutPassingThrough) {
  auto deepest = [](bool selfCollision) {
    auto root = demos::createDemo("FemSelfCollide");
    MechModel& mech = mechOf(*root);
    if (!selfCollision) mech.clearCollisionBehaviors();
    FemModel3d& fem = *root->findComponent<FemModel3d>("models/mech/models/ptorus");
    const FemMeshComp& left = *fem.getMeshComps().get("leftMesh");
    const FemMeshComp& right = *fem.getMeshComps().get("rightMesh");
    root->initialize(0);
    // The deepest vertex of either mesh inside the other (negative: inside).
    double deepest = INFINITY;
    bool touched = false;
    root->addMonitor("check", [&](double, double) {
      for (auto [a, b] : {std::pair(&left, &right), std::pair(&right, &left)}) {
        const TriangleBVTree tree(static_cast<const PolygonalMesh&>(b->getMesh()));
        TriangleBVTree::Nearest n;
        for (int v = 0; v < a->getMesh().numVertices(); ++v)
          if (tree.within(a->getMesh().getVertex(v), 1.0, n)) deepest = std::min(deepest, n.distance);
      }
      for (const ContactPoint& c : mech.getCollisionManager().getContacts())
        touched = touched || (c.collidableA == &left && c.collidableB == &right) ||
                  (c.collidableA == &right && c.collidableB == &left);
    });
    root->run(1.5);
    EXPECT_EQ(touched, selfCollision);
    return std::make_pair(deepest, mech.getPenetrationTol());
  };
  const auto [withSelf, tol] = deepest(true);
  std::printf("deepest vertex: %.3g m with self-collision (tolerance %.3g m)\n", withSelf, tol);
  VERIFY_BELOW("contact: FemSelfCollide, deepest vertex of one end inside the other [m]",
               "the penetration tolerance (§8.9.1)", -withSelf, 1.5 * tol);
  const double without = deepest(false).first;
  std::printf("deepest vertex: %.3g m without\n", without);
  EXPECT_LT(without, -0.005) << "the ends must meet for the demo to show anything";
}

}  // namespace
}  // namespace sinew
