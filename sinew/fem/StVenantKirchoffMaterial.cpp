#include "sinew/fem/StVenantKirchoffMaterial.h"

#include "sinew/fem/TensorUtils.h"

namespace sinew {

void StVenantKirchoffMaterial::computeStressAndTangent(Matrix3d& sigma, Matrix6d* D,
                                                       const DeformedPoint& def) const {
  double lambda = getLambda(), mu = getMu();
  Matrix3d E = greenStrain(def.F);
  // Second Piola–Kirchhoff stress S, pushed forward: σ = F S Fᵀ / J.
  Matrix3d S = lambda * E.trace() * Matrix3d::Identity() + 2 * mu * E;
  sigma = def.F * S * def.F.transpose() / def.J;
  if (D) {
    // The material tangent λ I⊗I + 2μ 𝕀 pushed forward: I becomes b = FFᵀ.
    Matrix3d b = def.F * def.F.transpose();
    *D = (lambda * voigtOuter(b, b) + 2 * mu * voigtSymProduct(b)) / def.J;
  }
}

double StVenantKirchoffMaterial::computeStrainEnergyDensity(const DeformedPoint& def) const {
  Matrix3d E = greenStrain(def.F);
  return 0.5 * getLambda() * E.trace() * E.trace() + getMu() * E.squaredNorm();
}

std::unique_ptr<FemMaterial> StVenantKirchoffMaterial::clone() const {
  return std::make_unique<StVenantKirchoffMaterial>(*this);
}

}  // namespace sinew
