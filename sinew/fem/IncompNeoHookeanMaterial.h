// IncompNeoHookeanMaterial (guide Table 6.3, §6.7.3): the neo-Hookean law
// split into W̄ = ½G(Ī1 − 3) and the bulk potential U(J) of
// IncompressibleMaterial, with shear modulus G and bulk modulus κ.
#pragma once

#include "sinew/fem/IncompressibleMaterial.h"

namespace sinew {

class IncompNeoHookeanMaterial : public IncompressibleMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  IncompNeoHookeanMaterial(double G = 150000, double kappa = 100000);

  double getShearModulus() const { return myG; }
  void setShearModulus(double G);
  void scaleModuli(double f) override {
    IncompressibleMaterial::scaleModuli(f);
    setShearModulus(f * myG);
  }

  void computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeDevStrainEnergyDensity(const DeformedPoint& def) const override;
  std::unique_ptr<FemMaterial> clone() const override;

 private:
  double myG;
};

}  // namespace sinew
