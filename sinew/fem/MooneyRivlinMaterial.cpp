#include "sinew/fem/MooneyRivlinMaterial.h"

namespace sinew {

SINEW_PROPERTIES(MooneyRivlinMaterial, IncompressibleMaterial) {
  using M = MooneyRivlinMaterial;
  list.add<M>("C10", "coefficient of (I1 - 3)", &M::getC10, &M::setC10).setDefault(150000.0);
  list.add<M>("C01", "coefficient of (I2 - 3)", &M::getC01, &M::setC01).setDefault(0.0);
  list.add<M>("C11", "coefficient of (I1 - 3)(I2 - 3)", &M::getC11, &M::setC11).setDefault(0.0);
  list.add<M>("C20", "coefficient of (I1 - 3)^2", &M::getC20, &M::setC20).setDefault(0.0);
  list.add<M>("C02", "coefficient of (I2 - 3)^2", &M::getC02, &M::setC02).setDefault(0.0);
}

MooneyRivlinMaterial::MooneyRivlinMaterial(double C10, double C01, double C11, double C20, double C02, double kappa)
    : IncompressibleMaterial(kappa),
      myC10(checkFinite(C10, "C10")),
      myC01(checkFinite(C01, "C01")),
      myC11(checkFinite(C11, "C11")),
      myC20(checkFinite(C20, "C20")),
      myC02(checkFinite(C02, "C02")) {}

void MooneyRivlinMaterial::computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const {
  IsochoricInvariants inv = computeIsochoricInvariants(def);
  double e1 = inv.I1 - 3, e2 = inv.I2 - 3;
  InvariantDerivatives W;
  W.W1 = myC10 + myC11 * e2 + 2 * myC20 * e1;
  W.W2 = myC01 + myC11 * e1 + 2 * myC02 * e2;
  W.W11 = 2 * myC20;
  W.W12 = myC11;
  W.W22 = 2 * myC02;
  computeInvariantDevStressAndTangent(sigma, D, inv, def.J, W);
}

double MooneyRivlinMaterial::computeDevStrainEnergyDensity(const DeformedPoint& def) const {
  IsochoricInvariants inv = computeIsochoricInvariants(def);
  double e1 = inv.I1 - 3, e2 = inv.I2 - 3;
  return myC10 * e1 + myC01 * e2 + myC11 * e1 * e2 + myC20 * e1 * e1 + myC02 * e2 * e2;
}

std::unique_ptr<FemMaterial> MooneyRivlinMaterial::clone() const {
  return std::make_unique<MooneyRivlinMaterial>(*this);
}

}  // namespace sinew
