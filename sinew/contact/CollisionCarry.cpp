// Position stabilization's contacts without a second detection (guide
// §8.4, contact constraints from detection, and §8.9, the penetration
// tolerance; ArtiSynth too detects once a step). Stabilization pushes
// back only what penetrates beyond the tolerance. If neither body of a
// pair has moved by more than half the least penetration tolerance since
// the velocity solve's detection, then any contact of that pair that the
// detection did not find — it did not penetrate then — penetrates by no
// more than the tolerance now, whatever its kind (a vertex, an edge on an
// edge, a second face of a concave body): there is nothing to push back
// that a fresh detection of the pair would find and its found contacts do
// not hold. Stabilization then takes the pair's found contacts, each
// point carried by its bodies' motion since and its depth changed by
// their relative motion along its normal, instead of detecting it afresh;
// a pair with a body that moved further is detected afresh (the broad
// phase and the narrow phase for those pairs alone), and so is a pair
// whose detection left out a point that penetrated (constraint
// reduction, §8.6, or a hull's inner point: a faceted ball's vertices
// inside its ring of contacts), which may sink further than the contacts
// kept. That holds a resting or slowly moving pile with no detection, and
// a pile with a few bodies still tumbling with the detection of their
// pairs alone. Nothing is carried with an FEM collidable anywhere (a
// deforming surface) or a compliant pair in reach (not corrected by
// stabilization anyway, and its rows act from penetration only). The
// base lives within one step (Constrainer::forgetStep).
#include <algorithm>

#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/model/Property.h"

namespace sinew {

void CollisionManager::recordCarryBase(double h, const std::vector<Collider>& all, double leastTol, bool softPair) {
  myCarry.valid = false;
  if (!(h > 0) || softPair) return;
  if (!std::all_of(all.begin(), all.end(), [](const Collider& c) { return c.plane || (c.rigid && !c.mesh); }))
    return;
  myCarry.bodies.assign(all.size(), CarryBase::Body());
  for (size_t i = 0; i < all.size(); ++i) {
    CarryBase::Body& b = myCarry.bodies[i];
    b.comp = all[i].comp;
    if (!all[i].rigid) continue;
    const Geometry* g = geometryOf(all[i]);
    if (!g) continue;  // no collision mesh: it collides with nothing
    // Each body of a pair may take half the tolerance: together they close
    // no more than the tolerance.
    b.body = all[i].rigid;
    b.pose = all[i].rigid->getPose();
    b.radius = g->radius;
    b.allowed = 0.5 * leastTol;
  }
  myCarry.contacts = myContacts;
  myCarry.epoch = propertyEpoch();
  myCarry.valid = true;
}

bool CollisionManager::carryContacts() {
  if (!myCarry.valid || myCarry.epoch != propertyEpoch()) return false;
  // Each body's motion since the detection, X = T_now T_then⁻¹, and
  // whether it moved further than allowed, by a bound on how far any
  // vertex of its mesh moved, |Δp| + ‖ΔR‖ r.
  const size_t n = myCarry.bodies.size();
  std::vector<char> moved(n, 0);
  std::vector<RigidTransform3d> motions(n);  // per collidable, as the bodies
  bool anyMoved = false;
  for (size_t i = 0; i < n; ++i) {
    const CarryBase::Body& b = myCarry.bodies[i];
    if (!b.body) continue;
    const RigidTransform3d& now = b.body->getPose();
    const double travel = (now.p - b.pose.p).norm() + (now.R - b.pose.R).norm() * b.radius;
    moved[i] = !(travel <= b.allowed);
    anyMoved = anyMoved || moved[i];
    motions[i] = now * b.pose.inverse();
  }
  const auto carried = [&](const CarryBase::Pair& p) { return !moved[p.a] && !moved[p.b] && !p.reduced; };
  const bool every = !anyMoved && std::all_of(myCarry.pairs.begin(), myCarry.pairs.end(), carried);
  // The same collidables as the base's (a body made collidable or not
  // since, which leaves the property epoch alone, detects afresh).
  const std::vector<Collider> all = collidables();
  if (all.size() != n) return false;
  for (size_t i = 0; i < n; ++i)
    if (all[i].comp != myCarry.bodies[i].comp) return false;
  // The motion of a body of pair p (one of its two collidables), or null
  // for none (a collision plane's side).
  auto motion = [&](const RigidBody* body, const CarryBase::Pair& p) -> const RigidTransform3d* {
    for (int i : {p.a, p.b})
      if (body && myCarry.bodies[i].body == body) return &motions[i];
    return nullptr;
  };
  myContacts.clear();
  for (const CarryBase::Pair& p : myCarry.pairs) {
    if (!carried(p)) continue;
    for (size_t k = p.first; k < p.end; ++k) {
      ContactPoint& c = myContacts.emplace_back(myCarry.contacts[k]);
      const RigidTransform3d *XA = motion(c.bodyA, p), *XB = motion(c.bodyB, p);
      const Vector3d pA = XA ? XA->transformPoint(c.position) : c.position;
      const Vector3d pB = XB ? XB->transformPoint(c.position) : c.position;
      // The normal turns with B, whose surface it belongs to (a region's,
      // fitted to both, too), and runs from B toward A: the point of B's
      // surface at depth d above A's vertex moves to pB + d n', so A moving
      // along n' lessens the depth.
      if (XB) c.normal = XB->R * c.normal;
      c.depth -= (pA - pB).dot(c.normal);
      // A vertex contact is A's vertex; a region's point lies between the
      // bodies (on a plane's side, with the body).
      c.position = c.vertex >= 0 || !c.bodyB ? pA : !c.bodyA ? pB : Vector3d(0.5 * (pA + pB));
    }
  }
  if (every) return true;
  // The other pairs afresh: those with a body that moved too far (any
  // pair, found by the broad phase), and those whose contacts were reduced.
  std::vector<std::pair<int, int>> reduced;
  for (const CarryBase::Pair& p : myCarry.pairs)
    if (p.reduced) reduced.emplace_back(std::min(p.a, p.b), std::max(p.a, p.b));
  std::sort(reduced.begin(), reduced.end());
  ++myDetections;
  ++myPartialDetections;
  // The penetration regions stay the velocity solve's detection's, as
  // with every pair carried.
  const size_t regions = myRegions.size();
  detectPairs(0, all, [&](size_t i, size_t j) {
    return moved[i] || moved[j] ||
           std::binary_search(reduced.begin(), reduced.end(), std::make_pair(static_cast<int>(i), static_cast<int>(j)));
  }, false);
  myRegions.resize(regions);
  return true;
}

}  // namespace sinew
