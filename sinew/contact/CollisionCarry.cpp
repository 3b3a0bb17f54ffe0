// Position stabilization's contacts without a second detection (guide
// §8.4, contact constraints from detection, and §8.9, the penetration
// tolerance; ArtiSynth too detects once a step). The velocity solve's
// detection watches every vertex within the pair's penetration tolerance
// plus the distance the pair's speeds can close in the step (speculative
// contact), so while no body has moved by more than its share of that
// margin since, no contact it did not find can have arisen: stabilization
// then takes those contacts, each point carried by its bodies' motion
// since and its depth changed by their relative motion along its normal,
// instead of detecting afresh. A body that moved further (a collision
// that changed its speed by more than the tolerance allows for) makes the
// pass detect, and so does any pass after a detection of its own. Rigid
// bodies and collision planes only: an FEM surface deforms in ways its
// nodes' speeds bound too loosely to be worth carrying.
#include <algorithm>
#include <unordered_map>

#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/RigidBody.h"
#include "sinew/model/Property.h"

namespace sinew {

void CollisionManager::recordCarryBase(double h, const std::vector<Collider>& all, const std::vector<double>& speed,
                                       double leastTol, bool softPair) {
  myCarry.valid = false;
  if (!(h > 0) || softPair) return;
  if (!std::all_of(all.begin(), all.end(), [](const Collider& c) { return c.plane || (c.rigid && !c.mesh); }))
    return;
  myCarry.bodies.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].rigid) continue;
    const Geometry* g = geometryOf(all[i]);
    // Each body of a pair may take half the tolerance: together they close
    // no more than the margin the pair was watched with.
    myCarry.bodies.push_back({all[i].rigid, all[i].rigid->getPose(), g ? g->radius : 0.0, h * speed[i] + 0.5 * leastTol});
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
  auto carry = [&](const RigidBody* body, const Vector3d& p) {
    if (!body) return p;  // a collision plane, which does not move
    const auto it = moved.find(body);
    return it == moved.end() ? p : it->second.transformPoint(p);
  };
  myContacts = myCarry.contacts;
  for (ContactPoint& c : myContacts) {
    const Vector3d pA = carry(c.bodyA, c.position), pB = carry(c.bodyB, c.position);
    // The normal runs from B toward A: A moving along it lessens the depth.
    c.depth -= (pA - pB).dot(c.normal);
    if (c.bodyB) {
      const auto it = moved.find(c.bodyB);
      if (it != moved.end()) c.normal = it->second.R * c.normal;
    }
    // A vertex contact is A's vertex; a region's point lies between the
    // bodies (on a plane's side, with the body).
    c.position = c.vertex >= 0 || !c.bodyB ? pA : !c.bodyA ? pB : Vector3d(0.5 * (pA + pB));
  }
  return true;
}

}  // namespace sinew
