#include "sinew/fem/IncompNeoHookeanMaterial.h"

namespace sinew {

SINEW_PROPERTIES(IncompNeoHookeanMaterial, IncompressibleMaterial) {
  list.add<IncompNeoHookeanMaterial>("shearModulus", "shear modulus G", &IncompNeoHookeanMaterial::getShearModulus,
                                     &IncompNeoHookeanMaterial::setShearModulus)
      .setDefault(150000.0);
}

IncompNeoHookeanMaterial::IncompNeoHookeanMaterial(double G, double kappa)
    : IncompressibleMaterial(kappa), myG(checkNonNegative(G, "shearModulus")) {}

void IncompNeoHookeanMaterial::setShearModulus(double G) { myG = checkNonNegative(G, "shearModulus"); }

void IncompNeoHookeanMaterial::computeDevStressAndTangent(Matrix3d& sigma, Matrix6d* D,
                                                          const DeformedPoint& def) const {
  InvariantDerivatives W;
  W.W1 = 0.5 * myG;
  computeInvariantDevStressAndTangent(sigma, D, computeIsochoricInvariants(def), def.J, W);
}

double IncompNeoHookeanMaterial::computeDevStrainEnergyDensity(const DeformedPoint& def) const {
  return 0.5 * myG * (computeIsochoricInvariants(def).I1 - 3);
}

std::unique_ptr<FemMaterial> IncompNeoHookeanMaterial::clone() const {
  return std::make_unique<IncompNeoHookeanMaterial>(*this);
}

}  // namespace sinew
