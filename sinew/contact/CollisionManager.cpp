#include "sinew/contact/CollisionManager.h"

#include <algorithm>
#include <cmath>

#include "sinew/Error.h"
#include "sinew/contact/CollisionResponse.h"
#include "sinew/contact/ContactRow.h"
#include "sinew/model/Checks.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/FemNode3d.h"
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
  list.add<CollisionManager>("rigidPointTol", "CONTOUR_REGION: least distance between contact points (< 0: the penetration tolerance)",
                             &CollisionManager::getRigidPointTol, &CollisionManager::setRigidPointTol)
      .setDefault(-1.0);
  list.add<CollisionManager>("rigidRegionTol",
                             "CONTOUR_REGION: crossings closer than this form one region (< 0: the penetration tolerance)",
                             &CollisionManager::getRigidRegionTol, &CollisionManager::setRigidRegionTol)
      .setDefault(-1.0);
  list.add<CollisionManager>("stictionCreep", "default creep speed of sticking contacts per newton",
                             &CollisionManager::getStictionCreep, &CollisionManager::setStictionCreep)
      .setDefault(0.0);
  list.add<CollisionManager>("renderingCollidable", "0 or 1: the collidable normals, forces and maps refer to (§8.5)",
                             [](const CollisionManager& m) { return m.renderSettings().renderingCollidable; },
                             [](CollisionManager& m, int c) {
                               if (c != 0 && c != 1)
                                 throw ModelError("renderingCollidable must be 0 or 1, not " + std::to_string(c),
                                                  m.describe());
                               m.renderSettings().renderingCollidable = c;
                             })
      .setDefault(0);
  auto flag = [&](const char* name, const char* doc, bool ContactRenderSettings::*field) {
    list.add<CollisionManager>(
            name, doc, [field](const CollisionManager& m) { return m.renderSettings().*field; },
            [field](CollisionManager& m, bool v) { m.renderSettings().*field = v; })
        .setDefault(false);
  };
  flag("drawIntersectionContours", "draw the intersection contours (§8.5)",
       &ContactRenderSettings::drawIntersectionContours);
  flag("drawIntersectionPoints", "draw the penetrating vertices (§8.5)", &ContactRenderSettings::drawIntersectionPoints);
  flag("drawContactNormals", "draw the contact normals (§8.5)", &ContactRenderSettings::drawContactNormals);
  flag("drawContactForces", "draw the contact forces (§8.5)", &ContactRenderSettings::drawContactForces);
  flag("drawFrictionForces", "draw the friction forces (§8.5)", &ContactRenderSettings::drawFrictionForces);
  list.add<CollisionManager>("drawColorMap", "the colour map of pairs whose behaviour sets none (§8.5)",
                             &CollisionManager::getDrawColorMap, &CollisionManager::setDrawColorMap);
  list.add<CollisionManager>("colorMapInterpolation", "RGB or HSV interpolation of the colour map (§8.5)",
                             [](const CollisionManager& m) { return m.renderSettings().colorMapInterpolation; },
                             [](CollisionManager& m, ColorInterpolation i) { m.renderSettings().colorMapInterpolation = i; });
  list.add<CollisionManager>("contactNormalLen", "length of drawn contact normals (< 0: from the model's size)",
                             &CollisionManager::getContactNormalLen, &CollisionManager::setContactNormalLen);
  list.add<CollisionManager>("contactForceLenScale", "drawn force length per unit impulse",
                             &CollisionManager::getContactForceLenScale, &CollisionManager::setContactForceLenScale)
      .setDefault(1.0);
  list.add<CollisionManager>("bilateralVertexContact", "FEM vertex contacts as bilateral rows (behaviours that do not set it)",
                             &CollisionManager::getBilateralVertexContact, &CollisionManager::setBilateralVertexContact)
      .setDefault(true);
  list.add<CollisionManager>("colliderType", "the collider of pairs that inherit it", &CollisionManager::getColliderType,
                             &CollisionManager::setColliderType);
  list.add<CollisionManager>("method", "the contact method of pairs whose behaviour sets none (§8.4.1.3)",
                             &CollisionManager::getMethod, &CollisionManager::setMethod)
      .setDefault(std::string("DEFAULT"));
  list.add<CollisionManager>("vertexPenetrations", "whose vertices vertex penetration tests, for pairs whose behaviour sets none",
                             &CollisionManager::getVertexPenetrations, &CollisionManager::setVertexPenetrations)
      .setDefault(std::string("AUTO"));
  list.add<CollisionManager>("distanceGridMaxResolution", "cells along a distance grid's longest side",
                             &CollisionManager::getDistanceGridMaxResolution,
                             &CollisionManager::setDistanceGridMaxResolution)
      .setDefault(20);
  list.add<CollisionManager>("distanceGridFitWithOBB", "fit distance grids along their meshes' principal axes",
                             &CollisionManager::getDistanceGridFitWithOBB,
                             &CollisionManager::setDistanceGridFitWithOBB)
      .setDefault(false);
  list.add<CollisionManager>("reduceConstraints", "keep only independent contact rows (§8.6.1)",
                             &CollisionManager::getReduceConstraints, &CollisionManager::setReduceConstraints)
      .setDefault(false);
}

std::vector<const MechModel*> CollisionManager::mechsAbove(const Component& c) {
  std::vector<const MechModel*> out;
  for (const Component* p = c.getParent(); p; p = p->getParent())
    if (auto* m = dynamic_cast<const MechModel*>(p)) out.push_back(m);
  return out;
}

namespace {
/// The first of A (innermost first) that B holds too, or null: the lowest
/// MechModel holding two components, given the models above each.
const MechModel* lowestCommon(const std::vector<const MechModel*>& A, const std::vector<const MechModel*>& B) {
  for (const MechModel* m : A)
    if (std::find(B.begin(), B.end(), m) != B.end()) return m;
  return nullptr;
}
}  // namespace

const CollisionManager& CollisionManager::detecting() const {
  const CollisionManager* top = this;
  for (const MechModel* m : mechsAbove(myMech))
    if (const CollisionManager* cm = m->findCollisionManager()) top = cm;
  return *top;
}

const CollisionManager* CollisionManager::managerOf(const MechModel* m) const {
  return !m || m == &myMech ? this : m->findCollisionManager();
}

const CollisionManager* CollisionManager::managerFor(const Collider& a, const Collider& b) const {
  return managerOf(lowestCommon(a.mechs, b.mechs));
}

CollisionManager::CollisionManager(MechModel& mech) : CompositeComponent("collisionManager"), myMech(mech) {
  myBehaviors = &static_cast<ComponentList<CollisionBehavior>&>(
      addComponent(std::make_unique<ComponentList<CollisionBehavior>>("behaviors")));
  myResponses = &static_cast<ComponentList<CollisionResponse>&>(
      addComponent(std::make_unique<ComponentList<CollisionResponse>>("responses")));
  myPlanes = &static_cast<ComponentList<CollisionPlane>&>(
      addComponent(std::make_unique<ComponentList<CollisionPlane>>("planes")));
  for (auto& row : myDefaults)
    for (auto& d : row) d = std::make_unique<CollisionBehavior>();
}

CollisionManager::~CollisionManager() = default;

CollisionPlane& CollisionManager::addPlane(const std::string& name, const Vector3d& point, const Vector3d& normal) {
  return myPlanes->add(std::make_unique<CollisionPlane>(name, point, normal));
}

void CollisionManager::setFriction(double mu) { myFriction = requireNonNegative(mu, *this, "friction"); }
void CollisionManager::setCompliance(double c) { myCompliance = requireNonNegative(c, *this, "compliance"); }
void CollisionManager::setDamping(double d) { myDamping = requireNonNegative(d, *this, "damping"); }
void CollisionManager::setRigidPointTol(double tol) {
  if (!std::isfinite(tol)) throw ModelError("rigidPointTol must be finite", describe());
  myRigidPointTol = tol < 0 ? -1 : tol;
}
void CollisionManager::setRigidRegionTol(double tol) {
  if (!std::isfinite(tol)) throw ModelError("rigidRegionTol must be finite", describe());
  myRigidRegionTol = tol < 0 ? -1 : tol;
}
void CollisionManager::setStictionCreep(double c) { myStictionCreep = requireNonNegative(c, *this, "stictionCreep"); }
void CollisionManager::setContactNormalLen(double len) {
  if (!std::isfinite(len)) throw ModelError("contactNormalLen must be finite", describe());
  myContactNormalLen = len < 0 ? -1 : len;
}
double CollisionManager::getContactNormalLen() const {
  return myContactNormalLen >= 0 ? myContactNormalLen : 1e3 * myMech.getPenetrationTol();
}
void CollisionManager::setContactForceLenScale(double s) {
  myContactForceLenScale = requireNonNegative(s, *this, "contactForceLenScale");
}

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
  // (C, C) sets the self-collision of a compound collidable (§8.3.2).
  if (&a == &b && !dynamic_cast<FemModel3d*>(&a))
    throw ModelError("a collision behavior needs two different collidables (or a compound collidable, an FEM "
                     "model, twice for its self-collision)",
                     a.describe());
  requireCollidable(a);
  requireCollidable(b);
  // §8.3.5: two collidables inside a nested MechModel collide as that model
  // says; its parent cannot set their behaviour.
  if (const MechModel* m = lowestCommon(mechsAbove(a), mechsAbove(b)); m && m != &myMech) {
    const auto above = mechsAbove(*m);
    if (std::find(above.begin(), above.end(), &myMech) != above.end())
      throw ModelError("both collidables are inside the nested MechModel " + m->describe() +
                           ", so their collision behavior is set there (§8.3.5)",
                       describe());
  }
  clearBehavior(a, b);
  CollisionBehavior& added = addBehavior(std::move(behav));
  myPairs.push_back({&a, &b, Collidable::Group::All, &added, dynamic_cast<FemMeshComp*>(&a),
                     dynamic_cast<FemMeshComp*>(&b)});
  return added;
}

CollisionBehavior& CollisionManager::setBehavior(Component& a, Collidable::Group g,
                                                 std::unique_ptr<CollisionBehavior> behav) {
  requireCollidable(a);
  for (size_t i = 0; i < myPairs.size(); ++i)
    if (myPairs[i].a == &a && !myPairs[i].b && myPairs[i].group == g) {
      myBehaviors->remove(*myPairs[i].behav);
      myPairs.erase(myPairs.begin() + i);
      break;
    }
  CollisionBehavior& added = addBehavior(std::move(behav));
  myPairs.push_back({&a, nullptr, g, &added, dynamic_cast<FemMeshComp*>(&a), nullptr});
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
  using G = Collidable::Group;
  // Self-collision (§8.3.2) is (Deformable, Self), or (Self, Self): only
  // compound collidables, which are deformable, have it.
  if ((g0 == G::Self) != (g1 == G::Self) && g0 != G::All && g1 != G::All) {
    const G other = g0 == G::Self ? g1 : g0;
    if (other != G::Deformable)
      throw ModelError("Collidable.Self pairs only with Deformable or Self: rigid bodies do not self-collide",
                       describe());
    myDefaults[2][2] = std::make_unique<CollisionBehavior>(behav);
    return;
  }
  // The composite groups set each primary pair they cover (§8.1.2).
  auto expand = [](G g) -> std::vector<int> {
    switch (g) {
      case G::AllBodies: return {0, 1};
      case G::All: return {0, 1, 2};
      default: return {groupIndex(g)};
    }
  };
  for (int i : expand(g0))
    for (int j : expand(g1)) {
      if ((i == 2) != (j == 2)) continue;  // (All, All) sets Self–Self, not Self with a body group
      myDefaults[i][j] = std::make_unique<CollisionBehavior>(behav);
      myDefaults[j][i] = std::make_unique<CollisionBehavior>(behav);
    }
}

CollisionBehavior& CollisionManager::getDefaultBehavior(Collidable::Group g0, Collidable::Group g1) const {
  using G = Collidable::Group;
  if ((g0 == G::Self && g1 == G::Deformable) || (g0 == G::Deformable && g1 == G::Self)) return *myDefaults[2][2];
  const int i = groupIndex(g0), j = groupIndex(g1);
  if (i < 0 || j < 0 || (i == 2) != (j == 2))
    throw ModelError("default behaviors exist for the groups Rigid and Deformable, and (Deformable, Self)",
                     describe());
  return *myDefaults[i][j];
}

const CollisionBehavior* CollisionManager::getSelfBehavior(const Component& fem) const {
  for (const auto& p : myPairs)
    if (p.a == &fem && p.b == &fem) return p.behav->isEnabled() ? p.behav : nullptr;
  for (auto it = myPairs.rbegin(); it != myPairs.rend(); ++it)
    if (it->a == &fem && !it->b && it->group == Collidable::Group::Self)
      return it->behav->isEnabled() ? it->behav : nullptr;
  const CollisionBehavior& d = *myDefaults[2][2];
  return d.isEnabled() ? &d : nullptr;
}

bool CollisionManager::inGroup(const Component& c, Collidable::Group g) const {
  return g == Collidable::Group::AllBodies || g == Collidable::Group::All || g == groupOf(c);
}

const CollisionBehavior* CollisionManager::getActingBehavior(Component& a, Component& b) const {
  // 1. the pair itself; 2. a collidable with the other's group, later
  // settings first; 3. the defaults between the two groups (§8.1.2).
  if (const CollisionBehavior* p = getBehavior(a, b)) return p->isEnabled() ? p : nullptr;
  for (auto it = myPairs.rbegin(); it != myPairs.rend(); ++it)
    if (!it->b && ((it->a == &a && inGroup(b, it->group)) || (it->a == &b && inGroup(a, it->group))))
      return it->behav->isEnabled() ? it->behav : nullptr;
  const CollisionBehavior& d = *myDefaults[groupIndex(groupOf(a))][groupIndex(groupOf(b))];
  return d.isEnabled() ? &d : nullptr;
}

bool CollisionManager::isSoft(const CollisionBehavior& b) const {
  return resolved(b.getCompliance(), myCompliance) > 0 || b.getForceBehavior();
}

double CollisionManager::penetrationTol(const CollisionBehavior& b) const {
  return b.getPenetrationTol() >= 0 ? b.getPenetrationTol() : myMech.getPenetrationTol();
}

double CollisionManager::rigidPointTol(const CollisionBehavior& b) const {
  return b.getRigidPointTol() >= 0 ? b.getRigidPointTol() : myRigidPointTol >= 0 ? myRigidPointTol : penetrationTol(b);
}

double CollisionManager::rigidRegionTol(const CollisionBehavior& b) const {
  return b.getRigidRegionTol() >= 0    ? b.getRigidRegionTol()
         : myRigidRegionTol >= 0 ? myRigidRegionTol
                                 : penetrationTol(b);
}

double CollisionManager::stictionCreep(const CollisionBehavior& b) const {
  return b.getStictionCreep() >= 0 ? b.getStictionCreep() : myStictionCreep;
}

Vector3d CollisionManager::getContactForce(const Component& collidable) const {
  Vector3d f = Vector3d::Zero();
  for (const auto& c : getContacts()) {
    const Vector3d fa = c.normalForce * c.normal + c.frictionForce;
    if (c.collidableA == &collidable) f += fa;
    if (c.collidableB == &collidable) f -= fa;
  }
  return f;
}

// ------------------------------------------------------------- constraint rows

namespace {
void addContactEntries(ConstraintBuilder& b, const ContactPoint& c, const Vector3d& d) {
  contact_detail::forEachRowEntry(c, d, [&](const DynamicComponent& comp, const auto& g) { b.addEntry(comp, g); });
}

Vector3d sideVelocity(const RigidBody* body, const std::vector<std::pair<FemNode3d*, double>>& nodes,
                      const Vector3d& p) {
  if (body) {
    const Twist& tw = body->getVelocity();
    return tw.head<3>() + tw.tail<3>().cross(p - body->getPosition());
  }
  Vector3d v = Vector3d::Zero();
  for (const auto& [node, w] : nodes) v += w * node->getVelocity();
  return v;
}
}  // namespace

void CollisionManager::addContactRow(ConstraintBuilder& b, size_t k) {
  const ContactPoint& c = myContacts[k];
  const CollisionBehavior* behav = c.behavior;
  if (const ContactForceBehavior* fb = behav->getForceBehavior()) {
    // The law's force at the current depth, as a compliant row linearized
    // there: offset F·C, compliance C = 1/F', damping D (§8.7.2).
    double fres[3];
    try {
      fb->computeResponse(fres, -c.depth, c, c.normal, c.contactArea,
                          c.twoWay ? ContactForceBehavior::TWO_WAY_CONTACT : 0);
    } catch (const ModelError& e) {
      throw ModelError(e.message(), behav->describe());  // the behaviour whose law failed
    }
    if (!(fres[1] > 0) || !std::isfinite(fres[1])) return;  // no area: no force
    b.beginRow(fres[0] * fres[1], fres[1], fres[2]);
  } else {
    const double tol = penetrationTol(*behav);
    const double comp = resolved(behav->getCompliance(), myCompliance);
    const double damp = resolved(behav->getDamping(), myDamping);
    // A vertex outside (depth < 0) may close its gap but not cross it; one
    // inside by up to the tolerance is held where it is; a deeper one is
    // pushed back to the tolerance (§8.9.1): the allowance keeps resting
    // contact from flickering. A compliant contact acts from zero depth.
    const double phi = comp > 0 ? -c.depth : c.depth < 0 ? -c.depth : std::min(0.0, tol - c.depth);
    b.beginRow(phi, comp, damp);
  }
  addContactEntries(b, c, c.normal);
  (c.bilateral && !myChordBuild ? myBilateralContact : myRowContact).push_back(static_cast<int>(k));
  myRowKeys.push_back(rowKey(c, Vector3d::Zero()));
}

void CollisionManager::getBilateralConstraints(ConstraintBuilder& G) {
  // Detection runs once per build of the rows, here, before the unilateral
  // rows: the velocity solve's, which watches what can come into contact
  // within the step. Position stabilization's builds (no step) carry those
  // contacts with their bodies instead where that detection covers the
  // motion since, and detect afresh otherwise (carryContacts). A build
  // without entries is a chord pass of position stabilization, which
  // would reuse the factors of the velocity solve's rows; contacts come
  // and go between the two, so their rows then go with the unilateral
  // ones, which makes the solver factor afresh.
  if (!(G.stepSize() == 0 && carryContacts())) updateContacts(G.stepSize());
  myBilateralContact.clear();
  myRowKeys.clear();
  myChordBuild = !G.wantsEntries();
  if (myChordBuild) return;
  for (size_t k = 0; k < myContacts.size(); ++k)
    if (myContacts[k].bilateral) addContactRow(G, k);
}

void CollisionManager::getUnilateralConstraints(ConstraintBuilder& N) {
  myRowContact.clear();
  for (size_t k = 0; k < myContacts.size(); ++k)
    if (!myContacts[k].bilateral || myChordBuild) addContactRow(N, k);
}

bool CollisionManager::carryImpulses(const std::vector<double>& onMarked, std::vector<double>& onLast) const {
  if (onMarked.size() != myMarkedKeys.size()) return false;
  // Per contact of the last build: the normal impulse and the friction
  // impulse (a vector) it takes over from the marked build's contacts.
  using Key = std::tuple<const Component*, const Component*, int>;
  struct Carried {
    double normal = 0;
    Vector3d friction = Vector3d::Zero();
  };
  std::map<Key, Carried> later;
  // The last build's rigid contacts by pair (in a fixed order), one entry
  // per contact.
  using Pair = std::pair<const Component*, const Component*>;
  auto ordered = [](const Component* a, const Component* b) { return a < b ? Pair(a, b) : Pair(b, a); };
  std::map<Pair, std::vector<const RowKey*>> rigidOf;
  for (const RowKey& k : myRowKeys)
    if (later.try_emplace(Key(k.a, k.b, k.vertex)).second && k.rigid) rigidOf[ordered(k.a, k.b)].push_back(&k);
  // A vertex contact carries to the same vertex's contact. Between rigid
  // bodies a contour region's points have no identity across builds
  // (their hull is found afresh), and a vertex may pass between a region
  // and the watched ones: those carry to the nearest contact of the same
  // pair, in either order, so that the pair's impulse is kept whole and
  // near where it acted. (A normal impulse pushes the two apart whichever
  // is A; a friction impulse acts on A, so it turns with the order.) The
  // receiver may be a watched point with a gap, where the velocity
  // correction may then take the impulse back: preferring a touching one
  // farther off instead moved friction away from its normal impulse, whose
  // bound then cut it (the walking machine's reported impulses no longer
  // balanced its momentum).
  auto receiver = [&](const RowKey& m, bool& swapped) -> Carried* {
    swapped = false;
    if (m.vertex >= 0) {
      const auto it = later.find(Key(m.a, m.b, m.vertex));
      if (it != later.end()) return &it->second;
    }
    const auto it = rigidOf.find(ordered(m.a, m.b));
    if (!m.rigid || it == rigidOf.end()) return nullptr;
    const RowKey* best = nullptr;
    for (const RowKey* k : it->second)
      if (!best || (k->position - m.position).squaredNorm() < (best->position - m.position).squaredNorm()) best = k;
    swapped = best->a != m.a;
    return &later[Key(best->a, best->b, best->vertex)];
  };
  for (size_t r = 0; r < onMarked.size(); ++r) {
    const RowKey& m = myMarkedKeys[r];
    bool swapped;
    if (Carried* c = receiver(m, swapped)) {
      if (m.dir.isZero()) c->normal += onMarked[r];
      else c->friction += (swapped ? -onMarked[r] : onMarked[r]) * m.dir;
    }
  }
  onLast.assign(myRowKeys.size(), 0.0);
  for (size_t r = 0; r < myRowKeys.size(); ++r) {
    const RowKey& k = myRowKeys[r];
    const Carried& c = later.at(Key(k.a, k.b, k.vertex));
    onLast[r] = k.dir.isZero() ? c.normal : c.friction.dot(k.dir);
  }
  return true;
}

void CollisionManager::getFrictionConstraints(ConstraintBuilder& D, std::vector<FrictionLimit>& limits) {
  myFrictionContact.clear();
  for (size_t r = 0; r < myRowContact.size(); ++r) {
    ContactPoint& c = myContacts[myRowContact[r]];
    if (!(c.mu > 0)) continue;
    // One direction along the tangential slip (so that sliding friction is
    // exact), the other perpendicular (§8.9.4).
    Vector3d slip = sideVelocity(c.bodyA, c.nodesA, c.position) - sideVelocity(c.bodyB, c.nodesB, c.position);
    slip -= slip.dot(c.normal) * c.normal;
    Vector3d d0 = slip.norm() > 1e-12 ? slip.normalized() : c.normal.unitOrthogonal();
    c.frictionDirs[0] = d0;
    c.frictionDirs[1] = c.normal.cross(d0);
    // stictionCreep regularizes the row as ArtiSynth does: compliance
    // creep / h on the impulse, so a sticking contact slides at creep × its
    // friction force.
    const double creep = c.stictionCreep > 0 && D.stepSize() > 0 ? c.stictionCreep / D.stepSize() : 0.0;
    for (const Vector3d& d : c.frictionDirs) {
      D.beginRow(0, creep);
      addContactEntries(D, c, d);
      limits.push_back({static_cast<int>(r), c.mu});
      myFrictionContact.push_back(myRowContact[r]);
      myRowKeys.push_back(rowKey(c, d));
    }
  }
}

void CollisionManager::setConstraintForces(const double* bilateral, const double* unilateral) {
  // Called after the velocity solve, before position stabilization detects
  // again: the reported contacts are those the step's solve used. A
  // bilateral contact that pulled is left out of the next step (§8.4.1.2).
  for (auto& c : myContacts) c.normalForce = 0, c.frictionForce.setZero();
  mySeparating.clear();
  for (size_t r = 0; r < myBilateralContact.size(); ++r) {
    ContactPoint& c = myContacts[myBilateralContact[r]];
    c.normalForce = bilateral[r];
    if (bilateral[r] < 0) mySeparating.emplace_back(c.collidableA, c.collidableB, c.vertex);
  }
  for (size_t r = 0; r < myRowContact.size(); ++r) myContacts[myRowContact[r]].normalForce = unilateral[r];
  for (auto& c : myContacts) {
    const double area = c.twoWay ? 0.5 * c.vertexArea : c.vertexArea;
    c.pressure = area > 0 ? c.normalForce / area : 0;
  }
  myReported = myContacts;
  keepWarm();
}

void CollisionManager::setFrictionForces(const double* friction) {
  for (size_t r = 0; r < myFrictionContact.size(); ++r) {
    ContactPoint& c = myReported[myFrictionContact[r]];
    c.frictionForce += friction[r] * c.frictionDirs[r % 2];
  }
  keepWarm();
}

double CollisionManager::getMaxHardError() {
  if (!carryContacts()) updateContacts(0);
  double e = 0;
  for (const auto& c : myContacts)
    if (!isSoft(*c.behavior)) e = std::max(e, c.depth - penetrationTol(*c.behavior));
  return e;
}

}  // namespace sinew
