// DistanceGridComp (guide §4.6): the settings of a rigid body's signed
// distance grid, kept as the body's child component "distanceGrid"
// (RigidBody::getDistanceGridComp(), created when first asked for). The
// SIGNED_DISTANCE collider (§8.4.2) builds the body's grid from its
// collision meshes with these settings, in place of the collision
// manager's defaults (distanceGridMaxResolution, distanceGridFitWithOBB),
// and builds it again when one of them changes
// (CollisionManager::getDistanceGrid). Drawing the grid and its isosurface
// (renderGrid, renderRanges, renderSurface) comes with the viewer.
#pragma once

#include <Eigen/Core>

#include "sinew/model/Component.h"

namespace sinew {

class DistanceGridComp : public Component {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit DistanceGridComp(std::string name = "distanceGrid") : Component(std::move(name)) {}

  /// Cells along the grid's x, y and z axes. A value ≤ 0 sets all three to
  /// 0 (the default), and maxResolution decides instead. Given values are
  /// rounded up to even numbers (for the quadratic cells of §4.6).
  const Eigen::Vector3i& getResolution() const { return myResolution; }
  void setResolution(const Eigen::Vector3i& res);
  /// Cells along the longest side of the grid's box, the others chosen for
  /// cubic cells, when the resolution is not given; default 20, at least 2.
  int getMaxResolution() const { return myMaxResolution; }
  void setMaxResolution(int r);
  /// Whether the grid's axes follow the principal axes of the mesh (an
  /// oriented bounding box); default false: the body's axes.
  bool getFitWithOBB() const { return myFitWithOBB; }
  void setFitWithOBB(bool fit);
  /// How far the grid's box extends past the mesh's, as a fraction of its
  /// widths on each side; default 0.1.
  double getMarginFraction() const { return myMarginFraction; }
  void setMarginFraction(double f);

  /// Counts the changes of the settings: a grid built for another count is stale.
  long getVersion() const { return myVersion; }

 private:
  Eigen::Vector3i myResolution = Eigen::Vector3i::Zero();
  int myMaxResolution = 20;
  bool myFitWithOBB = false;
  double myMarginFraction = 0.1;
  long myVersion = 0;
};

}  // namespace sinew
