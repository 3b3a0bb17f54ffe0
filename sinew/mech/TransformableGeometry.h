// Components whose geometry can be moved by a rigid transform of the world
// (guide §4.7, TransformableGeometry; rigid transforms only for now).
// MechModel::transformGeometry(X) calls transformGeometry on every such
// component below it: points and frames move (with their velocities turned
// along), and world-fixed frames of springs, joints and constraints move
// with them, so that the transformed model is the same model seen from a
// different world frame. Body-relative data (meshes, T_CA, marker
// locations, rest lengths) is unchanged.
#pragma once

#include "sinew/math/Spatial.h"

namespace sinew {

class TransformableGeometry {
 public:
  virtual ~TransformableGeometry() = default;
  /// Applies X (world to world) to this component's own geometry.
  virtual void transformGeometry(const RigidTransform3d& X) = 0;
};

}  // namespace sinew
