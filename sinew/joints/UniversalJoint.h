// UniversalJoint (guide §3.4.5): C's origin stays at D's; C rolls by θ
// about D's z axis, then pitches by φ about the rotated y' axis (coordinates
// `roll`, `pitch`, degrees). SkewedUniversalJoint (§3.4.6): the pitch axis
// is y' turned by the skew angle α about x'.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class UniversalJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int ROLL_IDX = 0, PITCH_IDX = 1;
  explicit UniversalJoint(std::string name = {});
  UniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  double getRoll() const { return getCoordinateDisplay(ROLL_IDX); }
  void setRoll(double deg) { setCoordinateDisplay(ROLL_IDX, deg); }
  double getPitch() const { return getCoordinateDisplay(PITCH_IDX); }
  void setPitch(double deg) { setCoordinateDisplay(PITCH_IDX, deg); }

 protected:
  UniversalJoint(std::string name, double skewRadians);
};

class SkewedUniversalJoint : public UniversalJoint {
  SINEW_DECLARE_PROPERTIES
 public:
  /// `skewDeg`: the skew angle α in degrees.
  explicit SkewedUniversalJoint(double skewDeg, std::string name = {});
  SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, double skewDeg,
                       std::string name = {});
  SkewedUniversalJoint(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB, const RigidTransform3d& TDB,
                       double skewDeg, std::string name = {});
  /// D at originD with its z along the roll axis; the skew angle is the
  /// angle between the pitch axis and the normal to the roll axis in their
  /// common plane (the axes must not be parallel).
  SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& rollAxis,
                       const Vector3d& pitchAxis, std::string name = {});
  double getSkewAngle() const;  ///< degrees

 private:
  struct Axes {
    RigidTransform3d TDW;
    double skewDeg;
  };
  static Axes axesFrame(const Vector3d& originD, const Vector3d& rollAxis, const Vector3d& pitchAxis,
                        const std::string& name);
  SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Axes& axes, std::string name);
};

}  // namespace sinew
