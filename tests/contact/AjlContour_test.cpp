// The AJL_CONTOUR collider in the collision manager (guide §8.4.2, §8.7.2,
// §8.8.1). Facts asserted: on the same pairs it gives the same contacts as
// TRI_INTERSECTION, for contour regions and for vertex penetration, so the
// same motion; a ball on a plate rests at its radius carrying its weight;
// the penetration regions it reports are the sphere's vertices below the
// plate, bounded by a closed contour enclosing the cap's footprint
// π(2Rd − d²); and a contact force law receives contactArea = region area
// / penetrating vertices.
#include <gtest/gtest.h>

#include <cmath>

#include "ContactScenes.h"
#include "TestModels.h"
#include "Verification.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/contact/ContactForceBehavior.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

/// A box or a ball dropped tilted from 2 mm onto a fixed plate (top face
/// z = 0), after 0.3 s: its contacts and its pose.
struct Landing {
  std::vector<ContactPoint> contacts;
  RigidTransform3d pose;
};
Landing landOnPlate(ColliderType collider, CollisionBehavior::Method method, bool ball) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  RigidBody& body = r.mech.addRigidBody(ball ? RigidBody::createIcosahedralSphere("ball", 0.1, 1000, 3)
                                             : RigidBody::createBox("box", 0.2, 0.15, 0.1, 1000));
  const Matrix3d R = AxisAngle(Vector3d(0.3, -0.5, 0.8).normalized(), 0.4).toMatrix();
  const PolygonalMesh& mesh = *body.getSurfaceMesh();
  double lowest = 0;
  for (int v = 0; v < mesh.numVertices(); ++v) lowest = std::min(lowest, (R * mesh.getVertex(v)).z());
  body.setPose(RigidTransform3d(Vector3d(0.01, -0.02, -lowest + 0.002), R));
  CollisionBehavior behav(true, 0.3);
  behav.setMethod(method);
  behav.setColliderType(collider);
  r.mech.setCollisionBehavior(body, plate, std::make_unique<CollisionBehavior>(behav));
  r.run(0.3, 1e-3);
  return {r.mech.getCollisionManager().getContacts(), body.getPose()};
}

TEST(AjlContour, GivesTheSameContactsAndMotionAsTriIntersection) {
  // Both colliders find the same crossings and inside vertices in generic
  // poses; they differ in round-off, and in how a vertex exactly on a face
  // is decided (a symbolic perturbation here, "above" there), which at
  // rest moves a contact by nanometres and, with four corners holding a
  // box, redistributes the indeterminate corner forces by as little.
  // (A faceted ball under contour regions is left out: it lands on a
  // vertex or an edge, a balance that round-off tips either way.)
  using M = CollisionBehavior::Method;
  for (M method : {M::ContourRegion, M::VertexPenetration})
    for (bool ball : {false, true}) {
      if (ball && method == M::ContourRegion) continue;
      const Landing tri = landOnPlate(ColliderType::TriIntersection, method, ball);
      const Landing ajl = landOnPlate(ColliderType::AjlContour, method, ball);
      const std::string what = std::string(method == M::ContourRegion ? "contour regions" : "vertices") +
                               (ball ? ", ball" : ", box");
      ASSERT_FALSE(tri.contacts.empty()) << what;
      ASSERT_EQ(tri.contacts.size(), ajl.contacts.size()) << what;
      Vector3d ftri = Vector3d::Zero(), fajl = Vector3d::Zero();
      for (size_t k = 0; k < tri.contacts.size(); ++k) {
        EXPECT_LT((tri.contacts[k].position - ajl.contacts[k].position).norm(), 1e-6) << what;
        EXPECT_LT((tri.contacts[k].normal - ajl.contacts[k].normal).norm(), 1e-6) << what;
        EXPECT_NEAR(tri.contacts[k].depth, ajl.contacts[k].depth, 1e-6) << what;
        ftri += tri.contacts[k].normalForce * tri.contacts[k].normal;
        fajl += ajl.contacts[k].normalForce * ajl.contacts[k].normal;
      }
      EXPECT_LT((ftri - fajl).norm(), 1e-6 * ftri.norm()) << what;
      EXPECT_LT((tri.pose.p - ajl.pose.p).norm(), 1e-6) << what;
      EXPECT_LT((tri.pose.R - ajl.pose.R).norm(), 1e-6) << what;
    }
}

TEST(AjlContour, ABallDroppedOnAPlateRestsAtItsRadiusCarryingItsWeight) {
  test::TestRoot r(Vector3d(0, 0, -9.8));
  RigidBody& plate = r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.2, 1000));
  plate.setPose(RigidTransform3d(0, 0, -0.1));
  plate.setDynamic(false);
  RigidBody& ball = r.mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", 0.1, 1000, 3));
  ball.setPose(RigidTransform3d(0, 0, 0.15));
  r.mech.setDefaultCollisionBehavior(true, 0.2);
  r.mech.getCollisionManager().setColliderType(ColliderType::AjlContour);
  r.run(1.5, 0.005);
  const double tol = r.mech.getPenetrationTol();
  // The icosphere's lowest vertex is at −0.1 (a pole): it rests within the
  // penetration tolerance of the plate.
  EXPECT_LE(ball.getPosition().z(), 0.1 + 1e-9);
  EXPECT_GE(ball.getPosition().z(), 0.1 - tol - 1e-9);
  EXPECT_LT(ball.getVelocity().norm(), 1e-6);
  const double weight = ball.getMass() * 9.8;
  EXPECT_NEAR(r.mech.getCollisionManager().getContactForce(ball).z(), weight, 1e-6 * weight);
}

/// A sphere pressed d into a plate, detected once (no step).
struct PressedSphere {
  static constexpr double R = 0.1, d = 0.02;
  test::TestRoot r;
  RigidBody& plate;
  RigidBody& ball;
  PressedSphere()
      : plate(r.mech.addRigidBody(RigidBody::createBox("plate", 1, 1, 0.2, 1000))),
        ball(r.mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", R, 1000, 4))) {
    plate.setPose(RigidTransform3d(0, 0, -0.1));
    plate.setDynamic(false);
    ball.setPose(RigidTransform3d(0.013, -0.007, R - d));
  }
};

TEST(AjlContour, PenetrationRegionsAreTheCapBoundedByAClosedContour) {
  PressedSphere s;
  s.r.mech.setCollisionBehavior(s.ball, s.plate, true).setColliderType(ColliderType::AjlContour);
  CollisionResponse& resp = s.r.mech.setCollisionResponse(s.ball, s.plate);
  s.r.mech.getCollisionManager().updateContacts(0);
  const auto onBall = resp.getPenetrationRegions(0), onPlate = resp.getPenetrationRegions(1);
  ASSERT_EQ(onBall.size(), 1u);
  ASSERT_EQ(onPlate.size(), 1u);
  // The ball's vertices below the plate's top, and no plate vertex.
  const PolygonalMesh& mesh = *s.ball.getSurfaceMesh();
  std::vector<int> below;
  for (int v = 0; v < mesh.numVertices(); ++v)
    if (s.ball.getPose().transformPoint(mesh.getVertex(v)).z() < 0) below.push_back(v);
  EXPECT_EQ(onBall[0].vertices, below);
  EXPECT_TRUE(onPlate[0].vertices.empty());
  // Each vertex's depth is its distance below the plate's top face (the
  // cap lies well inside the face's region), the deepest the pole's d.
  ASSERT_EQ(onBall[0].depths.size(), below.size());
  for (size_t k = 0; k < below.size(); ++k)
    EXPECT_NEAR(onBall[0].depths[k], -s.ball.getPose().transformPoint(mesh.getVertex(below[k])).z(), 1e-12);
  EXPECT_NEAR(onBall[0].maxDepth, s.d, 1e-3 * s.d);
  EXPECT_EQ(onBall[0].collidable, &s.ball);
  EXPECT_EQ(onPlate[0].collidable, &s.plate);
  // One contour on the plate's top face, enclosing the cap's footprint, a
  // circle of radius √(2Rd − d²), to the facets' accuracy (inscribed).
  ASSERT_EQ(onBall[0].contours.size(), 1u);
  for (const Vector3d& p : onBall[0].contours[0]) EXPECT_NEAR(p.z(), 0, 1e-12);
  const double circle = M_PI * (2 * s.R * s.d - s.d * s.d);
  EXPECT_LT(onBall[0].area, circle);
  VERIFY_NEAR("contact (AJL_CONTOUR): contact area of a sphere R = 0.1 m pressed d = 2 cm into a plate [m²]",
              "π(2Rd − d²), to the inscribed facets", onBall[0].area, circle, 0.03 * circle);
  EXPECT_EQ(onPlate[0].area, onBall[0].area);
}

TEST(AjlContour, AnInactivePairDrawingPenetrationDepthHasItsRegionsAndNoContacts) {
  // The guide's PenetrationRenderDemo: INACTIVE (no contact) with
  // drawColorMap = PENETRATION_DEPTH under AJL_CONTOUR. The bodies overlap
  // freely, and the penetration regions and their depths are still found;
  // without the colour map an INACTIVE pair is not even intersected.
  for (bool map : {false, true}) {
    PressedSphere s;
    s.ball.setDynamic(false);  // both bodies fixed (or parametric), as in the guide's demo
    CollisionBehavior& behav = s.r.mech.setCollisionBehavior(s.ball, s.plate, true);
    behav.setMethod(CollisionBehavior::Method::Inactive);
    behav.getProperty("drawColorMap").set(std::string(map ? "PENETRATION_DEPTH" : "NONE"));
    s.r.mech.getCollisionManager().setColliderType(ColliderType::AjlContour);
    CollisionResponse& resp = s.r.mech.setCollisionResponse(s.ball, s.plate);
    s.r.run(0.01, 0.01);
    EXPECT_TRUE(s.r.mech.getCollisionManager().getContacts().empty());
    const auto regions = resp.getPenetrationRegions(0);
    if (!map) {
      EXPECT_TRUE(regions.empty());
      continue;
    }
    ASSERT_EQ(regions.size(), 1u);
    EXPECT_NEAR(regions[0].maxDepth, s.d, 1e-3 * s.d);
    EXPECT_FALSE(regions[0].vertices.empty());
  }
}

/// A law that records the contact areas it is given, so weak that the
/// ball does not move measurably within the step.
class RecordingContact : public ContactForceBehavior {
 public:
  mutable std::vector<double> areas;
  void computeResponse(double fres[3], double dist, const ContactPoint&, const Vector3d&, double contactArea,
                       int) const override {
    areas.push_back(contactArea);
    fres[0] = 1e-6 * dist;
    fres[1] = 1e6;
    fres[2] = 0;
  }
};

TEST(AjlContour, ForceLawsReceiveTheRegionAreaPerPenetratingVertex) {
  for (ColliderType collider : {ColliderType::TriIntersection, ColliderType::AjlContour}) {
    PressedSphere s;
    auto law = std::make_shared<RecordingContact>();
    CollisionBehavior& behav = s.r.mech.setCollisionBehavior(s.ball, s.plate, true);
    behav.setColliderType(collider);
    behav.setMethod(CollisionBehavior::Method::VertexPenetration);  // areas are per vertex (§8.7.2)
    behav.setForceBehavior(law);
    CollisionResponse& resp = s.r.mech.setCollisionResponse(s.ball, s.plate);
    s.r.run(1e-3, 1e-3);
    ASSERT_FALSE(law->areas.empty());
    if (collider == ColliderType::TriIntersection) {
      for (double a : law->areas) EXPECT_EQ(a, -1);  // defined only by the AJL collider (§8.7.2)
      continue;
    }
    const auto regions = resp.getPenetrationRegions(0);
    ASSERT_EQ(regions.size(), 1u);
    const double share = regions[0].area / static_cast<double>(regions[0].vertices.size());
    for (double a : law->areas) EXPECT_NEAR(a, share, 1e-9 * share);  // the ball moves by round-off
    // The pair's handler (§8.8.2) carries its behaviour, contacts and regions.
    const auto handlers = resp.getHandlers();
    ASSERT_EQ(handlers.size(), 1u);
    EXPECT_EQ(handlers[0].getBehavior(), &behav);
    EXPECT_EQ(handlers[0].numContacts(), static_cast<int>(resp.getContactData().size()));
    ASSERT_EQ(handlers[0].regions0.size(), 1u);
    EXPECT_EQ(handlers[0].regions0[0].vertices, regions[0].vertices);
    EXPECT_EQ(handlers[0].regions1.size(), resp.getPenetrationRegions(1).size());
  }
}

TEST(AjlContour, VertexEdgePenetrationCatchesAnEdgeCrossingAnEdge) {
  // The crossed cubes (ContactScenes.h), 2 mm deep: vertex penetration
  // sees nothing; VERTEX_EDGE_PENETRATION finds the
  // edge–edge contact (normal along z, depth d, at the crossing) and
  // pushes the cubes apart; without the AJL collider it is a ModelError.
  using M = CollisionBehavior::Method;
  const double d = 0.002;
  struct Case {
    M method;
    ColliderType collider;
  };
  for (const Case& k : {Case{M::VertexPenetration, ColliderType::AjlContour},
                        Case{M::VertexEdgePenetration, ColliderType::AjlContour},
                        Case{M::VertexEdgePenetration, ColliderType::TriIntersection}}) {
    test::CrossedCubes s(d);  // no gravity: one step shows what detection finds
    test::TestRoot& r = s.r;
    RigidBody &lower = s.lower, &upper = s.upper;
    CollisionBehavior behav(true, 0);
    behav.setMethod(k.method);
    behav.setColliderType(k.collider);
    r.mech.setCollisionBehavior(upper, lower, std::make_unique<CollisionBehavior>(behav));
    if (k.collider == ColliderType::TriIntersection) {
      EXPECT_THROW(r.run(1e-3, 1e-3), ModelError);
      continue;
    }
    // The contact before any step moves the cubes.
    r.mech.getCollisionManager().updateContacts(0);
    const auto& found = r.mech.getCollisionManager().getPenetrationRegions();
    EXPECT_FALSE(found.empty());  // the contours see the crossing either way
    const double z0 = upper.getPosition().z();
    r.run(1e-3, 1e-3);
    const auto& contacts = r.mech.getCollisionManager().getContacts();
    const double raised = upper.getPosition().z() - z0;
    if (k.method == M::VertexPenetration) {
      EXPECT_TRUE(contacts.empty());
      EXPECT_EQ(raised, 0);  // the edges stay crossed
      continue;
    }
    // Position stabilization (at initialization) lifts the upper cube out
    // to the penetration tolerance; the step's contact holds it there.
    const double tol = r.mech.getPenetrationTol();
    EXPECT_NEAR(raised, d - tol, 0.01 * tol);
    ASSERT_EQ(contacts.size(), 1u);
    const ContactPoint& c = contacts[0];
    EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), 1e-9);  // from the lower (B) toward the upper (A)
    EXPECT_NEAR(c.depth, tol, 1e-3 * tol);
    EXPECT_LT(c.position.head<2>().norm(), 1e-9);  // where the edges cross, over the origin
  }
}

}  // namespace
}  // namespace sinew
