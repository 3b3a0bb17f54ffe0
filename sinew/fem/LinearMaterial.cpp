#include "sinew/fem/LinearMaterial.h"

#include "sinew/fem/TensorUtils.h"

namespace sinew {

SINEW_PROPERTIES(LinearMaterial, IsotropicMaterial) {
  list.add<LinearMaterial>("corotated", "remove each element's rotation before taking the strain",
                           &LinearMaterial::getCorotated, &LinearMaterial::setCorotated)
      .setDefault(true);
  list.add<LinearMaterial>("exactTangent",
                           "include the derivative of the element rotation in the tangent stiffness (corotated only)",
                           &LinearMaterial::getExactTangent, &LinearMaterial::setExactTangent)
      .setDefault(false);
}

LinearMaterial::LinearMaterial(double E, double nu, bool corotated)
    : IsotropicMaterial(E, nu), myCorotated(corotated) {}

Matrix6d isotropicElasticity(double lambda, double mu) {
  return lambda * voigtIdentityOuter() + 2 * mu * voigtSymIdentity();
}

void LinearMaterial::computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const {
  double lambda = getLambda(), mu = getMu();
  Matrix3d R = myCorotated ? def.R : Matrix3d::Identity();
  Matrix3d eps = smallStrain(def.F, R);
  sigma = R * (lambda * eps.trace() * Matrix3d::Identity() + 2 * mu * eps) * R.transpose();
  // D is isotropic, hence unchanged by the rotation back to world axes.
  if (D) *D = isotropicElasticity(lambda, mu);
}

double LinearMaterial::computeStrainEnergyDensity(const DeformedPoint& def) const {
  Matrix3d eps = smallStrain(def.F, myCorotated ? def.R : Matrix3d::Identity());
  return 0.5 * getLambda() * eps.trace() * eps.trace() + getMu() * eps.squaredNorm();
}

std::unique_ptr<FemMaterial> LinearMaterial::clone() const { return std::make_unique<LinearMaterial>(*this); }

}  // namespace sinew
