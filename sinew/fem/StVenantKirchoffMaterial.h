// StVenantKirchoffMaterial (spelled as in guide Table 6.3): the linear law
// carried over to large deformation through the Green strain,
// W = ½λ (tr E)² + μ tr(E²), E = ½(FᵀF − I), with λ, μ from E and ν as in
// eq. (6.2). Rotation invariant, but it softens and fails under strong
// compression.
#pragma once

#include "sinew/fem/FemMaterial.h"

namespace sinew {

class StVenantKirchoffMaterial : public IsotropicMaterial {
 public:
  StVenantKirchoffMaterial(double E = 500000, double nu = 0.33) : IsotropicMaterial(E, nu) {}

  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeStrainEnergyDensity(const DeformedPoint& def) const override;
  std::unique_ptr<FemMaterial> clone() const override;
};

}  // namespace sinew
