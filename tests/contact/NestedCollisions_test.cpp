// Nested MechModels (guide §8.3.5, Figure 8.6): the behaviour for two
// collidables is the one set in the lowest MechModel holding both; a parent
// cannot set a pair inside a child; responses may be set at every level.
#include <gtest/gtest.h>

#include <set>

#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"

namespace sinew {
namespace {

/// mechA holds boxes A1, A2 and mechB, which holds B1, B2. The four unit
/// boxes, 0.3 apart, overlap each other deeply (no gravity), and with
/// vertex penetration (set on mechA's manager, which detects every pair
/// and whose settings every behaviour that sets none takes) every pair
/// whose behaviour is enabled has contacts in the first step. (Contour
/// regions, the DEFAULT between rigid bodies, would push the boxes apart
/// when the model is initialized.)
struct Nested {
  test::TestRoot r;
  MechModel& mechA;
  MechModel& mechB;
  RigidBody *A1, *A2, *B1, *B2;
  explicit Nested(bool topManager = true)
      : mechA(r.mech), mechB(r.mech.addModel(std::make_unique<MechModel>("mechB"))) {
    auto box = [](MechModel& m, const std::string& name, double x) {
      RigidBody& b = m.addRigidBody(RigidBody::createBox(name, 1, 1, 1, 1000));
      b.setPose(RigidTransform3d(x, 0.05 * x, 0));
      return &b;
    };
    A1 = box(mechA, "A1", 0);
    A2 = box(mechA, "A2", 0.3);
    B1 = box(mechB, "B1", 0.6);
    B2 = box(mechB, "B2", 0.9);
    mechB.setGravity(Vector3d::Zero());
    if (topManager)  // the outermost manager finds every contact
      mechA.getCollisionManager().setMethod(CollisionBehavior::Method::VertexPenetration);
  }
  /// The pairs (by name, sorted) with contacts after one step.
  std::set<std::string> collidingPairs() {
    r.run(1e-3, 1e-3);
    std::set<std::string> pairs;
    for (const ContactPoint& c : mechA.getCollisionManager().getContacts()) {
      std::string a = c.collidableA->getName(), b = c.collidableB->getName();
      pairs.insert(a < b ? a + "-" + b : b + "-" + a);
    }
    return pairs;
  }
};

TEST(NestedCollisions, TheLowestMechModelHoldingBothSetsTheBehavior) {
  // The guide's fragment, line by line.
  {
    Nested s;
    s.mechB.setDefaultCollisionBehavior(true, 0.2);
    // Only B1–B2: mechA enables nothing, so A1, A2 collide with nothing.
    EXPECT_EQ(s.collidingPairs(), (std::set<std::string>{"B1-B2"}));
  }
  {
    Nested s;
    s.mechB.setDefaultCollisionBehavior(true, 0.2);
    s.mechA.setCollisionBehavior(*s.B1, Collidable::AllBodies, true, 0.0);
    // B1 with every body of mechA (A1 and A2); B2 still with B1 only.
    EXPECT_EQ(s.collidingPairs(), (std::set<std::string>{"A1-B1", "A2-B1", "B1-B2"}));
  }
  {
    Nested s;
    s.mechB.setDefaultCollisionBehavior(true, 0.2);
    s.mechA.setCollisionBehavior(*s.B1, Collidable::AllBodies, true, 0.0);
    s.mechA.setCollisionBehavior(*s.B1, *s.A1, false);
    EXPECT_EQ(s.collidingPairs(), (std::set<std::string>{"A2-B1", "B1-B2"}));
    // mechA's defaults do not reach inside mechB.
    s.mechA.setDefaultCollisionBehavior(false, 0);
    EXPECT_THROW(s.mechA.setCollisionBehavior(*s.B1, *s.B2, false), ModelError);  // "Error!"
  }
  {
    // mechA's defaults govern its own bodies and those of mechB with them.
    Nested s;
    s.mechA.setDefaultCollisionBehavior(true, 0);
    EXPECT_EQ(s.collidingPairs(), (std::set<std::string>{"A1-A2", "A1-B1", "A1-B2", "A2-B1", "A2-B2"}));
  }
}

TEST(NestedCollisions, ANestedManagerAloneFindsItsOwnContactsAndResponsesWorkAtEveryLevel) {
  // With no manager above it, mechB's finds B1–B2 itself; once mechA has
  // one, mechA's finds them and both models' responses for the pair see
  // them: B2 rests on a fixed B1 under gravity, and each response reports
  // its weight.
  for (bool topManager : {false, true}) {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    MechModel& mechB = r.mech.addModel(std::make_unique<MechModel>("mechB"));
    RigidBody& B1 = mechB.addRigidBody(RigidBody::createBox("B1", 1, 1, 0.2, 1000));
    RigidBody& B2 = mechB.addRigidBody(RigidBody::createBox("B2", 0.2, 0.2, 0.2, 125));
    B1.setPose(RigidTransform3d(0, 0, -0.1));
    B1.setDynamic(false);
    B2.setPose(RigidTransform3d(0, 0, 0.1));
    mechB.setDefaultCollisionBehavior(true, 0.2);
    CollisionResponse& inner = mechB.setCollisionResponse(B1, B2);
    CollisionResponse* outer = topManager ? &r.mech.setCollisionResponse(B1, B2) : nullptr;
    EXPECT_EQ(mechB.getCollisionManager().detects(), !topManager);
    r.run(0.5, 0.01);
    EXPECT_NEAR(B2.getPosition().z(), 0.1, r.mech.getPenetrationTol() + 1e-9) << "B2 rests on B1";
    auto weightOn = [&](const CollisionResponse& resp) {
      double fz = 0;
      for (const ContactData& d : resp.getContactData())
        fz += d.collidable0 == &B2 ? d.contactForce.z() : -d.contactForce.z();
      return fz;
    };
    EXPECT_TRUE(inner.inContact());
    EXPECT_NEAR(weightOn(inner), 9.8, 1e-6);
    if (outer) EXPECT_NEAR(weightOn(*outer), 9.8, 1e-6);
  }
}

}  // namespace
}  // namespace sinew
