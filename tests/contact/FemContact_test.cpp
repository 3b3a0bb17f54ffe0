// FEM contact (guide §8.1, §8.4.1.2): an FEM model collides through its
// surface mesh by vertex penetration, with bilateral rows by default
// (bilateralVertexContact) that are dropped when they pull. The tests
// assert equilibrium (the contact force carries the weight), the
// penetration bound of §8.9.1, and separation.
#include <gtest/gtest.h>

#include <cmath>

#include "ContactScenes.h"
#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/NeoHookeanMaterial.h"

namespace sinew {
namespace {

const double g = 9.8;

using test::addBlock;

/// A fixed 2 × 2 × 0.2 m plate with its top at z = 0.
RigidBody& addPlate(MechModel& mech) {
  RigidBody& plate = mech.addRigidBody(RigidBody::createBox("plate", 2, 2, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  return plate;
}

struct Rest {
  double forceZ, weight, maxError;
  int contacts, bilateral;
};

/// A 0.4 × 0.4 × 0.2 m block dropped 1 mm onto the plate, after 2 s.
Rest blockOnPlate(bool bilateral, ColliderType collider = ColliderType::Inherited,
                  std::vector<Vector3d>* nodes = nullptr) {
  test::TestRoot r(Vector3d(0, 0, -g));
  RigidBody& plate = addPlate(r.mech);
  FemModel3d& block = addBlock(r.mech, "block", 0.4, 0.2, 2, 0.101);
  CollisionBehavior& behav = r.mech.setCollisionBehavior(block, plate, true);
  behav.setBilateralVertexContact(bilateral);
  behav.setColliderType(collider);
  r.run(2.0, 0.01);
  if (nodes)
    for (int i = 0; i < block.numNodes(); ++i) nodes->push_back(block.getNode(i).getPosition());
  CollisionManager& cm = r.mech.getCollisionManager();
  Rest s{cm.getContactForce(block).z(), 1000 * 0.4 * 0.4 * 0.2 * g, cm.getMaxHardError(), 0, 0};
  for (const ContactPoint& c : cm.getContacts()) {
    ++s.contacts;
    s.bilateral += c.bilateral;
    EXPECT_EQ(c.bodyA, nullptr);  // the FEM's vertices penetrate the plate (AUTO)
    EXPECT_EQ(c.bodyB, &plate);
    EXPECT_NEAR(c.normal.z(), 1.0, 1e-9);
  }
  return s;
}

TEST(FemContact, BlockRestsOnAPlateCarryingItsWeight) {
  for (bool bilateral : {true, false}) {
    const Rest s = blockOnPlate(bilateral);
    EXPECT_EQ(s.contacts, 9) << "the 3 × 3 bottom vertices";
    EXPECT_EQ(s.bilateral, bilateral ? 9 : 0);
    EXPECT_NEAR(s.forceZ, s.weight, 1e-3 * s.weight) << "bilateral " << bilateral;
    EXPECT_LE(s.maxError, 1e-9) << "penetration within penetrationTol";
  }
}

TEST(FemContact, BlockRestsTheSameUnderTheSignedDistanceCollider) {
  // The block's bottom vertices against the plate's distance grid: the
  // plate's top face region is where the grid is exact, so every node comes
  // to rest where the tree's exact distance puts it (the check of the
  // guide's §8.4.2 SIGNED_DISTANCE), carrying the block's weight.
  std::vector<Vector3d> byTree, byGrid;
  blockOnPlate(true, ColliderType::TriIntersection, &byTree);
  const Rest s = blockOnPlate(true, ColliderType::SignedDistance, &byGrid);
  EXPECT_EQ(s.contacts, 9);
  EXPECT_NEAR(s.forceZ, s.weight, 1e-3 * s.weight);
  ASSERT_EQ(byGrid.size(), byTree.size());
  for (size_t i = 0; i < byTree.size(); ++i) EXPECT_LT((byGrid[i] - byTree[i]).norm(), 1e-9) << "node " << i;
  // Two FEM models have no grid between them (grids are for fixed meshes).
  test::TestRoot r(Vector3d(0, 0, -g));
  FemModel3d& lower = addBlock(r.mech, "lower", 0.6, 0.2, 3, 0.1);
  FemModel3d& upper = addBlock(r.mech, "upper", 0.3, 0.1, 2, 0.2);
  r.mech.setCollisionBehavior(upper, lower, true).setColliderType(ColliderType::SignedDistance);
  EXPECT_THROW(r.run(0.01, 0.01), ModelError);
}

TEST(FemContact, TwoFemBlocksStackWithinTheTolerance) {
  // A small block falls 5 mm onto a larger one held at its base: contact
  // both ways (AUTO between FEM models), bilateral rows.
  test::TestRoot r(Vector3d(0, 0, -g));
  FemModel3d& lower = addBlock(r.mech, "lower", 0.6, 0.2, 3, 0.1);
  for (int i = 0; i < lower.numNodes(); ++i)
    if (lower.getNode(i).getPosition().z() < 1e-9) lower.getNode(i).setDynamic(false);
  FemModel3d& upper = addBlock(r.mech, "upper", 0.3, 0.1, 2, 0.255);
  r.mech.setCollisionBehavior(upper, lower, true);
  r.run(2.0, 0.01);
  CollisionManager& cm = r.mech.getCollisionManager();
  ASSERT_FALSE(cm.getContacts().empty());
  const double tol = r.mech.getPenetrationTol();
  for (const ContactPoint& c : cm.getContacts()) EXPECT_LE(c.depth, tol * (1 + 1e-6));
  EXPECT_LE(cm.getMaxHardError(), 1e-9);
  const double weight = 1000 * 0.3 * 0.3 * 0.1 * g;
  EXPECT_NEAR(cm.getContactForce(upper).z(), weight, 1e-3 * weight);
  EXPECT_NEAR(cm.getContactForce(lower).z(), -weight, 1e-3 * weight);
}

/// A 0.4 × 0.4 × 0.2 m block at rest on the plate on bilateral contacts,
/// after 1 s at h = 10 ms.
FemModel3d& blockResting(test::TestRoot& r) {
  RigidBody& plate = addPlate(r.mech);
  FemModel3d& block = addBlock(r.mech, "block", 0.4, 0.2, 2, 0.101);
  r.mech.setCollisionBehavior(block, plate, true);
  r.run(1.0, 0.01);
  return block;
}

TEST(FemContact, PullingContactsAreDropped) {
  // Resting bilateral contacts would hold the block down if gravity turned
  // upward; they pull in the first step and are left out after it, so the
  // block rises as in free flight under its mass-proportional damping d:
  // z(t) − z0 = (g/d)(t − (1 − e^{−dt})/d), 0.9006 m at t = 0.5 s, d = 2.
  test::TestRoot r(Vector3d(0, 0, -g));
  FemModel3d& block = blockResting(r);
  ASSERT_FALSE(r.mech.getCollisionManager().getContacts().empty());
  const double z0 = block.getNode(0).getPosition().z();
  r.mech.setGravity(Vector3d(0, 0, g));
  r.root->run(1.5);
  EXPECT_TRUE(r.mech.getCollisionManager().getContacts().empty());
  const double d = block.getParticleDamping(), t = 0.5;
  const double rise = g / d * (t - (1 - std::exp(-d * t)) / d);
  EXPECT_NEAR(block.getNode(0).getPosition().z() - z0, rise, 0.05 * rise);
}

TEST(FemContact, ARestoredStateLeavesOutTheContactsThatPulled) {
  // Which bilateral contacts pulled in the last solve is state: the next
  // detection leaves them out. Saved right after they pulled, the state
  // must bring that list back, so that the run continues bit for bit; if
  // it did not, the contacts would be found again after the restore
  // (the block is still within the penetration tolerance) and pull again.
  test::TestRoot r(Vector3d(0, 0, -g));
  blockResting(r);
  r.mech.setGravity(Vector3d(0, 0, g));
  r.root->run(1.01);
  CollisionManager& cm = r.mech.getCollisionManager();
  int pulled = 0;
  for (const ContactPoint& c : cm.getContacts()) pulled += c.normalForce < 0;
  ASSERT_GT(pulled, 0) << "the contacts pull in the first step under upward gravity";
  Eigen::VectorXd saved, end1, end2;
  r.root->getState(saved);
  r.root->run(1.03);
  r.root->getState(end1);
  EXPECT_TRUE(cm.getContacts().empty());
  r.root->setState(saved);
  r.root->run(1.03);
  r.root->getState(end2);
  EXPECT_TRUE(cm.getContacts().empty());
  ASSERT_EQ(end1.size(), end2.size());
  for (Eigen::Index i = 0; i < end1.size(); ++i) ASSERT_EQ(end1[i], end2[i]) << "state value " << i;
}

TEST(FemContact, CollidableOffKeepsAModelOutOfContact) {
  // §8.2.2: with its `collidable` property OFF the block has no contacts
  // even though a behaviour names it, and falls through the plate freely.
  test::TestRoot r(Vector3d(0, 0, -g));
  RigidBody& plate = addPlate(r.mech);
  FemModel3d& block = addBlock(r.mech, "block", 0.4, 0.2, 2, 0.101);
  r.mech.setCollisionBehavior(block, plate, true);
  block.getProperty("collidable").set(std::string("OFF"));
  EXPECT_EQ(block.getCollidable(), Collidability::Off);
  r.run(0.2, 0.01);
  EXPECT_TRUE(r.mech.getCollisionManager().getContacts().empty());
  EXPECT_LT(block.getNode(0).getPosition().z(), -0.05);
}

TEST(FemContact, BehaviorsNameOnlyCollidables) {
  test::TestRoot r;
  RigidBody& plate = addPlate(r.mech);
  Particle& p = r.mech.addParticle("p", 1.0, 0, 0, 1);
  try {
    r.mech.setCollisionBehavior(p, plate, true);
    FAIL() << "a particle is not collidable";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("not a collidable"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("p"), std::string::npos);
  }
}

}  // namespace
}  // namespace sinew

namespace sinew {
namespace {

TEST(FemContact, ShellsFormTheSurfaceMesh) {
  // A 2 × 2 grid of quad shells: its surface is its 9 nodes and 8
  // triangles, facing +z as the shells do (§6.1.2.3, §8.1.4).
  FemModel3d fem;
  FemFactory::createShellQuadGrid(fem, 1, 1, 2, 2, 0.01, false);
  const PolygonalMesh& surface = fem.getSurfaceMesh();
  EXPECT_EQ(surface.numVertices(), 9);
  EXPECT_EQ(surface.numFaces(), 8);
  EXPECT_FALSE(surface.isClosed());
  for (int f = 0; f < surface.numFaces(); ++f) EXPECT_NEAR(surface.computeFaceNormal(f).normalized().z(), 1, 1e-12);
  for (auto& n : fem.nodes()) EXPECT_TRUE(fem.isSurfaceNode(n));
}

TEST(FemContact, ShellSheetRestsOnAPlateCarryingItsWeight) {
  // A 0.4 × 0.4 m sheet of shells (1 mm, ρ = 1000, neo-Hookean) dropped
  // 1 mm onto a plate: its open surface collides through its vertices
  // (§8.1.4), and at rest its contacts carry its weight with every vertex
  // within the tolerance. Both shell forms.
  for (bool membrane : {true, false}) {
    test::TestRoot r(Vector3d(0, 0, -g));
    RigidBody& plate = addPlate(r.mech);
    auto& sheet = r.mech.addModel(std::make_unique<FemModel3d>("sheet"));
    FemFactory::createShellQuadGrid(sheet, 0.4, 0.4, 4, 4, 0.001, membrane);
    sheet.setMaterial(NeoHookeanMaterial(1e6, 0.3));
    sheet.setDensity(1000);
    sheet.transformGeometry(RigidTransform3d(0, 0, 0.001));
    r.mech.setCollisionBehavior(sheet, plate, true);
    r.run(1.0, 0.01);
    CollisionManager& cm = r.mech.getCollisionManager();
    double mass = 0;
    for (auto& n : sheet.nodes()) mass += n.getMass();
    for (auto& b : sheet.backNodes()) mass += b.getMass();
    EXPECT_NEAR(mass, 1000 * 0.4 * 0.4 * 0.001, 1e-9);
    EXPECT_EQ(cm.getContacts().size(), 25u) << "every vertex of the 5 × 5 grid";
    EXPECT_NEAR(cm.getContactForce(sheet).z(), mass * g, 1e-3 * mass * g) << "membrane " << membrane;
    EXPECT_LE(cm.getMaxHardError(), 1e-9);
  }
}

}  // namespace
}  // namespace sinew
