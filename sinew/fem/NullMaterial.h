// NullMaterial (guide §6.8): produces no stress and no stiffness, so that
// only augmenting materials act on the elements that use it.
#pragma once

#include "sinew/fem/FemMaterial.h"

namespace sinew {

class NullMaterial : public FemMaterial {
 public:
  const PropertyList& getAllPropertyInfo() const override { return HasProperties::staticPropertyInfo(); }
  void computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint&) const override {
    sigma.setZero();
    if (D) D->setZero();
  }
  double computeStrainEnergyDensity(const DeformedPoint&) const override { return 0; }
  bool isInvertible() const override { return true; }
  void scaleModuli(double) override {}
  std::unique_ptr<FemMaterial> clone() const override { return std::make_unique<NullMaterial>(*this); }
};

}  // namespace sinew
