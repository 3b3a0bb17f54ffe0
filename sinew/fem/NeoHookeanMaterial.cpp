#include "sinew/fem/NeoHookeanMaterial.h"

#include <cmath>

#include "sinew/fem/TensorUtils.h"

namespace sinew {

void NeoHookeanMaterial::computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const {
  double lambda = getLambda(), mu = getMu(), J = def.J, lnJ = std::log(J);
  Matrix3d b = def.F * def.F.transpose();
  sigma = (mu / J) * (b - Matrix3d::Identity()) + (lambda * lnJ / J) * Matrix3d::Identity();
  if (D) *D = (lambda / J) * voigtIdentityOuter() + (2 * (mu - lambda * lnJ) / J) * voigtSymIdentity();
}

double NeoHookeanMaterial::computeStrainEnergyDensity(const DeformedPoint& def) const {
  double mu = getMu(), lnJ = std::log(def.J);
  return 0.5 * mu * (def.F.squaredNorm() - 3) - mu * lnJ + 0.5 * getLambda() * lnJ * lnJ;
}

std::unique_ptr<FemMaterial> NeoHookeanMaterial::clone() const { return std::make_unique<NeoHookeanMaterial>(*this); }

}  // namespace sinew
