// HasSlaveObjects (guide §6.3): a component whose geometry is slaved to
// dynamic components without being dynamic itself — an FEM model's meshes,
// whose vertices are fixed combinations of node positions. The owning
// MechSystemBase collects such components when it compiles and calls
// updateSlavePos() whenever positions change outside the component's
// control: after initialize, each step, a static solve, a state restore and
// transformGeometry. The update must be cheap (it runs every step).
#pragma once

namespace sinew {

class HasSlaveObjects {
 public:
  virtual ~HasSlaveObjects() = default;
  /// Recomputes the slaved positions from the current master positions.
  virtual void updateSlavePos() = 0;
};

}  // namespace sinew
