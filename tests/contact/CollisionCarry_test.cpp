// Position stabilization carries the velocity solve's contacts with their
// bodies instead of detecting again (sinew/contact/CollisionCarry.cpp),
// while no body has moved by more than half the penetration tolerance.
// Facts asserted: the penetrating contacts carried through a rigid motion
// within half the tolerance are those a fresh detection finds there
// (depths to 1e-12, normals turned with the bodies), and a larger motion
// detects afresh; reduced contacts, a hull's left-out inner points and a
// new start are detected afresh; a resting stack is detected once a step,
// a true detection after each step finds no penetration beyond the
// tolerance that the carried contacts' correction left, and after a step
// a question about the contacts detects; a box knocked sideways by a fast
// one moves further than the carry allows, and that step detects again,
// with the same outcome.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "DemoRuns.h"
#include "bench/Scenes.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using test::mechOf;

/// The largest penetration beyond the model's tolerance that a fresh
/// detection finds at the current configuration.
double freshHardError(MechModel& mech) {
  CollisionManager& cm = mech.getCollisionManager();
  cm.updateContacts(0);
  double e = 0;
  for (const ContactPoint& c : cm.detectedContacts()) e = std::max(e, c.depth - mech.getPenetrationTol());
  return e;
}

/// Two 0.2 m cubes of 1 kg over a collision plane z = 0, under gravity,
/// friction mu between all.
struct TwoCubes {
  MechModel* mech = nullptr;
  std::unique_ptr<RootModel> root = bench::makeGravityRoot("twoCubes", mech);
  CollisionManager& cm = mech->getCollisionManager();
  RigidBody& a;
  RigidBody& b;
  TwoCubes(const char* nameA, const char* nameB, double mu)
      : a(mech->addRigidBody(RigidBody::createBox(nameA, 0.2, 0.2, 0.2, 125))),
        b(mech->addRigidBody(RigidBody::createBox(nameB, 0.2, 0.2, 0.2, 125))) {
    cm.addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
    mech->setDefaultCollisionBehavior(true, mu);
  }
};

TEST(CollisionCarry, CarriedContactsAreThoseAFreshDetectionFinds) {
  TwoCubes s("lower", "upper", 0.3);
  RigidBody &lower = s.a, &upper = s.b;
  CollisionManager& cm = s.cm;
  // A tolerance of 2 mm: the carried motion below (about 0.5 mm) is within
  // half of it.
  s.mech->setPenetrationTol(2e-3);
  lower.setPose(RigidTransform3d(0, 0, 0.1 - 1e-4));  // sunk 1e-4 into the ground
  upper.setPose(RigidTransform3d(0, 0, 0.3 - 2e-4));  // and 1e-4 into the lower box
  for (RigidBody* b : {&lower, &upper}) b->setVelocity(Twist(0, 0, -1, 0, 0, 0));
  cm.updateContacts(1e-3);  // the velocity solve's detection
  // Both boxes move together: down 2e-4 and turned 1e-3 rad about x.
  const RigidTransform3d X(Vector3d(0, 0, -2e-4), Eigen::AngleAxisd(1e-3, Vector3d::UnitX()).toRotationMatrix());
  for (RigidBody* b : {&lower, &upper}) b->setPose(X * b->getPose());
  const long detections = cm.numDetections();
  cm.getMaxHardError();  // position stabilization's question: carried
  EXPECT_EQ(cm.numDetections(), detections);
  const std::vector<ContactPoint> carried = cm.detectedContacts();
  cm.updateContacts(0);
  const std::vector<ContactPoint>& fresh = cm.detectedContacts();
  // Every penetrating contact of either set is one of the other's: the
  // sets differ only by points that touch (depth 0), which a turn may add
  // to a hull, and which push nothing.
  auto match = [](const std::vector<ContactPoint>& from, const std::vector<ContactPoint>& in, double tol) {
    int penetrating = 0;
    for (const ContactPoint& f : from) {
      if (!(f.depth > 0)) continue;
      ++penetrating;
      const ContactPoint* best = nullptr;
      for (const ContactPoint& c : in)
        if (c.depth > 0 && c.collidableA == f.collidableA && c.collidableB == f.collidableB &&
            (!best || (c.position - f.position).norm() < (best->position - f.position).norm()))
          best = &c;
      if (!best) {
        ADD_FAILURE() << "no contact of the pair " << f.collidableA->getName() << ", " << f.collidableB->getName();
        continue;
      }
      EXPECT_LT((best->position - f.position).norm(), 1e-3);
      // The ground's corners sink by 2e-4 ± 1e-4 (the turn), the boxes
      // keep their 1e-4 into each other and turn their normal.
      EXPECT_NEAR(best->depth, f.depth, tol);
      EXPECT_LT((best->normal - f.normal).norm(), tol);
    }
    return penetrating;
  };
  EXPECT_EQ(match(fresh, carried, 1e-12), 8) << "four corners in the ground, four region points between the boxes";
  EXPECT_EQ(match(carried, fresh, 1e-12), 8);
  // The upper box alone sinks 1e-4 further: the region between the boxes
  // deepens by 1e-4, and a fresh detection agrees to first order (a fresh region's normal is fitted to
  // the crossing segments of the sides, which the sinking lengthens: it
  // turns by 2e-7 here, and the depth follows).
  cm.updateContacts(1e-3);
  upper.setPose(RigidTransform3d(X.R * Vector3d(0, 0, -1e-4)) * upper.getPose());
  cm.getMaxHardError();
  const std::vector<ContactPoint> carriedAgain = cm.detectedContacts();
  cm.updateContacts(0);
  EXPECT_EQ(match(cm.detectedContacts(), carriedAgain, 1e-6), 8);
  EXPECT_EQ(match(carriedAgain, cm.detectedContacts(), 1e-6), 8);
  // Carried, exactly 1e-4 deeper than before.
  double deepest = 0;
  for (const ContactPoint& c : carried)
    if (c.collidableB == &upper) deepest = std::max(deepest, c.depth);
  for (const ContactPoint& c : carriedAgain)
    if (c.collidableB == &upper && c.depth > 0) EXPECT_NEAR(c.depth, deepest + 1e-4, 1e-12);
  // Moved by more than half the tolerance since a new velocity detection:
  // detected afresh.
  cm.updateContacts(1e-3);
  for (RigidBody* b : {&lower, &upper}) b->setPose(RigidTransform3d(Vector3d(0, 0, -3e-3)) * b->getPose());
  const long before = cm.numDetections();
  cm.getMaxHardError();
  EXPECT_EQ(cm.numDetections(), before + 1);
}

TEST(CollisionCarry, OnlyThePairsOfABodyThatMovedTooFarAreDetectedAgain) {
  // Four cubes over the ground, apart: three resting 1e-4 deep, one 5e-3
  // above it (beyond the 2 mm tolerance: not watched), and a fifth resting
  // on the second, 1e-4 into it. The first two move by 2e-4 (within half
  // the tolerance), the fifth with the second and then 3e-3 further into
  // it, the third sinks 3e-3 and the raised one falls 6e-3, 1e-3 into the
  // ground: only the pairs of the last three are detected again (the
  // fifth's is the higher collidable of its pair), and the contacts are
  // those a fresh detection finds, each once (the falling cube's four
  // corners, which the velocity solve's detection did not have: carrying
  // its pair would miss them).
  MechModel* mech;
  auto root = bench::makeGravityRoot("fiveCubes", mech);
  CollisionManager& cm = mech->getCollisionManager();
  cm.addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
  mech->setDefaultCollisionBehavior(true, 0.3);
  mech->setPenetrationTol(2e-3);
  std::vector<RigidBody*> cubes;
  for (int i = 0; i < 5; ++i) {
    cubes.push_back(&mech->addRigidBody(RigidBody::createBox("c" + std::to_string(i), 0.2, 0.2, 0.2, 125)));
    const double z = i == 3 ? 0.1 + 5e-3 : i == 4 ? 0.3 - 2e-4 : 0.1 - 1e-4;
    cubes[i]->setPose(RigidTransform3d(i == 4 ? 0.5 : 0.5 * i, 0, z));
  }
  cm.updateContacts(1e-3);
  const size_t base = cm.detectedContacts().size();
  const RigidTransform3d small(Vector3d(0, 0, -2e-4), Eigen::AngleAxisd(1e-3, Vector3d::UnitX()).toRotationMatrix());
  for (int i : {0, 1, 4}) cubes[i]->setPose(small * cubes[i]->getPose());
  for (auto [i, dz] : {std::pair{2, -3e-3}, {3, -6e-3}, {4, -3e-3}})
    cubes[i]->setPose(RigidTransform3d(Vector3d(0, 0, dz)) * cubes[i]->getPose());
  const long detections = cm.numDetections(), partial = cm.numPartialDetections(), pairs = cm.numPairDetections();
  cm.getMaxHardError();
  EXPECT_EQ(cm.numDetections(), detections + 1);
  EXPECT_EQ(cm.numPartialDetections(), partial + 1);
  EXPECT_EQ(cm.numPairDetections(), pairs + 3) << "the third, the fourth and the fifth cube's pairs";
  const std::vector<ContactPoint> stabilized = cm.detectedContacts();
  cm.updateContacts(0);
  const std::vector<ContactPoint>& fresh = cm.detectedContacts();
  ASSERT_EQ(stabilized.size(), fresh.size());
  // Each fresh contact is one stabilization has, the same point with the
  // same normal and depth (each stabilization contact matched once).
  std::vector<char> used(stabilized.size(), 0);
  for (const ContactPoint& f : fresh) {
    size_t match = stabilized.size();
    for (size_t k = 0; k < stabilized.size() && match == stabilized.size(); ++k) {
      const ContactPoint& c = stabilized[k];
      if (!used[k] && c.collidableA == f.collidableA && c.collidableB == f.collidableB &&
          (c.position - f.position).norm() < 1e-9 && (c.normal - f.normal).norm() < 1e-12)
        match = k;
    }
    ASSERT_LT(match, stabilized.size()) << f.collidableA->getName() << " at " << f.position.transpose();
    used[match] = 1;
    EXPECT_NEAR(stabilized[match].depth, f.depth, 1e-12);
  }
  int falling = 0;
  for (const ContactPoint& c : stabilized) {
    if (c.collidableA == cubes[2]) EXPECT_NEAR(c.depth, 3.1e-3, 1e-12);
    if (c.collidableA == cubes[3]) {
      EXPECT_NEAR(c.depth, 1e-3, 1e-12);
      ++falling;
    }
  }
  EXPECT_EQ(falling, 4) << "the falling cube's corners, which the base did not have";
  EXPECT_GT(base, 0u);
  // Nothing moved too far: every pair carried, nothing detected.
  cm.updateContacts(1e-3);
  for (RigidBody* c : cubes) c->setPose(small * c->getPose());
  const long before = cm.numDetections();
  cm.getMaxHardError();
  EXPECT_EQ(cm.numDetections(), before);
}

/// The fewest detections any of the next `steps` steps of 1 ms ran.
long fewestDetectionsAStep(RootModel& root, const CollisionManager& cm, int steps) {
  long least = 1000;
  for (int k = 0; k < steps; ++k) {
    const long before = cm.numDetections();
    const double t = root.getTime();
    root.advance(t, t + 1e-3);
    least = std::min(least, cm.numDetections() - before);
  }
  return least;
}

TEST(CollisionCarry, ReducedContactsAndANewStartAreDetectedAfresh) {
  TwoCubes s("lower", "upper", 0.3);
  s.a.setPose(RigidTransform3d(0, 0, 0.1));
  s.b.setPose(RigidTransform3d(0, 0, 0.3));
  s.root->setMaxStepSize(1e-3);
  s.root->initialize(0);
  // Reduced contacts (§8.6) may leave a dropped row to sink: stabilization
  // detects again.
  s.cm.setReduceConstraints(true);
  EXPECT_GE(fewestDetectionsAStep(*s.root, s.cm, 20), 2);
  s.cm.setReduceConstraints(false);
  EXPECT_EQ(fewestDetectionsAStep(*s.root, s.cm, 20), 1);
  // A finely meshed cube resting on the ground: its face's inner vertices
  // penetrate too, and its hull keeps only the corners.
  {
    MechModel* mech;
    auto root = bench::makeGravityRoot("fine", mech);
    mech->getCollisionManager().addPlane("ground", Vector3d::Zero(), Vector3d::UnitZ());
    auto& cube = mech->addRigidBody(RigidBody::createFromMesh(
        "cube", std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.2, 0.2, 0.2, 3, 3, 3)), 125));
    cube.setPose(RigidTransform3d(0, 0, 0.1 - 1e-9));
    mech->setDefaultCollisionBehavior(true, 0.3);
    root->setMaxStepSize(1e-3);
    root->initialize(0);
    EXPECT_GE(fewestDetectionsAStep(*root, mech->getCollisionManager(), 20), 2);
  }
  // A new start is no step's stabilization: its projection detects.
  const long before = s.cm.numDetections();
  s.root->initialize(s.root->getTime());
  EXPECT_GT(s.cm.numDetections(), before);
}

TEST(CollisionCarry, ARestingStackIsDetectedOnceAStepAndLeftWithinTolerance) {
  auto root = bench::makeBoxes(10, false);
  MechModel& mech = mechOf(*root);
  CollisionManager& cm = mech.getCollisionManager();
  root->run(0.05);
  double worst = 0;
  for (int k = 0; k < 100; ++k) {
    const long before = cm.numDetections();
    const double t = root->getTime();
    root->advance(t, t + 1e-3);
    EXPECT_EQ(cm.numDetections() - before, 1) << "step " << k;
    worst = std::max(worst, freshHardError(mech));
  }
  EXPECT_LE(worst, 1e-9);
  // After a step (whose stabilization carried), what it kept is gone: a
  // question about the contacts detects.
  const double t = root->getTime();
  root->advance(t, t + 1e-3);
  const long before = cm.numDetections();
  cm.getMaxHardError();
  EXPECT_EQ(cm.numDetections(), before + 1);
}

TEST(CollisionCarry, ABoxKnockedFurtherThanTheCarryAllowsIsDetectedAgain) {
  TwoCubes s("still", "fast", 0.2);
  RigidBody &still = s.a, &fast = s.b;
  CollisionManager& cm = s.cm;
  RootModel* root = s.root.get();
  MechModel* mech = s.mech;
  still.setPose(RigidTransform3d(0, 0, 0.1));
  fast.setPose(RigidTransform3d(-0.3, 0, 0.1));
  root->setMaxStepSize(1e-3);
  root->initialize(0);
  root->run(0.02);  // both settled on the ground
  fast.setVelocity(Twist(5, 0, 0, 0, 0, 0));
  int redetected = 0;
  double worst = 0;
  for (int k = 0; k < 60; ++k) {
    const long before = cm.numDetections();
    const double t = root->getTime();
    root->advance(t, t + 1e-3);
    redetected += cm.numDetections() - before > 1;
    worst = std::max(worst, freshHardError(*mech));
  }
  EXPECT_GT(still.getPosition().x(), 0.01) << "the fast box hit the still one";
  EXPECT_GE(redetected, 1) << "the step of the impact detects again";
  EXPECT_LE(worst, 1e-9);
}

}  // namespace
}  // namespace sinew
