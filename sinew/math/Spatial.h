// Spatial algebra on Eigen: rotations, rigid transforms, twists, wrenches and
// spatial inertias (guide §2.2–2.4 and Appendix A).
//
// Conventions follow the guide: a RigidTransform3d T_AB maps coordinates in
// frame A to frame B (p_B = R·p_A + p); a Twist (v, ω) and a Wrench (f, m) are
// 6-vectors with the linear part first, expressed in world coordinates unless
// stated otherwise; angles in AxisAngle are radians (the named degree-valued
// properties convert at the property layer).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

namespace sinew {

/// Degrees per radian and radians per degree, for the degree-valued
/// properties and accessors (maspack's RTOD and DTOR).
inline constexpr double RTOD = 180.0 / M_PI;
inline constexpr double DTOR = M_PI / 180.0;

using Vector3d = Eigen::Vector3d;
using Point3d = Eigen::Vector3d;
using Matrix3d = Eigen::Matrix3d;
using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Vector6d = Eigen::Matrix<double, 6, 1>;
using VectorNd = Eigen::VectorXd;
using MatrixNd = Eigen::MatrixXd;
using Quaternion = Eigen::Quaterniond;
using RotationMatrix3d = Eigen::Matrix3d;

/// Cross-product matrix [v] with [v]·w = v × w (seed 000 eq. 1.13).
inline Matrix3d skew(const Vector3d& v) {
  Matrix3d m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

/// Rotation axis (unit) and angle in radians.
struct AxisAngle {
  Vector3d axis{1, 0, 0};
  double angle = 0;
  AxisAngle() = default;
  AxisAngle(const Vector3d& u, double ang) : axis(u.normalized()), angle(ang) {}
  explicit AxisAngle(const Matrix3d& R) {
    Eigen::AngleAxisd aa(R);
    axis = aa.axis();
    angle = aa.angle();
  }
  Matrix3d toMatrix() const { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }
};

/// The rotation by `angle` (radians) about coordinate axis 0, 1 or 2.
inline Matrix3d axisRotation(int axis, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  Matrix3d R = Matrix3d::Zero();
  R(axis, axis) = 1;
  R(i, i) = R(j, j) = c;
  R(j, i) = s;
  R(i, j) = -s;
  return R;
}

/// A rigid transform: rotation R and translation p (guide §2.2).
struct RigidTransform3d {
  Matrix3d R = Matrix3d::Identity();
  Vector3d p = Vector3d::Zero();

  RigidTransform3d() = default;
  RigidTransform3d(const Vector3d& pos, const Matrix3d& rot = Matrix3d::Identity())
      : R(rot), p(pos) {}
  RigidTransform3d(double x, double y, double z) : p(x, y, z) {}
  RigidTransform3d(double x, double y, double z, double ax, double ay, double az, double ang)
      : R(AxisAngle(Vector3d(ax, ay, az), ang).toMatrix()), p(x, y, z) {}

  static RigidTransform3d identity() { return {}; }
  /// T = this · other (apply other first). Always inlined, as is
  /// inverseTimes: a joint's evaluation composes four transforms, and an
  /// outlined call returns each through memory.
  [[gnu::always_inline]] RigidTransform3d operator*(const RigidTransform3d& o) const { return {R * o.p + p, R * o.R}; }
  RigidTransform3d inverse() const { return {-(R.transpose() * p), R.transpose()}; }
  /// this⁻¹ · other, without forming the inverse. Written out as dot
  /// products of columns: Eigen's transposed 3×3 product takes 1.6 times
  /// as long, and joints evaluate this at every look-ahead.
  [[gnu::always_inline]] RigidTransform3d inverseTimes(const RigidTransform3d& o) const {
    RigidTransform3d t;
    const Vector3d d = o.p - p;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) t.R(i, j) = R(0, i) * o.R(0, j) + R(1, i) * o.R(1, j) + R(2, i) * o.R(2, j);
      t.p[j] = R(0, j) * d[0] + R(1, j) * d[1] + R(2, j) * d[2];
    }
    return t;
  }
  Vector3d transformPoint(const Vector3d& x) const { return R * x + p; }
  Vector3d transformVector(const Vector3d& v) const { return R * v; }
  Vector3d inverseTransformPoint(const Vector3d& x) const { return R.transpose() * (x - p); }
};

/// Twist (v, ω) and wrench (f, m) as 6-vectors with accessors.
inline Eigen::Ref<Vector3d> linear(Vector6d& x) { return x.head<3>(); }
inline Eigen::Ref<Vector3d> angular(Vector6d& x) { return x.tail<3>(); }
using Twist = Vector6d;
using Wrench = Vector6d;

/// The 3×6 map from a frame's world twist to the velocity of a point at
/// world offset r from the frame origin: v_p = v + ω × r = [I, −[r]]·twist.
inline Eigen::Matrix<double, 3, 6> pointVelocityJacobian(const Vector3d& r) {
  Eigen::Matrix<double, 3, 6> J;
  J << Matrix3d::Identity(), -skew(r);
  return J;
}

/// The 6×6 map from a frame's world twist to the twist of a second frame
/// rigidly attached at world offset r: (v + ω × r, ω).
inline Matrix6d frameVelocityJacobian(const Vector3d& r) {
  Matrix6d J = Matrix6d::Identity();
  J.block<3, 3>(0, 3) = -skew(r);
  return J;
}

/// The rotation exp([θ]) by |θ| about θ (Rodrigues), accurate to round-off
/// at every angle; not re-orthonormalized (see rotateByWorldVector).
Matrix3d rotationExp(const Vector3d& theta);

/// Advance a rotation by a world-frame angular displacement θ = ω·h, using
/// the exact exponential map, so that R stays orthonormal.
Matrix3d rotateByWorldVector(const Matrix3d& R, const Vector3d& theta);

/// Spatial inertia of a rigid body (guide §2.4, §3.2.5): mass m, centre of
/// mass c in body coordinates, rotational inertia J about the centre of mass
/// in body coordinates.
class SpatialInertia {
 public:
  SpatialInertia() = default;
  SpatialInertia(double m, const Matrix3d& Jc, const Vector3d& com = Vector3d::Zero())
      : myMass(m), myJ(Jc), myCom(com) {}
  /// Principal moments about the COM (guide's setInertia(mass, Jxx, Jyy, Jzz)).
  SpatialInertia(double m, double Jxx, double Jyy, double Jzz)
      : myMass(m), myJ(Vector3d(Jxx, Jyy, Jzz).asDiagonal()) {}

  static SpatialInertia createBoxInertia(double m, double wx, double wy, double wz);
  static SpatialInertia createSphereInertia(double m, double r);
  static SpatialInertia createCylinderInertia(double m, double r, double h);

  double getMass() const { return myMass; }
  const Matrix3d& getRotationalInertia() const { return myJ; }
  const Vector3d& getCenterOfMass() const { return myCom; }
  void setMass(double m) { myMass = m; }
  void setRotationalInertia(const Matrix3d& J) { myJ = J; }
  void setCenterOfMass(const Vector3d& c) { myCom = c; }
  /// Adds another inertia expressed in the same body frame.
  void add(const SpatialInertia& o);
  /// Scales mass and rotational inertia by s.
  void scale(double s) { myMass *= s; myJ *= s; }

  /// 6×6 mass matrix at the frame origin, in world axes, for orientation R:
  /// [m I, −m[r]; m[r], I_w − m[r][r]] with r = R·c, I_w = R J Rᵀ.
  Matrix6d worldMatrix(const Matrix3d& R) const;
  /// Fictitious (Coriolis/gyroscopic) wrench −Ṁu at the frame origin for world
  /// twist (v, ω): (−m ω×(ω×r), −ω×I_w ω − m r×(ω×(ω×r))).
  Wrench coriolisForce(const Matrix3d& R, const Twist& tw) const;
  /// Kinetic energy ½ uᵀ M u.
  double kineticEnergy(const Matrix3d& R, const Twist& tw) const;

 private:
  double myMass = 0;
  Matrix3d myJ = Matrix3d::Zero();
  Vector3d myCom = Vector3d::Zero();
};

}  // namespace sinew
