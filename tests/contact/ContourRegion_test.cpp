// CONTOUR_REGION contact (guide §8.4.1.1) from triangle–triangle
// intersection (the TRI_INTERSECTION collider, §8.4.2): the crossing
// segments of two triangles, the tree's crossings against brute force, and
// contact regions that hold a box at rest, let it slide on an incline as
// Coulomb friction says, and catch an edge crossing an edge, which vertex
// penetration misses.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "ContactScenes.h"
#include "TestModels.h"
#include "Verification.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/geometry/TriangleBVTree.h"
#include "sinew/geometry/TriangleIntersection.h"

namespace sinew {
namespace {

TEST(TriangleIntersection, CrossingTrianglesMeetAlongTheirCommonSegment) {
  // A triangle in z = 0 and a vertical one in y = 0.25 that dips below it:
  // they share the segment of y = 0.25, z = 0 inside both.
  const Vector3d a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  const Vector3d b0(-1, 0.25, -0.5), b1(2, 0.25, -0.5), b2(0.5, 0.25, 1);
  Vector3d p, q;
  ASSERT_TRUE(intersectTriangles(a0, a1, a2, b0, b1, b2, p, q));
  // A's span along y = 0.25 is x ∈ [0, 0.75]; B's at z = 0 is x ∈ [−0.25, 1.25].
  if (p.x() > q.x()) std::swap(p, q);
  EXPECT_LT((p - Vector3d(0, 0.25, 0)).norm(), 1e-15);
  EXPECT_LT((q - Vector3d(0.75, 0.25, 0)).norm(), 1e-15);
  ASSERT_TRUE(intersectTriangles(b0, b1, b2, a0, a1, a2, p, q));  // either order
  // Separated, touching at a vertex, and coplanar: no crossing.
  EXPECT_FALSE(intersectTriangles(a0, a1, a2, b0 + Vector3d(0, 0, 2), b1 + Vector3d(0, 0, 2),
                                  b2 + Vector3d(0, 0, 2), p, q));
  EXPECT_FALSE(intersectTriangles(a0, a1, a2, Vector3d(0.2, 0.2, 0), Vector3d(0.2, 0.2, 1), Vector3d(0.5, 0.1, 1),
                                  p, q));
  EXPECT_FALSE(intersectTriangles(a0, a1, a2, Vector3d(0.1, 0.1, 0), Vector3d(2, 0.1, 0), Vector3d(0.1, 2, 0), p, q));
}

TEST(TriangleBVTree, CrossingsMatchBruteForce) {
  // Two meshes in random relative poses: the tree finds exactly the
  // crossing triangle pairs that testing every pair finds.
  const PolygonalMesh box = MeshFactory::createBox(1, 0.6, 0.4, 3, 2, 2);
  const PolygonalMesh ball = MeshFactory::createIcosahedralSphere(0.4, 2);
  const TriangleBVTree tb(box), ts(ball);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  int total = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Matrix3d R = AxisAngle(Vector3d(u(rng), u(rng), u(rng)).normalized(), 3 * u(rng)).toMatrix();
    const Vector3d t(0.4 * u(rng), 0.4 * u(rng), 0.4 * u(rng));
    std::vector<TriangleBVTree::Crossing> xs;
    tb.crossings(ts, R, t, xs);
    int brute = 0;
    Vector3d p, q;
    for (int i = 0; i < tb.numTriangles(); ++i)
      for (int j = 0; j < ts.numTriangles(); ++j)
        brute += intersectTriangles(tb.triangleVertex(i, 0), tb.triangleVertex(i, 1), tb.triangleVertex(i, 2),
                                    R * ts.triangleVertex(j, 0) + t, R * ts.triangleVertex(j, 1) + t,
                                    R * ts.triangleVertex(j, 2) + t, p, q);
    EXPECT_EQ(static_cast<int>(xs.size()), brute) << trial;
    total += brute;
  }
  EXPECT_GT(total, 100);  // the poses do cross
}

/// The box-on-plate scene with CONTOUR_REGION contact.
struct ContourBox : test::BoxOnPlate {
  ContourBox(double angle, double mu) : BoxOnPlate(angle, mu) {
    CollisionBehavior behav(true, mu);
    behav.setMethod(CollisionBehavior::Method::ContourRegion);
    r.mech.setDefaultCollisionBehavior(behav);
  }
};

TEST(ContourRegion, BoxRestsOnItsFourCornersCarryingItsWeight) {
  ContourBox s(0, 0);
  test::expectBoxLandsAndRests(s, 1e-9, 1e-9);
  const double tol = s.r.mech.getPenetrationTol();
  const CollisionManager& cm = s.r.mech.getCollisionManager();
  // One region: its contour is the rim where the box's sides cross the
  // plate's top, and its hull the four corners (points closer than the
  // penetration tolerance merge), each with the plate's normal and the
  // region's depth.
  ASSERT_EQ(cm.getContacts().size(), 4u);
  for (const ContactPoint& c : cm.getContacts()) {
    // The normal points from B toward A.
    EXPECT_LT((c.normal - (c.bodyA == &s.box ? 1 : -1) * Vector3d::UnitZ()).norm(), 1e-9);
    // at the corners (frictionless, the box may turn a little about z as
    // it lands: measured 3 mrad, moving the corners 0.3 mm)
    EXPECT_NEAR(std::abs(c.position.x()), 0.1, 1e-3);
    EXPECT_NEAR(std::abs(c.position.y()), 0.1, 1e-3);
    EXPECT_GT(c.depth, 0);
    EXPECT_LE(c.depth, tol + 1e-9);
  }
}

TEST(ContourRegion, BoxOnAnInclineSlidesAtGTimesSinMinusMuCos) {
  // Released touching the incline, the box is held from the first step by
  // its watched corners (speculative contact: vertices within reach,
  // before any face crosses), then by its region: with μ < tan θ it slides
  // with a = g(sin θ − μ cos θ), and with μ > tan θ static friction holds
  // it from the start (before watched vertices it fell freely for the
  // step before its faces crossed, g h² = 9.8e-6 m).
  const double theta = M_PI / 6, g = 9.8;
  for (double mu : {0.2, 0.7}) {
    ContourBox s(theta, mu);
    const Vector3d x0 = s.box.getPosition();
    s.r.run(1.0, 0.001);
    const Vector3d dx = s.box.getPosition() - x0;
    if (mu < std::tan(theta)) {
      const double expected = 0.5 * g * (std::sin(theta) - mu * std::cos(theta));
      VERIFY_NEAR("contact (contour regions): box on a 30° incline, slide in 1 s [m], μ = 0.2",
                  "g (sin θ − μ cos θ) t²/2", dx.dot(s.downhill()), expected, 0.01 * expected);
      EXPECT_NEAR(s.r.mech.getCollisionManager().getContactForce(s.box).dot(s.normal()), g * std::cos(theta), 1e-6);
    } else {
      EXPECT_LT(dx.norm(), 1e-6);  // static friction holds from release
    }
  }
}

TEST(ContourRegion, AFinelyMeshedFaceArrivingKeepsItsFourCorners) {
  // A box whose faces are meshed 8 × 8, set exactly on the plate: no
  // triangles cross (faces that only touch), so its 81 bottom vertices are
  // all watched; of them only the corners of their hull stay contacts, as
  // a region's would, and they hold the box from the first step.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  RigidBody& box = r.mech.addRigidBody(
      RigidBody::createFromMesh("box", std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.2, 0.2, 0.2, 8, 8, 8)), 125));
  box.setPose(RigidTransform3d(0.05, -0.02, 0.1));
  CollisionBehavior behav(true, 0.5);
  behav.setMethod(CollisionBehavior::Method::ContourRegion);
  r.mech.setDefaultCollisionBehavior(behav);
  r.run(1e-3, 1e-3);
  const auto& contacts = r.mech.getCollisionManager().getContacts();
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(std::abs(c.position.x() - 0.05), 0.1, 1e-9);
    EXPECT_NEAR(std::abs(c.position.y() + 0.02), 0.1, 1e-9);
    EXPECT_LT(std::abs(c.depth), 1e-9);
  }
  // Held, not fallen by g h² (9.8e-6 m), and carrying its weight.
  EXPECT_NEAR(box.getPosition().z(), 0.1, 1e-9);
  EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(box).z(), box.getMass() * 9.8, 1e-6 * box.getMass() * 9.8);
}

TEST(ContourRegion, FacesThatOnlyTouchAreHeldByTheirWatchedCorners) {
  // A cube set exactly on a fixed cube of the same size: their sides are
  // coplanar, so the meshes cross along the shared edges (a vertex on the
  // other's plane counts as above it, TriangleIntersection.h), but the
  // region so found has no depth and its contour fixes no plane (its
  // fitted normal would be any direction in it). It is left to the watched
  // corners, whose normals are the faces' own: the cube is held from the
  // first step, on contacts along z.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& lower = r.mech.addRigidBody(RigidBody::createBox("lower", 0.2, 0.2, 0.2, 125));
  lower.setDynamic(false);
  RigidBody& upper = r.mech.addRigidBody(RigidBody::createBox("upper", 0.2, 0.2, 0.2, 125));
  upper.setPose(RigidTransform3d(0, 0, 0.2));
  r.mech.setDefaultCollisionBehavior(true, 0.5);  // DEFAULT: contour regions
  r.run(0.01, 1e-3);
  const auto& contacts = r.mech.getCollisionManager().getContacts();
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) {
    EXPECT_GT(std::abs(c.normal.z()), 1 - 1e-9);
    EXPECT_GE(c.vertex, 0);  // watched corners, not a region's points
  }
  EXPECT_NEAR(upper.getPosition().z(), 0.2, 1e-9);
  EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(upper).z(), upper.getMass() * 9.8,
              1e-6 * upper.getMass() * 9.8);
}

TEST(ContourRegion, AnEdgeLyingOnAFaceTakesTheFacesNormal) {
  // A unit cube turned about x rests on its lowest edge, which lies on a
  // fixed cube's top face and hangs over its side (x ∈ [−0.1, 0.9] on a
  // face ending at 0.5). The crossings all lie along that edge: their
  // contour is a line, which fixes no plane. The region's normal must then
  // be the face's (along z): the crossing faces' normals summed have the
  // edge's two faces in them (tilted sideways unless they meet the face at
  // 45° each) and, where the edge hangs over, the side face (a part along
  // the edge). Along such a normal the line's length, not the sinking, was
  // read as the region's depth: in a 27-box pile a region of this kind
  // pushed a box 13 cm up in one step.
  struct Case {
    double turn, sunk;
    bool region;  // deep enough to be a region (else the watched vertices hold it)
  };
  for (const Case& k : {Case{M_PI / 4, 1e-10, false}, Case{M_PI / 6, 1e-5, true}}) {
    SCOPED_TRACE(k.turn);
    test::TestRoot r(Vector3d(0, 0, -9.8));
    RigidBody& lower = r.mech.addRigidBody(RigidBody::createBox("lower", 1, 1, 1, 1000));
    lower.setDynamic(false);
    lower.setPose(RigidTransform3d(0, 0, 0.5));
    RigidBody& upper = r.mech.addRigidBody(RigidBody::createBox("upper", 1, 1, 1, 1000));
    const double lowest = 0.5 * (std::sin(k.turn) + std::cos(k.turn));  // the edge below the centre
    const Vector3d p0(0.4, 0.1, 1 + lowest - k.sunk);
    upper.setPose(RigidTransform3d(p0, Eigen::AngleAxisd(k.turn, Vector3d::UnitX()).toRotationMatrix()));
    r.mech.setDefaultCollisionBehavior(true, 0.5);  // DEFAULT: contour regions
    const double h = 1e-3;
    r.run(h, h);
    const auto& contacts = r.mech.getCollisionManager().getContacts();
    ASSERT_FALSE(contacts.empty());
    int regionPoints = 0;
    double force = 0, moment = 0;  // about the y axis through the cube's centre
    for (const ContactPoint& c : contacts) {
      EXPECT_GT(std::abs(c.normal.z()), 1 - 1e-9) << "the face's normal";
      EXPECT_LT(c.depth, 2 * k.sunk + 1e-9);
      EXPECT_GE(c.normalForce, 0);
      if (c.vertex < -1) {
        ++regionPoints;
        EXPECT_NEAR(c.depth, k.sunk, 1e-3 * k.sunk);
      }
      force += c.normalForce;
      moment += c.normalForce * (c.position.x() - p0.x());
    }
    EXPECT_EQ(regionPoints > 0, k.region);
    EXPECT_GT(force, 0) << "supported";
    // Not pushed up, and moved no more than a step's fall g h² (9.8e-6 m)
    // as it starts to tip.
    EXPECT_LT(upper.getPosition().z(), p0.z() + 1e-9);
    EXPECT_LT((upper.getPosition() - p0).norm(), 1e-5);
    if (k.region) {
      // The region's points at the supported segment's ends (x = −0.1 and
      // 0.5) carry the cube without turning it about y: their loads are
      // inversely as their distances from its centre (1 : 5), up to the
      // centre's motion over the step (the arms are taken from p0).
      EXPECT_NEAR(moment, 0, 1e-5 * force);
      // Found again where they were, each starts the next contact solve
      // from its own impulse (the loads differ: not a neighbour's).
      std::vector<double> normal(4 * contacts.size(), 0.0), friction(8 * contacts.size(), 0.0);
      r.mech.getCollisionManager().getWarmStart(h, normal.data(), friction.data());
      for (size_t i = 0; i < contacts.size(); ++i) EXPECT_NEAR(normal[i], contacts[i].normalForce * h, 1e-9 * force * h);
    }
  }
}

/// A 0.2 m cube of 1 kg sunk 1 mm into a fixed 2 × 2 × 0.2 m plate centred
/// at the origin, without friction, under the DEFAULT method (contour
/// regions) with rigidPointTol `pointTol` (0: its default); returns the cube.
RigidBody& addCubeOnPlate(test::TestRoot& r, double pointTol = 0) {
  RigidBody& lower = r.mech.addRigidBody(RigidBody::createBox("lower", 2, 2, 0.2, 125));
  lower.setDynamic(false);
  RigidBody& upper = r.mech.addRigidBody(RigidBody::createBox("upper", 0.2, 0.2, 0.2, 125));
  upper.setPose(RigidTransform3d(0, 0, 0.2 - 1e-3));
  CollisionBehavior& behav = r.mech.setCollisionBehavior(upper, lower, true, 0.0);
  if (pointTol > 0) behav.setRigidPointTol(pointTol);
  return upper;
}

TEST(ContourRegion, ARegionPointFoundAgainNearWhereItWasStartsFromItsLastImpulse) {
  // A cube sunk 1 mm into a wider fixed one slides on it without friction
  // at 0.1 m/s, held by a contour region's hull corners, which are no mesh
  // vertex: detection numbers them afresh each time, so they are found
  // again by where they are. From one detection to the next (the step's
  // and its stabilization's) they move v h = 1e-4 m, and each is found
  // again as the last point whose neighbourhood it is in (nearer than half
  // the 0.2 m to the next corner), whether rigidPointTol is above that
  // motion (1e-3) or below it (1e-5: a corner sliding along an edge as a
  // body tilts moves that much): each starts the next contact solve (the
  // Gauss–Seidel path's warm start) from the impulse it carried, together
  // the cube's weight times h.
  for (double pointTol : {1e-3, 1e-5}) {
    SCOPED_TRACE(pointTol);
    test::TestRoot r(Vector3d(0, 0, -9.8));
    RigidBody& upper = addCubeOnPlate(r, pointTol);
    upper.setVelocity(Twist(0.1, 0, 0, 0, 0, 0));
    const double h = 1e-3;
    r.run(0.05, h);
    CollisionManager& cm = r.mech.getCollisionManager();
    const auto& contacts = cm.getContacts();
    ASSERT_FALSE(contacts.empty());
    double reported = 0;
    for (const ContactPoint& c : contacts) {
      EXPECT_LT(c.vertex, -1) << "held by the region's points";
      reported += c.normalForce;
    }
    EXPECT_NEAR(reported, upper.getMass() * 9.8, 1e-6 * upper.getMass() * 9.8);
    EXPECT_NEAR(upper.getVelocity()[0], 0.1, 1e-9) << "sliding freely";
    // The rows of the last build are those contacts at their new places
    // (one normal row each; no friction rows). Room for more, in case.
    std::vector<double> normal(4 * contacts.size(), 0.0), friction(8 * contacts.size(), 0.0);
    cm.getWarmStart(h, normal.data(), friction.data());
    for (size_t k = 0; k < contacts.size(); ++k) EXPECT_NEAR(normal[k], contacts[k].normalForce * h, 1e-12);
  }
}

TEST(ContourRegion, ARegionPointWithNoLastPointNearStartsFromZero) {
  // The same cube, at rest, carried 0.5 m along the plate between two
  // detections: its new hull corners lie 0.3 m or more from every last
  // one, beyond each one's neighbourhood (half the 0.2 m to the next
  // corner) and rigidPointTol, so none continues an old impulse: the
  // contact solve starts them from zero (the warm start leaves them
  // untouched). Carried 1e-4 m instead, each is found again (the test
  // above), so the rows are there to be warm-started.
  for (double shift : {1e-4, 0.5}) {
    SCOPED_TRACE(shift);
    test::TestRoot r(Vector3d(0, 0, -9.8));
    RigidBody& upper = addCubeOnPlate(r);
    const double h = 1e-3;
    r.run(0.02, h);
    const std::vector<ContactPoint> last = r.mech.getCollisionManager().getContacts();
    upper.setPose(RigidTransform3d(upper.getPosition() + Vector3d(shift, 0, 0), upper.getRotation()));
    // The rows as the next step's velocity solve builds them (detection
    // first), one per contact here; then forces of zero, which make the
    // new contacts the reported ones, in the rows' order.
    struct Rows : ConstraintBuilder {
      double h;
      int count = 0;
      explicit Rows(double step) : h(step) {}
      void beginRow(double, double, double, double) override { ++count; }
      void addEntry(const DynamicComponent&, const Eigen::Ref<const Eigen::RowVectorXd>&) override {}
      double stepSize() const override { return h; }
    } g(h), n(h);
    CollisionManager& cm = r.mech.getCollisionManager();
    cm.getBilateralConstraints(g);
    cm.getUnilateralConstraints(n);
    ASSERT_EQ(g.count, 0);
    ASSERT_EQ(n.count, 4) << "the region's four hull corners";
    const double unset = -7;
    std::vector<double> normal(n.count, unset), friction(2 * n.count, unset), zeros(n.count, 0.0);
    cm.getWarmStart(h, normal.data(), friction.data());
    cm.setConstraintForces(zeros.data(), zeros.data());
    const auto& contacts = cm.getContacts();
    ASSERT_EQ(contacts.size(), 4u);
    for (size_t k = 0; k < contacts.size(); ++k) {
      ASSERT_LT(contacts[k].vertex, -1) << "a region's point";
      if (shift > 0.1) {
        EXPECT_EQ(normal[k], unset) << "no last point near: from zero";
        continue;
      }
      // The last point nearest: the one it moved on from.
      const ContactPoint* from = &last[0];
      for (const ContactPoint& c : last)
        if ((c.position - contacts[k].position).norm() < (from->position - contacts[k].position).norm()) from = &c;
      EXPECT_LT((from->position - contacts[k].position).norm(), 1e-3);
      EXPECT_GT(from->normalForce, 0);
      EXPECT_NEAR(normal[k], from->normalForce * h, 1e-12) << "found again";
    }
  }
}

TEST(ContourRegion, AWatchedCornerAtARegionsPointIsNotASecondContact) {
  // A cube sunk 0.1 µm, square on an equal fixed one but for a shift of a
  // tenth of the point tolerance: the region's contour runs along the
  // lower cube's sides, with hull corners at its corners, and the upper
  // cube's corners hang just outside them, watched (they could close their
  // gap) at a tenth of the tolerance from a region's point. Each place
  // carries one contact, so that the solve does not share one support
  // between two rows (a 30-cube stack had eight contacts a face and swayed
  // more); also with the upper cube's faces meshed 8 × 8, whose vertices
  // next to the corners must not stand in for them.
  for (int cells : {1, 8}) {
    SCOPED_TRACE(cells);
    test::TestRoot r(Vector3d(0, 0, -9.8));
    RigidBody& lower = r.mech.addRigidBody(RigidBody::createBox("lower", 0.2, 0.2, 0.2, 125));
    lower.setDynamic(false);
    lower.setPose(RigidTransform3d(0, 0, 0.1));
    RigidBody& upper = r.mech.addRigidBody(RigidBody::createFromMesh(
        "upper", std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.2, 0.2, 0.2, cells, cells, cells)), 125));
    const double tol = r.mech.getPenetrationTol();  // rigidPointTol's default
    upper.setPose(RigidTransform3d(0.1 * tol, 0.1 * tol, 0.3 - 1e-7));
    r.mech.setDefaultCollisionBehavior(true, 0.5);  // DEFAULT: contour regions
    r.run(1e-3, 1e-3);
    const auto& contacts = r.mech.getCollisionManager().getContacts();
    ASSERT_FALSE(contacts.empty());
    for (size_t i = 0; i < contacts.size(); ++i)
      for (size_t j = i + 1; j < contacts.size(); ++j)
        EXPECT_GT((contacts[i].position - contacts[j].position).norm(), tol) << i << " and " << j << " at one place";
    EXPECT_LE(contacts.size(), 8u) << "the region's hull corners, and watched corners where the region has none";
    EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(upper).z(), upper.getMass() * 9.8,
                1e-6 * upper.getMass() * 9.8);
  }
}

TEST(ContourRegion, AnEdgeCrossingAnEdgeIsAContact) {
  // Two cubes turned 45° about x and about y: the lower's top edge runs
  // along y, the upper's bottom edge along x, and the upper sits d = 2 mm
  // low, so the edges cross with no vertex of either inside the other.
  // Vertex penetration sees nothing; a contour region (asked for, or the
  // DEFAULT method between rigid bodies, §8.4.1.3) sees the crossing and
  // pushes the cubes apart.
  // The behaviour's method wins over the manager's (§8.4.1.3), which
  // behaviours that set none inherit.
  using M = CollisionBehavior::Method;
  struct Case {
    M onManager;
    std::optional<M> onBehavior;
    bool contour;
  };
  const double d = 0.002;
  for (const Case& k : {Case{M::Default, M::VertexPenetration, false}, Case{M::Default, M::ContourRegion, true},
                        Case{M::Default, std::nullopt, true}, Case{M::VertexPenetration, std::nullopt, false},
                        Case{M::VertexPenetration, M::Default, true}}) {
    const bool contour = k.contour;
    test::CrossedCubes s(d);  // no gravity: one step shows what detection finds
    test::TestRoot& r = s.r;
    RigidBody &lower = s.lower, &upper = s.upper;
    CollisionBehavior behav(true, 0);
    if (k.onBehavior) behav.setMethod(*k.onBehavior);
    r.mech.getCollisionManager().setMethod(k.onManager);
    r.mech.setCollisionBehavior(upper, lower, std::make_unique<CollisionBehavior>(behav));
    const double z0 = upper.getPosition().z();
    r.run(1e-3, 1e-3);
    const auto& contacts = r.mech.getCollisionManager().getContacts();
    const double raised = upper.getPosition().z() - z0;
    if (!contour) {
      EXPECT_TRUE(contacts.empty());
      EXPECT_EQ(raised, 0);  // the edges stay crossed
      continue;
    }
    // Position stabilization (at initialization) lifts the upper cube out
    // to the penetration tolerance; the step's contacts hold it there.
    const double tol = r.mech.getPenetrationTol();
    std::printf("edge on edge: %zu contacts, depth %.3g, upper raised %.6g (d − tol = %.6g)\n", contacts.size(),
                contacts[0].depth, raised, d - tol);
    EXPECT_NEAR(raised, d - tol, 0.1 * tol);
    ASSERT_FALSE(contacts.empty());
    for (const ContactPoint& c : contacts) {
      EXPECT_GT(std::abs(c.normal.z()), 0.999);  // normal along z (either sign: B toward A)
      EXPECT_GT(c.depth, 0);
      EXPECT_LT(c.depth, 2 * tol);
      EXPECT_NEAR(c.position.head<2>().norm(), 0, 2 * d);
    }
  }
}

TEST(ContourRegion, CrossingsCloserThanRigidRegionTolFormOneRegion) {
  // A body of two 0.2 m cubes 1 cm apart (two collision meshes) sunk 1 mm
  // into a plate whose top is two triangles. Its two footprints are two
  // regions, four corner contacts each, while rigidRegionTol (by default
  // the penetration tolerance) is below the gap, however coarse the plate;
  // one region with the four outer corners once it spans the gap. The
  // behaviour's setting wins over the manager's.
  struct Case {
    double onManager, onBehavior;
    size_t contacts;
  };
  for (const Case& k : {Case{-1, -1, 8}, Case{-1, 0.02, 4}, Case{0.02, -1, 4}, Case{0.02, 0.001, 8}}) {
    test::TestRoot r;  // no gravity: one step shows what detection finds
    RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.2, 1000));
    plate.setPose(RigidTransform3d(0, 0, -0.1));
    plate.setDynamic(false);
    auto pair = RigidBody::createBox("pair", 0.2, 0.2, 0.2, 125);
    auto second = std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.2, 0.2, 0.2));
    second->translate(Vector3d(0.21, 0, 0));
    pair->addMesh(second);
    RigidBody& body = r.mech.addRigidBody(std::move(pair));
    body.setPose(RigidTransform3d(-0.105, 0, 0.099));
    CollisionBehavior behav(true, 0);
    behav.setMethod(CollisionBehavior::Method::ContourRegion);
    behav.setRigidRegionTol(k.onBehavior);
    r.mech.setCollisionBehavior(body, plate, std::make_unique<CollisionBehavior>(behav));
    r.mech.getCollisionManager().setRigidRegionTol(k.onManager);
    r.run(1e-3, 1e-3);
    const auto& contacts = r.mech.getCollisionManager().getContacts();
    EXPECT_EQ(contacts.size(), k.contacts) << k.onManager << " " << k.onBehavior;
    // At a footprint's corners, x = ±0.205 (outer) or ±0.005 (inner, two
    // regions only), y = ±0.1, within the distance at which hull points
    // merge (rigidPointTol, the penetration tolerance).
    const double near = 2 * r.mech.getPenetrationTol();
    for (const ContactPoint& c : contacts) {
      EXPECT_GT(std::abs(c.normal.z()), 1 - 1e-9);
      EXPECT_NEAR(std::abs(c.position.y()), 0.1, near);
      const double x = std::abs(c.position.x());
      EXPECT_TRUE(std::abs(x - 0.205) < near || (k.contacts == 8 && std::abs(x - 0.005) < near)) << x;
    }
  }
}

TEST(ContourRegion, AStackOfTenBoxesStaysStanding) {
  // Boxes of one size stacked: their sides are coplanar, so each contour
  // closes only because a vertex on the other's plane counts as crossing
  // it (TriangleIntersection.h). Each interface sinks by its penetration
  // (at most the tolerance) and the stack stands 5 s, at rest.
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 4, 4, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  std::vector<RigidBody*> boxes;
  for (int k = 0; k < 10; ++k) {
    boxes.push_back(&r.mech.addRigidBody(RigidBody::createBox("box" + std::to_string(k), 0.2, 0.2, 0.2, 125)));
    boxes.back()->setPose(RigidTransform3d(0, 0, 0.1 + 0.2 * k + 1e-4 * k));
  }
  CollisionBehavior behav(true, 0.5);
  behav.setMethod(CollisionBehavior::Method::ContourRegion);
  r.mech.setDefaultCollisionBehavior(behav);
  r.run(5.0, 0.01);
  const double tol = r.mech.getPenetrationTol();
  double vmax = 0;
  for (int k = 0; k < 10; ++k) {
    vmax = std::max(vmax, boxes[k]->getVelocity().norm());
    EXPECT_NEAR(boxes[k]->getPosition().z(), 0.1 + 0.2 * k, (k + 1) * tol);
    // standing: each box within 0.5 mm of the stack's axis (measured at
    // most 0.07 mm, from the slips of landing)
    EXPECT_LT(boxes[k]->getPosition().head<2>().norm(), 5e-4);
  }
  EXPECT_LT(vmax, 1e-3);
  EXPECT_EQ(r.mech.getCollisionManager().getContacts().size(), 40u);  // four corners at each interface
}

TEST(ContourRegion, FemModelsAndSignedDistanceGridsAreModelErrors) {
  {
    test::TestRoot r(Vector3d(0, 0, -9.8));
    auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createHexGrid(fem, 0.2, 0.2, 0.2, 1, 1, 1);
    RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.1, 1000));
    plate.setPose(RigidTransform3d(0, 0, -0.1));
    plate.setDynamic(false);
    auto behav = std::make_unique<CollisionBehavior>(true, 0);
    behav->setMethod(CollisionBehavior::Method::ContourRegion);
    r.mech.setCollisionBehavior(fem, plate, std::move(behav));
    EXPECT_THROW(r.run(0.01, 0.01), Error);
  }
  {
    ContourBox s(0, 0);
    s.r.mech.getCollisionManager().setColliderType(ColliderType::SignedDistance);
    s.box.setPose(RigidTransform3d(0, 0, 0.099));
    EXPECT_THROW(s.r.run(0.01, 0.01), Error);
  }
}

}  // namespace
}  // namespace sinew
