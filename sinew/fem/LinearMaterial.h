// LinearMaterial: the default FEM material (guide §6.1.3, eq. 6.2, Table
// 6.3): σ = D ε with the isotropic D of λ and μ. Corotated by default: the
// element's rotation R (DeformedPoint::R, the polar rotation at the warping
// point) is removed before the strain is taken, ε = sym(RᵀF) − I, and the
// stress rotated back, σ = R (D ε) Rᵀ — stiffness warping, so large rigid
// rotations produce no stress. Its tangent leaves out the derivative of R,
// as ArtiSynth's does, unless `exactTangent` is set (ElementKernels.h).
#pragma once

#include "sinew/fem/FemMaterial.h"

namespace sinew {

class LinearMaterial : public IsotropicMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  LinearMaterial(double E = 500000, double nu = 0.33, bool corotated = true);

  bool getCorotated() const { return myCorotated; }
  void setCorotated(bool corotated) { myCorotated = corotated; }
  bool getExactTangent() const { return myExactTangent; }
  void setExactTangent(bool exact) { myExactTangent = exact; }

  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeStrainEnergyDensity(const DeformedPoint& def) const override;
  bool isLinear() const override { return true; }
  bool isCorotated() const override { return myCorotated; }
  bool hasExactRotationTangent() const override { return myCorotated && myExactTangent; }
  bool isInvertible() const override { return true; }
  std::unique_ptr<FemMaterial> clone() const override;

 private:
  bool myCorotated;
  bool myExactTangent = false;
};

/// The isotropic elasticity matrix D of eq. (6.2) in Voigt form.
Matrix6d isotropicElasticity(double lambda, double mu);

}  // namespace sinew
