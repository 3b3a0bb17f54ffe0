#include "sinew/fem/IncompressibleMaterial.h"

#include <cmath>

#include "sinew/fem/TensorUtils.h"

namespace sinew {

const std::vector<std::string>& EnumNames<BulkPotential>::get() {
  static const std::vector<std::string> n{"QUADRATIC", "LOGARITHMIC"};
  return n;
}

SINEW_PROPERTIES(IncompressibleMaterial, HasProperties) {
  list.add<IncompressibleMaterial>("bulkModulus", "bulk modulus kappa", &IncompressibleMaterial::getBulkModulus,
                                   &IncompressibleMaterial::setBulkModulus)
      .setDefault(100000.0);
  list.add<IncompressibleMaterial>("bulkPotential", "bulk potential U(J)", &IncompressibleMaterial::getBulkPotential,
                                   &IncompressibleMaterial::setBulkPotential)
      .setDefault(std::string("QUADRATIC"));
}

IncompressibleMaterial::IncompressibleMaterial(double kappa) : myKappa(checkNonNegative(kappa, "bulkModulus")) {}

void IncompressibleMaterial::setBulkModulus(double kappa) { myKappa = checkNonNegative(kappa, "bulkModulus"); }

double IncompressibleMaterial::computeBulkEnergyDensity(double J) const {
  double e = myPotential == BulkPotential::QUADRATIC ? J - 1 : std::log(J);
  return 0.5 * myKappa * e * e;
}

double IncompressibleMaterial::computePressure(double J) const {
  return myPotential == BulkPotential::QUADRATIC ? myKappa * (J - 1) : myKappa * std::log(J) / J;
}

double IncompressibleMaterial::computePressureDerivative(double J) const {
  return myPotential == BulkPotential::QUADRATIC ? myKappa : myKappa * (1 - std::log(J)) / (J * J);
}

void IncompressibleMaterial::addPressureStressAndTangent(Matrix3d& sigma, Matrix6d* D, double p) {
  sigma.diagonal().array() += p;
  if (D) *D += p * (voigtIdentityOuter() - 2 * voigtSymIdentity());
}

void IncompressibleMaterial::computeStressAndTangent(Matrix3d& sigma, Matrix6d* D, const DeformedPoint& def) const {
  computeDevStressAndTangent(sigma, D, def);
  addPressureStressAndTangent(sigma, D, computePressure(def.J));
  if (D) *D += def.J * computePressureDerivative(def.J) * voigtIdentityOuter();
}

double IncompressibleMaterial::computeStrainEnergyDensity(const DeformedPoint& def) const {
  return computeDevStrainEnergyDensity(def) + computeBulkEnergyDensity(def.J);
}

IsochoricInvariants computeIsochoricInvariants(const DeformedPoint& def) {
  Matrix3d bbar = std::pow(def.J, -2.0 / 3.0) * def.F * def.F.transpose();
  double I1 = bbar.trace();
  return {bbar, I1, 0.5 * (I1 * I1 - (bbar * bbar).trace())};
}

void computeInvariantDevStressAndTangent(Matrix3d& sigma, Matrix6d* D, const IsochoricInvariants& inv,
                                         double J, const InvariantDerivatives& W) {
  // Kirchhoff stress of W̄ before the deviatoric projection:
  // τ̃ = 2(W1 b̄ + W2 Ā), Ā = Ī1 b̄ − b̄² (the push-forward of ∂Ī2/∂C̄).
  const Matrix3d& b = inv.bbar;
  Matrix3d A = inv.I1 * b - b * b;
  Matrix3d tauTilde = 2 * (W.W1 * b + W.W2 * A);
  double trTau = tauTilde.trace();
  Matrix3d tauDev = tauTilde - trTau / 3 * Matrix3d::Identity();
  sigma = tauDev / J;
  if (!D) return;
  // c̃: the push-forward of 4 ∂²W̄/∂C̄∂C̄; then the deviatoric projection
  // J c = ℙ:c̃:ℙ + ⅔ tr(τ̃) ℙ − ⅔ (τ_dev ⊗ I + I ⊗ τ_dev).
  Matrix6d cTilde = 4 * (W.W11 * voigtOuter(b, b) + W.W12 * (voigtOuter(b, A) + voigtOuter(A, b)) +
                         W.W22 * voigtOuter(A, A) + W.W2 * (voigtOuter(b, b) - voigtSymProduct(b)));
  // In Voigt form a contraction over a shear pair counts twice, so ℙ acts on
  // c̃ as Id − ⅓ 1 1ᵀ from both sides.
  Matrix6d Pm = Matrix6d::Identity() - voigtIdentityOuter() / 3;
  Matrix6d P = voigtSymIdentity() - voigtIdentityOuter() / 3;
  Matrix3d I = Matrix3d::Identity();
  *D = (Pm * cTilde * Pm + (2.0 / 3) * trTau * P - (2.0 / 3) * (voigtOuter(tauDev, I) + voigtOuter(I, tauDev))) / J;
}

}  // namespace sinew
