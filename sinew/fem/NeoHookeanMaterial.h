// NeoHookeanMaterial: the compressible neo-Hookean law of guide Table 6.3,
// W = ½μ(tr C − 3) − μ ln J + ½λ (ln J)², with λ, μ from E and ν as in
// eq. (6.2), so that it matches LinearMaterial for small strains. Its
// Cauchy stress is σ = (μ/J)(b − I) + (λ ln J / J) I, b = FFᵀ.
#pragma once

#include "sinew/fem/FemMaterial.h"

namespace sinew {

class NeoHookeanMaterial : public IsotropicMaterial {
 public:
  NeoHookeanMaterial(double E = 500000, double nu = 0.33) : IsotropicMaterial(E, nu) {}

  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeStrainEnergyDensity(const DeformedPoint& def) const override;
  std::unique_ptr<FemMaterial> clone() const override;
};

}  // namespace sinew
