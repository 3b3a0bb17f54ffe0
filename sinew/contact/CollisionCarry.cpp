// Position stabilization's contacts without a second detection (guide
// §8.4, contact constraints from detection, and §8.9, the penetration
// tolerance; ArtiSynth too detects once a step). Stabilization pushes
// back only what penetrates beyond the tolerance. If no body has moved by
// more than half the least penetration tolerance since the velocity
// solve's detection, then any contact that detection did not find — it
// did not penetrate then — penetrates by no more than the tolerance now,
// whatever its kind (a vertex, an edge on an edge, a second face of a
// concave body): there is nothing to push back that a fresh detection
// would find and the found contacts do not hold. Stabilization then takes
// the found contacts, each point carried by its bodies' motion since and
// its depth changed by their relative motion along its normal, instead of
// detecting afresh. That holds a resting or slowly moving pile; a body
// that moved further makes the pass detect, and so does any pass after a
// detection of its own. Not carried: a detection that left out a point
// that penetrated (constraint reduction, §8.6, or a hull's inner point: a
// faceted ball's vertices inside its ring of contacts), which may sink
// further than the contacts kept; an FEM collidable anywhere
// (a deforming surface), a compliant pair in reach (not corrected by
// stabilization anyway, and its rows act from penetration only). The base
// lives within one step (Constrainer::forgetStep).
#include <algorithm>
#include <unordered_map>

#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/model/Property.h"

namespace sinew {

void CollisionManager::recordCarryBase(double h, const std::vector<Collider>& all, double leastTol, bool softPair) {
  myCarry.valid = false;
  if (!(h > 0) || softPair || myCarry.reduced) return;
  if (!std::all_of(all.begin(), all.end(), [](const Collider& c) { return c.plane || (c.rigid && !c.mesh); }))
    return;
  myCarry.bodies.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].rigid) continue;
    const Geometry* g = geometryOf(all[i]);
    if (!g) continue;  // no collision mesh: it collides with nothing
    // Each body of a pair may take half the tolerance: together they close
    // no more than the tolerance.
    myCarry.bodies.push_back({all[i].rigid, all[i].rigid->getPose(), g->radius, 0.5 * leastTol});
  }
  myCarry.contacts = myContacts;
  myCarry.epoch = propertyEpoch();
  myCarry.valid = true;
}

bool CollisionManager::carryContacts() {
  if (!myCarry.valid || myCarry.epoch != propertyEpoch()) return false;
  // Each body's motion since the detection: X = T_now T_then⁻¹, and a
  // bound on how far any vertex of its mesh moved, |Δp| + ‖ΔR‖ r.
  std::unordered_map<const RigidBody*, RigidTransform3d> moved;
  moved.reserve(myCarry.bodies.size());
  for (const CarryBase::Body& b : myCarry.bodies) {
    const RigidTransform3d& now = b.body->getPose();
    const double travel = (now.p - b.pose.p).norm() + (now.R - b.pose.R).norm() * b.radius;
    if (!(travel <= b.allowed)) return false;
    moved.emplace(b.body, now * b.pose.inverse());
  }
  // A body's motion, or null for one that does not move (a collision plane).
  auto motion = [&](const RigidBody* body) -> const RigidTransform3d* {
    const auto it = body ? moved.find(body) : moved.end();
    return it == moved.end() ? nullptr : &it->second;
  };
  myContacts = myCarry.contacts;
  for (ContactPoint& c : myContacts) {
    const RigidTransform3d *XA = motion(c.bodyA), *XB = motion(c.bodyB);
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
  return true;
}

}  // namespace sinew
