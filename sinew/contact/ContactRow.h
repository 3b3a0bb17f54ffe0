// Internal to sinew/contact: the entries of a contact's constraint row
// d·(v_A − v_B) at the contact point — (d, r × d) on a rigid side with arm
// r to the point, w·d on each weighted node of an FEM side, the B side
// negated. The one definition that the solver's rows (CollisionManager)
// and constraint reduction (CollisionReduction.cpp) both use.
#pragma once

#include <Eigen/Core>

#include "sinew/contact/CollisionManager.h"
#include "sinew/fem/FemNode3d.h"
#include "sinew/mech/RigidBody.h"

namespace sinew::contact_detail {

/// Calls f(component, g) for each component the row touches, with g its
/// 1×6 (rigid body) or 1×3 (node) entries.
template <class F>
void forEachRowEntry(const ContactPoint& c, const Vector3d& d, F&& f) {
  auto side = [&](const RigidBody* body, const std::vector<std::pair<FemNode3d*, double>>& nodes, const Vector3d& dir) {
    if (body) {
      Eigen::Matrix<double, 1, 6> g;
      g << dir.transpose(), (c.position - body->getPosition()).cross(dir).transpose();
      f(static_cast<const DynamicComponent&>(*body), g);
      return;
    }
    for (const auto& [node, w] : nodes)
      f(static_cast<const DynamicComponent&>(*node), Eigen::Matrix<double, 1, 3>(w * dir.transpose()));
  };
  side(c.bodyA, c.nodesA, d);
  side(c.bodyB, c.nodesB, -d);
}

}  // namespace sinew::contact_detail
