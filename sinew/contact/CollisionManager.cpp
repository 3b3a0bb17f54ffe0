#include "sinew/contact/CollisionManager.h"

#include <algorithm>
#include <cmath>

#include "sinew/Error.h"
#include "sinew/mech/MechModel.h"

namespace sinew {

SINEW_PROPERTIES(CollisionManager, CompositeComponent) {
  list.add<CollisionManager>("friction", "default Coulomb friction coefficient", &CollisionManager::getFriction,
                             &CollisionManager::setFriction)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<CollisionManager>("compliance", "default contact compliance", &CollisionManager::getCompliance,
                             &CollisionManager::setCompliance)
      .setRange(0, INFINITY)
      .setDefault(0.0);
  list.add<CollisionManager>("damping", "default contact damping", &CollisionManager::getDamping,
                             &CollisionManager::setDamping)
      .setRange(0, INFINITY)
      .setDefault(0.0);
}

/// A body's collision mesh (its collidable polygonal meshes, triangulated,
/// in body coordinates) and the tree over it; rebuilt when the meshes change.
struct CollisionManager::BodyGeometry {
  std::vector<const MeshBase*> sources;
  PolygonalMesh mesh;
  std::unique_ptr<TriangleBVTree> tree;
  double radius = 0;  ///< farthest vertex from the body origin
  std::vector<double> vertexAreas;  ///< a third of the area of each vertex's faces
};

CollisionManager::CollisionManager(MechModel& mech) : CompositeComponent("collisionManager"), myMech(mech) {
  myBehaviors = &static_cast<ComponentList<CollisionBehavior>&>(
      addComponent(std::make_unique<ComponentList<CollisionBehavior>>("behaviors")));
  for (auto& row : myDefaults)
    for (auto& d : row) d = std::make_unique<CollisionBehavior>();
}

CollisionManager::~CollisionManager() = default;

namespace {
double nonNegative(double v, const Component& c, const char* what) {
  if (!(v >= 0) || !std::isfinite(v)) throw ModelError(std::string(what) + " must be non-negative and finite", c.describe());
  return v;
}
}  // namespace

void CollisionManager::setFriction(double mu) { myFriction = nonNegative(mu, *this, "friction"); }
void CollisionManager::setCompliance(double c) { myCompliance = nonNegative(c, *this, "compliance"); }
void CollisionManager::setDamping(double d) { myDamping = nonNegative(d, *this, "damping"); }

// ------------------------------------------------------------- behaviours

int CollisionManager::groupIndex(Collidable::Group g) {
  switch (g) {
    case Collidable::Group::Rigid: return 0;
    case Collidable::Group::Deformable: return 1;
    case Collidable::Group::Self: return 2;
    default: return -1;
  }
}

CollisionBehavior& CollisionManager::addBehavior(std::unique_ptr<CollisionBehavior> behav) {
  if (!behav) throw ModelError("null collision behavior", describe());
  if (behav->getParent())
    throw ModelError("a collision behavior can be set only once; copy it with CollisionBehavior(behav)", describe());
  return myBehaviors->add(std::move(behav));
}

CollisionBehavior& CollisionManager::setBehavior(Component& a, Component& b, std::unique_ptr<CollisionBehavior> behav) {
  if (&a == &b) throw ModelError("a collision behavior needs two different collidables", a.describe());
  clearBehavior(a, b);
  CollisionBehavior& added = addBehavior(std::move(behav));
  myPairs.push_back({&a, &b, Collidable::Group::All, &added});
  return added;
}

CollisionBehavior& CollisionManager::setBehavior(Component& a, Collidable::Group g,
                                                 std::unique_ptr<CollisionBehavior> behav) {
  for (size_t i = 0; i < myPairs.size(); ++i)
    if (myPairs[i].a == &a && !myPairs[i].b && myPairs[i].group == g) {
      myBehaviors->remove(*myPairs[i].behav);
      myPairs.erase(myPairs.begin() + i);
      break;
    }
  CollisionBehavior& added = addBehavior(std::move(behav));
  myPairs.push_back({&a, nullptr, g, &added});
  return added;
}

CollisionBehavior* CollisionManager::getBehavior(Component& a, Component& b) const {
  for (const auto& p : myPairs)
    if (p.b && ((p.a == &a && p.b == &b) || (p.a == &b && p.b == &a))) return p.behav;
  return nullptr;
}

CollisionBehavior* CollisionManager::getBehavior(Component& a, Collidable::Group g) const {
  for (const auto& p : myPairs)
    if (p.a == &a && !p.b && p.group == g) return p.behav;
  return nullptr;
}

bool CollisionManager::clearBehavior(Component& a, Component& b) {
  for (size_t i = 0; i < myPairs.size(); ++i)
    if (myPairs[i].b && ((myPairs[i].a == &a && myPairs[i].b == &b) || (myPairs[i].a == &b && myPairs[i].b == &a))) {
      myBehaviors->remove(*myPairs[i].behav);
      myPairs.erase(myPairs.begin() + i);
      return true;
    }
  return false;
}

void CollisionManager::clearBehaviors() {
  myPairs.clear();
  myBehaviors->clear();
}

void CollisionManager::setDefaultBehavior(Collidable::Group g0, Collidable::Group g1, const CollisionBehavior& behav) {
  // The composite groups set each primary pair they cover (§8.1.2).
  auto expand = [](Collidable::Group g) -> std::vector<int> {
    switch (g) {
      case Collidable::Group::AllBodies: return {0, 1};
      case Collidable::Group::All: return {0, 1, 2};
      default: return {groupIndex(g)};
    }
  };
  for (int i : expand(g0))
    for (int j : expand(g1)) {
      if ((i == 2) != (j == 2) && !(i == 2 && j == 2)) {
        // Self pairs only with Self (or through All, which sets Self–Self).
        if (g0 != Collidable::Group::All && g1 != Collidable::Group::All)
          throw ModelError("Collidable.Self pairs only with Self", describe());
        continue;
      }
      myDefaults[i][j] = std::make_unique<CollisionBehavior>(behav);
      myDefaults[j][i] = std::make_unique<CollisionBehavior>(behav);
    }
}

CollisionBehavior& CollisionManager::getDefaultBehavior(Collidable::Group g0, Collidable::Group g1) const {
  const int i = groupIndex(g0), j = groupIndex(g1);
  if (i < 0 || j < 0)
    throw ModelError("default behaviors exist only for the groups Rigid, Deformable and Self", describe());
  return *myDefaults[i][j];
}

const CollisionBehavior* CollisionManager::getActingBehavior(Component& a, Component& b) const {
  // 1. the pair itself; 2. a body with a group, later settings first;
  // 3. the defaults between groups (§8.1.2). Only rigid bodies collide yet.
  if (const CollisionBehavior* p = getBehavior(a, b)) return p->isEnabled() ? p : nullptr;
  auto inGroup = [](Collidable::Group g) {
    return g == Collidable::Group::Rigid || g == Collidable::Group::AllBodies || g == Collidable::Group::All;
  };
  for (auto it = myPairs.rbegin(); it != myPairs.rend(); ++it)
    if (!it->b && (it->a == &a || it->a == &b) && inGroup(it->group))
      return it->behav->isEnabled() ? it->behav : nullptr;
  const CollisionBehavior& d = *myDefaults[0][0];
  return d.isEnabled() ? &d : nullptr;
}

bool CollisionManager::isSoft(const CollisionBehavior& b) const {
  return resolved(b.getCompliance(), myCompliance) > 0 || b.getForceBehavior();
}

double CollisionManager::penetrationTol(const CollisionBehavior& b) const {
  return b.getPenetrationTol() >= 0 ? b.getPenetrationTol() : myMech.getPenetrationTol();
}

// ------------------------------------------------------------- detection

namespace {
void collectBodies(Component& c, std::vector<RigidBody*>& out) {
  if (auto* body = dynamic_cast<RigidBody*>(&c)) {
    const Collidability k = body->getCollidable();
    if (k == Collidability::All || k == Collidability::External) out.push_back(body);
  }
  if (auto* cc = dynamic_cast<CompositeComponent*>(&c))
    for (int i = 0; i < cc->numComponents(); ++i) collectBodies(*cc->getComponent(i), out);
}
}  // namespace

std::vector<RigidBody*> CollisionManager::collidableBodies() const {
  std::vector<RigidBody*> bodies;
  collectBodies(myMech, bodies);
  return bodies;
}

const CollisionManager::BodyGeometry* CollisionManager::geometryOf(RigidBody& body) {
  std::vector<const MeshBase*> sources;
  for (auto& mc : body.meshes())
    if (mc.isCollidable() && dynamic_cast<const PolygonalMesh*>(mc.getMesh().get())) sources.push_back(mc.getMesh().get());
  if (sources.empty()) return nullptr;
  auto& g = myGeometry[&body];
  if (g && g->sources == sources) return g.get();
  g = std::make_unique<BodyGeometry>();
  g->sources = sources;
  for (const MeshBase* m : sources) g->mesh.addMesh(static_cast<const PolygonalMesh&>(*m));
  g->mesh.triangulate();
  for (int i = 0; i < g->mesh.numVertices(); ++i) g->radius = std::max(g->radius, g->mesh.getVertex(i).norm());
  g->vertexAreas.assign(g->mesh.numVertices(), 0.0);
  for (int f = 0; f < g->mesh.numFaces(); ++f) {
    const double third = g->mesh.computeFaceArea(f) / 3;
    for (int v : g->mesh.getFaces()[f]) g->vertexAreas[v] += third;
  }
  try {
    g->tree = std::make_unique<TriangleBVTree>(g->mesh);
  } catch (const ModelError& e) {
    g.reset();
    throw ModelError(e.what(), body.describe());
  }
  return g.get();
}

namespace {
/// Near an edge or a corner of B the nearest feature's pseudo-normal blends
/// the faces that meet there, which would push sideways two boxes stacked
/// edge on edge. When B's faces within `eps` of the nearest distance are
/// not coplanar, the contact takes the face that A's vertex faces most
/// directly: the one whose normal is most opposed to A's vertex normal nA.
/// Returns false when the nearest feature's normal stands.
bool chooseFace(const TriangleBVTree& tree, const Vector3d& p, const Vector3d& nA, double dist, double eps,
                std::vector<int>& cands, Vector3d& normal, double& depth) {
  cands.clear();
  tree.trianglesWithin(p, std::abs(dist) + eps, cands);
  if (cands.size() < 2) return false;
  const Vector3d& n0 = tree.faceNormal(cands[0]);
  bool coplanar = true;
  int best = cands[0];
  for (int t : cands) {
    coplanar = coplanar && (tree.faceNormal(t) - n0).squaredNorm() < 1e-18;
    if (tree.faceNormal(t).dot(nA) < tree.faceNormal(best).dot(nA)) best = t;
  }
  if (coplanar) return false;
  normal = tree.faceNormal(best);
  depth = -(p - tree.triangleVertex(best, 0)).dot(normal);
  return true;
}
}  // namespace

void CollisionManager::detectVertices(RigidBody& a, RigidBody& b, double mu, double margin, double eps) {
  const BodyGeometry* ga = geometryOf(a);
  const BodyGeometry* gb = geometryOf(b);
  if (!ga || !gb) return;
  const RigidTransform3d TAW = a.getPose(), TBW = b.getPose();
  // Vertices of A in B's coordinates: T_B⁻¹ T_A.
  const RigidTransform3d TAB = TBW.inverseTimes(TAW);
  TriangleBVTree::Nearest n;
  std::vector<int> cands;
  for (int i = 0; i < ga->mesh.numVertices(); ++i) {
    const Vector3d pB = TAB.transformPoint(ga->mesh.getVertex(i));
    if (!gb->tree->within(pB, margin, n)) continue;
    ContactPoint c;
    c.bodyA = &a;
    c.bodyB = &b;
    c.position = TBW.transformPoint(pB);
    Vector3d normal;
    double depth;
    if (!chooseFace(*gb->tree, pB, TAB.R * ga->tree->vertexNormal(i), n.distance, eps, cands, normal, depth)) {
      // Inside: toward the nearest surface point; outside or on the
      // surface: the outward pseudo-normal there.
      const Vector3d toSurface = n.point - pB;
      const bool deep = n.distance < 0 && toSurface.norm() > 1e-12 * (1 + pB.norm());
      normal = deep ? toSurface.normalized() : n.normal;
      depth = -n.distance;
    }
    c.normal = TBW.R * normal;
    c.depth = depth;
    c.mu = mu;
    c.vertexArea = ga->vertexAreas[i];
    myContacts.push_back(c);
  }
}

void CollisionManager::detectPair(RigidBody& a, RigidBody& b, const CollisionBehavior& behav, double reach) {
  using M = CollisionBehavior::Method;
  using V = CollisionBehavior::VertexPenetrations;
  if (behav.getMethod() == M::Inactive) return;
  if (!a.isDynamic() && !b.isDynamic()) return;
  const double mu = resolved(behav.getFriction(), myFriction), tol = penetrationTol(behav);
  // Hard contacts also watch vertices outside, up to the tolerance plus
  // the distance the pair can close within the step (`reach`), so that a
  // body is caught as it arrives instead of after sinking (speculative
  // contact); compliant contacts act only on penetration.
  const double margin = isSoft(behav) ? 0 : tol + reach;
  // DEFAULT between rigid bodies: both ways, standing in for contour regions.
  V v = behav.getVertexPenetrations();
  if (v == V::Auto) v = behav.getMethod() == M::Default ? V::BothCollidables : V::FirstCollidable;
  const size_t first = myContacts.size();
  if (v != V::SecondCollidable) detectVertices(a, b, mu, margin, tol);
  const size_t second = myContacts.size();
  if (v != V::FirstCollidable) detectVertices(b, a, mu, margin, tol);
  for (size_t k = first; k < myContacts.size(); ++k) {
    myContacts[k].behavior = &behav;
    myContacts[k].twoWay = v == V::BothCollidables;
  }
  // Where vertices of both meshes meet (corner on corner), the second
  // contact repeats the first's row with the normal reversed: drop it.
  size_t kept = second;
  for (size_t k = second; k < myContacts.size(); ++k) {
    bool repeat = false;
    for (size_t j = first; j < second && !repeat; ++j)
      repeat = (myContacts[j].position - myContacts[k].position).norm() <= tol &&
               myContacts[j].normal.dot(myContacts[k].normal) < -0.99;
    if (!repeat) myContacts[kept++] = myContacts[k];
  }
  myContacts.resize(kept);
}

void CollisionManager::updateContacts(double h) {
  myContacts.clear();
  const std::vector<RigidBody*> bodies = collidableBodies();
  // Broad phase: world boxes of the collision meshes, grown by the margin.
  // `speed` bounds how fast any point of a body's mesh moves.
  std::vector<Eigen::AlignedBox3d> boxes(bodies.size());
  std::vector<double> speed(bodies.size(), 0.0);
  for (size_t i = 0; i < bodies.size(); ++i) {
    const BodyGeometry* g = geometryOf(*bodies[i]);
    if (!g) continue;
    const Twist& tw = bodies[i]->getVelocity();
    speed[i] = tw.head<3>().norm() + tw.tail<3>().norm() * g->radius;
    const RigidTransform3d& T = bodies[i]->getPose();
    const Eigen::AlignedBox3d& lb = g->tree->bounds();
    for (int k = 0; k < 8; ++k) boxes[i].extend(T.transformPoint(lb.corner(static_cast<Eigen::AlignedBox3d::CornerType>(k))));
  }
  for (size_t i = 0; i < bodies.size(); ++i)
    for (size_t j = i + 1; j < bodies.size(); ++j) {
      if (boxes[i].isEmpty() || boxes[j].isEmpty()) continue;
      const CollisionBehavior* behav = getActingBehavior(*bodies[i], *bodies[j]);
      if (!behav) continue;
      const double reach = h * (speed[i] + speed[j]);
      const double grow = penetrationTol(*behav) + reach;
      Eigen::AlignedBox3d bi = boxes[i];
      bi.min().array() -= grow;
      bi.max().array() += grow;
      if (!bi.intersects(boxes[j])) continue;
      // A pair set by hand keeps its order (first collidable, §8.4.1.3).
      RigidBody *a = bodies[i], *b = bodies[j];
      for (const auto& p : myPairs)
        if (p.behav == behav && p.b && p.a == b) std::swap(a, b);
      detectPair(*a, *b, *behav, reach);
    }
}

Vector3d CollisionManager::getContactForce(const RigidBody& body) const {
  Vector3d f = Vector3d::Zero();
  for (const auto& c : myReported) {
    const Vector3d fa = c.normalForce * c.normal + c.frictionForce;
    if (c.bodyA == &body) f += fa;
    if (c.bodyB == &body) f -= fa;
  }
  return f;
}

// ------------------------------------------------------------- constraint rows

namespace {
/// Adds (d, r × d) for A and the negative for B: the row d·(v_A − v_B) at
/// the contact point.
void addContactEntries(ConstraintBuilder& b, const ContactPoint& c, const Vector3d& d) {
  Eigen::Matrix<double, 1, 6> g;
  const Vector3d rA = c.position - c.bodyA->getPosition();
  g << d.transpose(), rA.cross(d).transpose();
  b.addEntry(*c.bodyA, g);
  const Vector3d rB = c.position - c.bodyB->getPosition();
  g << -d.transpose(), -rB.cross(d).transpose();
  b.addEntry(*c.bodyB, g);
}
}  // namespace

void CollisionManager::getUnilateralConstraints(ConstraintBuilder& N) {
  updateContacts(N.stepSize());
  myRowContact.clear();
  for (size_t k = 0; k < myContacts.size(); ++k) {
    const ContactPoint& c = myContacts[k];
    const CollisionBehavior* behav = c.behavior;
    if (const ContactForceBehavior* fb = behav->getForceBehavior()) {
      // The law's force at the current depth, as a compliant row linearized
      // there: offset F·C, compliance C = 1/F', damping D (§8.7.2).
      double fres[3];
      fb->computeResponse(fres, -c.depth, c, c.normal, -1, c.twoWay ? ContactForceBehavior::TWO_WAY_CONTACT : 0);
      if (!(fres[1] > 0) || !std::isfinite(fres[1])) continue;  // no area: no force
      N.beginRow(fres[0] * fres[1], fres[1], fres[2]);
    } else {
      const double tol = penetrationTol(*behav);
      const double comp = resolved(behav->getCompliance(), myCompliance);
      const double damp = resolved(behav->getDamping(), myDamping);
      // A vertex outside (depth < 0) may close its gap but not cross it; one
      // inside by up to the tolerance is held where it is; a deeper one is
      // pushed back to the tolerance (§8.9.1): the allowance keeps resting
      // contact from flickering. A compliant contact acts from zero depth.
      const double phi = comp > 0 ? -c.depth : c.depth < 0 ? -c.depth : std::min(0.0, tol - c.depth);
      N.beginRow(phi, comp, damp);
    }
    addContactEntries(N, c, c.normal);
    myRowContact.push_back(static_cast<int>(k));
  }
}

void CollisionManager::getFrictionConstraints(ConstraintBuilder& D, std::vector<FrictionLimit>& limits) {
  myFrictionContact.clear();
  for (size_t r = 0; r < myRowContact.size(); ++r) {
    ContactPoint& c = myContacts[myRowContact[r]];
    if (!(c.mu > 0)) continue;
    // One direction along the tangential slip (so that sliding friction is
    // exact), the other perpendicular (§8.9.4).
    auto pointVel = [&](const RigidBody& body) {
      const Twist& tw = body.getVelocity();
      return Vector3d(tw.head<3>() + tw.tail<3>().cross(c.position - body.getPosition()));
    };
    Vector3d slip = pointVel(*c.bodyA) - pointVel(*c.bodyB);
    slip -= slip.dot(c.normal) * c.normal;
    Vector3d d0 = slip.norm() > 1e-12 ? slip.normalized() : c.normal.unitOrthogonal();
    c.frictionDirs[0] = d0;
    c.frictionDirs[1] = c.normal.cross(d0);
    for (const Vector3d& d : c.frictionDirs) {
      D.beginRow(0);
      addContactEntries(D, c, d);
      limits.push_back({static_cast<int>(r), c.mu});
      myFrictionContact.push_back(myRowContact[r]);
    }
  }
}

void CollisionManager::setConstraintForces(const double* bilateral, const double* unilateral) {
  // Called after the velocity solve, before position stabilization detects
  // again: the reported contacts are those the step's solve used.
  (void)bilateral;
  for (auto& c : myContacts) c.normalForce = 0, c.frictionForce.setZero();
  for (size_t r = 0; r < myRowContact.size(); ++r) myContacts[myRowContact[r]].normalForce = unilateral[r];
  for (auto& c : myContacts) {
    const double area = c.twoWay ? 0.5 * c.vertexArea : c.vertexArea;
    c.pressure = area > 0 ? c.normalForce / area : 0;
  }
  myReported = myContacts;
}

void CollisionManager::setFrictionForces(const double* friction) {
  for (size_t r = 0; r < myFrictionContact.size(); ++r) {
    ContactPoint& c = myReported[myFrictionContact[r]];
    c.frictionForce += friction[r] * c.frictionDirs[r % 2];
  }
}

double CollisionManager::getMaxHardError() {
  updateContacts(0);
  double e = 0;
  for (const auto& c : myContacts)
    if (!isSoft(*c.behavior)) e = std::max(e, c.depth - penetrationTol(*c.behavior));
  return e;
}

}  // namespace sinew
