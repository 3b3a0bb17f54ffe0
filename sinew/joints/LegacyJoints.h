// The legacy joints of guide §3.4.15, kept for models written against
// ArtiSynth's older classes; each is identical to its modern counterpart
// but for the sign or frame of its coordinates:
//   RevoluteJoint      a HingeJoint whose θ turns clockwise about D's z;
//   RollPitchJoint     a UniversalJoint whose roll θ and pitch φ describe
//                      R_DC = R_z(θ) R_y(φ) (D relative to C) instead of R_CD;
//   SphericalRpyJoint  a GimbalJoint whose roll, pitch and yaw describe
//                      R_DC = R_z(θ) R_y(φ) R_x(ψ) instead of R_CD.
// Their rendering differences (line shafts, point balls) are the viewer's.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class RevoluteJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int THETA_IDX = 0;
  explicit RevoluteJoint(std::string name = {});
  RevoluteJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  /// D at world point originD with its z axis along `zaxis` (non-zero).
  RevoluteJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis,
                std::string name = {});
  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }  ///< degrees, clockwise about z
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
};

class RollPitchJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int ROLL_IDX = 0, PITCH_IDX = 1;
  explicit RollPitchJoint(std::string name = {});
  RollPitchJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  double getRoll() const { return getCoordinateDisplay(ROLL_IDX); }  ///< degrees
  void setRoll(double deg) { setCoordinateDisplay(ROLL_IDX, deg); }
  double getPitch() const { return getCoordinateDisplay(PITCH_IDX); }  ///< degrees
  void setPitch(double deg) { setCoordinateDisplay(PITCH_IDX, deg); }
};

class SphericalRpyJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int ROLL_IDX = 0, PITCH_IDX = 1, YAW_IDX = 2;
  explicit SphericalRpyJoint(std::string name = {});
  SphericalRpyJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  double getRoll() const { return getCoordinateDisplay(ROLL_IDX); }  ///< degrees
  void setRoll(double deg) { setCoordinateDisplay(ROLL_IDX, deg); }
  double getPitch() const { return getCoordinateDisplay(PITCH_IDX); }  ///< degrees
  void setPitch(double deg) { setCoordinateDisplay(PITCH_IDX, deg); }
  double getYaw() const { return getCoordinateDisplay(YAW_IDX); }  ///< degrees
  void setYaw(double deg) { setCoordinateDisplay(YAW_IDX, deg); }
};

}  // namespace sinew
