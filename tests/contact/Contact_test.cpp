// Rigid-body contact (guide Ch. 8): the signed-distance tree, resting
// contact carrying the weight, Coulomb friction on an incline, and the
// behaviour table's priorities and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ContactScenes.h"
#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactForceBehavior.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/DistanceGridComp.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "Verification.h"

namespace sinew {
namespace {

/// Sinew's default between rigid bodies before contour regions became it
/// (2026-11-27), and what the rigid tests below also run: vertex
/// penetration with both bodies' vertices tested, set on the manager.
void useVertexPenetrationBothWays(MechModel& mech) {
  CollisionManager& cm = mech.getCollisionManager();
  cm.setMethod(CollisionBehavior::Method::VertexPenetration);
  cm.setVertexPenetrations(CollisionBehavior::VertexPenetrations::BothCollidables);
}

TEST(TriangleBVTree, SignedDistanceMatchesBruteForceOnABoxAndASphere) {
  // The box's signed distance is known in closed form; the sphere's is
  // checked against the O(faces) distance and the sign against |p| < r.
  PolygonalMesh box = MeshFactory::createBox(2, 1, 0.5, 3, 2, 2);
  box.triangulate();
  TriangleBVTree tree(box);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> U(-1.5, 1.5);
  const Vector3d half(1, 0.5, 0.25);
  for (int k = 0; k < 500; ++k) {
    const Vector3d p(U(rng), U(rng), U(rng));
    const Vector3d q = p.cwiseAbs() - half;
    const double exact = q.maxCoeff() < 0 ? q.maxCoeff() : q.cwiseMax(0.0).norm();
    EXPECT_NEAR(tree.nearest(p).distance, exact, 1e-12) << p.transpose();
  }
  PolygonalMesh ball = MeshFactory::createIcosahedralSphere(1, 2);
  TriangleBVTree stree(ball);
  for (int k = 0; k < 300; ++k) {
    const Vector3d p(U(rng), U(rng), U(rng));
    const auto n = stree.nearest(p);
    EXPECT_NEAR(std::abs(n.distance), ball.distanceToPoint(p), 1e-12);
    if (std::abs(p.norm() - 1) > 0.05) EXPECT_EQ(n.distance < 0, p.norm() < 1) << p.transpose();
  }
}

TEST(TriangleBVTree, RefittedTreeAnswersAsATreeBuiltOnTheDeformedMesh) {
  // A sphere squashed, sheared and bent (a nonlinear map keeps it closed
  // and oriented): the tree refitted from the round sphere gives the same
  // nearest points, signed distances and pseudo-normals as one built on
  // the deformed mesh, to round-off.
  PolygonalMesh ball = MeshFactory::createIcosahedralSphere(1, 3);
  TriangleBVTree refitted(ball);
  for (int i = 0; i < ball.numVertices(); ++i) {
    const Vector3d p = ball.getVertex(i);
    ball.setVertex(i, Vector3d(1.5 * p.x() + 0.3 * p.z(), 0.7 * p.y(), 0.5 * p.z() + 0.2 * p.x() * p.x()));
  }
  ASSERT_TRUE(refitted.refit(ball));
  const TriangleBVTree built(ball);
  EXPECT_TRUE(refitted.bounds().isApprox(built.bounds(), 1e-15));
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> U(-2, 2);
  for (int k = 0; k < 500; ++k) {
    const Vector3d p(U(rng), U(rng), U(rng));
    const auto a = refitted.nearest(p), b = built.nearest(p);
    EXPECT_NEAR(a.distance, b.distance, 1e-12) << p.transpose();
    EXPECT_LT((a.point - b.point).norm(), 1e-12);
    if (std::abs(a.distance) > 1e-9) EXPECT_LT((a.normal - b.normal).norm(), 1e-9);
    EXPECT_NEAR(std::abs(a.distance), ball.distanceToPoint(p), 1e-12);
  }
  // Another mesh is refused, and the tree is unchanged.
  EXPECT_FALSE(refitted.refit(MeshFactory::createIcosahedralSphere(1, 2)));
  EXPECT_NEAR(refitted.nearest(Vector3d(3, 0, 0)).distance, built.nearest(Vector3d(3, 0, 0)).distance, 1e-12);
}

TEST(TriangleBVTree, OpenMeshIsAModelError) {
  PolygonalMesh m;
  m.addVertex(Vector3d(0, 0, 0));
  m.addVertex(Vector3d(1, 0, 0));
  m.addVertex(Vector3d(0, 1, 0));
  m.addFace({0, 1, 2});
  EXPECT_THROW(TriangleBVTree t(m), ModelError);
}

using test::BoxOnPlate;

TEST(Contact, BoxRestsOnAPlateAndTheContactsCarryItsWeight) {
  // Under contour regions (the DEFAULT) and under vertex penetration.
  for (bool vertices : {false, true}) {
    BoxOnPlate s(0, 0);
    if (vertices) useVertexPenetrationBothWays(s.r.mech);
    s.box.setPose(RigidTransform3d(0, 0, 0.1005));  // dropped from 0.5 mm
    s.r.run(1.0, 0.01);
    const double tol = s.r.mech.getPenetrationTol();
    EXPECT_GT(tol, 0);
    // Held at no more than the penetration tolerance, and at rest.
    EXPECT_LE(s.box.getPosition().z(), 0.1 + 1e-12);
    EXPECT_GE(s.box.getPosition().z(), 0.1 - tol - 1e-9);
    EXPECT_LT(s.box.getVelocity().norm(), 1e-9);
    const Vector3d f = s.r.mech.getCollisionManager().getContactForce(s.box);
    if (vertices) EXPECT_NEAR(f.z(), 9.8, 1e-9 * 9.8);
    else VERIFY_NEAR("contact: resting 1 kg box, plate's normal force [N]", "m g (statics)", f.z(), 9.8, 1e-9 * 9.8);
    EXPECT_NEAR(f.head<2>().norm(), 0, 1e-9);
    EXPECT_EQ(s.r.mech.getCollisionManager().getContacts().size(), 4u);  // the four bottom corners
  }
}

TEST(Contact, DetectionFollowsBodiesAddedAndCollidabilityChangedBetweenSteps) {
  // Detection keeps its walk of the model tree while the tree is unchanged;
  // a body added after the first steps, and a body made non-collidable,
  // must still be seen at the next step: the new box lands on the plate and
  // carries its weight, and a box made non-collidable falls through.
  BoxOnPlate s(0, 0);
  s.r.run(0.05, 0.01);
  ASSERT_EQ(s.r.mech.getCollisionManager().getContacts().size(), 4u);
  RigidBody& second = s.r.mech.addRigidBody(RigidBody::createBox("second", 0.2, 0.2, 0.2, 125));
  second.setPose(RigidTransform3d(1, 0, 0.1));
  s.r.root->run(0.5);
  EXPECT_EQ(s.r.mech.getCollisionManager().getContacts().size(), 8u);
  EXPECT_NEAR(s.r.mech.getCollisionManager().getContactForce(second).z(), 9.8, 1e-9 * 9.8);
  second.setCollidable(Collidability::Off);
  s.r.root->run(0.75);
  EXPECT_EQ(s.r.mech.getCollisionManager().getContacts().size(), 4u);
  EXPECT_LT(second.getPosition().z(), 0.0);  // fallen 0.2 m through the plate in 0.25 s
  EXPECT_NEAR(s.box.getPosition().z(), 0.1, s.r.mech.getPenetrationTol() + 1e-9);
}

TEST(Contact, ReducedConstraintsKeepOneRowPerBlockedDirection) {
  // §8.6.1: the resting box's four corner rows block three directions (z,
  // and turning about x and y). Reduced, three corners remain, whose rows
  // are independent; they carry the same weight and hold the box as well,
  // with the manager's property or the pair's behaviour.
  for (int viaBehavior = 0; viaBehavior < 2; ++viaBehavior) {
    BoxOnPlate s(0, 0.3);
    if (viaBehavior) s.r.mech.setCollisionBehavior(s.box, s.plate, true, 0.3).setReduceConstraints(true);
    else s.r.mech.getCollisionManager().setReduceConstraints(true);
    s.box.setPose(RigidTransform3d(0, 0, 0.1005));
    s.box.setVelocity(Twist(0.05, 0.02, 0, 0, 0, 0.1));  // sliding and turning on landing
    s.r.run(1.0, 0.01);
    const CollisionManager& cm = s.r.mech.getCollisionManager();
    EXPECT_EQ(cm.getContacts().size(), 3u);
    const double tol = s.r.mech.getPenetrationTol();
    EXPECT_GE(s.box.getPosition().z(), 0.1 - tol - 1e-9);
    EXPECT_LE(s.box.getPosition().z(), 0.1 + 1e-12);
    EXPECT_LT(s.box.getVelocity().norm(), 1e-9);
    const Vector3d f = s.r.mech.getCollisionManager().getContactForce(s.box);
    EXPECT_NEAR(f.z(), 9.8, 1e-9 * 9.8);
    EXPECT_LT(f.head<2>().norm(), 1e-9);
  }
}

/// A 0.1 m icosahedral ball dropped from 2 cm onto a fixed plate, μ = 0.3.
struct BallOnPlate {
  test::TestRoot r{Vector3d(0, 0, -9.8)};
  RigidBody& plate;
  std::shared_ptr<PolygonalMesh> ballMesh;
  RigidBody& ball;
  CollisionBehavior& behavior;
  BallOnPlate()
      : plate(r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000))),
        ballMesh(std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(0.1, 2))),
        ball(r.mech.addRigidBody(RigidBody::createFromMesh("ball", ballMesh, 1000))),
        behavior(r.mech.setCollisionBehavior(ball, plate, true, 0.3)) {
    plate.setDynamic(false);
    plate.setPose(RigidTransform3d(0, 0, -0.05));
    ball.setPose(RigidTransform3d(0, 0, 0.12));
  }
};

TEST(Contact, BallRestsOnAPlateWithinTheTolerance) {
  // An icosahedral ball's vertices lie on the sphere: under contour
  // regions (the DEFAULT) and under vertex penetration its lowest vertex
  // comes to rest within the tolerance of the plate.
  for (bool vertices : {false, true}) {
    BallOnPlate s;
    auto& [r, plate, ballMesh, ball, behavior] = s;
    if (vertices) useVertexPenetrationBothWays(r.mech);
    r.run(2.0, 0.01);
    double lowest = INFINITY;
    for (int i = 0; i < ballMesh->numVertices(); ++i)
      lowest = std::min(lowest, ball.getPose().transformPoint(ballMesh->getVertex(i)).z());
    // At rest inside the penetration tolerance (guide §8.4.2).
    if (vertices)
      EXPECT_LE(-lowest, r.mech.getPenetrationTol() + 1e-9);
    else
      VERIFY_BELOW("contact: resting ball's penetration [m]", "at most the penetration tolerance (§8.4.2)", -lowest,
                   r.mech.getPenetrationTol() + 1e-9);
    EXPECT_LE(lowest, 1e-12);
    EXPECT_LT(ball.getVelocity().norm(), 1e-6);
    EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(ball).z(), ball.getMass() * 9.8, 1e-6);
  }
}

TEST(Contact, SignedDistanceColliderRestsTheBallAsTheTreeDoes) {
  // SIGNED_DISTANCE (§8.4.2): the ball's vertices against the plate's
  // distance grid. Near the middle of the plate's top face the grid's
  // trilinear distance is the exact one, so the ball comes to rest where
  // TRI_INTERSECTION's exact point–mesh distance puts it under vertex
  // penetration, and carries its weight.
  double rest[2];
  for (int byGrid = 0; byGrid < 2; ++byGrid) {
    BallOnPlate s;
    auto& [r, plate, ballMesh, ball, behavior] = s;
    useVertexPenetrationBothWays(r.mech);
    if (byGrid) behavior.setColliderType(ColliderType::SignedDistance);
    r.run(2.0, 0.01);
    rest[byGrid] = ball.getPosition().z();
    EXPECT_LT(ball.getVelocity().norm(), 1e-6);
    EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(ball).z(), ball.getMass() * 9.8, 1e-6);
    if (byGrid) {
      const DistanceGrid* g = r.mech.getCollisionManager().getDistanceGrid(plate);
      ASSERT_NE(g, nullptr);
      EXPECT_EQ(g->resolution().maxCoeff(), 20);
    }
  }
  EXPECT_NEAR(rest[1], rest[0], 1e-9);
}

TEST(Contact, DefaultUnderSignedDistanceTestsBothBodiesVertices) {
  // DEFAULT between two rigid meshes falls back from contour regions to
  // vertex penetration under SIGNED_DISTANCE (which finds no regions), and
  // tests both bodies' vertices there: a ball dropped on a plate added
  // before it (so the plate is the pair's first collidable) comes to rest
  // on it carrying its weight. With only the first collidable's vertices
  // (AUTO for an explicit VERTEX_PENETRATION) the plate's far corners would
  // be tested alone and the ball would fall through.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000));
  plate.setDynamic(false);
  plate.setPose(RigidTransform3d(0, 0, -0.05));
  RigidBody& ball = r.mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", 0.1, 1000, 2));
  ball.setPose(RigidTransform3d(0, 0, 0.12));
  r.mech.setDefaultCollisionBehavior(true, 0.3);
  r.mech.getCollisionManager().setColliderType(ColliderType::SignedDistance);
  r.run(1.0, 0.01);
  // Its lowest vertex (the grid's distance is exact in the middle of the
  // plate's top face) within the penetration tolerance of the plate.
  const PolygonalMesh& mesh = *ball.getSurfaceMesh();
  double lowest = INFINITY;
  for (int i = 0; i < mesh.numVertices(); ++i)
    lowest = std::min(lowest, ball.getPose().transformPoint(mesh.getVertex(i)).z());
  EXPECT_LE(-lowest, r.mech.getPenetrationTol() + 1e-9);
  EXPECT_LE(lowest, 1e-12);
  EXPECT_LT(ball.getVelocity().norm(), 1e-6);
  EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(ball).z(), ball.getMass() * 9.8, 1e-6);
}

TEST(Contact, MethodAndVertexPenetrationsAreInheritedFromTheManagerUntilSet) {
  // §8.2.1, §8.4.1.3: a behaviour's method and vertexPenetrations are the
  // manager's until set; the properties' modes say which, and Inherited
  // clears the behaviour's own value again.
  using M = CollisionBehavior::Method;
  test::TestRoot r;
  RigidBody& a = r.mech.addRigidBody(RigidBody::createBox("a", 0.2, 0.2, 0.2, 125));
  RigidBody& b = r.mech.addRigidBody(RigidBody::createBox("b", 0.2, 0.2, 0.2, 125));
  CollisionBehavior& behav = r.mech.setCollisionBehavior(a, b, true);
  CollisionManager& cm = r.mech.getCollisionManager();
  for (const char* name : {"method", "vertexPenetrations"}) {
    Property p = behav.getProperty(name);
    EXPECT_EQ(p.getMode(), PropertyMode::Inherited) << name;
    p.setMode(PropertyMode::Explicit);  // keeps DEFAULT / AUTO, now its own
    EXPECT_EQ(p.getMode(), PropertyMode::Explicit) << name;
    p.setMode(PropertyMode::Inherited);
    EXPECT_EQ(p.getMode(), PropertyMode::Inherited) << name;
  }
  behav.setVertexPenetrations(CollisionBehavior::VertexPenetrations::FirstCollidable);
  behav.getProperty("vertexPenetrations").resetToDefault();  // Inherited, and AUTO again
  EXPECT_FALSE(behav.isVertexPenetrationsSet());
  EXPECT_EQ(behav.getVertexPenetrations(), CollisionBehavior::VertexPenetrations::Auto);
  cm.setVertexPenetrations(CollisionBehavior::VertexPenetrations::BothCollidables);
  cm.getProperty("vertexPenetrations").resetToDefault();
  EXPECT_EQ(cm.getVertexPenetrations(), CollisionBehavior::VertexPenetrations::Auto);
  cm.getProperty("method").set(std::string("VERTEX_PENETRATION"));
  EXPECT_EQ(cm.getMethod(), M::VertexPenetration);
  behav.getProperty("method").set(std::string("CONTOUR_REGION"));
  EXPECT_TRUE(behav.isMethodSet());
  EXPECT_EQ(behav.getMethod(), M::ContourRegion);
  behav.getProperty("method").setMode(PropertyMode::Inherited);
  EXPECT_FALSE(behav.isMethodSet());
  EXPECT_EQ(behav.getMethod(), M::Default);  // its own value cleared too
  // A copy (a default behaviour is set by copy) keeps whether it was set.
  CollisionBehavior set, unset;
  set.setMethod(M::Inactive);
  set.setVertexPenetrations(CollisionBehavior::VertexPenetrations::SecondCollidable);
  const CollisionBehavior setCopy(set), unsetCopy(unset);
  EXPECT_TRUE(setCopy.isMethodSet());
  EXPECT_TRUE(setCopy.isVertexPenetrationsSet());
  EXPECT_EQ(setCopy.getMethod(), M::Inactive);
  EXPECT_FALSE(unsetCopy.isMethodSet());
  EXPECT_FALSE(unsetCopy.isVertexPenetrationsSet());
}

TEST(Contact, DistanceGridFitWithOBBFollowsATurnedBlockMesh) {
  // A fixed 1 × 0.6 × 0.4 block whose mesh is turned within its body (the
  // mesh's own axes are not the body's), the body turned back so that its
  // top face is level at z = 0.2, and a 0.1 m cube dropped onto it from
  // 1 mm. Fitted along the mesh's principal axes
  // (distanceGridFitWithOBB, the guide's fitWithOBB), the grid's cells
  // line up with the faces and are finer for the same maxResolution (the
  // oriented box is smaller); the field is linear over the cells under the
  // cube, which comes to rest exactly where the tree's exact distance puts
  // it.
  const Matrix3d R = AxisAngle(Vector3d(1, 1, 0).normalized(), 0.5).toMatrix();
  double rest[3], cell[2];
  for (int mode = 0; mode < 3; ++mode) {  // tree, axis-aligned grid, oriented grid
    test::TestRoot r(Vector3d(0, 0, -9.8));
    auto mesh = std::make_shared<PolygonalMesh>(MeshFactory::createBox(1, 0.6, 0.4, 1, 1, 1));
    for (int v = 0; v < mesh->numVertices(); ++v) mesh->setVertex(v, R * mesh->getVertex(v));
    RigidBody& block = r.mech.addRigidBody(RigidBody::createFromMesh("block", mesh, 1000));
    block.setPose(RigidTransform3d(Vector3d::Zero(), R.transpose()));
    block.setDynamic(false);
    RigidBody& cube = r.mech.addRigidBody(RigidBody::createBox("cube", 0.1, 0.1, 0.1, 1000));
    cube.setPose(RigidTransform3d(0.05, -0.03, 0.251));
    CollisionBehavior& behav = r.mech.setCollisionBehavior(cube, block, true);
    CollisionManager& cm = r.mech.getCollisionManager();
    useVertexPenetrationBothWays(r.mech);  // the tree's vertex distances against the grid's
    if (mode > 0) behav.setColliderType(ColliderType::SignedDistance);
    cm.setDistanceGridFitWithOBB(mode == 2);
    r.run(2.0, 0.01);
    rest[mode] = cube.getPosition().z();
    EXPECT_LT(cube.getVelocity().norm(), 1e-6) << "mode " << mode;
    if (mode > 0) cell[mode - 1] = cm.getDistanceGrid(block)->cellWidth();
  }
  EXPECT_NEAR(rest[0], 0.25, 1e-3);  // on the top face, within the tolerance
  EXPECT_NEAR(rest[2], rest[0], 1e-9);
  EXPECT_LT(cell[1], cell[0]);
  std::printf("cube on the turned block: tree %.9f, aligned grid %.9f, oriented grid %.9f; cells %.4f / %.4f\n",
              rest[0], rest[1], rest[2], cell[0], cell[1]);
}

TEST(Contact, ABodysDistanceGridCompSetsItsGrid) {
  // §4.6: a body's DistanceGridComp (its child "distanceGrid") overrides
  // the manager's grid settings for that body, and a change of a setting
  // builds the grid again; the cube rests on the block's grid either way.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& block = r.mech.addRigidBody(RigidBody::createBox("block", 1, 0.6, 0.4, 1000));
  block.setDynamic(false);
  RigidBody& cube = r.mech.addRigidBody(RigidBody::createBox("cube", 0.1, 0.1, 0.1, 1000));
  cube.setPose(RigidTransform3d(0.05, -0.03, 0.251));
  r.mech.setCollisionBehavior(cube, block, true).setColliderType(ColliderType::SignedDistance);
  CollisionManager& cm = r.mech.getCollisionManager();
  EXPECT_EQ(block.findDistanceGridComp(), nullptr);
  EXPECT_EQ(cm.getDistanceGrid(block)->resolution().maxCoeff(), 20);  // the manager's default
  DistanceGridComp& gc = block.getDistanceGridComp();
  EXPECT_EQ(&gc, block.findComponent<DistanceGridComp>("distanceGrid"));
  EXPECT_EQ(&gc, &block.getDistanceGridComp());
  gc.getProperty("maxResolution").set(10);
  EXPECT_EQ(cm.getDistanceGrid(block)->resolution().maxCoeff(), 10);
  gc.getProperty("resolution").set(Eigen::VectorXd(Vector3d(8, 6, 4)));
  EXPECT_EQ(cm.getDistanceGrid(block)->resolution(), Eigen::Vector3i(8, 6, 4));
  // (So coarse a grid rounds the block: its normals tilt by up to 4° under the
  // cube, which slides off. Finer, with a wider margin:)
  gc.setResolution(Eigen::Vector3i(40, 24, 16));
  gc.setMarginFraction(0.25);
  EXPECT_NEAR(cm.getDistanceGrid(block)->bounds().sizes().x(), 1.5, 1e-12);
  EXPECT_NEAR(cm.getDistanceGrid(block)->cellSize().z(), 0.6 / 16, 1e-12);
  r.run(1.0, 0.01);
  EXPECT_NEAR(cube.getPosition().z(), 0.25, 1e-3);  // on the grid's top face, within the tolerance
  EXPECT_LT(cube.getVelocity().norm(), 1e-6);
  // Bad settings name the component.
  EXPECT_THROW(gc.setMaxResolution(1), ModelError);
  EXPECT_THROW(gc.setResolution(Eigen::Vector3i(4, 1, 4)), ModelError);
  EXPECT_THROW(gc.setMarginFraction(-0.1), ModelError);
  EXPECT_THROW(gc.getProperty("resolution").set(Eigen::VectorXd(Vector3d(4, 4.5, 4))), ModelError);
  gc.setResolution(Eigen::Vector3i(-1, 4, 4));
  EXPECT_EQ(gc.getResolution(), Eigen::Vector3i::Zero());
}

TEST(Contact, ColliderTypeChoicesThatCannotWorkAreModelErrors) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000));
  CollisionManager& cm = r.mech.getCollisionManager();
  EXPECT_EQ(cm.getColliderType(), ColliderType::TriIntersection);
  cm.setColliderType(ColliderType::AjlContour);
  EXPECT_EQ(cm.getColliderType(), ColliderType::AjlContour);
  EXPECT_THROW(cm.setColliderType(ColliderType::Inherited), ModelError);
  r.mech.setCollisionBehavior(plate, Collidable::All, true).setColliderType(ColliderType::AjlContour);
  EXPECT_THROW(cm.setDistanceGridMaxResolution(1), ModelError);
}

TEST(Contact, BoxOnAnInclineSlidesAtGTimesSinMinusMuCos) {
  // θ = 30°, released at rest on the surface: with μ < tan θ the box slides
  // g(sin θ − μ cos θ) t²/2 in t = 1 s, with the normal force m g cos θ;
  // with μ > tan θ static friction holds it. Under contour regions (the
  // DEFAULT; also ContourRegion_test) and under vertex penetration.
  const double theta = M_PI / 6, g = 9.8;
  for (bool vertices : {false, true}) {
    for (double mu : {0.2, 0.5, 0.7}) {
      BoxOnPlate s(theta, mu);
      if (vertices) useVertexPenetrationBothWays(s.r.mech);
      const Vector3d x0 = s.box.getPosition();
      s.r.run(1.0, 0.001);
      const Vector3d dx = s.box.getPosition() - x0;
      if (mu < std::tan(theta)) {
        const double expected = 0.5 * g * (std::sin(theta) - mu * std::cos(theta));
        if (vertices)
          EXPECT_NEAR(dx.dot(s.downhill()), expected, 0.01 * expected) << "mu " << mu;
        else
          VERIFY_NEAR("friction: box on a 30° incline, slide in 1 s [m], μ = " + std::to_string(mu).substr(0, 3),
                      "g (sin θ − μ cos θ) t²/2", dx.dot(s.downhill()), expected, 0.01 * expected);
        const Vector3d f = s.r.mech.getCollisionManager().getContactForce(s.box);
        const Vector3d n = s.R * Vector3d(0, 0, 1);
        EXPECT_NEAR(f.dot(n), g * std::cos(theta), 1e-6) << "mu " << mu;
        EXPECT_NEAR(f.dot(s.downhill()), -mu * g * std::cos(theta), 1e-6) << "mu " << mu;
      } else if (vertices) {
        EXPECT_LT(dx.norm(), 1e-6);
      } else {
        VERIFY_BELOW("friction: box on a 30° incline, creep in 1 s [m], μ = 0.7",
                     "0: static friction holds (μ > tan θ)", dx.norm(), 1e-6);
      }
    }
  }
}

TEST(Contact, StictionCreepLetsAStickingBoxCreepAtCreepTimesItsFrictionForce) {
  // stictionCreep c (§8.2.1) gives each friction row the compliance c / h,
  // so a contact held by static friction slides at c times its friction
  // force. The box on a 30° incline with μ = 2 (every corner sticks: the
  // uphill ones carry 0.09 m g and need μ ≥ 1.4) rests on its four
  // corners, which slide together, each with a quarter of m g sin θ: the
  // box creeps at v = c m g sin θ / 4. As the guide says (§8.2.1, §8.6),
  // the contacts are regularized too (compliance 1e-6 m/N): four hard
  // corners are redundant, their normal forces are not unique, and the
  // solve may load only two of them, which then creep twice as fast.
  // Without the creep the box does not move. The corners are vertex
  // contacts, each with its own depth: the regularized normal forces then
  // follow the box's tilt. (Under contour regions, the DEFAULT between
  // rigid bodies, every contact takes the region's depth (§8.4.1.1): the
  // box tilts until only its downhill half penetrates, that patch's hull
  // carries it, and the box creeps a third faster.)
  const double theta = M_PI / 6, g = 9.8, c = 1e-3;
  for (bool onBehavior : {false, true}) {
    BoxOnPlate s(theta, 2.0);
    CollisionManager& cm = s.r.mech.getCollisionManager();
    useVertexPenetrationBothWays(s.r.mech);
    cm.setCompliance(1e-6);
    cm.setDamping(2000);
    if (onBehavior) {
      cm.setStictionCreep(0.5);  // overridden by the behaviour's own value
      s.r.mech.getDefaultCollisionBehavior(Collidable::Group::Rigid, Collidable::Group::Rigid).setStictionCreep(c);
    } else {
      cm.setStictionCreep(c);  // inherited by the behaviour
    }
    s.r.run(0.2, 0.001);
    ASSERT_EQ(cm.getContacts().size(), 4u);
    const Vector3d x0 = s.box.getPosition();
    s.r.root->run(1.2);
    const double v = c * s.box.getMass() * g * std::sin(theta) / 4;
    const Vector3d dx = s.box.getPosition() - x0;
    EXPECT_NEAR(dx.dot(s.downhill()), v * 1.0, 0.01 * v) << "on the behaviour: " << onBehavior;
    EXPECT_LT((dx - dx.dot(s.downhill()) * s.downhill()).norm(), 1e-6);
  }
  BoxOnPlate held(theta, 2.0);
  held.r.mech.getCollisionManager().setStictionCreep(c);
  held.r.mech.getDefaultCollisionBehavior(Collidable::Group::Rigid, Collidable::Group::Rigid).setStictionCreep(0);
  const Vector3d x0 = held.box.getPosition();
  held.r.run(1.0, 0.001);
  EXPECT_LT((held.box.getPosition() - x0).norm(), 1e-6) << "a behaviour's 0 overrides the manager's creep";
  EXPECT_THROW(held.r.mech.getCollisionManager().setStictionCreep(-1e-3), ModelError);
  EXPECT_THROW(held.r.mech.getDefaultCollisionBehavior(Collidable::Group::Rigid, Collidable::Group::Rigid)
                   .setStictionCreep(std::nan("")),
               ModelError);
}

TEST(Contact, AStackOfTenBoxesStaysStanding) {
  // Ten 0.2 m cubes of 1 kg stacked on a fixed plate, μ = 0.5: after 5 s
  // none moves faster than 1 mm/s and the plate carries the stack's weight.
  // Under contour regions (the DEFAULT) and under vertex penetration both
  // ways, where the stray-vertex rule (chooseFace, docs/contact.md) holds
  // the stack.
  for (bool vertices : {false, true}) {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    if (vertices) useVertexPenetrationBothWays(r.mech);
    RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 4, 4, 0.2, 1000));
    plate.setDynamic(false);
    plate.setPose(RigidTransform3d(0, 0, -0.1));
    std::vector<RigidBody*> boxes;
    for (int k = 0; k < 10; ++k) {
      boxes.push_back(&r.mech.addRigidBody(RigidBody::createBox("box" + std::to_string(k), 0.2, 0.2, 0.2, 125)));
      boxes.back()->setPose(RigidTransform3d(0, 0, 0.1 + 0.2 * k));
    }
    r.mech.setDefaultCollisionBehavior(true, 0.5);
    double maxSpeed = 0;
    r.root->addMonitor("speed", [&](double, double) {
      for (auto* b : boxes) maxSpeed = std::max(maxSpeed, b->getVelocity().head<3>().norm());
    });
    r.run(5.0, 0.01);
    EXPECT_LT(maxSpeed, 1e-3) << "vertices " << vertices;
    EXPECT_NEAR(boxes.back()->getPosition().z(), 1.9, r.mech.getPenetrationTol() * 10);
    EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(plate).z(), -10 * 9.8, 1e-6);
  }
}

TEST(Contact, CompliantContactPushesWithDepthOverCompliance) {
  // §8.7.1: with compliance c a contact acts as a spring of stiffness 1/c
  // along its normal. The 1 kg box settles on its four corners where each
  // carries a quarter of its weight at depth m g c / 4 (under contour
  // regions, the DEFAULT, and under vertex penetration).
  for (bool vertices : {false, true}) {
    BoxOnPlate s(0, 0);
    if (vertices) useVertexPenetrationBothWays(s.r.mech);
    CollisionManager& cm = s.r.mech.getCollisionManager();
    const double c = 1e-4, W = 9.8;
    cm.setCompliance(c);
    cm.setDamping(100);  // near critical for the 1 kg box on 4 × 10⁴ N/m
    s.r.run(2.0, 0.001);
    ASSERT_EQ(cm.getContacts().size(), 4u);
    for (const ContactPoint& p : cm.getContacts()) {
      EXPECT_NEAR(p.normalForce, p.depth / c, 1e-6 * W);
      EXPECT_NEAR(p.depth, W * c / 4, 1e-6 * W * c);
    }
    EXPECT_NEAR(s.box.getPosition().z(), 0.1 - W * c / 4, 1e-9);
    EXPECT_NEAR(cm.getContactForce(s.box).z(), W, 1e-6 * W);
  }
}

/// A ball of radius 0.1 (density 1000, W = m g) resting on a fixed plate
/// through an elastic foundation (§8.7.3) of E, ν = 0.4 and thickness h.
struct BallOnFoundation {
  test::TestRoot r{Vector3d(0, 0, -9.8)};
  RigidBody& plate;
  RigidBody& ball;
  std::shared_ptr<LinearElasticContact> efc;
  /// With `regionArea`, the law takes the AJL_CONTOUR collider's area per
  /// penetrating vertex (useLocalContactArea false) under `collider`.
  BallOnFoundation(double E, double h, bool useLog, bool regionArea = false,
                   ColliderType collider = ColliderType::Inherited)
      : plate(r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000))),
        ball(r.mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", 0.1, 1000, 4))),
        efc(std::make_shared<LinearElasticContact>(E, 0.4, 30.0, h)) {
    plate.setDynamic(false);
    plate.setPose(RigidTransform3d(0, 0, -0.05));
    ball.setPose(RigidTransform3d(0, 0, 0.1));
    efc->setUseLogDistance(useLog);
    efc->setUseLocalContactArea(!regionArea);
    auto behav = std::make_unique<CollisionBehavior>(true, 0.0);
    behav->setMethod(CollisionBehavior::Method::VertexPenetration);  // the ball's vertices only
    behav->setColliderType(collider);
    behav->setForceBehavior(efc);
    r.mech.setCollisionBehavior(ball, plate, std::move(behav));
    r.run(2.0, 0.001);
  }
  double weight() const { return ball.getMass() * 9.8; }
};

TEST(Contact, ElasticFoundationPressuresFollowTheLawAndCarryTheWeight) {
  // At rest every contact pushes with its vertex area times the law's
  // pressure at its depth, and together they carry the ball's weight.
  for (bool useLog : {false, true}) {
    BallOnFoundation s(1.5e5, 0.01, useLog);
    const auto& contacts = s.r.mech.getCollisionManager().getContacts();
    ASSERT_GT(contacts.size(), 10u) << "useLog " << useLog;
    double total = 0;
    for (const ContactPoint& c : contacts) {
      const double p = s.efc->pressure(c.depth, c.position);
      EXPECT_NEAR(c.normalForce, c.vertexArea * p, 1e-6 * s.weight()) << "useLog " << useLog;
      EXPECT_NEAR(c.pressure, p, 1e-6 * p + 1e-9) << "useLog " << useLog;
      total += c.normalForce;
    }
    VERIFY_NEAR(std::string("elastic foundation: total contact force / weight, ") + (useLog ? "log" : "linear") +
                    " law",
                "Σ vertex area × p(δ) = m g (guide §8.7.3)", total / s.weight(), 1.0, 1e-6);
    EXPECT_LT(s.ball.getVelocity().norm(), 1e-6);
  }
}

TEST(Contact, ElasticFoundationSinksABallAsTheIntegratedLinearLaw) {
  // The linear law p = K δ/h integrated over the paraboloidal contact of a
  // sphere gives F = π K R δ²/h, so a ball of weight W sinks by
  // δ = √(W h / (π K R)). The mesh's vertex areas are a quadrature of that
  // integral; refining the ball brings δ closer.
  const double E = 1.5e5, nu = 0.4, h = 0.01, R = 0.1;
  const double K = (1 - nu) * E / ((1 + nu) * (1 - 2 * nu));
  BallOnFoundation s(E, h, false);
  const double delta = R - s.ball.getPosition().z();
  const double expected = std::sqrt(s.weight() * h / (M_PI * K * R));
  VERIFY_NEAR("elastic foundation: ball's sinking depth [m]", "δ = √(W h / (π K R)), linear law on a sphere", delta,
              expected, 0.03 * expected);
}

TEST(Contact, ElasticFoundationWithTheRegionAreaSinksABallAsTheIntegratedLaw) {
  // Area option B (§8.7.3): each contact takes the AJL_CONTOUR region's
  // area over its penetrating vertices. The contacts still carry the
  // weight, and the sinking depth again approaches the integrated linear
  // law √(W h / (π K R)); without the AJL collider the area is undefined,
  // a SolverError naming the behaviour.
  const double E = 1.5e5, nu = 0.4, h = 0.01, R = 0.1;
  const double K = (1 - nu) * E / ((1 + nu) * (1 - 2 * nu));
  BallOnFoundation s(E, h, false, true, ColliderType::AjlContour);
  double total = 0;
  for (const ContactPoint& c : s.r.mech.getCollisionManager().getContacts()) {
    EXPECT_GT(c.contactArea, 0);
    EXPECT_NEAR(c.normalForce, c.contactArea * s.efc->pressure(c.depth, c.position), 1e-6 * s.weight());
    total += c.normalForce;
  }
  EXPECT_NEAR(total, s.weight(), 1e-6 * s.weight());
  const double delta = R - s.ball.getPosition().z(), expected = std::sqrt(s.weight() * h / (M_PI * K * R));
  std::printf("region-area foundation: sinks %.5g m, integrated law %.5g m\n", delta, expected);
  EXPECT_NEAR(delta, expected, 0.05 * expected);
  try {
    BallOnFoundation t(E, h, false, true, ColliderType::TriIntersection);
    ADD_FAILURE() << "the area is undefined without AJL_CONTOUR";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("AJL_CONTOUR"), std::string::npos) << e.what();
    EXPECT_NE(e.path().find("/behaviors/"), std::string::npos) << e.what();
  }
}

TEST(Contact, BehaviorsFollowTheGuidesPriorities) {
  test::TestRoot r;
  RigidBody& a = r.mech.addRigidBody(RigidBody::createBox("a", 1, 1, 1, 1));
  RigidBody& b = r.mech.addRigidBody(RigidBody::createBox("b", 1, 1, 1, 1));
  RigidBody& c = r.mech.addRigidBody(RigidBody::createBox("c", 1, 1, 1, 1));
  EXPECT_EQ(r.mech.getActingCollisionBehavior(a, b), nullptr);  // off by default
  r.mech.setDefaultCollisionBehavior(true, 0.2);
  ASSERT_NE(r.mech.getActingCollisionBehavior(a, b), nullptr);
  EXPECT_EQ(r.mech.getActingCollisionBehavior(a, b)->getFriction(), 0.2);
  r.mech.setCollisionBehavior(a, Collidable::Rigid, true, 0.4);
  EXPECT_EQ(r.mech.getActingCollisionBehavior(a, c)->getFriction(), 0.4);
  EXPECT_EQ(r.mech.getActingCollisionBehavior(b, c)->getFriction(), 0.2);
  r.mech.setCollisionBehavior(a, b, false);
  EXPECT_EQ(r.mech.getActingCollisionBehavior(a, b), nullptr);
  EXPECT_NE(r.mech.getCollisionBehavior(b, a), nullptr);
  EXPECT_TRUE(r.mech.clearCollisionBehavior(a, b));
  EXPECT_EQ(r.mech.getActingCollisionBehavior(a, b)->getFriction(), 0.4);
  // A behaviour may be set once; its copy may be set again (§8.1.1).
  CollisionBehavior& behav = r.mech.setCollisionBehavior(b, c, true);
  EXPECT_EQ(behav.getFriction(), -1);  // inherited
  EXPECT_EQ(behav.getPathName().rfind("/models/mech/collisionManager/behaviors/", 0), 0u) << behav.getPathName();
  EXPECT_THROW(r.mech.setCollisionBehavior(a, a, true), ModelError);
  EXPECT_THROW(r.mech.getDefaultCollisionBehavior(Collidable::All, Collidable::Rigid), ModelError);
  EXPECT_THROW(r.mech.setPenetrationTol(-1), ModelError);
}

TEST(Contact, OpenCollisionMeshIsAModelErrorNamingTheBody) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  auto open = std::make_shared<PolygonalMesh>(MeshFactory::createBox(1, 1, 1));
  open->removeFace(0);
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 4, 4, 0.2, 1000));
  plate.setDynamic(false);
  auto body = std::make_unique<RigidBody>("lid");
  body->setMass(1);
  RigidBody& lid = r.mech.addRigidBody(std::move(body));
  lid.addMesh(open, /*hasMass=*/false);
  r.mech.setCollisionBehavior(lid, plate, true);
  try {
    r.run(0.01, 0.01);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not closed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("lid"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sinew
