#include "sinew/mech/FrameMaterial.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace sinew {

namespace {

Vector3d checked(const Vector3d& v, const char* what) {
  if (!v.allFinite() || (v.array() < 0).any()) {
    std::ostringstream msg;
    msg << what << " must be finite and non-negative, got (" << v.transpose() << ")";
    throw ModelError(msg.str());
  }
  return v;
}

/// vee(½(M − Mᵀ)): the axial vector of the skew part of M.
Vector3d skewPart(const Matrix3d& M) {
  return 0.5 * Vector3d(M(2, 1) - M(1, 2), M(0, 2) - M(2, 0), M(1, 0) - M(0, 1));
}

}  // namespace

double FrameMaterial::computeEnergy(const RigidTransform3d&) const {
  return std::numeric_limits<double>::quiet_NaN();
}

// ------------------------------------------------------------ linear

SINEW_PROPERTIES(LinearFrameMaterial, HasProperties) {
  using M = LinearFrameMaterial;
  auto set = [](void (M::*f)(const Vector3d&)) { return [f](M& m, const Vector3d& v) { (m.*f)(v); }; };
  list.add<M>("stiffness", "translational stiffness k_t (x, y, z)", &M::getStiffness, set(&M::setStiffness));
  list.add<M>("rotaryStiffness", "rotational stiffness k_r (x, y, z)", &M::getRotaryStiffness,
              set(&M::setRotaryStiffness));
  list.add<M>("damping", "translational damping d_t (x, y, z)", &M::getDamping, set(&M::setDamping));
  list.add<M>("rotaryDamping", "rotational damping d_r (x, y, z)", &M::getRotaryDamping,
              set(&M::setRotaryDamping));
}

LinearFrameMaterial::LinearFrameMaterial(double kt, double kr, double dt, double dr) {
  setStiffness(kt);
  setRotaryStiffness(kr);
  setDamping(dt);
  setRotaryDamping(dr);
}

void LinearFrameMaterial::setStiffness(const Vector3d& k) { myKt = checked(k, "stiffness"); }
void LinearFrameMaterial::setRotaryStiffness(const Vector3d& k) { myKr = checked(k, "rotaryStiffness"); }
void LinearFrameMaterial::setDamping(const Vector3d& d) { myDt = checked(d, "damping"); }
void LinearFrameMaterial::setRotaryDamping(const Vector3d& d) { myDr = checked(d, "rotaryDamping"); }

Wrench LinearFrameMaterial::computeF(const RigidTransform3d& TDC, const Twist& vDC) const {
  Wrench w;
  w.head<3>() = myKt.cwiseProduct(TDC.p) + myDt.cwiseProduct(vDC.head<3>());
  w.tail<3>() = myKr.cwiseProduct(rotationVector(TDC.R)) + myDr.cwiseProduct(vDC.tail<3>());
  return w;
}

Matrix6d LinearFrameMaterial::computeDFdq(const RigidTransform3d& TDC, const Twist&) const {
  Matrix6d W = Matrix6d::Zero();
  W.topLeftCorner<3, 3>() = myKt.asDiagonal();
  W.bottomRightCorner<3, 3>() = myKr.asDiagonal() * rotationVectorJacobian(TDC.R);
  return W;
}

Matrix6d LinearFrameMaterial::computeDFdu(const RigidTransform3d&, const Twist&) const {
  Vector6d d;
  d << myDt, myDr;
  return d.asDiagonal();
}

double LinearFrameMaterial::computeEnergy(const RigidTransform3d& TDC) const {
  if (myKr.maxCoeff() != myKr.minCoeff()) return std::numeric_limits<double>::quiet_NaN();
  return 0.5 * TDC.p.dot(myKt.cwiseProduct(TDC.p)) + myKr.x() * rotationPotential(TDC.R);
}

std::unique_ptr<FrameMaterial> LinearFrameMaterial::clone() const {
  return std::make_unique<LinearFrameMaterial>(*this);
}

Vector3d LinearFrameMaterial::rotationVector(const Matrix3d& R) const { return skewPart(R); }

Matrix3d LinearFrameMaterial::rotationVectorJacobian(const Matrix3d& R) const {
  // δ(R − Rᵀ) = [δφ]R + Rᵀ[δφ], whose axial vector is (tr R·I − R)δφ.
  return 0.5 * (R.trace() * Matrix3d::Identity() - R);
}

double LinearFrameMaterial::rotationPotential(const Matrix3d& R) const {
  return 0.5 * (3 - R.trace());  // 1 − cos θ
}

// ------------------------------------------------------------ rotation axis

std::unique_ptr<FrameMaterial> RotAxisFrameMaterial::clone() const {
  return std::make_unique<RotAxisFrameMaterial>(*this);
}

Vector3d RotAxisFrameMaterial::rotationVector(const Matrix3d& R) const {
  Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

Matrix3d RotAxisFrameMaterial::rotationVectorJacobian(const Matrix3d& R) const {
  // log(exp([δφ])R) = φ + J⁻¹δφ with the inverse left Jacobian of SO(3):
  // J⁻¹ = I − ½[φ] + c[φ]², c = 1/θ² − (1 + cos θ)/(2θ sin θ) → 1/12.
  const Vector3d phi = rotationVector(R);
  const double th = phi.norm();
  const double c = th < 1e-4 ? 1.0 / 12 + th * th / 720
                             : 1 / (th * th) - (1 + std::cos(th)) / (2 * th * std::sin(th));
  const Matrix3d P = skew(phi);
  return Matrix3d::Identity() - 0.5 * P + c * P * P;
}

double RotAxisFrameMaterial::rotationPotential(const Matrix3d& R) const {
  return 0.5 * rotationVector(R).squaredNorm();  // ½θ²
}

}  // namespace sinew
