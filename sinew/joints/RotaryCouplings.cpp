#include "sinew/joints/RotaryCouplings.h"

#include <algorithm>
#include <cmath>

namespace sinew {

using C = RigidBodyConstraint;

namespace {

/// Sets the limit wrenches of rotary coordinates whose rates q̇ solve
/// [a0 a1 a2] q̇ = ω_D for the rotation axes a_l (in D): the rows of the
/// inverse, turned into G (eq. 4.34). Skipped at a singularity (gimbal
/// lock), where the angles themselves are undefined.
void setRateWrenches(RigidBodyCoupling& c, const Matrix3d& axesD, const RigidTransform3d& TGD, int n) {
  if (std::abs(axesD.determinant()) < 1e-9) return;
  const Matrix3d inv = axesD.inverse();
  for (int l = 0; l < n; ++l)
    c.getCoordinateInfo(l).limitConstraint->setWrenchG(Vector3d::Zero(),
                                                        TGD.R.transpose() * inv.row(l).transpose());
}

}  // namespace

// ---------------------------------------------------------------- spherical

SphericalCoupling::SphericalCoupling() { initializeConstraints(); }

void SphericalCoupling::initializeConstraints() {
  for (int i = 0; i < 3; ++i) addConstraint(C::BILATERAL | C::LINEAR, Wrench::Unit(i));
  addConstraint(C::ROTARY);  // tilt or total-rotation limit
}

double SphericalCoupling::tilt(const Matrix3d& RCD) { return std::acos(std::clamp(RCD(2, 2), -1.0, 1.0)); }

void SphericalCoupling::projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                             Eigen::VectorXd*) const {
  TGD = RigidTransform3d(Vector3d::Zero(), TCD.R);
}

int SphericalCoupling::bilateralErrors(const RigidTransform3d& TCD, double* phi, Twist& errC) const {
  RigidTransform3d TGD;
  errC = projectedError(TCD, TGD);
  for (int i = 0; i < 3; ++i) phi[i] = errC[i];  // the constant unit wrenches of initializeConstraints
  return 3;
}

void SphericalCoupling::updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d&, const Twist&,
                                          const Twist&, bool updateEngaged) {
  RigidBodyConstraint& lim = getConstraint(3);
  if (!updateEngaged) return;
  if (limit == Limit::Tilt) {
    // d(tilt)/dt = −ω_D·u with u the unit vector along z_C × z_D.
    Vector3d u = (TGD.R * Vector3d::UnitZ()).cross(Vector3d::UnitZ());
    u = u.norm() > 1e-12 ? u.normalized() : Vector3d::UnitX();
    lim.setWrenchG(Vector3d::Zero(), -(TGD.R.transpose() * u));
    RigidBodyCoupling::updateEngaged(lim, tilt(TGD.R), -INFINITY, maxTilt);
  } else if (limit == Limit::Rotation) {
    // The rotation angle grows along its own axis: θ̇ = u·ω.
    Eigen::AngleAxisd aa(TGD.R);
    const Vector3d u = aa.angle() > 1e-12 ? aa.axis() : Vector3d::UnitX();
    lim.setWrenchG(Vector3d::Zero(), u);
    RigidBodyCoupling::updateEngaged(lim, aa.angle(), -INFINITY, maxRotation.cwiseProduct(u).norm());
  } else {
    lim.setEngaged(0);
  }
}

// ---------------------------------------------------------------- gimbal

GimbalCoupling::GimbalCoupling(EulerOrder order, bool reversed) : myReversed(reversed) {
  setOrder(order);
  initializeConstraints();
}

void GimbalCoupling::setOrder(EulerOrder order) {
  static const int axes[6][3] = {{2, 1, 0}, {0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}};
  myOrder = order;
  std::copy(axes[int(order)], axes[int(order)] + 3, myAxes);
}

void GimbalCoupling::initializeConstraints() {
  for (int i = 0; i < 3; ++i) addConstraint(C::BILATERAL | C::LINEAR, Wrench::Unit(i));
  addCoordinate("roll", -INFINITY, INFINITY, &addConstraint(C::ROTARY));
  addCoordinate("pitch", -INFINITY, INFINITY, &addConstraint(C::ROTARY));
  addCoordinate("yaw", -INFINITY, INFINITY, &addConstraint(C::ROTARY));
}

Matrix3d GimbalCoupling::anglesRotation(const Eigen::VectorXd& q) const {
  return axisRotation(myAxes[0], q[0]) * axisRotation(myAxes[1], q[1]) * axisRotation(myAxes[2], q[2]);
}

void GimbalCoupling::coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& q) const {
  const Matrix3d R = anglesRotation(q);
  TCD = RigidTransform3d(Vector3d::Zero(), myReversed ? Matrix3d(R.transpose()) : R);
}

void GimbalCoupling::TCDToCoordinates(Eigen::VectorXd& q, const RigidTransform3d& TCD) const {
  // R = R_i(a) R_j(b) R_k(c); e = ±1 for an even/odd axis permutation.
  const int i = myAxes[0], j = myAxes[1], k = myAxes[2];
  const double e = (j - i + 3) % 3 == 1 ? 1.0 : -1.0;
  const Matrix3d R = myReversed ? Matrix3d(TCD.R.transpose()) : TCD.R;
  q.resize(3);
  q[0] = getCoordinateInfo(0).nearestAngle(std::atan2(-e * R(j, k), R(k, k)));
  q[1] = std::asin(std::clamp(e * R(i, k), -1.0, 1.0));
  q[2] = getCoordinateInfo(2).nearestAngle(std::atan2(-e * R(i, j), R(i, i)));
}

void GimbalCoupling::projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                          Eigen::VectorXd* coords) const {
  TGD = RigidTransform3d(Vector3d::Zero(), TCD.R);
  if (coords) TCDToCoordinates(*coords, TGD);
}

void GimbalCoupling::updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d&, const Twist&,
                                       const Twist&, bool) {
  // ω_D = ȧ e_i + ḃ R_i(a) e_j + ċ R_i(a) R_j(b) e_k.
  const Matrix3d Ri = axisRotation(myAxes[0], getCoordinateInfo(0).value);
  const Matrix3d Rij = Ri * axisRotation(myAxes[1], getCoordinateInfo(1).value);
  Matrix3d axes;
  axes << Vector3d::Unit(myAxes[0]), Ri * Vector3d::Unit(myAxes[1]), Rij * Vector3d::Unit(myAxes[2]);
  if (myReversed) {
    // R_CD = Rᵀ with R the angles' rotation: ω'_D = −Rᵀ ω_D.
    const Matrix3d R = Rij * axisRotation(myAxes[2], getCoordinateInfo(2).value);
    axes = -R.transpose() * axes;
  }
  setRateWrenches(*this, axes, TGD, 3);
}

// ---------------------------------------------------------------- universal

UniversalCoupling::UniversalCoupling(double skew, bool reversed) : mySkew(skew), myReversed(reversed) {
  initializeConstraints();
}

Matrix3d UniversalCoupling::anglesRotation(const Eigen::VectorXd& q) const {
  return axisRotation(2, q[0]) * axisRotation(0, mySkew) * axisRotation(1, q[1]) * axisRotation(0, -mySkew);
}

Matrix3d UniversalCoupling::axesD(const Eigen::VectorXd& q) const {
  // Allowed: ω_D = θ̇ z + φ̇ u with u = R_z(θ) R_x(α) y; x' = R_z(θ) x is
  // normal to both, so rotation about it is forbidden. Reversed (R_CD =
  // Rᵀ), each is turned by −Rᵀ (ω'_D = −Rᵀ ω_D).
  const Matrix3d Rz = axisRotation(2, q[0]);
  Matrix3d axes;
  axes << Vector3d::UnitZ(), Rz * axisRotation(0, mySkew) * Vector3d::UnitY(), Rz * Vector3d::UnitX();
  return myReversed ? Matrix3d(-anglesRotation(q).transpose() * axes) : axes;
}

void UniversalCoupling::initializeConstraints() {
  for (int i = 0; i < 3; ++i) addConstraint(C::BILATERAL | C::LINEAR, Wrench::Unit(i));
  addConstraint(C::BILATERAL | C::ROTARY);  // about x', normal to both rotation axes
  addCoordinate("roll", -INFINITY, INFINITY, &addConstraint(C::ROTARY));
  addCoordinate("pitch", -INFINITY, INFINITY, &addConstraint(C::ROTARY));
}

void UniversalCoupling::coordinatesToTCD(RigidTransform3d& TCD, const Eigen::VectorXd& q) const {
  // R_CD = R_z(θ) R_x(α) R_y(φ) R_x(−α): roll, then pitch about the skewed
  // y' (its transpose when reversed: the angles describe R_DC).
  const Matrix3d R = anglesRotation(q);
  TCD = RigidTransform3d(Vector3d::Zero(), myReversed ? Matrix3d(R.transpose()) : R);
}

void UniversalCoupling::TCDToCoordinates(Eigen::VectorXd& q, const RigidTransform3d& TCD) const {
  // The third row of R does not depend on θ: −cα sφ, …, sα² + cα² cφ; the
  // first column is R_z(θ) (cφ, sα sφ, −cα sφ).
  const Matrix3d R = myReversed ? Matrix3d(TCD.R.transpose()) : TCD.R;
  const double ca = std::cos(mySkew), sa = std::sin(mySkew);
  const double phi = std::atan2(-R(2, 0) * ca, R(2, 2) - sa * sa);
  const double theta = std::atan2(R(1, 0), R(0, 0)) - std::atan2(sa * std::sin(phi), std::cos(phi));
  q.resize(2);
  q[0] = getCoordinateInfo(0).nearestAngle(theta);
  q[1] = getCoordinateInfo(1).nearestAngle(phi);
}

void UniversalCoupling::projectToConstraints(RigidTransform3d& TGD, const RigidTransform3d& TCD,
                                             Eigen::VectorXd* coords) const {
  // The closed form of TCDToCoordinates is exact on the allowed set; off
  // it, two Gauss–Newton steps make the error T_CG normal to the allowed
  // rotations (about z and the pitch axis u), so that the constraint
  // distance carries all of it.
  Eigen::VectorXd q;
  TCDToCoordinates(q, TCD);
  for (int it = 0; it < 2; ++it) {
    coordinatesToTCD(TGD, q);
    const Vector3d e = errorTwist(TGD.inverse() * TCD).tail<3>();
    const Eigen::Matrix<double, 3, 2> J = TGD.R.transpose() * axesD(q).leftCols<2>();
    q += J.colPivHouseholderQr().solve(e);
  }
  coordinatesToTCD(TGD, q);
  if (coords) *coords = q;
}

void UniversalCoupling::updateConstraints(const RigidTransform3d& TGD, const RigidTransform3d&, const Twist&,
                                          const Twist&, bool) {
  const Matrix3d axes = axesD(Eigen::Vector2d(getCoordinateInfo(0).value, getCoordinateInfo(1).value));
  getConstraint(3).setWrenchG(Vector3d::Zero(), TGD.R.transpose() * axes.col(2));
  setRateWrenches(*this, axes, TGD, 2);
}

namespace {
int allRotations(Matrix6d& S) {
  for (int i = 0; i < 3; ++i) S.col(i) = Twist::Unit(3 + i);
  return 3;
}
}  // namespace

int SphericalCoupling::getFixedMotionSubspace(Matrix6d& S) const { return allRotations(S); }
int GimbalCoupling::getFixedMotionSubspace(Matrix6d& S) const { return allRotations(S); }

}  // namespace sinew
