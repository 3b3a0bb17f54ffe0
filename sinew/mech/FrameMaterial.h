// Frame materials: the force law of a frame spring (guide §3.5.2). A
// material maps the pose T_DC of frame D relative to frame C and their
// relative velocity to the restoring wrench (f_C, τ_C) on C, and supplies
// the derivatives the implicit integrators need.
//
// Everything is in C coordinates: x = T_DC.p, R = T_DC.R, and the relative
// twist v̂_DC = (ẋ, ω_DC). A small displacement of D relative to C is
// ξ = (δx, δφ) with δR = [δφ]·R; computeDFdq is ∂(f, τ)/∂ξ and computeDFdu
// is ∂(f, τ)/∂v̂_DC. FrameSpring turns these into body Jacobians.
#pragma once

#include <memory>

#include "sinew/math/Spatial.h"
#include "sinew/model/Property.h"

namespace sinew {

class FrameMaterial : public HasProperties {
 public:
  /// Wrench (f_C, τ_C) on C, in C coordinates.
  virtual Wrench computeF(const RigidTransform3d& TDC, const Twist& vDC) const = 0;
  /// ∂(f_C, τ_C)/∂ξ for a displacement ξ = (δx, δφ) of D relative to C.
  virtual Matrix6d computeDFdq(const RigidTransform3d& TDC, const Twist& vDC) const = 0;
  /// ∂(f_C, τ_C)/∂v̂_DC.
  virtual Matrix6d computeDFdu(const RigidTransform3d& TDC, const Twist& vDC) const = 0;
  virtual bool isDFduZero() const { return false; }
  /// Elastic energy stored at T_DC (NaN if the law has no potential).
  virtual double computeEnergy(const RigidTransform3d& TDC) const;
  virtual std::unique_ptr<FrameMaterial> clone() const = 0;
};

/// f_C = K_t x + D_t ẋ,  τ_C = K_r θ̂ + D_r ω_DC with diagonal K and D
/// (guide §3.5.2). θ̂ = vee(½(R − Rᵀ)) = sin θ·u is the small-angle
/// rotation vector. The diagonals are the Vector3 properties `stiffness`,
/// `rotaryStiffness`, `damping` and `rotaryDamping`, so the material may be
/// anisotropic; the constructor sets them isotropically.
class LinearFrameMaterial : public FrameMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  LinearFrameMaterial(double kt = 1, double kr = 1, double dt = 0, double dr = 0);

  const Vector3d& getStiffness() const { return myKt; }
  void setStiffness(const Vector3d& k);
  void setStiffness(double k) { setStiffness(Vector3d::Constant(k)); }
  const Vector3d& getRotaryStiffness() const { return myKr; }
  void setRotaryStiffness(const Vector3d& k);
  void setRotaryStiffness(double k) { setRotaryStiffness(Vector3d::Constant(k)); }
  const Vector3d& getDamping() const { return myDt; }
  void setDamping(const Vector3d& d);
  void setDamping(double d) { setDamping(Vector3d::Constant(d)); }
  const Vector3d& getRotaryDamping() const { return myDr; }
  void setRotaryDamping(const Vector3d& d);
  void setRotaryDamping(double d) { setRotaryDamping(Vector3d::Constant(d)); }

  Wrench computeF(const RigidTransform3d& TDC, const Twist& vDC) const override;
  Matrix6d computeDFdq(const RigidTransform3d& TDC, const Twist& vDC) const override;
  Matrix6d computeDFdu(const RigidTransform3d& TDC, const Twist& vDC) const override;
  bool isDFduZero() const override { return myDt.isZero(0) && myDr.isZero(0); }
  /// ½ xᵀK_t x plus the rotational energy; NaN when K_r is anisotropic
  /// (the torque K_r θ̂ then has no potential).
  double computeEnergy(const RigidTransform3d& TDC) const override;
  std::unique_ptr<FrameMaterial> clone() const override;

 protected:
  /// The rotation measure θ̂(R) that K_r multiplies, ∂θ̂/∂φ, and the
  /// potential whose gradient is k·θ̂ for an isotropic stiffness k = 1.
  virtual Vector3d rotationVector(const Matrix3d& R) const;
  virtual Matrix3d rotationVectorJacobian(const Matrix3d& R) const;
  virtual double rotationPotential(const Matrix3d& R) const;

 private:
  Vector3d myKt, myKr, myDt, myDr;
};

/// As LinearFrameMaterial, but τ_C = K_r θu with the full rotation vector
/// θu = log(R) in place of sin θ·u, so the restoring moment keeps growing
/// with the angle up to θ = π.
class RotAxisFrameMaterial : public LinearFrameMaterial {
 public:
  using LinearFrameMaterial::LinearFrameMaterial;
  std::unique_ptr<FrameMaterial> clone() const override;

 protected:
  Vector3d rotationVector(const Matrix3d& R) const override;
  Matrix3d rotationVectorJacobian(const Matrix3d& R) const override;
  double rotationPotential(const Matrix3d& R) const override;
};

}  // namespace sinew
