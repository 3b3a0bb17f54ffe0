// SliderJoint (guide §3.4.2): C translates along D's z axis; coordinate z
// (property `z`, with `zRange` and `zLocked`). SolidJoint (§3.4.12): no
// relative motion at all.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class SliderJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int Z_IDX = 0;
  explicit SliderJoint(std::string name = {});
  SliderJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  SliderJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis, std::string name = {});
  double getZ() const { return getCoordinate(Z_IDX); }
  void setZ(double z) { setCoordinate(Z_IDX, z); }
  void setZRange(double min, double max) { setCoordinateRange(Z_IDX, min, max); }
  bool isZLocked() const { return isLocked(Z_IDX); }
  void setZLocked(bool l) { setLocked(Z_IDX, l); }
};

class SolidJoint : public JointBase {
 public:
  explicit SolidJoint(std::string name = {});
  SolidJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
};

}  // namespace sinew
