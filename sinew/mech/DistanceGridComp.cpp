#include "sinew/mech/DistanceGridComp.h"

#include <cmath>

#include "sinew/Error.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

SINEW_PROPERTIES(DistanceGridComp, Component) {
  list.add<DistanceGridComp>("resolution", "cells along x, y, z (0 0 0: from maxResolution)",
                             &DistanceGridComp::getResolution, &DistanceGridComp::setResolution);
  list.add<DistanceGridComp>("maxResolution", "cells along the longest side when resolution is 0",
                             &DistanceGridComp::getMaxResolution, &DistanceGridComp::setMaxResolution)
      .setDefault(20);
  list.add<DistanceGridComp>("fitWithOBB", "grid axes along the mesh's principal axes", &DistanceGridComp::getFitWithOBB,
                             &DistanceGridComp::setFitWithOBB)
      .setDefault(false);
  list.add<DistanceGridComp>("marginFraction", "margin around the mesh, as a fraction of its widths",
                             &DistanceGridComp::getMarginFraction, &DistanceGridComp::setMarginFraction)
      .setDefault(0.1);
}

void DistanceGridComp::setResolution(const Eigen::Vector3i& res) {
  const Eigen::Vector3i r = (res.array() > 0).all() ? res : Eigen::Vector3i::Zero();
  if ((r.array() == 1).any()) throw ModelError("distance grid resolution must be at least 2 along each axis", describe());
  if (r != myResolution) ++myVersion;
  myResolution = r;
}

void DistanceGridComp::setMaxResolution(int r) {
  if (r < 2) throw ModelError("maxResolution must be at least 2", describe());
  if (r != myMaxResolution) ++myVersion;
  myMaxResolution = r;
}

void DistanceGridComp::setFitWithOBB(bool fit) {
  if (fit != myFitWithOBB) ++myVersion;
  myFitWithOBB = fit;
}

void DistanceGridComp::setMarginFraction(double f) {
  if (!(f >= 0) || !std::isfinite(f)) throw ModelError("marginFraction must be non-negative and finite", describe());
  if (f != myMarginFraction) ++myVersion;
  myMarginFraction = f;
}

// ------------------------------------------------------------ the body's

DistanceGridComp& RigidBody::getDistanceGridComp() {
  if (DistanceGridComp* c = findDistanceGridComp()) return *c;
  return static_cast<DistanceGridComp&>(addComponent(std::make_unique<DistanceGridComp>()));
}

DistanceGridComp* RigidBody::findDistanceGridComp() const {
  return dynamic_cast<DistanceGridComp*>(get("distanceGrid"));
}

}  // namespace sinew
