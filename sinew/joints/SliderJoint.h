// SliderJoint (guide §3.4.2): C translates along D's z axis; coordinate z
// (property `z`), with `zRange` and `zLocked`.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class SliderJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit SliderJoint(std::string name = {});
  SliderJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
  double getZ() const { return getCoordinate(0); }
  void setZ(double z) { setCoordinate(0, z); }
  Eigen::Vector2d getZRange() const { return {getMinCoordinate(0), getMaxCoordinate(0)}; }
  void setZRange(double min, double max) { setCoordinateRange(0, min, max); }
  bool isZLocked() const { return isLocked(0); }
  void setZLocked(bool l) { setLocked(0, l); }
};

/// SphericalJoint (guide §3.4.7): C's origin stays at D's; any rotation.
class SphericalJoint : public JointBase {
 public:
  explicit SphericalJoint(std::string name = {});
  SphericalJoint(Frame& bodyA, Frame* bodyB, const Vector3d& originD, std::string name = {});
};

/// SolidJoint (guide §3.4.11): no relative motion at all.
class SolidJoint : public JointBase {
 public:
  explicit SolidJoint(std::string name = {});
  SolidJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
};

}  // namespace sinew
