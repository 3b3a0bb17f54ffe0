// Couplings that hold C's origin at D's and restrict only rotation (guide
// §3.4.5–3.4.8): the spherical joint's (no coordinates, optional tilt or
// total-rotation limit), the gimbal's (three Euler angles in a chosen axis
// order, roll-pitch-yaw by default) and the universal joint's (roll and
// pitch, the pitch axis optionally skewed by α). The gimbal's and the
// universal joint's can take their angles from R_DC instead of R_CD, for
// the legacy SphericalRpyJoint and RollPitchJoint (§3.4.15).
#pragma once

#include "sinew/joints/RigidBodyCoupling.h"

namespace sinew {

class SphericalCoupling final : public RigidBodyCoupling {
 public:
  enum class Limit { None, Tilt, Rotation };
  SphericalCoupling();
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd* coords) const override;
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                         const Twist& velGD, bool updateEngaged) override;
  /// Every rotation about C's origin.
  int getFixedMotionSubspace(Matrix6d& S) const override;
  bool hasOtherLimits() const override { return limit != Limit::None; }
  int bilateralErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) const override;
  Limit limit = Limit::None;
  double maxTilt = M_PI;                          ///< radians
  Vector3d maxRotation = Vector3d::Constant(M_PI);  ///< radians, per axis
  /// Angle between the z axes of C and D.
  static double tilt(const Matrix3d& RCD);

 protected:
  void initializeConstraints() override;
};

/// Tait–Bryan angle orders for the gimbal: the letters name the axes of
/// the first, second and third rotations (each about the rotated axes).
enum class EulerOrder { ZYX, XYZ, YZX, ZXY, XZY, YXZ };

class GimbalCoupling : public RigidBodyCoupling {
 public:
  /// `reversed`: the angles describe R_DC instead of R_CD (the legacy
  /// SphericalRpyJoint, §3.4.15).
  explicit GimbalCoupling(EulerOrder order = EulerOrder::ZYX, bool reversed = false);
  EulerOrder getOrder() const { return myOrder; }
  void setOrder(EulerOrder order);
  void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const override;
  void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const override;
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd* coords) const override;
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                         const Twist& velGD, bool updateEngaged) override;
  /// Every rotation about C's origin.
  int getFixedMotionSubspace(Matrix6d& S) const override;

 protected:
  void initializeConstraints() override;

 private:
  /// R_i(a) R_j(b) R_k(c) for the angles q.
  Matrix3d anglesRotation(const Eigen::VectorXd& q) const;
  EulerOrder myOrder;
  int myAxes[3];
  bool myReversed;
};

class UniversalCoupling : public RigidBodyCoupling {
 public:
  /// `skew` α (radians): the pitch axis is y' turned by α about x'.
  /// `reversed`: the angles describe R_DC instead of R_CD (the legacy
  /// RollPitchJoint, §3.4.15).
  explicit UniversalCoupling(double skew = 0, bool reversed = false);
  double getSkewAngle() const { return mySkew; }
  void coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& coords) const override;
  void TCDToCoordinates(Eigen::VectorXd& coords, const RigidTransform3d& TCD) const override;
  void projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                            Eigen::VectorXd* coords) const override;
  void updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d& TCD, const Twist& errC,
                         const Twist& velGD, bool updateEngaged) override;

 protected:
  void initializeConstraints() override;

 private:
  /// The angles' rotation R_z(θ) R_x(α) R_y(φ) R_x(−α).
  Matrix3d anglesRotation(const Eigen::VectorXd& q) const;
  /// In D: the roll and pitch axes (ω_D = θ̇ a₀ + φ̇ a₁) and the forbidden
  /// axis normal to both, at the angles q.
  Matrix3d axesD(const Eigen::VectorXd& q) const;
  double mySkew;
  bool myReversed;
};

}  // namespace sinew
