// MooneyRivlinMaterial (guide Table 6.3): the deviatoric energy
//   W̄ = C10(Ī1 − 3) + C01(Ī2 − 3) + C11(Ī1 − 3)(Ī2 − 3)
//       + C20(Ī1 − 3)² + C02(Ī2 − 3)²
// plus the bulk potential U(J) of IncompressibleMaterial. Constructor order
// (C10, C01, C11, C20, C02, κ) as ArtiSynth's; its small-strain shear
// modulus is G = 2(C10 + C01).
#pragma once

#include "sinew/fem/IncompressibleMaterial.h"

namespace sinew {

class MooneyRivlinMaterial : public IncompressibleMaterial {
  SINEW_DECLARE_PROPERTIES
 public:
  MooneyRivlinMaterial(double C10 = 150000, double C01 = 0, double C11 = 0, double C20 = 0, double C02 = 0,
                       double kappa = 100000);

  double getC10() const { return myC10; }
  void setC10(double c) { myC10 = checkFinite(c, "C10"); }
  double getC01() const { return myC01; }
  void setC01(double c) { myC01 = checkFinite(c, "C01"); }
  double getC11() const { return myC11; }
  void setC11(double c) { myC11 = checkFinite(c, "C11"); }
  double getC20() const { return myC20; }
  void setC20(double c) { myC20 = checkFinite(c, "C20"); }
  double getC02() const { return myC02; }
  void setC02(double c) { myC02 = checkFinite(c, "C02"); }
  void scaleModuli(double f) override {
    IncompressibleMaterial::scaleModuli(f);
    for (double* c : {&myC10, &myC01, &myC11, &myC20, &myC02}) *c *= f;
  }

  void computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const override;
  double computeDevStrainEnergyDensity(const DeformedPoint& def) const override;
  std::unique_ptr<FemMaterial> clone() const override;

 private:
  double myC10, myC01, myC11, myC20, myC02;
};

}  // namespace sinew
